#include "msh.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace msh {

namespace {

std::string res(uint32_t type) {
    return "Res" + std::to_string(type);
}

struct Stride {
    ResType type;
    size_t stride;
};
// Fixed-stride resources whose attributes are (count, 0, stride) (msh.md §2, §11).
constexpr Stride kFixedStride[] = {
    {kPositions, 12},     {kNormals, 4},        {kUv0, 4},
    {kIndices, 2},        {kTriangles, 16},     {kBatches, 20},
    {kVertexStream15, 8}, {kVertexStream16, 8}, {kVertexStream18, 4},
};

// Reading context: the container entry of one resource and where its bytes sit in the image.
struct ResourceView {
    const nres::Entry* entry = nullptr;
    std::string label;
    uint64_t base = 0; // offset of the payload inside the model image
};

class ModelReader {
  public:
    ModelReader(Model& m, DiagnosticSink& sink, std::string where)
        : m_(m), sink_(sink), where_(std::move(where)) {}

    void run() {
        check_types();
        read_nodes();
        read_header_slots();
        read_fixed();
        read_keys_and_map();
        read_node_strings();
        read_path_graph();
        validate_model(m_, sink_, where_);
    }

  private:
    Model& m_;
    DiagnosticSink& sink_;
    std::string where_;

    ResourceView view(ResType t) {
        ResourceView v;
        auto i = m_.container.find_type(t);
        if (!i) return v;
        v.entry = &m_.container.entries[*i];
        v.label = where_ + ": " + res(t);
        v.base = v.entry->data_offset;
        return v;
    }
    void mark(ResType t) { m_.decoded_mask |= 1u << t; }

    // Size a multiple of `stride`, attr1 == count, attr3 == expected. Returns false if unusable.
    bool check_table(const ResourceView& v, size_t stride, uint32_t attr3) {
        const nres::Entry& e = *v.entry;
        bool ok = true;
        if (e.data.size() % stride != 0) {
            sink_.error(v.label, v.base,
                        "size " + std::to_string(e.data.size()) +
                            " is not a multiple of the record size " + std::to_string(stride));
            ok = false;
        } else if (e.attr1 != e.data.size() / stride) {
            sink_.error(v.label, v.base,
                        "attr1 = " + std::to_string(e.attr1) + " but the payload holds " +
                            std::to_string(e.data.size() / stride) + " records");
            ok = false;
        }
        if (e.attr3 != attr3) {
            sink_.error(v.label, v.base,
                        "attr3 = " + std::to_string(e.attr3) + ", expected " +
                            std::to_string(attr3));
            ok = false;
        }
        return ok;
    }

    void check_types() {
        const uint32_t required[] = {kNodes, kHeaderSlots, kPositions, kIndices, kBatches};
        for (uint32_t t : required)
            if (!m_.container.find_type(t))
                sink_.error(where_, 0, "required resource " + res(t) + " is missing");
        for (uint32_t t : {kNormals, kUv0, kTriangles, kNodeStrings})
            if (!m_.container.find_type(t))
                sink_.warn(where_, 0, "expected resource " + res(t) + " is missing");
        const auto& es = m_.container.entries;
        for (size_t i = 0; i < es.size(); ++i)
            for (size_t j = 0; j < i; ++j)
                if (es[i].type == es[j].type) {
                    sink_.strict_error(where_ + ": entry " + std::to_string(i), es[i].data_offset,
                                       "second resource of type " + std::to_string(es[i].type) +
                                           " (the first, entry " + std::to_string(j) +
                                           ", is used)");
                    break;
                }
    }

    void read_nodes() {
        ResourceView v = view(kNodes);
        if (!v.entry) return;
        const nres::Entry& e = *v.entry;
        if (e.attr3 == kLegacyNodeStride) {
            // Layout unknown (msh.md §3): copied through untouched, never interpreted.
            m_.legacy_nodes = true;
            if (e.data.size() % kLegacyNodeStride != 0 ||
                e.attr1 != e.data.size() / kLegacyNodeStride)
                sink_.error(v.label, v.base,
                            "legacy stride-24 table: size " + std::to_string(e.data.size()) +
                                " does not match attr1 = " + std::to_string(e.attr1));
            return;
        }
        if (e.attr3 != kNodeStride) {
            sink_.error(v.label, v.base,
                        "attr3 = " + std::to_string(e.attr3) + ", expected 38 (or 24)");
            return;
        }
        if (!check_table(v, kNodeStride, kNodeStride)) return;
        size_t n = e.data.size() / kNodeStride;
        if (n > 0xFFFF) {
            sink_.error(v.label, v.base, std::to_string(n) + " nodes exceed the u16 index range");
            return;
        }
        m_.nodes.resize(n);
        for (size_t i = 0; i < n; ++i) {
            const uint8_t* p = e.data.data() + i * kNodeStride;
            Node& node = m_.nodes[i];
            node.flags = load<uint16_t>(p);
            node.parent = load<uint16_t>(p + 2);
            node.map_start = load<uint16_t>(p + 4);
            node.fallback_key = load<uint16_t>(p + 6);
            for (int s = 0; s < kSlotWords; ++s)
                node.slots[size_t(s)] = load<uint16_t>(p + 8 + 2 * s);
        }
        mark(kNodes);
    }

