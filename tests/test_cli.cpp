// The command line as a user meets it: exit codes, messages, JSON, and no partial output.
#include "corpus.hpp"
#include "test_util.hpp"

#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <sys/wait.h>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace cli_tests {

using namespace msh;
namespace fs = std::filesystem;

using test::q;
using test::Run;
using test::run;
using test::scratch;

namespace {

// First nested model entry of an archive.
std::string first_model(const fs::path& archive) {
    nres::Archive ar = nres::read(read_file(archive), ReadMode::Strict, archive.string());
    for (const nres::Entry& e : ar.entries)
        if (nres::looks_like_nres(e.data)) return e.name();
    return {};
}

std::string read_file_text(const fs::path& p) {
    const Bytes b = read_file(p);
    return std::string(b.begin(), b.end());
}

} // namespace

BOOST_AUTO_TEST_SUITE(cli)

// Under ctest the folder is the fixture's, written by `mshconv samples`: it holds what the
// generator makes in this process, and nothing else.
BOOST_AUTO_TEST_CASE(samples_command_writes_the_generator_output) {
    const std::vector<samples::GeneratedFile> generated = samples::generate_corpus({});
    for (const auto& f : generated) {
        fs::path p = test::corpus_dir() / f.relative_path;
        BOOST_REQUIRE(fs::exists(p));
        BOOST_TEST((read_file(p) == f.bytes), p);
    }
    size_t on_disk = 0;
    for (const auto& e : fs::recursive_directory_iterator(test::corpus_dir()))
        on_disk += e.is_regular_file();
    BOOST_TEST(on_disk == generated.size());
    // corpus() gives the same files in the generator's order.
    BOOST_REQUIRE_EQUAL(test::corpus().size(), generated.size());
    for (size_t i = 0; i < generated.size(); ++i) {
        BOOST_TEST(test::corpus()[i].relative_path == generated[i].relative_path);
        BOOST_TEST((test::corpus()[i].bytes == generated[i].bytes), generated[i].relative_path);
    }
}

BOOST_AUTO_TEST_CASE(validate_strict_passes_on_every_corpus_file) {
    size_t terrains = 0;
    for (const auto& f : test::corpus()) {
        if (!nres::looks_like_nres(f.bytes)) continue; // WEAR text beside the maps
        Run r = test::mshconv("validate --strict " + q(test::corpus_dir() / f.relative_path));
        BOOST_TEST(r.code == 0, f.relative_path << ": " << r.out);
        BOOST_TEST(r.out.find("0 errors, 0 warnings") != std::string::npos, r.out);
        terrains += r.out.find("terrain") != std::string::npos;
    }
    BOOST_TEST(terrains >= 6u); // every Land.msh was read as terrain
}

BOOST_AUTO_TEST_CASE(info_json_describes_a_nested_model) {
    fs::path archive = test::corpus_dir() / "static.rlb";
    std::string entry = first_model(archive);
    BOOST_REQUIRE(!entry.empty());
    // Lookup is case-insensitive.
    std::string upper = entry;
    for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
    Run r = test::mshconv("info --json " + q(archive) + ":" + upper);
    BOOST_REQUIRE_EQUAL(r.code, 0);
    auto j = nlohmann::json::parse(r.out);
    nres::Archive ar = nres::read(read_file(archive), ReadMode::Strict, "static.rlb");
    Model m = read_model(ar.entries[*ar.find(entry)].data, ReadMode::Strict, entry);
    const auto& jm = j.at("model");
    BOOST_TEST(j.at("kind") == "model");
    BOOST_TEST(jm.at("node_count").get<size_t>() == m.nodes.size());
    BOOST_TEST(jm.at("nodes").size() == m.nodes.size());
    BOOST_TEST(jm.at("slot_count").get<size_t>() == m.slots.size());
    BOOST_TEST(jm.at("batch_count").get<size_t>() == m.batches.size());
    BOOST_TEST(jm.at("vertex_count").get<size_t>() == m.positions.size());
    BOOST_TEST(jm.at("triangle_count").get<size_t>() == m.indices.size() / 3);
    BOOST_TEST(jm.at("animation").at("frame_count").get<uint32_t>() == m.animation.frame_count);
    size_t drawn = 0;
    for (const auto& u : jm.at("lod_group_usage")) drawn += u.at("triangles").get<size_t>();
    BOOST_TEST(drawn == m.triangles.size());
}

