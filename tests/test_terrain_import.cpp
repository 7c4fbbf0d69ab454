// Terrain import (conversion/import_terrain + mapping/scene_to_terrain): every generated map is
// exported with the real CLI to .glb, .gltf and .obj and imported back (byte-identical Land.msh
// and Land.map); an edited height and an edited areal polygon are rebuilt by the documented
// rules; the CLI round trip writes both files.
#include "formats/arealmap.hpp"
#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/terrain.hpp"
#include "mapping/scene_to_terrain.hpp"
#include "mapping/terrain_to_scene.hpp"
#include "samples/terrain_gen.hpp"
#include "sidecar/terrain_sidecar_read.hpp"
#include "sidecar_edits.hpp"
#include "terrain_fixtures.hpp"
#include "test_util.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace terrain_import_tests {

using namespace msh;
namespace fs = std::filesystem;

using test::q;
using test::Run;
using test::scratch;
namespace tt = boost::test_tools;

namespace {

// Every link of areal i points at an edge that points back.
void check_links_mutual(const arealmap::ArealMap& map, size_t i) {
    for (size_t k = 0; k < map.areals[i].vertices.size(); ++k) {
        const auto& l = map.areals[i].links[k];
        if (l.none()) continue;
        const auto& back = map.areals[size_t(l.area_ref)].links[size_t(l.edge_ref)];
        BOOST_TEST((back.area_ref == int32_t(i) && back.edge_ref == int32_t(k)));
    }
}

// Exit code of a shell command; its output into `out` when given.
int run(const std::string& cmd, std::string* out = nullptr) {
    const Run r = test::run(cmd);
    if (out) *out = r.out;
    return r.code;
}

// What the terrain import reads a glTF with (conversion::read_terrain_scene_file's options).
gltf::ReadOptions terrain_read_options() {
    gltf::ReadOptions o;
    o.lines = true;
    o.meshes_of_nodes = mapping::terrain_import_nodes();
    return o;
}

// Every mesh, line primitives kept: for scenes a test edits and writes back as a new file (a
// scene read with terrain_read_options() lacks the meshes the import skips).
gltf::ReadOptions whole_read_options() {
    gltf::ReadOptions o;
    o.lines = true;
    return o;
}

// The generated levels exported once with the real CLI to .glb, .gltf and .obj.
const test::MapExports& exports() {
    static const test::MapExports e("terrain_import");
    return e;
}

sidecar::TerrainSidecar load_sidecar(const fs::path& p) {
    const Bytes text = read_file(p);
    return test::read_terrain_text(text, p.string());
}

// Note: every export of a map writes the same sidecar name (OUT_STEM.sidecar.json), so the last
// export (.obj) owns it; the payloads are the same, only export.format/options differ.
sidecar::TerrainSidecar sidecar_for(const std::string& m, const std::string& ext) {
    sidecar::TerrainSidecar sc = load_sidecar(exports().sidecar(m));
    sc.record.format = ext.substr(1);
    sc.record.areal_faces = ext != ".obj";
    return sc;
}

mapping::TerrainImportResult import_file(const std::string& m, const std::string& ext) {
    const fs::path in = exports().out(m, ext);
    const sidecar::TerrainSidecar sc = sidecar_for(m, ext);
    if (ext == ".obj") {
        const Bytes text = read_file(in);
        return mapping::import_terrain_obj(std::string(text.begin(), text.end()), sc, in.string());
    }
    DiagnosticSink warnings(ReadMode::Tolerant);
    return mapping::import_terrain_scene(gltf::read(in, warnings, terrain_read_options()), sc,
                                         in.string());
}

scene::Node* node(scene::Scene& s, const std::string& name) {
    for (scene::Node& n : s.nodes)
        if (n.name == name) return &n;
    return nullptr;
}

size_t errors(const DiagnosticSink& sink) {
    size_t n = 0;
    for (const Diagnostic& d : sink.diagnostics()) n += d.severity == Severity::Error;
    return n;
}

// ---- Edit helpers shared by the OBJ and glTF edit tests ----

using F3 = std::array<float, 3>;

F3 to_gltf3(const terrain::Vec3& p) {
    return {p.x, p.z, -p.y};
}

// An exported OBJ as lines, each with the object (`o` name) it belongs to.
struct ObjText {
    std::vector<std::string> lines, object;

