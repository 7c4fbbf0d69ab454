// `mshconv batch`: whole folders and archives in one run, the mirrored archive layout, the
// reverse (--to nres) byte for byte, failures that do not stop the others, the report, and the
// same output with one thread or two.
#include "corpus.hpp"
#include "test_util.hpp"

#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace batch_tests {

using namespace msh;
namespace fs = std::filesystem;

using test::q;
using test::Run;
using test::scratch;

namespace {

nlohmann::json read_json(const fs::path& p) {
    const Bytes b = read_file(p);
    return nlohmann::json::parse(b.begin(), b.end());
}

nres::Archive read_archive(const fs::path& p) {
    return nres::read(read_file(p), ReadMode::Strict, p.string());
}

// Every regular file below `dir`, by relative path.
std::map<std::string, Bytes> tree(const fs::path& dir) {
    std::map<std::string, Bytes> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file())
            out[e.path().lexically_relative(dir).generic_string()] = read_file(e.path());
    return out;
}

// `dir` holds exactly the files of `original`, each byte for byte.
void expect_same_tree(const std::map<std::string, Bytes>& original, const fs::path& dir) {
    const std::map<std::string, Bytes> back = tree(dir);
    BOOST_TEST(back.size() == original.size());
    for (const auto& [path, bytes] : original) {
        const auto it = back.find(path);
        BOOST_TEST((it != back.end() && it->second == bytes), path);
    }
}

// Addresses of every nested model of the corpus (archive:entry).
std::set<std::string> corpus_models() {
    std::set<std::string> out;
    for (const auto& f : test::corpus()) {
        if (!f.relative_path.ends_with(".rlb")) continue;
        const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries)
            if (e.type == nres::fourcc("MESH")) out.insert(f.relative_path + ":" + e.name());
    }
    return out;
}

// The lines of `text` that start with `prefix`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
    std::vector<std::string> out;
    size_t from = 0;
    while (from < text.size()) {
        const size_t end = std::min(text.find('\n', from), text.size());
        const std::string line = text.substr(from, end - from);
        if (line.starts_with(prefix)) out.push_back(line);
        from = end + 1;
    }
    return out;
}

// The summary line a batch run prints, built from its report's totals.
std::string summary_of(const nlohmann::json& report) {
    return "batch: " + std::to_string(report["converted"].get<size_t>()) + " converted, " +
           std::to_string(report["unchanged"].get<size_t>()) + " unchanged, " +
           std::to_string(report["skipped"].get<size_t>()) + " skipped, " +
           std::to_string(report["failed"].get<size_t>()) + " failed in ";
}

// Every item's output is a path below `out` (an archive entry: its archive) that exists.
void expect_outputs_below(const nlohmann::json& report, const fs::path& out) {
    for (const auto& i : report["items"]) {
        if (!i.contains("output")) continue;
        std::string o = i["output"].get<std::string>();
        if (const size_t colon = o.find(':'); colon != std::string::npos) o.resize(colon);
        BOOST_TEST(!fs::path(o).is_absolute(), o);
        BOOST_TEST(fs::exists(out / o), i.dump());
    }
}

