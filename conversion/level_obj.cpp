// A level as OBJ and back (conversion/level.hpp). OBJ holds no instances and no node transforms,
// so each placed object becomes one OBJ object `<name>#<record>`: its visible parts baked into
// world positions, and a frame triangle (material `mshconv_frame`) whose corners are the object's
// origin, a point `kFrame` along its x axis and one `2 kFrame` along its up axis. The import finds
// each frame again (by its material, which Blender keeps, and by its edge lengths, whatever the
// corners' order) and reads the object's place, heading and scale from it.
#include "level.hpp"

#include "formats/obj.hpp"
#include "mapping/terrain_to_scene.hpp"
#include "scene/transform.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

namespace msh::conversion {

namespace {

// The frame's x edge; its up edge is twice that. Its corners are float positions: a frame at 1,000
// units reads its heading and scale to about 1e-4 (level_node's tolerance), a unit being as much
// as the game's objects are wide.
constexpr float kFrame = 1.0f;
constexpr const char* kFrameMaterial = "mshconv_frame";

using Mat4 = scene::Matrix4;

Mat4 trs(const scene::Node& n) {
    return scene::scaled_matrix({n.translation[0], n.translation[1], n.translation[2]},
                                {n.rotation[0], n.rotation[1], n.rotation[2], n.rotation[3]},
                                {n.scale[0], n.scale[1], n.scale[2]});
}

std::array<float, 3> point(const Mat4& m, float x, float y, float z) {
    return {float(m[0] * x + m[4] * y + m[8] * z + m[12]),
            float(m[1] * x + m[5] * y + m[9] * z + m[13]),
            float(m[2] * x + m[6] * y + m[10] * z + m[14])};
}

std::array<float, 3> direction(const Mat4& m, float x, float y, float z) {
    const double v[3] = {m[0] * x + m[4] * y + m[8] * z, m[1] * x + m[5] * y + m[9] * z,
                         m[2] * x + m[6] * y + m[10] * z};
    const double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return n > 0 ? std::array<float, 3>{float(v[0] / n), float(v[1] / n), float(v[2] / n)}
                 : std::array<float, 3>{0, 1, 0};
}

bool is_object(const scene::Node& n) {
    const auto e = n.extras.find(mapping::kLevelExtras);
    return e != n.extras.end() && e->contains("record") && e->contains("kind");
}

// The primitive `p` of a part baked by `m` into the object's mesh.
void bake(const scene::Primitive& p, const Mat4& m, scene::Mesh& into) {
    scene::Primitive out;
    out.material = p.material;
    const auto& pos = p.attributes.at("POSITION");
    auto& to = out.attributes["POSITION"];
    to.data.reserve(pos.data.size());
    for (size_t k = 0; k + 2 < pos.data.size(); k += 3)
        for (float v : point(m, pos.data[k], pos.data[k + 1], pos.data[k + 2]))
            to.data.push_back(v);
    if (const auto n = p.attributes.find("NORMAL"); n != p.attributes.end()) {
        auto& tn = out.attributes["NORMAL"];
        for (size_t k = 0; k + 2 < n->second.data.size(); k += 3)
            for (float v :
                 direction(m, n->second.data[k], n->second.data[k + 1], n->second.data[k + 2]))
                tn.data.push_back(v);
    }
    if (const auto uv = p.attributes.find("TEXCOORD_0"); uv != p.attributes.end())
        out.attributes["TEXCOORD_0"] = uv->second;
    out.indices = p.indices;
    into.primitives.push_back(std::move(out));
}

} // namespace

OutputFiles level_obj_files(const scene::Scene& level, const std::string& output_name) {
    scene::Scene sc = level;
    std::vector<Mat4> world(sc.nodes.size());
    std::vector<bool> shown(sc.nodes.size(), true);
    std::vector<int> object_of(sc.nodes.size(), -1); // the object node above, if any
    std::vector<bool> done(sc.nodes.size(), false);
    std::function<void(size_t)> solve = [&](size_t i) {
        if (done[i]) return;
        const scene::Node& n = sc.nodes[i];
        world[i] = trs(n);
        shown[i] = n.visible;
        if (n.parent >= 0) {
            solve(size_t(n.parent));
            world[i] = scene::multiply(world[size_t(n.parent)], world[i]);
            shown[i] = shown[i] && shown[size_t(n.parent)];
            object_of[i] = object_of[size_t(n.parent)];
        }
        if (is_object(n)) object_of[i] = int(i);
        done[i] = true;
    };
    for (size_t i = 0; i < sc.nodes.size(); ++i) solve(i);

    sc.materials.push_back({});
    sc.materials.back().name = kFrameMaterial;
    const int frame_material = int(sc.materials.size()) - 1;
    std::map<int, scene::Mesh> baked; // by object node
    for (size_t i = 0; i < sc.nodes.size(); ++i) {
        scene::Node& n = sc.nodes[i];
        const int object = object_of[i];
        if (object < 0) {
            // The map's draped layer and layer 2 are for viewers; routes are lines (below).
            if (n.name == mapping::kTerrainLayer2Node || n.name.starts_with("ArealMap_draped") ||
                n.name.starts_with("Route_"))
                n.mesh = scene::kNoIndex;
            continue;
        }
        if (n.mesh != scene::kNoIndex && shown[i])
            for (const scene::Primitive& p : sc.meshes[size_t(n.mesh)].primitives)
                if (p.mode == scene::Primitive::Mode::Triangles) bake(p, world[i], baked[object]);
        n.mesh = scene::kNoIndex;
    }
    for (size_t i = 0; i < sc.nodes.size(); ++i) {
        if (!is_object(sc.nodes[i])) continue;
        scene::Mesh& mesh = baked[int(i)];
        scene::Primitive frame;
        frame.material = frame_material;
        auto& pos = frame.attributes["POSITION"].data;
        for (const auto& p : {point(world[i], 0, 0, 0), point(world[i], kFrame, 0, 0),
                              point(world[i], 0, 2 * kFrame, 0)})
            pos.insert(pos.end(), p.begin(), p.end());
        frame.indices = {0, 1, 2};
        mesh.primitives.push_back(std::move(frame));
        mesh.name = sc.nodes[i].name;
        sc.meshes.push_back(std::move(mesh));
        scene::Node node;
        node.name = sc.nodes[i].name;
        node.mesh = int(sc.meshes.size()) - 1;
        sc.nodes.push_back(std::move(node));
    }
    const std::string mtl = file_stem(output_name) + ".mtl";
    obj::Files obj = terrain_obj_files(sc, mtl, false, file_stem(output_name) + "_");
    // The routes as closed polylines, in the game's order.
    std::vector<std::array<float, 3>> points;
    std::vector<std::pair<size_t, size_t>> runs;
    for (size_t i = 0; i < level.nodes.size(); ++i) {
        const scene::Node& n = level.nodes[i];
        if (!n.name.starts_with("Route_") || n.mesh == scene::kNoIndex) continue;
        const auto& pos = level.meshes[size_t(n.mesh)].primitives.at(0).attributes.at("POSITION");
        const size_t first = points.size();
        for (size_t k = 0; k + 2 < pos.data.size(); k += 3)
            points.push_back(point(world[i], pos.data[k], pos.data[k + 1], pos.data[k + 2]));
        runs.emplace_back(first, points.size());
    }
    if (!runs.empty()) obj::append_closed_polylines(obj, "Routes", points, runs);
    OutputFiles files;
    for (scene::ImageFile& f : obj.images) files.push_back({f.name, std::move(f.png)});
    files.push_back({mtl, Bytes(obj.mtl.begin(), obj.mtl.end())});
    files.push_back({output_name, Bytes(obj.obj.begin(), obj.obj.end())});
    return files;
}

LevelDocument read_level_obj(std::string_view text, const std::string& where) {
    LevelDocument doc;
    doc.pair = obj::pairing_comment(text);
    std::vector<std::array<double, 3>> vertices;
    std::string object, material;
    std::map<std::string, std::vector<std::array<double, 3>>> frames; // by object
    std::map<std::string, size_t> lines;
    obj::scan(text, where, [&](const obj::Statement& st) {
        if (st.keyword == "v" && st.args.size() >= 3) {
            std::array<double, 3> v{};
            for (size_t k = 0; k < 3; ++k) v[k] = obj::precise_number(st.args[k], where, st);
            vertices.push_back(v);
        } else if (st.keyword == "o") {
            object = std::string(st.rest);
            lines[object] = st.line;
        } else if (st.keyword == "usemtl") {
            material = std::string(st.rest);
        } else if (st.keyword == "f" && material == kFrameMaterial && st.args.size() == 3) {
            for (const std::string_view a : st.args) {
                const long index = obj::reference(a, 0, vertices.size(), where, st);
                if (index == 0) obj::fail(where, st, "a frame corner without a vertex");
                frames[object].push_back(vertices[size_t(index) - 1]);
                lines.emplace(object, st.line); // a frame before any `o` statement
            }
        }
    });
    for (const auto& [name, corners] : frames) {
        LevelNode node;
        node.name = name;
        node.place = Location::at_line(lines[name]);
        // `<name>#<record>`: a number past any record is no record (refused as an added object).
        const size_t hash = name.rfind('#');
        size_t record = 0;
        if (hash != std::string::npos) {
            const auto [end, error] =
                std::from_chars(name.data() + hash + 1, name.data() + name.size(), record);
            if (error == std::errc() && end == name.data() + name.size()) node.record = record;
        }
        if (corners.size() != 3)
            throw FormatError(where, node.place,
                              "object '" + name + "': its frame has " +
                                  std::to_string(corners.size()) + " corners, not 3");
        // The origin is the corner whose two edges are the short (x) and the long (up) one.
        auto length = [](const std::array<double, 3>& a, const std::array<double, 3>& b) {
            return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
        };
        size_t o = 0;
        double best = 1e300;
        for (size_t k = 0; k < 3; ++k) {
            const double a = length(corners[k], corners[(k + 1) % 3]),
                         b = length(corners[k], corners[(k + 2) % 3]);
            const double off = std::abs(std::max(a, b) / std::max(std::min(a, b), 1e-12) - 2);
            if (off < best) best = off, o = k;
        }
        const auto& O = corners[o];
        const auto& p1 = corners[(o + 1) % 3];
        const auto& p2 = corners[(o + 2) % 3];
        const bool first_short = length(O, p1) < length(O, p2);
        const auto& X = first_short ? p1 : p2;
        const auto& U = first_short ? p2 : p1;
        std::array<double, 3> x{}, u{};
        for (int k = 0; k < 3; ++k) {
            x[size_t(k)] = (X[size_t(k)] - O[size_t(k)]) / kFrame;
            u[size_t(k)] = (U[size_t(k)] - O[size_t(k)]) / (2 * kFrame);
        }
        const std::array<double, 3> z{x[1] * u[2] - x[2] * u[1], x[2] * u[0] - x[0] * u[2],
                                      x[0] * u[1] - x[1] * u[0]};
        // z = x cross up is scaled twice: back to one scale's length.
        const double s = std::sqrt(std::hypot(x[0], x[1], x[2]) * std::hypot(u[0], u[1], u[2]));
        const double zn = std::hypot(z[0], z[1], z[2]);
        node.translation = O;
        // Each corner is good to half a float step at its size: so are the axes, over kFrame.
        const double size = std::max({std::abs(O[0]), std::abs(O[1]), std::abs(O[2]), 1.0});
        node.tolerance = std::max(1e-5, 8 * size * std::numeric_limits<float>::epsilon() / kFrame);
        node.basis = {x, u, {z[0] / zn * s, z[1] / zn * s, z[2] / zn * s}};
        doc.nodes.push_back(std::move(node));
    }
    return doc;
}

} // namespace msh::conversion
