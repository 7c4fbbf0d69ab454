#include "scene_to_terrain.hpp"

#include "formats/arealmap.hpp"
#include "formats/diagnostics.hpp"
#include "formats/obj.hpp"
#include "formats/terrain.hpp"
#include "scene/transform.hpp"
#include "scene_identity.hpp"
#include "scene_to_model.hpp"
#include "sidecar/binding_fields.hpp"
#include "terrain_rebuild.hpp"
#include "terrain_to_scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace msh::mapping {

using scene::inverse;
using scene::Rigid;
using scene::world_transforms;

namespace {

constexpr size_t kStreams = sidecar::kStreamCount;

// An incoming terrain corner: identity, world position, the stream values the file gives it
// (sidecar::kVertexStreams order; bit s of `holds`) and its world normal (`has_normal`).
struct Corner {
    uint32_t face = 0, corner = 0, vertex = 0;
    F3 world{};
    std::array<std::array<float, 2>, kStreams> streams{};
    uint8_t holds = 0;
    bool has_normal = false;
    F3 normal{};
};

enum class Overlay : uint8_t { Areas, Outlines }; // the filled polygons / the LINES outlines

struct Point {
    uint32_t areal = 0, k = 0;
    F3 world{};
    Overlay from = Overlay::Areas;
};

struct Incoming {
    bool has_terrain = false;
    std::vector<Corner> corners;             // corners referenced by a triangle
    std::vector<std::array<size_t, 3>> tris; // indices into `corners`
    bool has_areas = false, has_outlines = false;
    std::vector<Point> points; // overlay vertices referenced by a face or line
    // glTF outlines whose TEXCOORD_0 identity a tool dropped: positions only (world).
    std::vector<F3> anonymous_outline;
};

using Key = std::pair<uint32_t, uint32_t>;

// The original level and what the exporter made of it.
struct Original {
    terrain::Terrain t;
    std::optional<arealmap::ArealMap> map;
    Rigid terrain_world, overlay_world;
    std::vector<std::array<F3, 3>> corner_world;                 // [face][corner]
    std::vector<std::array<F3, 3>> corner_normal;                // world, [face][corner]
    std::vector<std::vector<F3>> areal_world;                    // [areal][k]
    std::vector<Key> terrain_order, areas_order, outlines_order; // OBJ identity by order
    // A binding sidecar's: the polygon vertices no incoming copy gave back (their areal_world is
    // NaN, so that every copy is a move), and whether the original grid follows the terrain.md §9
    // rule (recorded: the check needs the original vertices).
    std::set<Key> areal_unknown;
    std::optional<bool> grid_rule;
};

bool same(const F3& a, const F3& b) {
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

bool same_bits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

std::string fmt(const F3& v) {
    std::ostringstream s;
    s << '(' << v[0] << ", " << v[1] << ", " << v[2] << ')';
    return s.str();
}

// `what` and `what_suffix` name the value in the error (joined only then: this runs per vertex).
uint32_t whole(float v, const std::string& where, std::string_view what,
               std::string_view what_suffix = {}) {
    if (!(v >= 0 && v < 16777216.0f) || v != std::floor(v))
        throw FormatError(where, Location::whole(),
                          std::string(what) + std::string(what_suffix) +
                              " is not a whole number (" + std::to_string(v) +
                              "): the identity the exporter wrote was lost");
    return uint32_t(v);
}

const scene::Attribute* attribute(const scene::Primitive& p, const char* name) {
    auto it = p.attributes.find(name);
    return it == p.attributes.end() ? nullptr : &it->second;
}

Original load_original(const sidecar::TerrainSidecar& sc, const std::string& where) {
    Original o;
    {
        DiagnosticSink sink(ReadMode::Tolerant);
        o.t = terrain::read(sc.land_msh, sink, where + " (sidecar Land.msh)");
        sink.throw_if_errors();
    }
    if (sc.land_map) {
        DiagnosticSink sink(ReadMode::Tolerant);
        o.map = arealmap::read(*sc.land_map, sink, where + " (sidecar Land.map)");
        sink.throw_if_errors();
    }
    TerrainSceneOptions opt;
    opt.areal_lift = sc.record.lift;
    opt.areal_faces = sc.record.areal_faces;
    // What the exporter wrote; only the per-element world positions, normals and the OBJ order
    // are kept from it.
    const scene::Scene expected = terrain_to_scene(o.t, o.map ? &*o.map : nullptr, opt);
    const std::vector<Rigid> world = world_transforms(expected);
    o.corner_world.resize(o.t.faces.size());
    o.corner_normal.resize(o.t.faces.size());
    if (o.map && o.map->decoded) {
        o.areal_world.resize(o.map->areals.size());
        for (size_t a = 0; a < o.map->areals.size(); ++a)
            o.areal_world[a].resize(o.map->areals[a].vertices.size());
    }
    for (size_t i = 0; i < expected.nodes.size(); ++i) {
        const scene::Node& n = expected.nodes[i];
        if (n.name == kTerrainNode) o.terrain_world = world[i];
        if (n.name == kArealAreasNode || n.name == kArealOutlinesNode) o.overlay_world = world[i];
        if (n.mesh == scene::kNoIndex) continue;
        const bool is_terrain = n.name == kTerrainNode;
        std::vector<Key>& order = is_terrain                  ? o.terrain_order
                                  : n.name == kArealAreasNode ? o.areas_order
                                                              : o.outlines_order;
        for (const scene::Primitive& p : expected.meshes[size_t(n.mesh)].primitives) {
            const auto& pos = p.attributes.at("POSITION").data;
            const auto& uv0 = p.attributes.at("TEXCOORD_0").data; // the areal identity
            const auto* fid = is_terrain ? &p.attributes.at("TEXCOORD_2").data : nullptr;
            const auto* nrm = is_terrain ? &p.attributes.at("NORMAL").data : nullptr;
            order.reserve(order.size() + pos.size() / 3);
            for (size_t v = 0; v < pos.size() / 3; ++v) {
                const F3 w = scene::apply(world[i], {pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]});
                if (is_terrain) {
                    const Key key{uint32_t((*fid)[2 * v]), uint32_t((*fid)[2 * v + 1])};
                    o.corner_world[key.first][key.second] = w;
                    o.corner_normal[key.first][key.second] = scene::apply_rotation(
                        world[i], {(*nrm)[3 * v], (*nrm)[3 * v + 1], (*nrm)[3 * v + 2]});
                    order.push_back(key);
                } else {
                    const Key key{uint32_t(uv0[2 * v]), uint32_t(uv0[2 * v + 1])};
                    o.areal_world[key.first][key.second] = w;
                    order.push_back(key);
                }
            }
        }
    }
    return o;
}

// ---- Incoming: glTF scene ----

Incoming collect_gltf(const scene::Scene& sc, const std::string& where) {
    Incoming in;
    const std::vector<Rigid> world = world_transforms(sc);
    size_t corners = 0;
    for (const scene::Node& n : sc.nodes)
        if (n.name == kTerrainNode && n.mesh != scene::kNoIndex &&
            size_t(n.mesh) < sc.meshes.size())
            for (const scene::Primitive& p : sc.meshes[size_t(n.mesh)].primitives)
                corners += p.indices.size();
    in.corners.reserve(corners);
    in.tris.reserve(corners / 3);
    for (size_t i = 0; i < sc.nodes.size(); ++i) {
        const scene::Node& n = sc.nodes[i];
        const bool is_terrain = n.name == kTerrainNode, is_areas = n.name == kArealAreasNode,
                   is_outlines = n.name == kArealOutlinesNode;
        if ((!is_terrain && !is_areas && !is_outlines) || n.mesh == scene::kNoIndex) continue;
        const auto wanted =
            is_outlines ? scene::Primitive::Mode::Lines : scene::Primitive::Mode::Triangles;
        for (const scene::Primitive& p : sc.meshes.at(size_t(n.mesh)).primitives) {
            if (p.mode != wanted) continue;
            const scene::Attribute* pos = attribute(p, "POSITION");
            const scene::Attribute* id = attribute(p, is_terrain ? "TEXCOORD_2" : "TEXCOORD_0");
            const scene::Attribute* vid = is_terrain ? attribute(p, "TEXCOORD_3") : nullptr;
            if (pos && is_outlines && (!id || id->components != 2)) {
                // The identity was dropped (e.g. an exporter that writes loose edges without
                // UVs): keep the positions; import_common refuses them if any moved.
                std::vector<char> used(pos->count(), 0);
                for (uint32_t v : p.indices)
                    if (v < used.size()) used[v] = 1;
                for (uint32_t v = 0; v < used.size(); ++v)
                    if (used[v])
                        in.anonymous_outline.push_back(
                            scene::apply(world[i], {pos->data[3 * v], pos->data[3 * v + 1],
                                                    pos->data[3 * v + 2]}));
                continue;
            }
            if (!pos || !id || id->components != 2 ||
                (is_terrain && (!vid || vid->components != 2)))
                throw FormatError(where, Location::whole(),
                                  "node '" + n.name + "': a primitive without the identity set " +
                                      (is_terrain ? "TEXCOORD_2/TEXCOORD_3" : "TEXCOORD_0") +
                                      " (new faces are not supported)");
            if (id->count() != pos->count() || (vid && vid->count() != pos->count()))
                throw FormatError(where, Location::whole(),
                                  "node '" + n.name + "': attribute counts differ");
            (is_terrain ? in.has_terrain : is_areas ? in.has_areas : in.has_outlines) = true;
            // The values besides the position a terrain corner may carry edits of.
            auto per_vertex = [&](const char* name, int components) -> const scene::Attribute* {
                const scene::Attribute* a = is_terrain ? attribute(p, name) : nullptr;
                return a && a->components == components && a->count() == pos->count() ? a : nullptr;
            };
            const scene::Attribute* uvs[2] = {per_vertex("TEXCOORD_0", 2),
                                              per_vertex("TEXCOORD_1", 2)};
            const scene::Attribute* normals = per_vertex("NORMAL", 3);
            std::vector<size_t> slot(pos->count(), SIZE_MAX);
            auto get = [&](uint32_t v) -> size_t {
                if (v >= pos->count())
                    throw FormatError(where, Location::whole(),
                                      "node '" + n.name + "': index out of range");
                if (slot[v] != SIZE_MAX) return slot[v];
                const F3 w = scene::apply(
                    world[i], {pos->data[3 * v], pos->data[3 * v + 1], pos->data[3 * v + 2]});
                const uint32_t a = whole(id->data[2 * v], where, n.name, " identity");
                const uint32_t b = whole(id->data[2 * v + 1], where, n.name, " identity");
                if (is_terrain) {
                    const uint32_t x = whole(vid->data[2 * v], where, "TEXCOORD_3 vertex index");
                    slot[v] = in.corners.size();
                    Corner& c = in.corners.emplace_back();
                    c.face = a;
                    c.corner = b;
                    c.vertex = x;
                    c.world = w;
                    for (size_t s = 0; s < 2; ++s)
                        if (uvs[s]) {
                            c.streams[s] = {uvs[s]->data[2 * v], uvs[s]->data[2 * v + 1]};
                            c.holds |= uint8_t(1u << s);
                        }
                    c.streams[2] = {vid->data[2 * v + 1], 0};
                    c.holds |= 4u;
                    if (normals) {
                        c.has_normal = true;
                        c.normal = scene::apply_rotation(world[i], {normals->data[3 * v],
                                                                    normals->data[3 * v + 1],
                                                                    normals->data[3 * v + 2]});
                    }
                } else {
                    slot[v] = in.points.size();
                    in.points.push_back(
                        {a, b, w, is_outlines ? Overlay::Outlines : Overlay::Areas});
                }
                return slot[v];
            };
            if (is_outlines) {
                for (uint32_t v : p.indices) get(v);
                continue;
            }
            for (size_t t = 0; t + 2 < p.indices.size(); t += 3) {
                const size_t c0 = get(p.indices[t]), c1 = get(p.indices[t + 1]),
                             c2 = get(p.indices[t + 2]);
                if (is_terrain) in.tris.push_back({c0, c1, c2});
            }
        }
    }
    return in;
}

// ---- Incoming: OBJ text (identity by order) ----

Incoming collect_obj(const std::string& text, const Original& o, const std::string& where) {
    Incoming in;
    struct V {
        F3 p;
        int object;
        size_t ordinal;
    };
    std::vector<V> vs;
    std::vector<std::array<float, 2>> vts;
    std::vector<F3> vns;
    std::vector<std::string> objects;
    std::vector<size_t> per_object;
    int current = -1;
    auto object_kind = [&](int obj) -> int { // 0 terrain, 1 areas, 2 outlines, -1 other
        if (obj < 0) return -1;
        const std::string& n = objects[size_t(obj)];
        return n == kTerrainNode ? 0 : n == kArealAreasNode ? 1 : n == kArealOutlinesNode ? 2 : -1;
    };
    obj::scan(text, where, [&](const obj::Statement& st) {
        if (st.keyword == "o") {
            objects.emplace_back(st.rest);
            per_object.push_back(0);
            current = int(objects.size() - 1);
            const int kind = object_kind(current);
            if (kind == 0) in.has_terrain = true;
            if (kind == 1) in.has_areas = true;
            if (kind == 2) in.has_outlines = true;
        } else if (st.keyword == "v") {
            if (st.args.size() < 3) obj::fail(where, st, "expected 3 numbers after 'v'");
            const F3 p{obj::number(st.args[0], where, st), obj::number(st.args[1], where, st),
                       obj::number(st.args[2], where, st)};
            size_t ordinal = 0;
            if (current >= 0) ordinal = per_object[size_t(current)]++;
            vs.push_back({p, current, ordinal});
        } else if (st.keyword == "vt") {
            if (st.args.size() < 2) obj::fail(where, st, "expected 2 numbers after 'vt'");
            vts.push_back({obj::number(st.args[0], where, st), obj::number(st.args[1], where, st)});
        } else if (st.keyword == "vn") {
            if (st.args.size() < 3) obj::fail(where, st, "expected 3 numbers after 'vn'");
            vns.push_back({obj::number(st.args[0], where, st), obj::number(st.args[1], where, st),
                           obj::number(st.args[2], where, st)});
        } else if (st.keyword == "f" || st.keyword == "l") {
            const int kind = object_kind(current);
            std::vector<size_t> refs;
            std::vector<std::array<long, 2>> extra; // vt, vn (1-based; 0 = none)
            for (std::string_view ref : st.args) {
                refs.push_back(size_t(obj::reference(ref, 0, vs.size(), where, st) - 1));
                extra.push_back({obj::reference(ref, 1, vts.size(), where, st),
                                 obj::reference(ref, 2, vns.size(), where, st)});
            }
            if (kind < 0) return;
            const std::vector<Key>& order = kind == 0   ? o.terrain_order
                                            : kind == 1 ? o.areas_order
                                                        : o.outlines_order;
            std::vector<size_t> made;
            for (size_t i = 0; i < refs.size(); ++i) {
                const V& v = vs[refs[i]];
                if (v.object != current || v.ordinal >= order.size())
                    obj::fail(where, st,
                              "refers to a vertex the exporter did not write for " +
                                  objects[size_t(current)] + " (added geometry is not supported)");
                const Key k = order[v.ordinal];
                if (kind == 0) {
                    made.push_back(in.corners.size());
                    Corner& c = in.corners.emplace_back();
                    c.face = k.first;
                    c.corner = k.second;
                    c.vertex = o.t.faces[k.first].v[k.second];
                    c.world = v.p;
                    if (const long t = extra[i][0]) { // the layer-1 UV, its v flipped back
                        c.streams[0] = {vts[size_t(t - 1)][0], 1.0f - vts[size_t(t - 1)][1]};
                        c.holds = 1u;
                    }
                    if (const long n = extra[i][1]) {
                        c.has_normal = true;
                        c.normal = vns[size_t(n - 1)];
                    }
                } else {
                    in.points.push_back(
                        {k.first, k.second, v.p, kind == 1 ? Overlay::Areas : Overlay::Outlines});
                }
            }
            if (kind == 0) {
                if (st.keyword != "f" || made.size() != 3)
                    obj::fail(where, st,
                              "terrain faces must stay triangles as exported (topology edits are "
                              "not supported)");
                in.tris.push_back({made[0], made[1], made[2]});
            }
        }
    });
    return in;
}

// ---- Derived values ----

struct Bounds {
    std::array<float, 3> mn{}, mx{};
    std::array<float, 4> sphere{};
    std::array<double, 3> dmn{}, dmx{};
};

// The rule of the generated corpus (samples/terrain_gen.cpp): AABB of the slot's face vertices,
// sphere around the AABB centre with the largest distance to those vertices.
Bounds slot_bounds(const terrain::Terrain& t, const terrain::Slot& s) {
    Bounds b;
    double mn[3] = {1e300, 1e300, 1e300}, mx[3] = {-1e300, -1e300, -1e300};
    const std::vector<uint32_t> faces = terrain::slot_faces(t, s);
    for (const uint32_t i : faces)
        for (uint16_t v : t.faces[i].v) {
            if (v >= t.positions.size()) continue;
            const terrain::Vec3& p = t.positions[v];
            const double c[3] = {p.x, p.y, p.z};
            for (int k = 0; k < 3; ++k) {
                mn[k] = std::min(mn[k], c[k]);
                mx[k] = std::max(mx[k], c[k]);
            }
        }
    double ctr[3], r = 0;
    for (int k = 0; k < 3; ++k) {
        b.mn[size_t(k)] = float(mn[k]);
        b.mx[size_t(k)] = float(mx[k]);
        b.dmn[size_t(k)] = mn[k];
        b.dmx[size_t(k)] = mx[k];
        ctr[k] = (mn[k] + mx[k]) / 2;
    }
    for (const uint32_t i : faces)
        for (uint16_t v : t.faces[i].v) {
            if (v >= t.positions.size()) continue;
            const terrain::Vec3& p = t.positions[v];
            r = std::max(r, std::hypot(p.x - ctr[0], p.y - ctr[1], p.z - ctr[2]));
        }
    b.sphere = {float(ctr[0]), float(ctr[1]), float(ctr[2]), float(r)};
    return b;
}

bool slot_matches(const terrain::Slot& s, const Bounds& b) {
    for (size_t k = 0; k < 3; ++k)
        if (!same_bits(s.aabb_min[k], b.mn[k]) || !same_bits(s.aabb_max[k], b.mx[k])) return false;
    for (size_t k = 0; k < 4; ++k)
        if (!same_bits(s.sphere[k], b.sphere[k])) return false;
    return true;
}

terrain::Header header_rule(const terrain::Terrain& t) {
    terrain::Header h = t.header;
    double gmin[3] = {1e300, 1e300, 1e300}, gmax[3] = {-1e300, -1e300, -1e300};
    for (const terrain::Slot& s : t.slots) {
        const Bounds b = slot_bounds(t, s);
        for (size_t k = 0; k < 3; ++k) {
            gmin[k] = std::min(gmin[k], b.dmn[k]);
            gmax[k] = std::max(gmax[k], b.dmx[k]);
        }
    }
    for (int i = 0; i < 8; ++i) {
        h.hull[size_t(3 * i)] = float(i & 1 ? gmax[0] : gmin[0]);
        h.hull[size_t(3 * i + 1)] = float(i & 2 ? gmax[1] : gmin[1]);
        h.hull[size_t(3 * i + 2)] = float(i & 4 ? gmax[2] : gmin[2]);
    }
    const double c[3] = {(gmin[0] + gmax[0]) / 2, (gmin[1] + gmax[1]) / 2, (gmin[2] + gmax[2]) / 2};
    double r = 0;
    for (const terrain::Vec3& p : t.positions)
        r = std::max(r, std::hypot(p.x - c[0], p.y - c[1], p.z - c[2]));
    h.sphere = {float(c[0]), float(c[1]), float(c[2]), float(r)};
    h.capsule = {float(c[0]),
                 float(c[1]),
                 float(gmin[2]),
                 float(c[0]),
                 float(c[1]),
                 float(gmax[2]),
                 float(std::hypot((gmax[0] - gmin[0]) / 2, (gmax[1] - gmin[1]) / 2))};
    return h;
}

template <size_t N> bool same_floats(const std::array<float, N>& a, const std::array<float, N>& b) {
    return std::memcmp(a.data(), b.data(), sizeof(float) * N) == 0;
}

bool header_equal(const terrain::Header& a, const terrain::Header& b) {
    return same_floats(a.hull, b.hull) && same_floats(a.sphere, b.sphere) &&
           same_floats(a.capsule, b.capsule);
}

std::array<double, 3> unit_face_normal(const terrain::Terrain& t, const terrain::Face& f) {
    const terrain::Vec3 &a = t.positions[f.v[0]], &b = t.positions[f.v[1]],
                        &c = t.positions[f.v[2]];
    const double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
    const double vx = double(c.x) - a.x, vy = double(c.y) - a.y, vz = double(c.z) - a.z;
    std::array<double, 3> n{uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx};
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0)) return {0, 0, 0};
    for (double& x : n) x /= len;
    return n;
}

