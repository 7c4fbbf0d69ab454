#include "terrain_binding.hpp"

#include "base64.hpp"
#include "binding_fields.hpp"
#include "json_at.hpp"
#include "nres_directory_json.hpp"
#include "payload_hash.hpp"
#include "terrain_sidecar.hpp"

#include "formats/diagnostics.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>

namespace msh::sidecar {

namespace {

// As TerrainContent: an older sidecar names only the first three.
const std::vector<std::string> kTerrainContentNames = {
    "faces", "positions", "block", "layer1_uvs", "layer2_uvs", "weights", "areal_rows"};

// The stream (index into kVertexStreams) a content names, or kStreamCount.
size_t stream_of(TerrainContent c) {
    for (size_t s = 0; s < kStreamCount; ++s)
        if (kVertexStreams[s].content == c) return s;
    return kStreamCount;
}

// Whether a float comes back bit for bit through the V flip of OBJ's vt and of Blender's glTF
// import and export (1 - v, twice, in f32).
bool survives_flip(float v) {
    const float back = 1.0f - (1.0f - v);
    return std::memcmp(&back, &v, sizeof v) == 0;
}

// Whether the file holds this record exactly (the value the export writes is the stored one).
bool holds_record(TerrainContent c, uint32_t record) {
    if (c == TerrainContent::Weights) {
        const float w = terrain::weight_value(record);
        return std::isfinite(w) && survives_flip(w);
    }
    const PackedUv uv = uv_of_record(record);
    return survives_flip(msh::decode_uv(uv[0])) && survives_flip(msh::decode_uv(uv[1]));
}

// A stream's records as the terrain holds them; empty when its view is not one per vertex.
std::vector<uint32_t> records_of(const terrain::Terrain& t, TerrainContent c) {
    std::vector<uint32_t> out;
    const size_t n = t.positions.size();
    if (c == TerrainContent::Weights) {
        if (t.has(terrain::kWeights) && t.weights.size() == n) out = t.weights;
        return out;
    }
    const bool first = c == TerrainContent::Uv1;
    const std::vector<PackedUv>& uvs = first ? t.uv1 : t.uv2;
    if (!t.has(first ? terrain::kUv1 : terrain::kUv2) || uvs.size() != n) return out;
    out.reserve(n);
    for (const PackedUv& uv : uvs) out.push_back(uv_record(uv));
    return out;
}

constexpr size_t kFaceValues = std::size(kFaceColumns);
constexpr size_t kIndexColumn = 4; // i0, i1, i2

// A face's 28-byte record (terrain.md §4), written in place: per face, without a growing buffer.
void encode_face(const terrain::Face& f, uint8_t* out) {
    auto put = [&out](const auto& v) { put_raw(out, v); };
    put(f.flags);
    put(f.material);
    put(f.aux);
    put(f.unk06);
    for (uint16_t v : f.v) put(v);
    for (uint16_t n : f.n) put(n);
    for (int16_t c : f.normal) put(c);
    put(f.edge_class);
    put(f.unk27);
}

Bytes encode_faces(const std::vector<terrain::Face>& faces) {
    Bytes out(faces.size() * terrain::kFaceStride);
    for (size_t i = 0; i < faces.size(); ++i)
        encode_face(faces[i], out.data() + i * terrain::kFaceStride);
    return out;
}

// One face row, compact: [flags,material,aux,unk06,i0,i1,i2,n0,n1,n2,nx,ny,nz,edge,unk27] (without
// the indices where the file holds them), built in a local buffer and appended once (an append
// per value costs several times the instructions).
void put_face_row(const terrain::Face& f, bool indices, std::string& out) {
    const int64_t values[kFaceValues] = {
        f.flags, f.material, f.aux,       f.unk06,     f.v[0],      f.v[1],       f.v[2], f.n[0],
        f.n[1],  f.n[2],     f.normal[0], f.normal[1], f.normal[2], f.edge_class, f.unk27};
    char row[2 + kFaceValues * 12];
    char* p = row;
    *p++ = '[';
    for (size_t k = 0; k < kFaceValues; ++k) {
        if (!indices && k >= kIndexColumn && k < kIndexColumn + 3) continue;
        if (p != row + 1) *p++ = ',';
        p = std::to_chars(p, row + sizeof row, values[k]).ptr;
    }
    *p++ = ']';
    out.append(row, p);
}

// /blocks of `a`: its entries carried whole.
void write_blocks(ReadableJson& w, const BoundArchive& a) {
    w.begin_array();
    for (size_t i = 0; i < a.content.size(); ++i)
        if (a.content[i] == TerrainContent::Block)
            write_entry_block(w, i, a.directory.entries[i].type, a.blocks[i]);
    w.end_array();
}

void write_container(ReadableJson& w, const BoundArchive& a) {
    write_directory(
        w, a.directory,
        [&](size_t i) -> std::string_view { return kTerrainContentNames[size_t(a.content[i])]; },
        false);
}

BoundArchive read_archive(const JsonAt& container, const JsonAt& blocks) {
    BoundArchive a;
    std::vector<size_t> content;
    a.directory = read_directory(container, kTerrainContentNames, content);
    for (size_t c : content) a.content.push_back(TerrainContent(c));
    std::vector<bool> is_block;
    for (const TerrainContent c : a.content) is_block.push_back(c == TerrainContent::Block);
    a.blocks = read_entry_blocks(blocks, a.directory, is_block);
    return a;
}

Bytes rebuild(const BoundArchive& a, const std::vector<terrain::Face>* faces,
              const std::vector<Vec3>* positions, const StreamRecords* streams,
              const ArealRows* areal_rows) {
    nres::Archive archive = a.directory;
    for (size_t i = 0; i < archive.entries.size(); ++i) {
        switch (a.content[i]) {
        case TerrainContent::Uv1:
        case TerrainContent::Uv2:
        case TerrainContent::Weights:
            archive.entries[i].data = pod_bytes((*streams)[stream_of(a.content[i])]);
            break;
        case TerrainContent::Faces:
            archive.entries[i].data = encode_faces(*faces);
            break;
        case TerrainContent::Positions:
            archive.entries[i].data = pod_bytes(*positions);
            break;
        case TerrainContent::Block:
            archive.entries[i].data = a.blocks[i];
            break;
        case TerrainContent::ArealRows:
            archive.entries[i].data = areal_payload(*areal_rows);
            break;
        }
    }
    return nres::write(archive);
}

BoundArchive bind_archive(const nres::Archive& container) {
    BoundArchive a;
    a.directory.layout = container.layout;
    a.directory.trailing = container.trailing;
    for (const nres::Entry& e : container.entries) {
        nres::Entry d = e;
        d.data = Payload();
        a.directory.entries.push_back(std::move(d));
        a.content.push_back(TerrainContent::Block);
        a.blocks.push_back(Bytes(e.data.begin(), e.data.end()));
    }
    return a;
}

SourceRecord source_of(ByteView bytes) {
    return {bytes.size(), payload_hash(bytes)};
}

bool is_source(ByteView bytes, const SourceRecord& s) {
    return bytes.size() == s.size && payload_hash(bytes) == s.xxh3_64;
}

SourceRecord read_source(const JsonAt& at) {
    SourceRecord s;
    s.size = at["size"].as<uint64_t>();
    const std::string hex = at[kPayloadHashKey].as<std::string>();
    if (hex.size() != 16 ||
        std::from_chars(hex.data(), hex.data() + 16, s.xxh3_64, 16).ptr != hex.data() + 16)
        at[kPayloadHashKey].fail("expected 16 hex digits");
    return s;
}

} // namespace

std::optional<TerrainBinding> bind_terrain(const terrain::Terrain& t, ByteView land_msh,
                                           const arealmap::ArealMap* map, ByteView land_map,
                                           float areal_lift, bool gltf, bool slot_bounds_rule,
                                           bool header_rule) {
    const bool indices_in_file = gltf;
    if (t.container.verbatim_only || (map && map->container.verbatim_only)) return std::nullopt;
    TerrainBinding b;
    b.land_msh = bind_archive(t.container);
    const nres::Entry* faces = t.has(terrain::kFaces) ? t.entry(terrain::kFaces) : nullptr;
    const nres::Entry* positions =
        t.has(terrain::kPositions) ? t.entry(terrain::kPositions) : nullptr;
    for (size_t i = 0; i < t.container.entries.size(); ++i) {
        const nres::Entry* e = &t.container.entries[i];
        if (e != faces && e != positions) continue;
        b.land_msh.content[i] = e == faces ? TerrainContent::Faces : TerrainContent::Positions;
        b.land_msh.blocks[i].clear();
    }
    if (faces) {
        b.faces = t.faces;
        b.indices_in_file = indices_in_file;
        if (indices_in_file)
            for (size_t f = 0; f < t.faces.size(); ++f) {
                // The export writes the corners of the usable faces only.
                if (!terrain::face_usable(t, f)) b.carried_indices[uint32_t(f)] = t.faces[f].v;
                b.faces[f].v = {0, 0, 0};
            }
    }
    if (positions) {
        // The file holds a vertex that a usable face uses (its corners carry it exactly: the axis
        // swap is exact for finite values), but for a zero component, whose sign a transform on
        // the way (OBJ's world positions) may lose.
        std::vector<bool> held(t.positions.size(), false);
        if (faces)
            for (size_t f = 0; f < t.faces.size(); ++f)
                if (terrain::face_usable(t, f))
                    for (uint16_t v : t.faces[f].v) held[v] = true;
        b.vertex_count = uint32_t(t.positions.size());
        for (uint32_t v = 0; v < b.vertex_count; ++v) {
            const Vec3& p = t.positions[v];
            if (held[v] && std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z) &&
                p.x != 0 && p.y != 0 && p.z != 0) {
                b.position_fingerprints.push_back(position_fingerprint(p));
                continue;
            }
            add_to_ranges(b.carried, v);
            b.carried_positions.push_back(p);
        }
        // The streams the file holds: the first UV set always (TEXCOORD_0, vt), the second and
        // the weights in a glTF only (an OBJ has no place for them).
        for (size_t s = 0; s < kStreamCount; ++s) {
            const TerrainContent c = kVertexStreams[s].content;
            if (c != TerrainContent::Uv1 && !gltf) continue;
            const terrain::Type type = terrain::Type(kVertexStreams[s].type);
            if (!t.has(type)) continue;
            const std::vector<uint32_t> records = records_of(t, c);
            const nres::Entry* e = t.entry(type);
            // A payload the records do not give back whole (a record cut short) stays a block.
            if ((records.empty() && b.vertex_count) ||
                !std::ranges::equal(pod_bytes(records), e->data))
                continue;
            BoundStream& bs = b.streams[s];
            bs.bound = true;
            for (uint32_t v = 0; v < b.vertex_count; ++v) {
                if (held[v] && holds_record(c, records[v])) {
                    bs.fingerprints.push_back(stream_fingerprint(records[v]));
                    continue;
                }
                add_to_ranges(bs.carried, v);
                bs.carried_records.push_back(records[v]);
            }
            for (size_t i = 0; i < t.container.entries.size(); ++i)
                if (&t.container.entries[i] == e) {
                    b.land_msh.content[i] = c;
                    b.land_msh.blocks[i].clear();
                }
        }
    }
    b.slot_bounds_rule = slot_bounds_rule;
    b.header_rule = header_rule;
    b.msh_source = source_of(land_msh);
    if (map) {
        b.land_map = bind_archive(map->container);
        b.map_source = source_of(land_map);
        if ((b.areal_rows = bind_areal_rows(*map, areal_lift))) {
            b.land_map->content[0] = TerrainContent::ArealRows;
            b.land_map->blocks[0].clear();
        }
    }
    // The export checks what the import relies on: the binding gives back the files.
    std::vector<std::array<uint16_t, 3>> from_file(t.faces.size());
    for (size_t f = 0; f < t.faces.size(); ++f) from_file[f] = t.faces[f].v;
    StreamRecords streams;
    for (size_t s = 0; s < kStreamCount; ++s)
        if (b.streams[s].bound) streams[s] = records_of(t, kVertexStreams[s].content);
    if (!is_source(rebuild_land_msh(b, faces_with_indices(b, from_file), t.positions, streams),
                   b.msh_source))
        return std::nullopt;
    if (map && !is_source(rebuild_land_map(b), b.map_source)) {
        if (!b.areal_rows) return std::nullopt;
        b.areal_rows.reset(); // kept whole: the rows do not give it back
        b.land_map = bind_archive(map->container);
        if (!is_source(rebuild_land_map(b), b.map_source)) return std::nullopt;
    }
    b.checks = terrain_checks(b);
    return b;
}

