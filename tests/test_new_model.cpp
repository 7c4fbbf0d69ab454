// Import without a sidecar (mapping/scene_to_new_model.hpp): scenes made from scratch become
// valid MSH models that pass the strict reader without errors.
#include "corpus.hpp"
#include "test_util.hpp"

#include "formats/anim.hpp"
#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "formats/obj.hpp"
#include "mapping/model_to_scene.hpp"
#include "mapping/scene_to_new_model.hpp"
#include "mapping/skin.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdlib>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace new_model_tests {

using namespace msh;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("mshconv-newmodel-" + std::to_string(::getpid()));
    TempDir() { fs::create_directories(path); }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

// Axis-aligned box (glTF frame): 24 vertices with flat normals and UVs, 12 triangles.
scene::Primitive box(std::array<float, 3> c, std::array<float, 3> h, int material) {
    scene::Primitive p;
    p.material = material;
    scene::Attribute pos{3, {}}, nrm{3, {}}, uv{2, {}};
    for (int axis = 0; axis < 3; ++axis)
        for (int sign = -1; sign <= 1; sign += 2) {
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            const uint32_t base = uint32_t(pos.count());
            const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
            for (const auto& k : corners) {
                std::array<float, 3> q{}, n{};
                q[size_t(axis)] = c[size_t(axis)] + float(sign) * h[size_t(axis)];
                q[size_t(u)] = c[size_t(u)] + k[0] * h[size_t(u)];
                q[size_t(v)] = c[size_t(v)] + k[1] * h[size_t(v)];
                n[size_t(axis)] = float(sign);
                pos.data.insert(pos.data.end(), q.begin(), q.end());
                nrm.data.insert(nrm.data.end(), n.begin(), n.end());
                uv.data.insert(uv.data.end(), {(k[0] + 1) / 2, (k[1] + 1) / 2});
            }
            // Outward winding: (u, v) x axis has the sign of the permutation.
            if (sign > 0)
                p.indices.insert(p.indices.end(),
                                 {base, base + 1, base + 2, base, base + 2, base + 3});
            else
                p.indices.insert(p.indices.end(),
                                 {base, base + 2, base + 1, base, base + 3, base + 2});
        }
    p.attributes["POSITION"] = std::move(pos);
    p.attributes["NORMAL"] = std::move(nrm);
    p.attributes["TEXCOORD_0"] = std::move(uv);
    return p;
}

std::array<float, 4> axis_angle(std::array<float, 3> a, double deg) {
    const double h = deg * M_PI / 360.0;
    const float s = float(std::sin(h));
    return {a[0] * s, a[1] * s, a[2] * s, float(std::cos(h))};
}

// body (root) -> turret -> gun; turret rotates, gun slides; keys at 0, 12, 24 frames (24 fps).
scene::Scene hierarchy_scene() {
    scene::Scene s;
    s.materials.resize(2);
    s.materials[0].name = "steel";
    s.materials[1].name = "glass";
    scene::Mesh body{"body", {box({0, 0.5f, 0}, {2, 0.5f, 1.5f}, 0)}, {}, {}};
    scene::Mesh turret{"turret", {box({0, 0.25f, 0}, {0.8f, 0.25f, 0.8f}, 1)}, {}, {}};
    scene::Mesh gun{
        "gun",
        {box({0, 0, 0.6f}, {0.1f, 0.1f, 0.6f}, 0), box({0, 0, 1.3f}, {0.15f, 0.15f, 0.1f}, 1)},
        {},
        {}};
    s.meshes = {body, turret, gun};
    scene::Node n0, n1, n2;
    n0.name = "body";
    n0.mesh = 0;
    n1.name = "turret";
    n1.parent = 0;
    n1.mesh = 1;
    n1.translation = {0, 1, 0};
    n2.name = "gun";
    n2.parent = 1;
    n2.mesh = 2;
    n2.translation = {0, 0.25f, 0.5f};
    s.nodes = {n0, n1, n2};
    scene::Animation an;
    an.name = "timeline";
    scene::Channel rot;
    rot.node = 1;
    rot.path = scene::Path::Rotation;
    rot.times = {0, 0.5f, 1};
    for (double deg : {0.0, 90.0, 180.0}) {
        const auto q = axis_angle({0, 1, 0}, deg);
        rot.values.insert(rot.values.end(), q.begin(), q.end());
    }
    scene::Channel tr;
    tr.node = 2;
    tr.path = scene::Path::Translation;
    tr.times = {0, 0.5f, 1};
    tr.values = {0, 0.25f, 0.5f, 0, 0.25f, 0.2f, 0, 0.3f, 0.5f};
    an.channels = {rot, tr};
    s.animations = {an};
    return s;
}

