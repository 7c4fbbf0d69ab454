// MSH model (spec msh.md): an NRes image whose resources are found by integer type id.
// The model keeps its container (every entry, name, attribute and gap) beside typed views of
// the resources it interprets; the writer re-encodes only the views and keeps everything else.
#pragma once

#include "anim.hpp"
#include "bytes.hpp"
#include "diagnostics.hpp"
#include "nres.hpp"
#include "vec3.hpp"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace msh {

constexpr uint16_t kNone = 0xFFFF;
constexpr int kLods = 3;
constexpr int kGroups = 5;
constexpr int kSlotWords = kLods * kGroups;

enum ResType : uint32_t {
    kNodes = 1,
    kHeaderSlots = 2,
    kPositions = 3,
    kNormals = 4,
    kUv0 = 5,
    kIndices = 6,
    kTriangles = 7,
    kKeys = 8,
    kNodeNames32 = 9,
    kNodeStrings = 10,
    kBatches = 13,
    kVertexStream15 = 15,
    kVertexStream16 = 16,
    kPathGraph = 17,
    kVertexStream18 = 18,
    kFrameMap = 19,
    kTable20 = 20,
};

constexpr size_t kNodeStride = 38;
constexpr size_t kLegacyNodeStride = 24;
constexpr size_t kHeaderSize = 0x8C;
constexpr size_t kSlotStride = 68;
constexpr size_t kBatchStride = 20;
constexpr size_t kTriStride = 16;

struct Node {
    uint16_t flags = 0;                     // hdr0, opaque
    uint16_t parent = kNone;                // hdr1
    uint16_t map_start = kNone;             // hdr2, first Res19 word
    uint16_t fallback_key = 0;              // hdr3, Res8 index
    std::array<uint16_t, kSlotWords> slots; // slot[lod * 5 + group], kNone = empty
    Node() { slots.fill(kNone); }
    uint16_t slot(int lod, int group) const { return slots[size_t(lod * kGroups + group)]; }
};

struct ModelHeader {
    std::array<float, 24> hull{};   // 8 corners x (x, y, z), model space
    std::array<float, 4> sphere{};  // centre, radius
    std::array<float, 7> capsule{}; // A, B, radius
};

struct Slot {
    uint16_t tri_start = 0, tri_count = 0, batch_start = 0, batch_count = 0;
    std::array<float, 3> aabb_min{}, aabb_max{};
    std::array<float, 4> sphere{};  // node-local centre, radius
    std::array<uint32_t, 5> tail{}; // opaque
};

struct Batch {
    uint16_t flags = 0;
    uint16_t material = 0;
    uint16_t opaque4 = 0;
    uint16_t opaque6 = 0;
    uint16_t index_count = 0;
    uint32_t index_start = 0;
    uint16_t opaque14 = 0;
    uint32_t base_vertex = 0;
};

struct TriDesc {
    uint16_t flags = 0;
    std::array<uint16_t, 3> link{kNone, kNone, kNone};
    std::array<int16_t, 3> normal{};
    uint16_t selectors = 0x3F;
    // sel_k = (v >> 2k) & 3; 3 means "none"
    uint16_t selector(int k) const {
        uint16_t s = (selectors >> (2 * k)) & 3;
        return s == 3 ? kNone : s;
    }
};

using PackedNormal = std::array<int8_t, 4>;
using PackedUv = std::array<int16_t, 2>;

// One Res10 record: absent (len = 0) or a byte string.
struct NodeString {
    bool present = false;
    std::string text;
};

// Resources the model interprets. Everything else stays in `container` as raw entries.
struct Model {
    nres::Archive container;

    bool legacy_nodes = false; // Res1 stride 24: copied through untouched
    std::vector<Node> nodes;   // stride 38 only
    ModelHeader header;
    std::vector<Slot> slots;
    std::vector<Vec3> positions;
    std::vector<PackedNormal> normals;
    std::vector<PackedUv> uvs;
    std::vector<uint16_t> indices;
    std::vector<TriDesc> triangles;
    std::vector<Batch> batches;
    std::vector<NodeString> node_strings; // Res10
    anim::Animation animation;            // Res8 + Res19 (+ frame count)

    // Which typed views were decoded (tolerant reads leave broken resources raw).
    bool has(ResType t) const;
    std::optional<size_t> entry_index(ResType t) const { return container.find_type(t); }
    const nres::Entry* entry(ResType t) const;

    size_t node_count() const; // legacy: Res1.attr1
    size_t vertex_count() const { return positions.size(); }
    // Display name: Res10, else Res9, else node_<i>.
    std::string node_name(size_t node) const;
    const Slot* find_slot(size_t node, int lod, int group) const;

    uint32_t decoded_mask = 0; // bit t set when resource type t was decoded into its view
};

// Res2 payload (0x8C-byte header + 68-byte slots), shared with terrain's type 2. decode expects a
// size already checked to be 0x8C + 68n.
void decode_header_slots(ByteView payload, ModelHeader& header, std::vector<Slot>& slots);
Bytes encode_header_slots(const ModelHeader& header, const std::vector<Slot>& slots);

// Decode helpers (msh.md §5).
float decode_normal_component(int8_t v);
int8_t encode_normal_component(float v);
float decode_uv(int16_t v);
int16_t encode_uv(float v);
float decode_tri_normal(int16_t v);

// Reads a model image. Strict: every invariant of msh.md §10 and animation.md §8 at its level;
// tolerant: never reads out of bounds, leaves broken resources raw and reports them. With a
// `keeper` (what keeps `bytes` alive) the container's resources are views, not copies.
Model read_model(ByteView bytes, DiagnosticSink& sink, const std::string& where,
                 const std::shared_ptr<const void>& keeper = nullptr);
Model read_model(ByteView bytes, ReadMode mode, const std::string& where,
                 const std::shared_ptr<const void>& keeper = nullptr);

// Checks the cross-table invariants of an interpreted model (also used after edits).
void validate_model(const Model& model, DiagnosticSink& sink, const std::string& where);
// Res20 read as 48-byte records whose first field is an i32 node index (one project's reading,
// msh.md §7): an index out of range is a warning. Any other size is another layout: not checked.
constexpr size_t kRes20Stride = 48;
void validate_res20(const Model& model, DiagnosticSink& sink, const std::string& where);

// A resource a new model carries raw (Res9, Res15, Res17, Res18, Res20, a legacy Res1, unknown).
struct RawResource {
    uint32_t type = 0;
    Bytes data;
    uint32_t attr1 = 0, attr2 = 0, attr3 = 0;
};

// Builds the container of a new model from its filled typed views plus `raw`: entries in the
// observed physical order (msh.md §2: 1,2,3,4,5,18,15,16,13,6,7,8,19,9,10,17,20; unknown types
// last), each named after its resource (NODES, SLOTS, ...), typed ones marked decoded (a raw Res1
// is the legacy table), then sync_container(). Write it with nres::write_canonical(container).
void assemble_new_model(Model& model, std::vector<RawResource> raw, uint32_t res1_attr2 = 0);

// The payload of one interpreted resource type (1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 19) from the
// typed views, as write_model stores it.
Bytes encode_resource(const Model& model, ResType type);

// Re-encodes the typed views into the container and writes it losslessly: an unchanged model
// gives its original bytes; a changed resource gets its attributes set per msh.md §11.
Bytes write_model(const Model& model);
// Updates `model.container` payloads and attributes from the typed views (used by write_model).
void sync_container(Model& model);

} // namespace msh
