#include "mapping/level_to_scene.hpp"

#include "formats/assembly.hpp"
#include "formats/cp1251.hpp"
#include "formats/names.hpp"
#include "mapping/model_to_scene.hpp"
#include "scene/transform.hpp"

#include <algorithm>
#include <cmath>

namespace msh::mapping {

namespace {

using Mat3 = std::array<std::array<double, 3>, 3>;

Mat3 multiply(const Mat3& a, const Mat3& b) {
    Mat3 r{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k) r[i][j] += a[i][k] * b[k][j];
    return r;
}

// Rz(z)·Ry(y)·Rx(x), column vectors (the game's builder, level.md §3.2).
Mat3 game_rotation(const Vec3& e) {
    const double cx = std::cos(e.x), sx = std::sin(e.x), cy = std::cos(e.y), sy = std::sin(e.y),
                 cz = std::cos(e.z), sz = std::sin(e.z);
    const Mat3 rx{{{1, 0, 0}, {0, cx, -sx}, {0, sx, cx}}};
    const Mat3 ry{{{cy, 0, sy}, {0, 1, 0}, {-sy, 0, cy}}};
    const Mat3 rz{{{cz, -sz, 0}, {sz, cz, 0}, {0, 0, 1}}};
    return multiply(rz, multiply(ry, rx));
}

std::array<float, 4> quaternion(const Mat3& m) {
    double x, y, z, w;
    const double trace = m[0][0] + m[1][1] + m[2][2];
    if (trace > 0) {
        const double s = std::sqrt(trace + 1.0) * 2;
        w = 0.25 * s;
        x = (m[2][1] - m[1][2]) / s;
        y = (m[0][2] - m[2][0]) / s;
        z = (m[1][0] - m[0][1]) / s;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        const double s = std::sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]) * 2;
        w = (m[2][1] - m[1][2]) / s;
        x = 0.25 * s;
        y = (m[0][1] + m[1][0]) / s;
        z = (m[0][2] + m[2][0]) / s;
    } else if (m[1][1] > m[2][2]) {
        const double s = std::sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]) * 2;
        w = (m[0][2] - m[2][0]) / s;
        x = (m[0][1] + m[1][0]) / s;
        y = 0.25 * s;
        z = (m[1][2] + m[2][1]) / s;
    } else {
        const double s = std::sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]) * 2;
        w = (m[1][0] - m[0][1]) / s;
        x = (m[0][2] + m[2][0]) / s;
        y = (m[1][2] + m[2][1]) / s;
        z = 0.25 * s;
    }
    if (w < 0) x = -x, y = -y, z = -z, w = -w; // one sign for one rotation
    return {float(x), float(y), float(z), float(w)};
}

// The node's rest pose undone: a part hangs at its socket with its root node's pose taken off.
void set_inverse(scene::Node& wrapper, const scene::Node& root) {
    scene::Rigid pose;
    pose.q = {root.rotation[0], root.rotation[1], root.rotation[2], root.rotation[3]};
    pose.t = {root.translation[0], root.translation[1], root.translation[2]};
    const scene::Rigid inv = scene::inverse(pose);
    wrapper.rotation = {float(inv.q[0]), float(inv.q[1]), float(inv.q[2]), float(inv.q[3])};
    wrapper.translation = {float(inv.t[0]), float(inv.t[1]), float(inv.t[2])};
}

bool scenery(const mission::PlacedObject& o) {
    return mission::is_scenery(o.kind);
}

std::string kind_name(uint32_t kind) {
    return kind <= 3 ? mission::to_string(mission::ObjectKind(kind))
                     : "kind" + std::to_string(kind);
}