// Local (node-space) value of an incoming world position: per glTF component, the stored value
// where the world component is the exporter's, else the inverse-transformed incoming value.
// Returns the game-space (Z up) position.
terrain::Vec3 to_game(const F3& incoming, const F3& expected, const Rigid& node_world,
                      const terrain::Vec3& stored) {
    const F3 local = scene::apply(inverse(node_world), incoming);
    terrain::Vec3 out = stored; // glTF (x, y, z) = game (x, z, -y)
    if (incoming[0] != expected[0]) out.x = local[0];
    if (incoming[1] != expected[1]) out.z = local[1];
    if (incoming[2] != expected[2]) out.y = -local[2];
    return out;
}

// ---- Areal overlay (rules: docs/import.md, "Terrain") ----

struct OverlayResult {
    bool changed = false;
    bool grid_rebuilt = false;
    // Indices as exported (the sidecar's), before deleted areals are dropped.
    std::vector<uint32_t> changed_areals, deleted_areals;
};

const char* overlay_name(Overlay o) {
    return o == Overlay::Areas ? kArealAreasNode : kArealOutlinesNode;
}

// Outline positions without identity must all be exported positions (or positions a moved
// filled-polygon vertex now has): an edit there cannot be matched to an areal, so it is refused
// rather than dropped.
void check_anonymous_outline(const Incoming& in, const Original& o, const std::string& where) {
    auto key = [](const F3& p) {
        uint32_t b[3];
        std::memcpy(b, p.data(), sizeof b);
        return (uint64_t(b[0]) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(b[1]) << 21) ^
               (uint64_t(b[2]) * 0xC2B2AE3D27D4EB4Full);
    };
    std::unordered_multimap<uint64_t, F3> known;
    for (const auto& poly : o.areal_world)
        for (const F3& p : poly) known.emplace(key(p), p);
    for (const Point& p : in.points) known.emplace(key(p.world), p.world);
    size_t unknown = 0;
    F3 first{};
    for (const F3& p : in.anonymous_outline) {
        auto [lo, hi] = known.equal_range(key(p));
        bool hit = false;
        for (auto it = lo; it != hi && !hit; ++it) hit = same(it->second, p);
        if (!hit && unknown++ == 0) first = p;
    }
    if (unknown)
        throw FormatError(where, Location::whole(),
                          std::string(kArealOutlinesNode) + ": " + std::to_string(unknown) +
                              " outline vertices were moved (first at " + fmt(first) +
                              ") but the outline has lost its identity attribute TEXCOORD_0, so "
                              "the edit cannot be matched to an areal: edit " +
                              kArealAreasNode + " instead, or keep TEXCOORD_0 when saving");
}