std::vector<terrain::Face> faces_with_indices(const TerrainBinding& b,
                                              const std::vector<std::array<uint16_t, 3>>& file) {
    std::vector<terrain::Face> faces = b.faces;
    if (!b.indices_in_file) return faces;
    for (size_t f = 0; f < faces.size(); ++f) {
        const auto it = b.carried_indices.find(uint32_t(f));
        faces[f].v = it != b.carried_indices.end() ? it->second : file.at(f);
    }
    return faces;
}

Bytes rebuild_land_msh(const TerrainBinding& b, const std::vector<terrain::Face>& faces,
                       const std::vector<Vec3>& positions, const StreamRecords& streams) {
    return rebuild(b.land_msh, &faces, &positions, &streams, nullptr);
}

Bytes rebuild_land_map(const TerrainBinding& b) {
    return rebuild(*b.land_map, nullptr, nullptr, nullptr, b.areal_rows ? &*b.areal_rows : nullptr);
}

Bytes rebuild_land_map(const TerrainBinding& b, const ArealRows& rows) {
    return rebuild(*b.land_map, nullptr, nullptr, nullptr, &rows);
}

uint8_t stream_fingerprint(uint32_t record) {
    return uv_fingerprint(uv_of_record(record));
}

uint32_t uv_record(const PackedUv& uv) {
    uint32_t r;
    std::memcpy(&r, uv.data(), sizeof r);
    return r;
}

