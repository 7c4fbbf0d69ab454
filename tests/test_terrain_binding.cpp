// The binding terrain sidecar (sidecar/terrain_binding.hpp, docs/sidecar.md; part of the
// terrain_import suite): its fields are read, so an edit of a face row, an areal row or a block
// changes exactly that in Land.msh or Land.map and the change report names it; the UVs, weights and
// vertex normals come from the file, so an edit there changes exactly that vertex's record; a
// malformed edit is one error at its JSON pointer and nothing written; and sidecars of the first
// layout (older releases, tests/fixtures/sidecar_v1) still import byte for byte.

#include "sidecar_edits.hpp"
#include "test_paths.hpp"
#include "test_util.hpp"

#include "formats/arealmap.hpp"
#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/terrain.hpp"
#include "mapping/terrain_to_scene.hpp"
#include "samples/terrain_gen.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/payload_hash.hpp"
#include "sidecar/terrain_binding.hpp"
#include "sidecar/terrain_sidecar.hpp"
#include "sidecar/terrain_sidecar_read.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <bit>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace terrain_binding_tests {

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

// Calls `edit(primitive, corner)` for every exported corner of terrain vertex `v`; their count.
size_t edit_corners(scene::Scene& s, uint32_t v,
                    const std::function<void(scene::Primitive&, size_t)>& edit) {
    size_t n = 0;
    for (const scene::Node& node : s.nodes) {
        if (node.name != mapping::kTerrainNode) continue;
        for (scene::Primitive& p : s.meshes.at(size_t(node.mesh)).primitives) {
            const std::vector<float>& id = p.attributes.at("TEXCOORD_3").data;
            for (size_t c = 0; c < id.size() / 2; ++c)
                if (id[2 * c] == float(v)) edit(p, c), ++n;
        }
    }
    return n;
}

// Vertices of distinct usable faces: ones the file holds.
std::vector<uint16_t> held_vertices(const terrain::Terrain& t, size_t n) {
    std::vector<uint16_t> out;
    for (size_t f = 0; f < t.faces.size() && out.size() < n; ++f)
        if (terrain::face_usable(t, f) &&
            std::find(out.begin(), out.end(), t.faces[f].v[0]) == out.end())
            out.push_back(t.faces[f].v[0]);
    return out;
}

size_t errors_in(const std::string& out) {
    size_t n = 0;
    for (size_t at = out.find("error:"); at != std::string::npos; at = out.find("error:", at + 1))
        ++n;
    return n;
}

// Moves polygon vertex (a, k) to game (x, y) in both overlay objects of `s` (glTF x = game x,
// glTF z = -game y; the lift is along glTF y); returns how many copies moved.
size_t move_polygon_vertex(scene::Scene& s, uint32_t a, uint32_t k, float x, float y) {
    size_t n = 0;
    for (const scene::Node& node : s.nodes) {
        if (node.name != mapping::kArealAreasNode && node.name != mapping::kArealOutlinesNode)
            continue;
        for (scene::Primitive& p : s.meshes.at(size_t(node.mesh)).primitives) {
            std::vector<float>& pos = p.attributes.at("POSITION").data;
            const std::vector<float>& id = p.attributes.at("TEXCOORD_0").data;
            for (size_t v = 0; v < id.size() / 2; ++v)
                if (id[2 * v] == float(a) && id[2 * v + 1] == float(k)) {
                    pos[3 * v] = x;
                    pos[3 * v + 2] = -y;
                    ++n;
                }
        }
    }
    return n;
}

// Whether /map/vertices carries polygon vertex (a, k) of `map` (areals in order, V each).
bool carries_polygon_vertex(const json& doc, const arealmap::ArealMap& map, uint32_t a,
                            uint32_t k) {
    uint32_t flat = k;
    for (uint32_t i = 0; i < a; ++i) flat += uint32_t(map.areals[i].vertices.size());
    for (const json& r : doc["map"]["vertices"]["carried"])
        if (flat >= r[0].get<uint32_t>() && flat < r[0].get<uint32_t>() + r[1].get<uint32_t>())
            return true;
    return false;
}

// Land.map after polygon vertex (a, k) of `orig` moved to game (x, y): the import's rules for that
// areal (area, normal, anchor) and the grid by the §9 rule.
Bytes map_with_vertex_moved(const arealmap::ArealMap& orig, uint32_t a, uint32_t k, float x,
                            float y) {
    arealmap::ArealMap want = orig;
    want.areals[a].vertices[k].x = x;
    want.areals[a].vertices[k].y = y;
    arealmap::apply_polygon_rules(want.areals[a]);
    want.grid = arealmap::rebuild_grid(want.areals, orig.grid.cells_x, orig.grid.cells_y);
    return arealmap::write(want);
}
// The export's GLB `g.glb` in DIR read as a scene, outlines included.
scene::Scene read_export(const fs::path& dir) {
    gltf::ReadOptions options;
    options.lines = true;
    DiagnosticSink warnings(ReadMode::Tolerant);
    return gltf::read(dir / "g.glb", warnings, options);
}