    explicit ObjText(const fs::path& p) {
        const Bytes b = read_file(p);
        std::istringstream in(std::string(b.begin(), b.end()));
        std::string line, current;
        while (std::getline(in, line)) {
            if (line.rfind("o ", 0) == 0) current = line.substr(2);
            lines.push_back(line);
            object.push_back(current);
        }
    }
    std::string text() const {
        std::string t;
        for (const std::string& l : lines) t += l + "\n";
        return t;
    }
    bool is_v(size_t i) const { return lines[i].rfind("v ", 0) == 0; }
    F3 v(size_t i) const {
        std::istringstream ls(lines[i].substr(2));
        F3 p{};
        for (float& c : p) {
            std::string t;
            ls >> t;
            std::from_chars(t.data(), t.data() + t.size(), c);
        }
        return p;
    }
    void set_v(size_t i, const F3& p) {
        std::string l = "v";
        for (float c : p) {
            char buf[32];
            l += ' ';
            l.append(buf, std::to_chars(buf, buf + sizeof buf, c).ptr);
        }
        lines[i] = l;
    }
    // Indices of `v` lines of `obj` whose position is `p` (exactly).
    std::vector<size_t> find_v(const std::string& obj, const F3& p) const {
        std::vector<size_t> out;
        for (size_t i = 0; i < lines.size(); ++i)
            if (object[i] == obj && is_v(i) && v(i) == p) out.push_back(i);
        return out;
    }
};

// The highest terrain vertex and every vertex at the same position (tile seams duplicate
// vertices): the set a user moves by dragging that point.
std::set<uint16_t> hill_vertices(const terrain::Terrain& t) {
    uint16_t hill = 0;
    for (size_t v = 0; v < t.positions.size(); ++v)
        if (t.positions[v].z > t.positions[hill].z) hill = uint16_t(v);
    std::set<uint16_t> out;
    const terrain::Vec3 h = t.positions[hill];
    for (size_t v = 0; v < t.positions.size(); ++v)
        if (t.positions[v].x == h.x && t.positions[v].y == h.y && t.positions[v].z == h.z)
            out.insert(uint16_t(v));
    return out;
}

std::array<double, 3> unit_normal(const terrain::Terrain& t, const terrain::Face& f) {
    const auto &a = t.positions[f.v[0]], &b = t.positions[f.v[1]], &c = t.positions[f.v[2]];
    const double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
    const double vx = double(c.x) - a.x, vy = double(c.y) - a.y, vz = double(c.z) - a.z;
    std::array<double, 3> n{uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx};
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (double& x : n) x /= len;
    return n;
}

// A Land.msh after `moved` vertices were raised by dz: strict-valid; positions; vertex normals
// (type 4) of every vertex of a face touching a moved vertex = normalised sum of the unit normals
// of all faces around it, byte 3 kept; face normals of touched faces recomputed; everything else
// as before.
void check_height_edit(const terrain::Terrain& orig, const Bytes& land_msh,
                       const std::set<uint16_t>& moved, float dz) {
    DiagnosticSink sink(ReadMode::Strict);
    const terrain::Terrain t = terrain::read(land_msh, sink, "imported");
    for (const Diagnostic& d : sink.diagnostics()) BOOST_TEST_MESSAGE(d.to_string());
    BOOST_TEST(sink.diagnostics().empty());
    BOOST_TEST_REQUIRE(t.positions.size() == orig.positions.size());
    BOOST_TEST_REQUIRE(t.faces.size() == orig.faces.size());
    size_t bad_pos = 0;
    for (size_t v = 0; v < t.positions.size(); ++v) {
        const auto &n = t.positions[v], &o = orig.positions[v];
        const float want_z = moved.count(uint16_t(v)) ? o.z + dz : o.z;
        if (n.x != o.x || n.y != o.y || n.z != want_z) ++bad_pos;
    }
    BOOST_TEST(bad_pos == 0u);
    std::set<uint16_t> touched_vertices;
    std::vector<char> touched_face(t.faces.size(), 0);
    for (size_t f = 0; f < t.faces.size(); ++f)
        for (uint16_t v : t.faces[f].v)
            if (moved.count(v)) touched_face[f] = 1;
    for (size_t f = 0; f < t.faces.size(); ++f)
        if (touched_face[f])
            for (uint16_t v : t.faces[f].v) touched_vertices.insert(v);
    BOOST_TEST(touched_vertices.size() > moved.size());
    size_t bad_face = 0, bad_normal = 0;
    for (size_t f = 0; f < t.faces.size(); ++f) {
        const terrain::Face &nf = t.faces[f], &of = orig.faces[f];
        if (nf.v != of.v || nf.n != of.n || nf.flags != of.flags || nf.edge_class != of.edge_class)
            ++bad_face;
        const auto want = touched_face[f] ? terrain::packed_face_normal(t.positions[nf.v[0]],
                                                                        t.positions[nf.v[1]],
                                                                        t.positions[nf.v[2]])
                                          : of.normal;
        if (nf.normal != want) ++bad_face;
    }
    for (size_t v = 0; v < t.positions.size(); ++v) {
        auto want = orig.normals[v];
        if (touched_vertices.count(uint16_t(v))) {
            std::array<double, 3> sum{0, 0, 0};
            for (const terrain::Face& f : t.faces)
                if (f.v[0] == v || f.v[1] == v || f.v[2] == v) {
                    const auto n = unit_normal(t, f);
                    for (size_t k = 0; k < 3; ++k) sum[k] += n[k];
                }
            const double len = std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
            for (size_t k = 0; k < 3; ++k)
                want[k] = msh::encode_normal_component(float(sum[k] / len));
        }
        if (t.normals[v] != want) ++bad_normal;
    }
    BOOST_TEST(bad_face == 0u);
    BOOST_TEST(bad_normal == 0u);
    // A raised hill top tilts the normals of the vertices around it.
    size_t changed = 0;
    for (uint16_t v : touched_vertices) changed += t.normals[v] != orig.normals[v];
    BOOST_TEST(changed > 0u);
}

// An interior polygon vertex of the areal map shared by several areals: (areal, k) pairs.
std::vector<std::pair<uint32_t, uint32_t>> shared_interior_point(const arealmap::ArealMap& map) {
    double lo_x = 1e300, hi_x = -1e300, lo_y = 1e300, hi_y = -1e300;
    for (const auto& a : map.areals)
        for (const auto& v : a.vertices) {
            lo_x = std::min(lo_x, double(v.x)), hi_x = std::max(hi_x, double(v.x));
            lo_y = std::min(lo_y, double(v.y)), hi_y = std::max(hi_y, double(v.y));
        }
    for (size_t a = map.areals.size() / 2; a < map.areals.size(); ++a)
        for (const auto& p : map.areals[a].vertices) {
            if (p.x == lo_x || p.x == hi_x || p.y == lo_y || p.y == hi_y) continue;
            std::vector<std::pair<uint32_t, uint32_t>> at;
            for (size_t b = 0; b < map.areals.size(); ++b)
                for (size_t k = 0; k < map.areals[b].vertices.size(); ++k) {
                    const auto& q = map.areals[b].vertices[k];
                    if (q.x == p.x && q.y == p.y) at.push_back({uint32_t(b), uint32_t(k)});
                }
            if (at.size() >= 3) return at;
        }
    return {};
}

// A Land.map after the polygon vertices `at` were shifted by (dx, dy): strict-valid; the moved
// vertices; area = XY shoelace area, normal (0, 0, 1) and an anchor strictly inside for every
// changed areal (their total area is unchanged: the point moved inside the tiling); links as
// before and mutual; the grid follows the terrain.md §9 rule and lists every changed areal in
// the cell of its anchor; untouched areals keep every field.
void check_areal_edit(const arealmap::ArealMap& orig, const Bytes& land_map,
                      const std::vector<std::pair<uint32_t, uint32_t>>& at, float dx, float dy) {
    DiagnosticSink sink(ReadMode::Strict);
    const arealmap::ArealMap map = arealmap::read(land_map, sink, "imported");
    for (const Diagnostic& d : sink.diagnostics()) BOOST_TEST_MESSAGE(d.to_string());
    BOOST_TEST(sink.diagnostics().empty());
    BOOST_TEST_REQUIRE(map.areals.size() == orig.areals.size());
    std::set<uint32_t> changed;
    for (const auto& [a, k] : at) changed.insert(a);
    double area_before = 0, area_after = 0;
    for (uint32_t a : changed) {
        const arealmap::Areal &n = map.areals[a], &o = orig.areals[a];
        BOOST_TEST_REQUIRE(n.vertices.size() == o.vertices.size());
        for (size_t k = 0; k < n.vertices.size(); ++k) {
            const bool hit = std::count(at.begin(), at.end(), std::make_pair(a, uint32_t(k))) > 0;
            BOOST_TEST(n.vertices[k].x == (hit ? o.vertices[k].x + dx : o.vertices[k].x));
            BOOST_TEST(n.vertices[k].y == (hit ? o.vertices[k].y + dy : o.vertices[k].y));
            BOOST_TEST(n.vertices[k].z == o.vertices[k].z); // the overlay lift did not leak in
        }
        BOOST_TEST(n.area == float(arealmap::polygon_area_xy(n.vertices)));
        BOOST_TEST(n.area != o.area);
        BOOST_TEST((n.normal.x == 0 && n.normal.y == 0 && n.normal.z == 1));
        BOOST_TEST(arealmap::point_in_polygon_xy(n.vertices, n.anchor.x, n.anchor.y));
        BOOST_TEST(n.anchor.z == 0.0f);
        area_before += o.area;
        area_after += n.area;
    }
    BOOST_TEST(area_after == area_before, tt::tolerance(1e-5));
    size_t untouched_bad = 0;
    for (size_t i = 0; i < map.areals.size(); ++i) {
        BOOST_TEST((map.areals[i].links == orig.areals[i].links));
        check_links_mutual(map, i);
        if (changed.count(uint32_t(i))) continue;
        const auto &n = map.areals[i], &o = orig.areals[i];
        if (n.area != o.area || n.anchor.x != o.anchor.x || n.anchor.y != o.anchor.y ||
            n.vertices.size() != o.vertices.size())
            ++untouched_bad;
    }
    BOOST_TEST(untouched_bad == 0u);
    BOOST_TEST((map.grid == arealmap::rebuild_grid(map.areals, 128, 128)));
    double lo_x = 1e300, hi_x = -1e300, lo_y = 1e300, hi_y = -1e300;
    for (const auto& a : map.areals)
        for (const auto& v : a.vertices) {
            lo_x = std::min(lo_x, double(v.x)), hi_x = std::max(hi_x, double(v.x));
            lo_y = std::min(lo_y, double(v.y)), hi_y = std::max(hi_y, double(v.y));
        }
    for (uint32_t a : changed) {
        const auto& n = map.areals[a];
        const uint32_t cx = std::min(127u, uint32_t((n.anchor.x - lo_x) / (hi_x - lo_x) * 128));
        const uint32_t cy = std::min(127u, uint32_t((n.anchor.y - lo_y) / (hi_y - lo_y) * 128));
        const auto& cell = map.grid.cell(cx, cy);
        BOOST_TEST(std::is_sorted(cell.begin(), cell.end()));
        BOOST_TEST(std::count(cell.begin(), cell.end(), uint16_t(a)) == 1, "areal " << a);
    }
}

// `mshconv validate --strict` on both outputs: no error and no warning.
void check_validates(const fs::path& land_msh) {
    fs::path land_map = land_msh;
    land_map.replace_extension(".map");
    for (const fs::path& p : {land_msh, land_map}) {
        std::string out;
        BOOST_TEST(run(std::string(MSHCONV_BINARY) + " validate --strict " + q(p), &out) == 0, out);
        BOOST_TEST(out.find("0 errors, 0 warnings") != std::string::npos, out);
    }
}
} // namespace

