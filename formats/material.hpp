// MAT0 materials (texm-materials.md §10), texture-name palette slots (§9) and the name lookups of
// the batch -> WEAR -> MAT0 -> Texm chain (§12). The reader keeps every byte: header fields as
// stored for the payload version (attr2), the 18 raw phase bytes, the 16 raw name bytes (bytes
// after the NUL included) and every animation key word, so write(read(x)) == x.
#pragma once

#include "bytes.hpp"
#include "diagnostics.hpp"
#include "nres.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msh::material {

constexpr uint32_t kType = 0x3054414D; // "MAT0"
constexpr uint32_t kMaxVersion = 6;    // attr2 of every shipped MAT0
constexpr uint32_t kShippedVersion = 6;
constexpr size_t kPhaseSize = 34;
constexpr size_t kPhaseParams = 18;
constexpr size_t kTextureNameSize = 16;
constexpr uint16_t kMaxAnimBlocks = 19; // animBlockCount < 20
constexpr uint8_t kDefaultMetaA = 255, kDefaultMetaB = 255;
constexpr uint32_t kDefaultMetaC = 0x3F800000; // 1.0f
constexpr uint32_t kDefaultMetaD = 0;

// Header size for a payload version: 4, 6, 10 or 14 bytes (versions < 2, 2, 3, >= 4).
size_t header_size(uint32_t version);

struct Phase {
    std::array<uint8_t, kPhaseParams> params{};
    std::array<uint8_t, kTextureNameSize> raw_name{}; // NUL-padded; empty = no texture
    std::string texture_name() const;                 // the bytes before the first NUL
    // Fresh field: zero fill + the name; throws FormatError beyond 15 bytes.
    void set_texture_name(std::string_view name);
    bool operator==(const Phase&) const = default;
};

struct AnimKey {
    uint16_t k0 = 0; // phase index (public pseudocode)
    uint16_t k1 = 0; // key time
    uint16_t k2 = 0; // never read; kept
    bool operator==(const AnimKey&) const = default;
};

enum class AnimMode : uint32_t { Loop = 0, PingPong = 1, OneShot = 2, RandomStart = 3 };

struct AnimBlock {
    uint32_t header = 0; // mode = h & 7, interpMask = h >> 3
    std::vector<AnimKey> keys;
    uint32_t mode() const { return header & 7; }
    uint32_t interp_mask() const { return header >> 3; }
    bool operator==(const AnimBlock&) const = default;
};

struct Material {
    uint32_t version = kShippedVersion; // entry attr2; decides which header fields exist
    uint8_t meta_a = kDefaultMetaA;     // version >= 2
    uint8_t meta_b = kDefaultMetaB;
    uint32_t meta_c = kDefaultMetaC; // version >= 3
    uint32_t meta_d = kDefaultMetaD; // version >= 4
    std::vector<Phase> phases;
    std::vector<AnimBlock> anims;
    Bytes raw;             // the payload as read
    bool raw_only = false; // tolerant read of an unusable payload: write() returns raw
};

// attr1 bits (§10).
struct Attr1 {
    bool texture_load_flag = false; // bit 0 -> load flag 0x200000
    bool opaque_upload = false;     // bit 1 -> flag A, load flag 0x80000 (unless emboss bump)
    uint32_t mode = 0;              // bits 2..5
    bool flag_b = false;            // bit 6
    uint32_t other_bits = 0;        // everything else, preserved
};
Attr1 decode_attr1(uint32_t attr1);
uint32_t encode_attr1(const Attr1& a);

// `version` is the entry's attr2.
Material read(ByteView payload, uint32_t version, DiagnosticSink& sink, const std::string& where);
Material read(ByteView payload, uint32_t version, ReadMode mode, const std::string& where);
// Serialises the interpreted view (or `raw` for raw_only); throws FormatError on counts that do
// not fit (anim blocks >= 20, > 65535 phases or keys, version > 6).
Bytes write(const Material& m);

// ---- texture names and palettes (§9) -----------------------------------------------------------

constexpr int kPaletteSlots = 286; // A.PAL .. Z9.PAL

struct PaletteRef {
    bool valid_name = false; // a '.' within the first 17 characters ("Bad texture name." otherwise)
    int slot = -1;           // < 0: no external palette
};
PaletteRef palette_slot(std::string_view texture_name);
// "A.PAL", "A0.PAL" … "Z9.PAL" for slots 0..285; throws FormatError for other slots.
std::string palette_file_name(int slot);
// The writer rule: a name that is valid and whose slot is < 286 (negative = none is fine).
bool writable_texture_name(std::string_view texture_name);

// ---- lookups (§10, §12) --------------------------------------------------------------------

enum class LookupRule { Exact, Default, FirstEntry, NotFound };
struct Lookup {
    std::optional<size_t> index; // entry index in the archive
    LookupRule rule = LookupRule::NotFound;
};
// Case-insensitive name lookup among MAT0 entries; a miss falls back to `DEFAULT`, then to the
// first MAT0 entry (the engine logs "Material %s not found.").
Lookup find_material(const nres::Archive& library, std::string_view name);
// Case-insensitive lookup of a resource of `type` (Texm in Textures.lib / LightMap.lib); no
// fallback (a missing lightmap is slot -1, never the diffuse).
std::optional<size_t> find_resource(const nres::Archive& library, uint32_t type,
                                    std::string_view name);

} // namespace msh::material