nlohmann::json object_extras(const mission::PlacedObject& o, size_t record,
                             const LevelObject& resolved) {
    nlohmann::json props = nlohmann::json::array();
    for (const mission::Property& p : o.properties) {
        nlohmann::json jp = {{"name", cp1251_to_utf8(p.name)}, {"type", p.type}};
        if (p.type == 0) {
            jp["value"] = std::bit_cast<float>(p.value);
            jp["minimum"] = std::bit_cast<float>(p.minimum);
            jp["maximum"] = std::bit_cast<float>(p.maximum);
        } else {
            jp["value"] = int32_t(p.value);
            jp["minimum"] = int32_t(p.minimum);
            jp["maximum"] = int32_t(p.maximum);
        }
        props.push_back(std::move(jp));
    }
    nlohmann::json parts = nlohmann::json::array();
    for (const LevelPart& part : resolved.parts)
        parts.push_back({{"record", cp1251_to_utf8(part.record)},
                         {"class", assembly::part_class_name(part.part_class)},
                         {"attach", part.attach}});
    nlohmann::json j = {{"record", record},
                        {"kind", kind_name(o.kind)},
                        {"clan", o.clan},
                        {"logical_id", o.logical_id},
                        {"instance_name", cp1251_to_utf8(o.instance_name)},
                        {"reference", cp1251_to_utf8(o.path)},
                        {scenery(o) ? "registry_key" : "dat", cp1251_to_utf8(o.path)},
                        {"properties", std::move(props)},
                        {"parts", std::move(parts)}};
    if (!scenery(o) && (o.scale.x != 1 || o.scale.y != 1 || o.scale.z != 1))
        j["unapplied_scale"] = {o.scale.x, o.scale.y, o.scale.z};
    if (o.host != -1) j["host"] = {{"logical_id", o.host}, {"hall_vertex", o.hall_vertex}};
    if (!resolved.problem.empty()) j["unresolved"] = resolved.problem;
    return j;
}

class LevelBuilder {
  public:
    LevelBuilder(scene::Scene base, const std::vector<LevelModel>& models)
        : out_(std::move(base)), models_(models) {
        add_models();
    }

    int add_node(scene::Node n) {
        out_.nodes.push_back(std::move(n));
        return int(out_.nodes.size()) - 1;
    }
    int add_empty(const std::string& name, int parent) {
        scene::Node n;
        n.name = name;
        n.parent = parent;
        return add_node(std::move(n));
    }
    scene::Node& node(int i) { return out_.nodes[size_t(i)]; }

    // A copy of model `m`'s node tree under `parent`; the model's node i -> the returned [i].
    std::vector<int> copy_model(int m, int parent, const std::string& prefix) {
        const scene::Scene& sc = models_[size_t(m)].scene;
        std::vector<int> map(sc.nodes.size());
        const int first = int(out_.nodes.size());
        for (size_t i = 0; i < sc.nodes.size(); ++i) map[i] = first + int(i);
        for (const scene::Node& src : sc.nodes) {
            scene::Node n;
            n.name = prefix + src.name;
            n.parent = src.parent == scene::kNoIndex ? parent : map[size_t(src.parent)];
            n.translation = src.translation;
            n.rotation = src.rotation;
            n.visible = src.visible;
            n.mesh =
                src.mesh == scene::kNoIndex ? scene::kNoIndex : mesh_base_[size_t(m)] + src.mesh;
            add_node(std::move(n));
        }
        return map;
    }

    const scene::Node* model_root(int m) const {
        for (const scene::Node& n : models_[size_t(m)].scene.nodes)
            if (n.parent == scene::kNoIndex) return &n;
        return nullptr;
    }

    scene::Scene take() { return std::move(out_); }

  private:
    // Every model's meshes and materials once; identical materials (the same name and images)
    // shared between models.
    void add_models() {
        for (const LevelModel& lm : models_) {
            std::vector<int> material_map;
            for (const scene::Material& mat : lm.scene.materials) {
                int found = scene::kNoIndex;
                for (size_t i = 0; i < out_.materials.size() && found < 0; ++i) {
                    const scene::Material& o = out_.materials[i];
                    if (o.name == mat.name && o.base_color == mat.base_color &&
                        o.lightmap == mat.lightmap && o.alpha_mode == mat.alpha_mode)
                        found = int(i);
                }
                if (found < 0) {
                    out_.materials.push_back(mat);
                    found = int(out_.materials.size()) - 1;
                }
                material_map.push_back(found);
            }
            mesh_base_.push_back(int(out_.meshes.size()));
            for (const scene::Mesh& mesh : lm.scene.meshes) {
                scene::Mesh copy = mesh;
                for (scene::Primitive& p : copy.primitives)
                    if (p.material != scene::kNoIndex)
                        p.material = material_map[size_t(p.material)];
                out_.meshes.push_back(std::move(copy));
            }
        }
    }

