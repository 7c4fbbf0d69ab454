// Topology edits with a sidecar (issue 4): deleted and added triangles, new vertices, UV seams,
// new and removed parts, OBJ edits and the format limits. Every result must pass the strict
// reader, keep its Res7 adjacency mutual and keep what the edit did not touch.
#include "import_fixtures.hpp"

#include "formats/obj.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace topology_tests {

using namespace msh;
using namespace msh::test;

namespace {

Model read_strict(const Bytes& image, const std::string& what) {
    DiagnosticSink sink(ReadMode::Strict);
    Model m = read_model(image, sink, what);
    BOOST_TEST(
        !sink.has_errors(),
        what << ": "
             << (sink.has_errors() ? sink.diagnostics().front().to_string() : std::string()));
    return m;
}

std::array<uint32_t, 3> corners(const Model& m, size_t t, size_t* batch_out = nullptr) {
    size_t tri = 0;
    for (size_t b = 0; b < m.batches.size(); ++b) {
        const Batch& bt = m.batches[b];
        if (t < tri + bt.index_count / 3) {
            const size_t k = t - tri;
            if (batch_out) *batch_out = b;
            return {bt.base_vertex + m.indices[bt.index_start + 3 * k],
                    bt.base_vertex + m.indices[bt.index_start + 3 * k + 1],
                    bt.base_vertex + m.indices[bt.index_start + 3 * k + 2]};
        }
        tri += bt.index_count / 3;
    }
    throw std::runtime_error("triangle outside the batches");
}

bool same_pos(const Vec3& a, const Vec3& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

// Problems in Res7 adjacency: a link must be mutual and cross an edge both triangles share (by
// position). Returns the number of links checked through `links`.
size_t adjacency_problems(const Model& m, size_t* links = nullptr) {
    size_t bad = 0, checked = 0;
    for (size_t t = 0; t < m.triangles.size(); ++t)
        for (size_t e = 0; e < 3; ++e) {
            const uint16_t n = m.triangles[t].link[e];
            if (n == kNone) continue;
            ++checked;
            const auto a = corners(m, t), b = corners(m, n);
            const Vec3 &p = m.positions[a[e]], &q = m.positions[a[(e + 1) % 3]];
            bool back = false;
            for (size_t f = 0; f < 3; ++f)
                if (m.triangles[n].link[f] == t) {
                    const Vec3 &r = m.positions[b[f]], &s = m.positions[b[(f + 1) % 3]];
                    back = back || (same_pos(p, r) && same_pos(q, s)) ||
                           (same_pos(p, s) && same_pos(q, r));
                }
            bad += !back;
        }
    if (links) *links = checked;
    return bad;
}

// Res3 index of the vertex a TEXCOORD_1 identity names.
uint32_t vid_of(const scene::Primitive& p, size_t v) {
    return uint32_t(p.attributes.at("TEXCOORD_1").data[2 * v]);
}

// Appends a vertex copied from vertex `from` of the primitive (all attributes) and returns it.
uint32_t append_vertex(scene::Primitive& p, size_t from) {
    for (auto& [name, a] : p.attributes)
        for (int c = 0; c < a.components; ++c)
            a.data.push_back(a.data[from * size_t(a.components) + size_t(c)]);
    return uint32_t(p.attributes.at("POSITION").count() - 1);
}

// glTF (x, y, z) -> MSH (x, -z, y).
std::array<float, 3> from_gltf_position(const std::array<float, 3>& g) {
    return {g[0], -g[2], g[1]};
}

size_t triangles_of(const Model& m) {
    return m.triangles.size();
}

} // namespace

BOOST_AUTO_TEST_SUITE(topology)

BOOST_AUTO_TEST_CASE(deleting_a_triangle_works_for_every_corpus_model) {
    TempDir dir;
    size_t models = 0, refused_legacy = 0;
    for (const auto& f : corpus()) {
        if (f.relative_path.find(".rlb") == std::string::npos) continue;
        const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (!nres::looks_like_nres(e.data)) continue;
            const Model orig = read_model(e.data, ReadMode::Strict, e.name());
            for (const Variant& v : {kVariants[0], kVariants[1], kVariants[2]}) {
                Exported x = export_model(orig, e.data.to_bytes(), v);
                if (x.scene.meshes.empty()) continue;
                auto& idx = x.scene.meshes.front().primitives.front().indices;
                idx.erase(idx.end() - 3, idx.end());
                const std::string what = f.relative_path + ":" + e.name() + " " + v.name;
                if (orig.legacy_nodes) {
                    BOOST_CHECK_THROW(import_gltf(x.scene, x.sidecar, dir.path / "t.glb"),
                                      FormatError);
                    ++refused_legacy;
                    continue;
                }
                const Model m =
                    read_strict(import_gltf(x.scene, x.sidecar, dir.path / "t.glb"), what);
                BOOST_TEST(triangles_of(m) + 1 == triangles_of(orig), what);
                BOOST_TEST(adjacency_problems(m) == 0u, what);
                // Untouched resources keep their bytes.
                for (ResType t : {kKeys, kFrameMap, kNodeStrings, kPathGraph})
                    if (orig.entry(t))
                        BOOST_TEST((m.entry(t)->data == orig.entry(t)->data), what << " Res" << t);
                ++models;
            }
        }
    }
    BOOST_TEST(models >= 150u);
    BOOST_TEST(refused_legacy >= 1u);
}