    void read_header_slots() {
        ResourceView v = view(kHeaderSlots);
        if (!v.entry) return;
        const nres::Entry& e = *v.entry;
        size_t size = e.data.size();
        if (size < kHeaderSize || (size - kHeaderSize) % kSlotStride != 0) {
            sink_.error(v.label, v.base,
                        "size " + std::to_string(size) + " is not 0x8C + 68 * slotCount");
            return;
        }
        size_t count = (size - kHeaderSize) / kSlotStride;
        bool ok = true;
        if (e.attr1 != count) {
            sink_.error(v.label, v.base,
                        "attr1 = " + std::to_string(e.attr1) + " but the payload holds " +
                            std::to_string(count) + " slots");
            ok = false;
        }
        if (e.attr3 != kSlotStride) {
            sink_.error(v.label, v.base, "attr3 = " + std::to_string(e.attr3) + ", expected 68");
            ok = false;
        }
        if (e.attr2 != 0)
            sink_.warn(v.label, v.base, "attr2 = " + std::to_string(e.attr2) + ", expected 0");
        if (!ok) return;
        decode_header_slots(e.data, m_.header, m_.slots);
        mark(kHeaderSlots);
    }

    void read_fixed() {
        for (const Stride& st : kFixedStride) {
            ResourceView v = view(st.type);
            if (!v.entry) continue;
            if (v.entry->attr2 != 0)
                sink_.warn(v.label, v.base,
                           "attr2 = " + std::to_string(v.entry->attr2) + ", expected 0");
            if (!check_table(v, st.stride, uint32_t(st.stride))) continue;
            const ByteView d = v.entry->data;
            size_t n = d.size() / st.stride;
            switch (st.type) {
            case kPositions:
                m_.positions.resize(n);
                if (!d.empty()) std::memcpy(m_.positions.data(), d.data(), d.size());
                break;
            case kNormals:
                m_.normals.resize(n);
                if (!d.empty()) std::memcpy(m_.normals.data(), d.data(), d.size());
                break;
            case kUv0:
                m_.uvs.resize(n);
                if (!d.empty()) std::memcpy(m_.uvs.data(), d.data(), d.size());
                break;
            case kIndices:
                m_.indices.resize(n);
                if (!d.empty()) std::memcpy(m_.indices.data(), d.data(), d.size());
                break;
            case kTriangles:
                m_.triangles.resize(n);
                for (size_t i = 0; i < n; ++i) {
                    const uint8_t* p = d.data() + i * kTriStride;
                    TriDesc& t = m_.triangles[i];
                    t.flags = load<uint16_t>(p);
                    for (int k = 0; k < 3; ++k) {
                        t.link[size_t(k)] = load<uint16_t>(p + 2 + 2 * k);
                        t.normal[size_t(k)] = load<int16_t>(p + 8 + 2 * k);
                    }
                    t.selectors = load<uint16_t>(p + 14);
                }
                break;
            case kBatches:
                m_.batches.resize(n);
                for (size_t i = 0; i < n; ++i) {
                    const uint8_t* p = d.data() + i * kBatchStride;
                    Batch& b = m_.batches[i];
                    b.flags = load<uint16_t>(p);
                    b.material = load<uint16_t>(p + 2);
                    b.opaque4 = load<uint16_t>(p + 4);
                    b.opaque6 = load<uint16_t>(p + 6);
                    b.index_count = load<uint16_t>(p + 8);
                    b.index_start = load<uint32_t>(p + 10);
                    b.opaque14 = load<uint16_t>(p + 14);
                    b.base_vertex = load<uint32_t>(p + 16);
                }
                break;
            default:
                break; // 15, 16, 18: checked here, kept raw
            }
            if (st.type <= kBatches) mark(st.type);
        }
    }