    scene::Scene out_;
    const std::vector<LevelModel>& models_;
    std::vector<int> mesh_base_;
};

struct Placement {
    std::array<float, 3> translation; // glTF axes
    std::array<float, 4> rotation;
    std::array<float, 3> scale;
};

Placement placement_of(const mission::PlacedObject& o) {
    Placement p{to_gltf({o.position.x, o.position.y, o.position.z}),
                placement_rotation(o.rotation),
                {1, 1, 1}};
    if (scenery(o)) p.scale = {o.scale.x, o.scale.z, o.scale.y};
    return p;
}

// Where a housed unit stands: the host's hall-way vertex, through the host's placement.
std::optional<std::array<float, 3>> hall_way_place(const mission::Mission& mission,
                                                   const mission::PlacedObject& unit,
                                                   const std::vector<LevelModel>& models,
                                                   const std::vector<LevelObject>& objects,
                                                   std::string& why) {
    for (size_t h = 0; h < mission.objects.size(); ++h) {
        const mission::PlacedObject& host = mission.objects[h];
        if (host.logical_id != unit.host || scenery(host)) continue;
        for (const LevelPart& part : objects[h].parts) {
            if (part.model < 0) continue;
            const std::vector<Vec3>& graph = models[size_t(part.model)].hall_way;
            if (graph.empty()) continue;
            if (unit.hall_vertex < 0 || size_t(unit.hall_vertex) >= graph.size()) {
                why = "hall-way vertex " + std::to_string(unit.hall_vertex) + " is not in the " +
                      std::to_string(graph.size()) + " of its host";
                return std::nullopt;
            }
            const Vec3& v = graph[size_t(unit.hall_vertex)];
            const Placement hp = placement_of(host);
            const std::array<float, 3> local = to_gltf({v.x, v.y, v.z});
            const std::array<double, 3> r =
                scene::rotate({hp.rotation[0], hp.rotation[1], hp.rotation[2], hp.rotation[3]},
                              {local[0], local[1], local[2]});
            return std::array<float, 3>{float(r[0] + hp.translation[0]),
                                        float(r[1] + hp.translation[1]),
                                        float(r[2] + hp.translation[2])};
        }
        why = "its host (logical id " + std::to_string(unit.host) + ") has no hall-way graph";
        return std::nullopt;
    }
    why = "no building has logical id " + std::to_string(unit.host);
    return std::nullopt;
}

