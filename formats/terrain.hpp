// Terrain geometry `Land.msh` (spec terrain.md §2-§6, §8, §9): a standalone NRes whose entries are
// found by integer type: nodes (1), header + slots (2), per-vertex streams (3, 4, 5, 18, 14),
// cell pairs (11) and 28-byte faces (21). Like the model reader, the terrain keeps its container
// (every entry, name, attribute and gap) beside typed views; the lossless writer re-encodes only
// the views, so `write(read(x)) == x`.
#pragma once

#include "bytes.hpp"
#include "diagnostics.hpp"
#include "msh.hpp"
#include "nres.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace msh::terrain {

enum Type : uint32_t {
    kNodes = 1,
    kHeaderSlots = 2,
    kPositions = 3,
    kNormals = 4,
    kUv1 = 5,        // layer-1 UV
    kCellPairs = 11, // {u16 key, u16 flags}
    kWeights = 14,   // optional; f32 layer-1 weight (raw 4 bytes)
    kUv2 = 18,       // "microtexture mapping"; layer-2 UV
    kFaces = 21,
};

// Physical order on every shipped map (terrain.md §2); the canonical writer uses it.
inline constexpr uint32_t kPhysicalOrder[] = {1, 2, 3, 4, 5, 18, 14, 11, 21};
inline constexpr size_t kNodeStride = 38;
inline constexpr size_t kHeaderSize = 0x8C;
inline constexpr size_t kSlotStride = 68;
inline constexpr size_t kFaceStride = 28;
inline constexpr uint8_t kNoLayer2 = 0xFF;

using msh::Vec3; // as in models: f32 x, y, z

// msh.md §3 layout: hdr0..hdr3, then 15 slot words. Terrain reads only the first slot word.
struct Node {
    std::array<uint16_t, 19> words{};
    uint16_t first_slot() const { return words[4]; }
};

// Type 2 has the layout of a model's Res2 (msh.md §4); for terrain the slot range is a range of
// type-21 faces (decision 6).
using Header = msh::ModelHeader;
using Slot = msh::Slot;

struct Face {
    uint32_t flags = 0;
    uint8_t material = 0;                           // Land1.wea row
    uint8_t aux = kNoLayer2;                        // Land2.wea row, 0xFF = none
    uint16_t unk06 = 0xFFFF;                        // preserved
    std::array<uint16_t, 3> v{};                    // vertex indices
    std::array<uint16_t, 3> n{kNone, kNone, kNone}; // neighbour across edge (v_k, v_(k+1))
    std::array<int16_t, 3> normal{};                // packed face normal (/32767 assumed)
    uint8_t edge_class = 0;                         // edge_k = (b >> 2k) & 3
    uint8_t unk27 = 0;                              // preserved
    uint8_t edge(int k) const { return uint8_t((edge_class >> (2 * k)) & 3); }
};

struct CellPair {
    uint16_t key = 0;
    uint16_t flags = 0;
};

using PackedNormal = std::array<int8_t, 4>;
using PackedUv = std::array<int16_t, 2>;

struct Terrain {
    nres::Archive container;

    std::vector<Node> nodes;
    Header header;
    std::vector<Slot> slots;
    std::vector<Vec3> positions;
    std::vector<PackedNormal> normals;
    std::vector<PackedUv> uv1;        // type 5
    std::vector<PackedUv> uv2;        // type 18
    std::vector<uint32_t> weights;    // type 14, raw bits
    std::vector<CellPair> cell_pairs; // type 11
    std::vector<Face> faces;

    uint32_t decoded_mask = 0; // bit t: type t decoded into its view
    bool has(Type t) const { return (decoded_mask >> t) & 1u; }
    const nres::Entry* entry(Type t) const;
};

// Decoding helpers (terrain.md §3, §4).
float decode_uv_fixed88(int16_t v);  // alternative reading: u16 / 256
float decode_face_normal(int16_t v); // value / 32767 (a guess, §4)
int16_t encode_face_normal(float f);
float weight_value(uint32_t raw); // type-14 raw bits as f32
uint32_t weight_raw(float w);

// Reads Land.msh. Strict: every rule of terrain.md §8 graded as its "Strict" column; tolerant:
// never reads out of bounds, keeps broken resources raw and reports them.
Terrain read(ByteView bytes, DiagnosticSink& sink, const std::string& where);
Terrain read(ByteView bytes, ReadMode mode, const std::string& where);

// Cross-table checks of terrain.md §8 (counts, indices, neighbours, slots, node slot words).
void validate(const Terrain& t, DiagnosticSink& sink, const std::string& where);

// The faces a slot covers (terrain.md §2, §6): the slot's word range selects type-11 pairs, as the
// loader reads it; a pair's key names a face where it is below the face count (an opaque
// shade-cache key otherwise, skipped). Pairs past the type-11 table are skipped.
std::vector<uint32_t> slot_faces(const Terrain& t, const Slot& slot);

// A face whose vertex and neighbour indices are in range (the tolerant reader "skips" others).
bool face_usable(const Terrain& t, size_t face);

// Re-encodes the decoded views into `container` (payload and, for a changed payload, attr1/attr3).
void sync_container(Terrain& t);
// Lossless writer: an unchanged terrain gives its original bytes.
Bytes write(const Terrain& t);

// New data: creates the container entries (all named "Land", physical order 1,2,3,4,5,18,14,11,21;
// type 14 only when `weights` is non-empty), marks every view decoded.
void init_container(Terrain& t, uint32_t node_attr2 = 1);
// Canonical writer (nres.md §9): fresh container layout from the views.
Bytes write_canonical(const Terrain& t);

// Derived values for new or edited faces.
std::array<int16_t, 3> packed_face_normal(const Vec3& a, const Vec3& b, const Vec3& c);
// Neighbour across edge k = (v_k, v_(k+1)) found by identical vertex positions; 0xFFFF if none.
void rebuild_neighbours(Terrain& t);

} // namespace msh::terrain
