// Terrain export (conversion/export_terrain + mapping/terrain_to_scene + sidecar/terrain_sidecar):
// every generated map goes through `mshconv convert Land.msh OUT.glb|.gltf|.obj`; the glTF is
// read back with tinygltf and compared face for face with the decoded Land.msh, the overlay is
// counted against Land.map, the sidecar payloads are checked against the inputs, and the real
// consumers (Khronos glTF-Validator, Blender 3.4) get the exports.
#include "formats/arealmap.hpp"
#include "formats/bytes.hpp"
#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/msh.hpp"
#include "formats/png.hpp"
#include "formats/terrain.hpp"
#include "formats/tinygltf.hpp"
#include "formats/wear.hpp"
#include "mapping/drape.hpp"
#include "mapping/terrain_to_scene.hpp"
#include "samples/terrain_gen.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/model_sidecar.hpp"
#include "terrain_fixtures.hpp"
#include "test_util.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace terrain_export_tests {

using namespace msh;
namespace fs = std::filesystem;
namespace tt = boost::test_tools;

using test::q;
using test::Run;
using test::run;
using test::scratch;

namespace {

// The generated levels written once under a scratch folder, exported to .glb, .gltf and .obj.
const test::MapExports& exports() {
    static const test::MapExports e("terrain_export");
    return e;
}

tinygltf::Model load_gltf(const fs::path& file) {
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader( // keep the encoded bytes: the tests decode PNGs themselves
        [](tinygltf::Image* image, const int, std::string*, std::string*, int, int,
           const unsigned char* bytes, int size, void*) {
            image->image.assign(bytes, bytes + size);
            return true;
        },
        nullptr);
    tinygltf::Model m;
    std::string err, warn;
    const bool ok = file.extension() == ".glb"
                        ? loader.LoadBinaryFromFile(&m, &err, &warn, file.string())
                        : loader.LoadASCIIFromFile(&m, &err, &warn, file.string());
    BOOST_TEST_REQUIRE(ok, file.string() << ": " << err);
    BOOST_TEST(warn.empty(), warn);
    return m;
}

std::vector<double> read_accessor(const tinygltf::Model& m, int index) {
    const tinygltf::Accessor& a = m.accessors.at(size_t(index));
    const tinygltf::BufferView& v = m.bufferViews.at(size_t(a.bufferView));
    const tinygltf::Buffer& b = m.buffers.at(size_t(v.buffer));
    const int components = tinygltf::GetNumComponentsInType(uint32_t(a.type));
    const int csize = tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType));
    const size_t stride = v.byteStride ? v.byteStride : size_t(components * csize);
    BOOST_REQUIRE(v.byteOffset + a.byteOffset + (a.count ? (a.count - 1) * stride : 0) +
                      size_t(components * csize) <=
                  b.data.size());
    std::vector<double> out;
    out.reserve(a.count * size_t(components));
    for (size_t i = 0; i < a.count; ++i)
        for (int c = 0; c < components; ++c) {
            const unsigned char* p =
                b.data.data() + v.byteOffset + a.byteOffset + i * stride + size_t(c * csize);
            switch (a.componentType) {
            case TINYGLTF_COMPONENT_TYPE_FLOAT:
                out.push_back(load<float>(p));
                break;
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
                out.push_back(*p);
                break;
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
                out.push_back(load<uint16_t>(p));
                break;
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
                out.push_back(load<uint32_t>(p));
                break;
            default:
                BOOST_FAIL("unexpected component type " << a.componentType);
            }
        }
    return out;
}

int node_named(const tinygltf::Model& m, const std::string& name) {
    for (size_t i = 0; i < m.nodes.size(); ++i)
        if (m.nodes[i].name == name) return int(i);
    return -1;
}

std::array<double, 3> to_gltf(double x, double y, double z) {
    return {x, z, -y};
}