BOOST_AUTO_TEST_SUITE(terrain_import)

BOOST_AUTO_TEST_CASE(unedited_round_trips_are_byte_identical) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    BOOST_TEST_REQUIRE(!e.maps.empty());
    for (const std::string& m : e.maps)
        for (const char* ext : {".glb", ".gltf", ".obj"}) BOOST_TEST_CONTEXT(m << ext) {
                const mapping::TerrainImportResult r = import_file(m, ext);
                BOOST_TEST(r.msh_identical);
                BOOST_TEST(r.map_identical);
                BOOST_TEST((r.land_msh == read_file(e.land(m))));
                BOOST_TEST((r.land_map == read_file(e.dir(m) / "Land.map")));
            }
}

// The import decodes only the meshes it reads: the draped overlay (most of a map's bytes) comes
// without primitives, the meshes it reads are the same as in a whole read, and so is the result.
BOOST_AUTO_TEST_CASE(import_decodes_only_the_meshes_it_reads) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    BOOST_TEST_REQUIRE(!e.maps.empty());
    const std::string m = e.maps.front();
    DiagnosticSink warnings(ReadMode::Tolerant);
    const scene::Scene whole = gltf::read(e.out(m, ".glb"), warnings, whole_read_options());
    const scene::Scene part = gltf::read(e.out(m, ".glb"), warnings, terrain_read_options());
    BOOST_TEST_REQUIRE(whole.meshes.size() == part.meshes.size());
    BOOST_TEST_REQUIRE(whole.nodes.size() == part.nodes.size());
    const std::vector<std::string>& read = mapping::terrain_import_nodes();
    size_t decoded = 0, skipped = 0;
    for (size_t i = 0; i < whole.nodes.size(); ++i) BOOST_TEST_CONTEXT(whole.nodes[i].name) {
            const int mesh = whole.nodes[i].mesh;
            BOOST_TEST(part.nodes[i].name == whole.nodes[i].name);
            BOOST_TEST(part.nodes[i].mesh == mesh);
            if (mesh == scene::kNoIndex) continue;
            const scene::Mesh& w = whole.meshes[size_t(mesh)];
            const scene::Mesh& p = part.meshes[size_t(mesh)];
            BOOST_TEST(p.name == w.name);
            BOOST_TEST(!w.primitives.empty());
            if (std::find(read.begin(), read.end(), whole.nodes[i].name) == read.end()) {
                BOOST_TEST(p.primitives.empty());
                ++skipped;
                continue;
            }
            ++decoded;
            BOOST_TEST_REQUIRE(p.primitives.size() == w.primitives.size());
            for (size_t k = 0; k < w.primitives.size(); ++k) {
                BOOST_TEST((p.primitives[k].indices == w.primitives[k].indices));
                BOOST_TEST(p.primitives[k].attributes.size() == w.primitives[k].attributes.size());
                for (const auto& [name, a] : w.primitives[k].attributes)
                    BOOST_TEST((p.primitives[k].attributes.at(name).data == a.data), name);
            }
        }
    BOOST_TEST(decoded == 3u); // Terrain, ArealMap_areas, ArealMap_outlines
    BOOST_TEST(skipped >= 1u); // ArealMap_draped at least
    const sidecar::TerrainSidecar sc = sidecar_for(m, ".glb");
    const mapping::TerrainImportResult from_whole = mapping::import_terrain_scene(whole, sc, m);
    const mapping::TerrainImportResult from_part = mapping::import_terrain_scene(part, sc, m);
    BOOST_TEST(from_part.msh_identical);
    BOOST_TEST((from_part.land_msh == from_whole.land_msh));
    BOOST_TEST((from_part.land_map == from_whole.land_map));
}

