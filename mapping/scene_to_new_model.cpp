#include "scene_to_new_model.hpp"

#include "bounds.hpp"
#include "formats/anim.hpp"
#include "formats/diagnostics.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "game_names.hpp"
#include "model_to_scene.hpp"
#include "scene/transform.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <optional>

namespace msh::mapping {

using scene::compose;
using scene::Rigid;
using scene::rotate;

using nlohmann::json;

namespace {

using D3 = std::array<double, 3>;
using F3 = std::array<float, 3>;

constexpr size_t kMaxBatchTris = 0xFFFF / 3; // indexCount is u16: 21,845 triangles
constexpr size_t kMaxU16Count = 0xFFFF;      // 0xFFFF is "none" for links and slot words
// One error for glTF and OBJ alike, whether the file has no nodes or only points and lines.
constexpr const char* kNoTriangles =
    "the scene holds no triangles (points, lines and empty meshes are not models)";

F3 from_gltf(const D3& v) {
    return {float(v[0]), float(-v[2]), float(v[1])};
}
anim::Quat from_gltf_quat(const std::array<double, 4>& q) {
    return {float(q[0]), float(-q[2]), float(q[1]), float(q[3])};
}

D3 cross(const D3& a, const D3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
D3 sub(const D3& a, const D3& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
double len(const D3& a) {
    return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}
D3 as_d3(const Vec3& v) {
    return {v.x, v.y, v.z};
}

// A 3x4 affine transform (row-major rotation/scale part + translation) in the glTF frame.
struct Affine {
    std::array<double, 12> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    D3 point(const D3& p) const {
        return {m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3],
                m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7],
                m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11]};
    }
    D3 direction(const D3& p) const {
        return {m[0] * p[0] + m[1] * p[1] + m[2] * p[2], m[4] * p[0] + m[5] * p[1] + m[6] * p[2],
                m[8] * p[0] + m[9] * p[1] + m[10] * p[2]};
    }
    static Affine from_rigid(const Rigid& r) {
        Affine a;
        const D3 x = rotate(r.q, {1, 0, 0}), y = rotate(r.q, {0, 1, 0}), z = rotate(r.q, {0, 0, 1});
        a.m = {x[0], y[0], z[0], r.t[0], x[1], y[1], z[1], r.t[1], x[2], y[2], z[2], r.t[2]};
        return a;
    }
    static Affine from_column_major(const float* c) {
        Affine a;
        for (int row = 0; row < 3; ++row)
            for (int col = 0; col < 4; ++col) a.m[size_t(row * 4 + col)] = c[col * 4 + row];
        return a;
    }
};

Rigid node_rigid(const scene::Node& n) {
    Rigid r;
    double l = 0;
    for (float c : n.rotation) l += double(c) * c;
    l = std::sqrt(l);
    r.q = l > 0 ? std::array<double, 4>{n.rotation[0] / l, n.rotation[1] / l, n.rotation[2] / l,
                                        n.rotation[3] / l}
                : std::array<double, 4>{0, 0, 0, 1};
    r.t = {n.translation[0], n.translation[1], n.translation[2]};
    return r;
}

// Geometry of one batch source (a primitive, or the part of a skinned primitive one joint owns),
// already in the MSH node frame.
struct Part {
    int material = 0;
    std::vector<Vec3> pos;
    std::vector<D3> nrm; // empty: compute from faces
    std::vector<std::array<float, 2>> uv;
    std::vector<std::array<uint32_t, 3>> tris;
    std::string label;
};

using SlotParts = std::array<std::vector<Part>, kSlotWords>;

// A primitive's vertex data transformed by `xf` (glTF frame) and mapped to MSH axes.
Part part_from_primitive(const scene::Primitive& p, const Affine& xf, const std::string& label,
                         const std::string& where) {
    Part part;
    part.label = label;
    part.material = std::max(0, p.material);
    const auto pit = p.attributes.find("POSITION");
    if (pit == p.attributes.end() || pit->second.components != 3)
        throw FormatError(where, Location::whole(), label + ": no 3-component POSITION");
    const size_t count = pit->second.count();
    const auto& pd = pit->second.data;
    part.pos.resize(count);
    for (size_t v = 0; v < count; ++v) {
        const F3 q = from_gltf(xf.point({pd[3 * v], pd[3 * v + 1], pd[3 * v + 2]}));
        part.pos[v] = {q[0], q[1], q[2]};
    }
    if (auto n = p.attributes.find("NORMAL");
        n != p.attributes.end() && n->second.components == 3 && n->second.count() == count) {
        part.nrm.resize(count);
        const auto& nd = n->second.data;
        for (size_t v = 0; v < count; ++v) {
            D3 d = xf.direction({nd[3 * v], nd[3 * v + 1], nd[3 * v + 2]});
            const double l = len(d);
            if (l > 0) d = {d[0] / l, d[1] / l, d[2] / l};
            part.nrm[v] = {d[0], -d[2], d[1]};
        }
    }
    if (auto t = p.attributes.find("TEXCOORD_0");
        t != p.attributes.end() && t->second.components == 2 && t->second.count() == count) {
        part.uv.resize(count);
        for (size_t v = 0; v < count; ++v)
            part.uv[v] = {t->second.data[2 * v], t->second.data[2 * v + 1]};
    }
    if (p.indices.size() % 3 != 0)
        throw FormatError(where, Location::whole(),
                          label + ": index count " + std::to_string(p.indices.size()) +
                              " is not a multiple of 3");
    for (size_t i = 0; i + 2 < p.indices.size(); i += 3) {
        const std::array<uint32_t, 3> t{p.indices[i], p.indices[i + 1], p.indices[i + 2]};
        for (uint32_t x : t)
            if (x >= count)
                throw FormatError(where, Location::whole(),
                                  label + ": index " + std::to_string(x) + " past " +
                                      std::to_string(count) + " vertices");
        part.tris.push_back(t);
    }
    return part;
}

// ---- animation -----------------------------------------------------------------------------

struct FrameChannel {
    std::vector<double> frames; // key times in frames (snapped when aligned)
    std::vector<double> values;
    size_t comps = 3;
    bool step = false;
    bool aligned = true;
};

FrameChannel to_frames(const scene::Channel& c, double fps) {
    FrameChannel f;
    f.comps = c.path == scene::Path::Rotation ? 4 : 3;
    f.step = c.step;
    f.values.assign(c.values.begin(), c.values.end());
    for (float t : c.times) {
        const double x = double(t) * fps;
        if (std::abs(x - std::round(x)) > 1e-3) f.aligned = false;
        f.frames.push_back(x);
    }
    if (f.aligned)
        for (double& x : f.frames) x = std::round(x);
    return f;
}

std::vector<double> sample_frames(const FrameChannel& c, double f) {
    const size_t n = c.frames.size(), k0 = c.comps;
    auto key = [&](size_t k) {
        return std::vector<double>(c.values.begin() + long(k * k0),
                                   c.values.begin() + long((k + 1) * k0));
    };
    if (f <= c.frames.front()) return key(0);
    if (f >= c.frames.back()) return key(n - 1);
    size_t k = 0;
    while (k + 1 < n && c.frames[k + 1] <= f) ++k;
    if (c.frames[k] == f || c.step) return key(k);
    const double a = (f - c.frames[k]) / (c.frames[k + 1] - c.frames[k]);
    std::vector<double> x = key(k), y = key(k + 1), out(k0);
    if (k0 == 3) {
        for (size_t i = 0; i < 3; ++i) out[i] = x[i] * (1 - a) + y[i] * a;
        return out;
    }
    double d = 0;
    for (size_t i = 0; i < 4; ++i) d += x[i] * y[i];
    if (d < 0) {
        for (double& v : y) v = -v;
        d = -d;
    }
    double wa = 1 - a, wb = a;
    if (d < 0.9995) {
        const double th = std::acos(std::min(1.0, d)), s = std::sin(th);
        wa = std::sin((1 - a) * th) / s;
        wb = std::sin(a * th) / s;
    }
    double l = 0;
    for (size_t i = 0; i < 4; ++i) {
        out[i] = x[i] * wa + y[i] * wb;
        l += out[i] * out[i];
    }
    l = std::sqrt(l);
    if (l > 0)
        for (double& v : out) v /= l;
    return out;
}

bool same_key(const anim::Key& a, const anim::Key& b) {
    return a.pos == b.pos && a.rot == b.rot;
}

// ---- the builder ---------------------------------------------------------------------------

struct Builder {
    const scene::Scene& s;
    const NewModelOptions& opt;
    DiagnosticSink& diagnostics;
    NewModelSummary summary;
    Model m;
    std::vector<uint16_t> vertex_node;
    size_t computed_normals = 0, missing_uv = 0, missing_material = 0, degenerate = 0,
           split_primitives = 0;

