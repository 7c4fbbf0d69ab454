// Hardening (issue 16): output sets that appear whole or not at all, writes that never follow a
// planted symlink, outputs that never overwrite an input or replace a whole archive, and names
// read from manifests and glTF URIs confined to their folder.
#include "corpus.hpp"
#include "sidecar_edits.hpp"
#include "test_util.hpp"

#include "conversion/game_files.hpp"
#include "conversion/game_library_add.hpp"
#include "conversion/model_export.hpp"
#include "conversion/model_import.hpp"
#include "conversion/outputs.hpp"
#include "conversion/preview_image.hpp"
#include "conversion/terrain.hpp"
#include "conversion/texture.hpp"
#include "formats/cp1251.hpp"
#include "formats/file_io.hpp"
#include "formats/json_nesting.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "samples/textures_gen.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/payload_hash.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <tuple>
#include <zlib.h>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace hardening_tests {

using namespace msh;
namespace fs = std::filesystem;

using test::q;
using test::Run;

namespace {

// A fresh scratch folder of this name.
fs::path fresh(const std::string& name) {
    const fs::path dir = test::scratch(name + "/x").parent_path();
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::set<std::string> listing(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
    return names;
}

// The first model entry of static.rlb with textures: a .gltf export writes several files.
struct Entry {
    std::string name;
    Bytes bytes;
};
Entry first_model() {
    const Bytes archive = read_file(test::corpus_dir() / "static.rlb");
    const nres::Archive ar = nres::read(archive, ReadMode::Strict, "static.rlb");
    for (const nres::Entry& e : ar.entries)
        if (nres::looks_like_nres(e.data)) return {e.name(), e.data.to_bytes()};
    throw std::runtime_error("no model in static.rlb");
}

// The first texture of the corpus's Textures.lib, as `ARCHIVE:ENTRY`.
std::string first_texture_address() {
    const fs::path lib = test::corpus_dir() / samples::kTexturesLib;
    return lib.string() + ":" +
           nres::read(read_file(lib), ReadMode::Strict, "lib").entries.at(0).name();
}

// The same export's sidecar in the first layout (`mshconv-sidecar/1`, the whole image), as older
// releases wrote it.
sidecar::ModelSidecar first_layout(const Entry& m, const sidecar::ModelSidecar& binding) {
    const Model model = read_model(m.bytes, ReadMode::Strict, m.name);
    return sidecar::make_model_sidecar(model, m.bytes, binding.record, binding.original_hash);
}

conversion::ModelExport export_gltf(const Entry& m) {
    conversion::ModelExportInput in(m.bytes, m.name);
    in.libraries = [](const mapping::LibraryNeeds&) { // the whole libraries
        std::vector<std::string> warnings;
        return std::make_shared<const mapping::MaterialLibraries>(
            conversion::open_game_libraries(test::corpus_dir(), {}, warnings));
    };
    conversion::ModelExportSettings settings;
    settings.format = conversion::SceneFormat::Gltf;
    settings.output_name = "m.gltf";
    return conversion::encode_model(in, settings);
}

} // namespace

BOOST_AUTO_TEST_SUITE(hardening)

BOOST_AUTO_TEST_CASE(an_output_set_appears_whole_or_not_at_all) {
    const conversion::ModelExport x = export_gltf(first_model());
    const std::string text = sidecar::model_sidecar_text(x.sidecar);
    const fs::path dir = fresh("full-disk");
    const conversion::OutputFiles sidecar{
        {(dir / "m.sidecar.json").string(), Bytes(text.begin(), text.end())}};
    const size_t files = x.files.size() + 1;
    BOOST_TEST_REQUIRE(files >= 3u); // .bin, images, .gltf, sidecar
    // A full disk at every write of the set: nothing of it appears, no temporary stays.
    for (size_t k = 0; k < files; ++k) {
        inject_write_failure(int(k));
        BOOST_CHECK_THROW(conversion::write_outputs(dir, x.files, sidecar), std::runtime_error);
        inject_write_failure(-1);
        BOOST_TEST(listing(dir).empty(), "failure at write " << k);
    }
    // A complete set; a failed re-export leaves it as it was.
    conversion::write_outputs(dir, x.files, sidecar);
    const std::set<std::string> written = listing(dir);
    BOOST_TEST(written.size() == files);
    std::vector<Bytes> before;
    for (const std::string& name : written) before.push_back(read_file(dir / name));
    inject_write_failure(int(files) - 1); // the sidecar, the last file
    BOOST_CHECK_THROW(conversion::write_outputs(dir, x.files, sidecar), std::runtime_error);
    inject_write_failure(-1);
    BOOST_TEST((listing(dir) == written));
    size_t i = 0;
    for (const std::string& name : written)
        BOOST_TEST((read_file(dir / name) == before[i++]), name);
}

// The same on a real full disk: a tmpfs smaller than the export, where this machine lets the test
// mount one (root in a container usually may); the injected failures above run everywhere.
BOOST_AUTO_TEST_CASE(a_real_full_disk_leaves_no_partial_set) {
    const fs::path dir = fresh("tmpfs");
    const fs::path lib = test::corpus_dir() / "static.rlb";
    const std::string model = q(lib.string() + ":" + first_model().name);
    BOOST_TEST_REQUIRE(
        test::mshconv("convert " + model + " " + q(dir / "m.gltf") + " --quiet").code == 0);
    uintmax_t total = 0;
    for (const auto& e : fs::directory_iterator(dir)) total += fs::file_size(e.path());
    const uintmax_t size_kb = std::max<uintmax_t>(4, total / 2 / 1024 / 4 * 4);
    fs::create_directories(dir / "full");
    const Run mounted = test::run("mount -t tmpfs -o size=" + std::to_string(size_kb) + "k tmpfs " +
                                  q(dir / "full"));
    if (mounted.code != 0) {
        BOOST_TEST_MESSAGE("no tmpfs here (" << mounted.out << "); the injected failures cover it");
        return;
    }
    BOOST_TEST_MESSAGE("tmpfs of " << size_kb << " KB for an export of " << total << " bytes");
    const Run r = test::mshconv("convert " + model + " " + q(dir / "full" / "m.gltf"));
    const std::set<std::string> left = listing(dir / "full");
    test::run("umount " + q(dir / "full"));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("No space left on device") != std::string::npos, r.out);
    BOOST_TEST(left.empty(), left.size()
                                 << " files left, e.g. " << (left.empty() ? "" : *left.begin()));
}

