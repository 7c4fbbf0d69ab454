#include "model_import.hpp"

#include "formats/assimp_read.hpp"
#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/obj.hpp"
#include "mapping/scene_to_model.hpp"
#include "mapping/scene_to_new_model.hpp"
#include "outputs.hpp"
#include "scene/merge_animations.hpp"

namespace msh::pipeline {

ModelImport import_model(const scene::Scene& incoming, const sidecar::ModelSidecar* sidecar,
                         const ImportSettings& settings) {
    ModelImport out;
    // One timeline: merged (or picked) in a copy only when there is more than one animation.
    std::optional<scene::Scene> merged;
    if (incoming.animations.size() > 1 || settings.animation != "all") {
        merged = incoming;
        try {
            scene::merge_animations(*merged, settings.animation);
        } catch (const std::invalid_argument& e) {
            throw FormatError(settings.where, Location::whole(), e.what());
        }
    }
    const scene::Scene& scene = merged ? *merged : incoming;
    if (!sidecar) {
        mapping::NewModelOptions opt;
        opt.fps = settings.fps.value_or(24.0);
        opt.where = settings.where;
        DiagnosticSink diagnostics(ReadMode::Tolerant);
        mapping::NewModelResult r = mapping::build_new_model(scene, opt, diagnostics);
        out.warnings = diagnostics.warning_texts();
        out.msh = std::move(r.image);
        out.new_model = true;
        out.new_model_summary = std::move(r.summary);
        return out;
    }
    out.pairing =
        sidecar::check_pairing(sidecar::scene_pairing_token(scene.extras), sidecar->record.pair,
                               settings.where, settings.sidecar_name, settings.force);
    // An --fps override changes the key times the import expects; copy only then.
    std::optional<sidecar::ModelSidecar> overridden;
    if (settings.fps && *settings.fps != sidecar->record.fps) {
        overridden = *sidecar;
        overridden->record.fps = *settings.fps;
        sidecar = &*overridden;
    }
    mapping::ImportResult r =
        mapping::import_scene(scene, *sidecar, settings.from_obj, settings.where);
    out.warnings = r.report.warnings;
    out.msh = std::move(r.image);
    out.identical = r.identical;
    out.changes = std::move(r.report);
    return out;
}

nlohmann::json report_json(const ModelImport& result) {
    if (result.changes) {
        nlohmann::json report = mapping::to_json(*result.changes);
        if (result.pairing) report["pairing"] = sidecar::to_string(*result.pairing);
        return report;
    }
    nlohmann::json report = {{"sidecar", nullptr},
                             {"new_model", true},
                             {"summary", mapping::to_json(result.new_model_summary)}};
    report["warnings"] = result.warnings;
    return report;
}

scene::Scene read_scene_file(const std::filesystem::path& file, std::vector<std::string>& warnings,
                             bool lines) {
    const std::optional<SceneFormat> format = scene_format_of(file.filename().string());
    if (!format && assimp_read::handles(file.filename().string())) {
        DiagnosticSink diagnostics(ReadMode::Tolerant);
        scene::Scene scene = assimp_read::read(file, diagnostics);
        for (std::string& w : diagnostics.warning_texts()) warnings.push_back(std::move(w));
        return scene;
    }
    if (!format)
        throw FormatError(file.string(), 0,
                          "not a .gltf, .glb or .obj file, nor a format Assimp reads");
    if (*format == SceneFormat::Obj) {
        const Bytes bytes = read_file(file);
        const std::string text(bytes.begin(), bytes.end());
        scene::Scene scene = obj::read(text, file.string());
        for (const std::string& lib : obj::material_libraries(text, file.string())) {
            std::error_code ec;
            if (!std::filesystem::is_regular_file(file.parent_path() / lib, ec))
                warnings.push_back(file.string() + ": mtllib " + lib +
                                   " is not beside the OBJ; its materials are taken by their "
                                   "usemtl names only");
        }
        return scene;
    }
    gltf::ReadOptions options;
    options.lines = lines;
    DiagnosticSink diagnostics(ReadMode::Tolerant);
    scene::Scene scene = gltf::read(file, diagnostics, options);
    for (std::string& w : diagnostics.warning_texts()) warnings.push_back(std::move(w));
    return scene;
}

scene::Scene read_scene(ByteView bytes, SceneFormat format, const std::string& where,
                        std::vector<std::string>& warnings, bool lines) {
    gltf::ReadOptions options;
    options.lines = lines;
    if (format == SceneFormat::Obj)
        return obj::read(std::string(bytes.begin(), bytes.end()), where);
    DiagnosticSink diagnostics(ReadMode::Tolerant);
    scene::Scene scene = format == SceneFormat::Glb
                             ? gltf::read_glb(bytes, where, diagnostics, options)
                             : gltf::read_gltf_text(bytes, where, diagnostics, options);
    for (std::string& w : diagnostics.warning_texts()) warnings.push_back(std::move(w));
    return scene;
}

} // namespace msh::pipeline
