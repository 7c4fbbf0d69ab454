#include "scene_to_model.hpp"

#include "bounds.hpp"
#include "formats/obj.hpp"
#include "model_to_scene.hpp"
#include "retopology.hpp"
#include "scene/transform.hpp"
#include "skin.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>

namespace msh::mapping {

using scene::inverse;
using scene::Rigid;
using scene::world_transforms;

using nlohmann::json;

namespace {

using F3 = std::array<float, 3>;

F3 from_gltf(const F3& v) {
    return {v[0], -v[2], v[1]};
}
anim::Quat from_gltf_quat(const anim::Quat& q) {
    return {q[0], -q[2], q[1], q[3]};
}

bool same_bits(const float* a, const float* b, size_t n) {
    return std::memcmp(a, b, n * sizeof(float)) == 0;
}

struct Seen {
    F3 pos{}, nrm{};
    std::array<float, 2> uv{};
    bool has_n = false, has_uv = false;
    int node = -1; // scene node holding the primitive
};

struct Observed {
    std::vector<std::vector<Seen>> by_vid;                         // every copy of each vertex
    std::map<uint32_t, std::vector<std::array<uint32_t, 3>>> tris; // batch -> vid triples
    bool incomplete = false; // a primitive or vertex without a valid identity (new geometry)
    bool split = false;      // a vertex seen with two positions or UVs (a seam or a split copy)
};

std::array<uint32_t, 3> rotate_min_first(std::array<uint32_t, 3> t) {
    while (!(t[0] <= t[1] && t[0] <= t[2])) t = {t[1], t[2], t[0]};
    return t;
}

// The (Res3 index, batch) a vertex carries in TEXCOORD_1, if it is a valid identity.
std::optional<std::pair<uint32_t, uint32_t>> identity_of(const scene::Attribute* id, size_t v,
                                                         size_t vertex_count) {
    if (!id || id->components != 2 || 2 * v + 1 >= id->data.size()) return std::nullopt;
    const float a = id->data[2 * v], b = id->data[2 * v + 1];
    if (!(a >= 0 && a < float(vertex_count) && a == std::floor(a) && b >= 0 && b < 65536.0f &&
          b == std::floor(b)))
        return std::nullopt;
    return std::pair{uint32_t(a), uint32_t(b)};
}

const scene::Attribute* find_attribute(const scene::Primitive& p, const char* name) {
    const auto it = p.attributes.find(name);
    return it == p.attributes.end() ? nullptr : &it->second;
}

Observed observe(const scene::Scene& s, size_t vertex_count) {
    Observed o;
    o.by_vid.resize(vertex_count);
    for (size_t n = 0; n < s.nodes.size(); ++n) {
        if (s.nodes[n].mesh < 0) continue;
        const scene::Mesh& mesh = s.meshes.at(size_t(s.nodes[n].mesh));
        for (const scene::Primitive& p : mesh.primitives) {
            const scene::Attribute* id = find_attribute(p, "TEXCOORD_1");
            const auto& pos = p.attributes.at("POSITION").data;
            const scene::Attribute* nrm = find_attribute(p, "NORMAL");
            const scene::Attribute* uv = find_attribute(p, "TEXCOORD_0");
            const size_t count = pos.size() / 3;
            std::vector<std::optional<std::pair<uint32_t, uint32_t>>> ident(count);
            for (size_t v = 0; v < count; ++v) {
                ident[v] = identity_of(id, v, vertex_count);
                if (!ident[v]) {
                    o.incomplete = true;
                    continue;
                }
                Seen seen;
                seen.pos = {pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]};
                if (nrm)
                    seen.has_n = true,
                    seen.nrm = {nrm->data[3 * v], nrm->data[3 * v + 1], nrm->data[3 * v + 2]};
                if (uv) seen.has_uv = true, seen.uv = {uv->data[2 * v], uv->data[2 * v + 1]};
                seen.node = int(n);
                o.by_vid[ident[v]->first].push_back(seen);
            }
            for (size_t t = 0; t + 2 < p.indices.size(); t += 3) {
                const auto &a = ident[p.indices[t]], &b = ident[p.indices[t + 1]],
                           &c = ident[p.indices[t + 2]];
                if (!a || !b || !c) continue;
                o.tris[a->second].push_back(rotate_min_first({a->first, b->first, c->first}));
            }
        }
    }
    for (auto& [b, list] : o.tris) std::sort(list.begin(), list.end());
    for (const auto& copies : o.by_vid)
        for (const Seen& c : copies)
            o.split = o.split || !same_bits(c.pos.data(), copies.front().pos.data(), 3) ||
                      (c.has_uv && copies.front().has_uv &&
                       !same_bits(c.uv.data(), copies.front().uv.data(), 2));
    return o;
}

// OBJ writers round: Blender prints 6 decimals. A value within this of the exported one is the
// exported value (positions and UVs; a smaller edit is not seen).
constexpr double kObjRounding = 1e-5;

// 2: the same position and UV bits; 1: the same within kObjRounding; 0: different.
int match(const scene::Primitive& a, size_t v, const scene::Primitive& b, size_t w) {
    const auto &pa = a.attributes.at("POSITION").data, &pb = b.attributes.at("POSITION").data;
    const scene::Attribute *ua = find_attribute(a, "TEXCOORD_0"),
                           *ub = find_attribute(b, "TEXCOORD_0");
    bool exact = true;
    for (size_t k = 0; k < 3; ++k) {
        if (std::abs(double(pa[3 * v + k]) - pb[3 * w + k]) > kObjRounding) return 0;
        exact = exact && same_bits(&pa[3 * v + k], &pb[3 * w + k], 1);
    }
    if (ua && ub)
        for (size_t k = 0; k < 2; ++k) {
            if (std::abs(double(ua->data[2 * v + k]) - ub->data[2 * w + k]) > kObjRounding)
                return 0;
            exact = exact && same_bits(&ua->data[2 * v + k], &ub->data[2 * w + k], 1);
        }
    return exact ? 2 : 1;
}

// Vertex v of `dst` takes the position and UV of vertex w of `ref` when it is only a rounded copy.
void snap_if_rounded(scene::Primitive& dst, size_t v, const scene::Primitive& ref, size_t w) {
    if (match(dst, v, ref, w) != 1) return;
    auto& p = dst.attributes.at("POSITION").data;
    const auto& q = ref.attributes.at("POSITION").data;
    std::copy(q.begin() + long(3 * w), q.begin() + long(3 * w + 3), p.begin() + long(3 * v));
    const scene::Attribute* ru = find_attribute(ref, "TEXCOORD_0");
    if (auto it = dst.attributes.find("TEXCOORD_0"); it != dst.attributes.end() && ru)
        std::copy(ru->data.begin() + long(2 * w), ru->data.begin() + long(2 * w + 2),
                  it->second.data.begin() + long(2 * v));
}

// The normals of the two vertices agree within the import tolerance (or one has none).
bool normal_close(const scene::Primitive& a, size_t v, const scene::Primitive& b, size_t w);

std::string material_name(const scene::Scene& s, int material) {
    return material >= 0 && size_t(material) < s.materials.size()
               ? s.materials[size_t(material)].name
               : std::string();
}

// OBJ carries no TEXCOORD_1. Each incoming group takes the identities of the reference
// primitive of the same object and group, vertex by vertex in order, when the vertex counts agree;
// otherwise each vertex takes the identity of the reference vertex of that object with the same
// position and UV (exactly, else within kObjRounding; none when there is no such vertex: new
// geometry). A vertex that is only a rounded copy takes the reference's exact values. Objects that
// are not in the reference stay without identity (new parts). `strict` (the re-read export itself)
// requires the same objects, groups and counts.
void assign_obj_identity(scene::Scene& in, const scene::Scene& ref, bool strict,
                         const std::string& where) {
    std::map<std::string, size_t> node_by_name;
    for (size_t i = 0; i < ref.nodes.size(); ++i)
        if (ref.nodes[i].mesh >= 0) node_by_name[obj::name_token(ref.nodes[i].name)] = i;
    for (scene::Node& node : in.nodes) {
        if (node.mesh < 0) continue;
        const auto it = node_by_name.find(node.name);
        if (it == node_by_name.end()) {
            if (strict) throw FormatError(where, 0, "OBJ object '" + node.name + "' lost");
            continue;
        }
        const scene::Mesh& src = ref.meshes.at(size_t(ref.nodes[it->second].mesh));
        scene::Mesh& dst = in.meshes.at(size_t(node.mesh));
        bool by_order = dst.primitives.size() == src.primitives.size();
        for (size_t p = 0; by_order && p < dst.primitives.size(); ++p)
            by_order = dst.primitives[p].attributes.at("POSITION").count() ==
                       src.primitives[p].attributes.at("TEXCOORD_1").count();
        if (by_order) {
            for (size_t p = 0; p < dst.primitives.size(); ++p) {
                dst.primitives[p].attributes["TEXCOORD_1"] =
                    src.primitives[p].attributes.at("TEXCOORD_1");
                if (!strict)
                    for (size_t v = 0; v < dst.primitives[p].attributes.at("POSITION").count(); ++v)
                        snap_if_rounded(dst.primitives[p], v, src.primitives[p], v);
            }
            continue;
        }
        if (strict) throw FormatError(where, 0, "OBJ object '" + node.name + "' changed");
        // Reference vertices on a grid of kObjRounding-sized cells (a rounded value lies in a
        // neighbouring cell at most).
        using Cell = std::array<int64_t, 3>;
        auto cell_of = [](const float* p, int dx, int dy, int dz) {
            const int d[3] = {dx, dy, dz};
            Cell c{};
            for (int k = 0; k < 3; ++k)
                c[size_t(k)] = int64_t(std::floor(double(p[k]) / (4 * kObjRounding))) + d[k];
            return c;
        };
        std::map<Cell, std::vector<std::pair<size_t, size_t>>> grid; // cell -> (primitive, vertex)
        for (size_t p = 0; p < src.primitives.size(); ++p) {
            const auto& pos = src.primitives[p].attributes.at("POSITION").data;
            for (size_t v = 0; v < pos.size() / 3; ++v)
                grid[cell_of(&pos[3 * v], 0, 0, 0)].push_back({p, v});
        }
        for (scene::Primitive& p : dst.primitives) {
            scene::Attribute id{2, {}};
            for (size_t v = 0; v < p.attributes.at("POSITION").count(); ++v) {
                // The best reference vertex: exact before rounded, the same material (usemtl)
                // before another (vertices of different batches may share position and UV).
                std::optional<std::pair<size_t, size_t>> best;
                int best_rank = 0;
                const float* at = &p.attributes.at("POSITION").data[3 * v];
                for (int dx = -1; dx <= 1; ++dx)
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dz = -1; dz <= 1; ++dz) {
                            const auto it = grid.find(cell_of(at, dx, dy, dz));
                            if (it == grid.end()) continue;
                            for (const auto& [sp, sv] : it->second) {
                                const int m = match(p, v, src.primitives[sp], sv);
                                if (!m) continue;
                                const int rank =
                                    100 * m +
                                    10 * (material_name(in, p.material) ==
                                          material_name(ref, src.primitives[sp].material)) +
                                    normal_close(p, v, src.primitives[sp], sv);
                                if (rank > best_rank) best_rank = rank, best = std::pair{sp, sv};
                            }
                        }
                const auto& hit = best;
                if (hit) snap_if_rounded(p, v, src.primitives[hit->first], hit->second);
                const scene::Attribute* sid =
                    hit ? &src.primitives[hit->first].attributes.at("TEXCOORD_1") : nullptr;
                id.data.push_back(sid ? sid->data[2 * hit->second] : -1.0f);
                id.data.push_back(sid ? sid->data[2 * hit->second + 1] : -1.0f);
            }
            p.attributes["TEXCOORD_1"] = std::move(id);
        }
    }
}