    Builder(const scene::Scene& scene, const NewModelOptions& options, DiagnosticSink& sink)
        : s(scene), opt(options), diagnostics(sink) {}

    void warn(const std::string& w) { diagnostics.warn(opt.where, Location::whole(), w); }
    [[noreturn]] void fail(const std::string& w) const {
        throw FormatError(opt.where, Location::whole(), w);
    }

    // What the phases share (scene node index i, MSH node index k = msh_of[i]).
    size_t n = 0;                                              // scene nodes
    std::vector<bool> holder;                                  // skinned-mesh holders
    std::vector<std::optional<std::array<int, 3>>> slot_child; // -> (owner, lod, group)
    std::vector<bool> kept;                                    // become MSH nodes
    std::vector<int> order, msh_of;                            // MSH order; its inverse
    std::vector<SlotParts> geom;                               // per MSH node and slot word
    Bytes res9;                                                // node names, 32 bytes each
    std::vector<anim::Track> tracks;
    size_t animated = 0;

    Bytes run() {
        classify_nodes();
        order_nodes();
        gather_geometry();
        build_tables();
        name_nodes();
        animate();
        build_header(); // every node at its first key
        const auto vcount = uint32_t(m.positions.size());
        assemble_new_model(m, {{kVertexStream15, Bytes(8 * size_t(vcount), 0), vcount, 0, 8},
                               {kNodeNames32, std::move(res9), uint32_t(order.size()), 0, 32},
                               {kPathGraph, {}, 0, 0, 0}});
        summarise();
        return nres::write_canonical(m.container);
    }

