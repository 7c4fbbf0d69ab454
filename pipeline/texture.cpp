#include "texture.hpp"

#include "formats/diagnostics.hpp"

namespace msh::pipeline {

TextureExport export_texture(ByteView texm, const std::string& address,
                             const TextureExportSettings& settings) {
    sidecar::TextureExport e =
        sidecar::export_texture(texm, address, settings.output_name, settings.mips, settings.png,
                                settings.readings.texm_rgb);
    TextureExport out;
    for (size_t k = 0; k < e.mips.size(); ++k)
        out.files.push_back(
            {sidecar::mip_png_name(settings.output_name, uint32_t(k + 1)), std::move(e.mips[k])});
    out.files.push_back({settings.output_name, std::move(e.png)});
    const texm::Header& header = e.sidecar.header;
    out.summary = {header.width, header.height, header.format, header.mip_count};
    out.sidecar = std::move(e.sidecar);
    return out;
}

sidecar::TextureImport import_texture(TextureImportInput input,
                                      const TextureImportSettings& settings) {
    sidecar::TextureImportInput in;
    in.png = std::move(input.png);
    in.mips = std::move(input.mips);
    in.sidecar = std::move(input.sidecar);
    in.format = settings.format;
    in.where = settings.where;
    in.max_pixels = settings.max_pixels;
    in.full_read = settings.full_read;
    in.order = settings.readings.texm_rgb;
    return sidecar::import_texture(in);
}

} // namespace msh::pipeline