// Checks one exported .glb/.gltf against the decoded level.
void check_export(const fs::path& file, const terrain::Terrain& t, const arealmap::ArealMap& map,
                  const std::vector<std::string>& layer1) {
    BOOST_TEST_CONTEXT(file.filename().string()) {
        const tinygltf::Model m = load_gltf(file);
        BOOST_TEST_REQUIRE(m.scenes.size() == 1u);
        const std::vector<int>& roots = m.scenes[0].nodes;
        const int ti = node_named(m, mapping::kTerrainNode);
        const int ai = node_named(m, mapping::kArealNode);
        BOOST_TEST_REQUIRE(ti >= 0);
        BOOST_TEST_REQUIRE(ai >= 0);
        // Two separate top-level nodes.
        BOOST_TEST(std::count(roots.begin(), roots.end(), ti) == 1);
        BOOST_TEST(std::count(roots.begin(), roots.end(), ai) == 1);
        for (const auto& n : m.nodes)
            for (int c : n.children) BOOST_TEST((c != ti && c != ai));
        BOOST_TEST(m.nodes[size_t(ai)].mesh == -1);
        BOOST_TEST(m.nodes[size_t(ai)].translation == (std::vector<double>{0, 0.5, 0}),
                   tt::per_element());

        // ---- Terrain, face for face ----
        const tinygltf::Node& tn = m.nodes[size_t(ti)];
        BOOST_TEST_REQUIRE(tn.mesh >= 0);
        std::vector<int> seen(t.faces.size(), 0);
        for (const tinygltf::Primitive& p : m.meshes[size_t(tn.mesh)].primitives) {
            BOOST_TEST(p.mode == TINYGLTF_MODE_TRIANGLES);
            const auto idx = read_accessor(m, p.indices);
            const auto pos = read_accessor(m, p.attributes.at("POSITION"));
            const auto nrm = read_accessor(m, p.attributes.at("NORMAL"));
            const auto uv0 = read_accessor(m, p.attributes.at("TEXCOORD_0"));
            const auto uv1 = read_accessor(m, p.attributes.at("TEXCOORD_1"));
            const auto fid = read_accessor(m, p.attributes.at("TEXCOORD_2"));
            const auto vid = read_accessor(m, p.attributes.at("TEXCOORD_3"));
            BOOST_TEST_REQUIRE(idx.size() % 3 == 0u);
            const std::string& mat = m.materials.at(size_t(p.material)).name;
            size_t bad = 0;
            for (size_t c = 0; c < idx.size(); ++c) {
                const size_t x = size_t(idx[c]);
                const size_t f = size_t(fid[2 * x]), k = size_t(fid[2 * x + 1]);
                if (f >= t.faces.size() || k != c % 3) {
                    ++bad;
                    continue;
                }
                if (k == 0) ++seen[f];
                const terrain::Face& face = t.faces[f];
                const uint16_t v = face.v[k];
                if (c % 3 == 0 && face.material < layer1.size() && mat != layer1[face.material] &&
                    mat.rfind(layer1[face.material] + "_", 0) != 0)
                    ++bad;
                const auto& s = t.positions[v];
                const auto g = to_gltf(s.x, s.y, s.z);
                for (size_t i = 0; i < 3; ++i)
                    if (pos[3 * x + i] != g[i]) ++bad;
                const auto& pn = t.normals[v];
                auto n = to_gltf(msh::decode_normal_component(pn[0]),
                                 msh::decode_normal_component(pn[1]),
                                 msh::decode_normal_component(pn[2]));
                const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                if (len > 0)
                    for (size_t i = 0; i < 3; ++i)
                        if (std::abs(nrm[3 * x + i] - n[i] / len) > 1e-6) ++bad;
                if (uv0[2 * x] != msh::decode_uv(t.uv1[v][0]) ||
                    uv0[2 * x + 1] != msh::decode_uv(t.uv1[v][1]))
                    ++bad;
                if (uv1[2 * x] != msh::decode_uv(t.uv2[v][0]) ||
                    uv1[2 * x + 1] != msh::decode_uv(t.uv2[v][1]))
                    ++bad;
                if (vid[2 * x] != double(v)) ++bad;
                const double w =
                    t.weights.empty() ? 1.0 : double(terrain::weight_value(t.weights[v]));
                if (vid[2 * x + 1] != w) ++bad;
            }
            BOOST_TEST(bad == 0u, mat << ": " << bad << " mismatching values");
        }
        BOOST_TEST(std::count(seen.begin(), seen.end(), 1) == std::ptrdiff_t(t.faces.size()),
                   "every face exactly once");

        // ---- Overlay ----
        size_t edges = 0, fill = 0;
        for (const auto& a : map.areals) {
            edges += a.vertices.size();
            fill += a.vertices.size() - 2;
        }
        const int oi = node_named(m, mapping::kArealOutlinesNode);
        const int fi = node_named(m, mapping::kArealAreasNode);
        BOOST_TEST_REQUIRE(oi >= 0);
        BOOST_TEST_REQUIRE(fi >= 0);
        const auto& kids = m.nodes[size_t(ai)].children;
        BOOST_TEST(std::count(kids.begin(), kids.end(), oi) == 1);
        BOOST_TEST(std::count(kids.begin(), kids.end(), fi) == 1);
        size_t segments = 0, triangles = 0;
        std::set<std::string> classes;
        for (const auto& p : m.meshes.at(size_t(m.nodes[size_t(oi)].mesh)).primitives) {
            BOOST_TEST(p.mode == TINYGLTF_MODE_LINE);
            segments += m.accessors[size_t(p.indices)].count / 2;
        }
        for (const auto& p : m.meshes.at(size_t(m.nodes[size_t(fi)].mesh)).primitives) {
            BOOST_TEST(p.mode == TINYGLTF_MODE_TRIANGLES);
            triangles += m.accessors[size_t(p.indices)].count / 3;
            classes.insert(m.materials.at(size_t(p.material)).name);
        }
        BOOST_TEST(segments == edges);
        BOOST_TEST(triangles == fill);
        for (const auto& a : map.areals)
            BOOST_TEST(classes.count("areal_class_" + std::to_string(a.class_id) +
                                     (a.logic_flag == 1
                                          ? std::string()
                                          : "_logic_" + std::to_string(a.logic_flag))) == 1u);
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(terrain_export)

BOOST_AUTO_TEST_CASE(every_map_exports_face_for_face) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    BOOST_TEST_REQUIRE(e.maps.size() >= 6u);
    for (const std::string& name : e.maps) {
        const terrain::Terrain t =
            terrain::read(read_file(e.land(name)), ReadMode::Strict, e.land(name).string());
        const arealmap::ArealMap map = arealmap::read(read_file(e.dir(name) / "Land.map"),
                                                      ReadMode::Strict, name + "/Land.map");
        const auto layer1 =
            wear::material_names(wear::read(read_file(e.dir(name) / "Land1.wea"), "Land1.wea"));
        check_export(e.out(name, ".glb"), t, map, layer1);
        check_export(e.out(name, ".gltf"), t, map, layer1);
    }
}

// Areals of any size and shape drape to exactly their area: a 1,000-corner circle (past the
// 256 corners up to which convex parts are merged), a 200-corner one (merged into one part), an
// L and a comb (concave), over a small hilly ground built in memory.
BOOST_AUTO_TEST_CASE(draped_fills_cover_exactly_their_areals) {
    terrain::Terrain ground;
    constexpr int kCells = 8;
    for (int y = 0; y <= kCells; ++y)
        for (int x = 0; x <= kCells; ++x)
            ground.positions.push_back(
                {float(x) * 100.0f, float(y) * 100.0f, 30.0f * std::sin(float(x + 2 * y))});
    const auto at = [](int x, int y) { return uint16_t(y * (kCells + 1) + x); };
    for (int y = 0; y < kCells; ++y)
        for (int x = 0; x < kCells; ++x) {
            terrain::Face a, b;
            a.v = {at(x, y), at(x + 1, y), at(x + 1, y + 1)};
            b.v = {at(x, y), at(x + 1, y + 1), at(x, y + 1)};
            ground.faces.push_back(a), ground.faces.push_back(b);
        }
    const auto circle = [](size_t corners, double cx, double cy, double r) {
        std::vector<arealmap::Vec3> ring;
        for (size_t k = 0; k < corners; ++k) {
            const double t = 2 * 3.141592653589793 * double(k) / double(corners);
            ring.push_back({float(cx + r * std::cos(t)), float(cy + r * std::sin(t)), 0});
        }
        return ring;
    };
    const std::vector<arealmap::Vec3> ell = {{450, 450, 0}, {750, 450, 0}, {750, 550, 0},
                                             {550, 550, 0}, {550, 750, 0}, {450, 750, 0}};
    // A comb inside one ground triangle: no corner sees all of it, so no fan over it is right.
    const std::vector<arealmap::Vec3> comb = {
        {150, 102, 0}, {198, 102, 0}, {198, 140, 0}, {190, 140, 0}, {190, 112, 0}, {178, 112, 0},
        {178, 140, 0}, {170, 140, 0}, {170, 112, 0}, {158, 112, 0}, {158, 140, 0}, {150, 140, 0}};
    for (const std::vector<arealmap::Vec3>& ring :
         {circle(1000, 250, 250, 180), circle(200, 600, 200, 150), ell, comb}) {
        arealmap::ArealMap map;
        map.decoded = true;
        map.areals.emplace_back().vertices = ring;
        scene::Scene sc;
        mapping::add_draped_overlay(sc, ground, map);
        BOOST_TEST_REQUIRE(sc.meshes.size() == 1u);
        double area = 0;
        for (const scene::Primitive& p : sc.meshes[0].primitives) {
            if (p.mode != scene::Primitive::Mode::Triangles ||
                sc.materials[size_t(p.material)].name == "areal_outline")
                continue;
            const std::vector<float>& pos = p.attributes.at("POSITION").data;
            for (size_t k = 0; k + 2 < p.indices.size(); k += 3) {
                const float* a = &pos[3 * size_t(p.indices[k])];
                const float* b = &pos[3 * size_t(p.indices[k + 1])];
                const float* c = &pos[3 * size_t(p.indices[k + 2])];
                // glTF (x, y, z) -> MSH XY (x, -z). Unsigned: a fan over a concave piece would
                // cover some ground twice and count more than the polygon.
                area += std::abs((b[0] - a[0]) * (a[2] - c[2]) - (c[0] - a[0]) * (a[2] - b[2])) / 2;
            }
        }
        const double want = std::abs(arealmap::signed_area_xy(ring));
        BOOST_TEST(std::abs(area - want) <= 1e-4 * want,
                   ring.size() << " corners: draped " << area << ", the polygon " << want);
    }
}

// Threads drape runs of areals and join them in areal order: the same scene on any count (the
// map's primitives, their materials, positions and indices).
BOOST_AUTO_TEST_CASE(draped_overlay_is_the_same_on_any_number_of_threads) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    for (const std::string& name : e.maps) {
        const terrain::Terrain t =
            terrain::read(read_file(e.land(name)), ReadMode::Strict, e.land(name).string());
        const arealmap::ArealMap map = arealmap::read(read_file(e.dir(name) / "Land.map"),
                                                      ReadMode::Strict, name + "/Land.map");
        BOOST_TEST_REQUIRE(map.areals.size() >= 8u, name);
        const auto draped = [&](unsigned threads) {
            scene::Scene sc;
            mapping::DrapeOptions options;
            options.threads = threads;
            mapping::add_draped_overlay(sc, t, map, options);
            return sc;
        };
        const scene::Scene one = draped(1);
        BOOST_TEST_REQUIRE(one.meshes.size() == 1u);
        for (unsigned threads : {2u, 3u, 7u}) {
            const scene::Scene many = draped(threads);
            BOOST_TEST_REQUIRE(many.meshes.size() == 1u);
            const auto& a = one.meshes[0].primitives;
            const auto& b = many.meshes[0].primitives;
            BOOST_TEST_REQUIRE(a.size() == b.size(), name << ", " << threads << " threads");
            for (size_t k = 0; k < a.size(); ++k) {
                BOOST_TEST(a[k].material == b[k].material);
                BOOST_TEST((a[k].mode == b[k].mode));
                BOOST_TEST((a[k].indices == b[k].indices), name << " primitive " << k);
                BOOST_TEST(
                    (a[k].attributes.at("POSITION").data == b[k].attributes.at("POSITION").data),
                    name << " primitive " << k);
            }
            BOOST_TEST(one.materials.size() == many.materials.size());
            for (size_t k = 0; k < one.materials.size() && k < many.materials.size(); ++k)
                BOOST_TEST(one.materials[k].name == many.materials[k].name);
        }
    }
}