    // Skin holders and `<node>@lod<L>g<G>` slot children become parts of other nodes; the rest
    // become MSH nodes.
    void classify_nodes() {
        n = s.nodes.size();
        holder.assign(n, false);
        std::vector<bool> has_children(n, false);
        for (size_t i = 0; i < n; ++i) {
            const int p = s.nodes[i].parent;
            if (p >= 0 && size_t(p) < n) has_children[size_t(p)] = true;
            holder[i] = s.nodes[i].skin >= 0 && s.nodes[i].mesh >= 0;
        }
        slot_child.assign(n, std::nullopt);
        for (size_t i = 0; i < n; ++i) {
            const scene::Node& node = s.nodes[i];
            if (holder[i] || has_children[i] || node.mesh < 0 || node.parent < 0) continue;
            std::string base;
            const auto sfx = parse_slot_name(node.name, &base, opt.slot_names);
            if (!sfx || s.nodes[size_t(node.parent)].name != base || holder[size_t(node.parent)])
                continue;
            slot_child[i] = std::array<int, 3>{node.parent, sfx->first, sfx->second};
        }
        kept.assign(n, false);
        for (size_t i = 0; i < n; ++i) kept[i] = !holder[i] && !slot_child[i];
    }

    // The nearest kept ancestor of scene node i (-1: a root).
    int kept_parent(size_t i) const {
        int p = s.nodes[i].parent;
        size_t guard = 0;
        while (p >= 0 && size_t(p) < n && !kept[size_t(p)] && guard++ <= n)
            p = s.nodes[size_t(p)].parent;
        if (p >= 0 && (size_t(p) >= n || guard > n)) fail("node parents form a cycle");
        return p;
    }

    // Parents before children, otherwise the scene's order.
    void order_nodes() {
        msh_of.assign(n, -1);
        std::vector<int> state(n, 0);
        for (size_t i = 0; i < n; ++i) {
            if (!kept[i] || state[i]) continue;
            std::vector<size_t> chain{i};
            while (true) {
                const int p = kept_parent(chain.back());
                if (p < 0 || state[size_t(p)] == 2) break;
                if (state[size_t(p)] == 1) fail("node parents form a cycle");
                state[size_t(p)] = 1;
                chain.push_back(size_t(p));
            }
            for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
                if (state[*it] == 2) continue;
                state[*it] = 2;
                msh_of[*it] = int(order.size());
                order.push_back(int(*it));
            }
        }
        if (order.empty()) fail(kNoTriangles);
        if (order.size() > kMaxU16Count)
            fail(std::to_string(order.size()) +
                 " nodes; Res1 parent and slot words are u16, so a model holds at most 65,535 "
                 "nodes");
        for (size_t i = 0; i < n; ++i)
            if (kept[i] && s.nodes[i].parent >= 0 && kept_parent(i) != s.nodes[i].parent)
                warn("node '" + s.nodes[i].name +
                     "': its parent is a skin holder or slot node; attached to the next ancestor "
                     "(the skipped node's transform is ignored)");
    }

    // The triangle parts of every MSH node and slot word.
    void gather_geometry() {
        geom.assign(order.size(), SlotParts{});
        for (size_t i = 0; i < n; ++i) {
            const scene::Node& node = s.nodes[i];
            if (node.mesh < 0) continue;
            if (size_t(node.mesh) >= s.meshes.size())
                fail("node '" + node.name + "' names mesh " + std::to_string(node.mesh) + " of " +
                     std::to_string(s.meshes.size()));
            const scene::Mesh& mesh = s.meshes[size_t(node.mesh)];
            if (holder[i]) {
                add_skinned(i, mesh);
                continue;
            }
            int owner = int(i), word = 0;
            Affine xf;
            if (slot_child[i]) {
                owner = (*slot_child[i])[0];
                word = (*slot_child[i])[1] * kGroups + (*slot_child[i])[2];
                xf = Affine::from_rigid(node_rigid(node));
            }
            for (size_t p = 0; p < mesh.primitives.size(); ++p) {
                const scene::Primitive& prim = mesh.primitives[p];
                if (prim.mode != scene::Primitive::Mode::Triangles) {
                    warn("mesh '" + mesh.name + "': a non-triangle primitive was skipped");
                    continue;
                }
                if (prim.material < 0) ++missing_material;
                geom[size_t(msh_of[size_t(owner)])][size_t(word)].push_back(part_from_primitive(
                    prim, xf, "mesh '" + mesh.name + "' primitive " + std::to_string(p),
                    opt.where));
            }
        }
    }