BOOST_AUTO_TEST_CASE(edited_height_rebuilds_normals) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const std::string m = e.maps.front();
    const sidecar::TerrainSidecar sc = sidecar_for(m, ".glb");
    const terrain::Terrain orig = terrain::read(read_file(e.land(m)), ReadMode::Strict, "orig");
    // The highest vertex: a hill top.
    uint16_t hill = 0;
    for (size_t v = 0; v < orig.positions.size(); ++v)
        if (orig.positions[v].z > orig.positions[hill].z) hill = uint16_t(v);
    DiagnosticSink warnings(ReadMode::Tolerant);
    scene::Scene s = gltf::read(e.out(m, ".glb"), warnings, whole_read_options());
    scene::Node* tn = node(s, mapping::kTerrainNode);
    BOOST_TEST_REQUIRE(tn);
    size_t corners = 0;
    for (scene::Primitive& p : s.meshes.at(size_t(tn->mesh)).primitives) {
        auto& pos = p.attributes.at("POSITION").data;
        const auto& vid = p.attributes.at("TEXCOORD_3").data;
        for (size_t v = 0; v < pos.size() / 3; ++v)
            if (vid[2 * v] == float(hill)) pos[3 * v + 1] += 5, ++corners; // glTF +Y = world +Z
    }
    BOOST_TEST_REQUIRE(corners > 0u);

    const mapping::TerrainImportResult r = mapping::import_terrain_scene(s, sc, "edited");
    BOOST_TEST(!r.msh_identical);
    BOOST_TEST(r.map_identical); // no overlay change
    BOOST_TEST(r.report.vertices_moved == 1u);
    DiagnosticSink sink(ReadMode::Strict);
    const terrain::Terrain t = terrain::read(r.land_msh, sink, "imported");
    for (const Diagnostic& d : sink.diagnostics()) BOOST_TEST_MESSAGE(d.to_string());
    BOOST_TEST(errors(sink) == 0u);
    BOOST_TEST_REQUIRE(t.positions.size() == orig.positions.size());
    BOOST_TEST(t.positions[hill].x == orig.positions[hill].x);
    BOOST_TEST(t.positions[hill].y == orig.positions[hill].y);
    BOOST_TEST(t.positions[hill].z == orig.positions[hill].z + 5.0f);
    for (size_t v = 0; v < t.positions.size(); ++v)
        if (v != hill) {
            BOOST_TEST(t.positions[v].x == orig.positions[v].x);
            BOOST_TEST(t.positions[v].z == orig.positions[v].z);
        }
    // Vertex normal: normalised average of the unit normals of the faces around the vertex.
    double sum[3] = {0, 0, 0};
    for (const terrain::Face& f : t.faces) {
        if (f.v[0] != hill && f.v[1] != hill && f.v[2] != hill) continue;
        const auto &a = t.positions[f.v[0]], &b = t.positions[f.v[1]], &c = t.positions[f.v[2]];
        const double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
        const double vx = double(c.x) - a.x, vy = double(c.y) - a.y, vz = double(c.z) - a.z;
        const double n[3] = {uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx};
        const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int k = 0; k < 3; ++k) sum[k] += n[k] / len;
    }
    const double len = std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
    for (size_t k = 0; k < 3; ++k)
        BOOST_TEST(t.normals[hill][k] == msh::encode_normal_component(float(sum[k] / len)));
    BOOST_TEST(t.normals[hill][3] == orig.normals[hill][3]);
    // Face normals: recomputed on the faces using the vertex, untouched elsewhere.
    size_t touched = 0;
    for (size_t f = 0; f < t.faces.size(); ++f) {
        const terrain::Face &nf = t.faces[f], &of = orig.faces[f];
        BOOST_TEST((nf.v == of.v));
        BOOST_TEST((nf.n == of.n)); // adjacency kept
        BOOST_TEST(nf.flags == of.flags);
        if (nf.v[0] == hill || nf.v[1] == hill || nf.v[2] == hill) {
            ++touched;
            BOOST_TEST((nf.normal == terrain::packed_face_normal(t.positions[nf.v[0]],
                                                                 t.positions[nf.v[1]],
                                                                 t.positions[nf.v[2]])));
        } else {
            BOOST_TEST((nf.normal == of.normal));
        }
    }
    BOOST_TEST(touched > 0u);
    BOOST_TEST((t.cell_pairs.size() == orig.cell_pairs.size()));
}