// `s` written by the glTF writer into DIR/NAME/e.glb beside a copy of the export's sidecar, and
// imported into DIR/NAME/back with a report in DIR/NAME/r.json.
test::Run import_rewritten(const fs::path& dir, const scene::Scene& s, const std::string& name) {
    fs::create_directories(dir / name);
    gltf::write(s, dir / name / "e.glb");
    fs::copy_file(dir / "g.sidecar.json", dir / name / "e.sidecar.json");
    return test::mshconv("convert " + q(dir / name / "e.glb") + " " +
                         q(dir / name / "back" / "Land.msh") + " --report " +
                         q(dir / name / "r.json"));
}
// Each kept export in KEPT (FILE beside its STEM.sidecar.json) imported into DIR, with and
// without --full-read, as unchanged; `check_sidecar(sidecar)` asserts the kept layout and
// `check_back(sidecar, land_msh, label)` what came back (Land.map beside land_msh).
template <class CheckSidecar, class CheckBack>
void import_kept_exports(const fs::path& kept, const fs::path& dir,
                         std::initializer_list<const char*> files, CheckSidecar check_sidecar,
                         CheckBack check_back) {
    for (const char* file : files) {
        const json sc = read_json(kept / (fs::path(file).stem().string() + ".sidecar.json"));
        check_sidecar(sc);
        for (const char* read : {"", " --full-read"}) {
            const fs::path out = dir / (std::string(file) + (*read ? ".full" : "")) / "Land.msh";
            const test::Run r = test::mshconv("convert " + q(kept / file) + " " + q(out) + read);
            BOOST_TEST_REQUIRE(r.code == 0, file << ": " << r.out);
            BOOST_TEST(r.out.find("unchanged, original bytes kept") != std::string::npos, r.out);
            check_back(sc, out, std::string(file) + read);
        }
    }
}