OverlayResult apply_overlay(const Incoming& in, Original& o, const std::string& where,
                            DiagnosticSink& diagnostics) {
    OverlayResult res;
    arealmap::ArealMap& m = *o.map;
    const size_t na = m.areals.size();
    // Vertices seen per areal in each representation.
    std::vector<std::array<size_t, 2>> seen(na, {0, 0});
    std::vector<std::vector<std::array<char, 2>>> pseen(na);
    for (size_t a = 0; a < na; ++a) pseen[a].assign(m.areals[a].vertices.size(), {0, 0});
    struct Move {
        F3 incoming, expected;
        Overlay from;
    };
    std::map<Key, Move> moves;
    for (const Point& p : in.points) {
        if (p.areal >= na || p.k >= m.areals[p.areal].vertices.size())
            throw FormatError(where, Location::whole(),
                              std::string(overlay_name(p.from)) + ": vertex (areal " +
                                  std::to_string(p.areal) + ", vertex " + std::to_string(p.k) +
                                  ") was not exported (adding areals or polygon vertices is not "
                                  "supported)");
        const size_t r = size_t(p.from);
        if (!pseen[p.areal][p.k][r]) ++seen[p.areal][r];
        pseen[p.areal][p.k][r] = 1;
        const F3& e = o.areal_world[p.areal][p.k];
        if (same(p.world, e)) continue; // unchanged here: the other representation decides
        auto [it, fresh] = moves.emplace(Key{p.areal, p.k}, Move{p.world, e, p.from});
        if (!fresh && !same(it->second.incoming, p.world))
            throw FormatError(
                where, 0,
                "areal " + std::to_string(p.areal) + " vertex " + std::to_string(p.k) +
                    " was moved to " + fmt(it->second.incoming) + " in " +
                    overlay_name(it->second.from) + " and to " + fmt(p.world) + " in " +
                    overlay_name(p.from) +
                    ": edit the polygon in one of them, or move it to the same place in both");
    }
    if (!in.anonymous_outline.empty()) check_anonymous_outline(in, o, where);

    // Deleted areals: gone from every representation that would show them; partly gone is an
    // error (vertices cannot be removed; an areal must go from both or neither).
    std::vector<char> deleted(na, 0);
    for (size_t a = 0; a < na; ++a) {
        const size_t V = m.areals[a].vertices.size();
        const bool in_areas = in.has_areas && V >= 3, in_outlines = in.has_outlines && V >= 2;
        if (!in_areas && !in_outlines) continue;
        const size_t n_areas = seen[a][size_t(Overlay::Areas)],
                     n_outlines = seen[a][size_t(Overlay::Outlines)];
        if ((!in_areas || n_areas == 0) && (!in_outlines || n_outlines == 0)) {
            deleted[a] = 1;
            continue;
        }
        for (const auto& [present, n, name] :
             {std::tuple{in_areas, n_areas, kArealAreasNode},
              std::tuple{in_outlines, n_outlines, kArealOutlinesNode}}) {
            if (!present) continue;
            if (n == 0)
                throw FormatError(
                    where, 0,
                    "areal " + std::to_string(a) + " was deleted from " + name + " but not from " +
                        // By content: equal literals need not share an address.
                        (std::string_view(name) == kArealAreasNode ? kArealOutlinesNode
                                                                   : kArealAreasNode) +
                        ": delete it in both or in neither");
            if (n != V)
                throw FormatError(where, Location::whole(),
                                  std::string(name) + ": areal " + std::to_string(a) + " lost " +
                                      std::to_string(V - n) +
                                      " of its polygon vertices: removing vertices is not "
                                      "supported");
        }
    }
    const size_t n_deleted = size_t(std::count(deleted.begin(), deleted.end(), 1));
    if (n_deleted == na)
        throw FormatError(where, Location::whole(),
                          "every areal was deleted from the overlay: Land.map needs at least one "
                          "(terrain.md §8)");

    // A vertex the file did not give back is where the file has it: it must be there.
    for (const Key& key : o.areal_unknown)
        if (!deleted[key.first] && !moves.count(key))
            throw FormatError(where, Location::whole(),
                              "areal " + std::to_string(key.first) + " vertex " +
                                  std::to_string(key.second) +
                                  " is missing from the overlay, and the sidecar leaves it to "
                                  "the file: restore " +
                                  kArealOutlinesNode + " or " + kArealAreasNode);
    const bool grid_rule =
        o.grid_rule ? *o.grid_rule
                    : m.grid == arealmap::rebuild_grid(m.areals, m.grid.cells_x, m.grid.cells_y);
    std::set<uint32_t> touched;
    for (const auto& [key, mv] : moves) {
        if (deleted[key.first]) continue;
        arealmap::Vec3& v = m.areals[key.first].vertices[key.second];
        const terrain::Vec3 g =
            to_game(mv.incoming, mv.expected, o.overlay_world, terrain::Vec3{v.x, v.y, v.z});
        if (same_bits(g.x, v.x) && same_bits(g.y, v.y) && same_bits(g.z, v.z) &&
            !o.areal_unknown.count(key))
            continue;
        v = {g.x, g.y, g.z};
        touched.insert(key.first);
    }
    for (uint32_t a : touched) arealmap::apply_polygon_rules(m.areals[a]);

    if (n_deleted) {
        // Renumber: links to a deleted areal become (-1, -1) (its neighbours lose that
        // neighbour, so links stay mutual), the others follow the new indices; the grid drops
        // the deleted ids and renumbers the rest.
        std::vector<int32_t> index(na, -1);
        int32_t next = 0;
        for (size_t a = 0; a < na; ++a)
            if (!deleted[a]) index[a] = next++;
        std::vector<arealmap::Areal> kept;
        kept.reserve(na - n_deleted);
        for (size_t a = 0; a < na; ++a) {
            if (deleted[a]) {
                res.deleted_areals.push_back(uint32_t(a));
                continue;
            }
            arealmap::Areal ar = std::move(m.areals[a]);
            for (arealmap::EdgeLink& l : ar.links) {
                if (l.none() || l.area_ref < 0 || size_t(l.area_ref) >= na) continue;
                if (index[size_t(l.area_ref)] < 0)
                    l = arealmap::EdgeLink{};
                else
                    l.area_ref = index[size_t(l.area_ref)];
            }
            kept.push_back(std::move(ar));
        }
        m.areals = std::move(kept);
        for (auto& cell : m.grid.cells) {
            std::vector<uint16_t> ids;
            for (uint16_t id : cell)
                if (id < na && index[id] >= 0) ids.push_back(uint16_t(index[id]));
            cell = std::move(ids);
        }
    }
    for (uint32_t a : touched) res.changed_areals.push_back(a); // exported (sidecar) indices
    res.changed = !touched.empty() || n_deleted > 0;
    if (res.changed) {
        if (grid_rule) {
            m.grid = arealmap::rebuild_grid(m.areals, m.grid.cells_x, m.grid.cells_y);
            res.grid_rebuilt = true;
        } else {
            diagnostics.warn({}, Location::whole(),
                             n_deleted ? "the original grid does not follow the terrain.md §9 "
                                         "rebuild rule: grid kept, deleted areals removed from "
                                         "its cells and the other ids renumbered"
                                       : "the original grid does not follow the terrain.md §9 "
                                         "rebuild rule: grid kept verbatim");
        }
    }
    return res;
}