size_t count_status(const nlohmann::json& report, const std::string& kind,
                    const std::string& status) {
    size_t n = 0;
    for (const auto& i : report["items"]) n += i["kind"] == kind && i["status"] == status;
    return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(batch)

BOOST_AUTO_TEST_CASE(texture_library_to_png_folder_and_back_is_byte_identical) {
    const fs::path out = scratch("batch-png");
    const fs::path lib = test::corpus_dir() / "Textures.lib";
    const fs::path lightmaps = test::corpus_dir() / "LightMap.lib";
    Run r = test::mshconv("batch " + q(lib) + " " + q(lightmaps) + " -o " + q(out) +
                          " --to png -j 2 --report " + q(out / "report.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);

    // One PNG + sidecar per Texm entry, in a folder named like the archive, plus its manifest.
    const nres::Archive original = read_archive(lib);
    size_t textures = 0;
    for (const nres::Entry& e : original.entries) {
        if (e.type != texm::kMagic) continue;
        ++textures;
        BOOST_TEST(fs::is_regular_file(out / "Textures.lib" / (e.name() + ".png")), e.name());
        BOOST_TEST(fs::is_regular_file(out / "Textures.lib" / (e.name() + ".sidecar.json")),
                   e.name());
    }
    BOOST_TEST_REQUIRE(textures > 50u);
    BOOST_TEST(fs::is_regular_file(out / "Textures.lib" / "_nres.json"));
    const nlohmann::json report = read_json(out / "report.json");
    BOOST_TEST(report["failed"] == 0);
    BOOST_TEST(count_status(report, "texture", "converted") ==
               textures + read_archive(lightmaps).entries.size());

    // Rebuild: the folder -> the library, byte for byte (entry order, names, attributes,
    // layout), every texture reported unchanged.
    const fs::path rebuilt = scratch("batch-png-rebuilt") / "Textures.lib";
    r = test::mshconv("batch " + q(out / "Textures.lib") + " --to nres -o " + q(rebuilt) +
                      " --report " + q(out / "rebuild.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(rebuilt) == read_file(lib)));
    const nlohmann::json rebuild = read_json(out / "rebuild.json");
    BOOST_TEST(rebuild["unchanged"] == textures);
    BOOST_TEST(count_status(rebuild, "texture", "converted") == textures);

    // With the folder above: every unpacked archive goes to its relative path below -o.
    const fs::path all = scratch("batch-png-all");
    r = test::mshconv("batch " + q(out) + " --to nres -o " + q(all));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(all / "Textures.lib") == read_file(lib)));
    BOOST_TEST((read_file(all / "LightMap.lib") == read_file(lightmaps)));
}

BOOST_AUTO_TEST_CASE(an_edited_png_changes_only_its_entry) {
    const fs::path out = scratch("batch-edit");
    const fs::path lib = test::corpus_dir() / "LightMap.lib";
    BOOST_TEST_REQUIRE(test::mshconv("batch " + q(lib) + " -o " + q(out) + " --to png").code == 0);
    const nres::Archive original = read_archive(lib);
    const std::string edited = original.entries[0].name();
    const fs::path png_path = out / "LightMap.lib" / (edited + ".png");
    png::Decoded d = png::decode(read_file(png_path));
    uint8_t* px = d.rgba.at(0, 0);
    px[0] = px[0] < 128 ? 255 : 0; // 565 keeps 0 and 255 exactly
    write_file_atomic(png_path, png::encode_rgba(d.rgba));

    const fs::path rebuilt = scratch("batch-edit-rebuilt.lib");
    Run r = test::mshconv("batch " + q(out / "LightMap.lib") + " --to nres -o " + q(rebuilt) +
                          " --report " + q(out / "r.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const nres::Archive back = read_archive(rebuilt);
    BOOST_TEST_REQUIRE(back.entries.size() == original.entries.size());
    for (size_t i = 0; i < back.entries.size(); ++i) {
        BOOST_TEST(back.entries[i].name() == original.entries[i].name());
        BOOST_TEST(back.entries[i].attr1 == original.entries[i].attr1);
        BOOST_TEST((back.entries[i].data == original.entries[i].data) == (i != 0), i);
    }
    const texm::Texture t = texm::read(back.entries[0].data, ReadMode::Strict, edited);
    BOOST_TEST(png::decode(png::from_texm_level(t, 0)).rgba.at(0, 0)[0] == px[0]);
    const nlohmann::json report = read_json(out / "r.json");
    BOOST_TEST(report["unchanged"] == original.entries.size() - 1);
}

BOOST_AUTO_TEST_CASE(the_corpus_folder_converts_every_model_and_map) {
    const fs::path out = scratch("batch-corpus");
    Run r = test::mshconv("batch " + q(test::corpus_dir()) + " -o " + q(out) +
                          " --to glb --report " + q(out / "report.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const nlohmann::json report = read_json(out / "report.json");
    const std::set<std::string> models = corpus_models();
    BOOST_TEST(report["failed"] == 0);
    BOOST_TEST(report["converted_by_kind"]["model"] == models.size());
    BOOST_TEST(report["converted_by_kind"]["map"] == 6);
    std::set<std::string> converted;
    for (const auto& i : report["items"]) {
        if (i["kind"] != "model") continue;
        const fs::path input = i["input"].get<std::string>();
        converted.insert(input.lexically_relative(test::corpus_dir()).generic_string());
        // archive.rlb:NAME.msh -> DIR/archive.rlb/NAME.glb, a GLB, with its sidecar.
        const fs::path glb = out / i["output"].get<std::string>();
        const Bytes b = read_file(glb);
        BOOST_TEST_REQUIRE(b.size() > 12u);
        BOOST_TEST(std::string(b.begin(), b.begin() + 4) == "glTF", glb);
        BOOST_TEST(
            fs::is_regular_file(glb.parent_path() / (glb.stem().string() + ".sidecar.json")));
    }
    BOOST_TEST(converted == models);
    for (const char* level : {"SynAuto", "SynProl"})
        BOOST_TEST(fs::is_regular_file(out / "DATA" / "MAPS" / level / "Land.glb"), level);
    // Libraries without a model are copied as they are; model archives are unpacked, their WEARs
    // raw.
    BOOST_TEST(fs::is_regular_file(out / "Textures.lib"));
    BOOST_TEST((read_file(out / "Textures.lib") == read_file(test::corpus_dir() / "Textures.lib")));
    BOOST_TEST(fs::is_regular_file(out / "static.rlb" / "_nres.json"));
    BOOST_TEST(fs::is_regular_file(out / "static.rlb" / "House_01.wea"));

    // The batch output of a model is what `convert` writes for it.
    const fs::path single = scratch("batch-corpus-convert") / "House_01.glb";
    r = test::mshconv("convert " + q(test::corpus_dir() / "static.rlb") + ":House_01.msh " +
                      q(single));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(single) == read_file(out / "static.rlb" / "House_01.glb")));
    BOOST_TEST((read_file(single.parent_path() / "House_01.sidecar.json") ==
                read_file(out / "static.rlb" / "House_01.sidecar.json")));

    // And back: every model archive, byte for byte.
    const fs::path rebuilt = scratch("batch-corpus-rebuilt");
    r = test::mshconv("batch " + q(out) + " --to nres -o " + q(rebuilt));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    for (const char* a :
         {"static.rlb", "animals.rlb", "fortif.rlb", "system.rlb", "turrets.rlb", "weapon.rlb"})
        BOOST_TEST((read_file(rebuilt / a) == read_file(test::corpus_dir() / a)), a);
}

BOOST_AUTO_TEST_CASE(one_thread_and_two_write_the_same_files) {
    const fs::path one = scratch("batch-j1"), two = scratch("batch-j2");
    const std::string inputs = q(test::corpus_dir() / "static.rlb") + " " +
                               q(test::corpus_dir() / "animals.rlb") + " " +
                               q(test::corpus_dir() / "LightMap.lib");
    BOOST_TEST_REQUIRE(
        test::mshconv("batch " + inputs + " -o " + q(one) + " --to gltf,png -j 1").code == 0);
    BOOST_TEST_REQUIRE(
        test::mshconv("batch " + inputs + " -o " + q(two) + " --to gltf,png -j 2").code == 0);
    const auto a = tree(one), b = tree(two);
    BOOST_TEST(a.size() > 40u);
    BOOST_TEST_REQUIRE(a.size() == b.size());
    for (const auto& [name, bytes] : a) {
        BOOST_TEST_REQUIRE(b.count(name) == 1u, name);
        BOOST_TEST((bytes == b.at(name)), name);
    }
    BOOST_TEST(a.count("static.rlb/House_01.gltf") == 1u);
    BOOST_TEST(a.count("static.rlb/House_01.bin") == 1u);
    BOOST_TEST(a.count("LightMap.lib/_nres.json") == 1u);
}

BOOST_AUTO_TEST_CASE(bad_inputs_are_reported_and_the_others_convert) {
    const fs::path in = scratch("batch-bad-in");
    fs::create_directories(in);
    fs::copy_file(test::corpus_dir() / "system.rlb", in / "system.rlb",
                  fs::copy_options::overwrite_existing);
    // An archive whose directory is cut off.
    Bytes broken = read_file(test::corpus_dir() / "fortif.rlb");
    broken.resize(broken.size() / 2);
    write_file_atomic(in / "broken.rlb", broken);
    // An archive with one damaged model (its directory overwritten) among good ones.
    nres::Archive weapon = read_archive(test::corpus_dir() / "weapon.rlb");
    size_t damaged = weapon.entries.size();
    for (size_t i = 0; i < weapon.entries.size() && damaged == weapon.entries.size(); ++i)
        if (weapon.entries[i].type == nres::fourcc("MESH")) damaged = i;
    BOOST_TEST_REQUIRE(damaged < weapon.entries.size());
    Bytes& image = weapon.entries[damaged].data.edit();
    std::fill(image.end() - 64, image.end(), uint8_t(0xEE));
    const Bytes weapon_bytes = nres::write(weapon);
    write_file_atomic(in / "weapon.rlb", weapon_bytes);
    // The same damaged model as a loose file.
    write_file_atomic(in / "loose" / "damaged.msh", weapon.entries[damaged].data);
    const std::map<std::string, Bytes> original = tree(in);

    const fs::path out = scratch("batch-bad-out");
    Run r = test::mshconv("batch " + q(in) + " " + q(in / "missing.rlb") + " -o " + q(out) +
                          " --to obj --report " + q(out / "report.json"));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("broken.rlb") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("weapon.rlb:" + weapon.entries[damaged].name()) != std::string::npos,
               r.out);
    BOOST_TEST(r.out.find("missing.rlb") != std::string::npos, r.out);
    const nlohmann::json report = read_json(out / "report.json");
    BOOST_TEST(report["failed"] == 4);
    // The damaged files are failures, copied into the mirror as they are, and the way back gives
    // the whole folder.
    std::map<std::string, std::string> failed_outputs;
    for (const auto& i : report["items"])
        if (i["status"] == "failed")
            failed_outputs[fs::path(i["input"].get<std::string>()).filename().string()] =
                i.value("output", "");
    BOOST_TEST(failed_outputs["broken.rlb"] == "broken.rlb");
    BOOST_TEST(failed_outputs["damaged.msh"] == "loose/damaged.msh");
    BOOST_TEST(failed_outputs["weapon.rlb:" + weapon.entries[damaged].name()] ==
               "weapon.rlb/" + weapon.entries[damaged].name());
    BOOST_TEST((read_file(out / "broken.rlb") == broken));
    r = test::mshconv("batch " + q(out) + " --to nres -o " + q(scratch("batch-bad-back")));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    expect_same_tree(original, scratch("batch-bad-back"));
    size_t weapon_models = 0, system_models = 0;
    for (const nres::Entry& e : weapon.entries) weapon_models += e.type == nres::fourcc("MESH");
    for (const nres::Entry& e : read_archive(in / "system.rlb").entries)
        system_models += e.type == nres::fourcc("MESH");
    BOOST_TEST(report["converted_by_kind"]["model"] == weapon_models - 1 + system_models);
    BOOST_TEST(fs::is_regular_file(out / "system.rlb" / "_nres.json"));
    // The damaged model stays in the mirrored archive as a raw file: the archive comes back.
    BOOST_TEST(fs::is_regular_file(out / "weapon.rlb" / weapon.entries[damaged].name()));
    const fs::path rebuilt = scratch("batch-bad-rebuilt.rlb");
    r = test::mshconv("batch " + q(out / "weapon.rlb") + " --to nres -o " + q(rebuilt));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(rebuilt) == weapon_bytes));
}

BOOST_AUTO_TEST_CASE(nested_archives_become_nested_folders) {
    // An archive holding a texture library and a raw entry.
    nres::Archive outer;
    nres::Entry lib;
    lib.type = nres::fourcc("LIB ");
    lib.set_name("INNER.lib");
    lib.data = read_file(test::corpus_dir() / "LightMap.lib");
    nres::Entry note;
    note.type = nres::fourcc("TEXT");
    note.set_name("readme.txt");
    const std::string text = "not a texture";
    note.data.edit().assign(text.begin(), text.end());
    outer.entries = {lib, note};
    const fs::path in = scratch("batch-nested") / "outer.lib";
    const Bytes original = nres::write_canonical(outer);
    write_file_atomic(in, original);

    const fs::path out = scratch("batch-nested-out");
    Run r = test::mshconv("batch " + q(in) + " -o " + q(out) + " --to png");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST(fs::is_regular_file(out / "outer.lib" / "INNER.lib" / "_nres.json"));
    BOOST_TEST(fs::is_regular_file(out / "outer.lib" / "readme.txt"));
    const nres::Archive inner = read_archive(test::corpus_dir() / "LightMap.lib");
    BOOST_TEST(
        fs::is_regular_file(out / "outer.lib" / "INNER.lib" / (inner.entries[0].name() + ".png")));
    const fs::path rebuilt = scratch("batch-nested-rebuilt.lib");
    r = test::mshconv("batch " + q(out / "outer.lib") + " --to nres -o " + q(rebuilt));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(rebuilt) == original));
}