double angle_deg(const F3& a, const F3& b) {
    const double la = std::sqrt(double(a[0]) * a[0] + double(a[1]) * a[1] + double(a[2]) * a[2]);
    const double lb = std::sqrt(double(b[0]) * b[0] + double(b[1]) * b[1] + double(b[2]) * b[2]);
    if (!(la > 0) || !(lb > 0)) return 180;
    const double c = std::clamp(
        (double(a[0]) * b[0] + double(a[1]) * b[1] + double(a[2]) * b[2]) / (la * lb), -1.0, 1.0);
    return std::acos(c) * 180 / 3.14159265358979323846;
}

bool normal_close(const scene::Primitive& a, size_t v, const scene::Primitive& b, size_t w) {
    const scene::Attribute *na = find_attribute(a, "NORMAL"), *nb = find_attribute(b, "NORMAL");
    if (!na || !nb) return true;
    const F3 x{na->data[3 * v], na->data[3 * v + 1], na->data[3 * v + 2]};
    const F3 y{nb->data[3 * w], nb->data[3 * w + 1], nb->data[3 * w + 2]};
    return angle_deg(x, y) <= kNormalToleranceDegrees;
}

ExportOptions options_from(const sidecar::ModelSidecar& sc, bool& skin) {
    ExportOptions opt;
    const json& o = sc.doc.at("export").at("options");
    auto choice = [](const json& j) { return j.is_string() ? kAll : j.get<int>(); };
    opt.lod = choice(o.value("lod", json(0)));
    opt.group = choice(o.value("group", json(0)));
    opt.msft_lod = o.value("msft_lod", false);
    opt.fps = sc.fps;
    skin = o.value("skin", false);
    if (sc.doc.contains("wear"))
        opt.material_names = sc.doc["wear"].value("rows", std::vector<std::string>{});
    return opt;
}

