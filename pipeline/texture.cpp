#include "texture.hpp"

#include "formats/diagnostics.hpp"

namespace msh::pipeline {

TextureExport export_texture(ByteView texm, const std::string& address,
                             const TextureExportSettings& settings) {
    sidecar::TextureExport e =
        sidecar::export_texture(texm, address, settings.output_name, settings.mips);
    TextureExport out;
    for (size_t k = 0; k < e.mips.size(); ++k)
        out.files.push_back(
            {sidecar::mip_png_name(settings.output_name, uint32_t(k + 1)), std::move(e.mips[k])});
    out.files.push_back({settings.output_name, std::move(e.png)});
    const auto& header = e.sidecar["header"];
    out.summary = {header["width"].get<uint32_t>(), header["height"].get<uint32_t>(),
                   e.sidecar["format"].get<uint32_t>(), header["mip_count"].get<uint32_t>()};
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
    return sidecar::import_texture(in);
}

std::string texture_sidecar_text(const nlohmann::json& sidecar) {
    return sidecar.dump(1) + "\n";
}

nlohmann::json read_texture_sidecar(ByteView text, const std::string& where) {
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(where, 0, std::string("not JSON: ") + e.what());
    }
}

} // namespace msh::pipeline
