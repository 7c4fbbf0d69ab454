// Texm <-> PNG with a sidecar (texm-materials.md §8, design.md §3): the conversion behind
// `mshconv convert Textures.lib:NAME.0 NAME.png` and back. The PNG carries level 0 (optionally
// every level); the sidecar `NAME.sidecar.json` (kind "texm") carries what PNG cannot: header
// fields, palette raw bytes, Page rects, the format code, and the original payload (base64 +
// FNV-1a) so that an unchanged PNG imports to the original bytes exactly.
#pragma once

#include "formats/bytes.hpp"
#include "formats/texm.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace msh::sidecar {

struct TextureExport {
    Bytes png;               // level 0
    std::vector<Bytes> mips; // levels 1.. (only when asked)
    nlohmann::json sidecar;
};

// `where` names the source (archive:entry) in errors and in the sidecar; `png_name` is the file
// name of the level-0 PNG, mip k is written as `<png stem>.mip<k>.png`. Throws FormatError for a
// payload that is not an interpretable Texm.
TextureExport export_texture(ByteView texm_payload, const std::string& where,
                             const std::string& png_name, bool mips);

// File name of mip level k beside `png_name` (`NAME.mip<k>.png` for `NAME.png`).
std::string mip_png_name(const std::string& png_name, uint32_t level);

struct TextureImportInput {
    Bytes png;                              // level 0
    std::vector<std::optional<Bytes>> mips; // index k-1 = level k; absent = not supplied
    std::optional<nlohmann::json> sidecar;
    std::optional<texm::Format> format; // --format (required to change format; new textures)
    std::string where;                  // the PNG's path, for messages
};

struct TextureImport {
    Bytes texm;
    bool identical = false;         // the original payload, byte for byte
    std::vector<std::string> notes; // what was done (for the user)
};

// Throws FormatError (bad PNG, size mismatch, damaged sidecar, palette mismatch, ...).
TextureImport import_texture(const TextureImportInput& in);

} // namespace msh::sidecar
