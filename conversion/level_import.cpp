// The level import's stage (conversion/level.hpp): a glTF document's object nodes and the level
// sidecar's data.tma -> data.tma with the moved objects' transform floats changed. What the game
// cannot express is refused, naming the object.
#include "level.hpp"

#include "formats/cp1251.hpp"
#include "formats/gltf.hpp"
#include "scene/transform.hpp"
#include "sidecar/pairing.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

namespace msh::conversion {

namespace {

std::array<double, 3> triple(const nlohmann::json& j, std::array<double, 3> fallback) {
    if (!j.is_array() || j.size() != 3) return fallback;
    for (size_t i = 0; i < 3; ++i)
        if (j[i].is_number()) fallback[i] = j[i].get<double>();
    return fallback;
}

scene::Matrix4 local_matrix(const nlohmann::json& node) {
    if (node.contains("matrix") && node["matrix"].is_array() && node["matrix"].size() == 16) {
        scene::Matrix4 m{};
        for (size_t i = 0; i < 16; ++i) m[i] = node["matrix"][i].get<double>();
        return m;
    }
    std::array<double, 4> q{0, 0, 0, 1};
    if (const nlohmann::json r = node.value("rotation", nlohmann::json());
        r.is_array() && r.size() == 4)
        for (size_t k = 0; k < 4; ++k) q[k] = r[k].get<double>();
    return scene::scaled_matrix(triple(node.value("translation", nlohmann::json()), {0, 0, 0}), q,
                                triple(node.value("scale", nlohmann::json()), {1, 1, 1}));
}

float wrap_near(double angle, float reference) {
    double d = std::remainder(angle - double(reference), 2 * std::numbers::pi);
    return float(double(reference) + d);
}

void put_floats(Bytes& out, uint64_t at, std::initializer_list<float> values) {
    for (float v : values) {
        msh::store(out.data() + at, v);
        at += 4;
    }
}

} // namespace

LevelDocument read_level_document(ByteView document, bool binary, const std::string& where) {
    nlohmann::json doc;
    try {
        const std::optional<std::string_view> text = gltf::json_text(document, binary);
        if (!text)
            throw FormatError(where, 0, "not a GLB with a whole JSON chunk (glTF 2.0 header)");
        doc = nlohmann::json::parse(*text);
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(where, Location::whole(), std::string("not JSON: ") + e.what());
    }
    const nlohmann::json& nodes = doc.contains("nodes") ? doc["nodes"] : nlohmann::json::array();
    if (!nodes.is_array()) throw FormatError(where, Location::at_pointer("/nodes"), "not an array");
    const size_t n = nodes.size();
    std::vector<int> parent(n, -1);
    for (size_t i = 0; i < n; ++i)
        for (const nlohmann::json& c : nodes[i].value("children", nlohmann::json::array())) {
            if (!c.is_number_unsigned() || c.get<size_t>() >= n || parent[c.get<size_t>()] != -1)
                throw FormatError(where,
                                  Location::at_pointer("/nodes/" + std::to_string(i) + "/children"),
                                  "a child index that is out of range or has two parents");
            parent[c.get<size_t>()] = int(i);
        }
    // World matrices, parents first (a walk up each node's chain; cycles refused).
    std::vector<scene::Matrix4> world(n);
    std::vector<int> state(n, 0); // 0 new, 1 on the stack, 2 done
    std::function<void(size_t)> solve = [&](size_t i) {
        if (state[i] == 2) return;
        if (state[i] == 1)
            throw FormatError(where, Location::at_pointer("/nodes/" + std::to_string(i)),
                              "a cycle of children");
        state[i] = 1;
        const scene::Matrix4 local = local_matrix(nodes[i]);
        if (parent[i] >= 0) {
            solve(size_t(parent[i]));
            world[i] = scene::multiply(world[size_t(parent[i])], local);
        } else {
            world[i] = local;
        }
        state[i] = 2;
    };
    std::optional<size_t> objects_root;
    for (size_t i = 0; i < n; ++i)
        if (nodes[i].value("name", "") == mapping::kObjectsNode && parent[i] == -1)
            objects_root = i;

    LevelDocument out;
    try {
        const size_t scene = doc.value("scene", size_t(0));
        out.pair =
            doc.at("scenes").at(scene).at("extras").at("mshconv").at("pair").get<std::string>();
    } catch (const nlohmann::json::exception&) {
        // No token: another tool's file, or extras dropped.
    }
    for (size_t i = 0; i < n; ++i) {
        const nlohmann::json& node = nodes[i];
        const nlohmann::json* level = nullptr;
        if (node.contains("extras") && node["extras"].is_object() &&
            node["extras"].contains(mapping::kLevelExtras))
            level = &node["extras"][mapping::kLevelExtras];
        const bool object =
            level && level->is_object() && level->contains("record") && level->contains("kind");
        const bool under_objects = objects_root && parent[i] == int(*objects_root);
        if (!object && !under_objects) continue;
        solve(i);
        LevelNode ln;
        ln.name = node.value("name", "");
        ln.pointer = "/nodes/" + std::to_string(i);
        if (object) {
            const nlohmann::json& r = (*level)["record"];
            if (!r.is_number_unsigned())
                throw FormatError(where,
                                  Location::at_pointer(ln.pointer + "/extras/" +
                                                       mapping::kLevelExtras + "/record"),
                                  "not a record index");
            ln.record = r.get<size_t>();
            if (level->contains("housed_at"))
                ln.housed_at = triple((*level)["housed_at"], {0, 0, 0});
        }
        const scene::Matrix4& m = world[i];
        ln.translation = {m[12], m[13], m[14]};
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) ln.basis[size_t(c)][size_t(r)] = m[size_t(c * 4 + r)];
        out.nodes.push_back(std::move(ln));
    }
    return out;
}