void add_object(LevelBuilder& b, int objects_root, const mission::Mission& mission, size_t record,
                const std::vector<LevelModel>& models, const std::vector<LevelObject>& objects,
                const LevelSceneOptions& options, std::vector<std::string>& warnings) {
    const mission::PlacedObject& o = mission.objects[record];
    const LevelObject& resolved = objects[record];
    const Placement p = placement_of(o);
    scene::Node node;
    node.name = object_node_name(o, record);
    node.parent = objects_root;
    node.translation = p.translation;
    node.rotation = p.rotation;
    node.scale = p.scale;
    node.extras[kLevelExtras] = object_extras(o, record, resolved);
    if (o.host != -1) {
        std::string why;
        if (const auto at = hall_way_place(mission, o, models, objects, why)) {
            node.translation = *at;
            // In the game's axes: the import tells a moved unit from one left where it stands.
            node.extras[kLevelExtras]["housed_at"] = {(*at)[0], -(*at)[2], (*at)[1]};
        } else {
            warnings.push_back("object " + std::to_string(record) + " '" + node.name +
                               "': housed, but " + why + "; left at its own position");
        }
    }
    const std::string name = node.name;
    const int object_node = b.add_node(std::move(node));

    // Each part: a node holding its model's copy; model node index -> level node, per part.
    std::vector<std::vector<int>> copies(resolved.parts.size());
    std::vector<int> wrappers(resolved.parts.size(), object_node);
    for (size_t k = 0; k < resolved.parts.size(); ++k) {
        const LevelPart& part = resolved.parts[k];
        int parent = object_node;
        scene::Node wrapper;
        wrapper.name = name + "/" + cp1251_to_utf8(part.record);
        const bool socketed = options.assembly == AssemblyReading::Sockets && part.parent >= 0;
        if (socketed) {
            const std::vector<int>& at = copies[size_t(part.parent)];
            if (part.attach >= 0 && size_t(part.attach) < at.size()) {
                parent = at[size_t(part.attach)];
                if (part.model >= 0)
                    if (const scene::Node* root = b.model_root(part.model))
                        set_inverse(wrapper, *root);
            } else {
                parent = wrappers[size_t(part.parent)];
                warnings.push_back(
                    "object " + std::to_string(record) + " '" + name + "': part '" +
                    cp1251_to_utf8(part.record) + "' attaches at node " +
                    std::to_string(part.attach) +
                    ", which its parent's model does not have; placed at the parent");
            }
        }
        wrapper.parent = parent;
        wrapper.visible = part.part_class < options.shown_classes.size()
                              ? options.shown_classes[part.part_class]
                              : false;
        wrapper.extras[kLevelExtras] = {{"part", k},
                                        {"class", assembly::part_class_name(part.part_class)},
                                        {"shown", wrapper.visible}};
        wrappers[k] = b.add_node(std::move(wrapper));
        if (part.model >= 0)
            copies[k] = b.copy_model(part.model, wrappers[k], name + "/" + std::to_string(k) + "/");
    }
}

} // namespace

std::optional<float> ground_height(const terrain::Terrain& t, float x, float y) {
    for (const terrain::Face& f : t.faces) {
        if (f.v[0] >= t.positions.size() || f.v[1] >= t.positions.size() ||
            f.v[2] >= t.positions.size())
            continue;
        const Vec3& a = t.positions[f.v[0]];
        const Vec3& b = t.positions[f.v[1]];
        const Vec3& c = t.positions[f.v[2]];
        const double d = double(b.y - c.y) * (a.x - c.x) + double(c.x - b.x) * (a.y - c.y);
        if (std::abs(d) < 1e-12) continue;
        const double l1 = (double(b.y - c.y) * (x - c.x) + double(c.x - b.x) * (y - c.y)) / d;
        const double l2 = (double(c.y - a.y) * (x - c.x) + double(a.x - c.x) * (y - c.y)) / d;
        const double l3 = 1 - l1 - l2;
        constexpr double eps = -1e-6;
        if (l1 >= eps && l2 >= eps && l3 >= eps) return float(l1 * a.z + l2 * b.z + l3 * c.z);
    }
    return std::nullopt;
}

