// convert, MSH model -> glTF 2.0 (.gltf + .bin, or .glb) or OBJ + MTL, plus OUT_STEM.sidecar.json.
#include "address.hpp"
#include "convert.hpp"

#include "formats/file_io.hpp"
#include "formats/names.hpp"
#include "formats/nres.hpp"
#include "game_files.hpp"
#include "mapping/materials.hpp"
#include "model_export.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

namespace msh::conversion {

namespace fs = std::filesystem;

std::string model_wear_name(const Address& model) {
    return name_stem(model.entries.empty() ? model.file.filename().string()
                                           : model.entries.back()) +
           ".wea";
}

mapping::MaterialLibraries open_libraries(const Job& job, const fs::path& default_dir,
                                          const mapping::LibraryNeeds* needs) {
    const ConvertOptions& o = job.options;
    fs::path dir = default_dir.empty() ? fs::path(".") : default_dir;
    if (!o.game_dir.empty()) {
        dir = o.game_dir;
        if (!job.io.is_folder(dir)) throw UsageError("--game-dir is not a folder: " + dir.string());
    }
    auto explicit_file = [&](const fs::path& p, const char* option) -> std::optional<fs::path> {
        if (p.empty()) return std::nullopt;
        if (!job.io.is_file(p))
            throw UsageError(std::string("--") + option + ": no such file: " + p.string());
        return p;
    };
    std::vector<std::string> warnings;
    mapping::MaterialLibraries libs = open_game_libraries(
        dir, {explicit_file(o.materials, "materials"), explicit_file(o.textures, "textures")},
        warnings, needs, job.io);
    for (const std::string& w : warnings) job.warn(w);
    libs.channel_order = readings_of(o).texm_rgb;
    return libs;
}

ModelExportSettings model_export_settings(const ConvertOptions& o, const fs::path& out) {
    const std::string ext = lower_ascii(out.extension().string());
    const std::optional<SceneFormat> format = scene_format_of(out.filename().string());
    if (!format) throw UsageError("a model converts to .gltf, .glb or .obj, not '" + ext + "'");
    ModelExportSettings s;
    s.format = *format;
    s.output_name = out.filename().string();
    static_assert(mshconv::kAll == mapping::kAll);
    s.lod = o.lod.value_or(0);
    s.group = o.group.value_or(0);
    s.fps = o.fps.value_or(24.0);
    s.skin = o.skin;
    s.msft_lod = o.msft_lod;
    s.png = png_options(o);
    s.readings = readings_of(o);
    if (const std::string problem = settings_problem(s); !problem.empty())
        throw UsageError(problem);
    return s;
}

ModelExportInput model_export_input(const Job& job, const Loaded& in,
                                    const ModelExportContext* context) {
    ModelExportInput input;
    input.model = in.bytes;
    input.model_keeper = in.bytes.keeper();
    input.address = in.address.display();
    // The model's WEAR: `<stem>.wea` in the same archive, or next to a plain model file.
    const std::optional<Sibling> wear =
        context ? context->wear : find_sibling(job.io, in.address, model_wear_name(in.address));
    if (wear) input.wear = NamedBytes{wear->address, wear->bytes.to_bytes()};
    input.libraries = [&job, &in, context](const mapping::LibraryNeeds& needs)
        -> std::shared_ptr<const mapping::MaterialLibraries> {
        if (context && context->libraries) // batch's, shared by many models: not ours to free
            return {std::shared_ptr<void>(), context->libraries};
        return std::make_shared<const mapping::MaterialLibraries>(
            open_libraries(job, in.address.file.parent_path(), &needs)); // only what it needs
    };
    return input;
}

void export_model(const Job& job, const Loaded& in, const fs::path& out,
                  const ModelExportContext* context) {
    const std::string ext = lower_ascii(out.extension().string());
    if (ext != ".gltf" && ext != ".glb" && ext != ".obj")
        throw UsageError("OUT must end in .gltf, .glb or .obj: " + out.string());
    ModelExportSettings settings = model_export_settings(job.options, out);
    const fs::path sidecar_path = export_sidecar_path(job, out);
    settings.sidecar_name = sidecar_path.filename().string();

    const ModelExportInput input = model_export_input(job, in, context);
    const ModelExport result = encode_model(input, settings);
    for (const std::string& w : result.warnings) job.warn(w);
    for (const std::string& n : result.notes) job.info(n);

    // Everything is encoded; the files and the sidecar (last) appear together or not at all.
    const std::string sidecar_text = sidecar::model_sidecar_text(result.sidecar);
    write_outputs(out.parent_path(), result.files, sidecar_path, sidecar_text, job.io);
    const ModelExportSummary& s = result.summary;
    job.info(input.address + " -> " + out.string() + " (" + std::to_string(s.nodes) + " nodes, " +
             std::to_string(s.meshes) + " meshes, " + std::to_string(s.materials) + " materials" +
             (s.animated ? ", animated" : "") + ")");
}

} // namespace msh::conversion