using MovedCorners = std::unordered_map<uint32_t, std::pair<F3, F3>>; // vertex -> (in, expected)

// Diff: every exported terrain corner must come back, on its face and vertex; a vertex whose
// corners moved must move to one place. Returns the moved vertices.
MovedCorners diff_corners(const Incoming& in, const Original& o, const std::string& where) {
    const terrain::Terrain& t = o.t;
    const size_t nf = t.faces.size();
    if (!in.has_terrain)
        throw FormatError(where, Location::whole(),
                          "no node '" + std::string(kTerrainNode) +
                              "' with a mesh: deleting the terrain is not supported");
    std::vector<std::array<bool, 3>> seen(nf, {false, false, false});
    MovedCorners cand;
    for (const Corner& c : in.corners) {
        if (c.face >= nf || c.corner >= 3 || !terrain::face_usable(t, c.face))
            throw FormatError(where, Location::whole(),
                              "a corner names face " + std::to_string(c.face) + " corner " +
                                  std::to_string(c.corner) +
                                  ", which the export did not contain (new faces are not "
                                  "supported)");
        if (t.faces[c.face].v[c.corner] != c.vertex)
            throw FormatError(where, Location::whole(),
                              "face " + std::to_string(c.face) + " corner " +
                                  std::to_string(c.corner) + " names vertex " +
                                  std::to_string(c.vertex) + ", the face uses vertex " +
                                  std::to_string(t.faces[c.face].v[c.corner]));
        seen[c.face][c.corner] = true;
        const F3& e = o.corner_world[c.face][c.corner];
        if (same(c.world, e)) continue;
        auto [it, fresh] = cand.emplace(c.vertex, std::make_pair(c.world, e));
        if (!fresh && !same(it->second.first, c.world))
            throw FormatError(where, Location::whole(),
                              "vertex " + std::to_string(c.vertex) +
                                  " was moved to two different places " + fmt(it->second.first) +
                                  " and " + fmt(c.world) + " (its corners must move together)");
    }
    for (const auto& tri : in.tris) {
        const Corner &a = in.corners[tri[0]], &b = in.corners[tri[1]], &c = in.corners[tri[2]];
        if (a.face != b.face || a.face != c.face || a.corner == b.corner || a.corner == c.corner ||
            b.corner == c.corner)
            throw FormatError(where, Location::whole(),
                              "a triangle joins corners of faces " + std::to_string(a.face) + ", " +
                                  std::to_string(b.face) + ", " + std::to_string(c.face) +
                                  " (re-triangulated or new faces are not supported)");
    }
    std::vector<size_t> missing;
    for (size_t f = 0; f < nf; ++f)
        if (terrain::face_usable(t, f) && !(seen[f][0] && seen[f][1] && seen[f][2]))
            missing.push_back(f);
    if (!missing.empty()) refuse_missing_faces(missing, where);
    return cand;
}