// Linear/slerp sample of a channel at time t (seconds).
std::vector<double> sample(const scene::Channel& c, double t) {
    const size_t comps = c.path == scene::Path::Rotation ? 4 : 3;
    const size_t n = c.times.size();
    if (t <= c.times.front())
        return std::vector<double>(c.values.begin(), c.values.begin() + long(comps));
    if (t >= c.times.back())
        return std::vector<double>(c.values.end() - long(comps), c.values.end());
    size_t k = 0;
    while (k + 1 < n && c.times[k + 1] <= t) ++k;
    const double a = (t - c.times[k]) / (double(c.times[k + 1]) - c.times[k]);
    std::vector<double> out(comps);
    for (size_t i = 0; i < comps; ++i)
        out[i] = c.values[k * comps + i] * (1 - a) + c.values[(k + 1) * comps + i] * a;
    if (comps == 4) { // nlerp is enough between keys that already sit on whole frames
        double l = 0;
        for (double v : out) l += v * v;
        l = std::sqrt(l);
        for (double& v : out) v /= l;
    }
    return out;
}

bool channels_equal(const scene::Channel* a, const scene::Channel* b) {
    if (!a || !b) return a == b;
    if (a->times.size() != b->times.size() || a->values.size() != b->values.size()) return false;
    for (size_t i = 0; i < a->times.size(); ++i)
        if (std::abs(double(a->times[i]) - b->times[i]) > 1e-6) return false;
    const size_t comps = a->path == scene::Path::Rotation ? 4 : 3;
    for (size_t k = 0; k < a->times.size(); ++k) {
        double same = 0, flipped = 0;
        for (size_t c = 0; c < comps; ++c) {
            same = std::max(same,
                            std::abs(double(a->values[k * comps + c]) - b->values[k * comps + c]));
            flipped = std::max(
                flipped, std::abs(double(a->values[k * comps + c]) + b->values[k * comps + c]));
        }
        if (std::min(same, comps == 4 ? flipped : same) > 1e-5) return false;
    }
    return true;
}

// ---- topology edits: the incoming triangles of every slot --------------------------------------

// A scene node the export does not know: a new MSH node (appended) holding one new slot.
struct NewPart {
    size_t incoming = 0; // scene node
    size_t node = 0;     // MSH node index
};

struct GeometryInput {
    std::vector<SlotEdit> edits;
    std::vector<NewPart> new_parts;
};

int material_row(const scene::Scene& in, int material, const scene::Scene& exported) {
    if (material < 0 || size_t(material) >= in.materials.size()) return -1;
    const scene::Material& mat = in.materials[size_t(material)];
    if (mat.extras.is_object() && mat.extras.contains("wear_row") &&
        mat.extras["wear_row"].is_number_integer())
        return mat.extras["wear_row"].get<int>();
    for (const scene::Material& e : exported.materials)
        if ((e.name == mat.name || obj::name_token(e.name) == mat.name) &&
            e.extras.contains("wear_row"))
            return e.extras["wear_row"].get<int>();
    return -1;
}