    void read_keys_and_map() {
        ResourceView kv = view(kKeys), fv = view(kFrameMap);
        if (!kv.entry && !fv.entry) return;
        if (!kv.entry || !fv.entry) {
            sink_.error(where_, 0, "Res8 and Res19 must be present together");
            return;
        }
        if (m_.legacy_nodes) return; // animation rules do not apply to the stride-24 table
        bool ok = check_table(kv, 24, 4);
        if (kv.entry->attr2 != 0)
            sink_.warn(kv.label, kv.base,
                       "attr2 = " + std::to_string(kv.entry->attr2) + ", expected 0");
        ok = check_table(fv, 2, 2) && ok;
        if (!ok) return;
        const ByteView k = kv.entry->data;
        m_.animation.keys.resize(k.size() / 24);
        for (size_t i = 0; i < m_.animation.keys.size(); ++i) {
            const uint8_t* p = k.data() + i * 24;
            anim::Key& key = m_.animation.keys[i];
            std::memcpy(key.pos.data(), p, 12);
            key.time = load<float>(p + 12);
            std::memcpy(key.rot.data(), p + 16, 8);
        }
        const ByteView w = fv.entry->data;
        m_.animation.words.resize(w.size() / 2);
        if (!w.empty()) std::memcpy(m_.animation.words.data(), w.data(), w.size());
        m_.animation.frame_count = fv.entry->attr2;
        mark(kKeys);
        mark(kFrameMap);
    }

    void read_node_strings() {
        ResourceView v = view(kNodeStrings);
        if (!v.entry) return;
        const nres::Entry& e = *v.entry;
        size_t nodes = m_.node_count();
        bool ok = true;
        if (e.attr1 != nodes) {
            sink_.error(v.label, v.base,
                        "attr1 = " + std::to_string(e.attr1) + ", expected nodeCount " +
                            std::to_string(nodes));
            ok = false;
        }
        if (e.attr3 != 0) {
            sink_.error(v.label, v.base, "attr3 = " + std::to_string(e.attr3) + ", expected 0");
            ok = false;
        }
        std::vector<NodeString> out;
        size_t off = 0;
        const ByteView d = e.data;
        for (size_t i = 0; i < nodes; ++i) {
            if (!in_range(off, 4, d.size())) {
                sink_.error(v.label, v.base + off,
                            "record " + std::to_string(i) + " of " + std::to_string(nodes) +
                                " is cut off (no length field)");
                return;
            }
            uint32_t len = load<uint32_t>(d.data() + off);
            NodeString s;
            if (len > 0) {
                if (!in_range(off + 4, uint64_t(len) + 1, d.size())) {
                    sink_.error(v.label, v.base + off,
                                "record " + std::to_string(i) + " length " + std::to_string(len) +
                                    " runs past the end");
                    return;
                }
                if (d[off + 4 + len] != 0) {
                    sink_.error(v.label, v.base + off + 4 + len,
                                "record " + std::to_string(i) + " is not NUL-terminated");
                    return;
                }
                s.present = true;
                s.text.assign(reinterpret_cast<const char*>(d.data() + off + 4), len);
                off += 4 + size_t(len) + 1;
            } else {
                off += 4;
            }
            out.push_back(std::move(s));
        }
        if (off != d.size()) {
            sink_.error(v.label, v.base + off,
                        std::to_string(d.size() - off) +
                            " trailing bytes after the last node record");
            return;
        }
        if (!ok) return;
        m_.node_strings = std::move(out);
        mark(kNodeStrings);
    }

    void read_path_graph() {
        ResourceView v = view(kPathGraph);
        if (!v.entry) return;
        uint64_t expect = uint64_t(v.entry->attr1) * 20 + uint64_t(v.entry->attr2) * 40;
        if (expect != v.entry->data.size())
            sink_.warn(v.label, v.base,
                       "size " + std::to_string(v.entry->data.size()) +
                           " differs from 20*attr1 + 40*attr2 = " + std::to_string(expect));
    }
};

// Max index of a batch's Res6 slice, or -1 for an empty/out-of-range slice.
int64_t slice_max(const Model& m, const Batch& b) {
    if (!in_range(b.index_start, b.index_count, m.indices.size())) return -1;
    auto first = m.indices.begin() + b.index_start;
    auto last = first + b.index_count;
    return first == last ? -1 : int64_t(*std::max_element(first, last));
}

} // namespace

bool Model::has(ResType t) const {
    return (decoded_mask >> t) & 1u;
}

const nres::Entry* Model::entry(ResType t) const {
    auto i = container.find_type(t);
    return i ? &container.entries[*i] : nullptr;
}

size_t Model::node_count() const {
    if (!legacy_nodes) return nodes.size();
    const nres::Entry* e = entry(kNodes);
    return e ? e->attr1 : 0;
}