BOOST_AUTO_TEST_CASE(deleted_triangle_keeps_every_other_record) {
    Picked p = pick(false);
    Exported x = export_model(p.model, p.image, kVariants[0]);
    scene::Primitive& prim = x.scene.meshes.at(0).primitives.at(0);
    const size_t batch = size_t(prim.attributes["TEXCOORD_1"].data[1]);
    // Delete the first triangle of the batch.
    prim.indices.erase(prim.indices.begin(), prim.indices.begin() + 3);
    TempDir dir;
    const Model m = read_strict(import_gltf(x.scene, x.sidecar, dir.path / "d.glb"), "deleted");
    BOOST_TEST(m.batches.size() == p.model.batches.size());
    BOOST_TEST(m.batches[batch].index_count + 3 == p.model.batches[batch].index_count);
    // The removed descriptor is the batch's first; all others keep flags, selectors and normals.
    size_t first = 0;
    for (size_t b = 0; b < batch; ++b) first += p.model.batches[b].index_count / 3;
    for (size_t t = 0, u = 0; t < p.model.triangles.size(); ++t) {
        if (t == first) continue;
        BOOST_TEST(m.triangles[u].flags == p.model.triangles[t].flags);
        BOOST_TEST(m.triangles[u].selectors == p.model.triangles[t].selectors);
        BOOST_TEST((m.triangles[u].normal == p.model.triangles[t].normal));
        ++u;
    }
    // Links that pointed at the removed triangle are open now; the rest stay mutual.
    for (const TriDesc& d : m.triangles)
        for (uint16_t l : d.link) BOOST_TEST((l == kNone || l < m.triangles.size()));
    BOOST_TEST(adjacency_problems(m) == 0u);
    // Batches before the edited one keep their ranges.
    for (size_t b = 0; b < batch; ++b)
        BOOST_TEST(m.batches[b].index_start == p.model.batches[b].index_start);
}

