#include "terrain_to_scene.hpp"
#include "unique_names.hpp"

#include "model_to_scene.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace msh::mapping {

namespace {

using V3 = std::array<float, 3>;

V3 to_gltf3(float x, float y, float z) {
    return to_gltf(V3{x, y, z});
}

// Normalises in double; false for a zero or non-finite vector.
bool normalise(V3& v) {
    const double len = std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]);
    if (!(len > 1e-12) || !std::isfinite(len)) return false;
    for (float& c : v) c = float(double(c) / len);
    return true;
}

// One push_back a value: inlined, where a range insert is a call per vertex attribute.
void push(std::vector<float>& out, std::initializer_list<float> values) {
    for (float v : values) out.push_back(v);
}

double cross_xy(const arealmap::Vec3& a, const arealmap::Vec3& b, const arealmap::Vec3& c) {
    return (double(b.x) - a.x) * (double(c.y) - a.y) - (double(b.y) - a.y) * (double(c.x) - a.x);
}

// p inside or on triangle (a, b, c), counter-clockwise in XY.
bool in_triangle(const arealmap::Vec3& p, const arealmap::Vec3& a, const arealmap::Vec3& b,
                 const arealmap::Vec3& c) {
    return cross_xy(a, b, p) >= 0 && cross_xy(b, c, p) >= 0 && cross_xy(c, a, p) >= 0;
}

bool same_xy(const arealmap::Vec3& a, const arealmap::Vec3& b) {
    return a.x == b.x && a.y == b.y;
}