BOOST_AUTO_TEST_CASE(edited_areal_rebuilds_polygon_fields_and_grid) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const std::string m = e.maps.front();
    const sidecar::TerrainSidecar sc = sidecar_for(m, ".glb");
    BOOST_TEST_REQUIRE(sc.has_map());
    const arealmap::ArealMap orig =
        arealmap::read(read_file(e.dir(m) / "Land.map"), ReadMode::Strict, "orig");
    const uint32_t target = 0;
    const auto& poly = orig.areals[target].vertices;
    BOOST_TEST_REQUIRE(poly.size() >= 3u);
    // Move vertex 0 a fifth of the way towards the polygon's vertex mean (stays simple).
    double cx = 0, cy = 0;
    for (const auto& v : poly) cx += v.x, cy += v.y;
    cx /= double(poly.size());
    cy /= double(poly.size());
    const float nx = float(poly[0].x + 0.2 * (cx - poly[0].x));
    const float ny = float(poly[0].y + 0.2 * (cy - poly[0].y));

    DiagnosticSink warnings(ReadMode::Tolerant);
    scene::Scene s = gltf::read(e.out(m, ".glb"), warnings, whole_read_options());
    scene::Node* an = node(s, mapping::kArealAreasNode);
    BOOST_TEST_REQUIRE(an);
    size_t hits = 0;
    for (scene::Primitive& p : s.meshes.at(size_t(an->mesh)).primitives) {
        auto& pos = p.attributes.at("POSITION").data;
        const auto& id = p.attributes.at("TEXCOORD_0").data;
        for (size_t v = 0; v < pos.size() / 3; ++v)
            if (id[2 * v] == float(target) && id[2 * v + 1] == 0) {
                pos[3 * v] = nx;      // glTF x = world x
                pos[3 * v + 2] = -ny; // glTF z = -world y
                ++hits;
            }
    }
    BOOST_TEST_REQUIRE(hits == 1u);

    const mapping::TerrainImportResult r = mapping::import_terrain_scene(s, sc, "edited");
    BOOST_TEST(r.msh_identical);
    BOOST_TEST(!r.map_identical);
    BOOST_TEST((r.land_msh == read_file(e.land(m))));
    DiagnosticSink sink(ReadMode::Strict);
    const arealmap::ArealMap map = arealmap::read(r.land_map, sink, "imported");
    for (const Diagnostic& d : sink.diagnostics()) BOOST_TEST_MESSAGE(d.to_string());
    BOOST_TEST(errors(sink) == 0u);
    BOOST_TEST_REQUIRE(map.areals.size() == orig.areals.size());
    const arealmap::Areal& a = map.areals[target];
    BOOST_TEST(a.vertices[0].x == nx);
    BOOST_TEST(a.vertices[0].y == ny);
    BOOST_TEST(a.vertices[0].z == poly[0].z); // the +0.5 lift did not leak in
    for (size_t k = 1; k < poly.size(); ++k) {
        BOOST_TEST(a.vertices[k].x == poly[k].x);
        BOOST_TEST(a.vertices[k].y == poly[k].y);
        BOOST_TEST(a.vertices[k].z == poly[k].z);
    }
    BOOST_TEST(a.area == float(arealmap::polygon_area_xy(a.vertices)));
    BOOST_TEST(a.area != orig.areals[target].area);
    BOOST_TEST(arealmap::point_in_polygon_xy(a.vertices, a.anchor.x, a.anchor.y));
    BOOST_TEST(a.normal.z == 1.0f);
    // Links kept and mutual; other areals untouched.
    for (size_t i = 0; i < map.areals.size(); ++i) {
        BOOST_TEST((map.areals[i].links == orig.areals[i].links));
        check_links_mutual(map, i);
        if (i != target) {
            BOOST_TEST(map.areals[i].area == orig.areals[i].area);
            BOOST_TEST(map.areals[i].anchor.x == orig.areals[i].anchor.x);
        }
    }
    // Grid: the §9 rebuild rule on the edited areals.
    BOOST_TEST((map.grid == arealmap::rebuild_grid(map.areals, 128, 128)));
    BOOST_TEST(r.report.grid_rebuilt);
}

BOOST_AUTO_TEST_CASE(obj_height_and_outline_edits_rebuild_both_files) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const std::string m = e.maps.front();
    // The shared sidecar was written by the .obj export (the last one).
    const sidecar::TerrainSidecar sc = load_sidecar(e.sidecar(m));
    BOOST_TEST_REQUIRE(sc.record.format == "obj");
    const terrain::Terrain orig = terrain::read(read_file(e.land(m)), ReadMode::Strict, "orig");
    const arealmap::ArealMap orig_map =
        arealmap::read(read_file(e.dir(m) / "Land.map"), ReadMode::Strict, "orig");
    ObjText obj(e.out(m, ".obj"));

    // Raise the hill top by 5 units: every `v` line of object Terrain at its position.
    const std::set<uint16_t> hill = hill_vertices(orig);
    const F3 at = to_gltf3(orig.positions[*hill.begin()]);
    const std::vector<size_t> corners = obj.find_v(mapping::kTerrainNode, at);
    BOOST_TEST_REQUIRE(corners.size() >= 3u);
    for (size_t i : corners) obj.set_v(i, {at[0], at[1] + 5.0f, at[2]});

    // Shift an interior outline point shared by several areals (OBJ positions carry the lift).
    const auto shared = shared_interior_point(orig_map);
    BOOST_TEST_REQUIRE(shared.size() >= 3u);
    const arealmap::Vec3 p = orig_map.areals[shared[0].first].vertices[shared[0].second];
    const float dx = 0.75f, dy = -0.5f;
    size_t outline_hits = 0;
    for (size_t i = 0; i < obj.lines.size(); ++i) {
        if (obj.object[i] != mapping::kArealOutlinesNode || !obj.is_v(i)) continue;
        const F3 v = obj.v(i);
        if (v[0] == p.x && v[2] == -p.y) {
            obj.set_v(i, {p.x + dx, v[1], -(p.y + dy)});
            ++outline_hits;
        }
    }
    BOOST_TEST_REQUIRE(outline_hits == shared.size());

    const mapping::TerrainImportResult r =
        mapping::import_terrain_obj(obj.text(), sc, "edited.obj");
    BOOST_TEST(!r.msh_identical);
    BOOST_TEST(!r.map_identical);
    BOOST_TEST(r.report.vertices_moved == hill.size());
    BOOST_TEST(r.report.changed_areals.size() == shared.size());
    check_height_edit(orig, r.land_msh, hill, 5.0f);
    check_areal_edit(orig_map, r.land_map, shared, dx, dy);

    // The CLI writes the same two files, and they validate strictly.
    const fs::path dir = e.root / "obj_edit";
    fs::create_directories(dir / "back");
    const std::string text = obj.text();
    write_file_atomic(dir / "edited.obj", Bytes(text.begin(), text.end()));
    std::string out;
    BOOST_TEST_REQUIRE(run(std::string(MSHCONV_BINARY) + " convert " + q(dir / "edited.obj") + " " +
                               q(dir / "back" / "Land.msh") + " --sidecar " + q(e.sidecar(m)),
                           &out) == 0,
                       out);
    BOOST_TEST((read_file(dir / "back" / "Land.msh") == r.land_msh));
    BOOST_TEST((read_file(dir / "back" / "Land.map") == r.land_map));
    check_validates(dir / "back" / "Land.msh");
}