// Both files back as the sizes and hashes the binding sidecar records.
void back_as_recorded(const json& sc, const fs::path& land_msh, const std::string& label) {
    const Bytes map = read_file(land_msh.parent_path() / "Land.map");
    BOOST_TEST(map.size() == sc["map_source"]["size"].get<size_t>(), label);
    BOOST_TEST(sidecar::hex64(sidecar::payload_hash(map)) ==
                   sc["map_source"]["xxh3_64"].get<std::string>(),
               label);
    BOOST_TEST(sidecar::hex64(sidecar::payload_hash(read_file(land_msh))) ==
                   sc["source"]["xxh3_64"].get<std::string>(),
               label);
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

BOOST_AUTO_TEST_CASE(areal_row_edits_change_exactly_those_bytes_of_land_map) {
    const fs::path dir = fresh("areal-edit");
    const fs::path land = small_level(dir / "in");
    const Bytes msh = read_file(land), map = read_file(land.parent_path() / "Land.map");
    const arealmap::ArealMap before = arealmap::read(map, ReadMode::Strict, "before");
    BOOST_TEST_REQUIRE(before.areals.size() > 5u);
    // Areal 0's first edge with a neighbour, and that neighbour's link back.
    size_t edge = 0;
    while (edge < before.areals[0].vertices.size() && before.areals[0].links[edge].none()) ++edge;
    BOOST_TEST_REQUIRE(edge < before.areals[0].vertices.size());
    const arealmap::EdgeLink link = before.areals[0].links[edge];
    for (const char* ext : {".glb", ".obj"}) {
        BOOST_TEST_CONTEXT(ext) {
            const std::string stem = ext[1] == 'g' ? "g" : "o";
            const fs::path out = dir / (stem + ext);
            test::Run r = test::mshconv("convert " + q(land) + " " + q(out));
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            const fs::path sc = dir / (stem + ".sidecar.json");
            json doc = read_json(sc);
            BOOST_TEST_REQUIRE(doc["map"]["areals"]["rows"].size() == before.areals.size());
            BOOST_TEST(doc["map_blocks"] == json::array()); // the payload is rows, not a block
            BOOST_TEST(doc["map"]["grid_rule"] == true);
            // class_id of areal 2, logic_flag of areal 5, area of areal 1 as NaN bits and of
            // areal 4 as the largest f32, the anchor z of areal 3 as -0; areal 0 loses its
            // neighbour on `edge`, mutually.
            json& rows = doc["map"]["areals"]["rows"];
            rows[2][10] = 7;
            rows[5][8] = 0;
            rows[1][4] = "bits:7fc00001";
            rows[3][2] = -0.0;
            rows[4][4] = 3.4028235e38; // FLT_MAX as the export writes it
            json& links = doc["map"]["links"]["rows"];
            links[0][2 * edge] = links[0][2 * edge + 1] = -1;
            links[size_t(link.area_ref)][2 * size_t(link.edge_ref)] = -1;
            links[size_t(link.area_ref)][2 * size_t(link.edge_ref) + 1] = -1;
            write_json(sc, doc);
            const fs::path back = dir / (std::string("back") + ext) / "Land.msh";
            r = test::mshconv("convert " + q(out) + " " + q(back) + " --report " +
                              q(dir / "r.json"));
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            BOOST_TEST(r.out.find("sidecar field edited: /map/areals/rows/2") != std::string::npos,
                       r.out);
            arealmap::ArealMap want = before;
            want.areals[2].class_id = 7;
            want.areals[5].logic_flag = 0;
            const uint32_t nan_bits = 0x7fc00001;
            std::memcpy(&want.areals[1].area, &nan_bits, 4);
            want.areals[3].anchor.z = -0.0f;
            want.areals[4].area = std::numeric_limits<float>::max();
            want.areals[0].links[edge] = {};
            want.areals[size_t(link.area_ref)].links[size_t(link.edge_ref)] = {};
            const Bytes got = read_file(back.parent_path() / "Land.map");
            BOOST_TEST((got == arealmap::write(want)));
            // Exactly those bytes: 4 of each edited field (the anchor's sign bit, one byte), 16
            // of the two links; the rest is the original.
            BOOST_TEST_REQUIRE(got.size() == map.size());
            size_t differing = 0;
            for (size_t i = 0; i < map.size(); ++i) differing += got[i] != map[i];
            BOOST_TEST(differing <= 4u + 4u + 4u + 1u + 4u + 16u);
            BOOST_TEST((read_file(back) == msh));
            const json report = read_json(dir / "r.json");
            const std::string partner = "/map/links/rows/" + std::to_string(link.area_ref);
            json edits = {"/map/areals/rows/1", "/map/areals/rows/2", "/map/areals/rows/3",
                          "/map/areals/rows/4", "/map/areals/rows/5", "/map/links/rows/0"};
            edits.push_back(partner);
            BOOST_TEST(report["sidecar_edits"] == edits, report["sidecar_edits"].dump());
            BOOST_TEST(report["summary"]["land_map_identical"] == false);
            BOOST_TEST(report["summary"]["land_msh_identical"] == true);
        }
    }
}

// A Land.map payload that the rows would not give back (here: one byte past the grid, which the
// reader's view leaves out) stays one block.
BOOST_AUTO_TEST_CASE(a_map_the_rows_would_not_give_back_stays_a_block) {
    const fs::path dir = fresh("map-odd");
    const fs::path land = small_level(dir / "in");
    const Bytes msh = read_file(land), map = read_file(land.parent_path() / "Land.map");
    const terrain::Terrain t = terrain::read(msh, ReadMode::Strict, "t");
    arealmap::ArealMap m = arealmap::read(map, ReadMode::Strict, "m");
    const auto plain = sidecar::bind_terrain(t, msh, &m, map, 0.5f, true, false, false);
    BOOST_TEST_REQUIRE(plain.has_value());
    BOOST_TEST(plain->areal_rows.has_value());
    BOOST_TEST((sidecar::rebuild_land_map(*plain) == map));

    Bytes payload(m.container.entries[0].data.begin(), m.container.entries[0].data.end());
    payload.push_back(0);
    m.container.entries[0].data = payload;
    const Bytes odd = nres::write(m.container);
    const auto bound = sidecar::bind_terrain(t, msh, &m, odd, 0.5f, true, false, false);
    BOOST_TEST_REQUIRE(bound.has_value());
    BOOST_TEST(!bound->areal_rows.has_value());
    BOOST_TEST((bound->land_map->content[0] == sidecar::TerrainContent::Block));
    BOOST_TEST((sidecar::rebuild_land_map(*bound) == odd));
    BOOST_TEST(bound->checks.count("map_blocks") == 1u);
    BOOST_TEST(bound->checks.count("map_areals") == 0u);
}

// Sub-blocks (B > 0, with their 3B extra links) and a grid off the §9 rule: the rows carry them as
// blocks, and the text gives back the payload.
BOOST_AUTO_TEST_CASE(sub_blocks_and_a_grid_off_the_rule_come_back_through_the_text) {
    const fs::path dir = fresh("map-sub-blocks");
    const fs::path land = small_level(dir / "in");
    const Bytes msh = read_file(land), map = read_file(land.parent_path() / "Land.map");
    arealmap::ArealMap m = arealmap::read(map, ReadMode::Strict, "m");
    arealmap::Areal& a = m.areals[1];
    a.sub_blocks.push_back({Bytes(24, 0x11)});
    a.links.insert(a.links.end(), 3, arealmap::EdgeLink{});
    for (std::vector<uint16_t>& cell : m.grid.cells)
        if (!cell.empty()) {
            cell.pop_back(); // an areal the rule lists there
            break;
        }
    const Bytes odd = arealmap::write(m);
    DiagnosticSink sink(ReadMode::Tolerant);
    const arealmap::ArealMap read_back = arealmap::read(odd, sink, "odd");
    BOOST_TEST_REQUIRE(read_back.decoded);
    const terrain::Terrain t = terrain::read(msh, ReadMode::Strict, "t");
    auto bound = sidecar::bind_terrain(t, msh, &read_back, odd, 0.5f, true, false, false);
    BOOST_TEST_REQUIRE(bound.has_value());
    BOOST_TEST_REQUIRE(bound->areal_rows.has_value());
    BOOST_TEST(!bound->areal_rows->grid_rule);
    sidecar::TerrainSidecar sc;
    sc.record.source = "Land.msh";
    sc.record.map_source = "Land.map";
    sc.record.output = "x.glb";
    sc.record.format = "glb";
    sc.binding = std::make_shared<const sidecar::TerrainBinding>(std::move(*bound));
    const std::string text = sidecar::terrain_sidecar_text(sc);
    const json doc = json::parse(text);
    BOOST_TEST(doc["map"]["grid_rule"] == false);
    BOOST_TEST(doc["map"]["sub_blocks"]["size"] == 28);
    BOOST_TEST(doc["map"]["areals"]["rows"][1][13] == 1);
    BOOST_TEST(doc["map"]["links"]["rows"][1].size() == 2 * (a.vertices.size() + 3));
    const sidecar::TerrainSidecar back = test::read_terrain_doc(doc, "back");
    BOOST_TEST_REQUIRE(back.binding != nullptr);
    // The polygon vertices are the file's: given here as the import finds them.
    BOOST_TEST_REQUIRE(back.binding->areal_rows->file_vertices.has_value());
    sidecar::ArealRows rows = *back.binding->areal_rows;
    for (size_t i = 0; i < rows.areals.size(); ++i)
        rows.areals[i].vertices = read_back.areals[i].vertices;
    BOOST_TEST((sidecar::rebuild_land_map(*back.binding, rows) == odd));
}

// Binding sidecars whose Land.map payload is one block (`map_blocks`; tests/fixtures/
// sidecar_map_block: a small level's GLB and OBJ) import byte for byte.
BOOST_AUTO_TEST_CASE(binding_sidecars_with_the_map_as_a_block_still_import_byte_for_byte) {
    const fs::path kept = fs::path(MSHCONV_SOURCE_DIR) / "tests" / "fixtures" / "sidecar_map_block";
    import_kept_exports(
        kept, fresh("map-block"), {"small.glb", "small_obj.obj"},
        [](const json& sc) {
            BOOST_TEST(sc["schema"] == "mshconv-sidecar/2");
            BOOST_TEST(!sc.contains("map"));
            BOOST_TEST(sc["map_blocks"].size() == 1u);
        },
        back_as_recorded);
}

// Binding sidecars whose areal rows hold every polygon vertex in one `/map/vertices` block
// (tests/fixtures/sidecar_map_vertices_block: a small level's GLB and OBJ) import byte for byte.
BOOST_AUTO_TEST_CASE(
    binding_sidecars_with_the_polygon_vertices_as_a_block_still_import_byte_for_byte) {
    const fs::path kept =
        fs::path(MSHCONV_SOURCE_DIR) / "tests" / "fixtures" / "sidecar_map_vertices_block";
    import_kept_exports(
        kept, fresh("map-vertices-block"), {"small.glb", "small_obj.obj"},
        [](const json& sc) {
            BOOST_TEST(sc["schema"] == "mshconv-sidecar/2");
            BOOST_TEST(sc["map"]["vertices"].contains("base64"));
            BOOST_TEST(!sc["map"]["vertices"].contains("fingerprints"));
        },
        back_as_recorded);
}

BOOST_AUTO_TEST_CASE(uv_weight_and_normal_edits_in_a_glb_change_exactly_those_records) {
    const fs::path dir = fresh("file-values");
    const fs::path land = small_level(dir / "in");
    const Bytes msh = read_file(land), map = read_file(land.parent_path() / "Land.map");
    const terrain::Terrain before = terrain::read(msh, ReadMode::Strict, "before");
    BOOST_TEST_REQUIRE(before.weights.size() == before.positions.size());
    test::Run r = test::mshconv("convert " + q(land) + " " + q(dir / "g.glb"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const json doc = read_json(dir / "g.sidecar.json");
    for (const char* stream : {"layer1_uvs", "layer2_uvs", "weights"})
        BOOST_TEST(doc["vertices"].contains(stream), stream);
    for (const json& b : doc["blocks"]) // left to the file, not carried as blocks
        for (uint32_t type : {terrain::kUv1, terrain::kUv2, terrain::kWeights})
            BOOST_TEST(b["type"] != type);

    const scene::Scene exported = read_export(dir);

    // Unedited, written again by another writer: the full comparison gives the original bytes.
    r = import_rewritten(dir, exported, "unedited");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(dir / "unedited" / "back" / "Land.msh") == msh));
    BOOST_TEST((read_file(dir / "unedited" / "back" / "Land.map") == map));

    // Through Blender's V flip (1 - v on import and again on export, in f32) of every UV set:
    // the weights it moves (below 0.5) are the ones the sidecar carries.
    scene::Scene flipped = exported;
    for (const scene::Node& n : flipped.nodes)
        if (n.name == mapping::kTerrainNode)
            for (scene::Primitive& p : flipped.meshes.at(size_t(n.mesh)).primitives)
                for (const char* set : {"TEXCOORD_0", "TEXCOORD_1", "TEXCOORD_2", "TEXCOORD_3"}) {
                    std::vector<float>& uv = p.attributes.at(set).data;
                    for (size_t c = 1; c < uv.size(); c += 2) {
                        const volatile float once = 1.0f - uv[c]; // stored as a float in between
                        uv[c] = 1.0f - once;
                    }
                }
    r = import_rewritten(dir, flipped, "flipped");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(dir / "flipped" / "back" / "Land.msh") == msh));

    // One vertex's layer-1 U, another's layer-2 V, a third's weight, a fourth's normal.
    const std::vector<uint16_t> v = held_vertices(before, 4);
    BOOST_TEST_REQUIRE(v.size() == 4u);
    scene::Scene s = exported;
    BOOST_TEST(edit_corners(s, v[0], [](scene::Primitive& p, size_t c) {
                   p.attributes.at("TEXCOORD_0").data[2 * c] += 0.25f;
               }) > 0u);
    BOOST_TEST(edit_corners(s, v[1], [](scene::Primitive& p, size_t c) {
                   p.attributes.at("TEXCOORD_1").data[2 * c + 1] -= 0.5f;
               }) > 0u);
    BOOST_TEST(edit_corners(s, v[2], [](scene::Primitive& p, size_t c) {
                   p.attributes.at("TEXCOORD_3").data[2 * c + 1] = 0.375f;
               }) > 0u);
    BOOST_TEST(edit_corners(s, v[3], [](scene::Primitive& p, size_t c) {
                   float* n = &p.attributes.at("NORMAL").data[3 * c];
                   n[0] = 0.6f, n[1] = 0.8f, n[2] = 0; // glTF (x, y, z) = game (x, z, -y)
               }) > 0u);
    r = import_rewritten(dir, s, "edited");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    terrain::Terrain want = before;
    want.uv1[v[0]][0] = int16_t(want.uv1[v[0]][0] + 256);
    want.uv2[v[1]][1] = int16_t(want.uv2[v[1]][1] - 512);
    want.weights[v[2]] = terrain::weight_raw(0.375f);
    want.normals[v[3]] = {msh::encode_normal_component(0.6f), 0, msh::encode_normal_component(0.8f),
                          before.normals[v[3]][3]};
    BOOST_TEST((read_file(dir / "edited" / "back" / "Land.msh") == terrain::write(want)));
    BOOST_TEST((read_file(dir / "edited" / "back" / "Land.map") == map));
    const json report = read_json(dir / "edited" / "r.json");
    BOOST_TEST(report["layer1_uv_vertices"] == json({v[0]}));
    BOOST_TEST(report["layer2_uv_vertices"] == json({v[1]}));
    BOOST_TEST(report["weight_vertices"] == json({v[2]}));
    BOOST_TEST(report["normal_vertices"] == json({v[3]}));
    BOOST_TEST(report["moved_vertices"] == json::array());
    BOOST_TEST(r.out.find("layer-1 UVs 1, layer-2 UVs 1, weights 1, vertex normals 1") !=
                   std::string::npos,
               r.out);

    // Two corners of one vertex given two different UVs: which one is meant is unknown.
    size_t corner = 0;
    scene::Scene conflict = exported;
    const size_t corners = edit_corners(conflict, v[0], [&](scene::Primitive& p, size_t c) {
        p.attributes.at("TEXCOORD_0").data[2 * c] += float(++corner);
    });
    if (corners > 1) {
        r = import_rewritten(dir, conflict, "conflict");
        BOOST_TEST(r.code == 1, r.out);
        BOOST_TEST(r.out.find("vertex " + std::to_string(v[0]) + ": its layer-1 UV") !=
                       std::string::npos,
                   r.out);
        BOOST_TEST(!fs::exists(dir / "conflict" / "back" / "Land.msh"));
    }
}

