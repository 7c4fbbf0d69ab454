// Texm <-> PNG with a sidecar (texm-materials.md §8, design.md §3): the conversion behind
// `mshconv convert Textures.lib:NAME.0 NAME.png` and back. The PNG carries level 0 (optionally
// every level); the sidecar `NAME.sidecar.json` (kind "texm") carries what PNG cannot: header
// fields, palette raw bytes, Page rects, the format code, and the original payload (base64 +
// FNV-1a) so that an unchanged PNG imports to the original bytes exactly.
#pragma once

#include "formats/bytes.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "written_file.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace msh::sidecar {

// The sidecar (kind "texm"), typed; its JSON form is written and read at the edge
// (texture_sidecar_text / read_texture_sidecar).
struct TextureSidecar {
    std::string source;            // address of the texture (archive:entry, no folders)
    std::string png;               // file name of the level-0 PNG
    std::vector<std::string> mips; // file names of levels 1.. (written with --mips)
    texm::Header header;           // as read (width, height, mip_count, flags, format)
    std::optional<std::vector<texm::PageRect>> page; // atlas rectangles
    Bytes palette; // format 0: 256 x (B, G, R, X); empty otherwise
    // The texm-rgb reading the export used (888 pixels, palette entries); the import uses it.
    ChannelOrder channel_order = ChannelOrder::Bgr;
    uint64_t tail_bytes = 0; // bytes after the last level
    Bytes original;          // the Texm payload (size and hash checked on read)
    WrittenFile written;     // the level-0 PNG as the export wrote it (written_file.hpp)
};

nlohmann::json to_json(const TextureSidecar& sidecar);
// Reads every field; throws FormatError naming `where` and the JSON pointer of the field (a
// hash that does not match the original payload included).
TextureSidecar parse_texture_sidecar(const nlohmann::json& doc, const std::string& where);
std::string texture_sidecar_text(const TextureSidecar& sidecar);
TextureSidecar read_texture_sidecar(ByteView text, const std::string& where);

struct TextureExport {
    Bytes png;               // level 0
    std::vector<Bytes> mips; // levels 1.. (only when asked)
    TextureSidecar sidecar;
};

// `where` names the source (archive:entry) in errors, and in the sidecar without its folders;
// `png_name` is the file name of the level-0 PNG, mip k is written as `<png stem>.mip<k>.png`.
// Throws FormatError for a payload that is not an interpretable Texm.
TextureExport export_texture(ByteView texm_payload, const std::string& where,
                             const std::string& png_name, bool mips,
                             const png::EncodeOptions& encoding = {},
                             ChannelOrder order = ChannelOrder::Bgr);

// File name of mip level k beside `png_name` (`NAME.mip<k>.png` for `NAME.png`).
std::string mip_png_name(const std::string& png_name, uint32_t level);

struct TextureImportInput {
    Bytes png;                              // level 0
    std::vector<std::optional<Bytes>> mips; // index k-1 = level k; absent = not supplied
    std::optional<TextureSidecar> sidecar;  // none: a new texture
    ChannelOrder order = ChannelOrder::Bgr; // a new texture's 888/palette order (with a
                                            // sidecar: the sidecar's)
    std::optional<texm::Format> format;     // --format (required to change format; new textures)
    std::string where;                      // the PNG's path, for messages
    uint64_t max_pixels = png::kDefaultMaxPixels; // larger PNGs are refused before decoding
    bool full_read = false; // decode even the PNG the export wrote (no shortcut)
};

struct TextureImport {
    Bytes texm;
    bool identical = false;         // the original payload, byte for byte
    std::vector<std::string> notes; // what was done (for the user)
};

// Throws FormatError (bad PNG, size mismatch, damaged sidecar, palette mismatch, ...).
TextureImport import_texture(const TextureImportInput& in);

} // namespace msh::sidecar