std::string Model::node_name(size_t node) const {
    if (node < node_strings.size() && node_strings[node].present &&
        !node_strings[node].text.empty())
        return node_strings[node].text;
    if (const nres::Entry* e = entry(kNodeNames32); e && e->data.size() == 32 * node_count()) {
        const char* p = reinterpret_cast<const char*>(e->data.data() + 32 * node);
        std::string s(p, strnlen(p, 32));
        if (!s.empty()) return s;
    }
    return "node_" + std::to_string(node);
}

const Slot* Model::find_slot(size_t node, int lod, int group) const {
    if (node >= nodes.size() || lod < 0 || lod >= kLods || group < 0 || group >= kGroups)
        return nullptr;
    uint16_t w = nodes[node].slot(lod, group);
    return w < slots.size() ? &slots[w] : nullptr;
}

void decode_header_slots(ByteView payload, ModelHeader& h, std::vector<Slot>& slots) {
    const uint8_t* p = payload.data();
    std::memcpy(h.hull.data(), p, 96);
    std::memcpy(h.sphere.data(), p + 0x60, 16);
    std::memcpy(h.capsule.data(), p + 0x70, 28);
    slots.resize((payload.size() - kHeaderSize) / kSlotStride);
    for (size_t i = 0; i < slots.size(); ++i) {
        const uint8_t* s = p + kHeaderSize + i * kSlotStride;
        Slot& slot = slots[i];
        slot.tri_start = load<uint16_t>(s);
        slot.tri_count = load<uint16_t>(s + 2);
        slot.batch_start = load<uint16_t>(s + 4);
        slot.batch_count = load<uint16_t>(s + 6);
        std::memcpy(slot.aabb_min.data(), s + 8, 12);
        std::memcpy(slot.aabb_max.data(), s + 20, 12);
        std::memcpy(slot.sphere.data(), s + 32, 16);
        std::memcpy(slot.tail.data(), s + 48, 20);
    }
}

Bytes encode_header_slots(const ModelHeader& h, const std::vector<Slot>& slots) {
    ByteWriter w;
    for (float f : h.hull) w.put(f);
    for (float f : h.sphere) w.put(f);
    for (float f : h.capsule) w.put(f);
    for (const Slot& s : slots) {
        w.put(s.tri_start);
        w.put(s.tri_count);
        w.put(s.batch_start);
        w.put(s.batch_count);
        for (float f : s.aabb_min) w.put(f);
        for (float f : s.aabb_max) w.put(f);
        for (float f : s.sphere) w.put(f);
        for (uint32_t u : s.tail) w.put(u);
    }
    return w.take();
}

float decode_normal_component(int8_t v) {
    return std::clamp(float(v) / 127.0f, -1.0f, 1.0f);
}
// Rounded in double: round(c * 127) of the spec, without a float product's extra rounding.
// A NaN (which readers refuse before it gets here) encodes as 0, never as a float -> int cast of
// a NaN.
int8_t encode_normal_component(float v) {
    if (std::isnan(v)) return 0;
    return int8_t(std::clamp(std::round(double(v) * 127.0), -128.0, 127.0));
}
float decode_uv(int16_t v) {
    return float(v) / 1024.0f;
}
int16_t encode_uv(float v) {
    if (std::isnan(v)) return 0;
    return int16_t(std::clamp(std::round(double(v) * 1024.0), -32768.0, 32767.0));
}
float decode_tri_normal(int16_t v) {
    return float(v) / 32767.0f;
}