// Corner `v` of primitive `p`, compared with the export and mapped into the slot node's frame.
InCorner make_corner(const scene::Primitive& p, size_t v, const Rigid* to_local,
                     const Observed& want, size_t vertex_count) {
    InCorner c;
    const auto& pos = p.attributes.at("POSITION").data;
    F3 g{pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]};
    const scene::Attribute* nrm = find_attribute(p, "NORMAL");
    const scene::Attribute* uv = find_attribute(p, "TEXCOORD_0");
    std::memcpy(c.key.data(), g.data(), 12);
    if (uv) {
        c.has_uv = true;
        c.uv = {uv->data[2 * v], uv->data[2 * v + 1]};
        std::memcpy(c.key.data() + 3, c.uv.data(), 8);
    }
    F3 n{};
    if (nrm)
        c.has_normal = true, n = {nrm->data[3 * v], nrm->data[3 * v + 1], nrm->data[3 * v + 2]};
    if (const auto id = identity_of(find_attribute(p, "TEXCOORD_1"), v, vertex_count)) {
        c.vid = id->first;
        c.batch = id->second;
        if (!want.by_vid[id->first].empty()) {
            const Seen& e = want.by_vid[id->first].front();
            c.pos_as_exported = same_bits(g.data(), e.pos.data(), 3);
            c.uv_as_exported = !c.has_uv || !e.has_uv || same_bits(c.uv.data(), e.uv.data(), 2);
            c.normal_as_exported =
                !c.has_normal || !e.has_n || angle_deg(n, e.nrm) <= kNormalToleranceDegrees;
        }
    }
    if (to_local) g = scene::apply(*to_local, g), n = scene::apply_rotation(*to_local, n);
    const F3 q = from_gltf(g), qn = from_gltf(n);
    c.pos = {q[0], q[1], q[2]};
    c.normal = qn;
    return c;
}

// Sorts the incoming triangles into slots (design.md §2 identities): a node the export wrote
// holds its slot's triangles; a skinned holder's triangles go to the slot of the batch their
// vertices claim (or of their first vertex's joint); `<node>@lod1g4` adds that slot to an MSH
// node; any other unknown mesh node is a new part.
GeometryInput gather_geometry(const Model& orig, const scene::Scene& exported,
                              const scene::Scene& incoming, const Observed& want,
                              const std::vector<int>& msh_of_incoming,
                              const std::vector<Rigid>& world, bool world_space, bool obj,
                              const std::string& where) {
    const size_t V = orig.positions.size(), joints = orig.nodes.size();
    GeometryInput g;
    std::map<uint16_t, size_t> edit_of_slot;
    std::map<std::tuple<size_t, int, int>, size_t> edit_of_new;
    auto edit_for = [&](size_t node, int lod, int group) -> SlotEdit& {
        const uint16_t s = node < joints ? orig.nodes[node].slot(lod, group) : kNone;
        if (s != kNone) {
            auto [it, inserted] = edit_of_slot.try_emplace(s, g.edits.size());
            if (inserted) g.edits.push_back({s, node, lod, group, {}});
            return g.edits[it->second];
        }
        auto [it, inserted] = edit_of_new.try_emplace({node, lod, group}, g.edits.size());
        if (inserted) g.edits.push_back({kNone, node, lod, group, {}});
        return g.edits[it->second];
    };
    std::vector<int> slot_owner(orig.slots.size(), -1);
    for (size_t k = 0; k < joints; ++k)
        for (uint16_t w : orig.nodes[k].slots)
            if (w < slot_owner.size()) slot_owner[w] = int(k);
    std::vector<int> slot_of_batch(orig.batches.size(), -1);
    for (size_t s = 0; s < orig.slots.size(); ++s)
        for (size_t b = orig.slots[s].batch_start;
             b < size_t(orig.slots[s].batch_start) + orig.slots[s].batch_count &&
             b < slot_of_batch.size();
             ++b)
            slot_of_batch[b] = int(s);
    // Every exported slot gets an edit, so a slot whose triangles all went away is removed.
    for (const auto& [batch, list] : want.tris)
        if (batch < slot_of_batch.size() && slot_of_batch[batch] >= 0) {
            const uint16_t s = uint16_t(slot_of_batch[batch]);
            if (!edit_of_slot.count(s) && slot_owner[s] >= 0) {
                edit_of_slot[s] = g.edits.size();
                g.edits.push_back({s, size_t(slot_owner[s]), 0, 0, {}});
            }
        }
    std::map<std::string, size_t> exported_by_name;
    for (size_t x = 0; x < exported.nodes.size(); ++x)
        if (exported.nodes[x].mesh >= 0)
            exported_by_name[obj ? obj::name_token(exported.nodes[x].name)
                                 : exported.nodes[x].name] = x;
    std::vector<int> new_node_of(incoming.nodes.size(), -1);

    for (size_t i = 0; i < incoming.nodes.size(); ++i) {
        const scene::Node& node = incoming.nodes[i];
        if (node.mesh < 0) continue;
        // The exported mesh node this one is: by name, else by extras.
        int x = -1;
        if (auto it = exported_by_name.find(node.name); it != exported_by_name.end())
            x = int(it->second);
        else if (node.extras.is_object() && node.extras.contains("lod") && node.parent >= 0 &&
                 msh_of_incoming[size_t(node.parent)] >= 0)
            for (size_t e = 0; e < exported.nodes.size(); ++e) {
                const scene::Node& en = exported.nodes[e];
                if (en.mesh >= 0 && en.parent == msh_of_incoming[size_t(node.parent)] &&
                    en.extras.value("lod", -1) == node.extras.value("lod", -2) &&
                    en.extras.value("group", -1) == node.extras.value("group", -2))
                    x = int(e);
            }
        else if (msh_of_incoming[i] >= 0 && size_t(msh_of_incoming[i]) < exported.nodes.size() &&
                 exported.nodes[size_t(msh_of_incoming[i])].mesh >= 0)
            x = msh_of_incoming[i];
        const nlohmann::json* mx =
            x >= 0 ? &exported.meshes[size_t(exported.nodes[size_t(x)].mesh)].extras : nullptr;
        const bool skinned = mx && mx->value("skinned", false);
        size_t node_k = 0;
        int lod = 0, group = 0;
        bool fixed_slot = false;
        if (x >= 0 && !skinned) {
            node_k = mx->at("node").get<size_t>();
            lod = mx->at("lod").get<int>();
            group = mx->at("group").get<int>();
            fixed_slot = true;
        } else if (skinned) {
            lod = mx->value("lod", 0);
            group = mx->value("group", 0);
        } else {
            std::string base;
            const auto sfx = parse_slot_name(node.name, &base);
            int k = -1;
            for (size_t e = 0; sfx && e < joints && e < exported.nodes.size(); ++e)
                if (exported.nodes[e].name == base ||
                    obj::name_token(exported.nodes[e].name) == base)
                    k = int(e);
            if (k >= 0) {
                if (orig.nodes[size_t(k)].slot(sfx->first, sfx->second) != kNone)
                    throw FormatError(where, 0,
                                      "mesh node '" + node.name +
                                          "' adds to a slot the export did not write; export "
                                          "with --lod all --group all to edit it");
                node_k = size_t(k), lod = sfx->first, group = sfx->second;
            } else {
                node_k = joints + g.new_parts.size();
                g.new_parts.push_back({i, node_k});
                new_node_of[i] = int(node_k);
            }
            fixed_slot = true;
        }
        const scene::Mesh& mesh = incoming.meshes.at(size_t(node.mesh));
        for (const scene::Primitive& p : mesh.primitives) {
            if (p.mode != scene::Primitive::Mode::Triangles) continue;
            const int row = material_row(incoming, p.material, exported);
            const scene::Attribute* id = find_attribute(p, "TEXCOORD_1");
            const scene::Attribute* jnt = find_attribute(p, "JOINTS_0");
            for (size_t t = 0; t + 2 < p.indices.size(); t += 3) {
                size_t k = node_k;
                int l = lod, gr = group;
                if (!fixed_slot) { // skinned: the slot of a claimed batch, else the joint's
                    int slot = -1;
                    for (int c = 0; c < 3 && slot < 0; ++c)
                        if (auto ident = identity_of(id, p.indices[t + size_t(c)], V))
                            if (ident->second < slot_of_batch.size())
                                slot = slot_of_batch[ident->second];
                    if (slot >= 0 && slot_owner[size_t(slot)] >= 0) {
                        k = size_t(slot_owner[size_t(slot)]);
                        for (int w = 0; w < kSlotWords; ++w)
                            if (orig.nodes[k].slots[size_t(w)] == slot)
                                l = w / kGroups, gr = w % kGroups;
                    } else if (jnt && jnt->data.size() >= 4 * (p.indices[t] + 1)) {
                        k = size_t(jnt->data[4 * p.indices[t]]);
                        if (k >= joints)
                            throw FormatError(where, 0,
                                              "a skinned vertex names joint " + std::to_string(k) +
                                                  " of " + std::to_string(joints));
                    } else {
                        throw FormatError(where, 0,
                                          "a new triangle of skinned mesh '" + mesh.name +
                                              "' has neither a vertex identity nor a joint");
                    }
                }
                const bool is_new = k >= joints;
                const Rigid local = world_space && !is_new ? inverse(world.at(k)) : Rigid{};
                InTriangle tri;
                tri.material_row = row;
                for (int c = 0; c < 3; ++c)
                    tri.corner[size_t(c)] =
                        make_corner(p, p.indices[t + size_t(c)],
                                    world_space && !is_new ? &local : nullptr, want, V);
                edit_for(k, l, gr).triangles.push_back(tri);
            }
        }
    }
    return g;
}

} // namespace