BOOST_AUTO_TEST_CASE(poked_face_adds_a_vertex_and_links_to_the_old_neighbours) {
    Picked p = pick(false);
    Exported x = export_model(p.model, p.image, kVariants[0]);
    scene::Primitive& prim = x.scene.meshes.at(0).primitives.at(0);
    const size_t batch = size_t(prim.attributes["TEXCOORD_1"].data[1]);
    // Triangle 0 (a, b, c) becomes a fan around a new vertex lifted off its plane. The new vertex
    // is a copy of corner a (a DCC's duplicate claims a's identity) moved away.
    const uint32_t a = prim.indices[0], b = prim.indices[1], c = prim.indices[2];
    const uint32_t src_vid = vid_of(prim, a);
    const uint32_t nv = append_vertex(prim, a);
    auto& pos = prim.attributes["POSITION"].data;
    pos[3 * nv] += 0.25f, pos[3 * nv + 1] += 0.5f, pos[3 * nv + 2] -= 0.125f;
    prim.indices.erase(prim.indices.begin(), prim.indices.begin() + 3);
    prim.indices.insert(prim.indices.end(), {a, b, nv, b, c, nv, c, a, nv});
    TempDir dir;
    const Model m = read_strict(import_gltf(x.scene, x.sidecar, dir.path / "a.glb"), "poked");
    BOOST_TEST(m.triangles.size() == p.model.triangles.size() + 2);
    BOOST_TEST(m.positions.size() == p.model.positions.size() + 1);
    BOOST_TEST(m.batches[batch].index_count == p.model.batches[batch].index_count + 6);
    // The new vertex (last corner of the batch) copies its source's Res15 record.
    const Batch& bt = m.batches[batch];
    const uint32_t newv = bt.base_vertex + m.indices[bt.index_start + bt.index_count - 1];
    const auto want = from_gltf_position({pos[3 * nv], pos[3 * nv + 1], pos[3 * nv + 2]});
    BOOST_TEST(m.positions[newv].x == want[0]);
    BOOST_TEST(m.positions[newv].y == want[1]);
    BOOST_TEST(m.positions[newv].z == want[2]);
    const auto* r15 = m.entry(kVertexStream15);
    const auto* o15 = p.model.entry(kVertexStream15);
    BOOST_REQUIRE(r15 && o15);
    BOOST_TEST(r15->data.size() == 8 * m.positions.size());
    BOOST_TEST(std::memcmp(r15->data.data() + 8 * newv, o15->data.data() + 8 * src_vid, 8) == 0);
    // The three new triangles close the hole: linked to each other and to every neighbour the
    // old triangle had, mutually; face normals by the rule.
    size_t first = 0;
    for (size_t i = 0; i < batch; ++i) first += m.batches[i].index_count / 3;
    const size_t t_new = first + bt.index_count / 3 - 3;
    size_t old_links = 0, new_links = 0;
    for (uint16_t l : p.model.triangles[first].link) old_links += l != kNone;
    for (size_t t = t_new; t < t_new + 3; ++t) {
        for (uint16_t l : m.triangles[t].link) new_links += l != kNone;
        BOOST_TEST(m.triangles[t].selectors == 0x3F);
        const auto cs = corners(m, t);
        const Vec3 &p0 = m.positions[cs[0]], &p1 = m.positions[cs[1]], &p2 = m.positions[cs[2]];
        const double e1[3] = {double(p1.x) - p0.x, double(p1.y) - p0.y, double(p1.z) - p0.z};
        const double e2[3] = {double(p2.x) - p0.x, double(p2.y) - p0.y, double(p2.z) - p0.z};
        const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                             e1[0] * e2[1] - e1[1] * e2[0]};
        const double l = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (size_t k = 0; k < 3; ++k)
            BOOST_TEST(m.triangles[t].normal[k] == std::lround(n[k] / l * 32767));
    }
    BOOST_TEST(new_links == old_links + 6);
    BOOST_TEST(adjacency_problems(m) == 0u);
    // The source vertex itself did not move.
    BOOST_TEST(same_pos(m.positions[src_vid], p.model.positions[src_vid]));
}