namespace {

// One model's validation, stage by stage (the rule numbers are msh.md §10's invariants).
struct ModelCheck {
    const Model& m;
    DiagnosticSink& sink;
    const std::string& where;
    uint64_t base(ResType t) const {
        const nres::Entry* e = m.entry(t);
        return e ? e->data_offset : 0;
    }
};

// The per-vertex streams hold one record per position (rule 5).
void check_vertex_streams(const ModelCheck& c) {
    const Model& m = c.m;
    DiagnosticSink& sink = c.sink;
    const std::string& where = c.where;
    auto base = [&c](ResType t) { return c.base(t); };
    const size_t vcount = m.positions.size();
    if (m.has(kPositions)) {
        if (m.has(kNormals) && m.normals.size() != vcount)
            sink.error(where + ": Res4", base(kNormals),
                       std::to_string(m.normals.size()) + " normals for " + std::to_string(vcount) +
                           " positions");
        if (m.has(kUv0) && m.uvs.size() != vcount)
            sink.error(where + ": Res5", base(kUv0),
                       std::to_string(m.uvs.size()) + " UVs for " + std::to_string(vcount) +
                           " positions");
        for (auto [t, stride] :
             {std::pair{kVertexStream15, 8u}, {kVertexStream16, 8u}, {kVertexStream18, 4u}})
            if (const nres::Entry* e = m.entry(t);
                e && e->data.size() % stride == 0 && e->data.size() / stride != vcount)
                sink.warn(where + ": " + res(t), e->data_offset,
                          std::to_string(e->data.size() / stride) + " records for " +
                              std::to_string(vcount) + " vertices");
    }
}

// Positions, bounds and keys are finite.
void check_finite_values(const ModelCheck& c) {
    const Model& m = c.m;
    DiagnosticSink& sink = c.sink;
    const std::string& where = c.where;
    auto base = [&c](ResType t) { return c.base(t); };
    // Every float the engine computes with must be finite: a NaN or infinity in a position, a
    // bound or a key is an error for the strict reader (a warning for the tolerant one).
    // `what` names the values; a callable, so that the name is built only for a report (a
    // string per vertex was a tenth of a model's whole export).
    auto all_finite = [&](ResType t, uint64_t offset, const float* values, size_t n,
                          const auto& what) {
        for (size_t k = 0; k < n; ++k)
            if (!std::isfinite(values[k])) {
                sink.strict_error(where + ": " + res(t), base(t) + offset + 4 * k,
                                  std::string(what()) + " is not finite (NaN or infinity)");
                return false;
            }
        return true;
    };
    for (size_t i = 0; i < m.positions.size(); ++i) {
        const auto vertex = [i] { return "vertex " + std::to_string(i); };
        if (!all_finite(kPositions, 12 * i, &m.positions[i].x, 1, vertex) ||
            !all_finite(kPositions, 12 * i + 4, &m.positions[i].y, 1, vertex) ||
            !all_finite(kPositions, 12 * i + 8, &m.positions[i].z, 1, vertex))
            break; // one report per resource
    }
    if (m.has(kHeaderSlots) &&
        all_finite(kHeaderSlots, 0, m.header.hull.data(), m.header.hull.size(),
                   [] { return "the hull"; }) &&
        all_finite(kHeaderSlots, 96, m.header.sphere.data(), m.header.sphere.size(),
                   [] { return "the bounding sphere"; }) &&
        all_finite(kHeaderSlots, 112, m.header.capsule.data(), m.header.capsule.size(),
                   [] { return "the capsule"; }))
        for (size_t i = 0; i < m.slots.size(); ++i) {
            const Slot& s = m.slots[i];
            const uint64_t at = kHeaderSize + kSlotStride * i + 8;
            const auto slot = [i](const char* part) {
                return [i, part] { return "slot " + std::to_string(i) + part; };
            };
            if (!all_finite(kHeaderSlots, at, s.aabb_min.data(), 3, slot(" AABB")) ||
                !all_finite(kHeaderSlots, at + 12, s.aabb_max.data(), 3, slot(" AABB")) ||
                !all_finite(kHeaderSlots, at + 24, s.sphere.data(), 4, slot(" sphere")))
                break;
        }
    for (size_t i = 0; i < m.animation.keys.size(); ++i) {
        const anim::Key& k = m.animation.keys[i];
        const auto key = [i](const char* part) {
            return [i, part] { return "key " + std::to_string(i) + part; };
        };
        if (!all_finite(kKeys, 24 * i, k.pos.data(), 3, key(" position")) ||
            !all_finite(kKeys, 24 * i + 12, &k.time, 1, key(" time")))
            break;
    }
}

// Batches: whole triangles, index ranges inside Res6 and vertices inside the positions (rules 9,
// 10).
void check_batches(const ModelCheck& c) {
    const Model& m = c.m;
    DiagnosticSink& sink = c.sink;
    const std::string& where = c.where;
    auto base = [&c](ResType t) { return c.base(t); };
    if (m.has(kBatches)) {
        for (size_t i = 0; i < m.batches.size(); ++i) {
            const Batch& b = m.batches[i];
            uint64_t at = base(kBatches) + i * kBatchStride;
            std::string label = where + ": Res13 batch " + std::to_string(i);
            if (b.index_count % 3 != 0)
                sink.error(label, at + 8,
                           "indexCount " + std::to_string(b.index_count) +
                               " is not a multiple of 3");
            if (!m.has(kIndices)) continue;
            if (!in_range(b.index_start, b.index_count, m.indices.size())) {
                sink.error(label, at + 10,
                           "index range [" + std::to_string(b.index_start) + ", +" +
                               std::to_string(b.index_count) + ") exceeds Res6 (" +
                               std::to_string(m.indices.size()) + " indices)");
                continue;
            }
            int64_t mx = slice_max(m, b);
            if (m.has(kPositions) && mx >= 0 &&
                uint64_t(b.base_vertex) + uint64_t(mx) >= m.positions.size())
                sink.error(label, at + 16,
                           "baseVertex " + std::to_string(b.base_vertex) + " + index " +
                               std::to_string(mx) + " exceeds the " +
                               std::to_string(m.positions.size()) + " vertices");
        }
    }
}

// Slots: batch and triangle ranges, triangle counts, bounds (rules 7, 8, 14).
void check_slots(const ModelCheck& c) {
    const Model& m = c.m;
    DiagnosticSink& sink = c.sink;
    const std::string& where = c.where;
    auto base = [&c](ResType t) { return c.base(t); };
    if (m.has(kHeaderSlots)) {
        for (size_t i = 0; i < m.slots.size(); ++i) {
            const Slot& s = m.slots[i];
            uint64_t at = base(kHeaderSlots) + kHeaderSize + i * kSlotStride;
            std::string label = where + ": Res2 slot " + std::to_string(i);
            if (m.has(kBatches) && size_t(s.batch_start) + s.batch_count > m.batches.size()) {
                sink.error(label, at + 4,
                           "batch range [" + std::to_string(s.batch_start) + ", +" +
                               std::to_string(s.batch_count) + ") exceeds Res13 (" +
                               std::to_string(m.batches.size()) + " batches)");
            } else if (m.has(kBatches)) {
                uint64_t tris = 0;
                for (size_t b = s.batch_start; b < size_t(s.batch_start) + s.batch_count; ++b)
                    tris += m.batches[b].index_count / 3;
                if (tris != s.tri_count)
                    sink.warn(label, at + 2,
                              "triCount " + std::to_string(s.tri_count) + " but its batches hold " +
                                  std::to_string(tris) + " triangles");
            }
            if (m.has(kTriangles) && size_t(s.tri_start) + s.tri_count > m.triangles.size())
                sink.error(label, at,
                           "triangle range [" + std::to_string(s.tri_start) + ", +" +
                               std::to_string(s.tri_count) + ") exceeds Res7 (" +
                               std::to_string(m.triangles.size()) + " descriptors)");
            bool finite = true;
            for (int k = 0; k < 3; ++k)
                finite = finite && std::isfinite(s.aabb_min[size_t(k)]) &&
                         std::isfinite(s.aabb_max[size_t(k)]);
            if (!finite)
                sink.warn(label, at + 8, "slot AABB is not finite");
            else if (s.tri_count > 0)
                for (int k = 0; k < 3; ++k)
                    if (s.aabb_min[size_t(k)] > s.aabb_max[size_t(k)]) {
                        sink.warn(label, at + 8,
                                  "slot AABB min > max on axis " + std::to_string(k));
                        break;
                    }
            if (!std::isfinite(s.sphere[3]) || s.sphere[3] < 0)
                sink.warn(label, at + 44, "slot sphere radius is negative or not finite");
        }
    }
}

// Triangle links name descriptors that exist (rule 11).
void check_triangle_links(const ModelCheck& c) {
    const Model& m = c.m;
    DiagnosticSink& sink = c.sink;
    const std::string& where = c.where;
    auto base = [&c](ResType t) { return c.base(t); };
    if (m.has(kTriangles))
        for (size_t i = 0; i < m.triangles.size(); ++i)
            for (int k = 0; k < 3; ++k) {
                uint16_t l = m.triangles[i].link[size_t(k)];
                if (l != kNone && l >= m.triangles.size()) {
                    sink.error(where + ": Res7 triangle " + std::to_string(i),
                               base(kTriangles) + i * kTriStride + 2 + 2 * k,
                               "linkTri" + std::to_string(k) + " = " + std::to_string(l) +
                                   " exceeds the " + std::to_string(m.triangles.size()) +
                                   " descriptors");
                }
            }
}

// Node slot words and the parent hierarchy, without cycles (rules 6, 13).
void check_nodes(const ModelCheck& c) {
    const Model& m = c.m;
    DiagnosticSink& sink = c.sink;
    const std::string& where = c.where;
    auto base = [&c](ResType t) { return c.base(t); };
    size_t n = m.nodes.size();
    for (size_t i = 0; i < n; ++i) {
        const Node& node = m.nodes[i];
        uint64_t at = base(kNodes) + i * kNodeStride;
        std::string label = where + ": Res1 node " + std::to_string(i);
        if (m.has(kHeaderSlots))
            for (int s = 0; s < kSlotWords; ++s) {
                uint16_t w = node.slots[size_t(s)];
                if (w != kNone && w >= m.slots.size())
                    sink.error(label, at + 8 + 2 * s,
                               "slot word " + std::to_string(s) + " = " + std::to_string(w) +
                                   " exceeds the " + std::to_string(m.slots.size()) + " slots");
            }
        if (node.parent != kNone) {
            if (node.parent >= n)
                sink.error(label, at + 2,
                           "parent " + std::to_string(node.parent) + " exceeds the " +
                               std::to_string(n) + " nodes");
            else if (node.parent >= i)
                sink.warn(label, at + 2,
                          "parent " + std::to_string(node.parent) + " is not before its child");
        }
    }
    // Cycle check: walk up at most n steps from every node.
    for (size_t i = 0; i < n; ++i) {
        size_t cur = i, steps = 0;
        while (cur < n && m.nodes[cur].parent != kNone && steps <= n) {
            cur = m.nodes[cur].parent;
            ++steps;
        }
        if (steps > n) {
            sink.error(where + ": Res1 node " + std::to_string(i),
                       base(kNodes) + i * kNodeStride + 2, "parent chain contains a cycle");
            break;
        }
    }
}

// The animation against the nodes (rule 15).
void check_animation(const ModelCheck& c) {
    const Model& m = c.m;
    DiagnosticSink& sink = c.sink;
    const std::string& where = c.where;
    if (m.has(kKeys) && m.has(kFrameMap)) {
        const size_t n = m.nodes.size();
        std::vector<anim::NodeFields> fields(n);
        for (size_t i = 0; i < n; ++i) fields[i] = {m.nodes[i].map_start, m.nodes[i].fallback_key};
        anim::validate(m.animation, fields, sink, where);
    }
}

} // namespace

