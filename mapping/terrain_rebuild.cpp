#include "terrain_rebuild.hpp"

#include "scene_to_terrain.hpp"
#include "terrain_to_scene.hpp"

#include "formats/diagnostics.hpp"
#include "formats/obj.hpp"
#include "formats/terrain.hpp"
#include "scene/transform.hpp"
#include "sidecar/binding_fields.hpp"
#include "sidecar/payload_hash.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace msh::mapping {

namespace {

// An index carried as a float (TEXCOORD_n): a whole number a float holds exactly.
bool whole(float x) {
    return x >= 0 && x < 16777216.0f && x == std::floor(x);
}

bool is_identity(const scene::Rigid& r) {
    return r.q[0] == 0 && r.q[1] == 0 && r.q[2] == 0 && r.t[0] == 0 && r.t[1] == 0 && r.t[2] == 0;
}

// glTF (x, y, z) = game (x, z, -y): exact both ways.
Vec3 game_of(const std::array<float, 3>& g) {
    return {g[0], -g[2], g[1]};
}

// Per vertex, its fingerprint's index (held) or kCarried.
constexpr uint32_t kCarried = UINT32_MAX;
std::vector<uint32_t> fingerprint_index(const std::vector<sidecar::VertexRange>& carried,
                                        size_t n) {
    std::vector<uint32_t> index(n, kCarried);
    size_t next = 0, h = 0;
    for (const sidecar::VertexRange& r : carried) {
        for (; next < r.first; ++next) index[next] = uint32_t(h++);
        next = r.first + r.count;
    }
    for (; next < n; ++next) index[next] = uint32_t(h++);
    return index;
}

// Where the terrain sidecar's checks tables are (sidecar::edited_rows).
sidecar::CheckedTable terrain_checked_table(const std::string& table) {
    static const std::map<std::string, sidecar::CheckedTable> tables = {
        {"faces", {"/faces/rows", false}},
        {"container", {"/container", true}},
        {"map_container", {"/map_container", true}},
        {"map_areals", {"/map/areals/rows", false}},
        {"map_links", {"/map/links/rows", false}},
        {"map_vertices", {"/map/vertices", true}},
        {"map_sub_blocks", {"/map/sub_blocks", true}},
        {"map_grid", {"/map/grid", true}},
        {"vertices", {"/vertices", true}},
    };
    const auto it = tables.find(table);
    return it != tables.end() ? it->second : sidecar::CheckedTable{"/" + table, false};
}

// Land.map with each polygon vertex the file holds taken from the copy whose unlifted value has
// its fingerprint; the vertices no copy gives back are listed in `unknown` and stay (0, 0, 0).
Bytes rebuild_land_map_from(const sidecar::TerrainBinding& b, const std::vector<ArealCopy>& copies,
                            float lift, std::vector<std::pair<uint32_t, uint32_t>>& unknown) {
    sidecar::ArealRows rows = *b.areal_rows;
    const sidecar::FileVertices& fv = *rows.file_vertices;
    std::vector<uint32_t> first(rows.areals.size()); // each areal's first vertex, in `fv` order
    uint32_t next = 0;
    for (size_t a = 0; a < rows.areals.size(); ++a) {
        first[a] = next;
        next += uint32_t(rows.areals[a].vertices.size());
    }
    const std::vector<uint32_t> print = fingerprint_index(fv.carried, fv.count);
    std::vector<char> known(fv.count, 0);
    for (const sidecar::VertexRange& r : fv.carried)
        std::fill_n(known.begin() + r.first, r.count, 1);
    for (const ArealCopy& c : copies) {
        if (c.areal >= rows.areals.size() || c.k >= rows.areals[c.areal].vertices.size()) continue;
        const uint32_t v = first[c.areal] + c.k;
        if (known[v]) continue;
        const Vec3 p = sidecar::unlifted_vertex(c.world, lift);
        if (sidecar::position_fingerprint(p) == fv.fingerprints[print[v]]) {
            rows.areals[c.areal].vertices[c.k] = p;
            known[v] = 1;
        }
    }
    for (size_t a = 0; a < rows.areals.size(); ++a)
        for (uint32_t k = 0; k < rows.areals[a].vertices.size(); ++k)
            if (!known[first[a] + k]) unknown.emplace_back(uint32_t(a), k);
    return sidecar::rebuild_land_map(b, rows);
}

} // namespace

uint32_t stream_record(size_t stream, const std::array<float, 2>& value) {
    if (sidecar::kVertexStreams[stream].content == sidecar::TerrainContent::Weights)
        return terrain::weight_raw(value[0]);
    return sidecar::uv_record({msh::encode_uv(value[0]), msh::encode_uv(value[1])});
}

