// convert, Texm texture <-> PNG (texm-materials.md §8). Export: `Textures.lib:NAME.0 NAME.png`
// writes level 0 (and with --mips every level as NAME.mip<k>.png) plus NAME.sidecar.json. Import:
// `NAME.png Textures.lib:NAME.0` (an existing archive entry, rewritten losslessly) or `NAME.texm`;
// an unchanged PNG gives the original bytes. The work is in sidecar/texture_sidecar.
#include "address.hpp"
#include "commands.hpp"
#include "convert.hpp"
#include "options.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/texm.hpp"
#include "pipeline/texture.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <charconv>
#include <cstdio>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

fs::path sidecar_for(const fs::path& png, const po::variables_map& vm) {
    return vm.count("sidecar") ? fs::path(vm["sidecar"].as<std::string>())
                               : png.parent_path() / (png.stem().string() + ".sidecar.json");
}

std::optional<texm::Format> format_option(const po::variables_map& vm) {
    if (!vm.count("format")) return std::nullopt;
    const std::string text = vm["format"].as<std::string>();
    uint32_t code = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), code);
    std::optional<texm::Format> f;
    if (r.ec == std::errc() && r.ptr == text.data() + text.size()) f = texm::to_format(code);
    if (!f)
        throw UsageError("--format must be one of 0, 565, 556, 4444, 88, 888, 8888, got '" + text +
                         "'");
    return f;
}

} // namespace

png::EncodeOptions png_options(const po::variables_map& vm) {
    if (!vm.count("png-level")) return {};
    try {
        return png::options_for_level(vm["png-level"].as<int>());
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--png-level: ") + e.what());
    }
}

void add_reading_option(po::options_description& desc) {
    std::string help = "select a contested reading of the formats (repeatable; docs/formats/"
                       "README.md): ";
    for (const ReadingInfo& info : reading_infos()) {
        help.append(info.name).append("=");
        for (size_t v = 0; v < info.variants.size(); ++v)
            help.append(v ? "|" : "").append(info.variants[v]);
        help.append(" (default ").append(info.variants.front()).append("); ");
    }
    help += "`mshconv survey` says which the game's files support";
    desc.add_options()("reading", po::value<std::vector<std::string>>()->composing(), help.c_str());
}

Readings readings_option(const po::variables_map& vm) {
    Readings r;
    if (!vm.count("reading")) return r;
    for (const std::string& a : vm["reading"].as<std::vector<std::string>>()) try {
            set_reading(r, a);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--reading: ") + e.what());
        }
    return r;
}

int export_texture(const Loaded& in, const fs::path& out_png, const po::variables_map& vm) {
    if (lower_ascii(out_png.extension().string()) != ".png")
        throw UsageError("OUT must end in .png for a texture: " + out_png.string());
    if (vm.count("format")) throw UsageError("--format applies to PNG -> Texm only");
    const std::string where = in.address.display();
    pipeline::TextureExportSettings settings;
    settings.output_name = out_png.filename().string();
    settings.mips = vm.count("mips") > 0;
    settings.png = png_options(vm);
    settings.readings = readings_option(vm);
    const pipeline::TextureExport e = pipeline::export_texture(in.bytes, where, settings);
    // Everything is encoded in memory; each file is written atomically, the sidecar last.
    const std::string text = sidecar::texture_sidecar_text(e.sidecar);
    pipeline::write_outputs(out_png.parent_path(), e.files, sidecar_for(out_png, vm), text);
    spdlog::info("{} -> {} ({}x{}, format {}, {} levels{})", where, out_png.string(),
                 e.summary.width, e.summary.height, e.summary.format, e.summary.levels,
                 settings.mips ? ", all written" : "");
    return 0;
}

sidecar::TextureImport import_texture_files(const fs::path& png, const fs::path& sidecar_path,
                                            std::optional<texm::Format> format, uint64_t max_pixels,
                                            bool full_read) {
    pipeline::TextureImportInput input;
    input.png = read_file(png);
    if (fs::exists(sidecar_path)) {
        input.sidecar =
            sidecar::read_texture_sidecar(read_file(sidecar_path), sidecar_path.string());
        // Mip PNGs the export wrote (--mips), when they are still there.
        for (const std::string& name : input.sidecar->mips) {
            const fs::path p = png.parent_path() / name;
            if (fs::exists(p))
                input.mips.push_back(read_file(p));
            else
                input.mips.emplace_back();
        }
    }
    pipeline::TextureImportSettings settings;
    settings.format = format;
    settings.where = png.string();
    settings.max_pixels = max_pixels;
    settings.full_read = full_read;
    return pipeline::import_texture(std::move(input), settings);
}

int import_texture(const fs::path& png, const std::string& out_spec, const po::variables_map& vm) {
    if (vm.count("mips")) throw UsageError("--mips applies to Texm -> PNG only");
    const Address out = parse_address(out_spec);
    if (out.entries.empty() && lower_ascii(out.file.extension().string()) == ".png")
        throw UsageError("OUT must be a Texm: an archive entry (Textures.lib:NAME.0) or a .texm "
                         "file, not " +
                         out_spec);
    const std::optional<texm::Format> format = format_option(vm);
    const fs::path sidecar_path = sidecar_for(png, vm);
    if (!fs::exists(sidecar_path)) {
        if (vm.count("sidecar")) throw FormatError(sidecar_path.string(), 0, "sidecar not found");
        spdlog::warn("{}: no sidecar at {}; writing a new texture", png.string(),
                     sidecar_path.string());
    }
    const sidecar::TextureImport r = import_texture_files(
        png, sidecar_path, format, vm["max-pixels"].as<uint64_t>(), vm.count("full-read") > 0);
    store(out, r.texm);
    if (spdlog::get_level() <= spdlog::level::warn)
        for (const std::string& n : r.notes)
            std::printf("%s -> %s: %s\n", png.string().c_str(), out.display().c_str(), n.c_str());
    return 0;
}

} // namespace msh::cli