ImportResult import_scene(const scene::Scene& incoming_in, const sidecar::ModelSidecar& sc,
                          bool obj, const std::string& where) {
    DiagnosticSink sink(ReadMode::Tolerant);
    const Model orig = read_model(sc.original_image, sink, where + " (sidecar original)");
    if (sink.has_errors())
        throw FormatError(where, 0,
                          "the sidecar's original model does not read: " +
                              sink.diagnostics().front().to_string());
    bool skin = false;
    const ExportOptions opt = options_from(sc, skin);
    const scene::Scene node_scene = model_to_scene(orig, opt);
    const size_t joints = orig.legacy_nodes ? 1 : orig.nodes.size();
    const scene::Scene exported = skin ? skin_scene(node_scene, joints) : node_scene;

    scene::Scene incoming = incoming_in;
    scene::Scene expected = exported;
    if (obj) {
        expected = obj::read(obj::write(exported, "x.mtl").obj, "export");
        assign_obj_identity(expected, exported, true, where);
        assign_obj_identity(incoming, expected, false, where);
    }
    const size_t vertex_count = orig.positions.size();
    const Observed want = observe(expected, vertex_count);
    const Observed got = observe(incoming, vertex_count);

    json report = {{"nodes", json::array()}, {"warnings", json::array()}};
    std::vector<std::string> warnings;

    // Topology: the same triangles (as identity triples) in every batch, every vertex once.
    bool topology = got.incomplete || got.split || got.tris.size() != want.tris.size();
    for (const auto& [batch, list] : want.tris) {
        auto it = got.tris.find(batch);
        topology = topology || it == got.tris.end() || it->second != list;
    }
    if (topology && orig.legacy_nodes)
        throw FormatError(where, 0,
                          "the triangles changed, but the legacy stride-24 node table of this "
                          "model cannot be rebuilt; only vertex edits are supported");

    Model m = orig;
    // Node frames for world-space inputs (OBJ, skin): the rest pose of the exported node scene.
    const std::vector<Rigid> world = world_transforms(node_scene);
    std::vector<int> owner(orig.positions.size(), -1); // MSH node of each vertex (frame)
    {
        const Observed frames = observe(node_scene, orig.positions.size());
        for (size_t v = 0; v < frames.by_vid.size(); ++v)
            if (!frames.by_vid[v].empty()) {
                int n = frames.by_vid[v].front().node;
                owner[v] = n < int(joints) ? n : node_scene.nodes[size_t(n)].parent;
            }
    }
    const bool world_space = obj || skin;
    std::vector<size_t> moved_per_node(joints, 0), normals_per_node(joints, 0),
        uvs_per_node(joints, 0);
    std::vector<bool> moved(orig.positions.size(), false);
    size_t moved_total = 0, normals_total = 0, uvs_total = 0;
    for (size_t v = 0; v < want.by_vid.size() && !topology; ++v) {
        if (want.by_vid[v].empty()) continue;
        const Seen& e = want.by_vid[v].front();
        // The first copy that differs from the export carries the edit (DCCs split vertices).
        const Seen* pos_edit = nullptr;
        const Seen* uv_edit = nullptr;
        const Seen* n_edit = nullptr;
        for (const Seen& s : got.by_vid[v]) {
            if (!pos_edit && !same_bits(s.pos.data(), e.pos.data(), 3)) pos_edit = &s;
            if (!uv_edit && s.has_uv && e.has_uv && !same_bits(s.uv.data(), e.uv.data(), 2))
                uv_edit = &s;
            if (!n_edit && s.has_n && e.has_n && angle_deg(s.nrm, e.nrm) > kNormalToleranceDegrees)
                n_edit = &s;
        }
        const size_t node = owner[v] >= 0 ? size_t(owner[v]) : 0;
        const Rigid to_local = inverse(world.at(std::min(node, world.size() - 1)));
        if (pos_edit) {
            F3 p = pos_edit->pos;
            if (world_space) p = scene::apply(to_local, p);
            const F3 q = from_gltf(p);
            m.positions[v] = {q[0], q[1], q[2]};
            moved[v] = true;
            ++moved_total;
            if (node < joints) ++moved_per_node[node];
        }
        if (uv_edit) {
            m.uvs[v] = {encode_uv(uv_edit->uv[0]), encode_uv(uv_edit->uv[1])};
            ++uvs_total;
            if (node < joints) ++uvs_per_node[node];
        }
        if (n_edit && v < m.normals.size()) {
            F3 n = n_edit->nrm;
            if (world_space) n = scene::apply_rotation(to_local, n);
            const F3 q = from_gltf(n);
            m.normals[v] = {encode_normal_component(q[0]), encode_normal_component(q[1]),
                            encode_normal_component(q[2]), orig.normals[v][3]};
            ++normals_total;
            if (node < joints) ++normals_per_node[node];
        }
    }
    if (moved_total && orig.legacy_nodes) {
        // Bounds of the legacy model need the node table, which is kept raw.
        warnings.push_back("legacy stride-24 model: vertices moved, bounds kept");
    }

    // Nodes: identity by extras.index, else by name.
    std::vector<int> incoming_node_of(joints, -1);
    std::vector<int> msh_of_incoming(incoming.nodes.size(), -1);
    for (size_t i = 0; i < incoming.nodes.size(); ++i) {
        const scene::Node& n = incoming.nodes[i];
        int idx = -1;
        if (n.extras.is_object() && n.extras.contains("index") &&
            n.extras["index"].is_number_integer() && !n.extras.contains("lod"))
            idx = n.extras["index"].get<int>();
        else
            for (size_t k = 0; k < joints && k < exported.nodes.size(); ++k)
                if (exported.nodes[k].name == n.name) idx = int(k);
        if (idx >= 0 && size_t(idx) < joints && incoming_node_of[size_t(idx)] < 0) {
            incoming_node_of[size_t(idx)] = int(i);
            msh_of_incoming[i] = idx;
        }
    }
    std::vector<bool> renamed(joints, false), reparented(joints, false),
        rest_changed(joints, false);
    bool names_changed = false, parents_changed = false;
    // OBJ carries geometry only: node names, hierarchy, rest pose and animation come from the
    // sidecar.
    if (!orig.legacy_nodes && !obj) {
        for (size_t k = 0; k < joints; ++k) {
            const int i = incoming_node_of[k];
            if (i < 0) { // a deleted object: the node stays (game code addresses nodes by index)
                warnings.push_back("node '" + exported.nodes[k].name +
                                   "' is not in the file: kept as it was, its geometry removed");
                continue;
            }
            const scene::Node& n = incoming.nodes[size_t(i)];
            if (n.name != exported.nodes[k].name) {
                renamed[k] = names_changed = true;
                if (m.has(kNodeStrings)) m.node_strings[k] = {true, n.name};
                if (auto e = m.container.find_type(kNodeNames32);
                    e && m.container.entries[*e].data.size() == 32 * joints) {
                    if (n.name.size() > 31)
                        throw FormatError(
                            where, 0, "node name '" + n.name + "' is longer than Res9's 31 bytes");
                    uint8_t* rec = m.container.entries[*e].data.data() + 32 * k;
                    std::memset(rec, 0, 32);
                    std::memcpy(rec, n.name.data(), n.name.size());
                } else if (!m.has(kNodeStrings)) {
                    throw FormatError(
                        where, 0,
                        "node '" + exported.nodes[k].name +
                            "' was renamed, but the model has no Res10/Res9 to hold names");
                }
            }
            // Parent: the nearest ancestor that is an MSH node (DCCs may insert armature nodes).
            int p = n.parent;
            while (p >= 0 && msh_of_incoming[size_t(p)] < 0) p = incoming.nodes[size_t(p)].parent;
            const uint16_t parent = p < 0 ? kNone : uint16_t(msh_of_incoming[size_t(p)]);
            if (parent != orig.nodes[k].parent) {
                if (parent != kNone && parent >= k)
                    throw FormatError(
                        where, 0,
                        "node '" + n.name + "' now has parent " + std::to_string(parent) +
                            ", which is not before it; the engine needs parent < child");
                m.nodes[k].parent = parent;
                reparented[k] = parents_changed = true;
            }
            const scene::Node& e = exported.nodes[k];
            double dt = 0, dq = 0, dqf = 0;
            for (int c = 0; c < 3; ++c)
                dt = std::max(
                    dt, std::abs(double(n.translation[size_t(c)]) - e.translation[size_t(c)]));
            for (int c = 0; c < 4; ++c) {
                dq = std::max(dq, std::abs(double(n.rotation[size_t(c)]) - e.rotation[size_t(c)]));
                dqf =
                    std::max(dqf, std::abs(double(n.rotation[size_t(c)]) + e.rotation[size_t(c)]));
            }
            rest_changed[k] = dt > 1e-6 || std::min(dq, dqf) > 1e-6;
        }
    }

    // Topology edits: the incoming triangles of each slot; unknown mesh nodes become new nodes
    // after the existing ones (parents first), with Res10/Res9 names and a static or animated
    // track.
    GeometryInput geometry;
    if (topology) {
        geometry = gather_geometry(orig, exported, incoming, want, msh_of_incoming, world,
                                   world_space, obj, where);
        for (const NewPart& np : geometry.new_parts) msh_of_incoming[np.incoming] = int(np.node);
        const auto res9 = m.container.find_type(kNodeNames32);
        const bool res9_names = res9 && m.container.entries[*res9].data.size() == 32 * joints;
        for (const NewPart& np : geometry.new_parts) {
            const scene::Node& n = incoming.nodes[np.incoming];
            Node node;
            int p = n.parent;
            while (p >= 0 && msh_of_incoming[size_t(p)] < 0) p = incoming.nodes[size_t(p)].parent;
            if (p >= 0 && size_t(msh_of_incoming[size_t(p)]) >= np.node)
                throw FormatError(where, 0,
                                  "new node '" + n.name + "' comes before its new parent '" +
                                      incoming.nodes[size_t(p)].name + "' in the file");
            if (p >= 0) node.parent = uint16_t(msh_of_incoming[size_t(p)]);
            m.nodes.push_back(node);
            if (m.has(kNodeStrings)) m.node_strings.push_back({true, n.name});
            if (res9_names) {
                nres::Entry& e = m.container.entries[*res9];
                std::string name = n.name.substr(0, 31);
                if (name.size() < n.name.size())
                    warnings.push_back("node '" + n.name + "': Res9 keeps its first 31 bytes");
                const size_t at = e.data.size();
                e.data.resize(at + 32, 0);
                std::memcpy(e.data.data() + at, name.data(), name.size());
                if (e.attr1 == joints + (&np - geometry.new_parts.data()))
                    e.attr1 = uint32_t(m.nodes.size());
            }
            report["new_parts"].push_back(n.name);
        }
        if (m.nodes.size() > 0xFFFF)
            throw FormatError(where, 0,
                              "the edited model has " + std::to_string(m.nodes.size()) +
                                  " nodes; Res1 parents address at most 65,535");
    }
    const size_t node_total = m.nodes.size();
    incoming_node_of.resize(node_total, -1);
    for (const NewPart& np : geometry.new_parts) incoming_node_of[np.node] = int(np.incoming);

    // Animation: per node, the incoming channels against the exported ones.
    bool animation_changed = !geometry.new_parts.empty();
    std::vector<bool> track_changed(node_total, false);
    for (size_t k = joints; k < node_total; ++k) track_changed[k] = true;
    auto channel_of = [](const scene::Scene& s, int node,
                         scene::Path path) -> const scene::Channel* {
        if (s.animations.empty()) return nullptr;
        for (const scene::Channel& c : s.animations.front().channels)
            if (c.node == node && c.path == path) return &c;
        return nullptr;
    };
    if (!orig.legacy_nodes && !obj) {
        for (size_t k = 0; k < joints; ++k) {
            const int i = incoming_node_of[k];
            if (i < 0) continue; // not in the file: kept as it was
            for (scene::Path path : {scene::Path::Translation, scene::Path::Rotation})
                if (!channels_equal(channel_of(incoming, i, path),
                                    channel_of(exported, int(k), path)))
                    track_changed[k] = true;
            if (rest_changed[k] && !channel_of(incoming, i, scene::Path::Translation) &&
                !channel_of(incoming, i, scene::Path::Rotation))
                track_changed[k] = true;
            animation_changed = animation_changed || track_changed[k];
        }
    }
    if (animation_changed) {
        std::vector<anim::NodeFields> fields;
        for (const Node& n : orig.nodes) fields.push_back({n.map_start, n.fallback_key});
        std::vector<anim::Track> tracks = anim::decompose(orig.animation, fields);
        tracks.resize(node_total);
        for (size_t k = 0; k < node_total; ++k) {
            if (!track_changed[k]) continue;
            const int i = incoming_node_of[k];
            const scene::Channel* tc = channel_of(incoming, i, scene::Path::Translation);
            const scene::Channel* rc = channel_of(incoming, i, scene::Path::Rotation);
            std::vector<double> frames;
            for (const scene::Channel* c : {tc, rc})
                if (c)
                    for (float t : c->times) {
                        const double f = double(t) * opt.fps;
                        if (std::abs(f - std::round(f)) > 1e-3)
                            throw FormatError(where, 0,
                                              "node '" + incoming.nodes[size_t(i)].name +
                                                  "': a key at " + std::to_string(t) +
                                                  " s is not on a whole frame at " +
                                                  std::to_string(opt.fps) +
                                                  " fps; resampling is not supported yet");
                        frames.push_back(std::max(0.0, std::round(f)));
                    }
            if (frames.empty()) frames.push_back(0);
            std::sort(frames.begin(), frames.end());
            frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
            if (frames.front() != 0)
                frames.insert(frames.begin(), 0); // a first key later than 0 is copied to 0
            const scene::Node& n = incoming.nodes[size_t(i)];
            anim::Track track;
            for (double f : frames) {
                anim::Key key;
                key.time = float(f);
                F3 t = n.translation;
                anim::Quat q = n.rotation;
                if (tc) {
                    auto s = sample(*tc, f / opt.fps);
                    t = {float(s[0]), float(s[1]), float(s[2])};
                }
                if (rc) {
                    auto s = sample(*rc, f / opt.fps);
                    q = {float(s[0]), float(s[1]), float(s[2]), float(s[3])};
                }
                key.pos = from_gltf(t);
                const anim::Quat mq = from_gltf_quat(q);
                key.rot = anim::encode_quat(mq);
                // Raw-value rule: an original key at this time whose decoded rotation the export
                // produced unchanged keeps its raw i16 values (odd quaternions, -32768, signs).
                for (const anim::Key& o : tracks[k].keys)
                    if (o.time == key.time) {
                        const anim::Quat d = anim::decode_quat(o.rot);
                        double l = std::sqrt(double(d[0]) * d[0] + double(d[1]) * d[1] +
                                             double(d[2]) * d[2] + double(d[3]) * d[3]);
                        double same = 0, flip = 0;
                        for (int c = 0; c < 4; ++c) {
                            const double dn = l > 0 ? d[size_t(c)] / l : (c == 3 ? 1 : 0);
                            same = std::max(same, std::abs(dn - mq[size_t(c)]));
                            flip = std::max(flip, std::abs(dn + mq[size_t(c)]));
                        }
                        if (std::min(same, flip) < 1e-6) key.rot = o.rot;
                        if (std::abs(double(o.pos[0]) - key.pos[0]) < 1e-7 &&
                            std::abs(double(o.pos[1]) - key.pos[1]) < 1e-7 &&
                            std::abs(double(o.pos[2]) - key.pos[2]) < 1e-7)
                            key.pos = o.pos;
                    }
                track.keys.push_back(key);
            }
            tracks[k] = std::move(track);
        }
        anim::Composed c = anim::compose(tracks);
        m.animation = std::move(c.animation);
        for (size_t k = 0; k < node_total; ++k)
            m.nodes[k].map_start = c.nodes[k].map_start,
            m.nodes[k].fallback_key = c.nodes[k].fallback_key;
    }
    if (topology) retopologise(orig, m, geometry.edits, report, warnings, where);

    // Derived values.
    std::vector<bool> touched_slot(m.slots.size(), false);
    if (moved_total) {
        for (size_t si = 0; si < m.slots.size(); ++si) {
            const Slot& s = m.slots[si];
            size_t t = s.tri_start;
            for (size_t b = s.batch_start; b < size_t(s.batch_start) + s.batch_count; ++b) {
                const Batch& bt = m.batches[b];
                for (size_t k = 0; k + 2 < bt.index_count; k += 3, ++t) {
                    bool touch = false;
                    for (int c = 0; c < 3; ++c)
                        touch = touch ||
                                moved[bt.base_vertex + m.indices[bt.index_start + k + size_t(c)]];
                    if (!touch) continue;
                    touched_slot[si] = true;
                    if (t >= m.triangles.size()) continue;
                    const auto before = face_normal(orig, b, k / 3);
                    bool rule = true;
                    for (int c = 0; c < 3; ++c)
                        rule = rule && std::abs(int(before[size_t(c)]) -
                                                orig.triangles[t].normal[size_t(c)]) <= 1;
                    if (rule)
                        m.triangles[t].normal = face_normal(m, b, k / 3);
                    else
                        warnings.push_back("Res7 triangle " + std::to_string(t) +
                                           ": stored normal does not follow the rule; kept");
                }
            }
        }
        if (!orig.legacy_nodes) recompute_slot_bounds(orig, m, touched_slot, warnings);
    }
    if ((moved_total || animation_changed || parents_changed || topology) && !orig.legacy_nodes)
        recompute_header(orig, m, warnings);

    const bool changed = moved_total || uvs_total || normals_total || names_changed ||
                         parents_changed || animation_changed || topology;
    ImportResult r;
    r.identical = !changed;
    if (!changed) {
        r.image = sc.original_image;
    } else {
        if (orig.legacy_nodes && (names_changed || parents_changed || animation_changed))
            throw FormatError(where, 0, "the legacy stride-24 node table cannot be edited");
        r.image = write_model(m);
        DiagnosticSink check(ReadMode::Strict);
        read_model(r.image, check, where + " (imported)");
        if (check.has_errors())
            throw FormatError(where, 0,
                              "the imported model does not validate: " +
                                  check.diagnostics().front().to_string());
    }
    for (size_t k = 0; k < joints && k < exported.nodes.size(); ++k) {
        json n = {{"index", k}, {"name", exported.nodes[k].name}};
        if (moved_per_node[k]) n["vertices_moved"] = moved_per_node[k];
        if (normals_per_node[k]) n["normals_changed"] = normals_per_node[k];
        if (uvs_per_node[k]) n["uvs_changed"] = uvs_per_node[k];
        if (renamed[k]) n["renamed_to"] = incoming.nodes[size_t(incoming_node_of[k])].name;
        if (k < reparented.size() && reparented[k])
            n["new_parent"] = m.nodes[k].parent == kNone ? json(nullptr) : json(m.nodes[k].parent);
        if (k < track_changed.size() && track_changed[k]) n["animation_rebuilt"] = true;
        if (n.size() > 2) report["nodes"].push_back(n);
    }
    size_t touched = size_t(std::count(touched_slot.begin(), touched_slot.end(), true));
    report["identical"] = r.identical;
    report["summary"] = {{"vertices_moved", moved_total},
                         {"normals_changed", normals_total},
                         {"uvs_changed", uvs_total},
                         {"slots_with_bounds_recomputed", touched},
                         {"animation_rebuilt", animation_changed},
                         {"header_recomputed",
                          bool(moved_total || animation_changed || parents_changed || topology)}};
    for (const std::string& w : warnings) report["warnings"].push_back(w);
    r.report = std::move(report);
    return r;
}

} // namespace msh::mapping