std::vector<CornerCopy> gltf_corner_copies(const scene::Scene& sc) {
    std::vector<CornerCopy> copies;
    const std::vector<scene::Rigid> world = scene::world_transforms(sc);
    for (size_t i = 0; i < sc.nodes.size(); ++i) {
        const scene::Node& n = sc.nodes[i];
        if (n.name != kTerrainNode || n.mesh == scene::kNoIndex ||
            size_t(n.mesh) >= sc.meshes.size())
            continue;
        // Without a transform the stored values as they are (adding a zero loses a -0.0).
        const bool identity = is_identity(world[i]);
        for (const scene::Primitive& p : sc.meshes[size_t(n.mesh)].primitives) {
            if (p.mode != scene::Primitive::Mode::Triangles) continue;
            const auto pos = p.attributes.find("POSITION");
            const auto fid = p.attributes.find("TEXCOORD_2");
            const auto vid = p.attributes.find("TEXCOORD_3");
            const size_t count = pos == p.attributes.end() ? 0 : pos->second.count();
            auto uvs = [&](const char* name) -> const std::vector<float>* {
                const auto a = p.attributes.find(name);
                return a != p.attributes.end() && a->second.components == 2 &&
                               a->second.count() == count
                           ? &a->second.data
                           : nullptr;
            };
            const std::vector<float>* uv[2] = {uvs("TEXCOORD_0"), uvs("TEXCOORD_1")};
            if (pos == p.attributes.end() || fid == p.attributes.end() ||
                vid == p.attributes.end() || pos->second.components != 3 ||
                fid->second.components != 2 || vid->second.components != 2 ||
                fid->second.count() != pos->second.count() ||
                vid->second.count() != pos->second.count())
                continue;
            const std::vector<float>& xyz = pos->second.data;
            const std::vector<float>& face = fid->second.data;
            const std::vector<float>& id = vid->second.data;
            for (size_t v = 0; v < pos->second.count(); ++v) {
                if (!whole(face[2 * v]) || !whole(face[2 * v + 1]) || !whole(id[2 * v])) continue;
                const std::array<float, 3> g{xyz[3 * v], xyz[3 * v + 1], xyz[3 * v + 2]};
                CornerCopy& c = copies.emplace_back();
                c.face = uint32_t(face[2 * v]);
                c.corner = uint32_t(face[2 * v + 1]);
                c.vertex = uint32_t(id[2 * v]);
                c.position = game_of(identity ? g : scene::apply(world[i], g));
                for (size_t s = 0; s < 2; ++s)
                    if (uv[s]) {
                        c.streams[s] = {(*uv[s])[2 * v], (*uv[s])[2 * v + 1]};
                        c.holds |= uint8_t(1u << s);
                    }
                c.streams[2] = {id[2 * v + 1], 0};
                c.holds |= 4u;
            }
        }
    }
    return copies;
}

std::vector<ArealCopy> gltf_areal_copies(const scene::Scene& sc) {
    std::vector<ArealCopy> copies;
    const std::vector<scene::Rigid> world = scene::world_transforms(sc);
    for (size_t i = 0; i < sc.nodes.size(); ++i) {
        const scene::Node& n = sc.nodes[i];
        const bool areas = n.name == kArealAreasNode, outlines = n.name == kArealOutlinesNode;
        if ((!areas && !outlines) || n.mesh == scene::kNoIndex ||
            size_t(n.mesh) >= sc.meshes.size())
            continue;
        const auto mode =
            outlines ? scene::Primitive::Mode::Lines : scene::Primitive::Mode::Triangles;
        for (const scene::Primitive& p : sc.meshes[size_t(n.mesh)].primitives) {
            if (p.mode != mode) continue;
            const auto pos = p.attributes.find("POSITION");
            const auto id = p.attributes.find("TEXCOORD_0");
            if (pos == p.attributes.end() || id == p.attributes.end() ||
                pos->second.components != 3 || id->second.components != 2 ||
                id->second.count() != pos->second.count())
                continue;
            const std::vector<float>& xyz = pos->second.data;
            const std::vector<float>& ak = id->second.data;
            for (size_t v = 0; v < pos->second.count(); ++v) {
                if (!whole(ak[2 * v]) || !whole(ak[2 * v + 1])) continue;
                copies.push_back(
                    {uint32_t(ak[2 * v]), uint32_t(ak[2 * v + 1]),
                     scene::apply(world[i], {xyz[3 * v], xyz[3 * v + 1], xyz[3 * v + 2]})});
            }
        }
    }
    return copies;
}