// Whether the original follows each recompute rule, checked before anything moves: a derived
// value is only recomputed where the original was derived the same way.
struct TerrainRules {
    std::vector<char> touched_face; // uses a moved vertex
    bool face_normals = true, slot_bounds = false, header = false;
};

// `recorded`: the facts a binding sidecar records (its original positions may be unknown here).
TerrainRules check_rules(const terrain::Terrain& t, const std::vector<uint32_t>& moved,
                         const sidecar::TerrainBinding* recorded) {
    const size_t nf = t.faces.size();
    TerrainRules rules;
    std::vector<char> is_moved(t.positions.size(), 0);
    for (uint32_t v : moved) is_moved[v] = 1;
    rules.touched_face.assign(nf, 0);
    for (size_t f = 0; f < nf; ++f)
        if (terrain::face_usable(t, f))
            for (uint16_t v : t.faces[f].v)
                if (is_moved[v]) rules.touched_face[f] = 1;
    if (!moved.empty())
        for (size_t f = 0; f < nf && rules.face_normals; ++f) {
            if (!terrain::face_usable(t, f) || rules.touched_face[f]) continue;
            double len = 0;
            for (int16_t c : t.faces[f].normal) len += double(c) * c;
            rules.face_normals = std::abs(std::sqrt(len) / 32767.0 - 1.0) <= 1e-2;
        }
    if (recorded) {
        rules.slot_bounds = !moved.empty() && recorded->slot_bounds_rule;
        rules.header = rules.slot_bounds && t.has(terrain::kHeaderSlots) && recorded->header_rule;
        return rules;
    }
    rules.slot_bounds = !moved.empty();
    for (size_t s = 0; s < t.slots.size() && rules.slot_bounds; ++s)
        rules.slot_bounds = slot_matches(t.slots[s], slot_bounds(t, t.slots[s]));
    rules.header =
        rules.slot_bounds && t.has(terrain::kHeaderSlots) && header_equal(header_rule(t), t.header);
    return rules;
}

// The vertex normals of every vertex of a touched face: the normalised sum of its usable faces'
// unit normals. Returns how many were written.
size_t recompute_vertex_normals(terrain::Terrain& t, const std::vector<char>& touched_face) {
    const size_t nf = t.faces.size(), nv = t.positions.size();
    if (t.normals.size() != nv) return 0;
    std::vector<std::array<double, 3>> sum(nv, {0, 0, 0});
    std::vector<char> touched_vertex(nv, 0);
    for (size_t f = 0; f < nf; ++f)
        if (touched_face[f])
            for (uint16_t v : t.faces[f].v) touched_vertex[v] = 1;
    for (size_t f = 0; f < nf; ++f) {
        if (!terrain::face_usable(t, f)) continue;
        const terrain::Face& fc = t.faces[f];
        if (!touched_vertex[fc.v[0]] && !touched_vertex[fc.v[1]] && !touched_vertex[fc.v[2]])
            continue;
        const auto n = unit_face_normal(t, fc);
        for (uint16_t v : fc.v)
            for (size_t k = 0; k < 3; ++k) sum[v][k] += n[k];
    }
    size_t written = 0;
    for (size_t v = 0; v < nv; ++v) {
        if (!touched_vertex[v]) continue;
        const auto& s = sum[v];
        const double len = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
        if (!(len > 1e-12)) continue;
        for (size_t k = 0; k < 3; ++k)
            t.normals[v][k] = msh::encode_normal_component(float(s[k] / len));
        ++written;
    }
    return written;
}