BOOST_AUTO_TEST_CASE(uv_edit_in_an_obj_changes_exactly_that_record) {
    const fs::path dir = fresh("obj-uv");
    const fs::path land = small_level(dir / "in");
    const Bytes msh = read_file(land), map = read_file(land.parent_path() / "Land.map");
    const terrain::Terrain before = terrain::read(msh, ReadMode::Strict, "before");
    test::Run r = test::mshconv("convert " + q(land) + " " + q(dir / "o.obj"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const json doc = read_json(dir / "o.sidecar.json");
    BOOST_TEST(doc["vertices"].contains("layer1_uvs"));
    BOOST_TEST(!doc["vertices"].contains("weights")); // an OBJ has no place for them: a block

    // The export's corner order (terrain_to_scene.hpp): usable faces by material, file order.
    const uint16_t target = held_vertices(before, 1).at(0);
    std::vector<uint16_t> corner_vertex;
    for (size_t m = 0; m < 256; ++m)
        for (size_t f = 0; f < before.faces.size(); ++f)
            if (before.faces[f].material == m && terrain::face_usable(before, f))
                for (uint16_t x : before.faces[f].v) corner_vertex.push_back(x);
    // Each `vt` line of object Terrain (the k-th is the k-th corner's) of the target: u + 0.25.
    const Bytes text = read_file(dir / "o.obj");
    std::istringstream in(std::string(text.begin(), text.end()));
    std::string line, out, object;
    size_t k = 0, edited = 0;
    while (std::getline(in, line)) {
        if (line.rfind("o ", 0) == 0) object = line.substr(2);
        if (object == mapping::kTerrainNode && line.rfind("vt ", 0) == 0) {
            if (corner_vertex.at(k++) == target) {
                std::istringstream ls(line.substr(3));
                std::string u, w;
                ls >> u >> w;
                float x = 0;
                std::from_chars(u.data(), u.data() + u.size(), x);
                char buf[32];
                line =
                    "vt " + std::string(buf, std::to_chars(buf, buf + 32, x + 0.25f).ptr) + " " + w;
                ++edited;
            }
        }
        out += line + "\n";
    }
    BOOST_TEST_REQUIRE(k == corner_vertex.size());
    BOOST_TEST_REQUIRE(edited > 0u);
    write_file_atomic(dir / "o.obj", Bytes(out.begin(), out.end()));
    r = test::mshconv("convert " + q(dir / "o.obj") + " " + q(dir / "back" / "Land.msh") +
                      " --report " + q(dir / "r.json"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    terrain::Terrain want = before;
    want.uv1[target][0] = int16_t(want.uv1[target][0] + 256);
    BOOST_TEST((read_file(dir / "back" / "Land.msh") == terrain::write(want)));
    BOOST_TEST((read_file(dir / "back" / "Land.map") == map));
    BOOST_TEST(read_json(dir / "r.json")["layer1_uv_vertices"] == json({target}));
}

// Land.map's polygon vertices come from the GLB's overlay: the sidecar holds their fingerprints;
// an unedited file, written again, gives the original bytes; a vertex moved in the overlay changes
// exactly that vertex (and the areal fields and grid its rules derive) and the report names its
// areal.
BOOST_AUTO_TEST_CASE(polygon_vertex_edit_in_a_glb_changes_exactly_that_vertex) {
    const fs::path dir = fresh("polygon-vertices");
    const fs::path land = small_level(dir / "in");
    const Bytes msh = read_file(land), map = read_file(land.parent_path() / "Land.map");
    const arealmap::ArealMap orig = arealmap::read(map, ReadMode::Strict, "orig");
    test::Run r = test::mshconv("convert " + q(land) + " " + q(dir / "g.glb"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const json doc = read_json(dir / "g.sidecar.json");
    const json& vertices = doc["map"]["vertices"];
    BOOST_TEST(!vertices.contains("base64")); // not the vertices themselves
    size_t total = 0;
    for (const arealmap::Areal& a : orig.areals) total += a.vertices.size();
    BOOST_TEST(vertices["count"] == total);
    size_t carried = 0;
    for (const json& range : vertices["carried"]) carried += range[1].get<size_t>();
    BOOST_TEST(vertices["fingerprints"]["size"] == 4 * (total - carried));
    BOOST_TEST(doc["map"]["grid_rule"] == true);

    const scene::Scene exported = read_export(dir);
    r = import_rewritten(dir, exported, "unedited");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(dir / "unedited" / "back" / "Land.msh") == msh));
    BOOST_TEST((read_file(dir / "unedited" / "back" / "Land.map") == map));
    BOOST_TEST(read_json(dir / "unedited" / "r.json")["changed_areals"] == json::array());

    // A vertex whose fingerprint the sidecar holds, moved a fifth of the way to its polygon's mean.
    uint32_t a = 0;
    while (orig.areals[a].vertices.size() < 3 || carries_polygon_vertex(doc, orig, a, 1)) ++a;
    const auto& poly = orig.areals[a].vertices;
    double cx = 0, cy = 0;
    for (const auto& v : poly) cx += v.x, cy += v.y;
    const float x = float(poly[1].x + 0.2 * (cx / double(poly.size()) - poly[1].x));
    const float y = float(poly[1].y + 0.2 * (cy / double(poly.size()) - poly[1].y));
    scene::Scene s = exported;
    BOOST_TEST_REQUIRE(move_polygon_vertex(s, a, 1, x, y) == 2u); // filled polygon and outline
    r = import_rewritten(dir, s, "edited");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(dir / "edited" / "back" / "Land.msh") == msh));
    const Bytes got = read_file(dir / "edited" / "back" / "Land.map");
    BOOST_TEST((got == map_with_vertex_moved(orig, a, 1, x, y)));
    // Exactly that vertex moved: the other vertices' bytes are the original's.
    const arealmap::ArealMap back = arealmap::read(got, ReadMode::Strict, "back");
    BOOST_TEST_REQUIRE(back.areals.size() == orig.areals.size());
    size_t others_moved = 0;
    for (size_t i = 0; i < orig.areals.size(); ++i)
        for (size_t k = 0; k < orig.areals[i].vertices.size(); ++k)
            if ((i != a || k != 1) &&
                !same_bits(back.areals[i].vertices[k], orig.areals[i].vertices[k]))
                ++others_moved;
    BOOST_TEST(others_moved == 0u);
    BOOST_TEST(back.areals[a].vertices[1].z == poly[1].z); // the lift did not leak in
    const json report = read_json(dir / "edited" / "r.json");
    BOOST_TEST(report["changed_areals"] == json({a}));
    BOOST_TEST(!report.contains("sidecar_edits"));

    // Without the overlay the polygon vertices the sidecar leaves to the file are nowhere: refused.
    scene::Scene bare = exported;
    for (scene::Node& node : bare.nodes)
        if (node.name == mapping::kArealAreasNode || node.name == mapping::kArealOutlinesNode)
            node.mesh = scene::kNoIndex;
    r = import_rewritten(dir, bare, "bare");
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("are not in the file's overlay") != std::string::npos, r.out);
    BOOST_TEST(errors_in(r.out) == 1u, r.out);
    BOOST_TEST(!fs::exists(dir / "bare" / "back" / "Land.map"));
}

// A polygon vertex whose height the lift's float rounding does not give back (z + 0.5 rounds
// away its last bit; a z of -0 comes back +0): the sidecar carries it, and it comes back exactly
// through a GLB, written again or not, and an OBJ (lift baked), edited elsewhere or not.
BOOST_AUTO_TEST_CASE(a_polygon_vertex_the_lift_rounds_comes_back_exactly) {
    const fs::path dir = fresh("lift-rounding");
    const fs::path land = small_level(dir / "in");
    const Bytes msh = read_file(land);
    arealmap::ArealMap m =
        arealmap::read(read_file(land.parent_path() / "Land.map"), ReadMode::Strict, "m");
    uint32_t a = 0;
    while (m.areals[a].vertices.size() < 3) ++a;
    const float odd = 0.75f + 0x1p-24f; // z + 0.5 = 1.25 + 2^-24: a tie, rounded to even
    m.areals[a].vertices[0].z = odd;
    m.areals[a].vertices[2].z = -0.0f;
    for (uint32_t k : {0u, 2u}) {
        const Vec3 v = m.areals[a].vertices[k];
        BOOST_TEST_REQUIRE(
            !same_bits(sidecar::unlifted_vertex(sidecar::lifted_world(v, 0.5f), 0.5f), v));
    }
    const Bytes map = arealmap::write(m);
    write_file_atomic(land.parent_path() / "Land.map", map);

    for (const char* out : {"g.glb", "o.obj"}) {
        test::Run r = test::mshconv("convert " + q(land) + " " + q(dir / out));
        BOOST_TEST_REQUIRE(r.code == 0, r.out);
        const json doc = read_json(dir / (fs::path(out).stem().string() + ".sidecar.json"));
        BOOST_TEST(carries_polygon_vertex(doc, m, a, 0), out);
        BOOST_TEST(carries_polygon_vertex(doc, m, a, 2), out);
        for (const char* read : {"", " --full-read"}) {
            const fs::path back =
                dir / ("back-" + std::string(out) + (*read ? "-full" : "")) / "Land.msh";
            r = test::mshconv("convert " + q(dir / out) + " " + q(back) + read);
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            BOOST_TEST((read_file(back) == msh), out << read);
            BOOST_TEST((read_file(back.parent_path() / "Land.map") == map), out << read);
        }
    }

    // Written again by another writer, and with that vertex's x moved: y and z stay exactly.
    scene::Scene s = read_export(dir);
    test::Run r = import_rewritten(dir, s, "rewritten");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST((read_file(dir / "rewritten" / "back" / "Land.map") == map));
    const Vec3 v = m.areals[a].vertices[0];
    const float x = v.x + 0.25f;
    BOOST_TEST_REQUIRE(move_polygon_vertex(s, a, 0, x, v.y) == 2u);
    r = import_rewritten(dir, s, "moved");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const Bytes got = read_file(dir / "moved" / "back" / "Land.map");
    BOOST_TEST((got == map_with_vertex_moved(m, a, 0, x, v.y)));
    const arealmap::ArealMap back = arealmap::read(got, ReadMode::Strict, "back");
    BOOST_TEST(std::bit_cast<uint32_t>(back.areals[a].vertices[0].z) ==
               std::bit_cast<uint32_t>(odd));
    BOOST_TEST(std::signbit(back.areals[a].vertices[2].z));
    BOOST_TEST(read_json(dir / "moved" / "r.json")["changed_areals"] == json({a}));
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
        {"areal class_id a string", "/map/areals/rows/2/10",
         [](json& d) { d["map"]["areals"]["rows"][2][10] = "1"; }},
        {"areal logic_flag negative", "/map/areals/rows/2/8",
         [](json& d) { d["map"]["areals"]["rows"][2][8] = -1; }},
        {"areal area past f32", "/map/areals/rows/1/4",
         [](json& d) { d["map"]["areals"]["rows"][1][4] = 1e300; }},
        {"areal float bits malformed", "/map/areals/rows/1/0",
         [](json& d) { d["map"]["areals"]["rows"][1][0] = "bits:7fc0"; }},
        {"areal row cut short", "/map/areals/rows/4",
         [](json& d) { d["map"]["areals"]["rows"][4].erase(13); }},
        {"areal V past its links", "/map/links/rows/0",
         [](json& d) {
             json& v = d["map"]["areals"]["rows"][0][12];
             v = v.get<uint32_t>() + 1;
         }},
        {"areal rows one short", "/map/areals/rows",
         [](json& d) { d["map"]["areals"]["rows"].erase(0); }},
        {"link past i32", "/map/links/rows/3/1",
         [](json& d) { d["map"]["links"]["rows"][3][1] = 4294967295u; }},
        {"polygon vertex fingerprints hash", "/map/vertices/fingerprints/xxh3_64",
         [](json& d) { d["map"]["vertices"]["fingerprints"]["xxh3_64"] = "0000000000000000"; }},
        {"polygon vertex fingerprints cut", "/map/vertices/fingerprints",
         [](json& d) {
             json& f = d["map"]["vertices"]["fingerprints"];
             Bytes b = sidecar::from_base64(f["base64"].get<std::string>());
             b.resize(b.size() - 4);
             f["base64"] = sidecar::to_base64(b);
             f["size"] = b.size();
             f["xxh3_64"] = sidecar::hex64(sidecar::payload_hash(b));
         }},
        {"polygon vertex fingerprints not base64", "/map/vertices/fingerprints/base64",
         [](json& d) { d["map"]["vertices"]["fingerprints"]["base64"] = "@@@@"; }},
        {"polygon vertex count a string", "/map/vertices/count",
         [](json& d) { d["map"]["vertices"]["count"] = "1"; }},
        {"polygon vertex count off by one", "/map/vertices/count",
         [](json& d) {
             json& n = d["map"]["vertices"]["count"];
             n = n.get<uint32_t>() + 1;
         }},
        {"carried polygon vertices past the count", "/map/vertices/carried/0",
         [](json& d) {
             d["map"]["vertices"]["carried"] = {{0, 1000000}};
         }},
        {"carried polygon vertices a number", "/map/vertices/carried",
         [](json& d) { d["map"]["vertices"]["carried"] = 3; }},
        {"carried polygon positions one short", "/map/vertices/positions",
         [](json& d) {
             json& c = d["map"]["vertices"]["carried"];
             c.push_back({d["map"]["vertices"]["count"].get<uint32_t>() - 1, 1});
         }},
        {"carried polygon positions hash", "/map/vertices/positions/xxh3_64",
         [](json& d) { d["map"]["vertices"]["positions"]["xxh3_64"] = "0000000000000000"; }},
        {"polygon vertices a string", "/map/vertices", [](json& d) { d["map"]["vertices"] = "0"; }},
        {"grid cells zero", "/map/grid_cells/1", [](json& d) { d["map"]["grid_cells"][1] = 0; }},
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
        {"UV fingerprints cut", "/vertices/layer1_uvs/fingerprints",
         [](json& d) {
             json& f = d["vertices"]["layer1_uvs"]["fingerprints"];
             Bytes b = sidecar::from_base64(f["base64"].get<std::string>());
             b.pop_back();
             f["base64"] = sidecar::to_base64(b);
             f["size"] = b.size();
             f["xxh3_64"] = sidecar::hex64(sidecar::payload_hash(b));
         }},
        {"weight records hash", "/vertices/weights/records/xxh3_64",
         [](json& d) { d["vertices"]["weights"]["records"]["xxh3_64"] = "0000000000000000"; }},
        {"layer-2 UV range past the vertices", "/vertices/layer2_uvs/carried/0",
         [](json& d) {
             d["vertices"]["layer2_uvs"]["carried"] = {{0, 1000000}};
         }},
        {"stream member missing", "/vertices/weights",
         [](json& d) { d["vertices"].erase("weights"); }},
        {"stream content of another type", "/container/entries/rows/4/6",
         [](json& d) { // entry 4 is type 5
             d["container"]["entries"]["rows"][4][6] = "weights";
         }},
        {"derived rule", "/derived/header_rule", [](json& d) { d["derived"]["header_rule"] = 1; }},
        {"nothing a check covers edited, another source", "/source/xxh3_64",
         [](json& d) { d["container"]["layout"][0][0] = 1; }},
        // The pairing token covers both files' hashes.
        {"another source's hash", "/export/pair",
         [](json& d) { d["source"]["xxh3_64"] = "0123456789abcdef"; }},
        {"another map source's hash", "/export/pair",
         [](json& d) { d["map_source"]["xxh3_64"] = "0123456789abcdef"; }},
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
    import_kept_exports(
        kept, fresh("first-layout"), {"tiny.glb", "tiny_obj.obj"},
        [](const json& sc) { BOOST_TEST(sc["schema"] == "mshconv-sidecar/1"); },
        [](const json& sc, const fs::path& out, const std::string& label) {
            const Bytes msh = sidecar::from_base64(sc["land_msh"]["base64"].get<std::string>());
            const Bytes map = sidecar::from_base64(sc["land_map"]["base64"].get<std::string>());
            BOOST_TEST((read_file(out) == msh), label);
            BOOST_TEST((read_file(out.parent_path() / "Land.map") == map), label);
        });
}

// Binding sidecars as the first release of that layout wrote them (UVs, weights and Land.map as
// raw blocks; tests/fixtures/sidecar_v2_blocks) beside their exports of the same small level: a
// GLB and an OBJ give the level of the first-layout fixture back, byte for byte.
BOOST_AUTO_TEST_CASE(binding_terrain_sidecars_with_stream_blocks_still_import_byte_for_byte) {
    const fs::path root = fs::path(MSHCONV_SOURCE_DIR) / "tests" / "fixtures";
    const json level = read_json(root / "sidecar_v1" / "tiny.sidecar.json");
    const Bytes msh = sidecar::from_base64(level["land_msh"]["base64"].get<std::string>());
    const Bytes map = sidecar::from_base64(level["land_map"]["base64"].get<std::string>());
    const fs::path kept = root / "sidecar_v2_blocks";
    import_kept_exports(
        kept, fresh("stream-blocks"), {"tiny_v2.glb", "tiny_v2_obj.obj"},
        [](const json& sc) {
            BOOST_TEST(sc["schema"] == "mshconv-sidecar/2");
            BOOST_TEST(sc.contains("map_blocks"));
        },
        [&](const json&, const fs::path& out, const std::string& label) {
            BOOST_TEST((read_file(out) == msh), label);
            BOOST_TEST((read_file(out.parent_path() / "Land.map") == map), label);
        });
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace terrain_binding_tests