// The FormatError message of `f`, or "" when it does not throw one.
template <class F> std::string format_error(F&& f) {
    try {
        f();
    } catch (const FormatError& e) {
        return e.what();
    }
    return {};
}

BOOST_AUTO_TEST_CASE(deleted_terrain_faces_are_refused_naming_them) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const std::string m = e.maps.front();
    // glTF: the first two triangles of the first primitive.
    DiagnosticSink warnings(ReadMode::Tolerant);
    scene::Scene s = gltf::read(e.out(m, ".glb"), warnings, whole_read_options());
    scene::Node* tn = node(s, mapping::kTerrainNode);
    BOOST_TEST_REQUIRE(tn);
    scene::Primitive& p = s.meshes.at(size_t(tn->mesh)).primitives.at(0);
    const auto& fid = p.attributes.at("TEXCOORD_2").data;
    const std::string f0 = std::to_string(size_t(fid[2 * p.indices[0]]));
    const std::string f1 = std::to_string(size_t(fid[2 * p.indices[3]]));
    p.indices.erase(p.indices.begin(), p.indices.begin() + 6);
    std::string msg = format_error(
        [&] { mapping::import_terrain_scene(s, sidecar_for(m, ".glb"), "deleted.glb"); });
    BOOST_TEST(msg.find("2 terrain faces are missing") != std::string::npos, msg);
    BOOST_TEST(msg.find("face " + f0 + ", " + f1 + ")") != std::string::npos, msg);
    BOOST_TEST(msg.find("refused") != std::string::npos, msg);
    // OBJ: one `f` line of object Terrain.
    ObjText obj(e.out(m, ".obj"));
    for (size_t i = 0; i < obj.lines.size(); ++i)
        if (obj.object[i] == mapping::kTerrainNode && obj.lines[i].rfind("f ", 0) == 0) {
            obj.lines.erase(obj.lines.begin() + std::ptrdiff_t(i));
            obj.object.erase(obj.object.begin() + std::ptrdiff_t(i));
            break;
        }
    msg = format_error([&] {
        mapping::import_terrain_obj(obj.text(), load_sidecar(e.sidecar(m)), "deleted.obj");
    });
    BOOST_TEST(msg.find("1 terrain face is missing") != std::string::npos, msg);
    BOOST_TEST(msg.find("deleted.obj") != std::string::npos, msg);
}

// Moves every vertex of node `name` (LINES or TRIANGLES) whose identity is one of `at` by
// (dx, dy) in game XY; returns how many were moved.
size_t move_overlay(scene::Scene& s, const std::string& name,
                    const std::vector<std::pair<uint32_t, uint32_t>>& at, float dx, float dy) {
    scene::Node* n = node(s, name);
    BOOST_TEST_REQUIRE(n);
    size_t hits = 0;
    for (scene::Primitive& p : s.meshes.at(size_t(n->mesh)).primitives) {
        auto& pos = p.attributes.at("POSITION").data;
        const auto& id = p.attributes.at("TEXCOORD_0").data;
        for (size_t v = 0; v < pos.size() / 3; ++v)
            if (std::count(at.begin(), at.end(),
                           std::make_pair(uint32_t(id[2 * v]), uint32_t(id[2 * v + 1])))) {
                pos[3 * v] += dx;     // glTF x = game x
                pos[3 * v + 2] -= dy; // glTF z = -game y
                ++hits;
            }
    }
    return hits;
}

BOOST_AUTO_TEST_CASE(gltf_outline_only_edit_is_imported) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const std::string m = e.maps.front();
    const sidecar::TerrainSidecar sc = sidecar_for(m, ".glb");
    const arealmap::ArealMap orig =
        arealmap::read(read_file(e.dir(m) / "Land.map"), ReadMode::Strict, "orig");
    const auto shared = shared_interior_point(orig);
    BOOST_TEST_REQUIRE(shared.size() >= 3u);
    const arealmap::Vec3 p = orig.areals[shared[0].first].vertices[shared[0].second];
    const float dx = -0.5f, dy = 0.75f;
    DiagnosticSink warnings(ReadMode::Tolerant);
    scene::Scene s = gltf::read(e.out(m, ".glb"), warnings, whole_read_options());
    // The exported outlines are one LINES primitive with the areal identity.
    BOOST_TEST_REQUIRE(node(s, mapping::kArealOutlinesNode));
    BOOST_TEST(
        (s.meshes.at(size_t(node(s, mapping::kArealOutlinesNode)->mesh)).primitives.at(0).mode ==
         scene::Primitive::Mode::Lines));
    // Exact float arithmetic as the check expects: game x + dx, game y + dy.
    BOOST_TEST_REQUIRE(move_overlay(s, mapping::kArealOutlinesNode, shared, dx, dy) ==
                       shared.size());
    for (const auto& [a, k] : shared) {
        const auto& v = orig.areals[a].vertices[k];
        BOOST_TEST_REQUIRE((v.x == p.x && v.y == p.y));
    }
    const mapping::TerrainImportResult r = mapping::import_terrain_scene(s, sc, "outline.glb");
    BOOST_TEST(r.msh_identical);
    BOOST_TEST(!r.map_identical);
    BOOST_TEST(r.report.changed_areals.size() == shared.size());
    check_areal_edit(orig, r.land_map, shared, dx, dy);

    // The same edit in the filled polygons too (same place): accepted, same result.
    scene::Scene both = s;
    BOOST_TEST_REQUIRE(move_overlay(both, mapping::kArealAreasNode, shared, dx, dy) ==
                       shared.size());
    BOOST_TEST((mapping::import_terrain_scene(both, sc, "both.glb").land_map == r.land_map));

    // Through a real .glb file and the CLI; the outputs validate strictly.
    const fs::path dir = e.root / "outline_edit";
    fs::create_directories(dir / "back");
    gltf::write(s, dir / "outline.glb");
    std::string out;
    BOOST_TEST_REQUIRE(run(std::string(MSHCONV_BINARY) + " convert " + q(dir / "outline.glb") +
                               " " + q(dir / "back" / "Land.msh") + " --sidecar " + q(e.sidecar(m)),
                           &out) == 0,
                       out);
    BOOST_TEST((read_file(dir / "back" / "Land.map") == r.land_map));
    BOOST_TEST((read_file(dir / "back" / "Land.msh") == read_file(e.land(m))));
    check_validates(dir / "back" / "Land.msh");
}

