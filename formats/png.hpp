// PNG encode/decode (texm-materials.md §8) and the Texm level <-> PNG glue.
//
// Why libpng: it is the PNG reference implementation, Debian-packaged (libpng-dev, so no vendored
// code to audit or update), and correct on every PNG variant we may be handed back by an image
// editor (all bit depths, palette + tRNS, grey, 16-bit, interlaced, ancillary chunks), where the
// small single-header codecs cut corners. Gamma/colour chunks are deliberately ignored: pixels are
// data here, and an exact round trip matters more than display correctness.
#pragma once

#include "bytes.hpp"
#include "texm.hpp"

#include <array>
#include <optional>
#include <vector>

namespace msh::png {

enum class ColorType { Gray, GrayAlpha, RGB, RGBA, Indexed };

// Row filters: libpng's adaptive choice among all five per row, or one fixed filter (cheaper).
enum class RowFilter { Adaptive, None, Sub, Up, Paeth };

// The default is the fast setting (bench/png_bench.cpp, `mshconv_bench png`, corpus textures):
// ISA-L's igzip (level 0: static Huffman codes) with the Up filter, 2.7x faster than zlib 1 with
// Up for 1.3x its bytes, 11x faster than zlib 6 with adaptive
// filters for 1.9x; decoded pixels are the same whatever the setting.
struct EncodeOptions {
    int compression_level = 1;        // zlib level 0..9 (igzip false)
    RowFilter filter = RowFilter::Up; // zlib only (igzip rows are always Up-filtered)
    // sBIT: the significant bits of R, G, B (or grey) and A; 0 = no sBIT chunk.
    std::array<uint8_t, 4> significant_bits{0, 0, 0, 0};
    // Indexed: the palette colours (R, G, B) and optional per-entry alpha (tRNS).
    std::vector<std::array<uint8_t, 3>> palette;
    std::vector<uint8_t> palette_alpha;
    // No PNG at all: the texture chain hands over the decoded pixels (scene::Image::pixels), the
    // ones the PNG would decode to. For consumers that only draw them (previews).
    bool pixels_only = false;
    // The image data compressed by ISA-L's igzip at level 0 (static Huffman codes) instead of zlib
    // through libpng, every row Up-filtered (the same chunks otherwise: sBIT, PLTE, tRNS); false:
    // zlib at `compression_level` through libpng. Its levels 1-3 are not offered: 1 and 2 made
    // files that depend on the process's memory layout (3 runs in 100), 3 is as slow as zlib.
    bool igzip = true;
};

// `--png-level N`: zlib level N (0..9) with libpng's adaptive row filters (9: smallest files).
EncodeOptions options_for_level(int zlib_level);

// `pixels`: Gray 1, GrayAlpha 2, RGB 3, RGBA 4 bytes or Indexed 1 byte per pixel, rows top first.
// Throws FormatError.
Bytes encode(uint32_t width, uint32_t height, ColorType type, ByteView pixels,
             const EncodeOptions& options);
// RGBA8 image as RGB (when every alpha is 255) or RGBA.
Bytes encode_rgba(const texm::Image& img, const EncodeOptions& options = {});

struct Decoded {
    texm::Image rgba; // always filled (palette, grey, 16-bit, tRNS expanded)
    ColorType source_type = ColorType::RGBA;
    int bit_depth = 8;
    // 8-bit (or lower) palette PNGs: the indices and the PLTE colours as stored.
    std::optional<Bytes> indices;
    std::vector<std::array<uint8_t, 3>> palette;
};
// Images over this many pixels are refused before any pixel memory is allocated (64 Mpixel,
// 8192 x 8192: four times the largest texture the game uses, 256 MB as RGBA).
constexpr uint64_t kDefaultMaxPixels = uint64_t(1) << 26;

// Any valid PNG; throws FormatError with libpng's message on damage, and before allocating when
// the image is over `max_pixels` or larger than its compressed data can hold.
Decoded decode(ByteView png, uint64_t max_pixels = kDefaultMaxPixels);

// ---- Texm glue ------------------------------------------------------------------------------

// Colour type of a Texm format per the §3 table (0 indexed, 565/556/888 RGB, 4444/8888 RGBA,
// 88 grey + alpha).
ColorType color_type_for(texm::Format f);
// One mip level as PNG: PLTE from the palette (R, G, B from B, G, R), tRNS for index 0 when flags5
// has 0x01000000, sBIT for 565/556/4444.
Bytes from_texm_level(const texm::Texture& t, uint32_t level, const EncodeOptions& base = {});
// The RGBA pixels that from_texm_level's PNG decodes to (index 0 transparent under the alpha-key
// flag), without the PNG.
texm::Image texm_level_pixels(const texm::Texture& t, uint32_t level);
// What a decoded PNG offers a Texm import (indices only for palette PNGs).
texm::LevelInput to_level_input(Decoded d);

} // namespace msh::png
