#include "scene_to_model.hpp"

#include "bounds.hpp"
#include "formats/obj.hpp"
#include "model_to_scene.hpp"
#include "skin.hpp"
#include "transform.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>

namespace msh::mapping {

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
};

std::array<uint32_t, 3> rotate_min_first(std::array<uint32_t, 3> t) {
    while (!(t[0] <= t[1] && t[0] <= t[2])) t = {t[1], t[2], t[0]};
    return t;
}

Observed observe(const scene::Scene& s, size_t vertex_count, const std::string& where) {
    Observed o;
    o.by_vid.resize(vertex_count);
    for (size_t n = 0; n < s.nodes.size(); ++n) {
        if (s.nodes[n].mesh < 0) continue;
        const scene::Mesh& mesh = s.meshes.at(size_t(s.nodes[n].mesh));
        for (const scene::Primitive& p : mesh.primitives) {
            const auto id = p.attributes.find("TEXCOORD_1");
            if (id == p.attributes.end() || id->second.components != 2)
                throw FormatError(where, 0,
                                  "mesh '" + mesh.name +
                                      "' has no vertex identity (TEXCOORD_1); adding geometry is "
                                      "not supported yet");
            const auto& pos = p.attributes.at("POSITION").data;
            const auto nrm = p.attributes.find("NORMAL");
            const auto uv = p.attributes.find("TEXCOORD_0");
            const size_t count = pos.size() / 3;
            std::vector<uint32_t> vid(count), batch(count);
            for (size_t v = 0; v < count; ++v) {
                const float a = id->second.data[2 * v], b = id->second.data[2 * v + 1];
                if (!(a >= 0 && a < float(vertex_count) && a == std::floor(a) && b >= 0 &&
                      b == std::floor(b)))
                    throw FormatError(
                        where, 0,
                        "mesh '" + mesh.name + "': vertex " + std::to_string(v) +
                            " has no valid identity (TEXCOORD_1 = " + std::to_string(a) + ", " +
                            std::to_string(b) + "); adding vertices is not supported yet");
                vid[v] = uint32_t(a);
                batch[v] = uint32_t(b);
                Seen seen;
                seen.pos = {pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]};
                if (nrm != p.attributes.end())
                    seen.has_n = true,
                    seen.nrm = {nrm->second.data[3 * v], nrm->second.data[3 * v + 1],
                                nrm->second.data[3 * v + 2]};
                if (uv != p.attributes.end())
                    seen.has_uv = true,
                    seen.uv = {uv->second.data[2 * v], uv->second.data[2 * v + 1]};
                seen.node = int(n);
                o.by_vid[vid[v]].push_back(seen);
            }
            for (size_t t = 0; t + 2 < p.indices.size(); t += 3) {
                const uint32_t b = batch[p.indices[t]];
                o.tris[b].push_back(rotate_min_first(
                    {vid[p.indices[t]], vid[p.indices[t + 1]], vid[p.indices[t + 2]]}));
            }
        }
    }
    for (auto& [b, list] : o.tris) std::sort(list.begin(), list.end());
    return o;
}

