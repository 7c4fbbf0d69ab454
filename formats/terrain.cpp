#include "terrain.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace msh::terrain {

namespace {

std::string type_label(uint32_t t) {
    return "type " + std::to_string(t);
}

struct Stride {
    Type type;
    size_t stride;
};
// Fixed-stride entries whose attributes are (count, 0, stride) (terrain.md §2).
constexpr Stride kFixed[] = {
    {kPositions, 12}, {kNormals, 4},        {kUv1, 4}, {kUv2, 4}, {kWeights, 4},
    {kCellPairs, 4},  {kFaces, kFaceStride}};

// Required types in loader order (terrain.md §2): 3, 4, 5, 18, (14), 21, 2, 1, 11.
constexpr uint32_t kRequired[] = {3, 4, 5, 18, 21, 2, 1, 11};

// Caps per-record reports so a broken table gives a readable list, then a summary.
class Limiter {
  public:
    explicit Limiter(size_t cap = 20) : cap_(cap) {}
    bool take() { return count_++ < cap_; }
    size_t dropped() const { return count_ > cap_ ? count_ - cap_ : 0; }

  private:
    size_t cap_;
    size_t count_ = 0;
};

Bytes encode_nodes(const std::vector<Node>& nodes) {
    Bytes b(nodes.size() * kNodeStride);
    for (size_t i = 0; i < nodes.size(); ++i)
        std::memcpy(b.data() + i * kNodeStride, nodes[i].words.data(), kNodeStride);
    return b;
}

Bytes encode_faces(const std::vector<Face>& faces) {
    Bytes b(faces.size() * kFaceStride);
    for (size_t i = 0; i < faces.size(); ++i) {
        uint8_t* p = b.data() + i * kFaceStride;
        const Face& f = faces[i];
        store(p, f.flags);
        p[4] = f.material;
        p[5] = f.aux;
        store(p + 6, f.unk06);
        for (int k = 0; k < 3; ++k) {
            store(p + 8 + 2 * k, f.v[size_t(k)]);
            store(p + 14 + 2 * k, f.n[size_t(k)]);
            store(p + 20 + 2 * k, f.normal[size_t(k)]);
        }
        p[26] = f.edge_class;
        p[27] = f.unk27;
    }
    return b;
}

template <class T> Bytes encode_pod(const std::vector<T>& v) {
    Bytes b(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

// Payload bytes and count of a decoded view.
struct Encoded {
    Bytes data;
    uint32_t count = 0;
    uint32_t stride = 0;
};

std::optional<Encoded> encode(const Terrain& t, Type type) {
    switch (type) {
    case kNodes:
        return Encoded{encode_nodes(t.nodes), uint32_t(t.nodes.size()), uint32_t(kNodeStride)};
    case kHeaderSlots:
        return Encoded{encode_header_slots(t.header, t.slots), uint32_t(t.slots.size()),
                       uint32_t(kSlotStride)};
    case kPositions:
        return Encoded{encode_pod(t.positions), uint32_t(t.positions.size()), 12};
    case kNormals:
        return Encoded{encode_pod(t.normals), uint32_t(t.normals.size()), 4};
    case kUv1:
        return Encoded{encode_pod(t.uv1), uint32_t(t.uv1.size()), 4};
    case kUv2:
        return Encoded{encode_pod(t.uv2), uint32_t(t.uv2.size()), 4};
    case kWeights:
        return Encoded{encode_pod(t.weights), uint32_t(t.weights.size()), 4};
    case kCellPairs:
        return Encoded{encode_pod(t.cell_pairs), uint32_t(t.cell_pairs.size()), 4};
    case kFaces:
        return Encoded{encode_faces(t.faces), uint32_t(t.faces.size()), uint32_t(kFaceStride)};
    }
    return std::nullopt;
}

static_assert(sizeof(Vec3) == 12 && sizeof(PackedNormal) == 4 && sizeof(PackedUv) == 4 &&
              sizeof(CellPair) == 4);

class Reader {
  public:
    Reader(Terrain& t, DiagnosticSink& sink, std::string where)
        : t_(t), sink_(sink), where_(std::move(where)) {}

    void run() {
        check_types();
        read_nodes();
        read_header_slots();
        read_fixed();
        validate(t_, sink_, where_);
    }

  private:
    Terrain& t_;
    DiagnosticSink& sink_;
    std::string where_;

    std::string label(uint32_t type) const { return where_ + ": " + type_label(type); }
    const nres::Entry* entry(uint32_t type) const {
        auto i = t_.container.find_type(type);
        return i ? &t_.container.entries[*i] : nullptr;
    }
    void mark(Type type) { t_.decoded_mask |= 1u << type; }

    void check_types() {
        for (uint32_t type : kRequired) {
            if (entry(type)) continue;
            if (type == kUv2)
                sink_.strict_error(
                    where_, 0, "Unable to find microtexture mapping chunk (type 18 is missing)");
            else
                sink_.strict_error(
                    where_, 0, "Unable to open file: required " + type_label(type) + " is missing");
        }
        const auto& es = t_.container.entries;
        for (size_t i = 0; i < es.size(); ++i) {
            bool known = std::any_of(std::begin(kPhysicalOrder), std::end(kPhysicalOrder),
                                     [&](uint32_t k) { return k == es[i].type; });
            if (!known)
                sink_.warn(where_ + ": entry " + std::to_string(i), es[i].data_offset,
                           "unknown " + type_label(es[i].type) + " (kept raw)");
            for (size_t j = 0; j < i; ++j)
                if (es[i].type == es[j].type) {
                    sink_.strict_error(where_ + ": entry " + std::to_string(i), es[i].data_offset,
                                       "second entry of " + type_label(es[i].type) +
                                           " (the first, entry " + std::to_string(j) +
                                           ", is used)");
                    break;
                }
        }
    }

    // Size divisible by `stride`, attr1 == count, attr3 == stride; false leaves the entry raw.
    bool check_table(uint32_t type, const nres::Entry& e, size_t stride) {
        bool ok = true;
        if (e.data.size() % stride != 0) {
            sink_.error(label(type), e.data_offset,
                        "size " + std::to_string(e.data.size()) +
                            " is not a multiple of the record size " + std::to_string(stride) +
                            " (kept raw)");
            return false;
        }
        size_t count = e.data.size() / stride;
        if (e.attr1 != count) {
            sink_.error(label(type), e.data_offset,
                        "attr1 = " + std::to_string(e.attr1) + " but the payload holds " +
                            std::to_string(count) + " records (kept raw)");
            ok = false;
        }
        if (e.attr3 != stride) {
            sink_.strict_error(label(type), e.data_offset,
                               "attr3 = " + std::to_string(e.attr3) + ", expected the stride " +
                                   std::to_string(stride) + " (kept raw)");
            ok = false;
        }
        if (type != kNodes && e.attr2 != 0)
            sink_.warn(label(type), e.data_offset,
                       "attr2 = " + std::to_string(e.attr2) + ", expected 0 (kept)");
        return ok;
    }

    void read_nodes() {
        const nres::Entry* e = entry(kNodes);
        if (!e || !check_table(kNodes, *e, kNodeStride)) return;
        size_t n = e->data.size() / kNodeStride;
        t_.nodes.resize(n);
        for (size_t i = 0; i < n; ++i)
            std::memcpy(t_.nodes[i].words.data(), e->data.data() + i * kNodeStride, kNodeStride);
        mark(kNodes);
    }

    void read_header_slots() {
        const nres::Entry* e = entry(kHeaderSlots);
        if (!e) return;
        size_t size = e->data.size();
        if (size < kHeaderSize || (size - kHeaderSize) % kSlotStride != 0) {
            sink_.error(label(kHeaderSlots), e->data_offset,
                        "size " + std::to_string(size) +
                            " is not 0x8C + 68 * slotCount (kept raw)");
            return;
        }
        size_t count = (size - kHeaderSize) / kSlotStride;
        bool ok = true;
        if (e->attr1 != count) {
            sink_.error(label(kHeaderSlots), e->data_offset,
                        "attr1 = " + std::to_string(e->attr1) + " but the payload holds " +
                            std::to_string(count) + " slots (kept raw)");
            ok = false;
        }
        if (e->attr3 != kSlotStride) {
            sink_.strict_error(label(kHeaderSlots), e->data_offset,
                               "attr3 = " + std::to_string(e->attr3) + ", expected 68 (kept raw)");
            ok = false;
        }
        if (e->attr2 != 0)
            sink_.warn(label(kHeaderSlots), e->data_offset,
                       "attr2 = " + std::to_string(e->attr2) + ", expected 0 (kept)");
        if (!ok) return;
        decode_header_slots(e->data, t_.header, t_.slots);
        mark(kHeaderSlots);
    }

    template <class T> void copy_pod(const nres::Entry& e, std::vector<T>& out) {
        out.resize(e.data.size() / sizeof(T));
        if (!out.empty()) std::memcpy(out.data(), e.data.data(), e.data.size());
    }

    void read_fixed() {
        for (const Stride& st : kFixed) {
            const nres::Entry* e = entry(st.type);
            if (!e || !check_table(st.type, *e, st.stride)) continue;
            switch (st.type) {
            case kPositions:
                copy_pod(*e, t_.positions);
                break;
            case kNormals:
                copy_pod(*e, t_.normals);
                break;
            case kUv1:
                copy_pod(*e, t_.uv1);
                break;
            case kUv2:
                copy_pod(*e, t_.uv2);
                break;
            case kWeights:
                copy_pod(*e, t_.weights);
                break;
            case kCellPairs:
                copy_pod(*e, t_.cell_pairs);
                break;
            case kFaces: {
                size_t n = e->data.size() / kFaceStride;
                t_.faces.resize(n);
                for (size_t i = 0; i < n; ++i) {
                    const uint8_t* p = e->data.data() + i * kFaceStride;
                    Face& f = t_.faces[i];
                    f.flags = load<uint32_t>(p);
                    f.material = p[4];
                    f.aux = p[5];
                    f.unk06 = load<uint16_t>(p + 6);
                    for (size_t k = 0; k < 3; ++k) {
                        f.v[k] = load<uint16_t>(p + 8 + 2 * k);
                        f.n[k] = load<uint16_t>(p + 14 + 2 * k);
                        f.normal[k] = load<int16_t>(p + 20 + 2 * k);
                    }
                    f.edge_class = p[26];
                    f.unk27 = p[27];
                }
                break;
            }
            default:
                break;
            }
            mark(st.type);
        }
    }
};

} // namespace

const nres::Entry* Terrain::entry(Type t) const {
    auto i = container.find_type(t);
    return i ? &container.entries[*i] : nullptr;
}

float decode_uv_fixed88(int16_t v) {
    return float(uint16_t(v)) / 256.0f;
}
float decode_face_normal(int16_t v) {
    return float(v) / 32767.0f;
}
int16_t encode_face_normal(float f) {
    double r = std::round(double(f) * 32767.0);
    return int16_t(std::clamp(r, -32768.0, 32767.0));
}
float weight_value(uint32_t raw) {
    float f;
    std::memcpy(&f, &raw, 4);
    return f;
}
uint32_t weight_raw(float w) {
    uint32_t r;
    std::memcpy(&r, &w, 4);
    return r;
}

bool face_usable(const Terrain& t, size_t face) {
    if (face >= t.faces.size()) return false;
    const Face& f = t.faces[face];
    for (size_t k = 0; k < 3; ++k) {
        if (f.v[k] >= t.positions.size()) return false;
        if (f.n[k] != kNone && f.n[k] >= t.faces.size()) return false;
    }
    return true;
}

void validate(const Terrain& t, DiagnosticSink& sink, const std::string& where) {
    const bool strict = sink.mode() == ReadMode::Strict;
    auto label = [&](uint32_t type) { return where + ": " + type_label(type); };
    auto base = [&](Type type) -> uint64_t {
        const nres::Entry* e = t.entry(type);
        return e ? e->data_offset : 0;
    };

    // Per-vertex stream counts.
    if (t.has(kPositions)) {
        size_t nv = t.positions.size();
        auto count_check = [&](Type type, size_t n, bool hard) {
            if (!t.has(type) || n == nv) return;
            std::string msg = "holds " + std::to_string(n) + " records but type 3 holds " +
                              std::to_string(nv) + " vertices";
            if (hard)
                sink.error(label(type), base(type), msg);
            else
                sink.warn(label(type), base(type), msg);
        };
        count_check(kNormals, t.normals.size(), true);
        count_check(kUv1, t.uv1.size(), true);
        count_check(kUv2, t.uv2.size(), false);
        count_check(kWeights, t.weights.size(), false);
    }

    // Faces: indices, neighbours, mutuality, degeneracy, vertex use.
    if (t.has(kFaces)) {
        const size_t nf = t.faces.size();
        const uint64_t fb = base(kFaces);
        // Slots address faces through type-11 keys, so nothing else notices an empty table.
        if (nf == 0) sink.error(label(kFaces), fb, "holds no faces: a terrain needs at least one");
        Limiter bad_vertex, bad_neighbour, not_mutual, degenerate;
        std::vector<uint8_t> used(t.has(kPositions) ? t.positions.size() : 0, 0);
        for (size_t i = 0; i < nf; ++i) {
            const Face& f = t.faces[i];
            const uint64_t off = fb + i * kFaceStride;
            if (t.has(kPositions)) {
                for (size_t k = 0; k < 3; ++k) {
                    if (f.v[k] >= t.positions.size()) {
                        if (bad_vertex.take()) // the face is skipped (face_usable)
                            sink.strict_error(label(kFaces), off + 8 + 2 * k,
                                              "face " + std::to_string(i) + ": vertex index i" +
                                                  std::to_string(k) + " = " +
                                                  std::to_string(f.v[k]) +
                                                  " is not below the vertex count " +
                                                  std::to_string(t.positions.size()));
                    } else {
                        used[f.v[k]] = 1;
                    }
                }
            }
            for (size_t k = 0; k < 3; ++k) {
                uint16_t g = f.n[k];
                if (g == kNone) continue;
                if (g >= nf) {
                    if (bad_neighbour.take())
                        sink.strict_error(label(kFaces), off + 14 + 2 * k,
                                          "face " + std::to_string(i) + ": neighbour n" +
                                              std::to_string(k) + " = " + std::to_string(g) +
                                              " is neither 0xFFFF nor below the face count " +
                                              std::to_string(nf));
                    continue;
                }
                if (strict) {
                    const Face& o = t.faces[g];
                    if (o.n[0] != i && o.n[1] != i && o.n[2] != i && not_mutual.take())
                        sink.warn(label(kFaces), off + 14 + 2 * k,
                                  "face " + std::to_string(i) + ": neighbour n" +
                                      std::to_string(k) + " = " + std::to_string(g) +
                                      " is not mutual (face " + std::to_string(g) +
                                      " does not list face " + std::to_string(i) + ")");
                }
            }
            if (strict && (f.v[0] == f.v[1] || f.v[1] == f.v[2] || f.v[0] == f.v[2]) &&
                degenerate.take())
                sink.warn(label(kFaces), off + 8,
                          "face " + std::to_string(i) + " is degenerate (repeated vertex)");
        }
        if (bad_vertex.dropped())
            sink.strict_error(label(kFaces), fb,
                              std::to_string(bad_vertex.dropped()) + " more bad vertex indices");
        if (bad_neighbour.dropped())
            sink.strict_error(label(kFaces), fb,
                              std::to_string(bad_neighbour.dropped()) +
                                  " more bad neighbour indices");
        if (not_mutual.dropped())
            sink.warn(label(kFaces), fb,
                      std::to_string(not_mutual.dropped()) + " more non-mutual neighbours");
        if (degenerate.dropped())
            sink.warn(label(kFaces), fb,
                      std::to_string(degenerate.dropped()) + " more degenerate faces");
        if (strict && t.has(kPositions)) {
            size_t unused = size_t(std::count(used.begin(), used.end(), uint8_t(0)));
            if (unused)
                sink.warn(label(kPositions), base(kPositions),
                          std::to_string(unused) + " vertices are used by no face");
        }
    }

    // Slots: ranges of type-11 pairs (the loader's reading, terrain.md §2); the type-11 and
    // type-21 counts may differ.
    if (t.has(kHeaderSlots) && t.has(kCellPairs)) {
        Limiter bad;
        for (size_t s = 0; s < t.slots.size(); ++s) {
            const Slot& slot = t.slots[s];
            if (size_t(slot.tri_start) + slot.tri_count > t.cell_pairs.size() && bad.take())
                sink.error(label(kHeaderSlots), base(kHeaderSlots) + kHeaderSize + s * kSlotStride,
                           "slot " + std::to_string(s) + ": type-11 range " +
                               std::to_string(slot.tri_start) + " + " +
                               std::to_string(slot.tri_count) + " exceeds the type-11 count " +
                               std::to_string(t.cell_pairs.size()));
        }
        if (bad.dropped())
            sink.error(label(kHeaderSlots), base(kHeaderSlots),
                       std::to_string(bad.dropped()) + " more bad slot ranges");
    }
    // Node slot words.
    if (t.has(kNodes) && t.has(kHeaderSlots)) {
        Limiter bad;
        for (size_t n = 0; n < t.nodes.size(); ++n)
            for (size_t w = 4; w < 19; ++w) {
                uint16_t s = t.nodes[n].words[w];
                if (s != kNone && s >= t.slots.size() && bad.take())
                    sink.strict_error(label(kNodes), base(kNodes) + n * kNodeStride + 2 * w,
                                      "node " + std::to_string(n) + ": slot word " +
                                          std::to_string(w - 4) + " = " + std::to_string(s) +
                                          " is neither 0xFFFF nor below the slot count " +
                                          std::to_string(t.slots.size()));
            }
        if (bad.dropped())
            sink.strict_error(label(kNodes), base(kNodes),
                              std::to_string(bad.dropped()) + " more bad slot words");
    }
}

std::vector<uint32_t> slot_faces(const Terrain& t, const Slot& slot) {
    std::vector<uint32_t> faces;
    const size_t end = std::min(t.cell_pairs.size(), size_t(slot.tri_start) + slot.tri_count);
    for (size_t k = slot.tri_start; k < end; ++k)
        if (t.cell_pairs[k].key < t.faces.size()) faces.push_back(t.cell_pairs[k].key);
    return faces;
}

Terrain read(ByteView bytes, DiagnosticSink& sink, const std::string& where) {
    Terrain t;
    t.container = nres::read(bytes, sink, where);
    Reader(t, sink, where).run();
    return t;
}

Terrain read(ByteView bytes, ReadMode mode, const std::string& where) {
    DiagnosticSink sink(mode);
    Terrain t = read(bytes, sink, where);
    if (mode == ReadMode::Strict) sink.throw_if_errors();
    return t;
}

void sync_container(Terrain& t) {
    for (uint32_t type : kPhysicalOrder) {
        if (!t.has(Type(type))) continue;
        auto i = t.container.find_type(type);
        if (!i) continue;
        nres::Entry& e = t.container.entries[*i];
        std::optional<Encoded> enc = encode(t, Type(type));
        if (!enc || enc->data == e.data) continue;
        e.data = std::move(enc->data);
        e.attr1 = enc->count;
        e.attr3 = enc->stride;
    }
}

Bytes write(const Terrain& t) {
    Terrain copy = t;
    sync_container(copy);
    return nres::write(copy.container);
}

void init_container(Terrain& t, uint32_t node_attr2) {
    t.container = nres::Archive{};
    t.decoded_mask = 0;
    for (uint32_t type : kPhysicalOrder) {
        if (type == kWeights && t.weights.empty()) continue;
        nres::Entry e;
        e.type = type;
        e.set_name("Land");
        if (type == kNodes) e.attr2 = node_attr2;
        // Empty payloads: sync_container fills data and attributes (it skips identical data, so
        // set the attributes of an empty table here).
        e.attr3 = type == kNodes         ? uint32_t(kNodeStride)
                  : type == kHeaderSlots ? uint32_t(kSlotStride)
                  : type == kPositions   ? 12u
                  : type == kFaces       ? uint32_t(kFaceStride)
                                         : 4u;
        t.container.entries.push_back(std::move(e));
        t.decoded_mask |= 1u << type;
    }
    t.container.recompute_sort_index();
    sync_container(t);
}

Bytes write_canonical(const Terrain& t) {
    Terrain copy = t;
    sync_container(copy);
    return nres::write_canonical(copy.container);
}

std::array<int16_t, 3> packed_face_normal(const Vec3& a, const Vec3& b, const Vec3& c) {
    double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
    double vx = double(c.x) - a.x, vy = double(c.y) - a.y, vz = double(c.z) - a.z;
    double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    double len = std::sqrt(nx * nx + ny * ny + nz * nz);
    if (len == 0) return {0, 0, 0};
    auto q = [](double v) {
        return int16_t(std::clamp(std::round(v * 32767.0), -32768.0, 32767.0));
    };
    return {q(nx / len), q(ny / len), q(nz / len)};
}

void rebuild_neighbours(Terrain& t) {
    auto key = [&](uint16_t v) {
        const Vec3& p = t.positions[v];
        uint32_t x, y, z;
        std::memcpy(&x, &p.x, 4);
        std::memcpy(&y, &p.y, 4);
        std::memcpy(&z, &p.z, 4);
        return std::array<uint32_t, 3>{x, y, z};
    };
    struct EdgeKey {
        std::array<uint32_t, 6> k;
        bool operator==(const EdgeKey& o) const { return k == o.k; }
    };
    struct Hash {
        size_t operator()(const EdgeKey& e) const {
            uint64_t h = 0xCBF29CE484222325ull;
            for (uint32_t v : e.k) h = (h ^ v) * 0x100000001B3ull;
            return size_t(h);
        }
    };
    auto edge_key = [&](uint16_t a, uint16_t b) {
        auto ka = key(a), kb = key(b);
        return EdgeKey{{ka[0], ka[1], ka[2], kb[0], kb[1], kb[2]}};
    };
    std::unordered_map<EdgeKey, uint32_t, Hash> open; // directed edge -> face * 3 + k
    open.reserve(t.faces.size() * 3);
    for (Face& f : t.faces) f.n = {kNone, kNone, kNone};
    for (size_t i = 0; i < t.faces.size(); ++i) {
        Face& f = t.faces[i];
        for (size_t k = 0; k < 3; ++k) {
            if (f.v[k] >= t.positions.size() || f.v[(k + 1) % 3] >= t.positions.size()) continue;
            auto it = open.find(edge_key(f.v[(k + 1) % 3], f.v[k]));
            if (it != open.end()) {
                uint32_t g = it->second / 3, m = it->second % 3;
                f.n[k] = uint16_t(g);
                t.faces[g].n[m] = uint16_t(i);
                open.erase(it);
            } else {
                open.emplace(edge_key(f.v[k], f.v[(k + 1) % 3]), uint32_t(i * 3 + k));
            }
        }
    }
}

} // namespace msh::terrain