BOOST_AUTO_TEST_CASE(gltf_conflicting_overlay_edits_are_refused) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const std::string m = e.maps.front();
    const sidecar::TerrainSidecar sc = sidecar_for(m, ".glb");
    const arealmap::ArealMap orig =
        arealmap::read(read_file(e.dir(m) / "Land.map"), ReadMode::Strict, "orig");
    const std::vector<std::pair<uint32_t, uint32_t>> one = {{3, 0}};
    DiagnosticSink warnings(ReadMode::Tolerant);
    scene::Scene s = gltf::read(e.out(m, ".glb"), warnings, whole_read_options());
    BOOST_TEST_REQUIRE(move_overlay(s, mapping::kArealAreasNode, one, 0.5f, 0) == 1u);
    BOOST_TEST_REQUIRE(move_overlay(s, mapping::kArealOutlinesNode, one, 0, 0.5f) == 1u);
    const std::string msg =
        format_error([&] { mapping::import_terrain_scene(s, sc, "conflict.glb"); });
    BOOST_TEST(msg.find("areal 3 vertex 0") != std::string::npos, msg);
    BOOST_TEST(msg.find(mapping::kArealAreasNode) != std::string::npos, msg);
    BOOST_TEST(msg.find(mapping::kArealOutlinesNode) != std::string::npos, msg);
    (void)orig;
}

BOOST_AUTO_TEST_CASE(gltf_outline_without_identity_is_never_ignored_silently) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const std::string m = e.maps.front();
    const sidecar::TerrainSidecar sc = sidecar_for(m, ".glb");
    DiagnosticSink warnings(ReadMode::Tolerant);
    scene::Scene s = gltf::read(e.out(m, ".glb"), warnings, whole_read_options());
    scene::Node* on = node(s, mapping::kArealOutlinesNode);
    BOOST_TEST_REQUIRE(on);
    scene::Primitive& lines = s.meshes.at(size_t(on->mesh)).primitives.at(0);
    lines.attributes.erase("TEXCOORD_0"); // as a tool that drops the UVs of loose edges does
    // Unmoved: nothing to match, the original bytes.
    mapping::TerrainImportResult r = mapping::import_terrain_scene(s, sc, "anon.glb");
    BOOST_TEST(r.map_identical);
    BOOST_TEST(r.msh_identical);
    // Moved: a clear error instead of a dropped edit.
    lines.attributes.at("POSITION").data[0] += 1.0f;
    const std::string msg = format_error([&] { mapping::import_terrain_scene(s, sc, "anon.glb"); });
    BOOST_TEST(msg.find("TEXCOORD_0") != std::string::npos, msg);
    BOOST_TEST(msg.find("1 outline vertices were moved") != std::string::npos, msg);
}

// Removes areal `a` from the filled polygons and/or the outlines of an imported scene.
void delete_areal(scene::Scene& s, uint32_t a, bool areas, bool outlines) {
    for (const auto& [name, on, per] :
         {std::tuple{mapping::kArealAreasNode, areas, size_t(3)},
          std::tuple{mapping::kArealOutlinesNode, outlines, size_t(2)}}) {
        if (!on) continue;
        scene::Node* n = node(s, name);
        BOOST_TEST_REQUIRE(n);
        for (scene::Primitive& p : s.meshes.at(size_t(n->mesh)).primitives) {
            const auto& id = p.attributes.at("TEXCOORD_0").data;
            std::vector<uint32_t> kept;
            for (size_t i = 0; i + per <= p.indices.size(); i += per)
                if (id[2 * p.indices[i]] != float(a))
                    kept.insert(kept.end(), p.indices.begin() + std::ptrdiff_t(i),
                                p.indices.begin() + std::ptrdiff_t(i + per));
            p.indices = std::move(kept);
        }
    }
}

