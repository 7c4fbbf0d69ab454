#include "areal_rows.hpp"

#include "base64.hpp"
#include "binding_fields.hpp"
#include "json_at.hpp"
#include "payload_hash.hpp"
#include "readable_writer.hpp"

#include "scene/transform.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>

namespace msh::sidecar {

namespace {

constexpr size_t kArealValues = std::size(kArealColumns);
constexpr size_t kFloatColumns = 8; // anchor, reserved12, area, normal
// Bounds of an edited grid size (the shipped grids are 128 x 128).
constexpr uint32_t kMaxGridCells = 4096;

// An areal float: a number that is a finite f32 (NaN and infinities come as "bits:").
float read_areal_float(const JsonAt& at) {
    const float f = read_float(at);
    if (at.is_number() && !std::isfinite(f)) at.fail("expected a number within the f32 range");
    return f;
}

// The overlay node's transform: a translation of `lift` along glTF +Y (game +Z).
scene::Rigid lift_transform(float lift) {
    scene::Rigid r;
    r.t = {0, double(lift), 0};
    return r;
}

// The file vertices of `areals`: a vertex is in the file when its areal is a polygon (V >= 3: a
// glTF's filled polygons hold it with an identity that Blender keeps, which an outline's loses);
// the import gives it back when unlifting its lifted position gives its bits.
FileVertices bind_file_vertices(const std::vector<arealmap::Areal>& areals, float lift) {
    FileVertices out;
    uint32_t v = 0;
    for (const arealmap::Areal& a : areals)
        for (const Vec3& p : a.vertices) {
            const bool finite = std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
            if (a.vertices.size() >= 3 && finite &&
                same_bits(unlifted_vertex(lifted_world(p, lift), lift), p)) {
                out.fingerprints.push_back(position_fingerprint(p));
            } else {
                add_to_ranges(out.carried, v);
                out.carried_vertices.push_back(p);
            }
            ++v;
        }
    out.count = v;
    return out;
}

// `/map/vertices` of the file (its members named in the layout, docs/sidecar.md); the areals'
// vertices the carried ones, the others (0, 0, 0).
FileVertices read_file_vertices(const JsonAt& at, uint64_t vertex_count,
                                std::vector<arealmap::Areal>& areals) {
    FileVertices out;
    const uint32_t count = at["count"].as<uint32_t>();
    if (count != vertex_count)
        at["count"].fail("expected the " + std::to_string(vertex_count) +
                         " polygon vertices the rows' V count");
    out.count = count;
    const uint64_t carried = read_vertex_ranges(at["carried"], count, out.carried);
    out.carried_vertices = pod_from<Vec3>(read_block(at["positions"]), at["positions"]);
    if (out.carried_vertices.size() != carried)
        at["positions"].fail("expected the positions of " + std::to_string(carried) +
                             " carried vertices (f32 x, y, z each)");
    out.fingerprints = pod_from<uint32_t>(read_block(at["fingerprints"]), at["fingerprints"]);
    if (out.fingerprints.size() != count - carried)
        at["fingerprints"].fail("expected one per vertex the file holds (" +
                                std::to_string(count - carried) + ")");
    std::vector<Vec3*> flat;
    flat.reserve(count);
    for (arealmap::Areal& a : areals)
        for (Vec3& p : a.vertices) flat.push_back(&(p = Vec3{0, 0, 0}));
    size_t k = 0;
    for (const VertexRange& r : out.carried)
        for (uint32_t i = r.first; i < r.first + r.count; ++i) *flat[i] = out.carried_vertices[k++];
    return out;
}

} // namespace

std::array<float, 3> lifted_world(const Vec3& v, float lift) {
    return scene::apply(lift_transform(lift), {v.x, v.z, -v.y}); // glTF (x, y, z) = game (x, z, -y)
}

Vec3 unlifted_vertex(const std::array<float, 3>& world, float lift) {
    const std::array<float, 3> g = scene::apply(scene::inverse(lift_transform(lift)), world);
    return {g[0], -g[2], g[1]};
}

ByteView positions_bytes(const FileVertices& v) {
    return pod_view(v.carried_vertices);
}

ByteView fingerprint_bytes(const FileVertices& v) {
    return pod_view(v.fingerprints);
}

void write_file_vertices(ReadableJson& w, const FileVertices& v) {
    w.begin_object();
    w.key("carried");
    write_vertex_ranges(w, v.carried, false);
    w.member("count", v.count);
    w.key("fingerprints");
    write_block(w, fingerprint_bytes(v));
    w.key("positions");
    write_block(w, positions_bytes(v));
    w.end_object();
}

Bytes vertices_checked(const ArealRows& r) {
    if (!r.file_vertices) return areal_vertices(r.areals);
    const FileVertices& v = *r.file_vertices;
    Bytes out = pod_bytes(std::vector<uint32_t>{v.count});
    for (const VertexRange& range : v.carried) {
        const Bytes b = pod_bytes(std::vector<uint32_t>{range.first, range.count});
        out.insert(out.end(), b.begin(), b.end());
    }
    for (ByteView b : {positions_bytes(v), fingerprint_bytes(v)})
        out.insert(out.end(), b.begin(), b.end());
    return out;
}

// An areal's 56-byte prefix as stored.
std::array<uint8_t, arealmap::kPrefixSize> areal_prefix(const arealmap::Areal& a) {
    std::array<uint8_t, arealmap::kPrefixSize> out;
    uint8_t* p = out.data();
    auto put = [&p](const auto& v) { put_raw(p, v); };
    put(a.anchor);
    put(a.reserved12);
    put(a.area);
    put(a.normal);
    put(a.logic_flag);
    put(a.reserved36);
    put(a.class_id);
    put(a.reserved44);
    put(uint32_t(a.vertices.size()));
    put(uint32_t(a.sub_blocks.size()));
    return out;
}

// Every areal's polygon vertices (f32 x, y, z), areals in order.
Bytes areal_vertices(const std::vector<arealmap::Areal>& areals) {
    Bytes out;
    for (const arealmap::Areal& a : areals) {
        const Bytes v = pod_bytes(a.vertices);
        out.insert(out.end(), v.begin(), v.end());
    }
    return out;
}

// Every areal's sub-blocks as stored (u32 n, 12·n bytes), areals in order.
Bytes areal_sub_blocks(const std::vector<arealmap::Areal>& areals) {
    Bytes out;
    for (const arealmap::Areal& a : areals)
        for (const arealmap::SubBlock& b : a.sub_blocks) {
            const uint32_t n = b.n();
            const auto* p = reinterpret_cast<const uint8_t*>(&n);
            out.insert(out.end(), p, p + 4);
            out.insert(out.end(), b.data.begin(), b.data.end());
        }
    return out;
}

// What the grid's check covers: the rule and its size, or the stored grid.
Bytes grid_checked(const ArealRows& r) {
    if (!r.grid_rule) return r.grid;
    const uint32_t words[3] = {1, r.cells_x, r.cells_y};
    return Bytes(reinterpret_cast<const uint8_t*>(words),
                 reinterpret_cast<const uint8_t*>(words) + sizeof words);
}

// The rows of a decoded Land.map whose payload they give back exactly; nullopt otherwise (a
// payload the reader left raw, a directory of more than the one type-12 entry).
std::optional<ArealRows> bind_areal_rows(const arealmap::ArealMap& map, float lift) {
    if (!map.decoded || map.container.entries.size() != 1 ||
        map.container.entries[0].type != arealmap::kChunkType)
        return std::nullopt;
    const Payload& payload = map.container.entries[0].data;
    ArealRows r;
    r.areals = map.areals;
    size_t records = 0;
    for (const arealmap::Areal& a : r.areals) records += a.byte_size();
    if (records > payload.size()) return std::nullopt;
    r.cells_x = map.grid.cells_x;
    r.cells_y = map.grid.cells_y;
    r.grid_rule = r.cells_x > 0 && r.cells_y > 0 && r.cells_x <= kMaxGridCells &&
                  r.cells_y <= kMaxGridCells &&
                  map.grid == arealmap::rebuild_grid(r.areals, r.cells_x, r.cells_y);
    if (!r.grid_rule) {
        r.cells_x = r.cells_y = 0;
        r.grid.assign(payload.begin() + std::ptrdiff_t(records), payload.end());
    }
    // With the rule, the map's own grid is the rebuilt one: encoded as is, not rebuilt again.
    const Bytes rows_give =
        r.grid_rule ? arealmap::encode_payload(r.areals, map.grid) : areal_payload(r);
    if (!std::ranges::equal(rows_give, payload)) return std::nullopt;
    r.file_vertices = bind_file_vertices(r.areals, lift);
    return r;
}

void put_areal_row(const arealmap::Areal& a, std::string& out) {
    const float floats[kFloatColumns] = {a.anchor.x, a.anchor.y, a.anchor.z, a.reserved12,
                                         a.area,     a.normal.x, a.normal.y, a.normal.z};
    const uint32_t words[kArealValues - kFloatColumns] = {a.logic_flag,
                                                          a.reserved36,
                                                          a.class_id,
                                                          a.reserved44,
                                                          uint32_t(a.vertices.size()),
                                                          uint32_t(a.sub_blocks.size())};
    out += '[';
    for (size_t k = 0; k < kFloatColumns; ++k) {
        if (k) out += ',';
        append_float(out, floats[k]);
    }
    char buf[16];
    for (uint32_t w : words) {
        out += ',';
        out.append(buf, std::to_chars(buf, buf + sizeof buf, w).ptr);
    }
    out += ']';
}

void put_links_row(const arealmap::Areal& a, std::string& out) {
    out += '[';
    char buf[16];
    for (size_t k = 0; k < a.links.size(); ++k) {
        if (k) out += ',';
        out.append(buf, std::to_chars(buf, buf + sizeof buf, a.links[k].area_ref).ptr);
        out += ',';
        out.append(buf, std::to_chars(buf, buf + sizeof buf, a.links[k].edge_ref).ptr);
    }
    out += ']';
}

ArealRows read_areal_rows(const JsonAt& m, uint32_t areal_count) {
    ArealRows r;
    const JsonAt columns = m["areals"]["columns"];
    if (columns.size() != kArealValues)
        columns.fail("expected the " + std::to_string(kArealValues) + " areal columns");
    for (size_t k = 0; k < kArealValues; ++k)
        if (columns[k].as<std::string>() != kArealColumns[k])
            columns[k].fail(std::string("expected \"") + kArealColumns[k] + "\"");
    const JsonAt rows = m["areals"]["rows"];
    const JsonAt links = m["links"]["rows"];
    const size_t n = rows.size();
    if (n != areal_count)
        rows.fail("expected one row per areal: " + std::to_string(areal_count) +
                  " (the entry's attr1)");
    if (links.size() != n) links.fail("expected one row per areal (" + std::to_string(n) + ")");
    r.areals.resize(n);
    std::vector<uint32_t> sub_block_counts(n);
    uint64_t vertex_count = 0;
    for (size_t i = 0; i < n; ++i) {
        const JsonAt row = rows[i];
        if (!row.is_array() || row.size() != kArealValues)
            row.fail("expected a row of " + std::to_string(kArealValues) + " values");
        arealmap::Areal& a = r.areals[i];
        float f[kFloatColumns];
        for (size_t k = 0; k < kFloatColumns; ++k) f[k] = read_areal_float(row[k]);
        a.anchor = {f[0], f[1], f[2]};
        a.reserved12 = f[3];
        a.area = f[4];
        a.normal = {f[5], f[6], f[7]};
        a.logic_flag = row[8].as<uint32_t>();
        a.reserved36 = row[9].as<uint32_t>();
        a.class_id = row[10].as<uint32_t>();
        a.reserved44 = row[11].as<uint32_t>();
        const uint64_t V = row[12].as<uint32_t>();
        const uint64_t B = row[13].as<uint32_t>();
        const JsonAt l = links[i];
        const uint64_t pairs = V + 3 * B;
        if (!l.is_array() || l.size() != 2 * pairs)
            l.fail("expected V + 3B = " + std::to_string(pairs) + " links (" +
                   std::to_string(2 * pairs) + " values: area_ref, edge_ref each)");
        a.links.resize(size_t(pairs));
        for (size_t k = 0; k < a.links.size(); ++k)
            a.links[k] = {l[2 * k].as<int32_t>(), l[2 * k + 1].as<int32_t>()};
        a.vertices.resize(size_t(V));
        sub_block_counts[i] = uint32_t(B);
        vertex_count += V;
    }
    const JsonAt vertices = m["vertices"];
    if (vertices.has("fingerprints")) {
        r.file_vertices = read_file_vertices(vertices, vertex_count, r.areals);
    } else {
        const Bytes block = read_block(vertices);
        if (block.size() != 12 * vertex_count)
            vertices.fail("expected the " + std::to_string(vertex_count) +
                          " polygon vertices the rows' V count (f32 x, y, z each)");
        size_t at = 0;
        for (arealmap::Areal& a : r.areals) {
            if (!a.vertices.empty())
                std::memcpy(a.vertices.data(), block.data() + at, 12 * a.vertices.size());
            at += 12 * a.vertices.size();
        }
    }
    const Bytes subs = read_block(m["sub_blocks"]);
    size_t at = 0;
    for (size_t i = 0; i < n; ++i)
        for (uint32_t k = 0; k < sub_block_counts[i]; ++k) {
            uint32_t count = 0;
            if (subs.size() - at >= 4) std::memcpy(&count, subs.data() + at, 4);
            if (subs.size() - at < 4 || (subs.size() - at - 4) / 12 < count)
                m["sub_blocks"].fail("expected the B sub-blocks the rows count (u32 n, then "
                                     "12·n bytes each); areal " +
                                     std::to_string(i) + "'s do not fit");
            at += 4;
            r.areals[i].sub_blocks.push_back(
                {Bytes(subs.begin() + std::ptrdiff_t(at),
                       subs.begin() + std::ptrdiff_t(at + 12 * size_t(count)))});
            at += 12 * size_t(count);
        }
    if (at != subs.size())
        m["sub_blocks"].fail(std::to_string(subs.size() - at) +
                             " bytes after the sub-blocks the rows count");
    r.grid_rule = m["grid_rule"].as<bool>();
    if (r.grid_rule) {
        const JsonAt cells = m["grid_cells"];
        if (!cells.is_array() || cells.size() != 2) cells.fail("expected [cellsX, cellsY]");
        for (size_t k = 0; k < 2; ++k) {
            const uint32_t c = cells[k].as<uint32_t>();
            if (c == 0 || c > kMaxGridCells)
                cells[k].fail("expected an integer 1.." + std::to_string(kMaxGridCells));
            (k ? r.cells_y : r.cells_x) = c;
        }
    } else {
        r.grid = read_block(m["grid"]);
    }
    return r;
}

Bytes areal_payload(const ArealRows& r) {
    if (r.grid_rule)
        return arealmap::encode_payload(r.areals,
                                        arealmap::rebuild_grid(r.areals, r.cells_x, r.cells_y));
    Bytes out = arealmap::encode_payload(r.areals, arealmap::Grid{});
    out.resize(out.size() - 8); // the empty grid's cellsX, cellsY
    out.insert(out.end(), r.grid.begin(), r.grid.end());
    return out;
}

} // namespace msh::sidecar