// The whole game folder through a mirror and back: every file identical, whatever the targets
// (archives with nothing to convert, WEARs and Land.map travel as copies or in sidecars).
BOOST_AUTO_TEST_CASE(a_game_folder_comes_back_whole) {
    const fs::path game = test::corpus_dir();
    const std::map<std::string, Bytes> original = tree(game);
    BOOST_TEST_REQUIRE(original.size() > 20u);
    for (const std::string to : {"glb,png", "gltf", "obj,png", "png"}) {
        BOOST_TEST_CONTEXT("--to " << to) {
            const fs::path dir = scratch("mirror-" + to + "/x").parent_path();
            fs::remove_all(dir);
            Run r = test::mshconv("batch " + q(game) + " --to " + to + " -o " + q(dir / "X") +
                                  " --quiet --report " + q(dir / "forward.json"));
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            // Every input file is listed in the mirror manifest, once.
            const nlohmann::json m = read_json(dir / "X" / "_batch.json");
            std::set<std::string> listed;
            for (const auto& f : m["files"]) listed.insert(f["path"].get<std::string>());
            BOOST_TEST(listed.size() == m["files"].size());
            BOOST_TEST(listed.size() == original.size());
            r = test::mshconv("batch " + q(dir / "X") + " --to nres -o " + q(dir / "BACK") +
                              " --quiet");
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            expect_same_tree(original, dir / "BACK");
        }
    }
}