    // The limits, then nodes, slots, batches and vertices.
    void build_tables() {
        size_t total_tris = 0;
        for (size_t k = 0; k < order.size(); ++k)
            for (const auto& parts : geom[k])
                for (const Part& p : parts) {
                    total_tris += p.tris.size();
                    if (total_tris > kMaxU16Count)
                        fail("node '" + s.nodes[size_t(order[k])].name + "' (" + p.label +
                             "): the model would hold more than 65,535 triangles; Res7 links and "
                             "Res2 slot triStart/triCount are u16, so a model holds at most "
                             "65,535 triangles (split it into several models)");
                }
        if (total_tris == 0) fail(kNoTriangles);
        for (size_t k = 0; k < order.size(); ++k) {
            Node node;
            node.parent = uint16_t(kNone);
            const int p = kept_parent(size_t(order[k]));
            if (p >= 0) node.parent = uint16_t(msh_of[size_t(p)]);
            for (int w = 0; w < kSlotWords; ++w) {
                bool any = false;
                for (const Part& part : geom[k][size_t(w)]) any = any || !part.tris.empty();
                if (!any) continue;
                if (m.slots.size() >= kMaxU16Count)
                    fail("more than 65,535 slots; Res1 slot words are u16");
                node.slots[size_t(w)] = uint16_t(m.slots.size());
                add_slot(k, geom[k][size_t(w)]);
            }
            m.nodes.push_back(node);
        }
    }

    // Res10 strings and Res9 names.
    void name_nodes() {
        res9.assign(32 * order.size(), 0);
        for (size_t k = 0; k < order.size(); ++k) {
            const std::string& utf8 = s.nodes[size_t(order[k])].name;
            bool replaced = false;
            const std::string name = to_game_name(utf8, &replaced); // CP1251, as the game reads
            if (replaced)
                warn("node '" + utf8 + "': characters CP1251 cannot hold are stored as '?'");
            m.node_strings.push_back({!name.empty(), name});
            if (name.size() > 31) warn("node '" + utf8 + "': Res9 name truncated to 31 bytes");
            std::copy_n(name.begin(), std::min<size_t>(name.size(), 31),
                        res9.begin() + std::ptrdiff_t(32 * k));
        }
    }

    void animate() {
        build_tracks();
        anim::Composed c = anim::compose(tracks);
        m.animation = std::move(c.animation);
        for (size_t k = 0; k < order.size(); ++k) {
            m.nodes[k].map_start = c.nodes[k].map_start;
            m.nodes[k].fallback_key = c.nodes[k].fallback_key;
        }
    }

    void summarise() {
        summary.nodes = m.nodes.size();
        summary.slots = m.slots.size();
        summary.batches = m.batches.size();
        summary.vertices = m.positions.size();
        summary.triangles = m.triangles.size();
        summary.keys = m.animation.keys.size();
        summary.frame_count = m.animation.frame_count;
        summary.animated_nodes = animated;
        summary.split_primitives = split_primitives;
        summary.defaults.push_back(
            "hdr0 = 0, batchFlags = 0, opaque6 = 0, triFlags = 0, selPacked = 0x3F, "
            "opaque4 = 0xFF00 | material");
        summary.defaults.push_back("Res15 = 8 zero bytes per vertex; Res17 empty; materialIndex = "
                                   "scene material index (= the WEAR row written beside it)");
        summary.defaults.push_back(
            "bounds, slot tail (+48 area, +52 volume, rest 0), hull, sphere and "
            "capsule by the msh.md §11 rules");
        summary.defaults.push_back("fps " + std::to_string(opt.fps));
        if (computed_normals)
            summary.defaults.push_back(std::to_string(computed_normals) +
                                       " primitive(s) without NORMAL: normals computed from faces");
        if (missing_uv)
            summary.defaults.push_back(std::to_string(missing_uv) +
                                       " primitive(s) without TEXCOORD_0: UV0 = 0");
        if (missing_material)
            summary.defaults.push_back(std::to_string(missing_material) +
                                       " primitive(s) without material: materialIndex 0");
        if (degenerate)
            warn(std::to_string(degenerate) +
                 " degenerate triangle(s): Res7 face normal written as (0, 0, 0)");
    }