void validate_model(const Model& m, DiagnosticSink& sink, const std::string& where) {
    const ModelCheck check{m, sink, where};
    check_vertex_streams(check);
    check_finite_values(check);
    check_batches(check);
    check_slots(check);
    check_triangle_links(check);
    if (m.has(kNodes)) {
        check_nodes(check);
        check_animation(check);
    }
    validate_res20(m, sink, where);
}

void validate_res20(const Model& m, DiagnosticSink& sink, const std::string& where) {
    const nres::Entry* e = m.entry(kTable20);
    if (!e || m.legacy_nodes || e->data.size() % kRes20Stride != 0) return; // another layout
    const size_t n = m.nodes.size();
    size_t bad = 0;
    for (size_t r = 0; r * kRes20Stride < e->data.size(); ++r) {
        const int32_t node = load<int32_t>(e->data.data() + r * kRes20Stride);
        if (node >= 0 && size_t(node) < n) continue;
        if (bad++ == 0)
            sink.warn(where + ": Res20 record " + std::to_string(r),
                      e->data_offset + r * kRes20Stride,
                      "node index " + std::to_string(node) + " is not below the " +
                          std::to_string(n) + " nodes (msh.md §7, unverified layout)");
    }
    if (bad > 1)
        sink.warn(where + ": Res20", e->data_offset,
                  std::to_string(bad - 1) + " more records with node indices out of range");
}