BOOST_AUTO_TEST_CASE(a_new_uv_seam_splits_the_vertex) {
    Picked p = pick(false);
    Exported x = export_model(p.model, p.image, kVariants[0]);
    scene::Primitive& prim = x.scene.meshes.at(0).primitives.at(0);
    const uint32_t a = prim.indices[0];
    const uint32_t vid = vid_of(prim, a);
    // Triangle 0 gets its own copy of corner 0 with another UV (what a DCC writes for a seam).
    const uint32_t copy = append_vertex(prim, a);
    prim.attributes["TEXCOORD_0"].data[2 * copy] += 0.5f;
    prim.indices[0] = copy;
    TempDir dir;
    const Model m = read_strict(import_gltf(x.scene, x.sidecar, dir.path / "s.glb"), "seam");
    BOOST_TEST(m.positions.size() == p.model.positions.size() + 1);
    BOOST_TEST(m.triangles.size() == p.model.triangles.size());
    size_t batch = 0;
    size_t first = 0;
    for (size_t t = 0; t < m.triangles.size(); ++t) {
        size_t b = 0;
        corners(m, t, &b);
        if (b == size_t(prim.attributes["TEXCOORD_1"].data[1])) {
            first = t;
            batch = b;
            break;
        }
    }
    const auto c = corners(m, first);
    const uint32_t split = c[0] == vid ? c[1] : c[0]; // triangle 0 no longer uses vid at corner 0
    (void)batch;
    BOOST_TEST(split != vid);
    BOOST_TEST(same_pos(m.positions[split], p.model.positions[vid]));
    BOOST_TEST(m.uvs[split][0] == p.model.uvs[vid][0] + 512);
    BOOST_TEST(m.uvs[vid][0] == p.model.uvs[vid][0]);
    // Same position: the seam does not open the mesh.
    BOOST_TEST(adjacency_problems(m) == 0u);
    for (size_t t = 0; t < m.triangles.size(); ++t)
        BOOST_TEST((m.triangles[t].link == p.model.triangles[t].link),
                   "triangle " << t << ": " << m.triangles[t].link[0] << " "
                               << m.triangles[t].link[1] << " " << m.triangles[t].link[2] << " was "
                               << p.model.triangles[t].link[0] << " "
                               << p.model.triangles[t].link[1] << " "
                               << p.model.triangles[t].link[2]);
}

BOOST_AUTO_TEST_CASE(new_part_becomes_a_new_node_with_its_own_slot) {
    Picked p = pick(true, 3);
    Exported x = export_model(p.model, p.image, kVariants[0]);
    // A tetrahedron node under node 1, without vertex identity, using the first material.
    scene::Mesh mesh;
    mesh.name = "antenna";
    scene::Primitive prim;
    prim.attributes["POSITION"] = {3, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}};
    prim.indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    prim.material = 0;
    mesh.primitives.push_back(prim);
    x.scene.meshes.push_back(mesh);
    scene::Node node;
    node.name = "antenna";
    node.parent = 1;
    node.translation = {0.5f, 2.0f, 0.25f};
    node.mesh = int(x.scene.meshes.size() - 1);
    x.scene.nodes.push_back(node);
    TempDir dir;
    const Model m = read_strict(import_gltf(x.scene, x.sidecar, dir.path / "n.glb"), "new part");
    const size_t k = p.model.nodes.size();
    BOOST_REQUIRE(m.nodes.size() == k + 1);
    BOOST_TEST(m.nodes[k].parent == 1);
    BOOST_TEST(m.node_name(k) == "antenna");
    const uint16_t s = m.nodes[k].slot(0, 0);
    BOOST_REQUIRE(s != kNone);
    BOOST_TEST(m.slots.size() == p.model.slots.size() + 1);
    BOOST_TEST(m.slots[s].tri_count == 4);
    BOOST_TEST(m.slots[s].aabb_max[0] == 1.0f);
    BOOST_TEST(m.positions.size() == p.model.positions.size() + 4);
    BOOST_TEST(m.triangles.size() == p.model.triangles.size() + 4);
    BOOST_TEST(adjacency_problems(m) == 0u);
    // Closed tetrahedron: every edge linked.
    for (size_t t = m.slots[s].tri_start; t < size_t(m.slots[s].tri_start) + 4; ++t)
        for (uint16_t l : m.triangles[t].link) BOOST_TEST(l != kNone);
    // Its rest pose is the node's translation (glTF (x, y, z) = MSH (x, -z, y)); the other
    // nodes keep their tracks.
    std::vector<anim::NodeFields> fields;
    for (const Node& n : m.nodes) fields.push_back({n.map_start, n.fallback_key});
    const auto tracks = anim::decompose(m.animation, fields);
    BOOST_TEST(tracks[k].keys.front().pos[0] == 0.5f);
    BOOST_TEST(tracks[k].keys.front().pos[1] == -0.25f);
    BOOST_TEST(tracks[k].keys.front().pos[2] == 2.0f);
    std::vector<anim::NodeFields> ofields;
    for (const Node& n : p.model.nodes) ofields.push_back({n.map_start, n.fallback_key});
    const auto otracks = anim::decompose(p.model.animation, ofields);
    for (size_t i = 0; i < k; ++i) BOOST_TEST(tracks[i].keys.size() == otracks[i].keys.size());
}