PackedUv uv_of_record(uint32_t record) {
    PackedUv uv;
    std::memcpy(uv.data(), &record, sizeof record);
    return uv;
}

std::map<std::string, std::vector<uint16_t>> terrain_checks(const TerrainBinding& b) {
    std::map<std::string, std::vector<uint16_t>> out;
    std::vector<uint16_t>& faces = out["faces"];
    faces.reserve(b.faces.size());
    for (const terrain::Face& f : b.faces) {
        uint8_t record[terrain::kFaceStride];
        encode_face(f, record);
        faces.push_back(row_check(ByteView(record, sizeof record)));
    }
    auto archive = [&](const BoundArchive& a, const std::string& container,
                       const std::string& blocks) {
        out[container] = {row_check(nres::write(a.directory))};
        out[blocks];
        for (size_t i = 0; i < a.blocks.size() && i < a.content.size(); ++i)
            if (a.content[i] == TerrainContent::Block)
                out[blocks].push_back(row_check(a.blocks[i]));
    };
    archive(b.land_msh, "container", "blocks");
    if (b.land_map) archive(*b.land_map, "map_container", "map_blocks");
    // The record of Land.msh's vertices (which the file holds, which the sidecar carries): one
    // check over all of /vertices, so that an edit of it is refused rather than misread.
    ByteWriter vertices;
    auto ranges = [&](const std::vector<VertexRange>& carried) {
        vertices.put(uint32_t(carried.size()));
        for (const VertexRange& r : carried) {
            vertices.put(r.first);
            vertices.put(r.count);
        }
    };
    vertices.put(b.vertex_count);
    ranges(b.carried);
    vertices.put_bytes(pod_bytes(b.carried_positions));
    vertices.put_bytes(pod_bytes(b.position_fingerprints));
    for (const BoundStream& stream : b.streams) {
        vertices.put(uint8_t(stream.bound));
        ranges(stream.carried);
        vertices.put_bytes(pod_bytes(stream.carried_records));
        vertices.put_bytes(pod_bytes(stream.fingerprints));
    }
    out["vertices"] = {row_check(vertices.take())};
    if (const auto& r = b.areal_rows) {
        std::vector<uint16_t>& areals = out["map_areals"];
        std::vector<uint16_t>& links = out["map_links"];
        for (const arealmap::Areal& a : r->areals) {
            const auto prefix = areal_prefix(a);
            areals.push_back(row_check(ByteView(prefix.data(), prefix.size())));
            links.push_back(row_check(pod_bytes(a.links)));
        }
        out["map_vertices"] = {row_check(vertices_checked(*r))};
        out["map_sub_blocks"] = {row_check(areal_sub_blocks(r->areals))};
        out["map_grid"] = {row_check(grid_checked(*r))};
    }
    return out;
}