BOOST_AUTO_TEST_CASE(info_lists_archive_entries) {
    Run r = test::mshconv("info --json " + q(test::corpus_dir() / "system.rlb"));
    BOOST_REQUIRE_EQUAL(r.code, 0);
    auto j = nlohmann::json::parse(r.out);
    BOOST_TEST(j.at("kind") == "archive");
    size_t models = 0;
    for (const auto& e : j.at("entries")) models += e.contains("model");
    BOOST_TEST(models > 0u);
}

// info and validate say which case fold an archive's sort index follows (nres.md §5).
BOOST_AUTO_TEST_CASE(info_and_validate_name_the_sort_fold) {
    const std::string lib = q(test::corpus_dir() / "static.rlb"); // A_B.msh before aab.msh
    Run i = test::mshconv("info " + lib);
    BOOST_TEST(i.code == 0);
    BOOST_TEST(i.out.find("sort index: lower fold") != std::string::npos, i.out);
    Run j = test::mshconv("info --json " + lib);
    BOOST_TEST(nlohmann::json::parse(j.out).at("sort_fold") == "lower");
    Run v = test::mshconv("validate --strict " + lib);
    BOOST_TEST(v.code == 0);
    BOOST_TEST(v.out.find("sort index: lower fold") != std::string::npos, v.out);
    Run vj = test::mshconv("validate --json " + lib);
    BOOST_TEST(nlohmann::json::parse(vj.out).at("sort_folds").at("lower") == 1);
}

// --reading NAME=VARIANT: an unknown name or variant is a usage error that lists the known ones;
// an export records its readings.
BOOST_AUTO_TEST_CASE(reading_option_selects_and_records) {
    const fs::path lib = test::corpus_dir() / "static.rlb";
    const std::string in = q(lib) + ":" + first_model(lib);
    Run bad = test::mshconv("convert " + in + " " + q(scratch("r.glb")) + " --reading quat=wxyz");
    BOOST_TEST(bad.code == 2);
    BOOST_TEST(bad.out.find("key-quaternion") != std::string::npos, bad.out);
    Run bad_variant =
        test::mshconv("convert " + in + " " + q(scratch("r.glb")) + " --reading texm-rgb=grb");
    BOOST_TEST(bad_variant.code == 2);
    BOOST_TEST(bad_variant.out.find("bgr, rgb") != std::string::npos, bad_variant.out);
    Run ok = test::mshconv("convert " + in + " " + q(scratch("r.glb")) +
                           " --reading key-quaternion=wxyz --reading batch-material=wear-id");
    BOOST_REQUIRE_MESSAGE(ok.code == 0, ok.out);
    const auto sc = nlohmann::json::parse(read_file_text(scratch("r.sidecar.json")));
    BOOST_TEST(sc.at("export").at("readings").at("key-quaternion") == "wxyz");
    BOOST_TEST(sc.at("export").at("readings").at("batch-material") == "wear-id");
    BOOST_TEST(sc.at("export").at("readings").at("texm-rgb") == "bgr");
}

// A Texm of pixel format 1 or 2 (earlier releases, external palettes) is refused with the
// field's offset and what the tool can do with it.
BOOST_AUTO_TEST_CASE(earlier_pixel_formats_are_refused_clearly) {
    ByteWriter w;
    for (uint32_t v : {nres::fourcc("Texm"), 4u, 4u, 1u, 0u, 0u, 0u, 2u}) w.put(v);
    w.put_zeros(16);
    const fs::path texm = scratch("old.texm");
    write_file_atomic(texm, w.take());
    Run r = test::mshconv("convert " + q(texm) + " " + q(scratch("old.png")));
    BOOST_TEST(r.code == 1);
    BOOST_TEST(r.out.find("offset 28") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("unknown pixel format 2") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("external palette") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("cannot convert it to PNG") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("copied through raw") == std::string::npos, r.out);
    BOOST_TEST(!fs::exists(scratch("old.png")));
}

