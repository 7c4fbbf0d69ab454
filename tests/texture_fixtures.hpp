// A texture exported in memory as `mshconv convert` writes it: level 0, the mip PNGs and the
// sidecar, each on its own.
#pragma once

#include "conversion/texture.hpp"

#include <string>
#include <utility>
#include <vector>

namespace msh::test {

struct TextureFiles {
    Bytes png;               // level 0
    std::vector<Bytes> mips; // levels 1.. (with `mips`)
    sidecar::TextureSidecar sidecar;
};

inline TextureFiles texture_files(ByteView texm, const std::string& where,
                                  const std::string& png_name, bool mips) {
    conversion::TextureExportSettings settings;
    settings.output_name = png_name;
    settings.mips = mips;
    conversion::TextureExport e = conversion::encode_texture(texm, where, settings);
    TextureFiles out;
    out.png = std::move(e.files.back().bytes); // the mips come first
    e.files.pop_back();
    for (conversion::OutputFile& f : e.files) out.mips.push_back(std::move(f.bytes));
    out.sidecar = std::move(e.sidecar);
    return out;
}

} // namespace msh::test
