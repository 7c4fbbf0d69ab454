// Texm textures (spec texm-materials.md §2-§8): 32-byte header, optional 256-entry palette, the
// whole mip chain, an optional `Page` atlas chunk. The reader keeps every byte: header fields
// (flags and the unknown word) as stored, raw level bytes beside the decoded view, and the payload
// as read, so that write(read(x)) == x for every valid x. Pixel decode/encode follows decision 4.
#pragma once

#include "bytes.hpp"
#include "diagnostics.hpp"
#include "readings.hpp"
#include "scene/pixels.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace msh::texm {

constexpr uint32_t kMagic = 0x6D786554;     // "Texm"
constexpr uint32_t kPageMagic = 0x65676150; // "Page"
constexpr size_t kHeaderSize = 32;
constexpr size_t kPaletteEntries = 256;
constexpr size_t kPaletteSize = kPaletteEntries * 4;
constexpr size_t kPageHeaderSize = 8;
constexpr size_t kPageRectSize = 8;

// Header flag values the spec lists (§2).
constexpr uint32_t kFlags4Mipmapped = 32;
constexpr uint32_t kFlags5AlphaKey = 0x01000000; // palette index 0 transparent (font atlases)
constexpr uint32_t kFlags5Fade = 0x02000000;
constexpr uint32_t kFlags5Exporter = 0x04000000;
constexpr uint32_t kFlags5Lightmap = 0x00800000;

enum class Format : uint32_t {
    Indexed = 0,
    R5G6B5 = 565,
    R5G5B6 = 556,
    A4R4G4B4 = 4444,
    L8A8 = 88,
    X8R8G8B8 = 888,
    A8R8G8B8 = 8888,
};
inline constexpr std::array<Format, 7> kAllFormats = {
    Format::Indexed, Format::R5G6B5,   Format::R5G5B6,  Format::A4R4G4B4,
    Format::L8A8,    Format::X8R8G8B8, Format::A8R8G8B8};

std::optional<Format> to_format(uint32_t code);
uint32_t bytes_per_pixel(Format f);
bool has_alpha(Format f); // 4444, 88, 8888

// THE channel order (decision 4, D3D convention): the memory byte that holds R, G, B and A/X in a
// 32-bit pixel (888, 8888) and in a palette entry. The alternative order of one project
// (R, G, B, X / A, R, G, B) would be changed here and nowhere else.
struct ByteOrder {
    uint8_t r, g, b, a;
};
inline constexpr ByteOrder kByteOrder{2, 1, 0, 3}; // memory B, G, R, X/A
// The order of format `f` under the texm-rgb reading (formats/readings.hpp): 888 pixels and
// palette entries follow it; 8888 is B, G, R, A under either.
ByteOrder byte_order(Format f, ChannelOrder order);

struct Header {
    uint32_t magic = kMagic;
    uint32_t width = 0;
    uint32_t height = 0;
    uint32_t mip_count = 0;
    uint32_t flags4 = 0;
    uint32_t flags5 = 0;
    uint32_t unknown6 = 0;
    uint32_t format = 0; // raw decimal code (see Format)
};

// Atlas rectangle in level-0 pixels; stored order x, w, y, h (raw 16-bit values).
struct PageRect {
    uint16_t x = 0, w = 0, y = 0, h = 0;
    bool operator==(const PageRect&) const = default;
};

uint32_t level_width(uint32_t width, uint32_t level);
uint32_t level_height(uint32_t height, uint32_t level);
// Σ pixels of levels [0, mip_count), 64-bit, saturating (never loops over absurd mip counts).
uint64_t chain_pixels(uint32_t width, uint32_t height, uint32_t mip_count);
// 32 + palette + bpp · Σ pixels (saturating); 0 for an unknown format.
uint64_t core_size(const Header& h);
// Levels down to 1×1 inclusive.
uint32_t full_mip_count(uint32_t width, uint32_t height);

// An RGBA8 image, rows top first (the scene floor's type: scene/pixels.hpp).
using Image = scene::Pixels;

struct Texture {
    Header header;
    Bytes palette;             // 1024 raw bytes when format == 0, else empty
    std::vector<Bytes> levels; // raw bytes of each mip level
    std::optional<std::vector<PageRect>> page;
    Bytes tail; // tolerant reads: a tail that is not one valid Page chunk, kept raw
    // The payload exactly as read. A tolerant read of a payload that cannot be interpreted sets
    // raw_only; write() then copies `raw` through unchanged.
    Bytes raw;
    bool raw_only = false;
    // How 888 pixels and palette entries are read and written (the texm-rgb reading); set by
    // the caller that chose the readings, never by the reader.
    ChannelOrder channel_order = ChannelOrder::Bgr;

    std::optional<Format> format() const { return to_format(header.format); }
};

// Whether read() keeps a copy of the payload in `raw` for a texture it could interpret. Readers
// that only decode pixels (exports, previews) skip it: a second copy of every texture they show.
// `raw` is always kept for a raw_only result.
enum class KeepRaw { Always, OnlyUninterpretable };
Texture read(ByteView payload, DiagnosticSink& sink, const std::string& where,
             KeepRaw keep = KeepRaw::Always);
Texture read(ByteView payload, ReadMode mode, const std::string& where);
// Serialises the interpreted view (or `raw` for raw_only). Throws FormatError when the fields are
// inconsistent (level sizes, palette size, mip count).
Bytes write(const Texture& t);

// ---- pixels -------------------------------------------------------------------------------------

// Decoding: bit replication for narrow channels; 888 ignores X; format 0 gives (R, G, B, 255).
Image decode_pixels(Format f, uint32_t width, uint32_t height, ByteView pixels, ByteView palette,
                    ChannelOrder order = ChannelOrder::Bgr);
Image decode_level(const Texture& t, uint32_t level);

enum class PaletteMatch {
    Nearest, // nearest colour in RGB (squared distance), lowest index on ties
    Exact,   // every pixel must equal a palette colour (A = 255), else FormatError
};
// Narrowing with rounding q = (c·max + 127) / 255, the exact inverse of the widening.
// 888 writes X = 0; 88 takes L = rounded Rec.601 luma (= R for grey pixels).
// Format 0 needs `palette` (1024 bytes B, G, R, X); without one it throws FormatError.
Bytes encode_pixels(Format f, const Image& img, ByteView palette,
                    PaletteMatch match = PaletteMatch::Nearest,
                    ChannelOrder order = ChannelOrder::Bgr);

// 2×2 box filter with a rounded average (edges of odd sizes use the samples that exist).
Image downsample(const Image& img);
// base followed by count − 1 box-filtered levels of size max(1, W >> i) × max(1, H >> i).
std::vector<Image> build_mip_chain(const Image& base, uint32_t count);

// A new texture (§8): mipCount = full chain unless given, flags4 = 32 if mipCount > 1,
// flags5 = unknown6 = 0; format 0 takes `palette`.
Texture make_texture(Format f, const Image& base, ByteView palette = {}, uint32_t mip_count = 0,
                     ChannelOrder order = ChannelOrder::Bgr);

// One level offered for import: RGBA pixels, and for palette images the indices themselves.
struct LevelInput {
    Image rgba;
    std::optional<Bytes> indices; // width·height palette indices (format-0 textures keep them)
};
// §8 import: levels equal to the decoded original keep their bytes; changed levels are encoded
// in the original format; when level 0 changed and no lower level was supplied changed, levels
// 1.. are rebuilt from the new level 0. Header, palette and Page are kept. Throws FormatError.
Texture import_levels(const Texture& original,
                      const std::vector<std::optional<LevelInput>>& levels);

} // namespace msh::texm