struct Checked {
    Model model;
    size_t errors = 0, warnings = 0;
    std::string text;
};

Checked strict(const Bytes& image) {
    DiagnosticSink sink(ReadMode::Strict);
    Checked c;
    c.model = read_model(image, sink, "new");
    for (const Diagnostic& d : sink.diagnostics()) {
        (d.severity == Severity::Error ? c.errors : c.warnings)++;
        c.text += d.to_string() + "\n";
    }
    return c;
}

size_t triangles_at(const Model& m, int lod, int group) {
    size_t n = 0;
    for (size_t i = 0; i < m.nodes.size(); ++i)
        if (const Slot* s = m.find_slot(i, lod, group)) n += s->tri_count;
    return n;
}

// Exit code of the mshconv binary under test.
int exit_code(const std::string& args) {
    return test::mshconv(args).code;
}

} // namespace

BOOST_AUTO_TEST_SUITE(new_model)

BOOST_AUTO_TEST_CASE(animated_hierarchy_through_gltf_is_strictly_valid) {
    TempDir dir;
    const scene::Scene src = hierarchy_scene();
    const fs::path file = dir.path / "scratch.gltf";
    gltf::write(src, file);
    DiagnosticSink warnings(ReadMode::Tolerant);
    const scene::Scene in = gltf::read(file, warnings);
    const Bytes image = mapping::build_model(in, {24, file.string()}, warnings);
    BOOST_TEST(warnings.diagnostics().empty());
    const Checked c = strict(image);
    BOOST_TEST(c.errors == 0u, c.text);
    BOOST_TEST(c.warnings == 0u, c.text);
    const Model& m = c.model;
    BOOST_TEST_REQUIRE(m.nodes.size() == 3u);
    BOOST_TEST(m.node_name(0) == "body");
    BOOST_TEST(m.node_name(1) == "turret");
    BOOST_TEST(m.node_name(2) == "gun");
    BOOST_TEST(m.nodes[0].parent == kNone);
    BOOST_TEST(m.nodes[1].parent == 0);
    BOOST_TEST(m.nodes[2].parent == 1);
    BOOST_TEST(m.slots.size() == 3u);
    BOOST_TEST(m.batches.size() == 4u);
    BOOST_TEST(m.triangles.size() == 48u);
    BOOST_TEST(m.batches[1].material == 1);
    BOOST_TEST(m.batches[1].opaque4 == 0xFF01);
    BOOST_TEST(m.animation.frame_count == 25u);
    std::vector<anim::NodeFields> fields;
    for (const Node& n : m.nodes) fields.push_back({n.map_start, n.fallback_key});
    const auto tracks = anim::decompose(m.animation, fields);
    BOOST_TEST(tracks[0].keys.size() == 1u);
    BOOST_TEST(tracks[1].keys.size() == 3u);
    BOOST_TEST(tracks[2].keys.size() == 3u);
    // Every box edge is shared by exactly two triangles: all links set and mutual.
    for (size_t t = 0; t < m.triangles.size(); ++t)
        for (uint16_t l : m.triangles[t].link) {
            BOOST_TEST_REQUIRE(l != kNone);
            const auto& o = m.triangles[l].link;
            BOOST_TEST((o[0] == t || o[1] == t || o[2] == t));
        }
    // The engine sampler at the key frames gives the keys (axis-mapped).
    const auto& an = src.animations[0];
    for (size_t k = 0; k < 3; ++k) {
        const float frame = float(12 * k);
        const anim::Pose turret = anim::sample(m.animation, fields[1], frame);
        const float* q = &an.channels[0].values[4 * k];
        const std::array<float, 4> want{q[0], -q[2], q[1], q[3]};
        double same = 0, flip = 0;
        for (size_t i = 0; i < 4; ++i) {
            same = std::max(same, std::abs(double(turret.rot[i]) - want[i]));
            flip = std::max(flip, std::abs(double(turret.rot[i]) + want[i]));
        }
        BOOST_TEST(std::min(same, flip) < 1e-4, "rotation at frame " << frame);
        BOOST_TEST(std::abs(turret.pos[2] - 1.0f) < 1e-6);
        const anim::Pose gun = anim::sample(m.animation, fields[2], frame);
        const float* t = &an.channels[1].values[3 * k];
        BOOST_TEST(gun.pos[0] == t[0]);
        BOOST_TEST(gun.pos[1] == -t[2]);
        BOOST_TEST(gun.pos[2] == t[1]);
    }
    // Vertices stay node-local and axis-mapped: the body box spans y 0..1 in glTF -> z 0..1.
    BOOST_TEST(m.slots[0].aabb_min[2] == 0.0f);
    BOOST_TEST(m.slots[0].aabb_max[2] == 1.0f);
    BOOST_TEST(m.slots[0].aabb_min[1] == -1.5f);
}