    void add_skinned(size_t h, const scene::Mesh& mesh) {
        const scene::Node& node = s.nodes[h];
        if (size_t(node.skin) >= s.skins.size())
            fail("node '" + node.name + "' names skin " + std::to_string(node.skin) + " of " +
                 std::to_string(s.skins.size()));
        const scene::Skin& skin = s.skins[size_t(node.skin)];
        if (skin.joints.empty()) fail("skin '" + skin.name + "' has no joints");
        int lod = 0, group = 0;
        if (auto sfx = parse_slot_name(node.name, nullptr, opt.slot_names))
            lod = sfx->first, group = sfx->second;
        else if (auto sfx2 = parse_slot_name(mesh.name, nullptr, opt.slot_names))
            lod = sfx2->first, group = sfx2->second;
        else if (mesh.identity.lod || mesh.identity.group)
            lod = std::clamp(mesh.identity.lod ? mesh.identity.lod->get() : 0, 0, kLods - 1),
            group =
                std::clamp(mesh.identity.group ? mesh.identity.group->get() : 0, 0, kGroups - 1);
        const size_t word = size_t(lod * kGroups + group);
        std::vector<Affine> ibm(skin.joints.size());
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            const int jn = skin.joints[j];
            if (jn < 0 || size_t(jn) >= s.nodes.size() || msh_of[size_t(jn)] < 0)
                fail("skin '" + skin.name + "': joint " + std::to_string(j) +
                     " is not a node that can become an MSH node");
            if (skin.inverse_bind.size() >= 16 * (j + 1))
                ibm[j] = Affine::from_column_major(&skin.inverse_bind[16 * j]);
        }
        size_t blended = 0, spanning = 0;
        for (size_t p = 0; p < mesh.primitives.size(); ++p) {
            const scene::Primitive& prim = mesh.primitives[p];
            if (prim.mode != scene::Primitive::Mode::Triangles) continue;
            const std::string label = "mesh '" + mesh.name + "' primitive " + std::to_string(p);
            // Untransformed copy: vertices in bind space (glTF frame).
            const Part bind = part_from_primitive(prim, Affine{}, label, opt.where);
            const size_t count = bind.pos.size();
            std::vector<uint32_t> joint(count, 0);
            const auto ja = prim.attributes.find("JOINTS_0");
            const auto wa = prim.attributes.find("WEIGHTS_0");
            if (ja == prim.attributes.end() || ja->second.count() != count) {
                warn(label + ": skinned without JOINTS_0; attached to joint 0");
            } else {
                for (size_t v = 0; v < count; ++v) {
                    const size_t jc = size_t(ja->second.components);
                    size_t best = 0;
                    float bw = -1, total = 0;
                    for (size_t c = 0; c < jc; ++c) {
                        const float w =
                            (wa != prim.attributes.end() && wa->second.count() == count &&
                             size_t(wa->second.components) == jc)
                                ? wa->second.data[v * jc + c]
                                : (c == 0 ? 1.0f : 0.0f);
                        total += w;
                        if (w > bw) bw = w, best = c;
                    }
                    if (total > 0 && bw < total * (1 - 1e-4f)) ++blended;
                    const float jf = ja->second.data[v * jc + best];
                    if (!(jf >= 0 && size_t(jf) < skin.joints.size()))
                        fail(label + ": vertex " + std::to_string(v) + " names joint " +
                             std::to_string(jf) + " of " + std::to_string(skin.joints.size()));
                    joint[v] = uint32_t(jf);
                }
            }
            // Per joint: the triangles it owns and the vertices they use.
            std::map<uint32_t, Part> by_joint;
            std::map<uint32_t, std::map<uint32_t, uint32_t>> remap;
            for (const auto& t : bind.tris) {
                uint32_t j = joint[t[0]];
                if (joint[t[1]] == joint[t[2]] && joint[t[1]] != j) j = joint[t[1]];
                if (joint[t[0]] != joint[t[1]] || joint[t[1]] != joint[t[2]]) ++spanning;
                Part& part = by_joint[j];
                auto& rm = remap[j];
                std::array<uint32_t, 3> nt{};
                for (int c = 0; c < 3; ++c) {
                    const uint32_t v = t[size_t(c)];
                    auto [it, fresh] = rm.emplace(v, uint32_t(part.pos.size()));
                    if (fresh) {
                        const Vec3& b = bind.pos[v]; // bind.pos is already axis-mapped; undo
                        const D3 g{b.x, b.z, -double(b.y)};
                        const F3 q = from_gltf(ibm[j].point(g));
                        part.pos.push_back({q[0], q[1], q[2]});
                        if (!bind.nrm.empty()) {
                            const D3& bn = bind.nrm[v];
                            D3 d = ibm[j].direction({bn[0], bn[2], -bn[1]});
                            const double l = len(d);
                            if (l > 0) d = {d[0] / l, d[1] / l, d[2] / l};
                            part.nrm.push_back({d[0], -d[2], d[1]});
                        }
                        if (!bind.uv.empty()) part.uv.push_back(bind.uv[v]);
                    }
                    nt[size_t(c)] = it->second;
                }
                part.tris.push_back(nt);
            }
            if (prim.material < 0) ++missing_material;
            for (auto& [j, part] : by_joint) {
                part.material = bind.material;
                part.label = label + " joint " + std::to_string(j);
                geom[size_t(msh_of[size_t(skin.joints[j])])][word].push_back(std::move(part));
            }
        }
        if (blended)
            warn(std::to_string(blended) +
                 " skinned vertices have blended weights; each goes rigidly to its dominant "
                 "(largest-weight) joint");
        if (spanning)
            warn(std::to_string(spanning) +
                 " skinned triangles use vertices of different joints; each goes to the joint "
                 "most of its vertices use");
    }

    void add_slot(size_t node, std::vector<Part>& parts) {
        Slot slot;
        slot.batch_start = uint16_t(m.batches.size());
        slot.tri_start = uint16_t(m.triangles.size());
        const size_t first_vertex = m.positions.size();
        for (Part& p : parts) add_part(node, p);
        slot.batch_count = uint16_t(m.batches.size() - slot.batch_start);
        slot.tri_count = uint16_t(m.triangles.size() - slot.tri_start);
        link_triangles(slot.tri_start, slot.tri_count);

        D3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
        for (size_t v = first_vertex; v < m.positions.size(); ++v) {
            const D3 p = as_d3(m.positions[v]);
            for (size_t c = 0; c < 3; ++c)
                lo[c] = std::min(lo[c], p[c]), hi[c] = std::max(hi[c], p[c]);
        }
        if (m.positions.size() == first_vertex) lo = hi = {0, 0, 0};
        slot.aabb_min = {float(lo[0]), float(lo[1]), float(lo[2])};
        slot.aabb_max = {float(hi[0]), float(hi[1]), float(hi[2])};
        const D3 centre{(double(slot.aabb_min[0]) + slot.aabb_max[0]) / 2,
                        (double(slot.aabb_min[1]) + slot.aabb_max[1]) / 2,
                        (double(slot.aabb_min[2]) + slot.aabb_max[2]) / 2};
        double r = 0;
        for (size_t v = first_vertex; v < m.positions.size(); ++v)
            r = std::max(r, len(sub(as_d3(m.positions[v]), centre)));
        slot.sphere = {float(centre[0]), float(centre[1]), float(centre[2]), float(r)};
        double area = 0;
        for (size_t b = slot.batch_start; b < m.batches.size(); ++b) {
            const Batch& bt = m.batches[b];
            for (size_t k = 0; k + 2 < bt.index_count; k += 3) {
                D3 p[3];
                for (size_t c = 0; c < 3; ++c)
                    p[c] = as_d3(m.positions[bt.base_vertex + m.indices[bt.index_start + k + c]]);
                area += 0.5 * len(cross(sub(p[1], p[0]), sub(p[2], p[0])));
            }
        }
        const double volume = (double(slot.aabb_max[0]) - slot.aabb_min[0]) *
                              (double(slot.aabb_max[1]) - slot.aabb_min[1]) *
                              (double(slot.aabb_max[2]) - slot.aabb_min[2]);
        slot.tail = {std::bit_cast<uint32_t>(float(area)), std::bit_cast<uint32_t>(float(volume)),
                     0, 0, 0};
        m.slots.push_back(slot);
    }

    void add_part(size_t node, Part& p) {
        if (p.tris.empty()) return;
        if (p.nrm.empty()) {
            ++computed_normals;
            p.nrm.assign(p.pos.size(), D3{0, 0, 0});
            for (const auto& t : p.tris) {
                const D3 a = as_d3(p.pos[t[0]]), b = as_d3(p.pos[t[1]]), c = as_d3(p.pos[t[2]]);
                const D3 f = cross(sub(b, a), sub(c, a)); // length = 2 * area: area weighting
                for (uint32_t v : t)
                    for (size_t k = 0; k < 3; ++k) p.nrm[v][k] += f[k];
            }
            for (D3& nv : p.nrm) {
                const double l = len(nv);
                nv = l > 0 ? D3{nv[0] / l, nv[1] / l, nv[2] / l} : D3{0, 0, 1};
            }
        }
        if (p.uv.empty()) ++missing_uv;
        if (p.tris.size() > kMaxBatchTris) ++split_primitives;
        for (size_t first = 0; first < p.tris.size(); first += kMaxBatchTris) {
            const size_t last = std::min(p.tris.size(), first + kMaxBatchTris);
            std::vector<uint32_t> used;
            for (size_t t = first; t < last; ++t)
                for (uint32_t v : p.tris[t]) used.push_back(v);
            std::sort(used.begin(), used.end());
            used.erase(std::unique(used.begin(), used.end()), used.end());
            // At most 3 * 21,845 = 65,535 vertices, so every local index fits a u16 and
            // opaque14 = max + 1 <= 65,535.
            std::map<uint32_t, uint16_t> local;
            Batch b;
            b.material = uint16_t(std::min(p.material, 0xFFFF));
            b.opaque4 = uint16_t(0xFF00 | (b.material & 0xFF));
            b.index_start = uint32_t(m.indices.size());
            b.base_vertex = uint32_t(m.positions.size());
            b.index_count = uint16_t((last - first) * 3);
            b.opaque14 = uint16_t(used.size());
            for (uint32_t v : used) {
                local.emplace(v, uint16_t(local.size()));
                m.positions.push_back(p.pos[v]);
                m.normals.push_back({encode_normal_component(float(p.nrm[v][0])),
                                     encode_normal_component(float(p.nrm[v][1])),
                                     encode_normal_component(float(p.nrm[v][2])), 0});
                m.uvs.push_back(p.uv.empty()
                                    ? PackedUv{0, 0}
                                    : PackedUv{encode_uv(p.uv[v][0]), encode_uv(p.uv[v][1])});
                vertex_node.push_back(uint16_t(node));
            }
            for (size_t t = first; t < last; ++t) {
                for (uint32_t v : p.tris[t]) m.indices.push_back(local.at(v));
                TriDesc d;
                d.normal =
                    face_normal(p.pos[p.tris[t][0]], p.pos[p.tris[t][1]], p.pos[p.tris[t][2]]);
                if (d.normal == std::array<int16_t, 3>{0, 0, 0}) ++degenerate;
                m.triangles.push_back(d);
            }
            if (m.batches.size() >= kMaxU16Count)
                fail("more than 65,535 batches; Res2 slot batchStart is u16");
            m.batches.push_back(b);
        }
    }

    // Neighbour across edge k = (i_k, i_(k+1)) by identical positions within the slot; mutual.
    void link_triangles(size_t first, size_t count) {
        std::map<std::array<uint32_t, 3>, uint32_t> ids;
        std::vector<std::array<uint32_t, 3>> tri_ids(count);
        size_t b = m.batches.size();
        for (size_t t = first + count; t-- > first;) {
            while (b > 0 && m.batches[b - 1].index_start > 3 * t) --b;
            const Batch& bt = m.batches[b - 1];
            for (size_t k = 0; k < 3; ++k) {
                const Vec3& p = m.positions[bt.base_vertex + m.indices[3 * t + k]];
                const std::array<uint32_t, 3> key{std::bit_cast<uint32_t>(p.x + 0.0f),
                                                  std::bit_cast<uint32_t>(p.y + 0.0f),
                                                  std::bit_cast<uint32_t>(p.z + 0.0f)};
                tri_ids[t - first][k] = ids.emplace(key, uint32_t(ids.size())).first->second;
            }
        }
        std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, size_t>>> edges;
        for (size_t t = 0; t < count; ++t)
            for (size_t k = 0; k < 3; ++k) {
                const uint32_t a = tri_ids[t][k], c = tri_ids[t][(k + 1) % 3];
                if (a == c) continue;
                edges[{std::min(a, c), std::max(a, c)}].push_back({uint32_t(t), k});
            }
        for (const auto& [edge, users] : edges)
            for (size_t i = 0; i < users.size(); ++i) {
                const auto [t, k] = users[i];
                TriDesc& d = m.triangles[first + t];
                if (d.link[k] != kNone) continue;
                for (size_t j = i + 1; j < users.size(); ++j) {
                    const auto [t2, k2] = users[j];
                    TriDesc& d2 = m.triangles[first + t2];
                    if (t2 == t || d2.link[k2] != kNone) continue;
                    d.link[k] = uint16_t(first + t2);
                    d2.link[k2] = uint16_t(first + t);
                    break;
                }
            }
    }

    // One track per MSH node (into `tracks`), keys on whole frames.
    void build_tracks() {
        // conversion::import_model merges several animations first (scene/merge_animations).
        const scene::Animation* an = s.animations.empty() ? nullptr : &s.animations.front();
        if (s.animations.size() > 1)
            warn(std::to_string(s.animations.size()) + " animations; the first ('" + an->name +
                 "') is used");
        tracks.clear();
        size_t resampled = 0;
        for (int sn : order) {
            const scene::Node& node = s.nodes[size_t(sn)];
            std::optional<FrameChannel> tc, rc;
            if (an)
                for (size_t c = 0; c < an->channels.size(); ++c) {
                    const scene::Channel& ch = an->channels[c];
                    if (ch.node != sn || ch.times.empty()) continue;
                    const size_t comps = ch.path == scene::Path::Rotation ? 4 : 3;
                    if (ch.values.size() != ch.times.size() * comps)
                        fail("animation channel of node '" + node.name +
                             "': " + std::to_string(ch.values.size()) + " values for " +
                             std::to_string(ch.times.size()) + " times");
                    (ch.path == scene::Path::Rotation ? rc : tc) = to_frames(ch, opt.fps);
                }
            std::vector<double> frames{0};
            for (const auto* c : {&tc, &rc}) {
                if (!*c) continue;
                const FrameChannel& fc = **c;
                if (fc.aligned) {
                    for (size_t k = 0; k < fc.frames.size(); ++k) {
                        if (fc.frames[k] >= 0) frames.push_back(fc.frames[k]);
                        if (fc.step && k + 1 < fc.frames.size() &&
                            fc.frames[k + 1] > fc.frames[k] + 1 && fc.frames[k + 1] - 1 >= 0)
                            frames.push_back(fc.frames[k + 1] - 1);
                    }
                } else {
                    ++resampled;
                    const double a = std::max(0.0, std::floor(fc.frames.front()));
                    const double b = std::ceil(fc.frames.back());
                    if (b - a > 65535)
                        fail("node '" + node.name + "': resampling needs more than 65,535 keys");
                    for (double f = a; f <= b; f += 1) frames.push_back(f);
                }
            }
            std::sort(frames.begin(), frames.end());
            frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
            anim::Track track;
            for (double f : frames) {
                anim::Key key;
                key.time = float(f);
                D3 t{node.translation[0], node.translation[1], node.translation[2]};
                std::array<double, 4> q{node.rotation[0], node.rotation[1], node.rotation[2],
                                        node.rotation[3]};
                if (tc) {
                    const auto v = sample_frames(*tc, f);
                    t = {v[0], v[1], v[2]};
                }
                if (rc) {
                    const auto v = sample_frames(*rc, f);
                    q = {v[0], v[1], v[2], v[3]};
                }
                key.pos = from_gltf(t);
                key.rot = anim::encode_quat(from_gltf_quat(q));
                if (!track.keys.empty()) {
                    const auto& a = track.keys.back().rot;
                    const long d = long(a[0]) * key.rot[0] + long(a[1]) * key.rot[1] +
                                   long(a[2]) * key.rot[2] + long(a[3]) * key.rot[3];
                    if (d < 0)
                        for (auto& c : key.rot) c = int16_t(-c);
                }
                track.keys.push_back(key);
            }
            bool all_same = true;
            for (const anim::Key& k : track.keys) all_same = all_same && same_key(k, track.keys[0]);
            if (all_same) track.keys.resize(1);
            if (track.keys.size() > 1) ++animated;
            tracks.push_back(std::move(track));
        }
        if (resampled)
            warn(std::to_string(resampled) +
                 " animation channel(s) have keys off whole frames at " + std::to_string(opt.fps) +
                 " fps; resampled at every whole frame");
    }

    void build_header() {
        std::vector<Rigid> world(m.nodes.size());
        for (size_t i = 0; i < m.nodes.size(); ++i) {
            const anim::Key& k = tracks[i].keys.front();
            const anim::Quat q = anim::decode_quat(k.rot);
            const double l = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] +
                                       double(q[2]) * q[2] + double(q[3]) * q[3]);
            Rigid local;
            if (l > 0) local.q = {q[0] / l, q[1] / l, q[2] / l, q[3] / l};
            local.t = {k.pos[0], k.pos[1], k.pos[2]};
            const uint16_t p = m.nodes[i].parent;
            world[i] = p != kNone && p < i ? compose(world[p], local) : local;
        }
        D3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
        std::vector<D3> posed(m.positions.size());
        for (size_t v = 0; v < m.positions.size(); ++v) {
            const Rigid& w = world[vertex_node[v]];
            const D3 r = rotate(w.q, as_d3(m.positions[v]));
            posed[v] = {r[0] + w.t[0], r[1] + w.t[1], r[2] + w.t[2]};
            for (size_t c = 0; c < 3; ++c)
                lo[c] = std::min(lo[c], posed[v][c]), hi[c] = std::max(hi[c], posed[v][c]);
        }
        if (posed.empty()) lo = hi = {0, 0, 0};
        ModelHeader& h = m.header;
        for (size_t i = 0; i < 8; ++i) {
            h.hull[3 * i] = float(i & 1 ? hi[0] : lo[0]);
            h.hull[3 * i + 1] = float(i & 2 ? hi[1] : lo[1]);
            h.hull[3 * i + 2] = float(i & 4 ? hi[2] : lo[2]);
        }
        const D3 c{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
        double r = 0;
        for (const D3& p : posed) r = std::max(r, len(sub(p, c)));
        h.sphere = {float(c[0]), float(c[1]), float(c[2]), float(r)};
        h.capsule = {float(c[0]),
                     float(c[1]),
                     float(lo[2]),
                     float(c[0]),
                     float(c[1]),
                     float(hi[2]),
                     float(std::hypot((hi[0] - lo[0]) / 2, (hi[1] - lo[1]) / 2))};
    }
};

} // namespace

NewModelResult build_new_model(const scene::Scene& scene, const NewModelOptions& options,
                               DiagnosticSink& diagnostics) {
    if (!(options.fps > 0))
        throw FormatError(options.where, Location::whole(), "fps must be positive");
    const size_t before = diagnostics.diagnostics().size();
    Builder b(scene, options, diagnostics);
    NewModelResult r;
    r.image = b.run();
    r.summary = std::move(b.summary);
    for (size_t i = before; i < diagnostics.diagnostics().size(); ++i)
        if (diagnostics.diagnostics()[i].severity == Severity::Warning)
            r.summary.warnings.push_back(diagnostics.diagnostics()[i].text());
    return r;
}

Bytes build_model(const scene::Scene& scene, const NewModelOptions& options,
                  DiagnosticSink& diagnostics) {
    return build_new_model(scene, options, diagnostics).image;
}

} // namespace msh::mapping