BOOST_AUTO_TEST_CASE(extract_then_pack_is_byte_identical) {
    for (const auto& f : test::corpus()) {
        if (!nres::looks_like_nres(f.bytes)) continue;
        std::string flat = f.relative_path;
        std::replace(flat.begin(), flat.end(), '/', '_');
        fs::path dir = scratch("x_" + flat);
        fs::path out = scratch("packed_" + flat);
        Run a = test::mshconv("nres extract " + q(test::corpus_dir() / f.relative_path) + " -o " +
                              q(dir));
        BOOST_REQUIRE_MESSAGE(a.code == 0, a.out);
        Run b = test::mshconv("nres pack " + q(dir) + " -o " + q(out));
        BOOST_REQUIRE_MESSAGE(b.code == 0, b.out);
        BOOST_TEST((read_file(out) == f.bytes), f.relative_path);
    }
}

BOOST_AUTO_TEST_CASE(corrupt_input_exits_1_naming_file_and_offset) {
    fs::path bad = scratch("bad.msh");
    Bytes b = read_file(test::corpus_dir() / "static.rlb");
    b[4] = 0x7F; // version
    write_file_atomic(bad, b);
    Run r = test::mshconv("validate " + q(bad));
    BOOST_TEST(r.code == 1);
    BOOST_TEST(r.out.find(bad.string()) != std::string::npos, r.out);
    BOOST_TEST(r.out.find("offset 4") != std::string::npos, r.out);
    Run i = test::mshconv("info " + q(bad));
    BOOST_TEST(i.code == 1);
}

BOOST_AUTO_TEST_CASE(missing_entry_and_usage_errors) {
    Run r = test::mshconv("info " + q(test::corpus_dir() / "static.rlb") + ":NO_SUCH.msh");
    BOOST_TEST(r.code == 1);
    BOOST_TEST(r.out.find("no entry named 'NO_SUCH.msh'") != std::string::npos, r.out);
    BOOST_TEST(test::mshconv("frobnicate").code == 2);
    BOOST_TEST(test::mshconv("info").code == 2);
    BOOST_TEST(test::mshconv("nres extract x").code == 2);
    BOOST_TEST(test::mshconv("info --help").code == 0);
}

BOOST_AUTO_TEST_CASE(closest_entry_names_and_archive_hint) {
    const std::string lib = q(test::corpus_dir() / "static.rlb");
    // A typo in the entry name: the closest names are offered.
    Run r = test::mshconv("info " + lib + ":house_1.msh");
    BOOST_TEST(r.code == 1);
    BOOST_TEST(r.out.find("closest: House_01.msh") != std::string::npos, r.out);
    // A whole archive to convert: how many models, one named, and the batch alternative.
    const fs::path glb = scratch("whole_archive.glb");
    r = test::mshconv("convert " + lib + " " + q(glb));
    BOOST_TEST(r.code == 2);
    BOOST_TEST(r.out.find("16 models") != std::string::npos, r.out);
    BOOST_TEST(r.out.find(":House_01.msh") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("mshconv batch") != std::string::npos, r.out);
    BOOST_TEST(!fs::exists(glb));
}

BOOST_AUTO_TEST_CASE(info_on_maps_and_wear) {
    const fs::path level = test::corpus_dir() / "DATA" / "MAPS" / "SynTut1";
    Run r = test::mshconv("info --json " + q(level / "Land.map"));
    BOOST_REQUIRE_EQUAL(r.code, 0);
    const auto map = nlohmann::json::parse(r.out);
    BOOST_TEST(map["kind"] == "areal_map");
    BOOST_TEST(map["areal_map"]["areals"].get<size_t>() > 0u);
    BOOST_TEST(map["areal_map"]["grid"]["cells_x"] == 128);
    r = test::mshconv("info --json " + q(level / "Land.msh"));
    BOOST_REQUIRE_EQUAL(r.code, 0);
    const auto land = nlohmann::json::parse(r.out);
    BOOST_TEST(land["kind"] == "terrain");
    size_t by_row = 0;
    for (const auto& [row, faces] : land["terrain"]["layer1_faces_by_row"].items())
        by_row += faces.get<size_t>();
    BOOST_TEST(by_row == land["terrain"]["usable_faces"].get<size_t>());
    r = test::mshconv("info --json " + q(level / "Land1.wea"));
    BOOST_REQUIRE_EQUAL(r.code, 0);
    BOOST_TEST(nlohmann::json::parse(r.out)["wear"]["materials"].size() > 0u);
}

