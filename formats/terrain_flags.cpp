#include "terrain_flags.hpp"

namespace msh::terrain_flags {

namespace {
template <std::size_t N> uint32_t full_bits(const BitPair (&table)[N]) {
    uint32_t m = 0;
    for (const BitPair& p : table) m |= p.full;
    return m;
}
template <std::size_t N> uint32_t to_compact(uint32_t full, const BitPair (&table)[N]) {
    uint32_t c = 0;
    for (const BitPair& p : table)
        if (full & p.full) c |= p.compact;
    return c;
}
template <std::size_t N> uint32_t to_full(uint32_t compact_bits, const BitPair (&table)[N]) {
    uint32_t f = 0;
    for (const BitPair& p : table)
        if (compact_bits & p.compact) f |= p.full;
    return f;
}
} // namespace

uint32_t main16_full_bits() {
    return full_bits(kMain16);
}
uint32_t material6_full_bits() {
    return full_bits(kMaterial6);
}
uint32_t uncompactable_bits(uint32_t full) {
    return full & ~(main16_full_bits() | material6_full_bits());
}

uint16_t to_main16(uint32_t full) {
    return uint16_t(to_compact(full, kMain16));
}
uint8_t to_material6(uint32_t full) {
    return uint8_t(to_compact(full, kMaterial6));
}

uint32_t from_compact(uint16_t main16, uint8_t material6) {
    return to_full(main16, kMain16) | to_full(material6, kMaterial6);
}

FullFilter expand(const CompactFilter& c) {
    return {from_compact(c.main_required, c.material_required),
            from_compact(c.main_forbidden, c.material_forbidden)};
}

CompactFilter compact(const FullFilter& f) {
    return {to_main16(f.required), to_main16(f.forbidden), to_material6(f.required),
            to_material6(f.forbidden)};
}

bool matches(uint32_t flags, const FullFilter& f) {
    return (flags & f.required) == f.required && (flags | ~f.forbidden) == ~f.forbidden;
}

} // namespace msh::terrain_flags
