// The binding terrain sidecar (sidecar/terrain_binding.hpp, docs/sidecar.md; part of the
// terrain_import suite): its fields are read, so an edit of a face row or a block changes exactly
// that in Land.msh and the change report names it; a malformed edit is one error at its JSON
// pointer and nothing written; and sidecars of the first layout (older releases,
// tests/fixtures/sidecar_v1) still import byte for byte.

#include "sidecar_edits.hpp"
#include "test_paths.hpp"
#include "test_util.hpp"

#include "formats/arealmap.hpp"
#include "formats/file_io.hpp"
#include "formats/terrain.hpp"
#include "samples/terrain_gen.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/payload_hash.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

using namespace msh;
namespace fs = std::filesystem;
using nlohmann::json;
using test::q;

using test::edit_block;
using test::read_json;
using test::write_json;

namespace {

fs::path fresh(const std::string& name) {
    const fs::path dir = test::scratch("terrain-binding/" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// A small level (a few hundred faces), written below `dir`; returns its Land.msh.
fs::path small_level(const fs::path& dir) {
    samples::MapSpec s;
    s.name = "Small";
    s.side = 240;
    s.vertices = 120;
    s.faces = 140;
    s.areals = 10;
    s.slots_x = s.slots_y = 2;
    s.z_max = 20;
    for (const auto& f : samples::generate_map(s, 1998)) {
        const fs::path p = dir / f.relative_path;
        fs::create_directories(p.parent_path());
        write_file_atomic(p, f.bytes);
    }
    return dir / "DATA" / "MAPS" / "Small" / "Land.msh";
}

// The index in /blocks of the block of type `type`.
size_t block_of(const json& doc, uint32_t type) {
    for (size_t i = 0; i < doc["blocks"].size(); ++i)
        if (doc["blocks"][i]["type"] == type) return i;
    BOOST_FAIL("no block of type " << type);
    return 0;
}

size_t errors_in(const std::string& out) {
    size_t n = 0;
    for (size_t at = out.find("error:"); at != std::string::npos; at = out.find("error:", at + 1))
        ++n;
    return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(terrain_import)

BOOST_AUTO_TEST_CASE(binding_edit_of_a_face_row_and_a_block_changes_exactly_that) {
    const fs::path dir = fresh("edit");
    const fs::path land = small_level(dir / "in");
    const Bytes msh = read_file(land), map = read_file(land.parent_path() / "Land.map");
    const terrain::Terrain before = terrain::read(msh, ReadMode::Strict, "before");
    BOOST_TEST_REQUIRE(before.faces.size() > 3u);
    BOOST_TEST_REQUIRE(before.cell_pairs.size() > 2u);
    for (const char* ext : {".glb", ".obj"}) {
        BOOST_TEST_CONTEXT(ext) {
            const std::string stem = ext[1] == 'g' ? "g" : "o"; // a sidecar each
            const fs::path out = dir / (stem + ext);
            test::Run r = test::mshconv("convert " + q(land) + " " + q(out));
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            const fs::path sc = dir / (stem + ".sidecar.json");
            json doc = read_json(sc);
            BOOST_TEST_REQUIRE(doc["schema"] == "mshconv-sidecar/2");
            // Face 3's flags, and the low byte of cell pair 2's flags (type 11, {u16 key, u16
            // flags}).
            json& row = doc["faces"]["rows"][3];
            const uint32_t flags = row[0].get<uint32_t>() ^ 0x00010000u;
            row[0] = flags;
            const size_t k = block_of(doc, terrain::kCellPairs);
            edit_block(doc["blocks"][k], 2 * 4 + 2, 0x5A);
            write_json(sc, doc);
            const fs::path back = dir / (std::string("back") + ext) / "Land.msh";
            r = test::mshconv("convert " + q(out) + " " + q(back) + " --report " +
                              q(dir / "r.json"));
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            BOOST_TEST(r.out.find("sidecar field edited: /faces/rows/3") != std::string::npos,
                       r.out);
            const terrain::Terrain after =
                terrain::read(read_file(back), ReadMode::Strict, "after");
            terrain::Terrain want = before;
            want.faces[3].flags = flags;
            want.cell_pairs[2].flags = uint16_t((want.cell_pairs[2].flags & 0xFF00) | 0x5A);
            terrain::sync_container(want);
            BOOST_TEST((read_file(back) == terrain::write(want)));
            BOOST_TEST(after.faces[3].flags == flags);
            BOOST_TEST((read_file(back.parent_path() / "Land.map") == map));
            if (stem == "o") {
                // A glTF export's sidecar leaves the indices to its file: not one for an OBJ.
                r = test::mshconv("convert " + q(out) + " " + q(dir / "x" / "Land.msh") +
                                  " --sidecar " + q(dir / "g.sidecar.json"));
                BOOST_TEST(r.code == 1, r.out);
                BOOST_TEST(r.out.find("g.sidecar.json: at /faces/columns: ") != std::string::npos,
                           r.out);
                BOOST_TEST(!fs::exists(dir / "x" / "Land.msh"));
            }
            const json report = read_json(dir / "r.json");
            BOOST_TEST(report["sidecar_edits"] ==
                       json({"/blocks/" + std::to_string(k), "/faces/rows/3"}));
            BOOST_TEST(report["summary"]["land_msh_identical"] == false);
        }
    }
}

BOOST_AUTO_TEST_CASE(binding_malformed_edits_are_one_error_at_their_pointer) {
    const fs::path dir = fresh("malformed");
    const fs::path land = small_level(dir / "in");
    test::Run r = test::mshconv("convert " + q(land) + " " + q(dir / "l.glb"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const json original = read_json(dir / "l.sidecar.json");
    struct Case {
        const char* what;
        std::string pointer;
        std::function<void(json&)> edit;
    };
    const std::vector<Case> cases = {
        {"wrong type", "/faces/rows/3/0", [](json& d) { d["faces"]["rows"][3][0] = "0x608"; }},
        {"out of range", "/faces/rows/3/2", [](json& d) { d["faces"]["rows"][3][2] = 256; }},
        {"negative neighbour", "/faces/rows/3/4", [](json& d) { d["faces"]["rows"][3][4] = -1; }},
        {"row cut short", "/faces/rows/3",
         [](json& d) { d["faces"]["rows"][3].erase(d["faces"]["rows"][3].size() - 1); }},
        {"faces with 14 columns", "/faces/columns",
         [](json& d) { d["faces"]["columns"].erase(0); }},
        {"block edited without its hash", "/blocks/0/xxh3_64",
         [](json& d) {
             Bytes b = sidecar::from_base64(d["blocks"][0]["base64"].get<std::string>());
             b[0] ^= 1;
             d["blocks"][0]["base64"] = sidecar::to_base64(b);
         }},
        {"block size", "/blocks/0/size", [](json& d) { d["blocks"][0]["size"] = 1; }},
        {"map block hash", "/map_blocks/0/xxh3_64",
         [](json& d) { d["map_blocks"][0]["xxh3_64"] = "0000000000000000"; }},
        {"unknown content", "/container/entries/rows/0/6",
         [](json& d) { d["container"]["entries"]["rows"][0][6] = "nodes"; }},
        {"fingerprints cut", "/vertices/position_fingerprints",
         [](json& d) {
             json& f = d["vertices"]["position_fingerprints"];
             Bytes b = sidecar::from_base64(f["base64"].get<std::string>());
             b.resize(b.size() - 4);
             f["base64"] = sidecar::to_base64(b);
             f["size"] = b.size();
             f["xxh3_64"] = sidecar::hex64(sidecar::payload_hash(b));
         }},
        {"derived rule", "/derived/header_rule", [](json& d) { d["derived"]["header_rule"] = 1; }},
        {"nothing edited, another source", "/source/xxh3_64",
         [](json& d) { d["source"]["xxh3_64"] = "0123456789abcdef"; }},
    };
    for (const Case& c : cases) {
        json doc = original;
        c.edit(doc);
        write_json(dir / "l.sidecar.json", doc);
        const fs::path back = dir / "back" / "Land.msh";
        r = test::mshconv("convert " + q(dir / "l.glb") + " " + q(back));
        BOOST_TEST(r.code == 1, c.what);
        BOOST_TEST(r.out.find("l.sidecar.json: at " + c.pointer + ": ") != std::string::npos,
                   c.what << ": " << r.out);
        BOOST_TEST(errors_in(r.out) == 1u, c.what << ": " << r.out);
        BOOST_TEST(!fs::exists(back), c.what);
        BOOST_TEST(!fs::exists(back.parent_path() / "Land.map"), c.what);
    }
}

// Sidecars an older release wrote (both files whole, `mshconv-sidecar/1`) beside their exports:
// a small level's GLB and OBJ.
BOOST_AUTO_TEST_CASE(first_layout_terrain_sidecars_still_import_byte_for_byte) {
    const fs::path kept = fs::path(MSHCONV_SOURCE_DIR) / "tests" / "fixtures" / "sidecar_v1";
    const fs::path dir = fresh("first-layout");
    for (const char* file : {"tiny.glb", "tiny_obj.obj"}) {
        const json sc = read_json(kept / (fs::path(file).stem().string() + ".sidecar.json"));
        BOOST_TEST(sc["schema"] == "mshconv-sidecar/1");
        const Bytes msh = sidecar::from_base64(sc["land_msh"]["base64"].get<std::string>());
        const Bytes map = sidecar::from_base64(sc["land_map"]["base64"].get<std::string>());
        for (const char* read : {"", " --full-read"}) {
            const fs::path out = dir / (std::string(file) + (*read ? ".full" : "")) / "Land.msh";
            const test::Run r = test::mshconv("convert " + q(kept / file) + " " + q(out) + read);
            BOOST_TEST_REQUIRE(r.code == 0, file << ": " << r.out);
            BOOST_TEST(r.out.find("unchanged, original bytes kept") != std::string::npos, r.out);
            BOOST_TEST((read_file(out) == msh), file << read);
            BOOST_TEST((read_file(out.parent_path() / "Land.map") == map), file << read);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