// Each format says where in its own terms: binary by offset, text by line and column, JSON by
// pointer.
BOOST_AUTO_TEST_CASE(error_locations_by_format_kind) {
    const fs::path wear = scratch("bad_rows.wea");
    write_file_atomic(wear, Bytes{'2', '\r', '\n', '1', ' ', 'A', '\r', '\n', 'B', 'A', 'D'});
    Run r = test::mshconv("validate --json " + q(wear));
    BOOST_TEST(r.code == 1);
    const auto d = nlohmann::json::parse(r.out)["diagnostics"].at(0);
    BOOST_TEST(d["line"] == 3);
    BOOST_TEST(d["column"] == 1);
    BOOST_TEST(d["offset"] == 8);

    const std::string gltf_text = R"({"asset":{"version":"2.0"},"nodes":[{"name":"n","mesh":3}]})";
    DiagnosticSink warnings(ReadMode::Tolerant);
    try {
        gltf::read_gltf_text(Bytes(gltf_text.begin(), gltf_text.end()), "m.gltf", warnings);
        BOOST_FAIL("a node naming a missing mesh was accepted");
    } catch (const FormatError& e) {
        BOOST_TEST((e.location().kind == Location::Kind::Pointer));
        BOOST_TEST(e.location().pointer == "/nodes/0/mesh");
        BOOST_TEST(std::string(e.what()).find("m.gltf: at /nodes/0/mesh: ") == 0u, e.what());
    }

    const fs::path dir = scratch("damaged_sidecar");
    fs::create_directories(dir);
    r = test::mshconv("convert " + q(test::corpus_dir() / "static.rlb") + ":House_01.msh " +
                      q(dir / "h.glb"));
    BOOST_REQUIRE_EQUAL(r.code, 0);
    auto doc = nlohmann::json::parse(read_file_text(dir / "h.sidecar.json"));
    // Nothing edited that a check or the pairing token covers: the rebuild is not the source.
    doc["container"]["layout"][0][0] = 1;
    const std::string text = doc.dump();
    write_file_atomic(dir / "h.sidecar.json", Bytes(text.begin(), text.end()));
    r = test::mshconv("convert " + q(dir / "h.glb") + " " + q(dir / "h.msh"));
    BOOST_TEST(r.code == 1);
    BOOST_TEST(r.out.find("at /source/xxh3_64: the model rebuilt from the file and its sidecar") !=
                   std::string::npos,
               r.out);
    BOOST_TEST(!fs::exists(dir / "h.msh"));
}