// The draped layer lies on the terrain: every fill and ribbon triangle's centre is the terrain's
// height there plus the documented lift, the fills cover the areals' area (projected), outlines
// come as LINES and as ribbons, and each class has its own coloured, translucent material.
BOOST_AUTO_TEST_CASE(draped_overlay_lies_on_the_terrain) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const mapping::DrapeOptions drape;
    for (const std::string& name : e.maps) {
        BOOST_TEST_CONTEXT(name) {
            const terrain::Terrain t =
                terrain::read(read_file(e.land(name)), ReadMode::Strict, e.land(name).string());
            const arealmap::ArealMap map = arealmap::read(read_file(e.dir(name) / "Land.map"),
                                                          ReadMode::Strict, name + "/Land.map");
            const tinygltf::Model m = load_gltf(e.out(name, ".glb"));
            const int di = node_named(m, mapping::kArealDrapedNode);
            BOOST_TEST_REQUIRE(di >= 0);
            const tinygltf::Mesh& mesh = m.meshes.at(size_t(m.nodes[size_t(di)].mesh));
            double draped_area = 0;
            size_t checked = 0, lines = 0, ribbons = 0, off = 0, twice = 0;
            for (const tinygltf::Primitive& p : mesh.primitives) {
                const tinygltf::Material& mat = m.materials.at(size_t(p.material));
                const std::vector<double> pos = read_accessor(m, p.attributes.at("POSITION"));
                if (p.mode == TINYGLTF_MODE_LINE) {
                    lines += pos.size() / 6;
                    // An edge two areals share is outlined once: no segment twice (ends rounded
                    // to a hundredth, either direction).
                    std::set<std::array<long, 4>> seen;
                    for (size_t k = 0; k + 5 < pos.size(); k += 6) {
                        std::array<long, 2> a{std::lround(pos[k] * 100),
                                              std::lround(pos[k + 2] * 100)};
                        std::array<long, 2> b{std::lround(pos[k + 3] * 100),
                                              std::lround(pos[k + 5] * 100)};
                        if (b < a) std::swap(a, b);
                        if (a == b) continue;
                        if (!seen.insert({a[0], a[1], b[0], b[1]}).second) ++twice;
                    }
                    continue;
                }
                const std::vector<double> idx = read_accessor(m, p.indices);
                // Ribbons lie on the ground too (draped like the fills), a little higher.
                const bool ribbon = mat.name == "areal_outline";
                const double lift = ribbon ? drape.outline_lift : drape.lift;
                if (ribbon) {
                    ribbons += idx.size() / 3; // triangles
                } else {
                    BOOST_TEST(mat.name.find("_draped") != std::string::npos, mat.name);
                    BOOST_TEST(mat.alphaMode == "BLEND");
                    BOOST_TEST(mat.pbrMetallicRoughness.baseColorFactor[3] < 1.0);
                }
                for (size_t k = 0; k + 2 < idx.size(); k += 3) {
                    // glTF (x, y, z) -> MSH (x, -z, y)
                    double cx = 0, cy = 0, cz = 0, xy[3][2];
                    for (int c = 0; c < 3; ++c) {
                        const size_t v = size_t(idx[k + size_t(c)]) * 3;
                        xy[c][0] = pos[v], xy[c][1] = -pos[v + 2];
                        cx += pos[v] / 3, cy += -pos[v + 2] / 3, cz += pos[v + 1] / 3;
                    }
                    if (!ribbon)
                        draped_area += std::abs((xy[1][0] - xy[0][0]) * (xy[2][1] - xy[0][1]) -
                                                (xy[2][0] - xy[0][0]) * (xy[1][1] - xy[0][1])) /
                                       2;
                    if (k % 97 != 0) continue; // a sample: the height check is brute force
                    double best = 1e30;
                    for (const terrain::Face& f : t.faces) {
                        const auto &a = t.positions[f.v[0]], &b = t.positions[f.v[1]],
                                   &c = t.positions[f.v[2]];
                        const double d = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
                        if (std::abs(d) < 1e-9) continue;
                        const double u = ((cx - a.x) * (c.y - a.y) - (c.x - a.x) * (cy - a.y)) / d;
                        const double w = ((b.x - a.x) * (cy - a.y) - (cx - a.x) * (b.y - a.y)) / d;
                        if (u < -1e-6 || w < -1e-6 || u + w > 1 + 1e-6) continue;
                        const double h = a.z + u * (b.z - a.z) + w * (c.z - a.z);
                        best = std::min(best, std::abs(cz - (h + lift)));
                    }
                    ++checked;
                    if (best > 1e-2) ++off;
                }
            }
            double areal_area = 0;
            for (const arealmap::Areal& a : map.areals) {
                double s2 = 0;
                for (size_t k = 0; k < a.vertices.size(); ++k) {
                    const auto& p = a.vertices[k];
                    const auto& q = a.vertices[(k + 1) % a.vertices.size()];
                    s2 += p.x * q.y - q.x * p.y;
                }
                areal_area += std::abs(s2) / 2;
            }
            BOOST_TEST(checked > 5u);
            BOOST_TEST(off == 0u, off << " of " << checked
                                      << " sampled fill and ribbon triangles off the ground");
            BOOST_TEST(std::abs(draped_area - areal_area) <= 0.005 * areal_area,
                       "draped " << draped_area << " vs areals " << areal_area);
            BOOST_TEST(lines > 0u);
            BOOST_TEST(twice == 0u, twice << " outline segments drawn twice");
            BOOST_TEST(ribbons >= 2 * lines);
        }
    }
}