Model read_model(ByteView bytes, DiagnosticSink& sink, const std::string& where,
                 const std::shared_ptr<const void>& keeper) {
    Model m;
    m.container = nres::read(bytes, sink, where, keeper);
    ModelReader(m, sink, where).run();
    return m;
}

Model read_model(ByteView bytes, ReadMode mode, const std::string& where,
                 const std::shared_ptr<const void>& keeper) {
    DiagnosticSink sink(mode);
    Model m = read_model(bytes, sink, where, keeper);
    if (mode == ReadMode::Strict) sink.throw_if_errors();
    return m;
}

namespace {

Bytes encode(const Model& m, ResType t) {
    ByteWriter w;
    switch (t) {
    case kNodes:
        for (const Node& n : m.nodes) {
            w.put(n.flags);
            w.put(n.parent);
            w.put(n.map_start);
            w.put(n.fallback_key);
            for (uint16_t s : n.slots) w.put(s);
        }
        break;
    case kHeaderSlots:
        return encode_header_slots(m.header, m.slots);
    case kPositions:
        return pod_bytes(m.positions);
    case kNormals:
        return pod_bytes(m.normals);
    case kUv0:
        return pod_bytes(m.uvs);
    case kIndices:
        return pod_bytes(m.indices);
    case kTriangles:
        for (const TriDesc& d : m.triangles) {
            w.put(d.flags);
            for (uint16_t l : d.link) w.put(l);
            for (int16_t c : d.normal) w.put(c);
            w.put(d.selectors);
        }
        break;
    case kBatches:
        for (const Batch& b : m.batches) {
            w.put(b.flags);
            w.put(b.material);
            w.put(b.opaque4);
            w.put(b.opaque6);
            w.put(b.index_count);
            w.put(b.index_start);
            w.put(b.opaque14);
            w.put(b.base_vertex);
        }
        break;
    case kKeys:
        for (const anim::Key& k : m.animation.keys) {
            for (float f : k.pos) w.put(f);
            w.put(k.time);
            for (int16_t q : k.rot) w.put(q);
        }
        break;
    case kFrameMap:
        return pod_bytes(m.animation.words);
    case kNodeStrings:
        for (const NodeString& s : m.node_strings) {
            if (!s.present || s.text.empty()) {
                w.put(uint32_t(0));
                continue;
            }
            w.put(uint32_t(s.text.size()));
            w.put_bytes(ByteView(reinterpret_cast<const uint8_t*>(s.text.data()), s.text.size()));
            w.put(uint8_t(0));
        }
        break;
    default:
        break;
    }
    return w.take();
}

// Attributes derived from the payload (msh.md §11). A decoded resource passed the same checks on
// read, so recomputing them is lossless; attr2 is kept as read (new entries start at 0), except
// Res19's, which is the frame count.
void set_attributes(const Model& m, ResType t, nres::Entry& e) {
    size_t size = e.data.size();
    switch (t) {
    case kNodes:
        e.attr1 = uint32_t(m.nodes.size());
        e.attr3 = uint32_t(kNodeStride);
        break;
    case kHeaderSlots:
        e.attr1 = uint32_t(m.slots.size());
        e.attr3 = uint32_t(kSlotStride);
        break;
    case kKeys:
        e.attr1 = uint32_t(size / 24);
        e.attr3 = 4;
        break;
    case kFrameMap:
        e.attr1 = uint32_t(size / 2);
        e.attr2 = m.animation.frame_count;
        e.attr3 = 2;
        break;
    case kNodeStrings:
        e.attr1 = uint32_t(m.node_strings.size());
        e.attr3 = 0;
        break;
    default:
        for (const Stride& st : kFixedStride)
            if (st.type == t) {
                e.attr1 = uint32_t(size / st.stride);
                e.attr3 = uint32_t(st.stride);
            }
    }
}

} // namespace