BOOST_AUTO_TEST_CASE(version_names_the_project_version) {
    Run r = test::mshconv("--version");
    BOOST_TEST(r.code == 0);
    BOOST_TEST(r.out.rfind(std::string("mshconv ") + MSHCONV_PROJECT_VERSION + "\n", 0) == 0,
               r.out);
    BOOST_TEST(r.out.find("tinygltf 2.") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(version_names_the_allocator_the_binary_runs_on) {
    const Run r = test::mshconv("--version");
    BOOST_REQUIRE(r.code == 0);
    // What --version claims is what the binary loads: mimalloc's own start-up trace appears
    // only when the process loads it (linked, it replaces malloc process-wide on Linux).
    const Run traced = run("MIMALLOC_VERBOSE=1 " + std::string(MSHCONV_BINARY) + " --version");
    const bool claims_mimalloc = r.out.find("allocator: mimalloc ") != std::string::npos;
    BOOST_TEST((claims_mimalloc || r.out.find("allocator: glibc malloc") != std::string::npos),
               r.out);
    BOOST_TEST((traced.out.find("mimalloc: process init") != std::string::npos) == claims_mimalloc,
               traced.out);
}

BOOST_AUTO_TEST_CASE(failed_pack_leaves_no_output) {
    fs::path dir = scratch("broken_extract");
    Run a = test::mshconv("nres extract " + q(test::corpus_dir() / "system.rlb") + " -o " + q(dir));
    BOOST_REQUIRE_EQUAL(a.code, 0);
    fs::remove(dir / first_model(test::corpus_dir() / "system.rlb")); // a payload file is missing
    fs::path out = scratch("never.rlb");
    Run b = test::mshconv("nres pack " + q(dir) + " -o " + q(out));
    BOOST_TEST(b.code == 1);
    BOOST_TEST(!fs::exists(out));
    for (const auto& e : fs::directory_iterator(out.parent_path()))
        BOOST_TEST(e.path().filename().string().find(".tmp") == std::string::npos, e.path());
}

// nres pack refuses an output that is one of its inputs (the manifest, a payload), and extract
// writes its files as one set: a write that fails half-way (a full disk) leaves nothing.
BOOST_AUTO_TEST_CASE(nres_never_overwrites_an_input_or_leaves_part_of_a_folder) {
    const fs::path archive = test::corpus_dir() / "system.rlb";
    const fs::path dir = scratch("refuse_inputs");
    BOOST_REQUIRE_EQUAL(test::mshconv("nres extract " + q(archive) + " -o " + q(dir)).code, 0);
    const Bytes manifest = read_file(dir / "_nres.json");
    const fs::path payload = dir / first_model(archive);
    const Bytes payload_bytes = read_file(payload);
    for (const fs::path& target : {dir / "_nres.json", payload}) {
        Run r = test::mshconv("nres pack " + q(dir) + " -o " + q(target));
        BOOST_TEST(r.code == 2, r.out);
        BOOST_TEST(r.out.find("is an input of the pack") != std::string::npos, r.out);
    }
    BOOST_TEST((read_file(dir / "_nres.json") == manifest));
    BOOST_TEST((read_file(payload) == payload_bytes));

    const fs::path full = scratch("full_disk_extract");
    Run f = run("MSHCONV_TEST_FAIL_WRITE_AFTER=3 " + std::string(MSHCONV_BINARY) +
                " nres extract " + q(archive) + " -o " + q(full));
    BOOST_TEST(f.code == 1, f.out);
    BOOST_TEST((!fs::exists(full) || fs::is_empty(full)), f.out);
}

BOOST_AUTO_TEST_SUITE_END()

// A .glb and an .obj export of one stem with other settings keep their own sidecars: the second
// format writes STEM.<format>.sidecar.json, each import finds its own and gives the original
// model back; a map the same way.
BOOST_AUTO_TEST_SUITE(sidecar_names)

BOOST_AUTO_TEST_CASE(glb_and_obj_exports_of_one_stem_keep_their_sidecars) {
    const fs::path dir = scratch("sidecar_names");
    const fs::path archive = test::corpus_dir() / "static.rlb";
    const std::string entry = first_model(archive);
    const std::string model = archive.string() + ":" + entry;
    Run r = test::mshconv("convert " + q(model) + " " + q(dir / "x.glb"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    r = test::mshconv("convert " + q(model) + " " + q(dir / "x.obj") + " --lod all --group all");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST(fs::exists(dir / "x.sidecar.json"));
    BOOST_TEST(fs::exists(dir / "x.obj.sidecar.json"));
    const nres::Archive ar = nres::read(read_file(archive), ReadMode::Strict, archive.string());
    const Bytes original = ar.entries[*ar.find(entry)].data.to_bytes();
    for (const char* ext : {".glb", ".obj"}) {
        const fs::path back = dir / (std::string("back") + ext + ".msh");
        r = test::mshconv("convert " + q(dir / (std::string("x") + ext)) + " " + q(back));
        BOOST_TEST(r.code == 0, ext << ": " << r.out);
        BOOST_TEST((fs::exists(back) && read_file(back) == original), ext);
    }
    // The same format again overwrites its own sidecar only.
    const Bytes glb_sidecar = read_file(dir / "x.sidecar.json");
    r = test::mshconv("convert " + q(model) + " " + q(dir / "x.obj"));
    BOOST_TEST(r.code == 0, r.out);
    BOOST_TEST((read_file(dir / "x.sidecar.json") == glb_sidecar));

    const fs::path land = test::corpus_dir() / "DATA" / "MAPS" / "SynTut1" / "Land.msh";
    BOOST_TEST_REQUIRE(test::mshconv("convert " + q(land) + " " + q(dir / "m.glb")).code == 0);
    BOOST_TEST_REQUIRE(test::mshconv("convert " + q(land) + " " + q(dir / "m.obj")).code == 0);
    BOOST_TEST(fs::exists(dir / "m.obj.sidecar.json"));
    for (const char* ext : {".glb", ".obj"}) {
        const fs::path back = dir / (std::string("map") + ext) / "Land.msh";
        r = test::mshconv("convert " + q(dir / (std::string("m") + ext)) + " " + q(back));
        BOOST_TEST(r.code == 0, ext << ": " << r.out);
        BOOST_TEST((fs::exists(back) && read_file(back) == read_file(land)), ext);
    }
}

BOOST_AUTO_TEST_SUITE_END()

// ---------------------------------------------------------------------------------------------
// The command line's vocabulary: one meaning per option, the user's spelling in every usage
// error, the closest known word for a typo.

BOOST_AUTO_TEST_SUITE(cli_usage)

namespace {

// Boost.Program_options' own names for the positionals and its wording, never shown.
void check_no_internal_names(const Run& r, const std::string& what) {
    for (const char* internal : {"--input", "--output", "--action", "--game-dir'", "is required"})
        BOOST_TEST(r.out.find(internal) == std::string::npos,
                   what << " shows " << internal << ": " << r.out);
}

void check_usage_error(const std::string& args, const std::string& message) {
    const Run r = test::mshconv(args);
    BOOST_TEST(r.code == 2, args << ": exit " << r.code);
    BOOST_TEST(r.out.find(message) != std::string::npos, args << ": " << r.out);
    check_no_internal_names(r, args);
}

} // namespace

BOOST_AUTO_TEST_CASE(a_mistyped_command_or_option_is_answered_with_the_closest) {
    check_usage_error("conver a.msh b.glb", "unknown command 'conver'; did you mean 'convert'?");
    check_usage_error("prevew a.msh b.png", "did you mean 'preview'?");
    check_usage_error("convert a.msh b.glb --lods all",
                      "unknown option '--lods'; did you mean '--lod'?");
    check_usage_error("preview a.msh b.png --overlay-stile fill",
                      "unknown option '--overlay-stile'; did you mean '--overlay-style'?");
    check_usage_error("batch a -o b --to glb --progres",
                      "unknown option '--progres'; did you mean '--progress'?");
    check_usage_error("nres extrac a.rlb -o b", "unknown nres action 'extrac'; did you mean "
                                                "'extract'?");
    // One asset's own files are no batch option (a batch would drop them without a word).
    for (const char* own : {"--map", "--wear1", "--materials", "--textures"})
        check_usage_error(std::string("batch a -o b --to preview ") + own + " F",
                          std::string("unknown option '") + own + "'");
    // Nothing near: no guess, the way to the list.
    const Run r = test::mshconv("frobnicate");
    BOOST_TEST(r.code == 2);
    BOOST_TEST(r.out.find("unknown command 'frobnicate'") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("did you mean") == std::string::npos, r.out);
    BOOST_TEST(r.out.find("mshconv --help") != std::string::npos, r.out);
    // An abbreviation is no option (it would give one option two spellings).
    check_usage_error("convert a.msh b.glb --gro 1",
                      "unknown option '--gro'; did you mean '--group'?");
    // The positionals' keys are no options either.
    const Run input = test::mshconv("convert --input a.msh b.glb");
    BOOST_TEST(input.code == 2);
    BOOST_TEST(input.out.find("unknown option '--input'") != std::string::npos, input.out);
}

BOOST_AUTO_TEST_CASE(usage_errors_name_what_the_synopsis_names) {
    check_usage_error("convert", "missing IN");
    check_usage_error("convert a.msh", "missing OUT");
    check_usage_error("convert a.msh b.glb c.obj",
                      "too many arguments ('c.obj'): convert takes IN OUT");
    check_usage_error("preview a.msh", "missing OUT");
    check_usage_error("batch a --to glb", "missing -o");
    check_usage_error("batch --to glb -o b", "missing IN...");
    check_usage_error("batch a --to glb -o", "the required argument for option '-o' is missing");
    check_usage_error("batch a -o b --to glb -j many", "option '-j' is invalid");
    check_usage_error("info", "missing IN");
    check_usage_error("samples", "missing OUTDIR");
    check_usage_error("survey", "missing GAME_DIR");
    check_usage_error("nres", "missing list|extract|pack");
    check_usage_error("nres pack", "missing DIR");
    check_usage_error("nres extract a.rlb", "nres extract needs -o DIR");
    check_usage_error("view a.msh --turntable 8", "unknown option '--turntable'");
}

BOOST_AUTO_TEST_CASE(help_lists_what_each_command_takes) {
    const Run main = test::mshconv("--help");
    BOOST_TEST(main.code == 0);
    BOOST_TEST(main.out.find("samples OUTDIR [--seed N] [--stress | --scale game|F]") !=
                   std::string::npos,
               main.out);
    const Run batch = test::mshconv("batch --help");
    BOOST_TEST(batch.out.find("--overlay raw|draped|both") != std::string::npos, batch.out);
    BOOST_TEST(batch.out.find("--overlay-style none|outline|fill") != std::string::npos, batch.out);
    // view draws no picture: none of the picture's options.
    const Run view = test::mshconv("view --help");
    BOOST_TEST(view.code == 0);
    for (const char* taken : {"--no-open", "--view", "--size", "--lod", "--game-dir", "--reading"})
        BOOST_TEST(view.out.find(taken) != std::string::npos, taken << ": " << view.out);
    for (const char* picture : {"--frame", "--time", "--strip", "--turntable", "--background",
                                "--overlay", "--samples", "--both-sides", "--input"})
        BOOST_TEST(view.out.find(picture) == std::string::npos, picture << ": " << view.out);
    // convert's archive rules, as they are: IN a whole archive is refused with a hint (the test
    // above), OUT an existing archive needs its entry named.
    const Run convert = test::mshconv("convert --help");
    BOOST_TEST(convert.out.find("A whole archive as IN is refused") != std::string::npos,
               convert.out);
    BOOST_TEST(convert.out.find("An existing archive as OUT needs its entry named") !=
                   std::string::npos,
               convert.out);
    BOOST_TEST(convert.out.find("--input") == std::string::npos, convert.out);
    const fs::path copy = scratch("usage-textures/Textures.lib");
    fs::copy_file(test::corpus_dir() / "Textures.lib", copy);
    const Run out_archive =
        test::mshconv("convert " + q(scratch("usage-textures/x.png")) + " " + q(copy));
    BOOST_TEST(out_archive.code == 2);
    BOOST_TEST(out_archive.out.find("name the entry to replace") != std::string::npos,
               out_archive.out);
}

BOOST_AUTO_TEST_CASE(overlay_style_draws_a_preview_and_overlay_shapes_an_export) {
    const fs::path level = test::corpus_dir() / "DATA" / "MAPS" / "SynTut1";
    const std::string land = q(level / "Land.msh");
    const fs::path dir = scratch("overlay-style");
    auto preview = [&](const std::string& name, const std::string& options) {
        return test::mshconv("preview " + land + " " + q(dir / name) + " --size 96 " + options);
    };
    Run r = preview("outline.png", "--overlay-style outline");
    BOOST_TEST(r.code == 0, r.out);
    BOOST_TEST(r.out.find("warning") == std::string::npos, r.out);
    BOOST_TEST(preview("fill.png", "").code == 0);
    BOOST_TEST((read_file(dir / "outline.png") != read_file(dir / "fill.png")));
    // The earlier spelling still draws the same, with a one-line note.
    r = preview("old.png", "--overlay outline");
    BOOST_TEST(r.code == 0, r.out);
    BOOST_TEST(r.out == "warning: --overlay outline is now --overlay-style outline\n", r.out);
    BOOST_TEST((read_file(dir / "old.png") == read_file(dir / "outline.png")));
    // An export's value for a preview, and a preview's value for an export: usage errors.
    r = preview("raw.png", "--overlay raw");
    BOOST_TEST(r.code == 2);
    BOOST_TEST(r.out.find("--overlay-style none|outline|fill") != std::string::npos, r.out);
    r = preview("raw.png", "--overlay-style raw");
    BOOST_TEST(r.code == 2);
    BOOST_TEST(r.out.find("--overlay-style must be none, outline or fill") != std::string::npos,
               r.out);
    BOOST_TEST(!fs::exists(dir / "raw.png"));
    r = test::mshconv("convert " + land + " " + q(dir / "fill.glb") + " --overlay fill");
    BOOST_TEST(r.code == 2);
    BOOST_TEST(r.out.find("--overlay-style") != std::string::npos, r.out);
    // batch --to preview: the same option, the same picture; the old spelling with the note.
    for (const std::string spelling : {"--overlay-style", "--overlay"}) {
        const fs::path gallery = dir / ("gallery" + spelling);
        r = test::mshconv("batch " + q(level) + " -o " + q(gallery) + " --to preview --no-views " +
                          "--size 96 --game-dir " + q(test::corpus_dir()) + " " + spelling +
                          " outline");
        BOOST_TEST(r.code == 0, r.out);
        BOOST_TEST((r.out.find("is now --overlay-style") != std::string::npos) ==
                       (spelling == "--overlay"),
                   r.out);
        BOOST_TEST((read_file(gallery / "Land.msh.png") == read_file(dir / "outline.png")),
                   spelling);
    }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace cli_tests
