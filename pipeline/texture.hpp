// Texm texture <-> PNG, in memory (the work is in sidecar/texture_sidecar.hpp): the Texm payload
// in, level 0 (and with `mips` every level) as PNG plus the sidecar out; and back, where an
// unchanged PNG gives the original payload byte for byte.
#pragma once

#include "formats/readings.hpp"

#include "outputs.hpp"

#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "sidecar/texture_sidecar.hpp"

#include <optional>
#include <string>
#include <vector>

namespace msh::pipeline {

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

// Throws FormatError for a payload that is not an interpretable Texm.
TextureExport export_texture(ByteView texm, const std::string& address,
                             const TextureExportSettings& settings);

struct TextureImportSettings {
    std::optional<texm::Format> format; // re-encode into (or a new texture in) this format
    std::string where;                  // the PNG's name for messages
    uint64_t max_pixels = png::kDefaultMaxPixels; // larger PNGs are refused before decoding
    bool full_read = false;                       // decode even the PNG its export wrote
    Readings readings; // a new texture's texm-rgb order (with a sidecar: the sidecar's)
};

struct TextureImportInput {
    Bytes png;                                      // level 0
    std::optional<sidecar::TextureSidecar> sidecar; // none: a new texture
    std::vector<std::optional<Bytes>> mips; // the PNGs the sidecar lists, where still present
};

// Throws FormatError (bad PNG, size mismatch, damaged sidecar, palette mismatch, ...).
sidecar::TextureImport import_texture(TextureImportInput input,
                                      const TextureImportSettings& settings);

} // namespace msh::pipeline
