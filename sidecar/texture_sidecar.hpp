// The texture sidecar (texm-materials.md §8, design.md §3) of `mshconv convert
// Textures.lib:NAME.0 NAME.png` and back (conversion/texture.hpp converts). The PNG carries level 0
// (optionally every level); the sidecar `NAME.sidecar.json` (kind "texm") carries what PNG cannot.
// A binding sidecar (`mshconv-sidecar/2`, docs/sidecar.md) holds the header words, the Page
// rectangles, the palette's X bytes, the levels no PNG carries (and a level its PNG does not hold
// exactly: 888 X bytes) and the tail; the import rebuilds the texture from the PNGs and these
// fields, so an edit of one changes the Texm. A first-layout sidecar (`mshconv-sidecar/1`) carries
// the whole payload.
#pragma once

#include "formats/bytes.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "written_file.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace msh::sidecar {

// Where a level of a binding sidecar comes from.
enum class LevelSource {
    Png,     // the level-0 PNG
    MipPng,  // the mip PNG the export wrote (`mips`, --mips)
    Sidecar, // its bytes in the sidecar
};

struct TextureLevel {
    LevelSource from = LevelSource::Sidecar;
    uint64_t size = 0;    // bytes of the level as exported
    uint64_t xxh3_64 = 0; // their hash: a PNG whose level encodes to them is unchanged
    // The level's bytes: always for Sidecar; for a PNG level only when its PNG does not hold the
    // bytes exactly (888 X bytes other than 0), kept while the PNG's pixels are unchanged.
    std::optional<Bytes> bytes;
};

// The sidecar (kind "texm"), typed; its JSON form is written and read at the edge
// (texture_sidecar_text / read_texture_sidecar).
struct TextureSidecar {
    int layout = 2;                // 2: binding; 1: the first layout (`original`)
    std::string source;            // address of the texture (archive:entry, no folders)
    std::string png;               // file name of the level-0 PNG
    std::vector<std::string> mips; // file names of levels 1.. (written with --mips)
    // Binding: mip_count, flags4, flags5, unknown6 and format are read (width and height are the
    // PNG's); the first layout: as read.
    texm::Header header;
    std::optional<std::vector<texm::PageRect>> page; // atlas rectangles
    // The texm-rgb reading the export used (888 pixels, palette entries); the import uses it.
    ChannelOrder channel_order = ChannelOrder::Bgr;

    // Binding layout.
    uint64_t source_size = 0, source_xxh3_64 = 0; // the Texm payload an unedited import rebuilds
    uint32_t encoded_format = 0;                  // the format the levels' bytes and hashes are in
    std::vector<TextureLevel> levels;             // per level of the export
    Bytes palette_x; // format 0: the 256 X bytes (R, G, B are the PNG's palette)
    Bytes tail;      // bytes after the levels that are not a Page chunk
    // Per member ("header", "page", "palette_x", "tail", "readings"), its check as exported.
    std::map<std::string, uint16_t> checks;
    std::vector<uint16_t> level_checks; // per level row: its size and hash as exported
    std::vector<std::string> edits;     // read: the members whose check no longer matches
    std::string where;                  // read: the sidecar's name, for errors at a JSON pointer

    // First layout.
    Bytes palette;           // format 0: 256 x (B, G, R, X); empty otherwise
    uint64_t tail_bytes = 0; // bytes after the last level
    Bytes original;          // the Texm payload (size and hash checked on read)
    WrittenFile written;     // the level-0 PNG as the export wrote it (written_file.hpp)
};

std::string texture_sidecar_text(const TextureSidecar& sidecar);
// Reads every field; throws FormatError naming `where` and the JSON pointer of the field (a
// hash that does not match the original payload included), or where the text is not JSON.
TextureSidecar read_texture_sidecar(ByteView text, const std::string& where);

// File name of mip level k beside `png_name` (`NAME.mip<k>.png` for `NAME.png`).
std::string mip_png_name(const std::string& png_name, uint32_t level);

} // namespace msh::sidecar
