// convert, Texm texture <-> PNG (texm-materials.md §8). Export: `Textures.lib:NAME.0 NAME.png`
// writes level 0 (and with --mips every level as NAME.mip<k>.png) plus NAME.sidecar.json. Import:
// `NAME.png Textures.lib:NAME.0` (an existing archive entry, rewritten losslessly) or `NAME.texm`;
// an unchanged PNG gives the original bytes. The work on bytes is texture.hpp's.
#include "address.hpp"
#include "convert.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/texm.hpp"
#include "texture.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace msh::conversion {

namespace fs = std::filesystem;

namespace {

fs::path sidecar_for(const fs::path& png, const ConvertOptions& o) {
    return !o.sidecar.empty() ? o.sidecar
                              : png.parent_path() / (png.stem().string() + ".sidecar.json");
}

std::optional<texm::Format> format_option(const ConvertOptions& o) {
    if (!o.format) return std::nullopt;
    const std::optional<texm::Format> f = texm::to_format(*o.format);
    if (!f)
        throw UsageError("--format must be one of 0, 565, 556, 4444, 88, 888, 8888, got '" +
                         std::to_string(*o.format) + "'");
    return f;
}

} // namespace

png::EncodeOptions png_options(const ConvertOptions& o) {
    if (!o.png_level) return {};
    try {
        return png::options_for_level(*o.png_level);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--png-level: ") + e.what());
    }
}

Readings readings_of(const ConvertOptions& o) {
    Readings r;
    for (const mshconv::Reading& a : o.readings) try {
            if (is_level_reading(a.name)) continue; // a level's (apply_level_readings)
            set_reading(r, a.name + "=" + a.variant);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--reading: ") + e.what());
        }
    return r;
}

void export_texture(const Job& job, const Loaded& in, const fs::path& out_png) {
    const ConvertOptions& o = job.options;
    if (lower_ascii(out_png.extension().string()) != ".png")
        throw UsageError("OUT must end in .png for a texture: " + out_png.string());
    if (o.format) throw UsageError("--format applies to PNG -> Texm only");
    const std::string where = in.address.display();
    TextureExportSettings settings;
    settings.output_name = out_png.filename().string();
    settings.mips = o.mips;
    settings.png = png_options(o);
    settings.readings = readings_of(o);
    const TextureExport e = encode_texture(in.bytes, where, settings);
    // Everything is encoded in memory; each file is written atomically, the sidecar last.
    const std::string text = sidecar::texture_sidecar_text(e.sidecar);
    write_outputs(out_png.parent_path(), e.files, sidecar_for(out_png, o), text, job.io);
    job.info(where + " -> " + out_png.string() + " (" + std::to_string(e.summary.width) + "x" +
             std::to_string(e.summary.height) + ", format " + std::to_string(e.summary.format) +
             ", " + std::to_string(e.summary.levels) + " levels" +
             (settings.mips ? ", all written" : "") + ")");
}

TextureImport import_texture_files(Io& io, const fs::path& png, const fs::path& sidecar_path,
                                   std::optional<texm::Format> format, uint64_t max_pixels,
                                   bool full_read) {
    TextureImportInput input;
    input.png = read_bytes(io, png);
    if (io.is_file(sidecar_path)) {
        input.sidecar =
            sidecar::read_texture_sidecar(read_payload(io, sidecar_path), sidecar_path.string());
        // Mip PNGs the export wrote (--mips), when they are still there.
        for (const std::string& name : input.sidecar->mips) {
            const fs::path p = png.parent_path() / name;
            if (io.is_file(p))
                input.mips.push_back(read_bytes(io, p));
            else
                input.mips.emplace_back();
        }
    }
    TextureImportSettings settings;
    settings.format = format;
    settings.where = png.string();
    settings.max_pixels = max_pixels;
    settings.full_read = full_read;
    return rebuild_texture(std::move(input), settings);
}

void import_texture(const Job& job, const fs::path& png, const std::string& out_spec) {
    const ConvertOptions& o = job.options;
    if (o.mips) throw UsageError("--mips applies to Texm -> PNG only");
    const Address out = parse_address(job.io, out_spec);
    if (out.entries.empty() && lower_ascii(out.file.extension().string()) == ".png")
        throw UsageError("OUT must be a Texm: an archive entry (Textures.lib:NAME.0) or a .texm "
                         "file, not " +
                         out_spec);
    const std::optional<texm::Format> format = format_option(o);
    const fs::path sidecar_path = sidecar_for(png, o);
    if (!job.io.is_file(sidecar_path)) {
        if (!o.sidecar.empty())
            throw FormatError(sidecar_path.string(), Location::whole(), "sidecar not found");
        job.warn(png.string() + ": no sidecar at " + sidecar_path.string() +
                 "; writing a new texture");
    }
    const TextureImport r =
        import_texture_files(job.io, png, sidecar_path, format,
                             o.max_pixels.value_or(png::kDefaultMaxPixels), o.full_read);
    store(job.io, out, r.texm);
    for (const std::string& n : r.notes)
        job.report(png.string() + " -> " + out.display() + ": " + n);
    for (const std::string& e : r.sidecar_edits) job.report("  sidecar field edited: " + e);
    for (const std::string& w : r.warnings) job.warn(w);
}

} // namespace msh::conversion
