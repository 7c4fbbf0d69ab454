// glTF export (mapping/model_to_scene + formats/gltf): the fixture model is exported to .gltf and
// .glb, read back with tinygltf and compared with the decoded MSH vertex for vertex, node for node
// and sample for sample (animation.md §5 sampler vs glTF LINEAR/slerp).
#include "fixtures.hpp"

#include "formats/anim.hpp"
#include "formats/gltf.hpp"
#include "formats/tinygltf.hpp"
#include "formats/wear.hpp"
#include "mapping/model_to_scene.hpp"

#include "corpus.hpp"

#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numbers>
#include <string>
#include <unistd.h>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace gltf_export_tests {

using namespace msh;
namespace fs = std::filesystem;

namespace {

constexpr double kFps = 24;

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("mshconv_gltf_test_" + std::to_string(::getpid()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

tinygltf::Model load_gltf(const fs::path& file) {
    tinygltf::TinyGLTF loader;
    tinygltf::Model m;
    std::string err, warn;
    const bool ok = file.extension() == ".glb"
                        ? loader.LoadBinaryFromFile(&m, &err, &warn, file.string())
                        : loader.LoadASCIIFromFile(&m, &err, &warn, file.string());
    BOOST_TEST_REQUIRE(ok, file.string() << ": " << err);
    BOOST_TEST(warn.empty(), warn);
    return m;
}

// Accessor elements as doubles (float or unsigned integer components), tightly packed or strided.
std::vector<double> read_accessor(const tinygltf::Model& m, int index, int& components) {
    const tinygltf::Accessor& a = m.accessors.at(size_t(index));
    const tinygltf::BufferView& v = m.bufferViews.at(size_t(a.bufferView));
    const tinygltf::Buffer& b = m.buffers.at(size_t(v.buffer));
    components = tinygltf::GetNumComponentsInType(uint32_t(a.type));
    const int csize = tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType));
    const size_t stride = v.byteStride ? v.byteStride : size_t(components * csize);
    std::vector<double> out;
    for (size_t i = 0; i < a.count; ++i)
        for (int c = 0; c < components; ++c) {
            const unsigned char* p =
                b.data.data() + v.byteOffset + a.byteOffset + i * stride + size_t(c * csize);
            BOOST_REQUIRE(p + csize <= b.data.data() + b.data.size());
            switch (a.componentType) {
            case TINYGLTF_COMPONENT_TYPE_FLOAT:
                out.push_back(load<float>(p));
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

std::vector<double> read_accessor(const tinygltf::Model& m, int index) {
    int components = 0;
    return read_accessor(m, index, components);
}

std::array<double, 3> axis3(const std::array<float, 3>& v) {
    return {v[0], v[2], -double(v[1])};
}

std::array<double, 4> unit_quat_gltf(const anim::Quat& q) {
    const double n = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] +
                               double(q[3]) * q[3]);
    if (n == 0) return {0, 0, 0, 1};
    return {q[0] / n, q[2] / n, -q[1] / n, q[3] / n};
}

// Distance between two rotations given as unit quaternions (q and -q are the same rotation).
double quat_distance(const std::array<double, 4>& a, const std::array<double, 4>& b) {
    double dp = 0, dm = 0;
    for (size_t i = 0; i < 4; ++i) {
        dp = std::max(dp, std::abs(a[i] - b[i]));
        dm = std::max(dm, std::abs(a[i] + b[i]));
    }
    return std::min(dp, dm);
}

// glTF 2.0 Appendix C: LINEAR translation, slerp (shorter arc) for rotation, clamped at the ends.
std::vector<double> sample_gltf(const tinygltf::Model& m, const tinygltf::Animation& an, int node,
                                const std::string& path, double t) {
    for (const auto& ch : an.channels) {
        if (ch.target_node != node || ch.target_path != path) continue;
        const auto& s = an.samplers.at(size_t(ch.sampler));
        BOOST_TEST(s.interpolation == "LINEAR");
        const std::vector<double> times = read_accessor(m, s.input);
        int n = 0;
        const std::vector<double> vals = read_accessor(m, s.output, n);
        auto key = [&](size_t k) {
            return std::vector<double>(vals.begin() + long(k * size_t(n)),
                                       vals.begin() + long((k + 1) * size_t(n)));
        };
        if (t <= times.front()) return key(0);
        if (t >= times.back()) return key(times.size() - 1);
        size_t k = 0;
        while (!(t >= times[k] && t < times[k + 1])) ++k;
        const double a = (t - times[k]) / (times[k + 1] - times[k]);
        const std::vector<double> p = key(k), q = key(k + 1);
        std::vector<double> r(static_cast<size_t>(n));
        if (n == 3) {
            for (size_t c = 0; c < 3; ++c) r[c] = p[c] + a * (q[c] - p[c]);
            return r;
        }
        double d = 0;
        for (size_t c = 0; c < 4; ++c) d += p[c] * q[c];
        const double sign = d < 0 ? -1 : 1;
        d = std::min(1.0, std::abs(d));
        const double th = std::acos(d);
        double wa = 1 - a, wb = a;
        if (th > 1e-9)
            wa = std::sin((1 - a) * th) / std::sin(th), wb = std::sin(a * th) / std::sin(th);
        for (size_t c = 0; c < 4; ++c) r[c] = wa * p[c] + sign * wb * q[c];
        return r;
    }
    return {};
}

// The fixture with non-trivial rotations and 3D translations on the animated child.
Model rotated_fixture() {
    Model m = test::make_minimal_model();
    auto rot = [](double angle, std::array<double, 3> axis) {
        const double n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        const double s = std::sin(angle / 2) / n;
        return anim::encode_quat({float(axis[0] * s), float(axis[1] * s), float(axis[2] * s),
                                  float(std::cos(angle / 2))});
    };
    const double pi = std::numbers::pi;
    m.animation.keys[0].rot = rot(pi / 6, {0, 0, 1});
    m.animation.keys[0].pos = {0.25f, -1.5f, 2};
    m.animation.keys[1].rot = rot(pi / 5, {1, 2, 3});
    m.animation.keys[2].rot = rot(pi / 2, {0, 0, 1});
    m.animation.keys[3].rot = rot(0.9 * pi, {1, 0, 0});
    for (size_t k = 1; k < 4; ++k)
        m.animation.keys[k].pos = {float(k), 0.5f * float(k), -0.25f * float(k)};
    return m;
}

void check_geometry(const Model& model, const tinygltf::Model& g) {
    BOOST_TEST(g.asset.generator == "mshconv");
    BOOST_TEST_REQUIRE(g.nodes.size() >= model.nodes.size());
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        BOOST_TEST(g.nodes[i].name.rfind(model.node_name(i), 0) == 0u); // unique-suffixed name
        const Slot* slot = model.find_slot(i, 0, 0);
        std::vector<size_t> drawn; // batches with triangles, in slot order
        if (slot)
            for (size_t bi = slot->batch_start; bi < size_t(slot->batch_start) + slot->batch_count;
                 ++bi)
                if (model.batches[bi].index_count >= 3) drawn.push_back(bi);
        if (drawn.empty()) {
            BOOST_TEST(g.nodes[i].mesh == -1);
            continue;
        }
        BOOST_TEST_REQUIRE(g.nodes[i].mesh >= 0);
        const tinygltf::Mesh& mesh = g.meshes.at(size_t(g.nodes[i].mesh));
        BOOST_TEST_REQUIRE(mesh.primitives.size() == drawn.size());
        for (size_t p = 0; p < mesh.primitives.size(); ++p) {
            const size_t bi = drawn[p];
            const Batch& b = model.batches[bi];
            const tinygltf::Primitive& prim = mesh.primitives[p];
            BOOST_TEST(prim.mode == TINYGLTF_MODE_TRIANGLES);
            BOOST_TEST_REQUIRE(prim.material >= 0);
            BOOST_TEST(g.materials.at(size_t(prim.material)).name ==
                       "mat_" + std::to_string(b.material));
            const std::vector<double> idx = read_accessor(g, prim.indices);
            const std::vector<double> pos = read_accessor(g, prim.attributes.at("POSITION"));
            const std::vector<double> nrm = read_accessor(g, prim.attributes.at("NORMAL"));
            const std::vector<double> uv0 = read_accessor(g, prim.attributes.at("TEXCOORD_0"));
            const std::vector<double> uv1 = read_accessor(g, prim.attributes.at("TEXCOORD_1"));
            BOOST_TEST_REQUIRE(idx.size() == b.index_count);
            // Exact POSITION min/max.
            const tinygltf::Accessor& pa = g.accessors.at(size_t(prim.attributes.at("POSITION")));
            for (size_t c = 0; c < 3; ++c) {
                double mn = 1e300, mx = -1e300;
                for (size_t v = c; v < pos.size(); v += 3)
                    mn = std::min(mn, pos[v]), mx = std::max(mx, pos[v]);
                BOOST_TEST(pa.minValues.at(c) == mn);
                BOOST_TEST(pa.maxValues.at(c) == mx);
            }
            for (size_t k = 0; k < idx.size(); ++k) {
                const size_t gv = size_t(idx[k]);
                const uint32_t v = b.base_vertex + model.indices[b.index_start + k];
                // Identity route: TEXCOORD_1 = (Res3 index, batch index).
                BOOST_TEST(uv1.at(2 * gv) == double(v));
                BOOST_TEST(uv1.at(2 * gv + 1) == double(bi));
                const Vec3& src = model.positions[v];
                const auto e = axis3({src.x, src.y, src.z});
                for (size_t c = 0; c < 3; ++c) BOOST_TEST(pos.at(3 * gv + c) == e[c]);
                const PackedNormal& pn = model.normals[v];
                auto en = axis3({decode_normal_component(pn[0]), decode_normal_component(pn[1]),
                                 decode_normal_component(pn[2])});
                const double len = std::sqrt(en[0] * en[0] + en[1] * en[1] + en[2] * en[2]);
                for (size_t c = 0; c < 3; ++c)
                    BOOST_TEST(std::abs(nrm.at(3 * gv + c) - en[c] / len) < 1e-6);
                BOOST_TEST(uv0.at(2 * gv) == double(decode_uv(model.uvs[v][0])));
                BOOST_TEST(uv0.at(2 * gv + 1) == double(decode_uv(model.uvs[v][1])));
            }
        }
    }
    // Node tree == Res1 parents.
    std::vector<int> parent(g.nodes.size(), -1);
    for (size_t n = 0; n < g.nodes.size(); ++n)
        for (int c : g.nodes[n].children) parent.at(size_t(c)) = int(n);
    for (size_t i = 0; i < model.nodes.size(); ++i)
        BOOST_TEST(parent[i] == (model.nodes[i].parent == kNone ? -1 : int(model.nodes[i].parent)));
    BOOST_TEST_REQUIRE(g.scenes.size() == 1u);
    for (int r : g.scenes[0].nodes) BOOST_TEST(parent.at(size_t(r)) == -1);
}

void check_animation(const Model& model, const tinygltf::Model& g) {
    std::vector<anim::NodeFields> fields;
    for (const Node& n : model.nodes) fields.push_back({n.map_start, n.fallback_key});
    const std::vector<anim::Track> tracks = anim::decompose(model.animation, fields);
    BOOST_TEST_REQUIRE(g.animations.size() == 1u);
    const tinygltf::Animation& an = g.animations[0];
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        size_t channels = 0;
        for (const auto& ch : an.channels) {
            if (ch.target_node != int(i)) continue;
            ++channels;
            const auto& s = an.samplers.at(size_t(ch.sampler));
            const std::vector<double> times = read_accessor(g, s.input);
            BOOST_TEST_REQUIRE(times.size() == tracks[i].keys.size());
            for (size_t k = 0; k < times.size(); ++k)
                BOOST_TEST(times[k] == double(float(double(tracks[i].keys[k].time) / kFps)));
            if (ch.target_path == "rotation") {
                const std::vector<double> q = read_accessor(g, s.output);
                for (size_t k = 1; k < times.size(); ++k) {
                    double d = 0;
                    for (size_t c = 0; c < 4; ++c) d += q[4 * k + c] * q[4 * (k - 1) + c];
                    BOOST_TEST(d >= 0); // hemisphere-continuous
                }
            }
        }
        BOOST_TEST(channels == (model.nodes[i].map_start == kNone ? 0u : 2u));
        // Rest pose = first key.
        const anim::Key& k0 = tracks[i].keys.front();
        const auto& n = g.nodes[i];
        const auto et = axis3(k0.pos);
        const auto er = unit_quat_gltf(anim::decode_quat(k0.rot));
        std::array<double, 3> t{0, 0, 0};
        std::array<double, 4> r{0, 0, 0, 1};
        if (!n.translation.empty()) t = {n.translation[0], n.translation[1], n.translation[2]};
        if (!n.rotation.empty()) r = {n.rotation[0], n.rotation[1], n.rotation[2], n.rotation[3]};
        for (size_t c = 0; c < 3; ++c) BOOST_TEST(t[c] == et[c]);
        BOOST_TEST(quat_distance(r, er) < 1e-6);
    }
    // Sampling: engine sampler vs glTF LINEAR/slerp, between keys and past the end.
    const int steps = int(model.animation.frame_count + 3) * 20;
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        if (model.nodes[i].map_start == kNone) continue;
        for (int step = 0; step <= steps; ++step) {
            const float frame = float(step) * 0.05f; // 0 .. frame count + 3
            const anim::Pose pose = anim::sample(model.animation, fields[i], frame);
            const double t = double(frame) / kFps;
            const std::vector<double> gt = sample_gltf(g, an, int(i), "translation", t);
            const std::vector<double> gr = sample_gltf(g, an, int(i), "rotation", t);
            BOOST_TEST_REQUIRE(gt.size() == 3u);
            BOOST_TEST_REQUIRE(gr.size() == 4u);
            const auto et = axis3(pose.pos);
            for (size_t c = 0; c < 3; ++c)
                BOOST_TEST(std::abs(gt[c] - et[c]) < 1e-5, "frame " << frame);
            const double dist =
                quat_distance({gr[0], gr[1], gr[2], gr[3]}, unit_quat_gltf(pose.rot));
            BOOST_TEST(dist < 1e-5, "frame " << frame << " rotation differs by " << dist);
        }
    }
}