// `--overlay raw`: map GLBs without the draped layer (a pipeline that never looks at the map:
// smaller and faster), and the folder still comes back whole.
BOOST_AUTO_TEST_CASE(maps_without_the_draped_layer_come_back_whole) {
    const fs::path maps = test::corpus_dir() / "DATA" / "MAPS";
    const std::map<std::string, Bytes> original = tree(maps);
    const fs::path dir = scratch("raw-overlay/x").parent_path();
    fs::remove_all(dir);
    Run r = test::mshconv("batch " + q(maps) + " --to glb -o " + q(dir / "draped") + " --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    r = test::mshconv("batch " + q(maps) + " --to glb --overlay raw -o " + q(dir / "X") +
                      " --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    size_t levels = 0;
    for (const auto& level : fs::directory_iterator(maps)) {
        const std::string name = level.path().filename().string();
        const Bytes raw = read_file(dir / "X" / name / "Land.glb");
        const Bytes draped = read_file(dir / "draped" / name / "Land.glb");
        const auto holds = [](const Bytes& b, const std::string& text) {
            return std::search(b.begin(), b.end(), text.begin(), text.end()) != b.end();
        };
        BOOST_TEST(!holds(raw, "ArealMap_draped"), name);
        BOOST_TEST(holds(raw, "ArealMap_areas"), name);
        BOOST_TEST(holds(draped, "ArealMap_draped"), name);
        BOOST_TEST(raw.size() < draped.size(), name);
        ++levels;
    }
    BOOST_TEST(levels >= 6u);
    r = test::mshconv("batch " + q(dir / "X") + " --to nres -o " + q(dir / "BACK") + " --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    expect_same_tree(original, dir / "BACK");
}

// The game-sized corpus at CI scale (a tenth: the bench runs the whole game): the spec's counts,
// and every file back through a mirror with two threads.
BOOST_AUTO_TEST_CASE(a_scaled_game_folder_comes_back_whole) {
    const fs::path dir = scratch("scaled/x").parent_path();
    fs::remove_all(dir);
    Run r = test::mshconv("samples " + q(dir / "GAME") + " --scale 0.1");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const std::map<std::string, Bytes> original = tree(dir / "GAME");
    std::map<uint32_t, size_t> entries; // by type, over every outer archive
    size_t maps = 0, archives = 0;
    for (const auto& [path, bytes] : original) {
        if (path.ends_with("/Land.msh")) ++maps;
        if (!path.ends_with(".rlb") && !path.ends_with(".lib")) continue;
        ++archives;
        for (const nres::Entry& e : nres::read(bytes, ReadMode::Strict, path).entries)
            ++entries[e.type];
    }
    BOOST_TEST(entries[nres::fourcc("MESH")] == 95u); // round(0.1 x 950)
    BOOST_TEST(entries[nres::fourcc("WEAR")] == 95u);
    BOOST_TEST(entries[texm::kMagic] == 115u); // round(0.1 x 1,150)
    BOOST_TEST(maps == 7u);                    // round(0.1 x 65)
    BOOST_TEST(archives >= 12u);
    size_t ui_libraries = 0;
    for (const auto& [path, bytes] : original) ui_libraries += path.starts_with("ui/");
    BOOST_TEST(ui_libraries >= 1u);

    r = test::mshconv("batch " + q(dir / "GAME") + " --to glb,png -j 2 -o " + q(dir / "X") +
                      " --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    r = test::mshconv("batch " + q(dir / "X") + " --to nres -j 2 -o " + q(dir / "BACK") +
                      " --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    expect_same_tree(original, dir / "BACK");
    fs::remove_all(dir);
}

// N jobs of a scheduler: --shard I/N covers the tree exactly once, the reports merge to the whole
// run's totals, and a sharded reverse gives the folder back.
BOOST_AUTO_TEST_CASE(shards_cover_the_tree_once_and_merge) {
    const fs::path game = test::corpus_dir();
    const fs::path dir = scratch("shards/x").parent_path();
    fs::remove_all(dir);
    Run r = test::mshconv("batch " + q(game) + " --to glb,png -o " + q(dir / "whole") +
                          " --quiet --report " + q(dir / "whole.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    std::multiset<std::string> listed;
    std::string reports;
    for (int i = 1; i <= 3; ++i) {
        const std::string report = q(dir / ("r" + std::to_string(i) + ".json"));
        r = test::mshconv("batch " + q(game) + " --to glb,png -o " + q(dir / "X") + " --shard " +
                          std::to_string(i) + "/3 --quiet --report " + report);
        BOOST_TEST_REQUIRE(r.code == 0, r.out);
        reports += " " + report;
        const nlohmann::json m =
            read_json(dir / "X" / ("_batch." + std::to_string(i) + "-of-3.json"));
        BOOST_TEST(m["files"].size() > 0u, "shard " << i << " got no work");
        for (const auto& f : m["files"]) listed.insert(f["path"].get<std::string>());
    }
    // Every file once, in one shard; the same outputs as one whole run.
    const std::map<std::string, Bytes> original = tree(game);
    BOOST_TEST(listed.size() == original.size());
    for (const auto& [path, bytes] : original) BOOST_TEST(listed.count(path) == 1u, path);
    std::map<std::string, Bytes> sharded = tree(dir / "X"), whole = tree(dir / "whole");
    for (auto* t : {&sharded, &whole})
        for (auto it = t->begin(); it != t->end();)
            it = it->first.rfind("_batch", 0) == 0 ? t->erase(it) : std::next(it);
    BOOST_TEST((sharded == whole));
    // The merged report has the whole run's totals and items.
    r = test::mshconv("batch --merge-reports" + reports + " -o " + q(dir / "merged.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const nlohmann::json merged = read_json(dir / "merged.json"),
                         one = read_json(dir / "whole.json");
    for (const char* key : {"converted", "failed", "skipped", "converted_by_kind"})
        BOOST_TEST(merged[key] == one[key], key);
    BOOST_TEST(merged["items"].size() == one["items"].size());
    // A missing or repeated shard is refused.
    r = test::mshconv("batch --merge-reports " + q(dir / "r1.json") + " " + q(dir / "r3.json") +
                      " -o " + q(dir / "m2.json"));
    BOOST_TEST(r.code == 2, r.out);
    BOOST_TEST(r.out.find("shard(s) 2 of 3 are missing") != std::string::npos, r.out);
    r = test::mshconv("batch --merge-reports " + q(dir / "r1.json") + " " + q(dir / "r1.json") +
                      " " + q(dir / "r2.json") + " -o " + q(dir / "m3.json"));
    BOOST_TEST(r.code == 2, r.out);
    // The reverse in two shards.
    for (const char* s : {"1/2", "2/2"})
        BOOST_TEST_REQUIRE(test::mshconv("batch " + q(dir / "X") + " --to nres -o " +
                                         q(dir / "BACK") + " --shard " + s + " --quiet")
                               .code == 0);
    BOOST_TEST((tree(dir / "BACK") == original));
    BOOST_TEST(
        test::mshconv("batch " + q(game) + " --to glb -o " + q(dir / "Z") + " --shard 4/3").code ==
        2);
}

// Every --to mode ends with the same summary line, its numbers the report's; stderr that is not a
// terminal gets no status line.
BOOST_AUTO_TEST_CASE(every_run_ends_with_one_summary_line) {
    const fs::path dir = scratch("summary/x").parent_path();
    fs::remove_all(dir);
    const std::string lib = q(test::corpus_dir() / "LightMap.lib");
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"png", "batch " + lib + " --to png -o " + q(dir / "X")},
        {"nres", "batch " + q(dir / "X") + " --to nres -o " + q(dir / "BACK")},
        {"preview", "batch " + lib + " --to preview --size 32 --no-views -o " + q(dir / "P")},
        {"preview again", "batch " + lib + " --to preview --size 32 --no-views -o " + q(dir / "P")},
    };
    for (const auto& [name, command] : runs) {
        BOOST_TEST_CONTEXT(name) {
            const fs::path report = dir / (name + ".json");
            const Run r = test::mshconv(command + " --report " + q(report));
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            const std::vector<std::string> lines = lines_starting(r.out, "batch: ");
            BOOST_TEST_REQUIRE(lines.size() == 1u, r.out);
            BOOST_TEST(lines[0].starts_with(summary_of(read_json(report))), lines[0]);
            BOOST_TEST(r.out.find('\r') == std::string::npos, r.out);
        }
    }
    const nlohmann::json back = read_json(dir / "nres.json"),
                         again = read_json(dir / "preview again.json");
    BOOST_TEST(back["unchanged"] ==
               read_archive(test::corpus_dir() / "LightMap.lib").entries.size());
    BOOST_TEST(again["unchanged"] == again["skipped"]);
    BOOST_TEST(again["unchanged"] > 0u);
    // --quiet: errors only, no summary.
    const Run quiet = test::mshconv("batch " + lib + " --to png --quiet -o " + q(dir / "Q"));
    BOOST_TEST(quiet.code == 0);
    BOOST_TEST(quiet.out.empty(), quiet.out);
}

// The mirror's way back: every unedited file is `unchanged`, maps too, and the totals count them;
// outputs are relative to -o, both ways, and every raw copy is an item.
BOOST_AUTO_TEST_CASE(the_way_back_marks_every_unedited_file_unchanged) {
    const fs::path dir = scratch("unchanged/x").parent_path();
    fs::remove_all(dir);
    Run r = test::mshconv("batch " + q(test::corpus_dir()) + " --to glb,png -o " + q(dir / "X") +
                          " --report " + q(dir / "forward.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const nlohmann::json forward = read_json(dir / "forward.json");
    expect_outputs_below(forward, dir / "X");
    std::set<std::string> outputs;
    for (const auto& i : forward["items"])
        if (i.contains("output")) outputs.insert(i["output"].get<std::string>());
    size_t raw = 0;
    const nlohmann::json mirror = read_json(dir / "X" / "_batch.json");
    for (const auto& f : mirror["files"])
        if (f["kind"] == "raw") {
            ++raw;
            BOOST_TEST(outputs.count(f["output"].get<std::string>()) == 1u, f.dump());
        }
    BOOST_TEST(raw > 0u);

    // Two mirrors at once: -o holds a folder per input, and the outputs say so.
    fs::create_directories(dir / "Y");
    fs::copy(dir / "X", dir / "Y" / "A", fs::copy_options::recursive);
    r = test::mshconv("batch " + q(dir / "X") + " " + q(dir / "Y" / "A") + " --to nres -o " +
                      q(dir / "BACK") + " --report " + q(dir / "back.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const nlohmann::json back = read_json(dir / "back.json");
    expect_outputs_below(back, dir / "BACK");
    size_t maps = 0, raws = 0;
    for (const auto& i : back["items"]) {
        BOOST_TEST(i["status"] == "converted", i.dump());
        if (i["kind"] == "archive") continue;
        BOOST_TEST(i["unchanged"] == true, i.dump());
        maps += i["kind"] == "map";
        raws += i["kind"] == "raw";
    }
    BOOST_TEST(maps == 12u); // 6 levels, twice
    BOOST_TEST(raws == 2 * raw);
    BOOST_TEST(back["unchanged"] == back["converted"].get<size_t>() -
                                        back["converted_by_kind"]["archive"].get<size_t>());
    BOOST_TEST(lines_starting(r.out, "batch: ").size() == 1u, r.out);
}

// Models without their Textures.lib: every warning is in its item's report line, and on the
// console the same warning of several models is one line with its count.
BOOST_AUTO_TEST_CASE(warnings_are_in_the_report_and_folded_on_the_console) {
    const fs::path dir = scratch("warnings/x").parent_path();
    fs::remove_all(dir);
    fs::create_directories(dir / "game");
    for (const char* f : {"static.rlb", "animals.rlb", "Material.lib"})
        fs::copy_file(test::corpus_dir() / f, dir / "game" / f);
    const Run r = test::mshconv("batch " + q(dir / "game") + " --to glb -j 2 -o " + q(dir / "X") +
                                " --report " + q(dir / "r.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const nlohmann::json report = read_json(dir / "r.json");
    size_t in_report = 0;
    for (const auto& i : report["items"])
        for (const auto& w : i.value("warnings", nlohmann::json::array())) {
            ++in_report;
            BOOST_TEST(w.get<std::string>().starts_with(i["input"].get<std::string>() + ": "), w);
        }
    BOOST_TEST(in_report > 20u);
    BOOST_TEST(report["warnings"].empty());
    // Each warning on the console once: `warning: TEXT` or `warning (xN): TEXT (ITEM and N-1
    // more)`.
    size_t printed = 0;
    const std::vector<std::string> lines = lines_starting(r.out, "warning");
    for (const std::string& line : lines)
        printed += line.starts_with("warning (x") ? std::stoul(line.substr(10)) : 1;
    BOOST_TEST(printed == in_report, r.out);
    BOOST_TEST(lines.size() < in_report);
    BOOST_TEST(r.out.find("warning (x2): texture '") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("no Textures.lib; untextured (" + (dir / "game").string()) !=
                   std::string::npos,
               r.out);
}

BOOST_AUTO_TEST_CASE(usage_errors) {
    const fs::path out = scratch("batch-usage");
    const std::string lib = q(test::corpus_dir() / "LightMap.lib");
    BOOST_TEST(test::mshconv("batch " + lib + " -o " + q(out) + " --to tga").code == 2);
    BOOST_TEST(test::mshconv("batch " + lib + " -o " + q(out) + " --to glb,obj").code == 2);
    BOOST_TEST(test::mshconv("batch " + lib + " -o " + q(out) + " --to png,nres").code == 2);
    BOOST_TEST(test::mshconv("batch " + lib + " -o " + q(out) + " --to nres").code ==
               2);                                                     // not a folder
    BOOST_TEST(test::mshconv("batch " + lib + " --to png").code == 2); // no -o
    BOOST_TEST(test::mshconv("batch " + lib + " -o " + q(out) + " --to glb --lod 7").code == 2);
    BOOST_TEST(test::mshconv("batch " + lib + " -o " + q(out) + " --to png -j 0").code == 2);
    // A preview's overlay for a map export, refused before any file is read.
    BOOST_TEST(test::mshconv("batch " + lib + " -o " + q(out) + " --to glb --overlay fill").code ==
               2);
    BOOST_TEST(!fs::exists(out));
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace batch_tests
