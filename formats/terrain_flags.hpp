// Terrain face flag masks (spec terrain.md §5): the full 32-bit mask stored in Land.msh faces and
// the two compact masks the engine's query API takes (compactMain16, compactMaterial6), with the
// exact bit remaps recovered from Terrain.dll. Files store only the full mask; these helpers exist
// for filters and tools, never to rewrite stored flags.
#pragma once

#include <cstddef>
#include <cstdint>

namespace msh::terrain_flags {

// One bit of a remap table: full bit <-> compact bit.
struct BitPair {
    uint32_t full;
    uint32_t compact;
};

// Full -> compactMain16 (15 pairs; compact bit 0x4000 has no full bit).
inline constexpr BitPair kMain16[] = {
    {0x00000001, 0x0001}, {0x00000008, 0x0002}, {0x00000010, 0x0004}, {0x00000020, 0x0008},
    {0x00001000, 0x0010}, {0x00004000, 0x0020}, {0x00000002, 0x0040}, {0x00000400, 0x0080},
    {0x00000800, 0x0100}, {0x00020000, 0x0200}, {0x00002000, 0x0400}, {0x00000200, 0x0800},
    {0x00000004, 0x1000}, {0x00000040, 0x2000}, {0x00200000, 0x8000},
};
// Full -> compactMaterial6.
inline constexpr BitPair kMaterial6[] = {
    {0x00000100, 0x01}, {0x00008000, 0x02}, {0x00010000, 0x04},
    {0x00040000, 0x08}, {0x00080000, 0x10}, {0x00000080, 0x20},
};

// Full bits covered by either compact table.
uint32_t main16_full_bits();
uint32_t material6_full_bits();
// Full bits with no compact form (0x100000, >= 0x400000, and the rest not listed above).
uint32_t uncompactable_bits(uint32_t full);

uint16_t to_main16(uint32_t full);
uint8_t to_material6(uint32_t full);
// Expansion of one mask pair back to full bits (compact 0x4000 and bits above 0x3F of the
// material mask have no full form and are dropped).
uint32_t from_compact(uint16_t main16, uint8_t material6);

// A query filter: (flags & required) == required && (flags & forbidden) == 0.
struct FullFilter {
    uint32_t required = 0;
    uint32_t forbidden = 0;
};
// The API form (sub_10015680 arguments a2[4..7]).
struct CompactFilter {
    uint16_t main_required = 0;
    uint16_t main_forbidden = 0;
    uint8_t material_required = 0;
    uint8_t material_forbidden = 0;
};

FullFilter expand(const CompactFilter& c);
CompactFilter compact(const FullFilter& f);

// The engine's test, written as it does: (flags | ~forbidden) == ~forbidden for the second half.
bool matches(uint32_t flags, const FullFilter& f);

// Flags the generator writes (terrain.md §4: water faces 0x00020608, water bit 0x20000).
inline constexpr uint32_t kWaterBit = 0x00020000;
inline constexpr uint32_t kWaterFaceFlags = 0x00020608;

} // namespace msh::terrain_flags