LevelImport rebuild_level(const LevelDocument& document, const sidecar::LevelSidecar& sidecar,
                          const LevelImportSettings& settings) {
    const std::string& where = settings.where;
    const std::vector<LevelNode>& nodes = document.nodes;
    const mission::Mission m =
        mission::read(sidecar.mission, ReadMode::Tolerant, settings.sidecar_name);
    LevelImport out;
    out.mission = sidecar.mission;
    out.pairing = sidecar::to_string(sidecar::check_pairing(document.pair, sidecar.pair, where,
                                                            settings.sidecar_name, settings.force));
    auto refuse = [&](const LevelNode& node, const std::string& why) {
        return FormatError(where, Location::at_pointer(node.pointer),
                           "object '" + node.name + "': " + why);
    };
    std::vector<const LevelNode*> by_record(m.objects.size(), nullptr);
    for (const LevelNode& node : nodes) {
        if (!node.record)
            throw refuse(node, "an added object (this version changes existing objects only: "
                               "copy, add or delete objects in the game's editor)");
        if (*node.record >= m.objects.size())
            throw refuse(node, "record " + std::to_string(*node.record) + " is not in " +
                                   sidecar.source + " (" + std::to_string(m.objects.size()) +
                                   " objects)");
        if (by_record[*node.record])
            throw refuse(node, "an added object, a copy of '" + by_record[*node.record]->name +
                                   "' (record " + std::to_string(*node.record) +
                                   "); this version changes existing objects only");
        by_record[*node.record] = &node;
    }
    for (size_t i = 0; i < m.objects.size(); ++i)
        if (!by_record[i])
            throw FormatError(where, Location::whole(),
                              "object '" + mapping::object_node_name(m.objects[i], i) +
                                  "' (record " + std::to_string(i) +
                                  ") was deleted; this version changes existing objects only");

    for (size_t i = 0; i < m.objects.size(); ++i) {
        const mission::PlacedObject& o = m.objects[i];
        const LevelNode& node = *by_record[i];
        // glTF basis -> the game's axes: game (x, y, z) = glTF (x, -z, y).
        auto game = [](const std::array<double, 3>& g) {
            return std::array<double, 3>{g[0], -g[2], g[1]};
        };
        const std::array<double, 3> ex = game(node.basis[0]), ey = game(node.basis[2]),
                                    ez = game(node.basis[1]);
        // ex, ey, ez: the images of the game's x, y and z axes (glTF z is game -y, so flip).
        const std::array<double, 3> gy{-ey[0], -ey[1], -ey[2]};
        auto norm = [](const std::array<double, 3>& v) {
            return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        };
        const double sx = norm(ex), sy = norm(gy), sz = norm(ez);
        if (!(sx > 0 && sy > 0 && sz > 0)) throw refuse(node, "a scale of zero");
        const double smax = std::max({sx, sy, sz}), smin = std::min({sx, sy, sz});
        if (smax / smin - 1 > std::max(1e-4, node.tolerance))
            throw refuse(node, "a non-uniform scale (" + std::to_string(sx) + ", " +
                                   std::to_string(sy) + ", " + std::to_string(sz) +
                                   "); the game scales objects uniformly");
        const double s = (sx + sy + sz) / 3;
        const bool tilted = std::abs(ez[2] / sz - 1) > node.tolerance;
        const bool stored_tilt = o.rotation.x != 0 || o.rotation.y != 0;
        const double heading = std::atan2(ex[1], ex[0]);
        const std::array<double, 3> p = game(node.translation);

        const bool scenery = mission::is_scenery(o.kind);
        const float s0 = scenery ? o.scale.x : 1.f;
        const bool scale_same = std::abs(s / double(s0) - 1) <= node.tolerance;
        const bool heading_same = std::abs(std::remainder(heading - double(o.rotation.z),
                                                          2 * std::numbers::pi)) <= node.tolerance;
        const double dx = p[0] - o.position.x, dy = p[1] - o.position.y, dz = p[2] - o.position.z;
        const bool position_same = std::sqrt(dx * dx + dy * dy + dz * dz) <= 1e-3;
        if (o.host != -1) {
            // Its place is the host's hall-way vertex: the export put it there, not at its record.
            bool moved = false;
            if (node.housed_at) {
                const auto& h = *node.housed_at;
                moved = std::hypot(p[0] - h[0], p[1] - h[1], p[2] - h[2]) > 1e-3;
            }
            if (moved || !scale_same || !heading_same || tilted)
                throw refuse(node, "a unit housed in a building (host " + std::to_string(o.host) +
                                       ") stands at the host's hall-way vertex; it cannot move, "
                                       "turn or scale here");
            continue;
        }
        if (tilted && !(stored_tilt && heading_same))
            throw refuse(node, "a tilt about x or y; the game turns objects about the vertical "
                               "axis only");
        if (!scenery && !scale_same)
            throw refuse(node, "a scale on a " +
                                   std::string(o.kind <= 3
                                                   ? mission::to_string(mission::ObjectKind(o.kind))
                                                   : "non-scenery object") +
                                   "; the game scales only vegetation and rocks");
        if (position_same && heading_same && scale_same) continue;
        LevelChange change;
        change.record = i;
        change.name = node.name;
        change.before_position = o.position;
        change.before_heading = o.rotation.z;
        change.before_scale = s0;
        change.after_position =
            position_same ? o.position : Vec3{float(p[0]), float(p[1]), float(p[2])};
        change.after_heading = heading_same ? o.rotation.z : wrap_near(heading, o.rotation.z);
        change.after_scale = scale_same ? s0 : float(s);
        const Vec3& ap = change.after_position;
        put_floats(out.mission, o.transform_offset, {ap.x, ap.y, ap.z});
        put_floats(out.mission, o.transform_offset + 20, {change.after_heading});
        if (m.object_version >= 10 && scenery && !scale_same)
            put_floats(out.mission, o.transform_offset + 24,
                       {change.after_scale, change.after_scale, change.after_scale});
        out.changes.push_back(std::move(change));
    }
    return out;
}

} // namespace msh::conversion