BOOST_AUTO_TEST_CASE(obj_objects_become_nodes_and_material_runs_batches) {
    std::string text = "mtllib m.mtl\n";
    const char* cube = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n";
    const char* faces_a = "f -8 -5 -6 -7\nf -4 -3 -2 -1\nf -8 -7 -3 -4\n";
    const char* faces_b = "f -6 -5 -1 -2\nf -7 -6 -2 -3\nf -5 -8 -4 -1\n";
    text +=
        std::string("o crate\n") + cube + "usemtl wood\n" + faces_a + "usemtl metal\n" + faces_b;
    text += std::string("o barrel\n") + cube + "usemtl metal\n" + faces_a + faces_b;
    text +=
        std::string("o lamp\n") + cube + "usemtl glass\n" + faces_a + "usemtl metal\n" + faces_b;
    const scene::Scene s = obj::read(text, "scratch.obj");
    DiagnosticSink warnings(ReadMode::Tolerant);
    const Bytes image = mapping::build_model(s, {24, "scratch.obj"}, warnings);
    const Checked c = strict(image);
    BOOST_TEST(c.errors == 0u, c.text);
    BOOST_TEST(c.warnings == 0u, c.text);
    BOOST_TEST(c.model.nodes.size() == 3u);
    BOOST_TEST(c.model.batches.size() == 5u);
    BOOST_TEST(c.model.triangles.size() == 36u);
    std::set<std::string> names;
    for (size_t i = 0; i < c.model.nodes.size(); ++i) names.insert(c.model.node_name(i));
    BOOST_TEST((names == std::set<std::string>{"crate", "barrel", "lamp"}));
    // No normals in the OBJ: computed from faces, never zero.
    for (const PackedNormal& n : c.model.normals) BOOST_TEST((n[0] || n[1] || n[2]));
}