namespace {

void write_faces(ReadableJson& w, const TerrainBinding& b) {
    w.begin_object();
    w.key("columns");
    w.begin_array();
    for (size_t k = 0; k < kFaceValues; ++k)
        if (!b.indices_in_file || k < kIndexColumn || k >= kIndexColumn + 3)
            w.value(kFaceColumns[k]);
    w.end_array();
    w.key("rows");
    w.rows_with(b.faces.size(), [&](size_t i, std::string& out) {
        put_face_row(b.faces[i], !b.indices_in_file, out);
    });
    w.end_object();
}

void write_face_indices(ReadableJson& w, const TerrainBinding& b) {
    w.begin_object();
    w.key("columns");
    w.array(std::vector<std::string>{"face", "i0", "i1", "i2"});
    w.key("rows");
    w.begin_array();
    for (const auto& [f, v] : b.carried_indices) {
        w.begin_array();
        w.value(f);
        for (const auto i : v) w.value(i);
        w.end_array();
    }
    w.end_array();
    w.end_object();
}

void write_vertices(ReadableJson& w, const TerrainBinding& b) {
    // The streams' members among the others, in key order.
    std::map<std::string_view, std::function<void()>> members;
    members["carried"] = [&] { write_vertex_ranges(w, b.carried, false); };
    members["count"] = [&] { w.value(b.vertex_count); };
    members["positions"] = [&] { write_block(w, pod_view(b.carried_positions)); };
    members["position_fingerprints"] = [&] { write_block(w, pod_view(b.position_fingerprints)); };
    for (size_t s = 0; s < kStreamCount; ++s) {
        const BoundStream& bs = b.streams[s];
        if (!bs.bound) continue;
        members[kVertexStreams[s].member] = [&w, &bs] {
            w.begin_object();
            w.key("carried");
            write_vertex_ranges(w, bs.carried, false);
            w.key("fingerprints");
            write_block(w, ByteView(bs.fingerprints.data(), bs.fingerprints.size()));
            w.key("records");
            write_block(w, pod_view(bs.carried_records));
            w.end_object();
        };
    }
    w.begin_object();
    for (const auto& [name, write] : members) {
        w.key(name);
        write();
    }
    w.end_object();
}

void write_areal_rows(ReadableJson& w, const ArealRows& r) {
    w.begin_object();
    w.key("areals");
    w.begin_object();
    w.key("columns");
    w.begin_array();
    for (const char* c : kArealColumns) w.value(c);
    w.end_array();
    w.key("rows");
    w.rows_with(r.areals.size(),
                [&](size_t i, std::string& out) { put_areal_row(r.areals[i], out); });
    w.end_object();
    if (r.grid_rule) {
        w.key("grid_cells");
        w.begin_array();
        w.value(r.cells_x);
        w.value(r.cells_y);
        w.end_array();
    } else {
        w.key("grid");
        write_block(w, r.grid);
    }
    w.member("grid_rule", r.grid_rule);
    w.key("links");
    w.begin_object();
    w.key("columns");
    w.array(std::vector<std::string>{"area_ref", "edge_ref"});
    w.key("rows");
    w.rows_with(r.areals.size(),
                [&](size_t i, std::string& out) { put_links_row(r.areals[i], out); });
    w.end_object();
    w.key("sub_blocks");
    write_block(w, areal_sub_blocks(r.areals));
    w.key("vertices");
    if (r.file_vertices)
        write_file_vertices(w, *r.file_vertices);
    else
        write_block(w, areal_vertices(r.areals));
    w.end_object();
}

} // namespace