BOOST_AUTO_TEST_CASE(deleted_areal_is_removed_with_references_fixed) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const std::string m = e.maps.front();
    const sidecar::TerrainSidecar sc = sidecar_for(m, ".glb");
    const arealmap::ArealMap orig =
        arealmap::read(read_file(e.dir(m) / "Land.map"), ReadMode::Strict, "orig");
    // An areal with neighbours on several edges.
    uint32_t gone = 0;
    for (size_t a = orig.areals.size() / 2; a < orig.areals.size(); ++a) {
        size_t n = 0;
        for (const auto& l : orig.areals[a].links) n += !l.none();
        if (n >= 3) {
            gone = uint32_t(a);
            break;
        }
    }
    BOOST_TEST_REQUIRE(gone > 0u);
    DiagnosticSink warnings(ReadMode::Tolerant);
    const scene::Scene exported = gltf::read(e.out(m, ".glb"), warnings, whole_read_options());

    // From one representation only: refused, naming both.
    scene::Scene half = exported;
    delete_areal(half, gone, true, false);
    std::string msg = format_error([&] { mapping::import_terrain_scene(half, sc, "half.glb"); });
    BOOST_TEST(msg.find("areal " + std::to_string(gone) + " was deleted from " +
                        mapping::kArealAreasNode + " but not from " +
                        mapping::kArealOutlinesNode) != std::string::npos,
               msg);

    // From both: the areal goes, references follow.
    scene::Scene s = exported;
    delete_areal(s, gone, true, true);
    const mapping::TerrainImportResult r = mapping::import_terrain_scene(s, sc, "deleted.glb");
    BOOST_TEST(r.msh_identical);
    BOOST_TEST(r.report.deleted_areals.size() == 1u);
    BOOST_TEST(r.report.deleted_areals.at(0) == gone);
    DiagnosticSink sink(ReadMode::Strict);
    const arealmap::ArealMap map = arealmap::read(r.land_map, sink, "imported");
    for (const Diagnostic& d : sink.diagnostics()) BOOST_TEST_MESSAGE(d.to_string());
    BOOST_TEST(sink.diagnostics().empty());
    BOOST_TEST_REQUIRE(map.areals.size() == orig.areals.size() - 1);
    BOOST_TEST(map.container.entries.at(0).attr1 == map.areals.size());
    size_t bad = 0, cut = 0;
    for (size_t i = 0; i < map.areals.size(); ++i) {
        const size_t o = i < gone ? i : i + 1; // the original index
        const auto &n = map.areals[i], &w = orig.areals[o];
        if (n.area != w.area || n.anchor.x != w.anchor.x || n.vertices.size() != w.vertices.size())
            ++bad;
        for (size_t k = 0; k < n.links.size(); ++k) {
            const auto& ol = w.links[k];
            arealmap::EdgeLink want = ol;
            if (!ol.none() && ol.area_ref == int32_t(gone))
                want = {}, ++cut;
            else if (!ol.none() && ol.area_ref > int32_t(gone))
                want.area_ref = ol.area_ref - 1;
            if (!(n.links[k] == want)) ++bad;
            const auto& l = n.links[k];
            if (l.none()) continue;
            const auto& back = map.areals[size_t(l.area_ref)].links[size_t(l.edge_ref)];
            if (!(back.area_ref == int32_t(i) && back.edge_ref == int32_t(k))) ++bad;
        }
    }
    BOOST_TEST(bad == 0u);
    size_t neighbours = 0;
    for (const auto& l : orig.areals[gone].links) neighbours += !l.none();
    BOOST_TEST(cut == neighbours); // every neighbour lost exactly its link to the deleted areal
    BOOST_TEST((map.grid == arealmap::rebuild_grid(map.areals, 128, 128)));

    // OBJ (outlines only): deleting the areal's `l` polyline deletes it the same way.
    ObjText obj(e.out(m, ".obj"));
    size_t polyline = 0;
    for (size_t i = 0; i < obj.lines.size(); ++i)
        if (obj.object[i] == mapping::kArealOutlinesNode && obj.lines[i].rfind("l ", 0) == 0 &&
            polyline++ == gone) {
            obj.lines.erase(obj.lines.begin() + std::ptrdiff_t(i));
            obj.object.erase(obj.object.begin() + std::ptrdiff_t(i));
            break;
        }
    const mapping::TerrainImportResult ro =
        mapping::import_terrain_obj(obj.text(), load_sidecar(e.sidecar(m)), "deleted.obj");
    BOOST_TEST((ro.land_map == r.land_map));
}

BOOST_AUTO_TEST_CASE(every_map_validates_and_round_trips_through_the_cli) {
    // Every generated level: the inputs pass `validate --strict`; exported with the CLI to
    // .glb, .gltf and .obj (each with its own sidecar) and converted back with the CLI, both
    // Land.msh and Land.map come back byte for byte and pass `validate --strict` again.
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    BOOST_TEST_REQUIRE(e.maps.size() >= 6u);
    const fs::path dir = e.root / "cli_all";
    for (const std::string& m : e.maps) BOOST_TEST_CONTEXT(m) {
            check_validates(e.land(m));
            for (const char* ext : {".glb", ".gltf", ".obj"}) BOOST_TEST_CONTEXT(ext) {
                    const std::string stem = m + "_" + std::string(ext + 1);
                    const fs::path out = dir / (stem + ext), back = dir / stem / "Land.msh";
                    std::string text;
                    BOOST_TEST_REQUIRE(run(std::string(MSHCONV_BINARY) + " convert " +
                                               q(e.land(m)) + " " + q(out) + " --quiet",
                                           &text) == 0,
                                       text);
                    BOOST_TEST_REQUIRE(fs::exists(dir / (stem + ".sidecar.json")));
                    BOOST_TEST_REQUIRE(run(std::string(MSHCONV_BINARY) + " convert " + q(out) +
                                               " " + q(back) + " --quiet",
                                           &text) == 0,
                                       text);
                    BOOST_TEST((read_file(back) == read_file(e.land(m))));
                    BOOST_TEST(
                        (read_file(dir / stem / "Land.map") == read_file(e.dir(m) / "Land.map")));
                    check_validates(back);
                }
        }
}

BOOST_AUTO_TEST_CASE(cli_round_trip_writes_both_files) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const std::string m = e.maps.front();
    // A private copy of the export and its sidecar (the shared sidecar was written by .obj).
    const fs::path dir = e.root / "cli";
    fs::create_directories(dir / "back");
    std::string text;
    BOOST_TEST_REQUIRE(run(std::string(MSHCONV_BINARY) + " convert " + q(e.land(m)) + " " +
                               q(dir / "tut.glb") + " --quiet",
                           &text) == 0,
                       text);
    const int code = run(std::string(MSHCONV_BINARY) + " convert " + q(dir / "tut.glb") + " " +
                             q(dir / "back" / "Land.msh"),
                         &text);
    BOOST_TEST_REQUIRE(code == 0, text);
    BOOST_TEST((read_file(dir / "back" / "Land.msh") == read_file(e.land(m))));
    BOOST_TEST((read_file(dir / "back" / "Land.map") == read_file(e.dir(m) / "Land.map")));
    // OUT must be a .msh.
    BOOST_TEST(run(std::string(MSHCONV_BINARY) + " convert " + q(dir / "tut.glb") + " " +
                   q(dir / "back" / "x.glb")) != 0);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace terrain_import_tests
