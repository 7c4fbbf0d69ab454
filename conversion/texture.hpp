// Texm texture <-> PNG, in memory (texm-materials.md §8, design.md §3): the Texm payload in,
// level 0 (and with `mips` every level) as PNG plus the sidecar out; and back, where an unchanged
// PNG gives the original payload byte for byte. The sidecar's fields and text are
// sidecar/texture_sidecar.hpp's; the conversion is here.
#pragma once

#include "outputs.hpp"

#include "formats/png.hpp"
#include "formats/readings.hpp"
#include "formats/texm.hpp"
#include "sidecar/texture_sidecar.hpp"

#include <optional>
#include <string>
#include <vector>

namespace msh::conversion {

struct TextureExportSettings {
    std::string output_name = "texture.png"; // mip k is `<stem>.mip<k>.png` beside it
    bool mips = false;                       // also every mip level
    png::EncodeOptions png;                  // --png-level
    Readings readings; // texm-rgb: the order of 888 pixels and palette entries (recorded)
};

struct TextureExportSummary {
    uint32_t width = 0, height = 0, format = 0, levels = 0;
};

struct TextureExport {
    OutputFiles files;               // the mip PNGs, then level 0
    sidecar::TextureSidecar sidecar; // its file's text: sidecar::texture_sidecar_text
    TextureExportSummary summary;
};

// `address` names the source (archive:entry) in errors, and in the sidecar without its folders.
// Throws FormatError for a payload that is not an interpretable Texm.
TextureExport encode_texture(ByteView texm, const std::string& address,
                             const TextureExportSettings& settings);

struct TextureImportSettings {
    std::optional<texm::Format> format; // re-encode into (or a new texture in) this format
    std::string where;                  // the PNG's name for messages
    uint64_t max_pixels = png::kDefaultMaxPixels; // larger PNGs are refused before decoding
    bool full_read = false; // decode even the PNG its export wrote (no shortcut; first layout)
    Readings readings;      // a new texture's texm-rgb order (with a sidecar: the sidecar's)
};

struct TextureImportInput {
    Bytes png;                                      // level 0
    std::optional<sidecar::TextureSidecar> sidecar; // none: a new texture
    std::vector<std::optional<Bytes>> mips;         // index k-1 = level k; absent = not supplied
};

struct TextureImport {
    Bytes texm;
    bool identical = false;                 // the original payload, byte for byte
    std::vector<std::string> notes;         // what was done (for the user)
    std::vector<std::string> sidecar_edits; // JSON pointers of the sidecar members edited
    std::vector<std::string> warnings;      // edits that did not reach the texture, ...
};

// Throws FormatError (bad PNG, size mismatch, damaged sidecar, palette mismatch, ...).
TextureImport rebuild_texture(const TextureImportInput& input,
                              const TextureImportSettings& settings);

// The import from a binding sidecar (texture_rebuild.cpp): the Texm from the level-0 PNG `base`,
// the mip PNGs and the sidecar's fields. Nothing edited on either side gives the source the
// sidecar records, else a FormatError at /source/xxh3_64.
TextureImport rebuild_bound_texture(const TextureImportInput& input,
                                    const TextureImportSettings& settings, png::Decoded base);

// A PNG decoded, or a FormatError naming `where`.
png::Decoded decode_png(ByteView bytes, const std::string& where, uint64_t max_pixels);

} // namespace msh::conversion