void export_and_check(const Model& model, const std::string& name) {
    TempDir dir;
    mapping::ExportOptions opt;
    opt.fps = kFps;
    const scene::Scene sc = mapping::model_to_scene(model, opt);
    for (const char* ext : {".gltf", ".glb"}) {
        const fs::path out = dir.path / (name + ext);
        gltf::write(sc, out);
        BOOST_TEST_REQUIRE(fs::exists(out));
        if (std::string(ext) == ".gltf") BOOST_TEST(fs::exists(dir.path / (name + ".bin")));
        // MSHCONV_GLTF_EXPORT_DIR=DIR keeps a copy for tools/validate-gltf.mjs.
        if (const char* keep = std::getenv("MSHCONV_GLTF_EXPORT_DIR"))
            gltf::write(sc, fs::path(keep) / (name + ext));
        const tinygltf::Model g = load_gltf(out);
        check_geometry(model, g);
        if (model.animation.frame_count > 1) check_animation(model, g);
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(gltf_export)

BOOST_AUTO_TEST_CASE(every_corpus_model_exports_exactly) {
    size_t checked = 0;
    for (const auto& f : test::corpus()) {
        if (f.relative_path.find(".rlb") == std::string::npos) continue;
        nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (!nres::looks_like_nres(e.data)) continue;
            const Model m = read_model(e.data, ReadMode::Strict, e.name());
            if (m.legacy_nodes) {
                // One root node drawing every batch in order.
                const scene::Scene sc = mapping::model_to_scene(m, {});
                BOOST_TEST(sc.nodes.size() == 1u);
                size_t tris = 0;
                for (const auto& p : sc.meshes.at(0).primitives) tris += p.indices.size() / 3;
                BOOST_TEST(tris == m.indices.size() / 3);
                continue;
            }
            BOOST_TEST_CONTEXT(f.relative_path << ":" << e.name()) {
                export_and_check(m, "corpus");
            }
            ++checked;
        }
    }
    BOOST_TEST(checked >= 60u);
}

BOOST_AUTO_TEST_CASE(fixture_round_trip_through_gltf_and_glb) {
    export_and_check(test::make_minimal_model(), "fixture");
}

BOOST_AUTO_TEST_CASE(rotated_animation_matches_engine_sampler) {
    export_and_check(rotated_fixture(), "rotated");
}

BOOST_AUTO_TEST_CASE(sign_flipped_key_is_made_continuous) {
    // A stored key with the opposite sign (same rotation) is negated in glTF; the engine sampler
    // would slerp the long way there (no shortest-arc flip), so only the keys are compared.
    Model m = rotated_fixture();
    for (auto& c : m.animation.keys[2].rot) c = int16_t(-c);
    mapping::ExportOptions opt;
    const scene::Scene sc = mapping::model_to_scene(m, opt);
    BOOST_TEST_REQUIRE(sc.animations.size() == 1u);
    for (const scene::Channel& ch : sc.animations[0].channels) {
        if (ch.path != scene::Path::Rotation) continue;
        BOOST_TEST_REQUIRE(ch.values.size() == 12u);
        for (size_t k = 1; k < 3; ++k) {
            double d = 0;
            for (size_t c = 0; c < 4; ++c)
                d += double(ch.values[4 * k + c]) * ch.values[4 * (k - 1) + c];
            BOOST_TEST(d >= 0);
        }
        const auto e = unit_quat_gltf(anim::decode_quat(m.animation.keys[2].rot));
        for (size_t c = 0; c < 4; ++c) BOOST_TEST(std::abs(ch.values[4 + c] + e[c]) < 1e-6);
    }
}

BOOST_AUTO_TEST_CASE(lod_and_group_slots_become_child_nodes) {
    Model m = test::make_minimal_model();
    // Give node 1 a lod 1 / group 4 slot that reuses its batch.
    m.slots.push_back(m.slots[1]);
    m.nodes[1].slots[size_t(1 * kGroups + 4)] = uint16_t(m.slots.size() - 1);
    mapping::ExportOptions opt;
    opt.lod = mapping::kAll;
    opt.group = mapping::kAll;
    const scene::Scene sc = mapping::model_to_scene(m, opt);
    BOOST_TEST_REQUIRE(sc.nodes.size() == 3u);
    BOOST_TEST(sc.nodes[2].name == m.node_name(1) + "@lod1g4");
    BOOST_TEST(sc.nodes[2].parent == 1);
    BOOST_TEST(sc.nodes[2].identity.lod.value().get() == 1);
    BOOST_TEST(sc.nodes[2].identity.group.value().get() == 4);
    BOOST_TEST(sc.meshes.size() == 3u);
    opt.lod = 0;
    opt.group = 0;
    BOOST_TEST(mapping::model_to_scene(m, opt).nodes.size() == 2u);
}

BOOST_AUTO_TEST_CASE(duplicate_node_names_are_made_unique) {
    Model m = test::make_minimal_model();
    m.node_strings = {{true, "part"}, {true, "part"}};
    const scene::Scene sc = mapping::model_to_scene(m, {});
    BOOST_TEST(sc.nodes[0].name == "part");
    BOOST_TEST(sc.nodes[1].name == "part_2");
}

BOOST_AUTO_TEST_CASE(zero_normal_gets_face_normal) {
    Model m = test::make_minimal_model();
    m.normals[0] = {0, 0, 0, 0};
    const scene::Scene sc = mapping::model_to_scene(m, {});
    const scene::Attribute& n = sc.meshes.at(0).primitives.at(0).attributes.at("NORMAL");
    for (size_t v = 0; v < n.count(); ++v) {
        const double len = std::sqrt(double(n.data[3 * v]) * n.data[3 * v] +
                                     double(n.data[3 * v + 1]) * n.data[3 * v + 1] +
                                     double(n.data[3 * v + 2]) * n.data[3 * v + 2]);
        BOOST_TEST(std::abs(len - 1) < 1e-6);
    }
}

BOOST_AUTO_TEST_CASE(wear_names_materials) {
    const std::string text = "2\r\n0 METAL_1\r\n7 GLASS\r\n\r\nLIGHTMAPS\r\n1\r\n0 LM_1\r\n";
    const wear::Wear w = wear::read(Bytes(text.begin(), text.end()), "test.wea");
    BOOST_TEST(wear::material_names(w) == (std::vector<std::string>{"METAL_1", "GLASS"}),
               boost::test_tools::per_element());
    BOOST_TEST(w.materials[1].legacy_id == 7);
    BOOST_TEST_REQUIRE(w.lightmaps.size() == 1u);
    BOOST_TEST(w.lightmaps[0].name == "LM_1");
    const std::string short_list = "3\r\n0 A\r\n1 B\r\n";
    BOOST_CHECK_THROW(wear::read(Bytes(short_list.begin(), short_list.end()), "short.wea"),
                      FormatError);
    const std::string zero = "0\r\n";
    BOOST_CHECK_THROW(wear::read(Bytes(zero.begin(), zero.end()), "zero.wea"), FormatError);

    mapping::ExportOptions opt;
    opt.material_names = wear::material_names(w);
    const scene::Scene sc = mapping::model_to_scene(test::make_minimal_model(), opt);
    BOOST_TEST_REQUIRE(sc.materials.size() == 2u);
    BOOST_TEST(sc.materials[0].name == "METAL_1");
    BOOST_TEST(sc.materials[1].identity.wear_row.value_or(-1) == 1);
}

BOOST_AUTO_TEST_CASE(static_model_has_no_animation) {
    Model m = test::make_minimal_model();
    m.nodes[1].map_start = kNone;
    m.nodes[1].fallback_key = 1;
    m.nodes[0].fallback_key = 0;
    m.animation.keys = {m.animation.keys[0], m.animation.keys[1]};
    m.animation.words.clear();
    m.animation.frame_count = 1;
    const scene::Scene sc = mapping::model_to_scene(m, {});
    BOOST_TEST(sc.animations.empty());
    BOOST_TEST(sc.nodes[1].translation[0] == 1.0f);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace gltf_export_tests