BOOST_AUTO_TEST_CASE(removed_part_keeps_its_node_and_drops_its_slot) {
    Picked p = pick(false, 2);
    Exported x = export_model(p.model, p.image, kVariants[0]);
    // The last node with geometry loses its mesh.
    size_t victim = 0;
    for (size_t i = 0; i < p.model.nodes.size(); ++i)
        if (x.scene.nodes[i].mesh >= 0) victim = i;
    const uint16_t slot = p.model.nodes[victim].slot(0, 0);
    x.scene.nodes[victim].mesh = -1;
    TempDir dir;
    const Model m = read_strict(import_gltf(x.scene, x.sidecar, dir.path / "r.glb"), "removed");
    BOOST_TEST(m.nodes.size() == p.model.nodes.size());
    BOOST_TEST(m.nodes[victim].slot(0, 0) == kNone);
    BOOST_TEST(m.slots.size() == p.model.slots.size() - 1);
    BOOST_TEST(m.triangles.size() == p.model.triangles.size() - p.model.slots[slot].tri_count);
    BOOST_TEST(adjacency_problems(m) == 0u);
    // Other slots keep their bounds.
    for (size_t s = 0, u = 0; s < p.model.slots.size(); ++s) {
        if (s == slot) continue;
        BOOST_TEST((m.slots[u].aabb_min == p.model.slots[s].aabb_min));
        BOOST_TEST((m.slots[u].tail == p.model.slots[s].tail));
        ++u;
    }
}

BOOST_AUTO_TEST_CASE(obj_with_a_deleted_face_and_a_new_object) {
    Picked p = pick(false);
    Exported x = export_model(p.model, p.image, kVariants[0]);
    const obj::Files files = obj::write(x.scene, "m.mtl");
    std::string text = files.obj;
    // Delete the first face line; add an object with one triangle in the first material.
    const size_t f = text.find("\nf ");
    text.erase(f + 1, text.find('\n', f + 1) - f);
    const size_t mtl = text.find("usemtl ");
    const std::string material = text.substr(mtl + 7, text.find('\n', mtl) - mtl - 7);
    text += "o newpart\nv 10 0 0\nv 11 0 0\nv 10 1 0\nusemtl " + material + "\nf -3 -2 -1\n";
    const scene::Scene in = obj::read(text, "edited.obj");
    const Model m = read_strict(
        mapping::import_scene(in, obj_sidecar(p.image, kVariants[0]), true, "edited.obj").image,
        "obj edit");
    BOOST_TEST(m.nodes.size() == p.model.nodes.size() + 1);
    BOOST_TEST(m.triangles.size() == p.model.triangles.size());
    BOOST_TEST(adjacency_problems(m) == 0u);
    const uint16_t s = m.nodes.back().slot(0, 0);
    BOOST_REQUIRE(s != kNone);
    BOOST_TEST(m.slots[s].tri_count == 1);
}

BOOST_AUTO_TEST_CASE(obj_rounded_to_six_decimals_without_groups_is_still_identical) {
    // What Blender's OBJ exporter does: %f numbers, no `g` lines (one group per usemtl).
    TempDir dir;
    size_t models = 0;
    for (const auto& f : corpus()) {
        if (f.relative_path.find(".rlb") == std::string::npos || models >= 12) continue;
        const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (!nres::looks_like_nres(e.data)) continue;
            const Model orig = read_model(e.data, ReadMode::Strict, e.name());
            if (orig.legacy_nodes) continue;
            Exported x = export_model(orig, e.data.to_bytes(), kVariants[0]);
            std::istringstream in(obj::write(x.scene, "m.mtl").obj);
            std::string line, text;
            while (std::getline(in, line)) {
                if (line.rfind("g ", 0) == 0) continue;
                if (line.rfind("v ", 0) == 0 || line.rfind("vt ", 0) == 0 ||
                    line.rfind("vn ", 0) == 0) {
                    std::istringstream ls(line);
                    std::string tag;
                    ls >> tag;
                    text += tag;
                    double d;
                    char buf[32];
                    while (ls >> d) {
                        std::snprintf(buf, sizeof buf, " %f", d);
                        text += buf;
                    }
                    text += "\n";
                    continue;
                }
                text += line + "\n";
            }
            const auto r = mapping::import_scene(obj::read(text, "rounded.obj"),
                                                 obj_sidecar(e.data.to_bytes(), kVariants[0]), true,
                                                 "rounded.obj");
            BOOST_TEST((r.image == e.data), f.relative_path << ":" << e.name());
            ++models;
        }
    }
    BOOST_TEST(models >= 12u);
}

