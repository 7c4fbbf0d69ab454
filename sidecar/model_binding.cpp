#include "model_binding.hpp"

#include "binding_fields.hpp"
#include "nres_directory_json.hpp"

#include "base64.hpp"
#include "json_at.hpp"
#include "payload_hash.hpp"
#include "readable_writer.hpp"

#include "formats/cp1251.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace msh::sidecar {

namespace {

constexpr const char* kContentNames[] = {"nodes", "header_slots", "positions",    "uvs",
                                         "keys",  "frame_map",    "node_strings", "batches",
                                         "block", "triangles"};

// The resources a binding sidecar shows as tables or takes from the file (the first entry of each
// type, when the reader interpreted it).
constexpr std::pair<ResType, EntryContent> kInterpreted[] = {
    {kNodes, EntryContent::Nodes},
    {kHeaderSlots, EntryContent::HeaderSlots},
    {kPositions, EntryContent::Positions},
    {kUv0, EntryContent::Uvs},
    {kKeys, EntryContent::Keys},
    {kFrameMap, EntryContent::FrameMap},
    {kNodeStrings, EntryContent::NodeStrings},
    {kBatches, EntryContent::Batches},
    {kTriangles, EntryContent::Triangles}};

const char* content_name(EntryContent c) {
    return kContentNames[size_t(c)];
}

// The words a row of a table holds, in the file's order (the columns the JSON names).
constexpr const char* kNodeColumns[] = {"name",      "flags",        "parent",
                                        "map_start", "fallback_key", "slots"};
constexpr const char* kSlotColumns[] = {"tri_start", "tri_count", "batch_start", "batch_count",
                                        "aabb_min",  "aabb_max",  "sphere",      "tail"};
constexpr const char* kBatchColumns[] = {"flags",       "material",    "opaque4",  "opaque6",
                                         "index_count", "index_start", "opaque14", "base_vertex"};
constexpr const char* kKeyColumns[] = {"position", "time", "rotation_words"};
// Frame-map words per row of /animation/frame_map.
constexpr size_t kWordsPerRow = 16;

void put_float(ReadableJson& w, float f) {
    if (!std::isfinite(f))
        w.value(float_bits(f));
    else
        w.value(shortest_double(f));
}

template <size_t N> void put_floats(ReadableJson& w, const std::array<float, N>& a) {
    w.begin_array();
    for (float f : a) put_float(w, f);
    w.end_array();
}

template <size_t N> void put_columns(ReadableJson& w, const char* const (&names)[N]) {
    w.key("columns");
    w.begin_array();
    for (const char* n : names) w.value(n);
    w.end_array();
}

template <size_t N> void read_floats(const JsonAt& at, std::array<float, N>& out) {
    if (at.size() != N) at.fail("expected " + std::to_string(N) + " numbers");
    for (size_t i = 0; i < N; ++i) out[i] = read_float(at[i]);
}

template <class T, size_t N> void read_ints(const JsonAt& at, std::array<T, N>& out) {
    if (at.size() != N) at.fail("expected " + std::to_string(N) + " integers");
    for (size_t i = 0; i < N; ++i) out[i] = at[i].as<T>();
}

// A row of a table: exactly `n` values.
void expect_row(const JsonAt& row, size_t n) {
    if (!row.is_array() || row.size() != n)
        row.fail("expected a row of " + std::to_string(n) + " values");
}

std::string read_game_text(const JsonAt& at) {
    if (at.is_object()) {
        try {
            const Bytes b = from_hex(at["hex"].as<std::string>());
            return std::string(b.begin(), b.end());
        } catch (const std::invalid_argument& e) {
            at["hex"].fail(e.what());
        }
    }
    const std::optional<std::string> game = utf8_to_cp1251(at.as<std::string>());
    if (!game) at.fail("a character CP1251 cannot hold (write the bytes as {\"hex\": ...})");
    return *game;
}

ByteView bytes_of(const std::string& s) {
    return ByteView(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

} // namespace

uint32_t position_fingerprint(const Vec3& p) {
    uint8_t b[12];
    std::memcpy(b, &p.x, 4);
    std::memcpy(b + 4, &p.y, 4);
    std::memcpy(b + 8, &p.z, 4);
    return uint32_t(payload_hash(ByteView(b, 12)));
}

uint8_t uv_fingerprint(const PackedUv& uv) {
    uint8_t b[4];
    std::memcpy(b, uv.data(), 4);
    return uint8_t(payload_hash(ByteView(b, 4)));
}

std::map<std::string, std::vector<uint16_t>> table_checks(const ModelBinding& b) {
    std::map<std::string, std::vector<uint16_t>> out;
    Model m;
    m.nodes = b.nodes;
    m.batches = b.batches;
    m.animation.keys = b.keys;
    auto rows = [](const Bytes& all, size_t first, size_t stride) {
        std::vector<uint16_t> checks;
        for (size_t at = first; at + stride <= all.size(); at += stride)
            checks.push_back(row_check(ByteView(all.data() + at, stride)));
        return checks;
    };
    out["nodes"] = rows(encode_resource(m, kNodes), 0, kNodeStride);
    const Bytes res2 = encode_header_slots(b.header, b.slots);
    out["header"] = {row_check(ByteView(res2.data(), kHeaderSize))};
    out["slots"] = rows(res2, kHeaderSize, kSlotStride);
    out["batches"] = rows(encode_resource(m, kBatches), 0, kBatchStride);
    out["keys"] = rows(encode_resource(m, kKeys), 0, 24);
    out["frame_map"] = {row_check(pod_view(b.frame_map))};
    ByteWriter normals;
    for (const auto& [t, n] : b.stored_normals) {
        normals.put(t);
        for (int16_t c : n) normals.put(c);
    }
    out["triangles"] = {row_check(b.triangle_records), row_check(normals.take())};
    // The directory without payloads (names, attributes, layout, gaps, trailing bytes), and each
    // block in /blocks order.
    nres::Archive directory = b.directory;
    for (nres::Entry& e : directory.entries) e.data = Payload();
    out["container"] = {row_check(nres::write(directory))};
    out["blocks"];
    for (size_t i = 0; i < b.blocks.size() && i < b.content.size(); ++i)
        if (b.content[i] == EntryContent::Block) out["blocks"].push_back(row_check(b.blocks[i]));
    // The record of the vertices (which the file holds, which the sidecar carries): one check
    // over all of /vertices, so that an edit of it is refused rather than misread.
    ByteWriter vertices;
    vertices.put(b.vertex_count);
    vertices.put(uint8_t(b.has_uvs));
    for (const VertexRange& r : b.carried) {
        vertices.put(r.first);
        vertices.put(r.count);
    }
    vertices.put_bytes(pod_view(b.carried_positions));
    vertices.put_bytes(pod_view(b.carried_uvs));
    vertices.put_bytes(pod_view(b.position_fingerprints));
    vertices.put_bytes(pod_view(b.uv_fingerprints));
    out["vertices"] = {row_check(vertices.take())};
    for (const NodeString& s : b.node_strings)
        out["node_strings"].push_back(
            row_check(s.present && !s.text.empty() ? bytes_of(s.text) : ByteView()) ^
            uint16_t(s.present));
    return out;
}

ModelBinding bind_model(const Model& m, const std::vector<bool>& held, const DerivedRules& rules,
                        const RuleNormals& rule_normals) {
    ModelBinding b;
    b.directory.layout = m.container.layout;
    b.directory.trailing = m.container.trailing;
    const bool positions = m.has(kPositions);
    const bool uvs = positions && m.has(kUv0) && m.uvs.size() == m.positions.size();
    const bool triangles = positions && m.has(kIndices) && m.has(kTriangles) &&
                           rule_normals.size() == m.triangles.size();
    for (const nres::Entry& e : m.container.entries) {
        nres::Entry d = e;
        d.data = Payload();
        b.directory.entries.push_back(std::move(d));
        EntryContent c = EntryContent::Block;
        const bool first = e.type < 32 && m.has(ResType(e.type)) && &e == m.entry(ResType(e.type));
        if (first)
            for (const auto& [type, content] : kInterpreted)
                if (e.type == type) c = content;
        if ((c == EntryContent::Uvs && !uvs) || (c == EntryContent::Triangles && !triangles))
            c = EntryContent::Block;
        b.content.push_back(c);
        b.blocks.push_back(c == EntryContent::Block ? Bytes(e.data.begin(), e.data.end())
                                                    : Bytes());
    }
    b.nodes = m.nodes;
    for (size_t i = 0; i < m.nodes.size(); ++i)
        b.node_names.push_back(cp1251_to_utf8(m.node_name(i)));
    b.node_strings = m.node_strings;
    b.header = m.header;
    b.slots = m.slots;
    b.batches = m.batches;
    b.keys = m.animation.keys;
    b.frame_map = m.animation.words;
    if (positions) {
        b.vertex_count = uint32_t(m.positions.size());
        b.has_uvs = uvs;
        for (uint32_t v = 0; v < b.vertex_count; ++v) {
            if (v < held.size() && held[v]) {
                b.position_fingerprints.push_back(position_fingerprint(m.positions[v]));
                if (uvs) b.uv_fingerprints.push_back(uv_fingerprint(m.uvs[v]));
                continue;
            }
            if (b.carried.empty() || b.carried.back().first + b.carried.back().count != v)
                b.carried.push_back({v, 0});
            ++b.carried.back().count;
            b.carried_positions.push_back(m.positions[v]);
            if (uvs) b.carried_uvs.push_back(m.uvs[v]);
        }
    }
    if (triangles) {
        ByteWriter w;
        for (size_t t = 0; t < m.triangles.size(); ++t) {
            const TriDesc& d = m.triangles[t];
            w.put(d.flags);
            for (uint16_t l : d.link) w.put(l);
            w.put(d.selectors);
            if (!rule_normals[t] || *rule_normals[t] != d.normal)
                b.stored_normals[uint32_t(t)] = d.normal;
        }
        b.triangle_records = w.take();
    }
    b.rules = rules;
    b.checks = table_checks(b);
    return b;
}

Bytes triangle_payload(const ModelBinding& b, const RuleNormals& rule_normals) {
    const size_t count = b.triangle_records.size() / kTriangleRecord;
    ByteWriter w;
    for (size_t t = 0; t < count; ++t) {
        const uint8_t* r = b.triangle_records.data() + kTriangleRecord * t;
        w.put_bytes(ByteView(r, 8)); // flags, links
        std::array<int16_t, 3> normal{};
        if (const auto it = b.stored_normals.find(uint32_t(t)); it != b.stored_normals.end())
            normal = it->second;
        else if (t < rule_normals.size() && rule_normals[t])
            normal = *rule_normals[t];
        for (int16_t c : normal) w.put(c);
        w.put_bytes(ByteView(r + 8, 2)); // selectors
    }
    return w.take();
}

void write_binding_json(const ModelBinding& b, ReadableJson& w,
                        const std::function<void(std::string_view before)>& other) {
    // Members in key order, the other members of the document between them.
    const auto key = [&](std::string_view name) {
        other(name);
        w.key(name);
    };
    const auto game_text = [&](const std::string& cp1251) {
        const std::string utf8 = cp1251_to_utf8(cp1251);
        if (utf8_to_cp1251(utf8) == cp1251) {
            w.value(utf8);
            return;
        }
        w.begin_object();
        w.member("hex", to_hex(bytes_of(cp1251)));
        w.end_object();
    };

    key("animation");
    w.begin_object();
    w.key("frame_map");
    w.begin_rows();
    for (size_t i = 0; i < b.frame_map.size(); i += kWordsPerRow) {
        w.begin_array();
        for (size_t k = i; k < std::min(b.frame_map.size(), i + kWordsPerRow); ++k)
            w.value(b.frame_map[k]);
        w.end_array();
    }
    w.end_rows();
    w.key("keys");
    w.begin_object();
    put_columns(w, kKeyColumns);
    w.key("rows");
    w.begin_rows();
    for (const anim::Key& k : b.keys) {
        w.begin_array();
        w.begin_array();
        for (int c = 0; c < 3; ++c) put_float(w, k.pos[c]);
        w.end_array();
        put_float(w, k.time);
        w.array(k.rot);
        w.end_array();
    }
    w.end_rows();
    w.end_object();
    w.end_object();

    key("batches");
    w.begin_object();
    put_columns(w, kBatchColumns);
    w.key("rows");
    w.begin_rows();
    for (const Batch& x : b.batches) {
        w.begin_array();
        w.value(x.flags);
        w.value(x.material);
        w.value(x.opaque4);
        w.value(x.opaque6);
        w.value(x.index_count);
        w.value(x.index_start);
        w.value(x.opaque14);
        w.value(x.base_vertex);
        w.end_array();
    }
    w.end_rows();
    w.end_object();

    key("blocks");
    w.begin_array();
    for (size_t i = 0; i < b.blocks.size(); ++i)
        if (b.content[i] == EntryContent::Block)
            write_entry_block(w, i, b.directory.entries[i].type, b.blocks[i]);
    w.end_array();

    key("checks");
    write_checks(w, b.checks);

    key("container");
    write_directory(
        w, b.directory, [&](size_t i) { return content_name(b.content[i]); }, true);

    key("derived");
    w.begin_object();
    const HeaderRule& h = b.rules.header;
    if (h.posed) {
        w.key("header");
        w.begin_object();
        w.member("capsule", h.capsule);
        w.key("hull");
        if (h.hull_max) {
            std::string pattern;
            for (bool mx : *h.hull_max) pattern += mx ? 'M' : 'm';
            w.value(pattern);
        } else {
            w.null();
        }
        w.member("sphere", h.sphere);
        w.end_object();
    }
    w.key("slots");
    w.begin_object();
    w.key("columns");
    w.begin_array();
    for (const char* c : {"slot", "box", "sphere", "area", "volume"}) w.value(c);
    w.end_array();
    w.key("rows");
    w.begin_rows();
    for (size_t i = 0; i < b.rules.slots.size(); ++i) {
        const SlotRule& r = b.rules.slots[i];
        if (r.drawn && !(r.box && r.sphere && r.area && r.volume)) {
            w.begin_array();
            w.value(uint64_t(i));
            w.value(r.box);
            w.value(r.sphere);
            w.value(r.area);
            w.value(r.volume);
            w.end_array();
        }
    }
    w.end_rows();
    w.end_object();
    w.key("triangle_normals_kept");
    w.begin_array();
    for (size_t t = 0; t < b.rules.triangle_normals.size(); ++t)
        if (!b.rules.triangle_normals[t]) w.value(uint64_t(t));
    w.end_array();
    w.end_object();

    key("header");
    w.begin_object();
    w.key("capsule");
    put_floats(w, b.header.capsule);
    w.key("hull");
    put_floats(w, b.header.hull);
    w.key("sphere");
    put_floats(w, b.header.sphere);
    w.end_object();

    key("node_strings");
    w.begin_array();
    for (const NodeString& str : b.node_strings)
        if (str.present)
            game_text(str.text);
        else
            w.null();
    w.end_array();

    key("nodes");
    w.begin_object();
    put_columns(w, kNodeColumns);
    w.key("rows");
    w.begin_rows();
    for (size_t i = 0; i < b.nodes.size(); ++i) {
        const Node& n = b.nodes[i];
        w.begin_array();
        w.value(i < b.node_names.size() ? std::string_view(b.node_names[i]) : std::string_view());
        w.value(n.flags);
        w.value(n.parent);
        w.value(n.map_start);
        w.value(n.fallback_key);
        w.array(n.slots);
        w.end_array();
    }
    w.end_rows();
    w.end_object();

    key("slots");
    w.begin_object();
    put_columns(w, kSlotColumns);
    w.key("rows");
    w.begin_rows();
    for (const Slot& x : b.slots) {
        w.begin_array();
        w.value(x.tri_start);
        w.value(x.tri_count);
        w.value(x.batch_start);
        w.value(x.batch_count);
        put_floats(w, x.aabb_min);
        put_floats(w, x.aabb_max);
        put_floats(w, x.sphere);
        w.array(x.tail);
        w.end_array();
    }
    w.end_rows();
    w.end_object();

    if (std::find(b.content.begin(), b.content.end(), EntryContent::Triangles) != b.content.end() ||
        !b.triangle_records.empty() || !b.stored_normals.empty()) {
        key("triangles");
        w.begin_object();
        w.key("records");
        write_block(w, b.triangle_records);
        w.key("stored_normals");
        w.begin_object();
        w.key("columns");
        w.begin_array();
        w.value("record");
        w.value("normal");
        w.end_array();
        w.key("rows");
        w.begin_rows();
        for (const auto& [t, n] : b.stored_normals) {
            w.begin_array();
            w.value(t);
            w.array(n);
            w.end_array();
        }
        w.end_rows();
        w.end_object();
        w.end_object();
    }

    key("vertices");
    w.begin_object();
    w.key("carried");
    write_vertex_ranges(w, b.carried, true);
    w.member("count", b.vertex_count);
    w.key("position_fingerprints");
    write_block(w, pod_view(b.position_fingerprints));
    w.key("positions");
    write_block(w, pod_view(b.carried_positions));
    if (b.has_uvs) {
        w.key("uv_fingerprints");
        write_block(w, pod_view(b.uv_fingerprints));
        w.key("uv_records");
        write_block(w, pod_view(b.carried_uvs));
    }
    w.member("uvs", b.has_uvs);
    w.end_object();
    other({});
}

uint64_t read_vertex_ranges(const JsonAt& carried, uint32_t vertex_count,
                            std::vector<VertexRange>& ranges) {
    uint64_t next = 0, total = 0;
    for (size_t i = 0; i < carried.size(); ++i) {
        const JsonAt r = carried[i];
        if (!r.is_array() || r.size() != 2) r.fail("expected [first, count]");
        const VertexRange range{r[0].as<uint32_t>(), r[1].as<uint32_t>()};
        if (range.first < next || uint64_t(range.first) + range.count > vertex_count)
            r.fail("vertex ranges must be in order, apart, and below the vertex count");
        next = uint64_t(range.first) + range.count;
        total += range.count;
        ranges.push_back(range);
    }
    return total;
}

void write_vertex_ranges(ReadableJson& w, const std::vector<VertexRange>& ranges, bool table) {
    table ? w.begin_rows() : w.begin_array();
    for (const VertexRange& r : ranges) {
        w.begin_array();
        w.value(r.first);
        w.value(r.count);
        w.end_array();
    }
    table ? w.end_rows() : w.end_array();
}

void add_to_ranges(std::vector<VertexRange>& ranges, uint32_t v) {
    if (ranges.empty() || ranges.back().first + ranges.back().count != v) ranges.push_back({v, 0});
    ++ranges.back().count;
}

ModelBinding read_binding(const JsonAt& doc) {
    ModelBinding b;
    std::vector<size_t> content;
    b.directory = read_directory(
        doc["container"],
        std::vector<std::string>(std::begin(kContentNames), std::end(kContentNames)), content);
    for (const size_t c : content) b.content.push_back(EntryContent(c));
    b.blocks.resize(b.content.size());

    const JsonAt nodes = doc["nodes"]["rows"];
    for (size_t i = 0; i < nodes.size(); ++i) {
        const JsonAt r = nodes[i];
        expect_row(r, std::size(kNodeColumns));
        Node n;
        b.node_names.push_back(r[0].as<std::string>());
        n.flags = r[1].as<uint16_t>();
        n.parent = r[2].as<uint16_t>();
        n.map_start = r[3].as<uint16_t>();
        n.fallback_key = r[4].as<uint16_t>();
        read_ints(r[5], n.slots);
        b.nodes.push_back(n);
    }
    const JsonAt strings = doc["node_strings"];
    for (size_t i = 0; i < strings.size(); ++i) {
        NodeString s;
        if (!strings[i].is_null()) s.present = true, s.text = read_game_text(strings[i]);
        b.node_strings.push_back(std::move(s));
    }
    const JsonAt header = doc["header"];
    read_floats(header["hull"], b.header.hull);
    read_floats(header["sphere"], b.header.sphere);
    read_floats(header["capsule"], b.header.capsule);
    const JsonAt slots = doc["slots"]["rows"];
    for (size_t i = 0; i < slots.size(); ++i) {
        const JsonAt r = slots[i];
        expect_row(r, std::size(kSlotColumns));
        Slot s;
        s.tri_start = r[0].as<uint16_t>();
        s.tri_count = r[1].as<uint16_t>();
        s.batch_start = r[2].as<uint16_t>();
        s.batch_count = r[3].as<uint16_t>();
        read_floats(r[4], s.aabb_min);
        read_floats(r[5], s.aabb_max);
        read_floats(r[6], s.sphere);
        read_ints(r[7], s.tail);
        b.slots.push_back(s);
    }
    const JsonAt batches = doc["batches"]["rows"];
    for (size_t i = 0; i < batches.size(); ++i) {
        const JsonAt r = batches[i];
        expect_row(r, std::size(kBatchColumns));
        Batch x;
        x.flags = r[0].as<uint16_t>();
        x.material = r[1].as<uint16_t>();
        x.opaque4 = r[2].as<uint16_t>();
        x.opaque6 = r[3].as<uint16_t>();
        x.index_count = r[4].as<uint16_t>();
        x.index_start = r[5].as<uint32_t>();
        x.opaque14 = r[6].as<uint16_t>();
        x.base_vertex = r[7].as<uint32_t>();
        b.batches.push_back(x);
    }
    const JsonAt animation = doc["animation"];
    const JsonAt keys = animation["keys"]["rows"];
    for (size_t i = 0; i < keys.size(); ++i) {
        const JsonAt r = keys[i];
        expect_row(r, std::size(kKeyColumns));
        anim::Key k;
        std::array<float, 3> pos{};
        read_floats(r[0], pos);
        k.pos = {pos[0], pos[1], pos[2]};
        k.time = read_float(r[1]);
        read_ints(r[2], k.rot);
        b.keys.push_back(k);
    }
    const JsonAt words = animation["frame_map"];
    for (size_t i = 0; i < words.size(); ++i) {
        const JsonAt row = words[i];
        for (size_t k = 0; k < row.size(); ++k) b.frame_map.push_back(row[k].as<uint16_t>());
    }

    const JsonAt vertices = doc["vertices"];
    b.vertex_count = vertices["count"].as<uint32_t>();
    b.has_uvs = vertices["uvs"].as<bool>();
    if (b.has_uvs !=
        (std::find(b.content.begin(), b.content.end(), EntryContent::Uvs) != b.content.end()))
        vertices["uvs"].fail(b.has_uvs ? "the container has no entry of content 'uvs' (Res5)"
                                       : "the container has an entry of content 'uvs' (Res5)");
    const uint64_t total = read_vertex_ranges(vertices["carried"], b.vertex_count, b.carried);
    b.carried_positions = pod_from<Vec3>(read_block(vertices["positions"]), vertices["positions"]);
    if (b.carried_positions.size() != total)
        vertices["positions"].fail("expected the records of " + std::to_string(total) +
                                   " carried vertices");
    const uint64_t held = b.vertex_count - total;
    b.position_fingerprints = pod_from<uint32_t>(read_block(vertices["position_fingerprints"]),
                                                 vertices["position_fingerprints"]);
    if (b.position_fingerprints.size() != held)
        vertices["position_fingerprints"].fail("expected one per vertex the file holds (" +
                                               std::to_string(held) + ")");
    if (b.has_uvs) {
        b.carried_uvs =
            pod_from<PackedUv>(read_block(vertices["uv_records"]), vertices["uv_records"]);
        if (b.carried_uvs.size() != total)
            vertices["uv_records"].fail("expected the records of " + std::to_string(total) +
                                        " carried vertices");
        b.uv_fingerprints =
            pod_from<uint8_t>(read_block(vertices["uv_fingerprints"]), vertices["uv_fingerprints"]);
        if (b.uv_fingerprints.size() != held)
            vertices["uv_fingerprints"].fail("expected one per vertex the file holds (" +
                                             std::to_string(held) + ")");
    }

    if (doc.has("triangles")) {
        const JsonAt t = doc["triangles"];
        b.triangle_records = read_block(t["records"]);
        if (b.triangle_records.size() % kTriangleRecord != 0)
            t["records"].fail("expected 10-byte records");
        const JsonAt rows = t["stored_normals"]["rows"];
        for (size_t i = 0; i < rows.size(); ++i) {
            const JsonAt r = rows[i];
            expect_row(r, 2);
            std::array<int16_t, 3> n{};
            read_ints(r[1], n);
            const uint32_t record = r[0].as<uint32_t>();
            if (record >= b.triangle_records.size() / kTriangleRecord)
                r[0].fail("no triangle record " + std::to_string(record));
            b.stored_normals[record] = n;
        }
    }
    for (size_t i = 0; i < b.content.size(); ++i)
        if (b.content[i] == EntryContent::Triangles && !doc.has("triangles"))
            doc["container"]["entries"]["rows"][i].fail(
                "its content is in /triangles, which is missing");

    // The rules: every value follows unless listed.
    const JsonAt derived = doc["derived"];
    b.rules.slots.assign(b.slots.size(), SlotRule{false, true, true, true, true});
    const JsonAt slot_rules = derived["slots"]["rows"];
    for (size_t i = 0; i < slot_rules.size(); ++i) {
        const JsonAt r = slot_rules[i];
        expect_row(r, 5);
        const size_t s = r[0].as<uint32_t>();
        if (s >= b.slots.size()) r[0].fail("no slot " + std::to_string(s));
        // Listed: it draws (the import checks that against the structure anyway).
        b.rules.slots[s] = {true, r[1].as<bool>(), r[2].as<bool>(), r[3].as<bool>(),
                            r[4].as<bool>()};
    }
    HeaderRule& h = b.rules.header;
    h.sphere = h.capsule = true;
    if (derived.has("header")) {
        h.posed = true; // written for a posed model only
        const JsonAt dh = derived["header"];
        if (dh["hull"].is_null()) {
            h.hull_max.reset();
        } else {
            const std::string pattern = dh["hull"].as<std::string>();
            if (pattern.size() != 24 || pattern.find_first_not_of("mM") != std::string::npos)
                dh["hull"].fail("expected 24 letters m (minimum) or M (maximum), or null");
            h.hull_max.emplace();
            for (size_t k = 0; k < 24; ++k) (*h.hull_max)[k] = pattern[k] == 'M';
        }
        h.sphere = dh["sphere"].as<bool>();
        h.capsule = dh["capsule"].as<bool>();
    }
    const JsonAt kept = derived["triangle_normals_kept"];
    const size_t records = b.triangle_records.size() / kTriangleRecord;
    for (size_t i = 0; i < kept.size(); ++i) {
        const size_t t = kept[i].as<uint32_t>();
        if (t >= records) kept[i].fail("no triangle record " + std::to_string(t));
        if (b.rules.triangle_normals.size() <= t) b.rules.triangle_normals.resize(t + 1, true);
        b.rules.triangle_normals[t] = false;
    }

    std::vector<bool> is_block;
    for (const EntryContent c : b.content) is_block.push_back(c == EntryContent::Block);
    b.blocks = read_entry_blocks(doc["blocks"], b.directory, is_block);
    b.checks = read_checks(doc["checks"]);
    return b;
}

} // namespace msh::sidecar