BOOST_AUTO_TEST_CASE(skinned_corpus_exports_import_without_sidecar) {
    // Every non-legacy corpus model, exported (lod 0 / group 0, and every slot) as node-parented
    // and as --skin GLB, then imported without its sidecar: same nodes, same triangles per slot.
    TempDir dir;
    size_t models = 0;
    for (const auto& f : test::corpus()) {
        if (f.relative_path.find(".rlb") == std::string::npos) continue;
        nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (!nres::looks_like_nres(e.data)) continue;
            const Model m = read_model(e.data, ReadMode::Strict, e.name());
            if (m.legacy_nodes) continue;
            ++models;
            for (const bool all : {false, true})
                for (const bool skin : {false, true}) {
                    mapping::ExportOptions opt;
                    if (all) opt.lod = opt.group = mapping::kAll;
                    scene::Scene sc = mapping::model_to_scene(m, opt);
                    if (skin) sc = mapping::skin_scene(std::move(sc), m.nodes.size());
                    const fs::path file = dir.path / "m.glb";
                    gltf::write(sc, file);
                    DiagnosticSink warnings(ReadMode::Tolerant);
                    const scene::Scene in = gltf::read(file, warnings);
                    const Bytes image = mapping::build_model(in, {24, file.string()}, warnings);
                    const Checked c = strict(image);
                    const std::string what = f.relative_path + ":" + e.name() +
                                             (all ? " all" : "") + (skin ? " skin" : "");
                    BOOST_TEST(c.errors == 0u, what << "\n" << c.text);
                    BOOST_TEST(c.model.nodes.size() == m.nodes.size(), what);
                    size_t total = 0;
                    for (int lod = 0; lod < kLods; ++lod)
                        for (int group = 0; group < kGroups; ++group) {
                            if (!all && (lod || group)) continue;
                            const size_t want = triangles_at(m, lod, group);
                            total += want;
                            BOOST_TEST(triangles_at(c.model, lod, group) == want,
                                       what << " lod " << lod << " group " << group);
                        }
                    BOOST_TEST(c.model.triangles.size() == total, what);
                }
        }
    }
    BOOST_TEST(models >= 5u);
}

BOOST_AUTO_TEST_CASE(large_primitives_split_into_batches_or_fail_naming_the_limit) {
    auto soup = [](size_t tris) {
        scene::Scene s;
        scene::Primitive p;
        scene::Attribute pos{3, {}};
        for (size_t t = 0; t < tris; ++t) {
            const float x = float(t % 200), y = float(t / 200);
            pos.data.insert(pos.data.end(), {x, 0, y, x + 0.5f, 0, y, x, 0, y + 0.5f});
            for (uint32_t k = 0; k < 3; ++k) p.indices.push_back(uint32_t(3 * t + k));
        }
        p.attributes["POSITION"] = std::move(pos);
        p.material = 0;
        s.meshes.push_back({"soup", {p}, {}, {}});
        scene::Node n;
        n.name = "soup";
        n.mesh = 0;
        s.nodes.push_back(n);
        return s;
    };
    DiagnosticSink warnings(ReadMode::Tolerant);
    const Bytes image = mapping::build_model(soup(22000), {24, "soup"}, warnings); // 66,000 verts
    const Checked c = strict(image);
    BOOST_TEST(c.errors == 0u, c.text);
    BOOST_TEST(c.warnings == 0u, c.text);
    BOOST_TEST(c.model.positions.size() == 66000u);
    BOOST_TEST_REQUIRE(c.model.batches.size() == 2u);
    BOOST_TEST(c.model.batches[0].index_count == 65535u);
    BOOST_TEST(c.model.batches[1].base_vertex == 65535u);
    BOOST_TEST(c.model.triangles.size() == 22000u);
    BOOST_TEST(c.model.slots[0].tri_count == 22000u);
    try {
        mapping::build_model(soup(65536), {24, "soup"}, warnings);
        BOOST_TEST(false, "65,536 triangles accepted");
    } catch (const FormatError& e) {
        BOOST_TEST(std::string(e.what()).find("65,535 triangles") != std::string::npos, e.what());
    }
}

BOOST_AUTO_TEST_CASE(cli_converts_a_gltf_without_sidecar_and_validates_it) {
    TempDir dir;
    gltf::write(hierarchy_scene(), dir.path / "scratch.gltf");
    const std::string in = (dir.path / "scratch.gltf").string();
    const std::string out = (dir.path / "out.msh").string();
    const std::string report = (dir.path / "report.json").string();
    BOOST_TEST(exit_code("convert " + in + " " + out + " --report " + report) == 0);
    BOOST_TEST(exit_code("validate --strict " + out) == 0);
    const Bytes r = read_file(report);
    const auto doc = nlohmann::json::parse(r.begin(), r.end());
    BOOST_TEST(doc["summary"]["nodes"].get<size_t>() == 3u);
    BOOST_TEST(doc["summary"]["animated_nodes"].get<size_t>() == 2u);
    // An OBJ too.
    obj::Files o = obj::write(hierarchy_scene(), "scratch.mtl");
    write_file_atomic(dir.path / "scratch.obj", Bytes(o.obj.begin(), o.obj.end()));
    const std::string out2 = (dir.path / "obj.msh").string();
    BOOST_TEST(exit_code("convert " + (dir.path / "scratch.obj").string() + " " + out2) == 0);
    BOOST_TEST(exit_code("validate --strict " + out2) == 0);
}