void sync_container(Model& m) {
    for (nres::Entry& e : m.container.entries) {
        if (e.type > 31 || !m.has(ResType(e.type))) continue;
        // Only the first entry of a type is interpreted; duplicates stay raw.
        if (&e != m.entry(ResType(e.type))) continue;
        ResType t = ResType(e.type);
        e.data = encode(m, t);
        set_attributes(m, t, e);
    }
}

void assemble_new_model(Model& m, std::vector<RawResource> raw, uint32_t res1_attr2) {
    struct Place {
        uint32_t type;
        const char* name;
        bool typed;
    };
    static constexpr Place kOrder[] = {
        {kNodes, "NODES", true},
        {kHeaderSlots, "SLOTS", true},
        {kPositions, "VERTS", true},
        {kNormals, "NORMALS", true},
        {kUv0, "UV0", true},
        {kVertexStream18, "VSTREAM18", false},
        {kVertexStream15, "VSTREAM15", false},
        {kVertexStream16, "VSTREAM16", false},
        {kBatches, "BATCHES", true},
        {kIndices, "INDICES", true},
        {kTriangles, "TRIS", true},
        {kKeys, "KEYS", true},
        {kFrameMap, "FRAMEMAP", true},
        {kNodeNames32, "NAMES32", false},
        {kNodeStrings, "NODESTR", true},
        {kPathGraph, "PATHS", false},
        {kTable20, "TABLE20", false},
    };
    m.container = nres::Archive{};
    m.decoded_mask = 0;
    auto take_raw = [&](uint32_t type) -> std::optional<RawResource> {
        for (auto it = raw.begin(); it != raw.end(); ++it)
            if (it->type == type) {
                RawResource r = std::move(*it);
                raw.erase(it);
                return r;
            }
        return std::nullopt;
    };
    auto push = [&](uint32_t type, const std::string& name, RawResource r) {
        nres::Entry e;
        e.type = type;
        e.set_name(name);
        e.data = std::move(r.data);
        e.attr1 = r.attr1;
        e.attr2 = r.attr2;
        e.attr3 = r.attr3;
        m.container.entries.push_back(std::move(e));
    };
    for (const Place& s : kOrder) {
        if (auto r = take_raw(s.type)) {
            push(s.type, s.name, std::move(*r));
        } else if (s.typed) {
            push(s.type, s.name, {s.type, {}, 0, s.type == kNodes ? res1_attr2 : 0, 0});
            m.decoded_mask |= 1u << s.type;
        }
    }
    for (RawResource& r : raw) push(r.type, "RES" + std::to_string(r.type), std::move(r));
    m.legacy_nodes = !m.has(kNodes);
    sync_container(m);
}

Bytes encode_resource(const Model& model, ResType type) {
    return encode(model, type);
}

Bytes write_model(const Model& model) {
    Model copy = model;
    sync_container(copy);
    return nres::write(copy.container);
}

} // namespace msh