std::vector<CornerCopy> obj_corner_copies(const std::string& text, const sidecar::TerrainBinding& b,
                                          bool areal_faces, std::vector<ArealCopy>& areal,
                                          const std::string& where,
                                          const std::string& sidecar_where) {
    if (b.indices_in_file)
        throw FormatError(sidecar_where, Location::at_pointer("/faces/columns"),
                          "written for a glTF export, whose file holds the faces' vertex "
                          "indices; an OBJ's corners do not: import the OBJ with the sidecar of "
                          "its own export");
    // The export's vertex order: the terrain's scene, built from the faces (positions unknown
    // still: they do not decide the order).
    const float nan = std::numeric_limits<float>::quiet_NaN();
    sidecar::StreamRecords streams;
    for (size_t s = 0; s < sidecar::kStreamCount; ++s)
        if (b.streams[s].bound) streams[s].assign(b.vertex_count, 0);
    const Bytes land = sidecar::rebuild_land_msh(
        b, b.faces, std::vector<Vec3>(b.vertex_count, {nan, nan, nan}), streams);
    DiagnosticSink sink(ReadMode::Tolerant);
    const terrain::Terrain t = terrain::read(land, sink, where + " (sidecar Land.msh)");
    sink.throw_if_errors();
    // The overlay's order likewise: from the areal rows (V and the classes decide it; the
    // polygon vertices are placeholders).
    std::optional<arealmap::ArealMap> shape;
    if (b.areal_rows && b.areal_rows->file_vertices) {
        shape.emplace();
        shape->areals = b.areal_rows->areals;
        shape->decoded = true;
    }
    TerrainSceneOptions options;
    options.areal_faces = areal_faces;
    const scene::Scene expected = terrain_to_scene(t, shape ? &*shape : nullptr, options);
    std::vector<std::pair<uint32_t, uint32_t>> order;                       // (face, corner)
    std::vector<std::pair<uint32_t, uint32_t>> areas_order, outlines_order; // (areal, k)
    for (const scene::Node& n : expected.nodes) {
        if (n.mesh == scene::kNoIndex) continue;
        const bool terrain = n.name == kTerrainNode, areas = n.name == kArealAreasNode;
        if (!terrain && !areas && n.name != kArealOutlinesNode) continue;
        auto& into = terrain ? order : areas ? areas_order : outlines_order;
        for (const scene::Primitive& p : expected.meshes[size_t(n.mesh)].primitives) {
            const std::vector<float>& id =
                p.attributes.at(terrain ? "TEXCOORD_2" : "TEXCOORD_0").data;
            for (size_t v = 0; v < id.size() / 2; ++v)
                into.emplace_back(uint32_t(id[2 * v]), uint32_t(id[2 * v + 1]));
        }
    }
    std::vector<CornerCopy> copies;
    bool in_terrain = false;
    const std::vector<std::pair<uint32_t, uint32_t>>* in_overlay = nullptr;
    size_t ordinal = 0, uv_ordinal = 0, overlay_ordinal = 0;
    obj::scan(text, where, [&](const obj::Statement& st) {
        if (st.keyword == "o") {
            in_terrain = st.rest == kTerrainNode;
            in_overlay = st.rest == kArealAreasNode      ? &areas_order
                         : st.rest == kArealOutlinesNode ? &outlines_order
                                                         : nullptr;
            overlay_ordinal = 0;
        } else if (st.keyword == "v" && in_overlay) {
            if (overlay_ordinal < in_overlay->size() && st.args.size() >= 3) {
                const auto [a, k] = (*in_overlay)[overlay_ordinal];
                areal.push_back(
                    {a,
                     k,
                     {obj::number(st.args[0], where, st), obj::number(st.args[1], where, st),
                      obj::number(st.args[2], where, st)}});
            }
            ++overlay_ordinal;
        } else if (st.keyword == "v" && in_terrain) {
            if (ordinal < order.size() && st.args.size() >= 3) {
                const auto [f, k] = order[ordinal];
                const std::array<float, 3> g{obj::number(st.args[0], where, st),
                                             obj::number(st.args[1], where, st),
                                             obj::number(st.args[2], where, st)};
                CornerCopy& c = copies.emplace_back();
                c.face = f;
                c.corner = k;
                c.vertex = b.faces[f].v[k];
                c.position = game_of(g);
            }
            ++ordinal;
        } else if (st.keyword == "vt" && in_terrain) {
            // The export writes one vt per v, in the same order: the k-th is the k-th corner's
            // layer-1 UV, its v flipped.
            if (uv_ordinal < copies.size() && st.args.size() >= 2) {
                CornerCopy& c = copies[uv_ordinal];
                c.streams[0] = {obj::number(st.args[0], where, st),
                                1.0f - obj::number(st.args[1], where, st)};
                c.holds |= 1u;
            }
            ++uv_ordinal;
        }
    });
    return copies;
}

