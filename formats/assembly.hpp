// A building's or unit's assembly, `UNITS/**/*.dat` (docs/formats/level.md §3.1, the "cp
// scheme"): an 8-byte header (magic 0xF0F1, the object's class word), then 112-byte component
// records forming one depth-first tree (each record's child count says how many subtrees follow
// it). A component names an objects.rlb record, the node of its parent's model it attaches to
// (a `Base_*` socket; -1 on the root) and its part class.
//
// Lossless: the three name fields keep their 32 raw bytes; write(read(x)) == x.
#pragma once

#include "bytes.hpp"
#include "diagnostics.hpp"

#include <array>
#include <string>
#include <vector>

namespace msh::assembly {

inline constexpr uint32_t kMagic = 0x0000F0F1;
inline constexpr size_t kHeaderSize = 8;
inline constexpr size_t kComponentSize = 112;
inline constexpr size_t kNameSize = 32;

enum class PartClass : uint32_t {
    Chassis = 0,
    Turret = 1,
    Armour = 2,
    Internal = 3,
    Gun = 4,
    Ammo = 5
};
const char* to_string(PartClass c); // "chassis", "turret", ...; "class<N>" past the list
std::string part_class_name(uint32_t c);

using Name32 = std::array<uint8_t, kNameSize>;
std::string text(const Name32& raw); // the bytes before the first NUL
Name32 name32(const std::string& s); // NUL-filled, at most 31 bytes

struct Component {
    Name32 archive{}; // always "objects.rlb"
    Name32 record{};  // the objects.rlb record
    uint32_t flags = 1;
    int32_t attach = -1;  // the node of the parent's model (-1 on the root)
    Name32 description{}; // display name
    uint32_t part_class = 0;
    int32_t child_count = 0;
};

struct Assembly {
    uint32_t magic = kMagic;
    uint32_t class_word = 0; // the object Type mask (0x01008000 warbot, 0x80000002 generator)
    std::vector<Component> components; // depth-first
    // By component: its parent's index, -1 for the root (derived from the child counts).
    std::vector<int> parents() const;
};

// Strict: the magic, and a tree rooted at component 0 that uses every record exactly, are errors
// when broken; tolerant: warnings (records the tree does not reach become roots). A size that is
// not 8 + 112 * N is an error in both modes.
Assembly read(ByteView bytes, DiagnosticSink& sink, const std::string& where);
Assembly read(ByteView bytes, ReadMode mode, const std::string& where);
Bytes write(const Assembly& assembly);

bool looks_like_assembly(ByteView bytes);

} // namespace msh::assembly
