#include "scene_to_model.hpp"

#include "bounds.hpp"
#include "formats/obj.hpp"
#include "game_names.hpp"
#include "model_rebuild.hpp"
#include "model_to_scene.hpp"
#include "retopology.hpp"
#include "scene/transform.hpp"
#include "scene_identity.hpp"
#include "sidecar/binding_fields.hpp"
#include "sidecar/payload_hash.hpp"
#include "skin.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

namespace msh::mapping {

using scene::inverse;
using scene::Rigid;
using scene::world_transforms;

using nlohmann::json;

namespace {

ExportOptions options_from(const sidecar::ModelSidecar& sc, bool& skin) {
    ExportOptions opt;
    const sidecar::ExportedOptions& o = sc.record.options;
    static_assert(sidecar::kAllChoice == kAll);
    opt.lod = o.lod;
    opt.group = o.group;
    opt.msft_lod = o.msft_lod;
    opt.fps = sc.record.fps;
    skin = o.skin;
    opt.material_names = sc.record.wear_rows;
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

// A slot number, or `absent` without one; a foreign file's unreadable one fails (SlotNumber::get).
int number_or(const std::optional<scene::SlotNumber>& n, int absent) {
    return n ? n->get() : absent;
}

int material_row(const scene::Scene& in, int material, const scene::Scene& exported) {
    if (material < 0 || size_t(material) >= in.materials.size()) return -1;
    const scene::Material& mat = in.materials[size_t(material)];
    if (mat.identity.wear_row) return *mat.identity.wear_row;
    for (const scene::Material& e : exported.materials)
        if ((e.name == mat.name || obj::name_token(e.name) == mat.name) && e.identity.wear_row)
            return *e.identity.wear_row;
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
                              SlotNames slot_names, const std::string& where) {
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
        // The exported mesh node this one is: by name, else by its slot identity.
        int x = -1;
        if (auto it = exported_by_name.find(node.name); it != exported_by_name.end())
            x = int(it->second);
        else if (node.identity.lod && node.parent >= 0 && msh_of_incoming[size_t(node.parent)] >= 0)
            for (size_t e = 0; e < exported.nodes.size(); ++e) {
                const scene::Node& en = exported.nodes[e];
                if (en.mesh >= 0 && en.parent == msh_of_incoming[size_t(node.parent)] &&
                    number_or(en.identity.lod, -1) == number_or(node.identity.lod, -2) &&
                    number_or(en.identity.group, -1) == number_or(node.identity.group, -2))
                    x = int(e);
            }
        else if (msh_of_incoming[i] >= 0 && size_t(msh_of_incoming[i]) < exported.nodes.size() &&
                 exported.nodes[size_t(msh_of_incoming[i])].mesh >= 0)
            x = msh_of_incoming[i];
        const scene::MeshIdentity* mx =
            x >= 0 ? &exported.meshes[size_t(exported.nodes[size_t(x)].mesh)].identity : nullptr;
        const bool skinned = mx && mx->skinned.value_or(false);
        size_t node_k = 0;
        int lod = 0, group = 0;
        bool fixed_slot = false;
        if (x >= 0 && !skinned) {
            node_k = size_t(mx->node.value());
            lod = mx->lod.value().get();
            group = mx->group.value().get();
            fixed_slot = true;
        } else if (skinned) {
            lod = number_or(mx->lod, 0);
            group = number_or(mx->group, 0);
        } else {
            std::string base;
            const auto sfx = parse_slot_name(node.name, &base, slot_names);
            int k = -1;
            for (size_t e = 0; sfx && e < joints && e < exported.nodes.size(); ++e)
                if (exported.nodes[e].name == base ||
                    obj::name_token(exported.nodes[e].name) == base)
                    k = int(e);
            if (k >= 0) {
                if (orig.nodes[size_t(k)].slot(sfx->first, sfx->second) != kNone)
                    throw FormatError(where, Location::whole(),
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
                            throw FormatError(where, Location::whole(),
                                              "a skinned vertex names joint " + std::to_string(k) +
                                                  " of " + std::to_string(joints));
                    } else {
                        throw FormatError(where, Location::whole(),
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

namespace {

// ---- the import, phase by phase on one state ------------------------------------------------

// What the phases share: the original and the exported scene it became, the incoming scene, the
// model being edited and what each phase found.
struct SceneImport {
    SceneImport(const sidecar::ModelSidecar& sc, bool from_obj, const std::string& name,
                const std::string& sidecar_name)
        : sidecar(sc), obj(from_obj), where(name), sidecar_where(sidecar_name) {}

    const sidecar::ModelSidecar& sidecar;
    const bool obj;
    const std::string& where;
    const std::string& sidecar_where;

    Model orig;
    DerivedRules rules;                     // which derived values of orig follow their rule
    std::optional<RebuiltOriginal> rebuilt; // a binding sidecar's image, rebuilt
    ExportOptions opt;
    bool skin = false;
    size_t joints = 0;
    scene::Scene node_scene, exported, incoming, expected;
    Observed want, got;
    bool topology = false;

    Model m;
    bool world_space = false;
    std::vector<Rigid> world;
    std::vector<bool> moved;
    std::vector<NodeChange> node_changes; // one per joint, index and name set
    std::vector<int> incoming_node_of, msh_of_incoming;
    std::vector<bool> rest_changed, track_changed;
    bool names_changed = false, parents_changed = false, animation_changed = false;
    GeometryInput geometry;
    std::vector<bool> touched_slot;
    ModelChangeReport report;
    DiagnosticSink diagnostics{ReadMode::Tolerant}; // the phases' warnings, for the report
    // Sidecar node rows whose edit is not read (a name or parent the glTF decides): warned about,
    // and not reported as an edit.
    std::vector<size_t> unread_node_rows;

    // A sidecar value the import does not read, and where the value it uses comes from.
    void warn_unread(size_t row, int column, const std::string& field, const std::string& value,
                     const std::string& from) {
        diagnostics.warn(sidecar_where,
                         Location::at_pointer("/nodes/rows/" + std::to_string(row) + "/" +
                                              std::to_string(column)),
                         field + " " + value + " is not read: a node's " + field + " comes from " +
                             from + "; edit it there");
        unread_node_rows.push_back(row);
    }
    bool node_row_edited(size_t k) const {
        if (!rebuilt) return false;
        const std::string row = "/nodes/rows/" + std::to_string(k);
        return std::find(rebuilt->edited_rows.begin(), rebuilt->edited_rows.end(), row) !=
               rebuilt->edited_rows.end();
    }

    // A scene name as the game stores it (CP1251), with a warning when characters were replaced.
    std::string game_name(const std::string& utf8) {
        bool replaced = false;
        std::string game = to_game_name(utf8, &replaced);
        if (replaced)
            diagnostics.warn({}, Location::whole(),
                             "node '" + utf8 +
                                 "': characters CP1251 cannot hold are stored as '?'");
        return game;
    }

    void identify(const scene::Scene& incoming_scene);
    void diff_vertices();
    void diff_nodes();
    void add_new_parts();
    void rebuild_animation();
    anim::Track sampled_track(size_t k, const std::vector<anim::Track>& original_tracks) const;
    void recompute();
    ImportResult encode();
};

// Identify: the export the sidecar records, re-made from the original; the identities of the
// incoming scene (OBJ: assigned by order and position); the triangles of both sides.
void SceneImport::identify(const scene::Scene& incoming_scene) {
    DiagnosticSink sink(ReadMode::Tolerant);
    if (const auto& binding = sidecar.binding) {
        size_t carried = 0;
        for (const sidecar::VertexRange& r : binding->carried) carried += r.count;
        if (obj && carried < binding->vertex_count)
            throw FormatError(sidecar_where, Location::whole(),
                              "this sidecar was written for a glTF export, whose file holds the "
                              "vertices; an OBJ export writes its own sidecar");
        rebuilt = rebuild_original(*binding, incoming_scene, where);
        for (const std::string& row : rebuilt->edited_rows)
            if (row.starts_with("/vertices"))
                throw FormatError(sidecar_where, Location::at_pointer("/vertices"),
                                  std::string(sidecar::kVertexRecordEdited));
    }
    orig = read_model(rebuilt ? rebuilt->image : sidecar.original_image, sink,
                      where + " (sidecar original)");
    orig.animation.key_order = sidecar.record.readings.key_quaternion; // the export's reading
    if (sink.has_errors()) {
        std::string why = sink.diagnostics().front().text();
        if (const std::string own = where + " (sidecar original): "; why.starts_with(own))
            why.erase(0, own.size());
        // Rows of the sidecar a person edited: the rule they broke is theirs, named at its row.
        if (rebuilt && !rebuilt->edited_rows.empty()) {
            const std::string& first = rebuilt->edited_rows.front();
            throw FormatError(sidecar_where, Location::at_pointer(first.substr(0, first.find(' '))),
                              "this edit of the sidecar makes a model the game cannot read (" +
                                  why + ")");
        }
        throw FormatError(rebuilt ? sidecar_where : where, Location::whole(),
                          std::string(rebuilt ? "the model the sidecar describes"
                                              : "the sidecar's original model") +
                              " does not read: " + why);
    }
    if (rebuilt) {
        rules = sidecar.binding->rules;
        complete_rules(rules, orig);
    } else {
        rules = derived_rules(orig);
    }
    opt = options_from(sidecar, skin);
    node_scene = model_to_scene(orig, opt);
    joints = orig.legacy_nodes ? 1 : orig.nodes.size();
    exported = skin ? skin_scene(node_scene, joints) : node_scene;
    incoming = incoming_scene;
    expected = exported;
    if (obj) {
        expected = obj::read(obj::write(exported, "x.mtl").obj, "export");
        assign_obj_identity(expected, exported, true, where);
        assign_obj_identity(incoming, expected, false, where);
    }
    const size_t vertex_count = orig.positions.size();
    want = observe(expected, vertex_count);
    got = observe(incoming, vertex_count);
    // A UV whose original is unknown (an edit) compares as changed: no incoming value is NaN.
    if (rebuilt)
        for (size_t v = 0; v < rebuilt->uv_unknown.size() && v < vertex_count; ++v)
            if (rebuilt->uv_unknown[v])
                for (Seen& s : want.by_vid.mutable_copies(v))
                    s.uv = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::quiet_NaN()};

    // Topology: the same triangles (as identity triples) in every batch, every vertex once.
    topology = got.incomplete || got.split || got.tris.size() != want.tris.size();
    for (const auto& [batch, list] : want.tris) {
        auto it = got.tris.find(batch);
        topology = topology || it == got.tris.end() || it->second != list;
    }
    if (topology && orig.legacy_nodes)
        throw FormatError(where, Location::whole(),
                          "the triangles changed, but the legacy stride-24 node table of this "
                          "model cannot be rebuilt; only vertex edits are supported");
    m = orig;
    world_space = obj || skin;
    // Node frames for world-space inputs (OBJ, skin): the rest pose of the exported node scene.
    world = world_transforms(node_scene);
    node_changes.resize(joints);
    for (size_t k = 0; k < joints; ++k) {
        node_changes[k].index = k;
        if (k < exported.nodes.size()) node_changes[k].name = exported.nodes[k].name;
    }
}

// Diff (vertices): with the same triangles, each vertex's first copy that differs from the export
// carries its edit (DCCs split vertices); positions and normals back into the node's frame.
void SceneImport::diff_vertices() {
    moved.assign(orig.positions.size(), false);
    if (topology) return;
    std::vector<int> owner(orig.positions.size(), -1); // MSH node of each vertex (frame)
    const Observed frames = observe(node_scene, orig.positions.size());
    for (size_t v = 0; v < frames.by_vid.size(); ++v)
        if (!frames.by_vid[v].empty()) {
            int n = frames.by_vid[v].front().node;
            owner[v] = n < int(joints) ? n : node_scene.nodes[size_t(n)].parent;
        }
    for (size_t v = 0; v < want.by_vid.size(); ++v) {
        if (want.by_vid[v].empty()) continue;
        const Seen& e = want.by_vid[v].front();
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
        NodeChange* change = node < joints ? &node_changes[node] : nullptr;
        const Rigid to_local = inverse(world.at(std::min(node, world.size() - 1)));
        if (pos_edit) {
            F3 p = pos_edit->pos;
            if (world_space) p = scene::apply(to_local, p);
            const F3 q = from_gltf(p);
            m.positions[v] = {q[0], q[1], q[2]};
            moved[v] = true;
            ++report.vertices_moved;
            if (change) ++change->vertices_moved;
        }
        if (uv_edit) {
            m.uvs[v] = {encode_uv(uv_edit->uv[0]), encode_uv(uv_edit->uv[1])};
            ++report.uvs_changed;
            if (change) ++change->uvs_changed;
        }
        if (n_edit && v < m.normals.size()) {
            F3 n = n_edit->nrm;
            if (world_space) n = scene::apply_rotation(to_local, n);
            const F3 q = from_gltf(n);
            m.normals[v] = {encode_normal_component(q[0]), encode_normal_component(q[1]),
                            encode_normal_component(q[2]), orig.normals[v][3]};
            ++report.normals_changed;
            if (change) ++change->normals_changed;
        }
    }
    if (report.vertices_moved && orig.legacy_nodes) {
        // Bounds of the legacy model need the node table, which is kept raw.
        diagnostics.warn({}, Location::whole(),
                         "legacy stride-24 model: vertices moved, bounds kept");
    }
}

// Diff (nodes): identity by the node index, else by name; renames, new parents and rest poses.
// OBJ carries geometry only: node names, hierarchy, rest pose and animation come from the sidecar.
void SceneImport::diff_nodes() {
    incoming_node_of.assign(joints, -1);
    msh_of_incoming.assign(incoming.nodes.size(), -1);
    for (size_t i = 0; i < incoming.nodes.size(); ++i) {
        const scene::Node& n = incoming.nodes[i];
        int idx = -1;
        if (n.identity.index && !n.identity.lod)
            idx = *n.identity.index;
        else
            for (size_t k = 0; k < joints && k < exported.nodes.size(); ++k)
                if (exported.nodes[k].name == n.name) idx = int(k);
        if (idx >= 0 && size_t(idx) < joints && incoming_node_of[size_t(idx)] < 0) {
            incoming_node_of[size_t(idx)] = int(i);
            msh_of_incoming[i] = idx;
        }
    }
    rest_changed.assign(joints, false);
    if (obj && !orig.legacy_nodes)
        if (const auto& b = sidecar.binding)
            for (size_t k = 0; k < joints && k < b->node_names.size(); ++k)
                if (b->node_names[k] != exported.nodes[k].name)
                    warn_unread(k, 0, "name", "'" + b->node_names[k] + "'",
                                "the model's node strings, /node_strings/" + std::to_string(k) +
                                    " ('" + exported.nodes[k].name + "'; an OBJ holds none)");
    if (orig.legacy_nodes || obj) return;
    for (size_t k = 0; k < joints; ++k) {
        const int i = incoming_node_of[k];
        if (i < 0) { // a deleted object: the node stays (game code addresses nodes by index)
            diagnostics.warn({}, Location::whole(),
                             "node '" + exported.nodes[k].name +
                                 "' is not in the file: kept as it was, its geometry removed");
            continue;
        }
        const scene::Node& n = incoming.nodes[size_t(i)];
        // The sidecar shows each node's name; the model's names come from the file's nodes.
        if (const auto& b = sidecar.binding; b && k < b->node_names.size() &&
                                             b->node_names[k] != exported.nodes[k].name &&
                                             b->node_names[k] != n.name)
            warn_unread(k, 0, "name", "'" + b->node_names[k] + "'",
                        "the glTF node's name ('" + n.name + "')");
        if (n.name != exported.nodes[k].name) {
            node_changes[k].renamed_to = n.name;
            names_changed = true;
            const std::string game = game_name(n.name); // CP1251, as the engine reads it
            if (m.has(kNodeStrings)) m.node_strings[k] = {true, game};
            if (auto e = m.container.find_type(kNodeNames32);
                e && m.container.entries[*e].data.size() == 32 * joints) {
                if (game.size() > 31)
                    throw FormatError(where, Location::whole(),
                                      "node name '" + n.name + "' is longer than Res9's 31 bytes");
                uint8_t* rec = m.container.entries[*e].data.edit().data() + 32 * k;
                std::memset(rec, 0, 32);
                std::memcpy(rec, game.data(), game.size());
            } else if (!m.has(kNodeStrings)) {
                throw FormatError(where, Location::whole(),
                                  "node '" + exported.nodes[k].name +
                                      "' was renamed, but the model has no Res10/Res9 to hold "
                                      "names");
            }
        }
        // Parent: the nearest ancestor that is an MSH node (DCCs may insert armature nodes).
        int p = n.parent;
        while (p >= 0 && msh_of_incoming[size_t(p)] < 0) p = incoming.nodes[size_t(p)].parent;
        const uint16_t parent = p < 0 ? kNone : uint16_t(msh_of_incoming[size_t(p)]);
        if (parent != orig.nodes[k].parent && node_row_edited(k)) {
            // The sidecar's parent was edited; the file's hierarchy decides, as unedited.
            warn_unread(k, 2, "parent", std::to_string(orig.nodes[k].parent),
                        "the glTF hierarchy (" +
                            (p < 0 ? std::string("a root")
                                   : "under '" + incoming.nodes[size_t(p)].name + "'") +
                            ")");
            m.nodes[k].parent = parent;
            parents_changed = true;
        } else if (parent != orig.nodes[k].parent) {
            if (parent != kNone && parent >= k)
                throw FormatError(where, Location::whole(),
                                  "node '" + n.name + "' now has parent " + std::to_string(parent) +
                                      ", which is not before it; the engine needs parent < child");
            m.nodes[k].parent = parent;
            node_changes[k].reparented = parents_changed = true;
            if (parent != kNone) node_changes[k].new_parent = parent;
        }
        const scene::Node& e = exported.nodes[k];
        double dt = 0, dq = 0, dqf = 0;
        for (int c = 0; c < 3; ++c)
            dt =
                std::max(dt, std::abs(double(n.translation[size_t(c)]) - e.translation[size_t(c)]));
        for (int c = 0; c < 4; ++c) {
            dq = std::max(dq, std::abs(double(n.rotation[size_t(c)]) - e.rotation[size_t(c)]));
            dqf = std::max(dqf, std::abs(double(n.rotation[size_t(c)]) + e.rotation[size_t(c)]));
        }
        rest_changed[k] = dt > 1e-6 || std::min(dq, dqf) > 1e-6;
    }
}

// Apply (topology): the incoming triangles of each slot; unknown mesh nodes become new nodes after
// the existing ones (parents first), with Res10/Res9 names and a static or animated track.
void SceneImport::add_new_parts() {
    if (topology) {
        geometry = gather_geometry(orig, exported, incoming, want, msh_of_incoming, world,
                                   world_space, obj, sidecar.record.readings.slots, where);
        for (const NewPart& np : geometry.new_parts) msh_of_incoming[np.incoming] = int(np.node);
        const auto res9 = m.container.find_type(kNodeNames32);
        const bool res9_names = res9 && m.container.entries[*res9].data.size() == 32 * joints;
        for (const NewPart& np : geometry.new_parts) {
            const scene::Node& n = incoming.nodes[np.incoming];
            Node node;
            int p = n.parent;
            while (p >= 0 && msh_of_incoming[size_t(p)] < 0) p = incoming.nodes[size_t(p)].parent;
            if (p >= 0 && size_t(msh_of_incoming[size_t(p)]) >= np.node)
                throw FormatError(where, Location::whole(),
                                  "new node '" + n.name + "' comes before its new parent '" +
                                      incoming.nodes[size_t(p)].name + "' in the file");
            if (p >= 0) node.parent = uint16_t(msh_of_incoming[size_t(p)]);
            m.nodes.push_back(node);
            const std::string game = game_name(n.name);
            if (m.has(kNodeStrings)) m.node_strings.push_back({true, game});
            if (res9_names) {
                nres::Entry& e = m.container.entries[*res9];
                std::string name = game.substr(0, 31);
                if (name.size() < game.size())
                    diagnostics.warn({}, Location::whole(),
                                     "node '" + n.name + "': Res9 keeps its first 31 bytes");
                Bytes& names = e.data.edit();
                const size_t at = names.size();
                names.resize(at + 32, 0);
                std::memcpy(names.data() + at, name.data(), name.size());
                if (e.attr1 == joints + (&np - geometry.new_parts.data()))
                    e.attr1 = uint32_t(m.nodes.size());
            }
            report.new_parts.push_back(n.name);
        }
        if (m.nodes.size() > 0xFFFF)
            throw FormatError(where, Location::whole(),
                              "the edited model has " + std::to_string(m.nodes.size()) +
                                  " nodes; Res1 parents address at most 65,535");
    }
    incoming_node_of.resize(m.nodes.size(), -1);
    for (const NewPart& np : geometry.new_parts) incoming_node_of[np.node] = int(np.incoming);
}

const scene::Channel* channel_of(const scene::Scene& s, int node, scene::Path path) {
    if (s.animations.empty()) return nullptr;
    for (const scene::Channel& c : s.animations.front().channels)
        if (c.node == node && c.path == path) return &c;
    return nullptr;
}

// The track of MSH node k sampled from its incoming channels on whole frames (keys off a whole
// frame are refused). Raw-value rule: an original key at the same time whose decoded value the
// export produced unchanged keeps its raw i16 values (odd quaternions, -32768, signs).
anim::Track SceneImport::sampled_track(size_t k,
                                       const std::vector<anim::Track>& original_tracks) const {
    const int i = incoming_node_of[k];
    const scene::Channel* tc = channel_of(incoming, i, scene::Path::Translation);
    const scene::Channel* rc = channel_of(incoming, i, scene::Path::Rotation);
    std::vector<double> frames;
    for (const scene::Channel* c : {tc, rc})
        if (c)
            for (float t : c->times) {
                const double f = double(t) * opt.fps;
                if (std::abs(f - std::round(f)) > 1e-3)
                    throw FormatError(where, Location::whole(),
                                      "node '" + incoming.nodes[size_t(i)].name + "': a key at " +
                                          std::to_string(t) + " s is not on a whole frame at " +
                                          std::to_string(opt.fps) +
                                          " fps; resampling is not supported yet");
                frames.push_back(std::max(0.0, std::round(f)));
            }
    if (frames.empty()) frames.push_back(0);
    std::sort(frames.begin(), frames.end());
    frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
    if (frames.front() != 0) frames.insert(frames.begin(), 0); // a first key later is copied to 0
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
        const KeyQuaternion order = orig.animation.key_order;
        key.rot = anim::encode_quat(mq, order);
        for (const anim::Key& o : original_tracks[k].keys)
            if (o.time == key.time) {
                const anim::Quat d = anim::decode_quat(o.rot, order);
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
    return track;
}

// Apply (animation): per node, the incoming channels against the exported ones; changed tracks
// (and every new part's) are sampled and the animation recomposed.
void SceneImport::rebuild_animation() {
    const size_t node_total = m.nodes.size();
    animation_changed = !geometry.new_parts.empty();
    track_changed.assign(node_total, false);
    for (size_t k = joints; k < node_total; ++k) track_changed[k] = true;
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
    if (!animation_changed) return;
    std::vector<anim::NodeFields> fields;
    for (const Node& n : orig.nodes) fields.push_back({n.map_start, n.fallback_key});
    std::vector<anim::Track> tracks = anim::decompose(orig.animation, fields);
    tracks.resize(node_total);
    for (size_t k = 0; k < node_total; ++k)
        if (track_changed[k]) tracks[k] = sampled_track(k, tracks);
    anim::Composed c = anim::compose(tracks);
    m.animation = std::move(c.animation);
    for (size_t k = 0; k < node_total; ++k)
        m.nodes[k].map_start = c.nodes[k].map_start,
        m.nodes[k].fallback_key = c.nodes[k].fallback_key;
}

// Recompute: Res7 face normals of triangles using a moved vertex (where the stored normal follows
// the rule), the bounds of the slots they are in, and the header.
void SceneImport::recompute() {
    touched_slot.assign(m.slots.size(), false);
    if (report.vertices_moved) {
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
                    if (t < rules.triangle_normals.size() && rules.triangle_normals[t])
                        m.triangles[t].normal = face_normal(m, b, k / 3);
                    else
                        diagnostics.warn({}, Location::whole(),
                                         "Res7 triangle " + std::to_string(t) +
                                             ": stored normal does not follow the rule; kept");
                }
            }
        }
        if (!orig.legacy_nodes) recompute_slot_bounds(orig, rules, m, touched_slot, diagnostics);
    }
    report.header_recomputed =
        report.vertices_moved || animation_changed || parents_changed || topology;
    if (report.header_recomputed && !orig.legacy_nodes)
        recompute_header(orig, rules, m, diagnostics);
}

// Encode: the original image when nothing changed, else the edited model, re-read strictly.
ImportResult SceneImport::encode() {
    bool changed = report.vertices_moved || report.uvs_changed || report.normals_changed ||
                   names_changed || parents_changed || animation_changed || topology;
    if (rebuilt) {
        // Edits of the sidecar's own fields: the rebuilt image is not the exported one. A row
        // whose edit is not read (warned about) is no edit of the output.
        for (const std::string& row : rebuilt->edited_rows) {
            bool unread = false;
            for (const size_t k : unread_node_rows)
                unread = unread || row == "/nodes/rows/" + std::to_string(k);
            if (!unread) report.sidecar_edits.push_back(row);
        }
        const bool as_recorded = rebuilt->image.size() == sidecar.original_size &&
                                 sidecar::payload_hash(rebuilt->image) == sidecar.original_hash;
        // Nothing edited on either side: the rebuild must be the source the sidecar records.
        if (!changed && rebuilt->edited_rows.empty() && !rebuilt->positions_unknown &&
            !rebuilt->uvs_unknown && !as_recorded)
            throw FormatError(sidecar_where, Location::at_pointer("/source/xxh3_64"),
                              "the model rebuilt from the file and its sidecar is not the source "
                              "the sidecar records (size and hash): a damaged sidecar, or one "
                              "of another export");
        changed = changed || !as_recorded;
    }
    ImportResult r;
    r.identical = !changed;
    // Sidecar rows marked edited (their check differs) whose edit the output does not show: the
    // file overrides them, or the check itself was edited. Said so, never claimed as an edit.
    std::vector<std::string> unread_edits;
    auto unclaim_sidecar_edits = [&] {
        for (const std::string& row : report.sidecar_edits)
            unread_edits.push_back(sidecar::unread_edit_warning(sidecar_where, row));
        report.sidecar_edits.clear();
        // The output is the original, so its rules can be computed: a recorded rule that differs
        // was edited (it would steer a geometry edit only).
        if (!rebuilt) return;
        if (const std::string at = first_rule_difference(rules, derived_rules(orig)); !at.empty())
            unread_edits.push_back(sidecar_where + ": at " + at +
                                   ": not read: the derived rules follow from the original model, "
                                   "and the sidecar's differ from it");
    };
    if (!changed) {
        r.image = rebuilt ? std::move(rebuilt->image) : sidecar.original_image;
        unclaim_sidecar_edits();
    } else {
        if (orig.legacy_nodes && (names_changed || parents_changed || animation_changed))
            throw FormatError(where, Location::whole(),
                              "the legacy stride-24 node table cannot be edited");
        r.image = write_model(m);
        // Edits that cancel out (a sidecar value the file overrides): the original after all.
        if (r.image.size() == sidecar.original_size &&
            sidecar::payload_hash(r.image) == sidecar.original_hash) {
            r.identical = true;
            node_changes.clear();
            unclaim_sidecar_edits();
        }
        DiagnosticSink check(ReadMode::Strict);
        read_model(r.image, check, where + " (imported)");
        if (check.has_errors()) {
            const std::string why = check.diagnostics().front().text();
            // An edited sidecar row is the likelier cause: the error names it, as the rebuild does.
            if (!report.sidecar_edits.empty()) {
                const std::string& first = report.sidecar_edits.front();
                throw FormatError(
                    sidecar_where, Location::at_pointer(first.substr(0, first.find(' '))),
                    "this edit of the sidecar makes a model the game cannot read (" + why + ")");
            }
            if (rebuilt && rebuilt->first_unheld)
                throw FormatError(sidecar_where, Location::at_pointer("/vertices/carried"),
                                  "vertex " + std::to_string(*rebuilt->first_unheld) +
                                      " is neither carried by the sidecar nor held by the file, "
                                      "and the model does not validate without it (" +
                                      why + ")");
            throw FormatError(where, Location::whole(),
                              "the imported model does not validate: " + why);
        }
    }
    for (size_t k = 0; k < node_changes.size() && k < exported.nodes.size(); ++k) {
        NodeChange& n = node_changes[k];
        n.animation_rebuilt = k < track_changed.size() && track_changed[k];
        if (n.vertices_moved || n.normals_changed || n.uvs_changed || n.renamed_to ||
            n.reparented || n.animation_rebuilt)
            report.nodes.push_back(std::move(n));
    }
    report.identical = r.identical;
    report.animation_rebuilt = animation_changed;
    report.slots_with_bounds_recomputed =
        size_t(std::count(touched_slot.begin(), touched_slot.end(), true));
    report.warnings = diagnostics.warning_texts();
    report.warnings.insert(report.warnings.end(), unread_edits.begin(), unread_edits.end());
    r.report = std::move(report);
    return r;
}

} // namespace

ImportResult import_scene(const scene::Scene& incoming, const sidecar::ModelSidecar& sidecar,
                          bool obj, const std::string& where, const std::string& sidecar_where) {
    SceneImport state{sidecar, obj, where, sidecar_where.empty() ? where : sidecar_where};
    state.identify(incoming);
    state.diff_vertices();
    state.diff_nodes();
    state.add_new_parts();
    state.rebuild_animation();
    if (state.topology)
        state.report.topology = retopologise(state.orig, state.rules, state.m, state.geometry.edits,
                                             state.diagnostics, where);
    state.recompute();
    return state.encode();
}

} // namespace msh::mapping