RebuiltLevel rebuild_level(const sidecar::TerrainBinding& b, const std::vector<CornerCopy>& copies,
                           const std::vector<ArealCopy>& areal_copies, float areal_lift,
                           const std::string& where) {
    RebuiltLevel out;
    // The faces' indices: the rows', or the first copy of each corner the file holds.
    std::vector<std::array<uint16_t, 3>> indices(b.faces.size(), {0, 0, 0});
    if (b.indices_in_file) {
        std::vector<uint8_t> seen(b.faces.size(), 0);
        for (const CornerCopy& c : copies)
            if (c.face < b.faces.size() && c.corner < 3 && c.vertex <= 0xFFFF &&
                !(seen[c.face] & (1u << c.corner))) {
                seen[c.face] |= uint8_t(1u << c.corner);
                indices[c.face][c.corner] = uint16_t(c.vertex);
            }
        std::vector<size_t> missing;
        for (size_t f = 0; f < b.faces.size(); ++f)
            if (seen[f] != 7 && !b.carried_indices.count(uint32_t(f))) missing.push_back(f);
        if (!missing.empty()) refuse_missing_faces(missing, where);
    }
    const std::vector<terrain::Face> faces = sidecar::faces_with_indices(b, indices);

    const size_t n = b.vertex_count;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<Vec3> positions(n, Vec3{nan, nan, nan});
    const std::vector<uint32_t> print = fingerprint_index(b.carried, n);
    std::vector<bool> known(n, false);
    {
        size_t k = 0;
        for (const sidecar::VertexRange& r : b.carried)
            for (uint32_t v = r.first; v < r.first + r.count; ++v, ++k) {
                positions[v] = b.carried_positions[k];
                known[v] = true;
            }
    }
    for (const CornerCopy& c : copies) {
        if (c.vertex >= n || known[c.vertex] || print[c.vertex] == kCarried) continue;
        if (sidecar::position_fingerprint(c.position) == b.position_fingerprints[print[c.vertex]]) {
            positions[c.vertex] = c.position;
            known[c.vertex] = true;
        }
    }
    for (size_t v = 0; v < n; ++v) out.positions_unknown += !known[v];
    {
        std::vector<bool> held(n, false);
        for (const CornerCopy& c : copies)
            if (c.vertex < n) held[c.vertex] = true;
        for (size_t v = 0; v < n && !out.first_unheld; ++v)
            if (print[v] != kCarried && !held[v]) out.first_unheld = uint32_t(v);
    }

    // The streams the file holds, each vertex's record from the copy with its fingerprint.
    sidecar::StreamRecords streams;
    out.streams_unknown.assign(n, 0);
    for (size_t s = 0; s < sidecar::kStreamCount; ++s) {
        const sidecar::BoundStream& bs = b.streams[s];
        if (!bs.bound) continue;
        std::vector<uint32_t>& records = streams[s];
        records.assign(n, 0);
        const std::vector<uint32_t> index = fingerprint_index(bs.carried, n);
        std::vector<char> found(n, 0);
        size_t k = 0;
        for (const sidecar::VertexRange& r : bs.carried)
            for (uint32_t v = r.first; v < r.first + r.count; ++v, ++k) {
                records[v] = bs.carried_records[k];
                found[v] = 1;
            }
        for (const CornerCopy& c : copies) {
            if (c.vertex >= n || found[c.vertex] || !(c.holds >> s & 1u)) continue;
            const uint32_t record = stream_record(s, c.streams[s]);
            if (sidecar::stream_fingerprint(record) == bs.fingerprints[index[c.vertex]]) {
                records[c.vertex] = record;
                found[c.vertex] = 1;
            }
        }
        for (size_t v = 0; v < n; ++v)
            if (!found[v]) {
                out.streams_unknown[v] |= uint8_t(1u << s);
                ++out.stream_values_unknown;
            }
    }
    out.land_msh = sidecar::rebuild_land_msh(b, faces, positions, streams);
    if (b.land_map && b.areal_rows && b.areal_rows->file_vertices)
        out.land_map = rebuild_land_map_from(b, areal_copies, areal_lift, out.areal_unknown);
    else if (b.land_map)
        out.land_map = sidecar::rebuild_land_map(b);
    out.edited_rows =
        sidecar::edited_rows(sidecar::terrain_checks(b), b.checks, terrain_checked_table);
    return out;
}

bool is_recorded_msh(const sidecar::TerrainBinding& b, ByteView land_msh) {
    return land_msh.size() == b.msh_source.size &&
           sidecar::payload_hash(land_msh) == b.msh_source.xxh3_64;
}

bool is_recorded_map(const sidecar::TerrainBinding& b, ByteView land_map) {
    return land_map.size() == b.map_source.size &&
           sidecar::payload_hash(land_map) == b.map_source.xxh3_64;
}

} // namespace msh::mapping