struct TerrainRecomputed {
    size_t face_normals = 0, vertex_normals = 0, slots = 0;
    bool header = false;
};

// Recompute what the moved vertices derive, each where its rule holds (else kept, warned).
TerrainRecomputed recompute_terrain(terrain::Terrain& t, const TerrainRules& rules,
                                    DiagnosticSink& diagnostics) {
    TerrainRecomputed done;
    const size_t nf = t.faces.size();
    if (rules.face_normals) {
        for (size_t f = 0; f < nf; ++f)
            if (rules.touched_face[f]) {
                const terrain::Face& fc = t.faces[f];
                t.faces[f].normal = terrain::packed_face_normal(
                    t.positions[fc.v[0]], t.positions[fc.v[1]], t.positions[fc.v[2]]);
                ++done.face_normals;
            }
    } else {
        diagnostics.warn({}, Location::whole(),
                         "stored face normals are not unit length at /32767: face normals "
                         "(+20..+24) of moved faces kept");
    }
    done.vertex_normals = recompute_vertex_normals(t, rules.touched_face);
    if (rules.slot_bounds) {
        for (terrain::Slot& s : t.slots) {
            bool hit = false;
            for (const uint32_t f : terrain::slot_faces(t, s)) hit = hit || rules.touched_face[f];
            if (!hit) continue;
            const Bounds b = slot_bounds(t, s);
            s.aabb_min = b.mn;
            s.aabb_max = b.mx;
            s.sphere = b.sphere;
            ++done.slots;
        }
    } else {
        diagnostics.warn({}, Location::whole(),
                         "slot bounds do not follow the recompute rule in the original: "
                         "slot AABB/sphere kept");
    }
    if (rules.header) {
        t.header = header_rule(t);
        done.header = true;
    } else {
        diagnostics.warn({}, Location::whole(),
                         "the Res2 header does not follow the recompute rule in the original: "
                         "header kept");
    }
    return done;
}

// ---- UVs, weights and vertex normals ----

// The name of a stream in messages, and the attribute it travels in.
constexpr const char* kStreamNames[kStreams] = {"layer-1 UV (type 5, TEXCOORD_0)",
                                                "layer-2 UV (type 18, TEXCOORD_1)",
                                                "weight (type 14, TEXCOORD_3.y)"};

// A weight that came back within this of the exported one is the exported one: Blender's V flip
// (1 - (1 - w) in f32) moves a weight below 0.5 by up to 2^-25, and the sidecar carries those
// weights exactly.
bool same_weight(float incoming, float exported) {
    return std::abs(double(incoming) - exported) <=
           std::ldexp(1.0, -23) * std::max(1.0, std::abs(double(exported)));
}

// A stream's records in the terrain (one per vertex), or null when it has no such view.
std::vector<uint32_t> stream_records(const terrain::Terrain& t, size_t s) {
    std::vector<uint32_t> out;
    const size_t n = t.positions.size();
    if (s == 2) {
        if (t.has(terrain::kWeights) && t.weights.size() == n) out = t.weights;
        return out;
    }
    const std::vector<terrain::PackedUv>& uvs = s == 0 ? t.uv1 : t.uv2;
    if (!t.has(s == 0 ? terrain::kUv1 : terrain::kUv2) || uvs.size() != n) return out;
    out.reserve(n);
    for (const terrain::PackedUv& uv : uvs) out.push_back(sidecar::uv_record(uv));
    return out;
}

void set_stream_records(terrain::Terrain& t, size_t s, const std::vector<uint32_t>& records) {
    if (s == 2) {
        t.weights = records;
        return;
    }
    std::vector<terrain::PackedUv>& uvs = s == 0 ? t.uv1 : t.uv2;
    for (size_t v = 0; v < records.size(); ++v) uvs[v] = sidecar::uv_of_record(records[v]);
}

struct ValueEdits {
    std::array<std::vector<uint32_t>, kStreams> streams; // edited vertices per stream
    std::vector<uint32_t> normals;
};

// The UV and weight edits of the file: a corner whose value encodes to another record than the
// vertex's (terrain.md §3: UVs clamp(round(f·1024)), weights their f32 bits) changes it; the
// changed corners of one vertex must agree. `unknown` (a binding sidecar's rebuild): per vertex,
// the streams whose original no corner had, which every corner then gives.
void apply_stream_edits(const Incoming& in, terrain::Terrain& t,
                        const std::vector<uint8_t>* unknown, const std::string& where,
                        ValueEdits& edits) {
    const size_t nv = t.positions.size();
    for (size_t s = 0; s < kStreams; ++s) {
        std::vector<uint32_t> records = stream_records(t, s);
        if (records.empty()) continue;
        std::vector<char> changed(nv, 0);
        std::vector<uint32_t> value(nv, 0);
        for (const Corner& c : in.corners) {
            if (!(c.holds >> s & 1u) || c.vertex >= nv) continue;
            const uint32_t record = stream_record(s, c.streams[s]);
            const bool is_unknown = unknown && ((*unknown)[c.vertex] >> s & 1u);
            if (!is_unknown) {
                if (record == records[c.vertex]) continue;
                if (s == 2) {
                    float exported = terrain::weight_value(records[c.vertex]);
                    if (!std::isfinite(exported)) exported = 0; // as the export wrote it
                    if (same_weight(c.streams[s][0], exported)) continue;
                }
            }
            if (changed[c.vertex] && value[c.vertex] != record)
                throw FormatError(where, Location::whole(),
                                  "vertex " + std::to_string(c.vertex) + ": its " +
                                      kStreamNames[s] +
                                      " was changed to two different values in its corners "
                                      "(edit them together)");
            changed[c.vertex] = 1;
            value[c.vertex] = record;
        }
        for (uint32_t v = 0; v < nv; ++v) {
            if (unknown && ((*unknown)[v] >> s & 1u) && !changed[v])
                throw FormatError(where, Location::whole(),
                                  "vertex " + std::to_string(v) + ": its " + kStreamNames[s] +
                                      " is in neither the file nor its sidecar (was the "
                                      "attribute removed?)");
            if (!changed[v]) continue;
            records[v] = value[v];
            edits.streams[s].push_back(v);
        }
        if (!edits.streams[s].empty()) set_stream_records(t, s, records);
    }
}