void build_terrain(const terrain::Terrain& t, const TerrainSceneOptions& opt, scene::Scene& sc) {
    const size_t nv = t.positions.size();
    const bool has_n = t.normals.size() == nv, has_uv1 = t.uv1.size() == nv,
               has_uv2 = t.uv2.size() == nv, has_w = t.weights.size() == nv;

    // Counting sort of usable faces by materialId: one pass, file order kept within a material.
    std::array<std::vector<uint32_t>, 256> by_material;
    nlohmann::json skipped = nlohmann::json::array();
    for (size_t f = 0; f < t.faces.size(); ++f) {
        if (!terrain::face_usable(t, f)) {
            skipped.push_back(f);
            continue;
        }
        by_material[t.faces[f].material].push_back(uint32_t(f));
    }

    scene::Mesh mesh;
    mesh.name = kTerrainNode;
    UniqueNames names;
    for (size_t m = 0; m < by_material.size(); ++m) {
        const std::vector<uint32_t>& faces = by_material[m];
        if (faces.empty()) continue;
        scene::Material mat;
        mat.name = names.unique(m < opt.layer1_names.size() && !opt.layer1_names[m].empty()
                                    ? opt.layer1_names[m]
                                    : "land1_row_" + std::to_string(m));
        mat.identity.wear = opt.layer1_wear;
        mat.identity.wear_row = int(m);
        sc.materials.push_back(std::move(mat));

        scene::Primitive p;
        p.material = int(sc.materials.size() - 1);
        const size_t corners = faces.size() * 3;
        auto& pos = p.attributes["POSITION"];
        auto& nrm = p.attributes["NORMAL"];
        auto& uv0 = p.attributes["TEXCOORD_0"];
        auto& uv1 = p.attributes["TEXCOORD_1"];
        auto& fid = p.attributes["TEXCOORD_2"];
        auto& vid = p.attributes["TEXCOORD_3"];
        pos.components = nrm.components = 3;
        uv0.components = uv1.components = fid.components = vid.components = 2;
        pos.data.reserve(corners * 3);
        nrm.data.reserve(corners * 3);
        uv0.data.reserve(corners * 2);
        uv1.data.reserve(corners * 2);
        fid.data.reserve(corners * 2);
        vid.data.reserve(corners * 2);
        p.indices.reserve(corners);
        for (uint32_t f : faces) {
            const terrain::Face& face = t.faces[f];
            // Geometric normal (glTF axes) for zero stored normals.
            const terrain::Vec3 &a = t.positions[face.v[0]], &b = t.positions[face.v[1]],
                                &c = t.positions[face.v[2]];
            V3 geo = to_gltf3((b.y - a.y) * (c.z - a.z) - (b.z - a.z) * (c.y - a.y),
                              (b.z - a.z) * (c.x - a.x) - (b.x - a.x) * (c.z - a.z),
                              (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
            if (!normalise(geo)) geo = {0, 1, 0};
            for (int k = 0; k < 3; ++k) {
                const uint16_t v = face.v[size_t(k)];
                const terrain::Vec3& q = t.positions[v];
                const V3 g = to_gltf3(q.x, q.y, q.z);
                push(pos.data, {g[0], g[1], g[2]});
                V3 n = geo;
                if (has_n) {
                    const auto& s = t.normals[v];
                    n = to_gltf3(msh::decode_normal_component(s[0]),
                                 msh::decode_normal_component(s[1]),
                                 msh::decode_normal_component(s[2]));
                    if (!normalise(n)) n = geo;
                }
                push(nrm.data, {n[0], n[1], n[2]});
                if (has_uv1)
                    push(uv0.data, {msh::decode_uv(t.uv1[v][0]), msh::decode_uv(t.uv1[v][1])});
                else
                    push(uv0.data, {0, 0});
                if (has_uv2)
                    push(uv1.data, {msh::decode_uv(t.uv2[v][0]), msh::decode_uv(t.uv2[v][1])});
                else
                    push(uv1.data, {0, 0});
                push(fid.data, {float(f), float(k)});
                float w = 1.0f;
                if (has_w) {
                    w = terrain::weight_value(t.weights[v]);
                    if (!std::isfinite(w)) w = 0;
                }
                push(vid.data, {float(v), w});
                p.indices.push_back(uint32_t(p.indices.size()));
            }
        }
        mesh.primitives.push_back(std::move(p));
    }

    scene::Node node;
    node.name = kTerrainNode;
    node.extras["mshconv"] = {
        {"kind", "terrain"},
        {"vertices", nv},
        {"faces", t.faces.size()},
        {"identity", "TEXCOORD_2 = (face index, corner), TEXCOORD_3 = (vertex index, type-14 "
                     "weight); unshared vertices"},
        {"layer2_rows", opt.layer2_names},
    };
    if (!skipped.empty()) node.extras["mshconv"]["skipped_faces"] = std::move(skipped);
    if (!mesh.primitives.empty()) {
        sc.meshes.push_back(std::move(mesh));
        node.mesh = int(sc.meshes.size() - 1);
    }
    sc.nodes.push_back(std::move(node));
}

// The second layer as the game blends it (terrain.md §3: mix(layer2, layer1, w14)): the faces
// with an auxByte again, one primitive per Land2.wea row, textured by the type-18 UVs and
// translucent by 1 - w14 per vertex (COLOR_0 alpha, material alpha-blended), in a node lifted a
// little above the terrain so that no depth test fights it. A viewer shows the blend; the
// import reads only `Terrain` and ignores this node.
void build_layer2(const terrain::Terrain& t, const TerrainSceneOptions& opt, scene::Scene& sc) {
    const size_t nv = t.positions.size();
    if (t.uv2.size() != nv) return; // no layer-2 UVs: nothing to draw it with
    const bool has_n = t.normals.size() == nv, has_w = t.weights.size() == nv;
    std::array<std::vector<uint32_t>, 256> by_row;
    for (size_t f = 0; f < t.faces.size(); ++f)
        if (t.faces[f].aux != terrain::kNoLayer2 && terrain::face_usable(t, f))
            by_row[t.faces[f].aux].push_back(uint32_t(f));
    UniqueNames names;
    for (const scene::Material& m : sc.materials) names.unique(m.name);
    scene::Mesh mesh;
    mesh.name = kTerrainLayer2Node;
    for (size_t r = 0; r < by_row.size(); ++r) {
        if (by_row[r].empty()) continue;
        scene::Material mat;
        mat.name = names.unique(r < opt.layer2_names.size() && !opt.layer2_names[r].empty()
                                    ? opt.layer2_names[r]
                                    : "land2_row_" + std::to_string(r));
        mat.identity.wear = opt.layer2_wear;
        mat.identity.wear2_row = int(r);
        mat.alpha_mode = scene::AlphaMode::Blend;
        sc.materials.push_back(std::move(mat));
        scene::Primitive p;
        p.material = int(sc.materials.size() - 1);
        auto& pos = p.attributes["POSITION"];
        auto& nrm = p.attributes["NORMAL"];
        auto& uv = p.attributes["TEXCOORD_0"];
        auto& colour = p.attributes["COLOR_0"];
        pos.components = nrm.components = 3;
        uv.components = 2;
        colour.components = 4;
        for (uint32_t f : by_row[r])
            for (uint16_t v : t.faces[f].v) {
                const terrain::Vec3& q = t.positions[v];
                const V3 g = to_gltf3(q.x, q.y, q.z);
                push(pos.data, {g[0], g[1], g[2]});
                V3 n = {0, 1, 0};
                if (has_n) {
                    const auto& s = t.normals[v];
                    n = to_gltf3(msh::decode_normal_component(s[0]),
                                 msh::decode_normal_component(s[1]),
                                 msh::decode_normal_component(s[2]));
                    if (!normalise(n)) n = {0, 1, 0};
                }
                push(nrm.data, {n[0], n[1], n[2]});
                push(uv.data, {msh::decode_uv(t.uv2[v][0]), msh::decode_uv(t.uv2[v][1])});
                float w = has_w ? terrain::weight_value(t.weights[v]) : 0.0f;
                if (!std::isfinite(w)) w = 0;
                push(colour.data, {1, 1, 1, 1 - std::clamp(w, 0.0f, 1.0f)});
                p.indices.push_back(uint32_t(p.indices.size()));
            }
        mesh.primitives.push_back(std::move(p));
    }
    if (mesh.primitives.empty()) return;
    sc.meshes.push_back(std::move(mesh));
    scene::Node node;
    node.name = kTerrainLayer2Node;
    node.mesh = int(sc.meshes.size() - 1);
    node.translation = {0, opt.layer2_lift, 0}; // world +Z = glTF +Y
    node.extras["mshconv"] = {{"kind", "terrain_layer2"},
                              {"lift", opt.layer2_lift},
                              {"blend", "COLOR_0.a = 1 - type-14 weight; ignored by the import"}};
    sc.nodes.push_back(std::move(node));
}

void build_overlay(const arealmap::ArealMap& map, const TerrainSceneOptions& opt, scene::Scene& sc,
                   ArealTriangles* areal_triangles) {
    scene::Node root;
    root.name = kArealNode;
    root.translation = {0, opt.areal_lift, 0}; // world +Z = glTF +Y
    root.extras["mshconv"] = {{"kind", "arealmap"},
                              {"areals", map.areals.size()},
                              {"lift", opt.areal_lift},
                              {"grid", {map.grid.cells_x, map.grid.cells_y}},
                              {"identity", "TEXCOORD_0 = (areal index, polygon vertex)"}};
    sc.nodes.push_back(std::move(root));
    const int root_index = int(sc.nodes.size() - 1);

    // Outlines: one LINES primitive.
    scene::Primitive lines;
    lines.mode = scene::Primitive::Mode::Lines;
    auto& lpos = lines.attributes["POSITION"];
    auto& lid = lines.attributes["TEXCOORD_0"];
    lpos.components = 3;
    lid.components = 2;
    for (size_t a = 0; a < map.areals.size(); ++a) {
        const auto& poly = map.areals[a].vertices;
        if (poly.size() < 2) continue;
        const uint32_t base = uint32_t(lpos.count());
        for (size_t k = 0; k < poly.size(); ++k) {
            const V3 g = to_gltf3(poly[k].x, poly[k].y, poly[k].z);
            push(lpos.data, {g[0], g[1], g[2]});
            push(lid.data, {float(a), float(k)});
            lines.indices.push_back(base + uint32_t(k));
            lines.indices.push_back(base + uint32_t((k + 1) % poly.size()));
        }
    }
    if (!lines.indices.empty()) {
        scene::Mesh mesh;
        mesh.name = kArealOutlinesNode;
        mesh.primitives.push_back(std::move(lines));
        sc.meshes.push_back(std::move(mesh));
        scene::Node n;
        n.name = kArealOutlinesNode;
        n.parent = root_index;
        n.mesh = int(sc.meshes.size() - 1);
        sc.nodes.push_back(std::move(n));
    }

    if (!opt.areal_faces) return;
    // Filled polygons: one primitive per (class_id, logic_flag).
    std::map<std::pair<uint32_t, uint32_t>, scene::Primitive> groups;
    if (areal_triangles) areal_triangles->assign(map.areals.size(), {});
    for (size_t a = 0; a < map.areals.size(); ++a) {
        const arealmap::Areal& ar = map.areals[a];
        std::vector<std::array<uint32_t, 3>> tris = triangulate_xy(ar.vertices);
        if (tris.empty()) continue;
        scene::Primitive& p = groups[{ar.class_id, ar.logic_flag}];
        auto& pos = p.attributes["POSITION"];
        auto& id = p.attributes["TEXCOORD_0"];
        pos.components = 3;
        id.components = 2;
        const uint32_t base = uint32_t(pos.count());
        for (size_t k = 0; k < ar.vertices.size(); ++k) {
            const V3 g = to_gltf3(ar.vertices[k].x, ar.vertices[k].y, ar.vertices[k].z);
            push(pos.data, {g[0], g[1], g[2]});
            push(id.data, {float(a), float(k)});
        }
        for (const auto& tri : tris)
            for (uint32_t i : tri) p.indices.push_back(base + i);
        if (areal_triangles) (*areal_triangles)[a] = std::move(tris);
    }
    if (groups.empty()) return;
    scene::Mesh mesh;
    mesh.name = kArealAreasNode;
    for (auto& [key, p] : groups) {
        scene::Material mat;
        mat.name = "areal_class_" + std::to_string(key.first);
        if (key.second != 1) mat.name += "_logic_" + std::to_string(key.second);
        mat.identity.class_id = key.first;
        mat.identity.logic_flag = key.second;
        sc.materials.push_back(std::move(mat));
        p.material = int(sc.materials.size() - 1);
        mesh.primitives.push_back(std::move(p));
    }
    sc.meshes.push_back(std::move(mesh));
    scene::Node n;
    n.name = kArealAreasNode;
    n.parent = root_index;
    n.mesh = int(sc.meshes.size() - 1);
    sc.nodes.push_back(std::move(n));
}

} // namespace

std::vector<std::array<uint32_t, 3>> triangulate_xy(const std::vector<arealmap::Vec3>& poly) {
    std::vector<std::array<uint32_t, 3>> out;
    const size_t n = poly.size();
    if (n < 3) return out;
    out.reserve(n - 2);
    std::vector<uint32_t> ring(n);
    for (size_t i = 0; i < n; ++i) ring[i] = uint32_t(i);
    if (arealmap::signed_area_xy(poly) < 0) std::reverse(ring.begin(), ring.end());
    if (n > 256) {
        for (size_t i = 1; i + 1 < n; ++i) out.push_back({ring[0], ring[i], ring[i + 1]});
        return out;
    }
    // Ear clipping: strictly convex ears with no other vertex inside first; then non-reflex
    // (collinear) unblocked vertices; then any non-reflex vertex; then the first vertex (only
    // self-intersecting or degenerate rings get that far).
    while (ring.size() > 3) {
        const size_t m = ring.size();
        size_t pick = m;
        for (int pass = 0; pass < 3 && pick == m; ++pass) {
            for (size_t i = 0; i < m && pick == m; ++i) {
                const uint32_t ia = ring[(i + m - 1) % m], ib = ring[i], ic = ring[(i + 1) % m];
                const auto &a = poly[ia], &b = poly[ib], &c = poly[ic];
                const double turn = cross_xy(a, b, c);
                if (pass == 0 ? !(turn > 0) : turn < 0) continue;
                if (pass < 2) {
                    bool blocked = false;
                    for (size_t j = 0; j < m && !blocked; ++j) {
                        const uint32_t ip = ring[j];
                        if (ip == ia || ip == ib || ip == ic) continue;
                        const auto& p = poly[ip];
                        if (same_xy(p, a) || same_xy(p, b) || same_xy(p, c)) continue;
                        blocked = in_triangle(p, a, b, c);
                    }
                    if (blocked) continue;
                }
                pick = i;
            }
        }
        const size_t i = pick == m ? 0 : pick;
        out.push_back({ring[(i + m - 1) % m], ring[i], ring[(i + 1) % m]});
        ring.erase(ring.begin() + std::ptrdiff_t(i));
    }
    out.push_back({ring[0], ring[1], ring[2]});
    return out;
}

scene::Scene terrain_to_scene(const terrain::Terrain& terrain, const arealmap::ArealMap* areal_map,
                              const TerrainSceneOptions& options, ArealTriangles* areal_triangles) {
    scene::Scene sc;
    build_terrain(terrain, options, sc);
    if (options.layer2) build_layer2(terrain, options, sc);
    if (areal_map && areal_map->decoded && !areal_map->areals.empty())
        build_overlay(*areal_map, options, sc, areal_triangles);
    return sc;
}

} // namespace msh::mapping