BOOST_AUTO_TEST_CASE(more_than_65535_vertices_split_into_batches_with_base_vertex) {
    Picked p = pick(false);
    Exported x = export_model(p.model, p.image, kVariants[0]);
    // 22,000 separate triangles (66,000 new vertices) added to the first primitive.
    scene::Primitive& prim = x.scene.meshes.at(0).primitives.at(0);
    const size_t before = prim.attributes["POSITION"].count();
    for (size_t t = 0; t < 22000; ++t)
        for (int c = 0; c < 3; ++c) {
            const uint32_t v = append_vertex(prim, 0);
            auto& pos = prim.attributes["POSITION"].data;
            pos[3 * v] = float(t % 200) + (c == 1 ? 0.5f : 0.0f);
            pos[3 * v + 1] = float(t / 200) + (c == 2 ? 0.5f : 0.0f);
            pos[3 * v + 2] = 3.0f;
            prim.attributes["TEXCOORD_1"].data[2 * v] = -1; // no identity
            prim.indices.push_back(v);
        }
    BOOST_REQUIRE(prim.attributes["POSITION"].count() == before + 66000);
    TempDir dir;
    const Model m = read_strict(import_gltf(x.scene, x.sidecar, dir.path / "big.glb"), "big");
    BOOST_TEST(m.positions.size() == p.model.positions.size() + 66000);
    BOOST_TEST(m.triangles.size() == p.model.triangles.size() + 22000);
    BOOST_TEST(m.batches.size() >= p.model.batches.size() + 1);
    for (const Batch& b : m.batches) BOOST_TEST(b.index_count % 3 == 0);
    // Too many triangles for Res7's u16 links: a clear error naming the limit.
    for (size_t t = 0; t < 22000; ++t)
        prim.indices.insert(prim.indices.end(), {prim.indices[3 * t], prim.indices[3 * t + 2],
                                                 prim.indices[3 * t + 1]});
    for (size_t t = 0; t < 22000; ++t)
        prim.indices.insert(prim.indices.end(), {prim.indices[3 * t + 1], prim.indices[3 * t],
                                                 prim.indices[3 * t + 2]});
    try {
        import_gltf(x.scene, x.sidecar, dir.path / "huge.glb");
        BOOST_FAIL("accepted more than 65,535 triangles");
    } catch (const FormatError& e) {
        BOOST_TEST(std::string(e.what()).find("65,535") != std::string::npos, e.what());
    }
}

BOOST_AUTO_TEST_CASE(skinned_export_with_a_deleted_triangle) {
    Picked p = pick(true, 3);
    Exported x = export_model(p.model, p.image, kVariants[2]);
    auto& idx = x.scene.meshes.at(0).primitives.at(0).indices;
    idx.erase(idx.begin(), idx.begin() + 3);
    TempDir dir;
    const Model m = read_strict(import_gltf(x.scene, x.sidecar, dir.path / "sk.glb"), "skin");
    BOOST_TEST(m.triangles.size() + 1 == p.model.triangles.size());
    BOOST_TEST(adjacency_problems(m) == 0u);
    // World-space input went back to node-local vertices: every position is an original one.
    std::set<std::array<float, 3>> original;
    for (const Vec3& v : p.model.positions) original.insert({v.x, v.y, v.z});
    for (const Vec3& v : m.positions) BOOST_TEST(original.count({v.x, v.y, v.z}) == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace topology_tests