// The draped layer is compact: its pieces share their vertices, pieces on one plane are merged
// and a piece wholly inside one terrain triangle is not cut, so a map's GLB is at most 1.5 times
// its GLB without the layer (`--overlay raw`), on every map of the corpus `mshconv samples`
// writes (textured through its libraries, as `convert` finds them) and on the same maps without
// textures (the in-process exports: the terrain's share of the GLB is smaller).
BOOST_AUTO_TEST_CASE(draped_layer_at_most_half_again_the_raw_glb) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    for (const std::string& name : e.maps) {
        const conversion::LevelFiles level = conversion::read_level_files(e.land(name));
        conversion::TerrainExportSettings settings;
        settings.output_name = name + ".glb";
        settings.overlay = conversion::TerrainExportSettings::Overlay::Raw;
        const conversion::TerrainExport raw =
            conversion::encode_terrain(level.export_input(), settings);
        BOOST_TEST_REQUIRE(raw.files.size() == 1u);
        size_t raw_size = 0;
        for (const ByteView piece : raw.files[0].pieces()) raw_size += piece.size();
        const auto size = fs::file_size(e.out(name, ".glb"));
        BOOST_TEST(double(size) <= 1.5 * double(raw_size), name << " (no textures): " << size
                                                                << " bytes with the draped layer, "
                                                                << raw_size << " without");
    }
    const fs::path dir = scratch("terrain_draped_size");
    Run r = test::mshconv("samples " + q(dir / "game"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    size_t maps = 0;
    for (const auto& entry : fs::directory_iterator(dir / "game" / "DATA" / "MAPS")) {
        const std::string name = entry.path().filename().string();
        const fs::path land = entry.path() / "Land.msh", both = dir / (name + ".glb"),
                       raw = dir / (name + ".raw.glb");
        r = test::mshconv("convert " + q(land) + " " + q(both));
        BOOST_TEST_REQUIRE(r.code == 0, r.out);
        r = test::mshconv("convert " + q(land) + " " + q(raw) + " --overlay raw");
        BOOST_TEST_REQUIRE(r.code == 0, r.out);
        BOOST_TEST(double(fs::file_size(both)) <= 1.5 * double(fs::file_size(raw)),
                   name << ": " << fs::file_size(both) << " bytes with the draped layer, "
                        << fs::file_size(raw) << " without");
        ++maps;
    }
    BOOST_TEST(maps >= 6u);
}

// Terrain textures through the game's chain: every Land1.wea row of a sample map resolves to its
// ground texture, whose mean colour is the generator's for that material.
BOOST_AUTO_TEST_CASE(terrain_materials_carry_their_ground_textures) {
    const fs::path dir = scratch("terrain_textured");
    Run r = test::mshconv("samples " + q(dir / "game"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const fs::path glb = dir / "tut1.glb";
    r = test::mshconv("convert " + q(dir / "game" / "DATA" / "MAPS" / "SynTut1" / "Land.msh") +
                      " " + q(glb));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const tinygltf::Model m = load_gltf(glb);
    const std::map<std::string, std::array<double, 3>> expected = {
        {"GRASS1", {86, 128, 52}},  {"GRASS2", {110, 140, 60}}, {"ROCK1", {120, 116, 110}},
        {"SAND1", {200, 180, 120}}, {"WATER1", {40, 80, 150}},  {"DIRT1", {120, 90, 60}}};
    size_t textured = 0;
    for (const tinygltf::Material& mat : m.materials) {
        const auto want = expected.find(mat.name);
        if (want == expected.end()) continue;
        const int t = mat.pbrMetallicRoughness.baseColorTexture.index;
        BOOST_TEST_REQUIRE(t >= 0, mat.name);
        const tinygltf::Image& img = m.images.at(size_t(m.textures.at(size_t(t)).source));
        const texm::Image px = png::decode(img.image).rgba;
        BOOST_TEST(px.width == 128u);
        std::array<double, 3> mean{};
        for (size_t i = 0; i < px.rgba.size(); i += 4)
            for (size_t c = 0; c < 3; ++c) mean[c] += px.rgba[i + c];
        for (size_t c = 0; c < 3; ++c) {
            mean[c] /= double(px.width * px.height);
            BOOST_TEST(std::abs(mean[c] - want->second[c]) < 10, mat.name << " channel " << c);
        }
        ++textured;
    }
    BOOST_TEST(textured == expected.size());
}

// Layer 2 as the game blends it (terrain.md §3): the faces with an auxByte again in
// `Terrain_layer2`, one primitive per Land2.wea row, with the type-18 UVs, alpha 1 - w14 per
// corner and the row's ground texture, alpha-blended and lifted above layer 1.
BOOST_AUTO_TEST_CASE(layer_two_blends_over_layer_one_by_the_weights) {
    const fs::path dir = scratch("terrain_layer2");
    Run r = test::mshconv("samples " + q(dir / "game"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const fs::path land = dir / "game" / "DATA" / "MAPS" / "SynTut2" / "Land.msh";
    const fs::path glb = dir / "tut2.glb";
    r = test::mshconv("convert " + q(land) + " " + q(glb));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST(r.out.find("warning") == std::string::npos, r.out);
    const terrain::Terrain t = terrain::read(read_file(land), ReadMode::Strict, "Land.msh");
    const tinygltf::Model m = load_gltf(glb);
    const int n = node_named(m, "Terrain_layer2");
    BOOST_TEST_REQUIRE(n >= 0);
    const tinygltf::Node& node = m.nodes.at(size_t(n));
    BOOST_TEST_REQUIRE(node.translation.size() == 3u);
    BOOST_TEST(node.translation[1] > 0);
    BOOST_TEST(node.translation[1] < 0.5); // under the draped overlay
    const std::map<std::string, std::array<double, 3>> colours = {
        {"DIRT2", {100, 72, 48}}, {"ROCK2", {96, 92, 88}}, {"GRASS3", {70, 110, 45}}};
    // The expected corners, row by row, faces in file order.
    std::vector<double> want_alpha, want_u;
    for (int row = 0; row < terrain::kNoLayer2; ++row)
        for (const terrain::Face& f : t.faces)
            if (f.aux == row)
                for (uint16_t v : f.v) {
                    want_alpha.push_back(1 - double(terrain::weight_value(t.weights[v])));
                    want_u.push_back(msh::decode_uv(t.uv2[v][0]));
                }
    std::vector<double> alpha, u;
    size_t textured = 0;
    for (const tinygltf::Primitive& p : m.meshes.at(size_t(node.mesh)).primitives) {
        const tinygltf::Material& mat = m.materials.at(size_t(p.material));
        BOOST_TEST(mat.alphaMode == "BLEND");
        const auto want = colours.find(mat.name);
        BOOST_TEST_REQUIRE((want != colours.end()), mat.name);
        const int tex = mat.pbrMetallicRoughness.baseColorTexture.index;
        BOOST_TEST_REQUIRE(tex >= 0, mat.name);
        const texm::Image px =
            png::decode(m.images.at(size_t(m.textures.at(size_t(tex)).source)).image).rgba;
        std::array<double, 3> mean{};
        for (size_t i = 0; i < px.rgba.size(); i += 4)
            for (size_t c = 0; c < 3; ++c) mean[c] += px.rgba[i + c] / double(px.width * px.height);
        for (size_t c = 0; c < 3; ++c) BOOST_TEST(std::abs(mean[c] - want->second[c]) < 10);
        ++textured;
        const std::vector<double> rgba = read_accessor(m, p.attributes.at("COLOR_0"));
        for (size_t i = 3; i < rgba.size(); i += 4) alpha.push_back(rgba[i]);
        const std::vector<double> uv = read_accessor(m, p.attributes.at("TEXCOORD_0"));
        for (size_t i = 0; i < uv.size(); i += 2) u.push_back(uv[i]);
    }
    BOOST_TEST(textured == 3u);
    BOOST_TEST_REQUIRE(alpha.size() == want_alpha.size());
    BOOST_TEST_REQUIRE(!alpha.empty());
    for (size_t i = 0; i < alpha.size(); ++i) {
        BOOST_TEST(std::abs(alpha[i] - want_alpha[i]) < 1e-6, "corner " << i);
        BOOST_TEST(u[i] == want_u[i], "corner " << i);
    }
}

BOOST_AUTO_TEST_CASE(sidecar_binds_the_face_fields_and_records_the_sources) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    for (const std::string& name : e.maps) {
        BOOST_TEST_CONTEXT(name) {
            const Bytes msh = read_file(e.land(name));
            const Bytes map_bytes = read_file(e.dir(name) / "Land.map");
            const Bytes text = read_file(e.root / "out" / (name + ".sidecar.json"));
            const auto j = nlohmann::json::parse(text.begin(), text.end());
            BOOST_TEST(j.at("schema") == "mshconv-sidecar/2");
            BOOST_TEST(j.at("kind") == "terrain");
            // No copy of either file: their sizes and hashes, the check of a rebuild.
            BOOST_TEST(!j.contains("land_msh"));
            BOOST_TEST(!j.contains("land_map"));
            BOOST_TEST(j["source"]["size"] == msh.size());
            BOOST_TEST(j["source"]["xxh3_64"] == sidecar::hex64(sidecar::payload_hash(msh)));
            BOOST_TEST(j["map_source"]["size"] == map_bytes.size());
            BOOST_TEST(j["map_source"]["xxh3_64"] ==
                       sidecar::hex64(sidecar::payload_hash(map_bytes)));
            const terrain::Terrain t = terrain::read(msh, ReadMode::Strict, name);
            const auto& rows = j["faces"]["rows"];
            BOOST_TEST_REQUIRE(rows.size() == t.faces.size());
            size_t bad = 0;
            for (size_t f = 0; f < t.faces.size(); ++f) {
                const auto& r = rows[f];
                const terrain::Face& x = t.faces[f];
                if (r[0] != x.flags || r[1] != x.material || r[2] != x.aux || r[3] != x.unk06 ||
                    r[4] != x.v[0] || r[7] != x.n[0] || r[10] != x.normal[0] ||
                    r[13] != x.edge_class || r[14] != x.unk27)
                    ++bad;
            }
            BOOST_TEST(bad == 0u);
            // Positions come from the file: a fingerprint per vertex it holds.
            BOOST_TEST(j["vertices"]["count"] == t.positions.size());
            // The OBJ export's (the last here: it holds the face indices and keeps types 18 and
            // 14 as blocks) take at most 1.37x the two files on these maps; the first layout
            // took 2.4x (both in base64, and the face rows and areals beside them).
            BOOST_TEST(text.size() < (msh.size() + map_bytes.size()) * 7 / 5);
        }
    }
}

BOOST_AUTO_TEST_CASE(obj_has_terrain_groups_and_outline_polylines) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    for (const std::string& name : e.maps) {
        BOOST_TEST_CONTEXT(name) {
            const Bytes b = read_file(e.out(name, ".obj"));
            std::istringstream in(std::string(b.begin(), b.end()));
            std::string line, object;
            size_t faces = 0, lines = 0, v = 0;
            std::vector<std::string> objects;
            bool indices_ok = true;
            while (std::getline(in, line)) {
                if (line.rfind("o ", 0) == 0) objects.push_back(line.substr(2));
                if (line.rfind("v ", 0) == 0) ++v;
                if (line.rfind("f ", 0) == 0) ++faces;
                if (line.rfind("l ", 0) == 0) {
                    ++lines;
                    std::istringstream ls(line.substr(2));
                    size_t i;
                    while (ls >> i) indices_ok = indices_ok && i >= 1 && i <= v;
                }
            }
            const terrain::Terrain t =
                terrain::read(read_file(e.land(name)), ReadMode::Strict, name);
            const arealmap::ArealMap map =
                arealmap::read(read_file(e.dir(name) / "Land.map"), ReadMode::Strict, name);
            BOOST_TEST(faces == t.faces.size()); // no --areal-faces: terrain faces only
            BOOST_TEST(lines == map.areals.size());
            BOOST_TEST(indices_ok);
            BOOST_TEST((objects == std::vector<std::string>{"Terrain", "ArealMap_outlines"}),
                       tt::per_element());
        }
    }
    // --areal-faces adds the filled polygons as a third object.
    const std::string name = e.maps.front();
    const fs::path out = e.root / "out" / "faces.obj";
    const Run r = run(std::string(MSHCONV_BINARY) + " convert " + q(e.land(name)) + " " + q(out) +
                      " --areal-faces --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const Bytes b = read_file(out);
    BOOST_TEST(std::string(b.begin(), b.end()).find("o ArealMap_areas\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(cli_writes_what_the_library_writes) {
    // The fixture exported through conversion::export_terrain; `convert` finds the same level files
    // and must write the same bytes (the fixture's sidecar is its last, .obj, export's; the CLI
    // writes that one as NAME.obj.sidecar.json beside the .glb's).
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    for (const std::string& name : e.maps) {
        const fs::path dir = e.root / "cli" / name;
        fs::create_directories(dir);
        for (const char* ext : {".glb", ".obj"}) {
            const Run r = run(std::string(MSHCONV_BINARY) + " convert " + q(e.land(name)) + " " +
                              q(dir / (name + ext)) + " --quiet");
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            BOOST_TEST((read_file(dir / (name + ext)) == read_file(e.out(name, ext))), name + ext);
        }
        BOOST_TEST((read_file(dir / (name + ".obj.sidecar.json")) == read_file(e.sidecar(name))));
    }
}

BOOST_AUTO_TEST_CASE(a_glb_in_pieces_is_the_whole_glb) {
    // The CLI's export leaves the GLB's binary chunk in the scene's arrays, which the files keep
    // alive after export_terrain returns (the sanitized suite would see a freed array read).
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const std::string name = e.maps.front();
    const Bytes land = read_file(e.land(name)), map = read_file(e.dir(name) / "Land.map");
    conversion::TerrainExportInput in(land, name, conversion::NamedBytes{name + "/Land.map", map});
    conversion::TerrainExportSettings settings;
    const conversion::TerrainExport whole = conversion::encode_terrain(in, settings);
    settings.glb = gltf::Assembly::Pieces;
    const conversion::TerrainExport pieces = conversion::encode_terrain(in, settings);
    BOOST_TEST_REQUIRE(pieces.files.size() == whole.files.size());
    const conversion::OutputFile& glb = pieces.files.back();
    BOOST_TEST(glb.tail.size() > 10u);
    BOOST_TEST(!glb.keep.empty());
    Bytes joined;
    for (const ByteView p : glb.pieces()) joined.insert(joined.end(), p.begin(), p.end());
    BOOST_TEST((joined == whole.files.back().bytes));
    BOOST_TEST(pieces.sidecar.record.written.xxh3_64 == whole.sidecar.record.written.xxh3_64);
    const fs::path dir = e.root / "pieces";
    conversion::write_outputs(dir, pieces.files);
    BOOST_TEST((read_file(dir / glb.name) == whole.files.back().bytes));
}

BOOST_AUTO_TEST_CASE(cli_explicit_level_files_and_missing_map) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const std::string name = e.maps.front();
    // Land.msh alone: terrain without overlay; the level files given by option: overlay back.
    const fs::path lone = e.root / "lone" / "Land.msh";
    fs::create_directories(lone.parent_path());
    fs::copy_file(e.land(name), lone, fs::copy_options::overwrite_existing);
    const fs::path out1 = e.root / "out" / "lone.glb", out2 = e.root / "out" / "given.glb";
    Run r = run(std::string(MSHCONV_BINARY) + " convert " + q(lone) + " " + q(out1) + " --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    tinygltf::Model m = load_gltf(out1);
    BOOST_TEST(node_named(m, mapping::kTerrainNode) >= 0);
    BOOST_TEST(node_named(m, mapping::kArealNode) == -1);
    BOOST_TEST(m.materials.front().name.rfind("land1_row_", 0) == 0u);
    r = run(std::string(MSHCONV_BINARY) + " convert " + q(lone) + " " + q(out2) + " --map " +
            q(e.dir(name) / "Land.map") + " --wear1 " + q(e.dir(name) / "Land1.wea") + " --wear2 " +
            q(e.dir(name) / "Land2.wea") + " --quiet");
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    m = load_gltf(out2);
    BOOST_TEST(node_named(m, mapping::kArealNode) >= 0);
    BOOST_TEST(m.materials.front().name.rfind("land1_row_", 0) != 0u);
}

BOOST_AUTO_TEST_CASE(stress_map_exports_with_32_bit_indices) {
    // The map at the u16 limits: 3 x 65535-ish corners need UNSIGNED_INT indices.
    const samples::MapSpec spec = samples::map_specs(true).back();
    const samples::GeneratedMap g = samples::build_map(spec, 1998);
    mapping::TerrainSceneOptions opt;
    opt.layer1_names = g.layer1;
    const scene::Scene sc = mapping::terrain_to_scene(g.terrain, &g.areal_map, opt);
    size_t corners = 0;
    for (const auto& p : sc.meshes.at(0).primitives) corners += p.indices.size();
    BOOST_TEST(corners == 3 * g.terrain.faces.size());
    const gltf::Encoded glb = gltf::encode(sc, true, "stress.glb");
    tinygltf::Model m;
    tinygltf::TinyGLTF loader;
    std::string err, warn;
    BOOST_TEST_REQUIRE(loader.LoadBinaryFromMemory(&m, &err, &warn, glb.document.data(),
                                                   unsigned(glb.document.size())),
                       err);
    const int ti = node_named(m, mapping::kTerrainNode);
    BOOST_TEST_REQUIRE(ti >= 0);
    for (const auto& p : m.meshes.at(size_t(m.nodes[size_t(ti)].mesh)).primitives)
        if (m.accessors[size_t(p.indices)].count >= 0xFFFF)
            BOOST_TEST(m.accessors[size_t(p.indices)].componentType ==
                       TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
}

BOOST_AUTO_TEST_CASE(triangulation_gives_v_minus_2_ccw_triangles) {
    // A non-convex "L" given clockwise, with a collinear vertex.
    std::vector<arealmap::Vec3> poly = {{0, 0, 0}, {0, 2, 0}, {1, 2, 0}, {1, 1, 0},
                                        {2, 1, 0}, {2, 0, 0}, {1, 0, 0}};
    const auto tris = mapping::triangulate_xy(poly);
    BOOST_TEST(tris.size() == poly.size() - 2);
    double area = 0;
    for (const auto& tri : tris) {
        const auto &a = poly[tri[0]], &b = poly[tri[1]], &c = poly[tri[2]];
        const double cr = (double(b.x) - a.x) * (c.y - a.y) - (double(b.y) - a.y) * (c.x - a.x);
        BOOST_TEST(cr >= 0);
        area += cr / 2;
    }
    BOOST_TEST(area == arealmap::polygon_area_xy(poly), tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(gltf_validator_reports_no_issues) {
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    const fs::path src = MSHCONV_SOURCE_DIR;
    if (run("command -v node").code != 0 || !fs::exists(src / "tools/node/node_modules"))
        BOOST_FAIL("glTF-Validator not installed: needs `node` on PATH and "
                   "`npm install --prefix tools/node` (scripts/install-deps.sh; CI installs them)");
    std::string files;
    for (const std::string& name : e.maps)
        for (const char* ext : {".gltf", ".glb"}) files.append(" ").append(q(e.out(name, ext)));
    const Run r = run(std::string("node ") + q(src / "tools/validate-gltf.mjs") + files);
    BOOST_TEST(r.code == 0, r.out);
    BOOST_TEST(r.out.find(std::to_string(2 * e.maps.size()) +
                          " files, 0 with errors or warnings") != std::string::npos,
               r.out);
}

BOOST_AUTO_TEST_CASE(blender_imports_terrain_and_overlay_as_separate_objects) {
    // Every generated map, in one Blender run.
    const test::MapExports& e = exports();
    BOOST_TEST_REQUIRE(e.failure.empty(), e.failure);
    BOOST_TEST_REQUIRE(e.maps.size() >= 6u);
    const fs::path integration = fs::path(MSHCONV_SOURCE_DIR) / "tests/integration";
    std::string files;
    for (const std::string& m : e.maps) files += " " + q(e.out(m, ".glb"));
    const Run r = run(q(integration / "blender") + " --python " +
                      q(integration / "blender_terrain_check.py") + " --" + files);
    BOOST_TEST(r.code == 0, r.out);
    for (const std::string& m : e.maps)
        BOOST_TEST(r.out.find("blender terrain check " + e.out(m, ".glb").string() + ": OK") !=
                       std::string::npos,
                   m << ": " << r.out);
    BOOST_TEST(r.out.find("blender terrain check: OK, " + std::to_string(e.maps.size()) +
                          " files") != std::string::npos,
               r.out);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace terrain_export_tests