void write_terrain_binding(const TerrainBinding& b, ReadableJson& w, const std::string& msh_address,
                           const std::string& map_address,
                           const std::function<void(std::string_view before)>& other) {
    const auto key = [&](std::string_view name) {
        other(name);
        w.key(name);
    };
    key("blocks");
    write_blocks(w, b.land_msh);
    key("checks");
    write_checks(w, b.checks);
    key("container");
    write_container(w, b.land_msh);
    key("derived");
    w.begin_object();
    w.member("header_rule", b.header_rule);
    w.member("slot_bounds_rule", b.slot_bounds_rule);
    w.end_object();
    if (b.indices_in_file) {
        key("face_indices");
        write_face_indices(w, b);
    }
    key("faces");
    write_faces(w, b);
    if (b.land_map) {
        if (b.areal_rows) {
            key("map");
            write_areal_rows(w, *b.areal_rows);
        }
        key("map_blocks");
        write_blocks(w, *b.land_map);
        key("map_container");
        write_container(w, *b.land_map);
        key("map_source");
        write_source(w, map_address, b.map_source.size, b.map_source.xxh3_64);
    } else {
        key("map_source");
        w.null();
    }
    key("source");
    write_source(w, msh_address, b.msh_source.size, b.msh_source.xxh3_64);
    key("vertices");
    write_vertices(w, b);
    other({});
}