std::array<float, 4> placement_rotation(const Vec3& euler) {
    // C maps game axes to glTF axes: (x, y, z) -> (x, z, -y).
    const Mat3 c{{{1, 0, 0}, {0, 0, 1}, {0, -1, 0}}};
    const Mat3 ct{{{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}};
    return quaternion(multiply(c, multiply(game_rotation(euler), ct)));
}

std::string object_node_name(const mission::PlacedObject& o, size_t record) {
    std::string base = o.instance_name;
    if (base.empty()) {
        base = o.path;
        std::replace(base.begin(), base.end(), '\\', '/');
        base = name_stem(base.substr(base.rfind('/') + 1));
    }
    return cp1251_to_utf8(base) + "#" + std::to_string(record);
}

scene::Scene level_to_scene(const mission::Mission& mission, scene::Scene terrain_scene,
                            const terrain::Terrain* terrain, const std::vector<LevelModel>& models,
                            const std::vector<LevelObject>& objects,
                            const LevelSceneOptions& options, std::vector<std::string>& warnings) {
    LevelBuilder b(std::move(terrain_scene), models);
    const int root = b.add_empty(kObjectsNode, scene::kNoIndex);
    for (size_t i = 0; i < mission.objects.size(); ++i)
        add_object(b, root, mission, i, models, objects, options, warnings);

    const int lodes = b.add_empty("Lodes", scene::kNoIndex);
    for (size_t i = 0; i < mission.lodes.size(); ++i) {
        const mission::Lode& l = mission.lodes[i];
        const int n = b.add_empty("Lode_" + std::to_string(i), lodes);
        b.node(n).translation = to_gltf({l.position.x, l.position.y, l.position.z});
        b.node(n).extras[kLevelExtras] = {{"lode", i},
                                          {"found", l.found},
                                          {"type", l.type},
                                          {"amount", l.amount},
                                          {"word", l.unknown}};
    }

    scene::Scene sc = b.take();
    // Routes: closed polygons as LINES, one mesh each.
    const int routes = int(sc.nodes.size());
    sc.nodes.push_back({});
    sc.nodes.back().name = "Routes";
    for (const mission::Route& r : mission.routes) {
        scene::Primitive prim;
        prim.mode = scene::Primitive::Mode::Lines;
        scene::Attribute& pos = prim.attributes["POSITION"];
        for (const Vec3& p : r.points)
            for (float v : to_gltf({p.x, p.y, p.z})) pos.data.push_back(v);
        const uint32_t n = uint32_t(r.points.size());
        for (uint32_t k = 0; n >= 2 && k < n; ++k) {
            prim.indices.push_back(k);
            prim.indices.push_back((k + 1) % n);
        }
        scene::Node node;
        node.name = "Route_" + std::to_string(r.id);
        node.parent = routes;
        node.extras[kLevelExtras] = {{"route", r.id}, {"points", n}};
        if (!prim.indices.empty()) {
            scene::Mesh mesh;
            mesh.name = node.name;
            mesh.primitives.push_back(std::move(prim));
            sc.meshes.push_back(std::move(mesh));
            node.mesh = int(sc.meshes.size()) - 1;
        }
        sc.nodes.push_back(std::move(node));
    }

    const int clans = int(sc.nodes.size());
    sc.nodes.push_back({});
    sc.nodes.back().name = "Clans";
    for (size_t i = 0; i < mission.clans.size(); ++i) {
        const mission::Clan& k = mission.clans[i];
        scene::Node node;
        node.name = "Clan_" + std::to_string(i) + "_" + cp1251_to_utf8(k.name);
        node.parent = clans;
        const float z = terrain ? ground_height(*terrain, k.base_x, k.base_y).value_or(0.f) : 0.f;
        node.translation = to_gltf({k.base_x, k.base_y, z});
        node.extras[kLevelExtras] = {{"clan", i},
                                     {"name", cp1251_to_utf8(k.name)},
                                     {"type", k.type},
                                     {"ai_script", cp1251_to_utf8(k.ai_script)},
                                     {"behaviour", cp1251_to_utf8(k.behaviour)},
                                     {"minds", k.minds}};
        const int clan_node = int(sc.nodes.size());
        const std::string clan_name = node.name;
        sc.nodes.push_back(std::move(node));
        for (size_t z_i = 0; z_i < k.zones.size(); ++z_i) {
            const mission::Zone& zone = k.zones[z_i];
            scene::Node zn;
            zn.name = clan_name + "_zone_" + std::to_string(z_i);
            zn.parent = clan_node;
            // A child of the clan's anchor: its place relative to it.
            const std::array<float, 3> c =
                to_gltf({zone.centre.x - k.base_x, zone.centre.y - k.base_y, zone.centre.z - z});
            zn.translation = c;
            zn.extras[kLevelExtras] = {{"zone", z_i},
                                       {"zone_kind", zone.kind},
                                       {"inner", zone.inner},
                                       {"outer", zone.outer}};
            sc.nodes.push_back(std::move(zn));
        }
    }
    return sc;
}

} // namespace msh::mapping