// Vertex-normal edits: a corner normal further than the model import's tolerance from the
// exported one changes its vertex's type-4 record to the mean of its changed corners (i8 =
// clamp(round(c·127)), byte 3 kept). `rule_vertices`: the vertices whose normals the moved
// vertices' rule recomputes; the rule wins there.
void apply_normal_edits(const Incoming& in, const Original& o, terrain::Terrain& t,
                        const std::vector<char>& rule_vertices, ValueEdits& edits) {
    const size_t nv = t.positions.size();
    if (t.normals.size() != nv) return;
    std::vector<std::array<double, 3>> sum(nv, {0, 0, 0});
    std::vector<char> changed(nv, 0);
    for (const Corner& c : in.corners) {
        if (!c.has_normal || c.vertex >= nv || c.face >= o.corner_normal.size() || c.corner >= 3)
            continue;
        const F3& exported = o.corner_normal[c.face][c.corner];
        const double len =
            std::sqrt(double(c.normal[0]) * c.normal[0] + double(c.normal[1]) * c.normal[1] +
                      double(c.normal[2]) * c.normal[2]);
        if (!(len > 1e-12) || angle_deg(c.normal, exported) <= kNormalToleranceDegrees) continue;
        for (size_t k = 0; k < 3; ++k) sum[c.vertex][k] += c.normal[k] / len;
        changed[c.vertex] = 1;
    }
    const Rigid to_local = inverse(o.terrain_world);
    for (uint32_t v = 0; v < nv; ++v) {
        if (!changed[v] || (v < rule_vertices.size() && rule_vertices[v])) continue;
        const F3 g =
            scene::apply_rotation(to_local, {float(sum[v][0]), float(sum[v][1]), float(sum[v][2])});
        // glTF (x, y, z) = game (x, z, -y)
        const double x = g[0], y = -double(g[2]), z = g[1];
        const double len = std::sqrt(x * x + y * y + z * z);
        if (!(len > 1e-12)) continue;
        terrain::PackedNormal packed = t.normals[v];
        packed[0] = msh::encode_normal_component(float(x / len));
        packed[1] = msh::encode_normal_component(float(y / len));
        packed[2] = msh::encode_normal_component(float(z / len));
        if (packed == t.normals[v]) continue;
        t.normals[v] = packed;
        edits.normals.push_back(v);
    }
}

// The areal overlay: edits applied to the decoded Land.map, or the original kept.
OverlayResult import_overlay(const Incoming& in, Original& o, const sidecar::TerrainSidecar& sc,
                             const std::string& where, DiagnosticSink& diagnostics,
                             TerrainImportResult& r) {
    OverlayResult ov;
    if (!sc.land_map) return ov;
    r.land_map = *sc.land_map;
    if (!o.areal_unknown.empty() &&
        (!o.map || !o.map->decoded || (!in.has_areas && !in.has_outlines))) {
        const Key& first = *o.areal_unknown.begin();
        throw FormatError(where, Location::whole(),
                          std::to_string(o.areal_unknown.size()) +
                              " polygon vertices (the first: areal " + std::to_string(first.first) +
                              " vertex " + std::to_string(first.second) +
                              ") are not in the file's overlay, and the sidecar leaves them to it: "
                              "import the file with its " +
                              kArealOutlinesNode + " and " + kArealAreasNode);
    }
    if (!o.map || !o.map->decoded) {
        if (!in.points.empty() || !in.anonymous_outline.empty())
            diagnostics.warn({}, Location::whole(),
                             "the sidecar Land.map is kept raw (not decoded): overlay edits "
                             "ignored");
    } else if (!in.has_areas && !in.has_outlines) {
        if (!in.anonymous_outline.empty()) check_anonymous_outline(in, o, where);
        if (!o.map->areals.empty())
            diagnostics.warn({}, Location::whole(),
                             "no ArealMap overlay in the input: Land.map kept unchanged");
    } else {
        ov = apply_overlay(in, o, where, diagnostics);
        if (ov.changed) r.land_map = arealmap::write(*o.map);
    }
    r.map_identical = r.land_map == *sc.land_map;
    return ov;
}

// Identify (collect_gltf / collect_obj) has run; diff, apply, recompute, encode.
// `streams_unknown`: rebuild_level's, for a binding sidecar.
TerrainImportResult import_common(const Incoming& in, Original& o,
                                  const sidecar::TerrainSidecar& sc, const std::string& where,
                                  const std::vector<uint8_t>* streams_unknown = nullptr) {
    TerrainImportResult r;
    DiagnosticSink diagnostics(ReadMode::Tolerant);
    terrain::Terrain& t = o.t;
    const MovedCorners cand = diff_corners(in, o, where);
    std::vector<uint32_t> moved;
    for (const auto& [v, pe] : cand) {
        const terrain::Vec3 p = to_game(pe.first, pe.second, o.terrain_world, t.positions[v]);
        const terrain::Vec3& q = t.positions[v];
        if (!(same_bits(p.x, q.x) && same_bits(p.y, q.y) && same_bits(p.z, q.z)))
            moved.push_back(v);
    }
    std::sort(moved.begin(), moved.end());

    const TerrainRules rules = check_rules(t, moved, sc.binding.get());
    for (uint32_t v : moved) {
        const auto& pe = cand.at(v);
        t.positions[v] = to_game(pe.first, pe.second, o.terrain_world, t.positions[v]);
    }
    TerrainRecomputed done;
    std::vector<char> rule_vertices(t.positions.size(), 0);
    if (!moved.empty()) {
        done = recompute_terrain(t, rules, diagnostics);
        for (size_t f = 0; f < t.faces.size(); ++f)
            if (rules.touched_face[f])
                for (uint16_t v : t.faces[f].v) rule_vertices[v] = 1;
    }
    ValueEdits edits;
    apply_stream_edits(in, t, streams_unknown, where, edits);
    apply_normal_edits(in, o, t, rule_vertices, edits);
    const bool values_edited =
        !edits.normals.empty() || std::any_of(edits.streams.begin(), edits.streams.end(),
                                              [](const auto& e) { return !e.empty(); });
    if (!moved.empty() || values_edited) {
        r.land_msh = terrain::write(t);
    } else {
        r.land_msh = sc.land_msh;
    }
    r.msh_identical = r.land_msh == sc.land_msh;
    const OverlayResult ov = import_overlay(in, o, sc, where, diagnostics, r);

    TerrainImportReport& rep = r.report;
    rep.vertices_moved = moved.size();
    rep.moved_vertices.assign(moved.begin(),
                              moved.begin() + long(std::min<size_t>(moved.size(), 1000)));
    rep.vertex_normals_recomputed = done.vertex_normals;
    rep.layer1_uv_vertices = std::move(edits.streams[0]);
    rep.layer2_uv_vertices = std::move(edits.streams[1]);
    rep.weight_vertices = std::move(edits.streams[2]);
    rep.normal_vertices = std::move(edits.normals);
    rep.face_normals_recomputed = done.face_normals;
    rep.slots_with_bounds_recomputed = done.slots;
    rep.header_recomputed = done.header;
    rep.changed_areals = ov.changed_areals;
    rep.deleted_areals = ov.deleted_areals;
    rep.grid_rebuilt = ov.grid_rebuilt;
    rep.land_msh_identical = r.msh_identical;
    rep.land_map_identical = r.map_identical;
    rep.warnings = diagnostics.warning_texts();
    return r;
}

} // namespace

void refuse_missing_faces(const std::vector<size_t>& missing, const std::string& where) {
    std::string list;
    for (size_t i = 0; i < missing.size() && i < 10; ++i)
        list += (i ? ", " : "") + std::to_string(missing[i]);
    if (missing.size() > 10) list += ", ...";
    throw FormatError(where, Location::whole(),
                      std::to_string(missing.size()) + " terrain face" +
                          (missing.size() == 1 ? " is" : "s are") + " missing from node '" +
                          kTerrainNode + "' (face " + list +
                          "): deleting terrain faces is refused, Land.msh topology cannot be "
                          "rebuilt (terrain.md §9: the node, slot and type-11 tables are not "
                          "understood); restore them or move their vertices instead");
}