TerrainBinding read_terrain_binding(const JsonAt& doc) {
    TerrainBinding b;
    b.msh_source = read_source(doc["source"]);
    b.land_msh = read_archive(doc["container"], doc["blocks"]);
    for (size_t i = 0; i < b.land_msh.content.size(); ++i)
        if (b.land_msh.content[i] == TerrainContent::ArealRows)
            doc["container"]["entries"]["rows"][i][6].fail("areal_rows are Land.map's");
    const JsonAt faces = doc["faces"];
    const JsonAt columns = faces["columns"];
    // Without i0..i2 where the file holds the indices (a glTF export's sidecar).
    b.indices_in_file = columns.size() == kFaceValues - 3;
    if (columns.size() != kFaceValues && !b.indices_in_file)
        columns.fail("expected the 15 face columns (12 without i0, i1, i2)");
    for (size_t k = 0, c = 0; k < kFaceValues; ++k) {
        if (b.indices_in_file && k >= kIndexColumn && k < kIndexColumn + 3) continue;
        if (columns[c].as<std::string>() != kFaceColumns[k])
            columns[c].fail(std::string("expected \"") + kFaceColumns[k] + "\"");
        ++c;
    }
    const size_t width = columns.size();
    const size_t shift = b.indices_in_file ? 3 : 0; // the columns after the indices
    const JsonAt rows = faces["rows"];
    // Straight from the parsed rows where they are rows of integers; otherwise again through
    // JsonAt, which names the value at fault.
    const size_t n = rows.size();
    b.faces.resize(n);
    const bool all_integers = rows.integer_rows(width, [&](size_t i, const int64_t* cells) {
        auto value = [&](size_t k, int64_t lo, int64_t hi) {
            const int64_t x = cells[k];
            if (x < lo || x > hi)
                throw FormatError(doc.where(),
                                  Location::at_pointer("/faces/rows/" + std::to_string(i) + "/" +
                                                       std::to_string(k)),
                                  "expected an integer " + std::to_string(lo) + ".." +
                                      std::to_string(hi));
            return x;
        };
        terrain::Face& f = b.faces[i];
        f.flags = uint32_t(value(0, 0, 0xFFFFFFFF));
        f.material = uint8_t(value(1, 0, 255));
        f.aux = uint8_t(value(2, 0, 255));
        f.unk06 = uint16_t(value(3, 0, 65535));
        f.v = {0, 0, 0};
        for (size_t k = 0; k < 3; ++k) {
            if (!b.indices_in_file) f.v[k] = uint16_t(value(4 + k, 0, 65535));
            f.n[k] = uint16_t(value(7 - shift + k, 0, 65535));
            f.normal[k] = int16_t(value(10 - shift + k, -32768, 32767));
        }
        f.edge_class = uint8_t(value(13 - shift, 0, 255));
        f.unk27 = uint8_t(value(14 - shift, 0, 255));
    });
    for (size_t i = 0; i < n && !all_integers; ++i) {
        const JsonAt row = rows[i];
        if (!row.is_array() || row.size() != width)
            row.fail("expected a row of " + std::to_string(width) + " values");
        terrain::Face& f = b.faces[i];
        f.flags = row[0].as<uint32_t>();
        f.material = row[1].as<uint8_t>();
        f.aux = row[2].as<uint8_t>();
        f.unk06 = row[3].as<uint16_t>();
        f.v = {0, 0, 0};
        for (size_t k = 0; k < 3; ++k) {
            if (!b.indices_in_file) f.v[k] = row[4 + k].as<uint16_t>();
            f.n[k] = row[7 - shift + k].as<uint16_t>();
            f.normal[k] = row[10 - shift + k].as<int16_t>();
        }
        f.edge_class = row[13 - shift].as<uint8_t>();
        f.unk27 = row[14 - shift].as<uint8_t>();
    }
    if (b.indices_in_file) {
        const JsonAt carried = doc["face_indices"]["rows"];
        for (size_t i = 0; i < carried.size(); ++i) {
            const JsonAt r = carried[i];
            if (!r.is_array() || r.size() != 4) r.fail("expected [face, i0, i1, i2]");
            const uint32_t f = r[0].as<uint32_t>();
            if (f >= n) r[0].fail("no face " + std::to_string(f));
            if (b.carried_indices.count(f)) r[0].fail("face " + std::to_string(f) + " again");
            b.carried_indices[f] = {r[1].as<uint16_t>(), r[2].as<uint16_t>(), r[3].as<uint16_t>()};
        }
    }
    const JsonAt vertices = doc["vertices"];
    b.vertex_count = vertices["count"].as<uint32_t>();
    const uint64_t total = read_vertex_ranges(vertices["carried"], b.vertex_count, b.carried);
    b.carried_positions = pod_from<Vec3>(read_block(vertices["positions"]), vertices["positions"]);
    if (b.carried_positions.size() != total)
        vertices["positions"].fail("expected the positions of " + std::to_string(total) +
                                   " carried vertices");
    b.position_fingerprints = pod_from<uint32_t>(read_block(vertices["position_fingerprints"]),
                                                 vertices["position_fingerprints"]);
    if (b.position_fingerprints.size() != b.vertex_count - total)
        vertices["position_fingerprints"].fail("expected one per vertex the file holds (" +
                                               std::to_string(b.vertex_count - total) + ")");
    for (size_t s = 0; s < kStreamCount; ++s) {
        const TerrainContent c = kVertexStreams[s].content;
        bool bound = false;
        for (size_t i = 0; i < b.land_msh.content.size(); ++i) {
            if (b.land_msh.content[i] != c) continue;
            const JsonAt content = doc["container"]["entries"]["rows"][i][6];
            if (bound) content.fail("another entry already comes from this stream");
            if (b.land_msh.directory.entries[i].type != kVertexStreams[s].type)
                content.fail(std::string(kTerrainContentNames[size_t(c)]) + " are type " +
                             std::to_string(kVertexStreams[s].type));
            bound = true;
        }
        if (!bound) continue;
        const JsonAt at = vertices[kVertexStreams[s].member];
        BoundStream& bs = b.streams[s];
        bs.bound = true;
        const uint64_t carried = read_vertex_ranges(at["carried"], b.vertex_count, bs.carried);
        bs.carried_records = pod_from<uint32_t>(read_block(at["records"]), at["records"]);
        if (bs.carried_records.size() != carried)
            at["records"].fail("expected the records of " + std::to_string(carried) +
                               " carried vertices");
        bs.fingerprints = pod_from<uint8_t>(read_block(at["fingerprints"]), at["fingerprints"]);
        if (bs.fingerprints.size() != b.vertex_count - carried)
            at["fingerprints"].fail("expected one per vertex the file holds (" +
                                    std::to_string(b.vertex_count - carried) + ")");
    }
    const JsonAt derived = doc["derived"];
    b.slot_bounds_rule = derived["slot_bounds_rule"].as<bool>();
    b.header_rule = derived["header_rule"].as<bool>();
    for (size_t i = 0; i < b.land_msh.content.size(); ++i)
        if (b.land_msh.content[i] == TerrainContent::Faces && !b.faces.empty() &&
            b.land_msh.directory.entries[i].type != terrain::kFaces)
            doc["container"]["entries"]["rows"][i][0].fail("faces are type 21");
    if (!doc["map_source"].is_null()) {
        b.map_source = read_source(doc["map_source"]);
        b.land_map = read_archive(doc["map_container"], doc["map_blocks"]);
        for (size_t i = 0; i < b.land_map->content.size(); ++i) {
            const TerrainContent c = b.land_map->content[i];
            if (c == TerrainContent::Block) continue;
            const JsonAt content = doc["map_container"]["entries"]["rows"][i][6];
            if (c != TerrainContent::ArealRows)
                content.fail("Land.map entries are blocks or areal_rows");
            if (b.areal_rows) content.fail("another entry already comes from /map");
            if (b.land_map->directory.entries[i].type != arealmap::kChunkType)
                content.fail("areal_rows are type 12");
            b.areal_rows = read_areal_rows(doc["map"], b.land_map->directory.entries[i].attr1);
        }
    }
    b.checks = read_checks(doc["checks"]);
    return b;
}

} // namespace msh::sidecar