// OUT is the user's word: a link there (to the game's own file) leads the write to its target,
// and stays a link. The temporary is never a link: see below.
BOOST_AUTO_TEST_CASE(a_symlink_at_the_output_leads_the_write_to_its_target) {
    const fs::path dir = fresh("symlink");
    const Bytes old{'o', 'l', 'd'};
    write_file_atomic(dir / "target", old);
    fs::create_symlink(dir / "target", dir / "out.glb");
    const fs::path lib = test::corpus_dir() / "static.rlb";
    const Run r = test::mshconv("convert " + q(lib.string() + ":" + first_model().name) + " " +
                                q(dir / "out.glb") + " --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST(fs::is_symlink(dir / "out.glb"));
    BOOST_TEST(read_file(dir / "target").size() > 1000u);
    for (const std::string& name : listing(dir))
        BOOST_TEST(name.rfind(".mshconv-", 0) != 0u, name); // no temporary left behind
    // The temporary's name is not predictable: a link planted where the old writer put it
    // (OUT.tmp<pid>) is left alone.
    const Bytes secret{'s', 'e', 'c', 'r', 'e', 't'};
    write_file_atomic(dir / "victim", secret);
    const fs::path planted = dir / ("in-process.glb.tmp" + std::to_string(::getpid()));
    fs::create_symlink(dir / "victim", planted);
    write_file_atomic(dir / "in-process.glb", Bytes{1, 2, 3});
    BOOST_TEST((read_file(dir / "victim") == secret));
    BOOST_TEST((read_file(dir / "in-process.glb") == Bytes{1, 2, 3}));
}

// A file written from pieces (a GLB from a scene's arrays, an archive from its entries): more
// pieces than one system call takes, empty ones among them, the same bytes; a failed write
// leaves nothing.
BOOST_AUTO_TEST_CASE(a_file_written_in_pieces_holds_them_in_order) {
    const fs::path dir = fresh("pieces");
    Bytes expected;
    std::vector<Bytes> storage;
    for (size_t i = 0; i < 3000; ++i) {
        Bytes& b = storage.emplace_back(i % 7 == 0 ? 0 : 1 + i % 13);
        for (size_t k = 0; k < b.size(); ++k) b[k] = uint8_t(i * 31 + k);
        expected.insert(expected.end(), b.begin(), b.end());
    }
    const std::vector<ByteView> pieces(storage.begin(), storage.end());
    write_file_atomic(dir / "joined.bin", pieces);
    BOOST_TEST((read_file(dir / "joined.bin") == expected));
    inject_write_failure(1); // the second system call: part of the file written
    BOOST_CHECK_THROW(write_file_atomic(dir / "failed.bin", pieces), std::runtime_error);
    inject_write_failure(-1);
    BOOST_TEST(!fs::exists(dir / "failed.bin"));
    BOOST_TEST(listing(dir) == std::set<std::string>{"joined.bin"});
}

// Shared mappings: one mapping per file version while it is in use, a replaced file mapped anew;
// releasing pages keeps the bytes readable and never touches memory that is not such a mapping
// (dropping heap pages would zero them): neither a heap buffer nor a small file read into memory.
BOOST_AUTO_TEST_CASE(shared_mappings_are_reused_and_released_pages_read_back) {
    const fs::path dir = fresh("mapping");
    Bytes content(MappedFile::kReadBelow + 3 * 4096 + 100);
    for (size_t i = 0; i < content.size(); ++i) content[i] = uint8_t(i * 7 + 1);
    write_file_atomic(dir / "a.bin", content);
    const auto first = map_shared(dir / "a.bin");
    const auto again = map_shared(dir / "a.bin");
    BOOST_TEST(first.get() == again.get());
    BOOST_TEST(first->mapped());
    const MappedFile whole(dir / "a.bin", Reading::Whole); // its own mapping, pages entered
    BOOST_TEST(whole.mapped());
    BOOST_TEST(whole.bytes().data() != first->bytes().data());
    BOOST_TEST(
        std::equal(whole.bytes().begin(), whole.bytes().end(), content.begin(), content.end()));
    const Bytes small_content(content.begin(), content.begin() + 3 * 4096 + 100);
    write_file_atomic(dir / "small.bin", small_content);
    const auto small = map_shared(dir / "small.bin");
    BOOST_TEST(!small->mapped()); // read into memory
    BOOST_TEST(small.get() == map_shared(dir / "small.bin").get());
    release_mapped_pages(small->bytes().subspan(4000, 5000));
    BOOST_TEST(std::equal(small->bytes().begin(), small->bytes().end(), small_content.begin(),
                          small_content.end()));
    const ByteView middle = first->bytes().subspan(4000, 5000); // across page boundaries
    release_mapped_pages(middle);
    BOOST_TEST(
        std::equal(first->bytes().begin(), first->bytes().end(), content.begin(), content.end()));
    Bytes heap = content;
    release_mapped_pages(heap); // not a mapping: left alone
    BOOST_TEST((heap == content));
    Bytes changed = content;
    changed[0] ^= 0xFF;
    write_file_atomic(dir / "a.bin", changed); // a new file under the name
    const auto replaced = map_shared(dir / "a.bin");
    BOOST_TEST(replaced.get() != first.get());
    BOOST_TEST(replaced->bytes()[0] == changed[0]);
    BOOST_TEST(first->bytes()[0] == content[0]); // the old mapping still shows the old version
}

BOOST_AUTO_TEST_CASE(no_output_overwrites_an_input) {
    const fs::path dir = fresh("inputs");
    const fs::path lib = test::corpus_dir() / "static.rlb";
    const std::string model = q(lib.string() + ":" + first_model().name);
    BOOST_TEST_REQUIRE(
        test::mshconv("convert " + model + " " + q(dir / "m.glb") + " --quiet").code == 0);
    const Bytes glb = read_file(dir / "m.glb"), sc = read_file(dir / "m.sidecar.json");
    auto refused = [&](const std::string& args) {
        const Run r = test::mshconv(args);
        BOOST_TEST(r.code == 2, args << ": " << r.out);
        BOOST_TEST((read_file(dir / "m.glb") == glb));
        BOOST_TEST((read_file(dir / "m.sidecar.json") == sc));
    };
    refused("convert " + q(dir / "m.glb") + " " + q(dir / "back.msh") + " --report " +
            q(dir / "m.glb"));
    refused("convert " + q(dir / "m.glb") + " " + q(dir / "back.msh") + " --report " +
            q(dir / "m.sidecar.json"));
    refused("convert " + q(dir / "m.glb") + " " + q(dir / "m.sidecar.json"));
    refused("convert " + model + " " + q(dir / "two.glb") + " --sidecar " + q(dir / "two.glb"));
    refused("convert " + model + " " + q(dir / "two.glb") + " --report " + q(dir / "two.glb"));
    BOOST_TEST(!fs::exists(dir / "back.msh"));
    BOOST_TEST(!fs::exists(dir / "two.glb"));
    // A texture import onto its own sidecar.
    const std::string tex = q(first_texture_address());
    BOOST_TEST_REQUIRE(test::mshconv("convert " + tex + " " + q(dir / "t.png") + " --quiet").code ==
                       0);
    const Bytes tsc = read_file(dir / "t.sidecar.json");
    BOOST_TEST(
        test::mshconv("convert " + q(dir / "t.png") + " " + q(dir / "t.sidecar.json")).code == 2);
    BOOST_TEST((read_file(dir / "t.sidecar.json") == tsc));
}

BOOST_AUTO_TEST_CASE(a_file_is_imported_only_with_the_sidecar_of_its_own_export) {
    const fs::path dir = fresh("pairing");
    const fs::path lib = test::corpus_dir() / "static.rlb";
    const Entry m = first_model();
    const std::string model = q(lib.string() + ":" + m.name);
    // Two exports of the same model that differ only in their key rate: different tokens.
    BOOST_TEST_REQUIRE(
        test::mshconv("convert " + model + " " + q(dir / "a.glb") + " --quiet").code == 0);
    BOOST_TEST_REQUIRE(
        test::mshconv("convert " + model + " " + q(dir / "b.glb") + " --fps 30 --quiet").code == 0);
    auto sidecar_pair = [&](const std::string& name) {
        const Bytes t = read_file(dir / name);
        return nlohmann::json::parse(t.begin(), t.end())["export"]["pair"].get<std::string>();
    };
    const std::string a = sidecar_pair("a.sidecar.json"), b = sidecar_pair("b.sidecar.json");
    BOOST_TEST(a.size() == 16u);
    BOOST_TEST(a != b);
    // The same options to another format: the same token (one sidecar serves both files).
    BOOST_TEST_REQUIRE(
        test::mshconv("convert " + model + " " + q(dir / "a.obj") + " --quiet").code == 0);
    BOOST_TEST(sidecar_pair("a.sidecar.json") == a);
    // Matched pair: imported, the report says verified.
    Run r = test::mshconv("convert " + q(dir / "a.glb") + " " + q(dir / "a.msh") + " --report " +
                          q(dir / "a.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(dir / "a.msh") == m.bytes));
    Bytes rep = read_file(dir / "a.json");
    BOOST_TEST(nlohmann::json::parse(rep.begin(), rep.end())["pairing"] == "verified");
    // A re-export's file beside the old sidecar: refused, naming both tokens; nothing written.
    r = test::mshconv("convert " + q(dir / "b.glb") + " " + q(dir / "x.msh") + " --sidecar " +
                      q(dir / "a.sidecar.json"));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("belongs to another export than its sidecar") != std::string::npos,
               r.out);
    BOOST_TEST(r.out.find(a) != std::string::npos, r.out);
    BOOST_TEST(r.out.find(b) != std::string::npos, r.out);
    BOOST_TEST(!fs::exists(dir / "x.msh"));
    // --force imports it (a static model: the key rate changes nothing) and says so.
    r = test::mshconv("convert " + q(dir / "b.glb") + " " + q(dir / "x.msh") + " --sidecar " +
                      q(dir / "a.sidecar.json") + " --force --report " + q(dir / "x.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    rep = read_file(dir / "x.json");
    BOOST_TEST(nlohmann::json::parse(rep.begin(), rep.end())["pairing"] ==
               "mismatch ignored (--force)");
    // OBJ carries the token as a comment and is checked the same way.
    BOOST_TEST_REQUIRE(
        test::mshconv("convert " + model + " " + q(dir / "c.obj") + " --fps 30 --quiet").code == 0);
    const Bytes obj = read_file(dir / "c.obj");
    const std::string c = sidecar_pair("c.sidecar.json");
    BOOST_TEST(std::string(obj.begin(), obj.end()).find("# mshconv pair " + c + "\n") !=
               std::string::npos);
    r = test::mshconv("convert " + q(dir / "c.obj") + " " + q(dir / "x2.msh") + " --sidecar " +
                      q(dir / "a.sidecar.json"));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(!fs::exists(dir / "x2.msh"));
    // A tool that drops the token (Blender without custom properties): imported, not verified.
    std::string text(obj.begin(), obj.end());
    text.erase(text.find("# mshconv pair"), 16 + 16);
    write_file_atomic(dir / "c.obj", Bytes(text.begin(), text.end()));
    r = test::mshconv("convert " + q(dir / "c.obj") + " " + q(dir / "c.msh") + " --report " +
                      q(dir / "c.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(dir / "c.msh") == m.bytes));
    rep = read_file(dir / "c.json");
    BOOST_TEST(nlohmann::json::parse(rep.begin(), rep.end())["pairing"] ==
               "not verified: the file carries no pairing token");
}

BOOST_AUTO_TEST_CASE(a_map_is_imported_only_with_the_sidecar_of_its_own_export) {
    const fs::path dir = fresh("terrain_pairing");
    const fs::path maps = test::corpus_dir() / "DATA" / "MAPS";
    std::vector<fs::path> levels;
    for (const auto& e : fs::directory_iterator(maps)) levels.push_back(e.path());
    std::sort(levels.begin(), levels.end());
    BOOST_TEST_REQUIRE(levels.size() >= 2u);
    for (const char* ext : {".glb", ".obj"}) {
        const std::string a = std::string("a") + ext, b = std::string("b") + ext;
        BOOST_TEST_REQUIRE(
            test::mshconv("convert " + q(levels[0] / "Land.msh") + " " + q(dir / a) + " --quiet")
                .code == 0);
        BOOST_TEST_REQUIRE(
            test::mshconv("convert " + q(levels[1] / "Land.msh") + " " + q(dir / b) + " --quiet")
                .code == 0);
        // Its own sidecar: unchanged, byte for byte, the report says verified.
        Run r = test::mshconv("convert " + q(dir / a) + " " + q(dir / "a" / "Land.msh") +
                              " --report " + q(dir / "a.json"));
        BOOST_TEST_REQUIRE(r.code == 0, r.out);
        BOOST_TEST((read_file(dir / "a" / "Land.msh") == read_file(levels[0] / "Land.msh")));
        const Bytes rep = read_file(dir / "a.json");
        BOOST_TEST(nlohmann::json::parse(rep.begin(), rep.end())["pairing"] == "verified");
        // Another level's sidecar: refused before anything is written.
        r = test::mshconv("convert " + q(dir / a) + " " + q(dir / "x" / "Land.msh") +
                          " --sidecar " + q(dir / "b.sidecar.json"));
        BOOST_TEST(r.code == 1, ext << ": " << r.out);
        BOOST_TEST(r.out.find("belongs to another export than its sidecar") != std::string::npos,
                   r.out);
        BOOST_TEST(!fs::exists(dir / "x" / "Land.msh"));
        fs::remove_all(dir / "a");
    }
}

BOOST_AUTO_TEST_CASE(batch_outputs_stay_outside_its_inputs) {
    const fs::path dir = fresh("batch_paths");
    fs::create_directories(dir / "game");
    fs::copy_file(test::corpus_dir() / "static.rlb", dir / "game" / "static.rlb");
    const Bytes original = read_file(dir / "game" / "static.rlb");
    fs::create_directory_symlink(dir / "game", dir / "link");
    const std::string game = q(dir / "game");
    auto refused = [&](const std::string& args, const std::string& why) {
        const Run r = test::mshconv("batch " + args);
        BOOST_TEST(r.code == 2, args << ": " << r.out);
        BOOST_TEST(r.out.find(why) != std::string::npos, args << ": " << r.out);
        BOOST_TEST((read_file(dir / "game" / "static.rlb") == original));
        BOOST_TEST((listing(dir / "game") == std::set<std::string>{"static.rlb"}));
    };
    refused(game + " --to glb -o " + game, "lies inside the input");
    refused(game + " --to glb -o " + q(dir / "game" / "out"), "lies inside the input");
    refused(game + " --to glb -o " + q(dir / "link" / "out"), "lies inside the input");
    refused(game + " --to glb -o " + q(dir / "game" / "." / "x" / ".."), "lies inside the input");
    refused(q(dir / "game" / "static.rlb") + " --to glb -o " + q(dir), "lies inside the output");
    refused(game + " --to glb -o " + q(dir / "o") + " --report " + q(dir / "game" / "static.rlb"),
            "--report");
    BOOST_TEST(!fs::exists(dir / "o"));
    refused(q(dir / "game" / "static.rlb") + " --to glb -o " + q(dir / "o") + " --report " +
                q(dir / "o"),
            "--report names the output");
    // Beside the input, not inside it: converted; and back, beside both.
    Run r = test::mshconv("batch " + game + " --to glb -o " + q(dir / "o") + " --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    r = test::mshconv("batch " + q(dir / "o") + " --to nres -o " + q(dir / "o" / "back"));
    BOOST_TEST(r.code == 2, r.out);
    r = test::mshconv("batch " + q(dir / "o") + " --to nres -o " + q(dir / "back") + " --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(dir / "back" / "static.rlb") == original));
}

BOOST_AUTO_TEST_CASE(an_archive_is_never_replaced_by_one_entry) {
    const fs::path dir = fresh("archives");
    for (const char* f : {"static.rlb", samples::kTexturesLib})
        fs::copy_file(test::corpus_dir() / f, dir / f);
    const Bytes models = read_file(dir / "static.rlb");
    const Bytes textures = read_file(dir / samples::kTexturesLib);
    const Entry m = first_model();
    BOOST_TEST_REQUIRE(test::mshconv("convert " + q((dir / "static.rlb").string() + ":" + m.name) +
                                     " " + q(dir / "m.glb") + " --quiet")
                           .code == 0);
    const std::string tex = nres::read(textures, ReadMode::Strict, "lib").entries.at(0).name();
    BOOST_TEST_REQUIRE(test::mshconv("convert " +
                                     q((dir / samples::kTexturesLib).string() + ":" + tex) + " " +
                                     q(dir / "t.png") + " --quiet")
                           .code == 0);
    Run r = test::mshconv("convert " + q(dir / "m.glb") + " " + q(dir / "static.rlb"));
    BOOST_TEST(r.code == 2, r.out);
    BOOST_TEST(r.out.find("name the entry") != std::string::npos, r.out);
    r = test::mshconv("convert " + q(dir / "t.png") + " " + q(dir / samples::kTexturesLib));
    BOOST_TEST(r.code == 2, r.out);
    BOOST_TEST((read_file(dir / "static.rlb") == models));
    BOOST_TEST((read_file(dir / samples::kTexturesLib) == textures));
    // Naming the entry works, and a loose model file may be replaced.
    BOOST_TEST(test::mshconv("convert " + q(dir / "m.glb") + " " +
                             q((dir / "static.rlb").string() + ":" + m.name))
                   .code == 0);
    BOOST_TEST((read_file(dir / "static.rlb") == models));
    write_file_atomic(dir / "loose.msh", m.bytes);
    BOOST_TEST(test::mshconv("convert " + q(dir / "m.glb") + " " + q(dir / "loose.msh")).code == 0);
}

BOOST_AUTO_TEST_CASE(manifest_paths_stay_in_their_folder) {
    const fs::path dir = fresh("manifest");
    const fs::path lib = test::corpus_dir() / "static.rlb";
    BOOST_TEST_REQUIRE(test::mshconv("nres extract " + q(lib) + " -o " + q(dir / "x")).code == 0);
    write_file_atomic(dir / "outside.bin", Bytes{1, 2, 3});
    fs::create_symlink(dir / "outside.bin", dir / "x" / "link.bin");
    fs::create_directory_symlink(dir, dir / "x" / "up"); // a symlink on the way, not at the end
    const fs::path manifest = dir / "x" / "_nres.json";
    const Bytes original = read_file(manifest);
    for (const std::string& bad :
         {std::string("/etc/passwd"), std::string("../outside.bin"),
          std::string("sub/../../outside.bin"), std::string("link.bin"),
          std::string("up/outside.bin"), std::string("./up/x/../outside.bin")}) {
        nlohmann::json m = nlohmann::json::parse(original.begin(), original.end());
        m["entries"][0]["file"] = bad;
        const std::string text = m.dump(1);
        write_file_atomic(manifest, Bytes(text.begin(), text.end()));
        for (const std::string& cmd :
             {"nres pack " + q(dir / "x") + " -o " + q(dir / "packed.rlb"),
              "batch " + q(dir / "x") + " --to nres -o " + q(dir / "rebuilt")}) {
            const Run r = test::mshconv(cmd);
            BOOST_TEST(r.code != 0, bad << ": " << cmd);
            BOOST_TEST(r.out.find("'" + bad + "'") != std::string::npos, r.out);
            BOOST_TEST(!fs::exists(dir / "packed.rlb"));
        }
    }
    write_file_atomic(manifest, original);
    BOOST_TEST(test::mshconv("nres pack " + q(dir / "x") + " -o " + q(dir / "packed.rlb")).code ==
               0);
    BOOST_TEST((read_file(dir / "packed.rlb") == read_file(lib)));
}

BOOST_AUTO_TEST_CASE(gltf_uris_stay_in_their_folder) {
    const fs::path dir = fresh("uris");
    const fs::path lib = test::corpus_dir() / "static.rlb";
    BOOST_TEST_REQUIRE(test::mshconv("convert " + q(lib.string() + ":" + first_model().name) + " " +
                                     q(dir / "in" / "m.gltf") + " --quiet")
                           .code == 0);
    fs::copy_file(dir / "in" / "m.bin", dir / "secret.bin");
    fs::create_symlink(dir / "secret.bin", dir / "in" / "link.bin");
    const Bytes text = read_file(dir / "in" / "m.gltf");
    const nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end());
    for (const std::string& uri :
         {std::string("../secret.bin"), (dir / "secret.bin").string(), std::string("link.bin")}) {
        nlohmann::json d = doc;
        d["buffers"][0]["uri"] = uri;
        const std::string t = d.dump();
        write_file_atomic(dir / "in" / "m.gltf", Bytes(t.begin(), t.end()));
        const Run r =
            test::mshconv("convert " + q(dir / "in" / "m.gltf") + " " + q(dir / "out.msh"));
        BOOST_TEST(r.code == 1, uri << ": " << r.out);
        // Refused before tinygltf sees the document, naming the member and why.
        BOOST_TEST(r.out.find("at /buffers/0/uri: '" + uri + "' ") != std::string::npos, r.out);
        BOOST_TEST((r.out.find("leaves its folder") != std::string::npos ||
                    r.out.find("is an absolute path") != std::string::npos ||
                    r.out.find("through a symlink") != std::string::npos),
                   r.out);
        BOOST_TEST(!fs::exists(dir / "out.msh"));
    }
    write_file_atomic(dir / "in" / "m.gltf", text);
    BOOST_TEST(
        test::mshconv("convert " + q(dir / "in" / "m.gltf") + " " + q(dir / "out.msh")).code == 0);
}

BOOST_AUTO_TEST_CASE(deep_json_nesting_is_refused_before_parsing) {
    const fs::path dir = fresh("nesting");
    const fs::path lib = test::corpus_dir() / "static.rlb";
    const std::string model = q(lib.string() + ":" + first_model().name);
    BOOST_TEST_REQUIRE(
        test::mshconv("convert " + model + " " + q(dir / "m.gltf") + " --quiet").code == 0);
    const Bytes gltf = read_file(dir / "m.gltf"), sidecar = read_file(dir / "m.sidecar.json");
    // `"extras": [[[...]]]` 100,000 deep in the glTF (tinygltf's parser would overflow the stack).
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    std::string text(gltf.begin(), gltf.end());
    text.insert(text.find('{') + 1, "\"extras\": " + deep + ",");
    write_file_atomic(dir / "m.gltf", Bytes(text.begin(), text.end()));
    Run r = test::mshconv("convert " + q(dir / "m.gltf") + " " + q(dir / "out.msh"));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("nested deeper than") != std::string::npos, r.out);
    BOOST_TEST(!fs::exists(dir / "out.msh"));
    // A model sidecar nested 1,000,000 deep.
    write_file_atomic(dir / "m.gltf", gltf);
    std::string sc(sidecar.begin(), sidecar.end());
    sc.insert(sc.find('{') + 1,
              "\"x\": " + std::string(1000000, '[') + std::string(1000000, ']') + ",");
    write_file_atomic(dir / "m.sidecar.json", Bytes(sc.begin(), sc.end()));
    r = test::mshconv("convert " + q(dir / "m.gltf") + " " + q(dir / "out.msh"));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("nested deeper than") != std::string::npos, r.out);
    BOOST_TEST(!fs::exists(dir / "out.msh"));
    // A texture sidecar nested one level too deep (the scan refuses it, the DOM fallback says
    // where).
    const std::string tex = q(first_texture_address());
    BOOST_TEST_REQUIRE(test::mshconv("convert " + tex + " " + q(dir / "t.png") + " --quiet").code ==
                       0);
    const Bytes tsc = read_file(dir / "t.sidecar.json");
    std::string ts(tsc.begin(), tsc.end());
    ts.insert(ts.find('{') + 1, "\"x\": " + std::string(kMaxJsonNesting, '[') +
                                    std::string(kMaxJsonNesting, ']') + ",");
    write_file_atomic(dir / "t.sidecar.json", Bytes(ts.begin(), ts.end()));
    r = test::mshconv("convert " + q(dir / "t.png") + " " + q(dir / "t.texm"));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("nested deeper than 256 levels") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("t.sidecar.json") != std::string::npos, r.out);
    BOOST_TEST(!fs::exists(dir / "t.texm"));
    // In a batch rebuild the damaged entry fails alone, with a report, and the batch goes on.
    BOOST_TEST_REQUIRE(test::mshconv("batch " + q(lib) + " --to glb -o " + q(dir / "b")).code == 0);
    const fs::path folder = dir / "b" / "static.rlb";
    fs::path victim;
    for (const auto& e : fs::directory_iterator(folder))
        if (e.path().filename().string().ends_with(".sidecar.json")) victim = e.path();
    BOOST_TEST_REQUIRE(!victim.empty());
    const Bytes v = read_file(victim);
    std::string vs(v.begin(), v.end());
    vs.insert(vs.find('{') + 1,
              "\"x\": " + std::string(1000000, '[') + std::string(1000000, ']') + ",");
    write_file_atomic(victim, Bytes(vs.begin(), vs.end()));
    r = test::mshconv("batch " + q(dir / "b") + " --to nres -o " + q(dir / "back") + " --report " +
                      q(dir / "report.json"));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("nested deeper than") != std::string::npos, r.out);
    BOOST_TEST(fs::exists(dir / "report.json"));
    // An archive manifest nested too deep.
    BOOST_TEST_REQUIRE(test::mshconv("nres extract " + q(lib) + " -o " + q(dir / "x")).code == 0);
    write_file_atomic(dir / "x" / "_nres.json", Bytes(2000, '['));
    r = test::mshconv("nres pack " + q(dir / "x") + " -o " + q(dir / "packed.rlb"));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("nested deeper than") != std::string::npos, r.out);
}

// The nesting check skips 16-byte blocks it has no reason to look at; it must still find
// exactly the first bracket a byte-at-a-time scan finds too deep, with escapes, quotes and
// brackets at every position of a block and across block ends.
BOOST_AUTO_TEST_CASE(json_nesting_check_agrees_with_a_byte_scan) {
    const auto first_too_deep = [](const std::string& t, size_t limit) {
        size_t depth = 0;
        bool in_string = false, escaped = false;
        for (size_t i = 0; i < t.size(); ++i) {
            const char c = t[i];
            if (in_string) {
                if (escaped)
                    escaped = false;
                else if (c == '\\')
                    escaped = true;
                else if (c == '"')
                    in_string = false;
            } else if (c == '"') {
                in_string = true;
            } else if (c == '[' || c == '{') {
                if (++depth > limit) return i;
            } else if ((c == ']' || c == '}') && depth > 0) {
                --depth;
            }
        }
        return std::string::npos;
    };
    std::mt19937 rng(14);
    const std::string alphabet = "[]{}\"\\abc0,:  ";
    int refused = 0, passed = 0;
    for (int round = 0; round < 4000; ++round) {
        std::string t(rng() % 200, ' ');
        const bool bracket_heavy = round % 2 == 0; // else long runs the blocks skip
        for (char& c : t)
            c = bracket_heavy || rng() % 8 == 0 ? alphabet[rng() % alphabet.size()] : 'x';
        const size_t limit = 1 + rng() % 6;
        const size_t expected = first_too_deep(t, limit);
        const ByteView view(reinterpret_cast<const uint8_t*>(t.data()), t.size());
        std::string error;
        try {
            check_json_nesting(view, "t.json", limit);
        } catch (const FormatError& e) {
            error = e.what();
        }
        if (expected == std::string::npos) {
            BOOST_TEST(error.empty(), t);
            ++passed;
        } else {
            // The message names that bracket's offset.
            BOOST_TEST(error.find("(offset " + std::to_string(expected) + ")") != std::string::npos,
                       error << " / expected offset " << expected << " in " << t);
            ++refused;
        }
    }
    BOOST_TEST(refused > 500); // both outcomes were exercised
    BOOST_TEST(passed > 500);
}

BOOST_AUTO_TEST_CASE(batch_never_skips_an_unreadable_game_file_silently) {
    const fs::path dir = fresh("unreadable");
    Bytes broken = read_file(test::corpus_dir() / "static.rlb");
    broken[0] = 'X'; // the magic
    write_file_atomic(dir / "in" / "broken.rlb", broken);
    write_file_atomic(dir / "in" / "empty.rlb", Bytes{});
    write_file_atomic(dir / "in" / "notes.txt", Bytes{'h', 'i'}); // not a game file: skipped
    const Run r = test::mshconv("batch " + q(dir / "in") + " --to glb -o " + q(dir / "out") +
                                " --report " + q(dir / "report.json"));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("broken.rlb: not a readable rlb file") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("empty.rlb: not a readable rlb file (empty)") != std::string::npos,
               r.out);
    const Bytes text = read_file(dir / "report.json");
    const nlohmann::json report = nlohmann::json::parse(text.begin(), text.end());
    BOOST_TEST(report["failed"] == 2);
    // validate agrees that both are invalid.
    BOOST_TEST(test::mshconv("validate " + q(dir / "in" / "broken.rlb")).code != 0);
    BOOST_TEST(test::mshconv("validate " + q(dir / "in" / "empty.rlb")).code != 0);
}

BOOST_AUTO_TEST_CASE(cp1251_names_round_trip_everywhere) {
    // static.rlb with its first model named "АБ.msh" (CP1251 C0 C1) and every byte 0x80-0xFF
    // spread over the names of its other entries (30 per name, the field holds 35).
    const fs::path dir = fresh("cp1251");
    nres::Archive ar =
        nres::read(read_file(test::corpus_dir() / "static.rlb"), ReadMode::Strict, "static.rlb");
    const Entry model = first_model();
    const size_t mi = *ar.find(model.name);
    ar.entries[mi].set_name("\xC0\xC1.msh");
    size_t next = 0x80;
    for (size_t i = 0; i < ar.entries.size() && next <= 0xFF; ++i) {
        if (i == mi || nres::looks_like_nres(ar.entries[i].data)) continue;
        std::string name;
        for (int k = 0; k < 30 && next <= 0xFF; ++k) name += char(next++);
        ar.entries[i].set_name(name + std::to_string(i));
    }
    BOOST_TEST_REQUIRE(next == 0x100u);
    const Bytes original = nres::write(ar);
    write_file_atomic(dir / "names.rlb", original);
    const std::string utf8 = "\xD0\x90\xD0\x91.msh"; // "АБ.msh" typed by a person
    // Addressing in UTF-8, export and import back into the entry: byte-identical archive.
    Run r = test::mshconv("convert " + q((dir / "names.rlb").string() + ":" + utf8) + " " +
                          q(dir / "ab.glb") + " --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const Bytes sc = read_file(dir / "ab.sidecar.json");
    BOOST_TEST(std::string(sc.begin(), sc.end()).find(utf8) != std::string::npos);
    r = test::mshconv("convert " + q(dir / "ab.glb") + " " +
                      q((dir / "names.rlb").string() + ":" + utf8));
    BOOST_TEST(r.code == 0, r.out);
    BOOST_TEST((read_file(dir / "names.rlb") == original));
    // info --json names the entries in UTF-8.
    r = test::mshconv("info --json " + q(dir / "names.rlb"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST(r.out.find(utf8) != std::string::npos);
    // Extraction and packing keep every raw byte; batch both ways gives the archive back.
    BOOST_TEST_REQUIRE(
        test::mshconv("nres extract " + q(dir / "names.rlb") + " -o " + q(dir / "x")).code == 0);
    BOOST_TEST(fs::exists(dir / "x" / utf8));
    BOOST_TEST_REQUIRE(
        test::mshconv("nres pack " + q(dir / "x") + " -o " + q(dir / "packed.rlb")).code == 0);
    BOOST_TEST((read_file(dir / "packed.rlb") == original));
    r = test::mshconv("batch " + q(dir / "names.rlb") + " --to glb -o " + q(dir / "b"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST(fs::exists(dir / "b" / "names.rlb" / "\xD0\x90\xD0\x91.glb"));
    r = test::mshconv("batch " + q(dir / "b" / "names.rlb") + " --to nres -o " +
                      q(dir / "back.rlb"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(dir / "back.rlb") == original));
    // Both ways of the conversion itself.
    BOOST_TEST(cp1251_to_utf8("\xC0\xC1") == "\xD0\x90\xD0\x91");
    std::string all;
    for (int b = 0x80; b <= 0xFF; ++b) all += char(b);
    BOOST_TEST((utf8_to_cp1251(cp1251_to_utf8(all)) == all));
}

BOOST_AUTO_TEST_CASE(cp1251_node_names_reach_gltf_and_obj_as_utf8) {
    // A model whose first node is named "Танк" in CP1251 (Res10), as the game's names are.
    const fs::path dir = fresh("cp1251_nodes");
    Model model = read_model(first_model().bytes, ReadMode::Strict, "m");
    BOOST_TEST_REQUIRE(model.has(kNodeStrings));
    model.node_strings.at(0) = {true, "\xD2\xE0\xED\xEA"};
    const Bytes image = write_model(model);
    write_file_atomic(dir / "t.msh", image);
    const std::string utf8 = "\xD0\xA2\xD0\xB0\xD0\xBD\xD0\xBA"; // "Танк"
    for (const std::string ext : {".gltf", ".glb", ".obj"}) {
        BOOST_TEST_CONTEXT(ext) {
            const fs::path out = dir / ("t" + ext);
            Run r = test::mshconv("convert " + q(dir / "t.msh") + " " + q(out) + " --quiet");
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            if (ext == ".gltf") {
                const Bytes text = read_file(out);
                // nlohmann refuses invalid UTF-8: the document must parse and name the node.
                const nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end());
                bool found = false;
                for (const auto& n : doc["nodes"]) found |= n.value("name", "") == utf8;
                BOOST_TEST(found);
            }
            if (ext == ".obj") {
                const Bytes text = read_file(out);
                BOOST_TEST(std::string(text.begin(), text.end()).find("o " + utf8 + "\n") !=
                           std::string::npos);
            }
            // Unedited: the CP1251 bytes come back.
            r = test::mshconv("convert " + q(out) + " " + q(dir / ("back" + ext + ".msh")));
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            BOOST_TEST((read_file(dir / ("back" + ext + ".msh")) == image));
        }
    }
    // Renamed in a tool to another Cyrillic name: stored as CP1251 again.
    const Bytes text = read_file(dir / "t.gltf");
    std::string gltf(text.begin(), text.end());
    const size_t at = gltf.find("\"" + utf8 + "\"");
    BOOST_TEST_REQUIRE(at != std::string::npos);
    gltf.replace(at + 1, utf8.size(), "\xD0\x91\xD0\xA2\xD0\xA0"); // "БТР"
    write_file_atomic(dir / "t.gltf", Bytes(gltf.begin(), gltf.end()));
    Run r = test::mshconv("convert " + q(dir / "t.gltf") + " " + q(dir / "renamed.msh"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const Model renamed = read_model(read_file(dir / "renamed.msh"), ReadMode::Strict, "renamed");
    BOOST_TEST(renamed.node_strings.at(0).text == "\xC1\xD2\xD0");
    // A new model: Cyrillic names become CP1251; a character CP1251 lacks becomes '?' + warning.
    const std::string obj = "o \xD0\x91\xD0\xA2\xD0\xA0\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
                            "o \xE9\x9B\xAA\xD0\xAF\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf 4 5 6\n";
    write_file_atomic(dir / "new.obj", Bytes(obj.begin(), obj.end()));
    r = test::mshconv("convert " + q(dir / "new.obj") + " " + q(dir / "new.msh"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST(r.out.find("characters CP1251 cannot hold are stored as '?'") != std::string::npos,
               r.out);
    const Model created = read_model(read_file(dir / "new.msh"), ReadMode::Strict, "new");
    BOOST_TEST_REQUIRE(created.node_strings.size() >= 2u);
    BOOST_TEST(created.node_strings[0].text == "\xC1\xD2\xD0");
    BOOST_TEST(created.node_strings[1].text == "?\xDF");
}

BOOST_AUTO_TEST_CASE(validate_strict_refuses_non_finite_floats) {
    const fs::path dir = fresh("non-finite");
    const Entry m = first_model();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    // A NaN vertex (Res3), an infinite bound (Res2 sphere) and a NaN key time (Res8).
    for (const auto& [type, offset, value, what] :
         {std::tuple{3u, size_t(4), nan, "Res3: offset"}, std::tuple{2u, size_t(96), inf, "Res2"},
          std::tuple{8u, size_t(12), nan, "Res8"}}) {
        nres::Archive image = nres::read(m.bytes, ReadMode::Strict, "model");
        const auto i = image.find_type(type);
        if (!i) continue; // a static model has no Res8
        std::memcpy(image.entries[*i].data.edit().data() + offset, &value, 4);
        const fs::path file = dir / ("bad" + std::to_string(type) + ".msh");
        write_file_atomic(file, nres::write(image));
        Run r = test::mshconv("validate --strict " + q(file));
        BOOST_TEST(r.code == 1, r.out);
        BOOST_TEST(r.out.find("is not finite (NaN or infinity)") != std::string::npos, r.out);
        BOOST_TEST(r.out.find(what) != std::string::npos, r.out);
        r = test::mshconv("validate " + q(file)); // tolerant: reported, not fatal
        BOOST_TEST(r.out.find("is not finite") != std::string::npos, r.out);
    }
}

BOOST_AUTO_TEST_CASE(sidecar_fields_of_the_wrong_type_are_format_errors) {
    // Fuzz finding (fuzz_sidecars): `"schema": {...}` escaped as a JSON library type_error.
    const Entry model = first_model();
    const conversion::ModelExport x = export_gltf(model);
    auto text_of = [](const nlohmann::json& doc) {
        const std::string t = doc.dump();
        return Bytes(t.begin(), t.end());
    };
    // Every wrong value at each pointer: a FormatError, or accepted where it is a legal value.
    auto refusals = [&](const nlohmann::json& good, std::initializer_list<const char*> pointers) {
        BOOST_CHECK_NO_THROW(sidecar::read_model_sidecar(text_of(good), "good"));
        size_t refused = 0;
        for (const char* pointer : pointers)
            for (const nlohmann::json& wrong :
                 {nlohmann::json::object({{"x", 1}}), nlohmann::json::array({1, 2}),
                  nlohmann::json(-1), nlohmann::json("text"), nlohmann::json(nullptr)}) {
                nlohmann::json doc = good;
                const nlohmann::json::json_pointer p(pointer);
                BOOST_REQUIRE_MESSAGE(doc.contains(p), pointer);
                if (doc[p] == wrong) continue;
                doc[p] = wrong;
                try {
                    sidecar::read_model_sidecar(text_of(doc), "bad");
                } catch (const FormatError& e) {
                    ++refused;
                    continue;
                } catch (const std::exception& e) {
                    BOOST_ERROR(pointer << " = " << wrong.dump() << ": " << e.what());
                    continue;
                }
                BOOST_TEST(!(std::string(pointer) == "/schema" || std::string(pointer) == "/kind"),
                           pointer << " = " << wrong.dump());
            }
        return refused;
    };
    BOOST_TEST(refusals(test::sidecar_json(x.sidecar), {"/schema",
                                                        "/kind",
                                                        "/source",
                                                        "/source/size",
                                                        "/source/xxh3_64",
                                                        "/export/fps",
                                                        "/export/options/lod",
                                                        "/wear/rows",
                                                        "/nodes/rows/0/1",
                                                        "/nodes/rows/0/5",
                                                        "/slots/rows/0/4",
                                                        "/batches/rows/0/1",
                                                        "/container/entries/rows/0/1",
                                                        "/container/layout/0",
                                                        "/animation/keys/rows/0",
                                                        "/blocks/0/base64",
                                                        "/blocks/0/entry",
                                                        "/vertices/count",
                                                        "/vertices/positions/size",
                                                        "/derived/header/hull",
                                                        "/checks/nodes",
                                                        "/triangles/records/base64"}) > 80u);
    BOOST_TEST(
        refusals(test::sidecar_json(first_layout(model, x.sidecar)),
                 {"/schema", "/kind", "/source", "/source/size", "/source/xxh3_64", "/export/fps",
                  "/export/options/lod", "/wear/rows", "/nodes/0/flags", "/nodes/0/slots",
                  "/slots/0/aabb_min", "/batches/0/material", "/container/entries/0/raw_name",
                  "/animation/key_count", "/original_image"}) > 50u);
}

// Older sidecars record FNV-1a 64 under "fnv1a64" instead of XXH3-64 under
// "xxh3_64": still read, still checked.
BOOST_AUTO_TEST_CASE(model_sidecars_with_the_older_hash_still_read_and_check) {
    const Entry model = first_model();
    conversion::ModelExport x = export_gltf(model);
    x.sidecar = first_layout(model, x.sidecar);
    nlohmann::json doc = test::sidecar_json(x.sidecar);
    auto text_of = [](const nlohmann::json& d) {
        const std::string t = d.dump();
        return Bytes(t.begin(), t.end());
    };
    BOOST_TEST(doc["source"]["xxh3_64"] ==
               sidecar::hex64(sidecar::payload_hash(x.sidecar.original_image)));
    doc["source"].erase("xxh3_64");
    doc["source"]["fnv1a64"] = sidecar::hex64(sidecar::fnv1a64(x.sidecar.original_image));
    const sidecar::ModelSidecar older = sidecar::read_model_sidecar(text_of(doc), "older");
    BOOST_TEST((older.original_image == x.sidecar.original_image));
    BOOST_TEST(older.original_hash == sidecar::payload_hash(x.sidecar.original_image));
    doc["source"]["fnv1a64"] = sidecar::hex64(sidecar::fnv1a64(x.sidecar.original_image) ^ 1);
    try {
        sidecar::read_model_sidecar(text_of(doc), "damaged");
        BOOST_ERROR("a wrong FNV-1a hash was accepted");
    } catch (const FormatError& e) {
        BOOST_TEST(e.location().pointer == "/source/fnv1a64");
    }
    doc["source"].erase("fnv1a64"); // neither hash: refused, naming the current one
    try {
        sidecar::read_model_sidecar(text_of(doc), "no hash");
        BOOST_ERROR("a sidecar without a hash was accepted");
    } catch (const FormatError& e) {
        BOOST_TEST(e.location().pointer == "/source/xxh3_64");
    }
}

BOOST_AUTO_TEST_CASE(extracted_names_are_safe_on_any_system) {
    const fs::path dir = fresh("safe-names");
    nres::Archive ar =
        nres::read(read_file(test::corpus_dir() / samples::kTexturesLib), ReadMode::Strict, "lib");
    const std::vector<std::pair<std::string, std::string>> names = {
        {"../../escape", ".._.._escape"},
        {"C:\\x", "C__x"},
        {"CON", "_CON"},
        {"nul.txt", "_nul.txt"},
        {"com1.bin", "_com1.bin"},
        {"a<b>|?*\"", "a_b_____"},
        {"trail.", "trail_"},
        {"/abs", "_abs"}};
    BOOST_TEST_REQUIRE(ar.entries.size() >= names.size());
    for (size_t i = 0; i < names.size(); ++i) ar.entries[i].set_name(names[i].first);
    const Bytes original = nres::write(ar);
    write_file_atomic(dir / "odd.lib", original);
    BOOST_TEST_REQUIRE(
        test::mshconv("nres extract " + q(dir / "odd.lib") + " -o " + q(dir / "x")).code == 0);
    for (const auto& [raw, safe] : names) BOOST_TEST(fs::is_regular_file(dir / "x" / safe), raw);
    BOOST_TEST(listing(dir).size() == 2u); // odd.lib and x/: nothing escaped
    BOOST_TEST_REQUIRE(
        test::mshconv("nres pack " + q(dir / "x") + " -o " + q(dir / "back.lib")).code == 0);
    BOOST_TEST((read_file(dir / "back.lib") == original));
}

BOOST_AUTO_TEST_CASE(sizes_from_a_file_are_checked_before_allocation) {
    const fs::path dir = fresh("budgets");
    // A PNG whose header claims 16384 x 16384 over a few bytes of data.
    Bytes png = png::encode_rgba(texm::Image(1, 1));
    auto put_be32 = [&](size_t at, uint32_t v) {
        for (int k = 0; k < 4; ++k) png[at + size_t(k)] = uint8_t(v >> (24 - 8 * k));
    };
    put_be32(16, 16384); // IHDR width, height
    put_be32(20, 16384);
    put_be32(29, uint32_t(crc32(0, png.data() + 12, 17)));
    write_file_atomic(dir / "huge.png", png);
    BOOST_TEST(png.size() < 100u);
    // Peak RSS of the whole command, measured by its parent.
    auto peak_kb = [](const std::string& args, Run& r) {
        r = test::run(
            "python3 -c 'import resource, subprocess, sys; "
            "p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
            "print(p.stdout + p.stderr); print(\"exit\", p.returncode); "
            "print(\"peak_kb\", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' " +
            std::string(MSHCONV_BINARY) + " " + args);
        const size_t at = r.out.rfind("peak_kb ");
        return at == std::string::npos ? 0 : std::stoul(r.out.substr(at + 8));
    };
    Run r;
    // The budget is relative to what the binary needs anyway (a sanitizer build needs ~80 MB);
    // the allocations refused here are 1-3 GB.
    const size_t limit_kb = peak_kb("--version", r) + 100 * 1024;
    size_t kb = peak_kb("convert " + q(dir / "huge.png") + " " + q(dir / "huge.texm"), r);
    BOOST_TEST(r.out.find("exit 1") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("16384x16384, over the budget") != std::string::npos, r.out);
    BOOST_TEST(kb > 0u);
    BOOST_TEST(kb < limit_kb, kb << " KB");
    BOOST_TEST(!fs::exists(dir / "huge.texm"));
    // Under the budget (8000 x 8000) but not backed by the few bytes of data there are.
    put_be32(16, 8000);
    put_be32(20, 8000);
    put_be32(29, uint32_t(crc32(0, png.data() + 12, 17)));
    write_file_atomic(dir / "huge.png", png);
    kb = peak_kb("convert " + q(dir / "huge.png") + " " + q(dir / "huge.texm"), r);
    BOOST_TEST(r.out.find("exit 1") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("cannot fill 8000x8000 pixels") != std::string::npos, r.out);
    BOOST_TEST(kb < limit_kb, kb << " KB");
    // The pixel budget: a real 64 x 64 PNG over --max-pixels 1000 is refused, under it read.
    write_file_atomic(dir / "small.png", png::encode_rgba(texm::Image(64, 64)));
    r = test::mshconv("convert " + q(dir / "small.png") + " " + q(dir / "small.texm") +
                      " --max-pixels 1000");
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("over the budget of 1000 pixels") != std::string::npos, r.out);
    BOOST_TEST(
        test::mshconv("convert " + q(dir / "small.png") + " " + q(dir / "small.texm")).code == 0);

    // A glTF accessor whose count is 250,000,000 over a small buffer view.
    const fs::path lib = test::corpus_dir() / "static.rlb";
    BOOST_TEST_REQUIRE(test::mshconv("convert " + q(lib.string() + ":" + first_model().name) + " " +
                                     q(dir / "m.gltf") + " --quiet")
                           .code == 0);
    fs::remove(dir / "m.sidecar.json"); // a new-model import reads every accessor
    const Bytes text = read_file(dir / "m.gltf");
    nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end());
    doc["accessors"][0]["count"] = 250000000;
    std::string t = doc.dump();
    write_file_atomic(dir / "m.gltf", Bytes(t.begin(), t.end()));
    kb = peak_kb("convert " + q(dir / "m.gltf") + " " + q(dir / "out.msh"), r);
    BOOST_TEST(r.out.find("exit 1") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("at /accessors/0") != std::string::npos, r.out);
    BOOST_TEST(kb < limit_kb, kb << " KB");
    // A NaN or an infinity in a float accessor: one error naming the accessor and element.
    doc = nlohmann::json::parse(text.begin(), text.end());
    const nlohmann::json& acc = doc["accessors"][0];
    const nlohmann::json& view = doc["bufferViews"][acc["bufferView"].get<size_t>()];
    BOOST_TEST_REQUIRE(acc["type"] == "VEC3");
    const Bytes original_bin = read_file(dir / "m.bin");
    const size_t at = view.value("byteOffset", size_t(0)) + acc.value("byteOffset", size_t(0));
    const size_t stride = view.value("byteStride", size_t(12));
    write_file_atomic(dir / "m.gltf", text);
    auto refused = [&](size_t element, size_t component, float value) {
        Bytes bin = original_bin;
        std::memcpy(bin.data() + at + element * stride + 4 * component, &value, 4);
        write_file_atomic(dir / "m.bin", bin);
        r = test::mshconv("convert " + q(dir / "m.gltf") + " " + q(dir / "out.msh"));
        BOOST_TEST(r.code == 1, r.out);
        BOOST_TEST(r.out.find("at /accessors/0: accessor 0 element " + std::to_string(element) +
                              " holds NaN or infinity") != std::string::npos,
                   r.out);
        BOOST_TEST(!fs::exists(dir / "out.msh"));
    };
    refused(0, 0, std::numeric_limits<float>::quiet_NaN());
    refused(2, 1, std::numeric_limits<float>::infinity()); // further in: named by its element too
    // OBJ: a non-finite number is refused at its line; huge finite positions import.
    const std::string obj = "v 0 0 0\nv 1 0 0\nv nan 1 0\nf 1 2 3\n";
    write_file_atomic(dir / "nan.obj", Bytes(obj.begin(), obj.end()));
    r = test::mshconv("convert " + q(dir / "nan.obj") + " " + q(dir / "nan.msh"));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("line 3: 'nan' is not finite") != std::string::npos, r.out);
    const std::string big = "v 3e38 0 0\nv -3e38 1 0\nv 0 3e38 -3e38\nf 1 2 3\n";
    write_file_atomic(dir / "big.obj", Bytes(big.begin(), big.end()));
    r = test::mshconv("convert " + q(dir / "big.obj") + " " + q(dir / "big.msh"));
    BOOST_TEST((r.code == 0 || r.code == 1), r.out); // a clear answer either way, never a crash
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace hardening_tests