const std::vector<std::string>& terrain_import_nodes() {
    static const std::vector<std::string> nodes{kTerrainNode, kArealAreasNode, kArealOutlinesNode};
    return nodes;
}

TerrainRuleFacts terrain_rule_facts(const terrain::Terrain& t) {
    TerrainRuleFacts f;
    f.slot_bounds = true;
    for (size_t s = 0; s < t.slots.size() && f.slot_bounds; ++s)
        f.slot_bounds = slot_matches(t.slots[s], slot_bounds(t, t.slots[s]));
    f.header =
        f.slot_bounds && t.has(terrain::kHeaderSlots) && header_equal(header_rule(t), t.header);
    return f;
}

namespace {

// Both files came back as the sidecar records them, so what looked like an edit reached neither:
// a row whose check was edited, or fingerprints and carried rows that no longer line up with the
// vertices. Each is warned about at its pointer, and the report claims no edit.
void unclaim_edits(TerrainImportReport& rep, const std::string& sidecar_where) {
    for (const std::string& row : rep.sidecar_edits)
        rep.warnings.push_back(sidecar::unread_edit_warning(sidecar_where, row));
    rep.sidecar_edits.clear();
    const std::pair<std::vector<uint32_t>*, const char*> streams[] = {
        {&rep.layer1_uv_vertices, "layer1_uvs"},
        {&rep.layer2_uv_vertices, "layer2_uvs"},
        {&rep.weight_vertices, "weights"},
        {&rep.normal_vertices, ""}}; // the normals' records are a block, not a stream
    for (const auto& [vertices, stream] : streams) {
        if (vertices->empty()) continue;
        rep.warnings.push_back(sidecar_where + ": at /vertices" + (*stream ? "/" : "") + stream +
                               ": " + std::to_string(vertices->size()) +
                               " vertices differ from the sidecar's fingerprints, but the import "
                               "gives the original bytes: its fingerprints or carried rows were "
                               "edited, and are not read");
        vertices->clear();
    }
}

// A binding sidecar: the level rebuilt from it and the file's positions, then imported as the
// first layout imports the files it carries. Edits of the sidecar's own rows are named; with
// nothing edited on either side the rebuild must be the recorded source.
TerrainImportResult import_bound(const sidecar::TerrainSidecar& sc,
                                 const std::vector<CornerCopy>& copies,
                                 const std::vector<ArealCopy>& areal_copies,
                                 const std::function<Incoming(const Original&)>& collect,
                                 const std::string& where) {
    const sidecar::TerrainBinding& b = *sc.binding;
    RebuiltLevel rebuilt = rebuild_level(b, copies, areal_copies, sc.record.lift, where);
    for (const std::string& row : rebuilt.edited_rows)
        if (row.starts_with("/vertices"))
            throw FormatError(sc.where.empty() ? where : sc.where,
                              Location::at_pointer("/vertices"),
                              std::string(sidecar::kVertexRecordEdited));
    if (rebuilt.first_unheld)
        throw FormatError(sc.where.empty() ? where : sc.where,
                          Location::at_pointer("/vertices/carried"),
                          "vertex " + std::to_string(*rebuilt.first_unheld) +
                              " is neither carried by the sidecar nor held by the file: the "
                              "carried rows do not match the file (they are a record of the "
                              "export, not an edit)");
    sidecar::TerrainSidecar view;
    view.record = sc.record;
    view.binding = sc.binding;
    view.land_msh = std::move(rebuilt.land_msh);
    view.land_map = std::move(rebuilt.land_map);
    Original o = load_original(view, where);
    if (b.areal_rows) o.grid_rule = b.areal_rows->grid_rule;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const auto& [a, k] : rebuilt.areal_unknown) {
        o.areal_unknown.insert({a, k});
        if (a < o.areal_world.size() && k < o.areal_world[a].size())
            o.areal_world[a][k] = {nan, nan, nan};
    }
    const Incoming in = collect(o);
    TerrainImportResult r = import_common(in, o, view, where, &rebuilt.streams_unknown);
    TerrainImportReport& rep = r.report;
    r.msh_identical = rep.land_msh_identical = is_recorded_msh(b, r.land_msh);
    r.map_identical = rep.land_map_identical = !view.land_map || is_recorded_map(b, r.land_map);
    rep.sidecar_edits = std::move(rebuilt.edited_rows);
    const bool edited = rep.vertices_moved || !rep.changed_areals.empty() ||
                        !rep.deleted_areals.empty() || !rep.sidecar_edits.empty() ||
                        !rep.layer1_uv_vertices.empty() || !rep.layer2_uv_vertices.empty() ||
                        !rep.weight_vertices.empty() || !rep.normal_vertices.empty() ||
                        rebuilt.positions_unknown || rebuilt.stream_values_unknown ||
                        !rebuilt.areal_unknown.empty();
    const std::string& sidecar_where = sc.where.empty() ? where : sc.where;
    if (!edited && !r.msh_identical)
        throw FormatError(sidecar_where, Location::at_pointer("/source/xxh3_64"),
                          "the Land.msh rebuilt from the file and its sidecar is not the source "
                          "the sidecar records (size and hash): a damaged sidecar, or one of "
                          "another export");
    if (!edited && !r.map_identical)
        throw FormatError(sidecar_where, Location::at_pointer("/map_source/xxh3_64"),
                          "the Land.map rebuilt from the sidecar is not the one it records (size "
                          "and hash): a damaged sidecar");
    if (r.msh_identical && r.map_identical) {
        unclaim_edits(rep, sidecar_where);
        // The original is at hand, so its rule facts can be computed: recorded ones that differ
        // were edited (they would steer a geometry edit only).
        const TerrainRuleFacts facts = terrain_rule_facts(o.t);
        for (const auto& [recorded, computed, at] :
             {std::tuple{b.slot_bounds_rule, facts.slot_bounds, "/derived/slot_bounds_rule"},
              {b.header_rule, facts.header, "/derived/header_rule"}})
            if (recorded != computed)
                rep.warnings.push_back(sidecar_where + ": at " + at +
                                       ": not read: it follows from the original Land.msh, "
                                       "and the sidecar's value differs from it");
    }
    return r;
}

} // namespace

TerrainImportResult import_terrain_scene(const scene::Scene& incoming,
                                         const sidecar::TerrainSidecar& sidecar,
                                         const std::string& where) {
    if (sidecar.binding)
        return import_bound(
            sidecar, gltf_corner_copies(incoming), gltf_areal_copies(incoming),
            [&](const Original&) { return collect_gltf(incoming, where); }, where);
    Original o = load_original(sidecar, where);
    const Incoming in = collect_gltf(incoming, where);
    return import_common(in, o, sidecar, where);
}

TerrainImportResult import_terrain_obj(const std::string& obj_text,
                                       const sidecar::TerrainSidecar& sidecar,
                                       const std::string& where) {
    if (sidecar.binding) {
        std::vector<ArealCopy> areal;
        std::vector<CornerCopy> corners =
            obj_corner_copies(obj_text, *sidecar.binding, sidecar.record.areal_faces, areal, where,
                              sidecar.where.empty() ? where : sidecar.where);
        return import_bound(
            sidecar, corners, areal,
            [&](const Original& o) { return collect_obj(obj_text, o, where); }, where);
    }
    Original o = load_original(sidecar, where);
    const Incoming in = collect_obj(obj_text, o, where);
    return import_common(in, o, sidecar, where);
}

} // namespace msh::mapping
