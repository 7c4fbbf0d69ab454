// The level import's stage (conversion/level.hpp): a glTF document's object nodes and the level
// sidecar's data.tma -> data.tma with the moved objects' transform floats changed. What the game
// cannot express is refused, naming the object.
#include "level.hpp"

#include "formats/cp1251.hpp"
#include "formats/gltf.hpp"
#include "scene/transform.hpp"
#include "sidecar/json_at.hpp"
#include "sidecar/pairing.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace msh::conversion {

namespace {

// An array of exactly `N` numbers (a glTF vector or matrix); refused at its pointer otherwise.
template <size_t N> std::array<double, N> numbers(const sidecar::JsonAt& at) {
    if (!at.is_array() || at.size() != N)
        at.fail("expected an array of " + std::to_string(N) + " numbers");
    std::array<double, N> out{};
    for (size_t i = 0; i < N; ++i) out[i] = at[i].as<double>();
    return out;
}

template <size_t N>
std::array<double, N> numbers_or(const sidecar::JsonAt& object, const char* key,
                                 std::array<double, N> absent) {
    return object.has(key) ? numbers<N>(object[key]) : absent;
}

scene::Matrix4 local_matrix(const sidecar::JsonAt& node) {
    if (node.has("matrix")) return numbers<16>(node["matrix"]);
    return scene::scaled_matrix(numbers_or<3>(node, "translation", {0, 0, 0}),
                                numbers_or<4>(node, "rotation", {0, 0, 0, 1}),
                                numbers_or<3>(node, "scale", {1, 1, 1}));
}

std::string name_of(const sidecar::JsonAt& node) {
    return node.has("name") ? node["name"].as<std::string>() : std::string();
}

// The pairing token of the scene's extras; "" when there is none (another tool's file, or extras
// dropped).
std::string pairing_token(const sidecar::JsonAt& doc) {
    size_t scene = 0;
    if (doc.has("scene")) scene = doc["scene"].as<size_t>();
    if (!doc.has("scenes") || !doc["scenes"].is_array() || scene >= doc["scenes"].size()) return {};
    sidecar::JsonAt at = doc["scenes"][scene];
    for (const char* key : {"extras", "mshconv", "pair"}) {
        if (!at.is_object() || !at.has(key)) return {};
        at = at[key];
    }
    return at.is_string() ? at.as<std::string>() : std::string();
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
    const std::optional<std::string_view> text = gltf::json_text(document, binary);
    if (!text) throw FormatError(where, 0, "not a GLB with a whole JSON chunk (glTF 2.0 header)");
    sidecar::ParsedJson parsed;
    parsed.parse(ByteView(reinterpret_cast<const uint8_t*>(text->data()), text->size()), where);
    const sidecar::JsonAt doc(parsed.root(), "", where);
    if (!doc.is_object()) doc.fail("expected a glTF document (an object)");
    std::vector<sidecar::JsonAt> nodes;
    if (doc.has("nodes")) {
        const sidecar::JsonAt all = doc["nodes"];
        for (size_t i = 0; i < all.size(); ++i) {
            nodes.push_back(all[i]);
            if (!nodes.back().is_object()) nodes.back().fail("expected a node (an object)");
        }
    }
    const size_t n = nodes.size();
    std::vector<int> parent(n, -1);
    for (size_t i = 0; i < n; ++i) {
        if (!nodes[i].has("children")) continue;
        const sidecar::JsonAt children = nodes[i]["children"];
        for (size_t k = 0; k < children.size(); ++k) {
            const sidecar::JsonAt c = children[k];
            if (!c.is_unsigned() || c.as<uint64_t>() >= n || parent[c.as<size_t>()] != -1)
                c.fail("a child index that is out of range or has two parents");
            parent[c.as<size_t>()] = int(i);
        }
    }
    // World matrices, parents first: each node's chain of unsolved ancestors is walked up, then
    // solved down (no recursion: a chain may be as long as the file has nodes).
    std::vector<scene::Matrix4> world(n);
    std::vector<int> state(n, 0); // 0 new, 1 on the chain being solved, 2 done
    std::vector<size_t> chain;
    auto solve = [&](size_t i) {
        for (int at = int(i); at >= 0 && state[size_t(at)] != 2; at = parent[size_t(at)]) {
            if (state[size_t(at)] == 1) nodes[size_t(at)].fail("a cycle of children");
            state[size_t(at)] = 1;
            chain.push_back(size_t(at));
        }
        for (; !chain.empty(); chain.pop_back()) {
            const size_t k = chain.back();
            const scene::Matrix4 local = local_matrix(nodes[k]);
            world[k] = parent[k] >= 0 ? scene::multiply(world[size_t(parent[k])], local) : local;
            state[k] = 2;
        }
    };
    std::optional<size_t> objects_root;
    for (size_t i = 0; i < n; ++i)
        if (parent[i] == -1 && name_of(nodes[i]) == mapping::kObjectsNode) objects_root = i;

    LevelDocument out;
    out.pair = pairing_token(doc);
    for (size_t i = 0; i < n; ++i) {
        const sidecar::JsonAt& node = nodes[i];
        std::optional<sidecar::JsonAt> level;
        if (node.has("extras") && node["extras"].is_object() &&
            node["extras"].has(mapping::kLevelExtras))
            level = node["extras"][mapping::kLevelExtras];
        const bool object =
            level && level->is_object() && level->has("record") && level->has("kind");
        const bool under_objects = objects_root && parent[i] == int(*objects_root);
        if (!object && !under_objects) continue;
        solve(i);
        LevelNode ln;
        ln.name = name_of(node);
        ln.place = Location::at_pointer("/nodes/" + std::to_string(i));
        if (object) {
            const sidecar::JsonAt record = (*level)["record"];
            if (!record.is_unsigned()) record.fail("not a record index");
            ln.record = record.as<size_t>();
            if (level->has("housed_at")) ln.housed_at = numbers<3>((*level)["housed_at"]);
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
        return FormatError(where, node.place, "object '" + node.name + "': " + why);
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