BOOST_AUTO_TEST_SUITE_END()

// Blender 3.4 (when installed): two parented cubes with a keyframed rotation, exported GLB with
// sampling off; the child comes first in the file, so the importer must reorder.
BOOST_AUTO_TEST_SUITE(new_model)
BOOST_AUTO_TEST_CASE(blender_made_glb_imports_without_sidecar) {
    TempDir dir;
    const fs::path out = dir.path / "two_cubes.glb";
    const std::string integration = std::string(MSHCONV_SOURCE_DIR) + "/tests/integration/";
    const std::string cmd = "'" + integration + "blender' --python '" + integration +
                            "blender_new_model.py' -- '" + out.string() + "' > /dev/null 2>&1";
    BOOST_TEST_REQUIRE(std::system(cmd.c_str()) == 0, "Blender failed or is missing: " << cmd);
    BOOST_TEST_REQUIRE(fs::exists(out));
    DiagnosticSink warnings(ReadMode::Tolerant);
    const scene::Scene in = gltf::read(out, warnings);
    const Bytes image = mapping::build_model(in, {24, out.string()}, warnings);
    const Checked c = strict(image);
    BOOST_TEST(c.errors == 0u, c.text);
    BOOST_TEST(c.warnings == 0u, c.text);
    const Model& m = c.model;
    BOOST_TEST_REQUIRE(m.nodes.size() == 2u);
    BOOST_TEST(m.node_name(0) == "base");
    BOOST_TEST(m.node_name(1) == "top");
    BOOST_TEST(m.nodes[1].parent == 0);
    BOOST_TEST(m.triangles.size() == 24u);
    BOOST_TEST(m.animation.frame_count == 25u);
    std::vector<anim::NodeFields> fields;
    for (const Node& n : m.nodes) fields.push_back({n.map_start, n.fallback_key});
    BOOST_TEST(anim::decompose(m.animation, fields)[1].keys.size() == 3u);
    // Frame 12: 90 degrees about Blender's (= MSH's) Z axis; the child sits 2 above the base.
    const anim::Pose p = anim::sample(m.animation, fields[1], 12);
    BOOST_TEST(std::abs(std::abs(p.rot[2]) - std::sqrt(0.5f)) < 1e-4);
    BOOST_TEST(std::abs(std::abs(p.rot[3]) - std::sqrt(0.5f)) < 1e-4);
    BOOST_TEST(std::abs(p.pos[2] - 2.0f) < 1e-6);
}
BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(new_model)
// formats/obj's text level, which every OBJ reader uses: signs, relative indices, line numbers.
BOOST_AUTO_TEST_CASE(obj_text_level) {
    const scene::Scene s = obj::read("o quad\nv +0 0 0\nv 1 +0 0\nv 1 1 0\nv 0 1 0\n"
                                     "f -4 -3 -2\r\nf 1 3 4\n",
                                     "quad.obj");
    BOOST_TEST_REQUIRE(s.meshes.size() == 1u);
    BOOST_TEST(s.meshes[0].primitives[0].indices.size() == 6u);
    auto error_of = [](const std::string& text) {
        try {
            obj::read(text, "bad.obj");
        } catch (const FormatError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    BOOST_TEST(error_of("v 0 0 0\nv 1 x 0\n").find("line 2: 'x' is not a number") !=
               std::string::npos);
    BOOST_TEST(error_of("v 0 0 0\nf 1 2 3\n").find("line 2: index 2 is out of range") !=
               std::string::npos);
    BOOST_TEST(error_of("v 0 0\n").find("line 1: expected 3 numbers after 'v'") !=
               std::string::npos);
}
BOOST_AUTO_TEST_SUITE_END()

} // namespace new_model_tests