// OBJ carries no TEXCOORD_1: give each incoming primitive the identities of the exported
// primitive of the same object and group, vertex by vertex in order.
void assign_obj_identity(scene::Scene& in, const scene::Scene& exported, const std::string& where) {
    // Keyed by the name as the OBJ writer prints it (whitespace turned into '_').
    auto token = [](std::string t) {
        for (char& c : t)
            if (c == ' ' || c == '\t') c = '_';
        return t;
    };
    std::map<std::string, size_t> node_by_name;
    for (size_t i = 0; i < exported.nodes.size(); ++i)
        if (exported.nodes[i].mesh >= 0) node_by_name[token(exported.nodes[i].name)] = i;
    for (scene::Node& node : in.nodes) {
        if (node.mesh < 0) continue;
        const auto it = node_by_name.find(node.name);
        if (it == node_by_name.end())
            throw FormatError(where, 0,
                              "OBJ object '" + node.name +
                                  "' is not in the export; new parts are not supported yet");
        const scene::Mesh& src = exported.meshes.at(size_t(exported.nodes[it->second].mesh));
        scene::Mesh& dst = in.meshes.at(size_t(node.mesh));
        if (dst.primitives.size() != src.primitives.size())
            throw FormatError(
                where, 0,
                "OBJ object '" + node.name + "' has " + std::to_string(dst.primitives.size()) +
                    " groups, the export had " + std::to_string(src.primitives.size()) +
                    " (topology edits are not supported yet)");
        for (size_t p = 0; p < dst.primitives.size(); ++p) {
            const scene::Attribute& id = src.primitives[p].attributes.at("TEXCOORD_1");
            if (dst.primitives[p].attributes.at("POSITION").count() != id.count())
                throw FormatError(
                    where, 0,
                    "OBJ object '" + node.name + "' group " + std::to_string(p) + " has " +
                        std::to_string(dst.primitives[p].attributes.at("POSITION").count()) +
                        " vertices, the export had " + std::to_string(id.count()) +
                        " (topology edits are not supported yet)");
            dst.primitives[p].attributes["TEXCOORD_1"] = id;
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
        assign_obj_identity(expected, exported, where);
        assign_obj_identity(incoming, exported, where);
    }
    const Observed want = observe(expected, orig.positions.size(), where + " (export)");
    const Observed got = observe(incoming, orig.positions.size(), where);

    json report = {{"nodes", json::array()}, {"warnings", json::array()}};
    std::vector<std::string> warnings;

    // Topology: the same triangles (as identity triples) in every batch.
    for (const auto& [batch, list] : want.tris) {
        auto it = got.tris.find(batch);
        if (it == got.tris.end() || it->second != list)
            throw FormatError(where, 0,
                              "the triangles of batch " + std::to_string(batch) + " changed (" +
                                  std::to_string(it == got.tris.end() ? 0 : it->second.size()) +
                                  " now, " + std::to_string(list.size()) +
                                  " exported): adding or removing triangles is not supported yet");
    }
    for (const auto& [batch, list] : got.tris)
        if (!want.tris.count(batch))
            throw FormatError(where, 0,
                              "batch " + std::to_string(batch) +
                                  " is new: adding geometry is not supported yet");

    Model m = orig;
    // Node frames for world-space inputs (OBJ, skin): the rest pose of the exported node scene.
    const std::vector<Rigid> world = world_transforms(node_scene);
    std::vector<int> owner(orig.positions.size(), -1); // MSH node of each vertex (frame)
    {
        const Observed frames = observe(node_scene, orig.positions.size(), where);
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
    for (size_t v = 0; v < want.by_vid.size(); ++v) {
        if (want.by_vid[v].empty()) continue;
        if (got.by_vid[v].empty())
            throw FormatError(where, 0,
                              "vertex " + std::to_string(v) +
                                  " was removed: removing geometry is not supported yet");
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
            if (world_space) p = mapping::apply(to_local, p);
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
            if (world_space) n = mapping::apply_rotation(to_local, n);
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
            if (i < 0)
                throw FormatError(where, 0,
                                  "node '" + exported.nodes[k].name +
                                      "' is missing: removing parts is not supported yet");
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

    // Animation: per node, the incoming channels against the exported ones.
    bool animation_changed = false;
    std::vector<bool> track_changed(joints, false);
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
        for (size_t k = 0; k < joints; ++k) {
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
        for (size_t k = 0; k < joints; ++k)
            m.nodes[k].map_start = c.nodes[k].map_start,
            m.nodes[k].fallback_key = c.nodes[k].fallback_key;
    }

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
    if ((moved_total || animation_changed || parents_changed) && !orig.legacy_nodes)
        recompute_header(orig, m, warnings);

    const bool changed = moved_total || uvs_total || normals_total || names_changed ||
                         parents_changed || animation_changed;
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
    report["summary"] = {
        {"vertices_moved", moved_total},
        {"normals_changed", normals_total},
        {"uvs_changed", uvs_total},
        {"slots_with_bounds_recomputed", touched},
        {"animation_rebuilt", animation_changed},
        {"header_recomputed", bool(moved_total || animation_changed || parents_changed)}};
    for (const std::string& w : warnings) report["warnings"].push_back(w);
    r.report = std::move(report);
    return r;
}

} // namespace msh::mapping
