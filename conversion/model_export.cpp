#include "model_export.hpp"

#include "formats/diagnostics.hpp"
#include "formats/msh.hpp"
#include "formats/wear.hpp"
#include "mapping/bounds.hpp"
#include "mapping/model_rebuild.hpp"
#include "mapping/skin.hpp"
#include "sidecar/portable_address.hpp"

#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace msh::conversion {

namespace {

struct WearRows {
    std::vector<std::string> materials, lightmaps;
    std::vector<int32_t> material_ids; // the rows' legacy ids (the wear-id batch reading)
};

WearRows read_wear(const std::optional<NamedBytes>& wear, const std::string& where,
                   sidecar::ExportRecord& record, ModelExport& out) {
    WearRows rows;
    if (!wear) {
        out.notes.push_back(where + ": no sibling .wea; materials named mat_<row>");
        return rows;
    }
    try {
        const wear::Wear table = wear::read(wear->bytes, wear->address);
        rows.materials = wear::material_names(table);
        rows.lightmaps = wear::lightmap_names(table);
        for (const wear::Row& r : table.materials) rows.material_ids.push_back(r.legacy_id);
        record.wear_source = sidecar::portable_address(wear->address);
        record.wear_image = wear->bytes;
        record.wear_rows = rows.materials;
        record.wear_lightmaps = rows.lightmaps;
    } catch (const FormatError& e) {
        out.warnings.push_back(std::string(e.what()) + " (materials named mat_<row>)");
    }
    return rows;
}

// Textures through WEAR -> Material.lib -> Textures.lib (and the lightmap through LightMap.lib).
void texture_scene(scene::Scene& sc, const mapping::ExportOptions& opt,
                   const std::vector<std::string>& lightmap_names,
                   const mapping::MaterialLibraries& libs, const std::string& where,
                   const png::EncodeOptions& png, ModelExport& out) {
    DiagnosticSink diagnostics(ReadMode::Tolerant);
    const auto resolved = mapping::resolve_materials(opt.material_names, libs, diagnostics, png);
    out.summary.textured_materials = mapping::apply_materials(sc, resolved);
    if (opt.lightmapped)
        mapping::apply_lightmaps(
            sc, mapping::resolve_lightmaps(lightmap_names, libs, diagnostics, png));
    for (const std::string& w : diagnostics.warning_texts())
        out.warnings.push_back(where + ": " + w);
    // The libraries' file names, without their folders.
    auto file_name = [](const std::string& path) {
        return std::filesystem::path(path).filename().string();
    };
    nlohmann::json used = nlohmann::json::object();
    if (libs.materials) used["materials"] = file_name(libs.materials_name);
    if (libs.textures) used["textures"] = file_name(libs.textures_name);
    if (opt.lightmapped && libs.lightmaps) used["lightmaps"] = file_name(libs.lightmaps_name);
    if (!used.empty()) sc.extras["mshconv"]["libraries"] = used;
}

} // namespace

std::string settings_problem(const ModelExportSettings& s) {
    auto choice = [](int v, int count, const char* what) -> std::string {
        if (v == mapping::kAll || (v >= 0 && v < count)) return {};
        return std::string("--") + what + " must be 0.." + std::to_string(count - 1) +
               " or 'all', got '" + std::to_string(v) + "'";
    };
    if (s.skin && s.format == SceneFormat::Obj) return "--skin applies to glTF output only";
    if (std::string p = choice(s.lod, kLods, "lod"); !p.empty()) return p;
    if (std::string p = choice(s.group, kGroups, "group"); !p.empty()) return p;
    if (s.msft_lod && s.lod != mapping::kAll) return "--msft-lod needs --lod all";
    if (!(s.fps > 0) || !std::isfinite(s.fps)) return "--fps must be a positive number";
    return {};
}

namespace {

// Everything encode_model does before encoding: the model read, the scene built and textured.
struct Prepared {
    Model model;
    scene::Scene scene;
    sidecar::ExportRecord record;
    ModelExport out; // warnings, notes and summary so far
};

Prepared prepare(const ModelExportInput& in, const ModelExportSettings& settings) {
    if (const std::string problem = settings_problem(settings); !problem.empty())
        throw std::invalid_argument(problem);
    const std::string& where = in.address;
    DiagnosticSink sink(ReadMode::Tolerant);
    Prepared p{read_model(in.model, sink, where, in.model_keeper), {}, {}, {}};
    p.model.animation.key_order = settings.readings.key_quaternion;
    ModelExport& out = p.out;
    const Model& model = p.model;
    for (const Diagnostic& d : sink.diagnostics()) out.warnings.push_back(d.text());
    sink.throw_if_errors();

    mapping::ExportOptions opt;
    opt.lod = settings.lod;
    opt.group = settings.group;
    opt.fps = settings.fps;
    opt.msft_lod = settings.msft_lod;
    const std::string ext = extension_of(settings.format);
    sidecar::ExportRecord& record = p.record;
    record.source = sidecar::portable_address(where);
    record.output = settings.output_name;
    record.format = ext.substr(1);
    record.fps = opt.fps;
    const WearRows rows = read_wear(in.wear, where, record, out);
    opt.material_names = rows.materials;
    opt.material_ids = rows.material_ids;
    opt.batch_material = settings.readings.batch_material;
    opt.slot_names = settings.readings.slots;
    opt.rest_pose = settings.rest_pose;
    record.readings = settings.readings;
    record.options = {opt.lod, opt.group, settings.skin, opt.msft_lod};
    // Lightmaps (glTF only: OBJ has no second texture slot on a second UV set).
    if (!rows.lightmaps.empty() && settings.format != SceneFormat::Obj) {
        const std::string problem = mapping::lightmap_uv_problem(model);
        if (problem.empty())
            opt.lightmapped = true;
        else
            out.warnings.push_back(where + ": the WEAR names lightmap " + rows.lightmaps[0] +
                                   ", but " + problem + "; no lightmap");
    }
    p.scene = mapping::model_to_scene(model, opt);
    if (settings.skin)
        p.scene =
            mapping::skin_scene(std::move(p.scene), model.legacy_nodes ? 1 : model.nodes.size());
    if (!opt.material_names.empty() && in.libraries)
        if (const auto libs = in.libraries({opt.material_names, rows.lightmaps}))
            texture_scene(p.scene, opt, rows.lightmaps, *libs, where, settings.png, out);
    return p;
}

} // namespace

ModelScene model_scene(const ModelExportInput& in, const ModelExportSettings& settings) {
    Prepared p = prepare(in, settings);
    p.out.summary.nodes = p.scene.nodes.size();
    p.out.summary.meshes = p.scene.meshes.size();
    p.out.summary.materials = p.scene.materials.size();
    p.out.summary.animated = !p.scene.animations.empty();
    return {std::move(p.model), std::move(p.scene), std::move(p.out.warnings),
            std::move(p.out.notes), p.out.summary};
}

ModelExport encode_model(const ModelExportInput& in, const ModelExportSettings& settings) {
    Prepared p = prepare(in, settings);
    ModelExport& out = p.out;
    scene::Scene& sc = p.scene;
    sidecar::ExportRecord& record = p.record;
    // The model's hash, for the pairing token and the sidecar.
    const uint64_t model_hash = sidecar::payload_hash(in.model);
    record.pair = sidecar::model_pairing_token(model_hash, record);
    sc.identity.pair = record.pair;
    auto& extras = sc.extras["mshconv"];
    extras["source"] = record.source;
    for (const auto& [name, variant] : reading_map(record.readings))
        extras["readings"][name] = variant;
    extras["sidecar"] = settings.sidecar_name.empty() ? default_sidecar_name(settings.output_name)
                                                      : settings.sidecar_name;
    // The vertices the file holds exactly (OBJ and skinned exports are in world space): the
    // binding sidecar carries the others.
    const bool world_space = settings.skin || settings.format == SceneFormat::Obj;
    const std::vector<bool> held = mapping::held_vertices(p.model, sc, world_space);
    out.files = scene_files(sc, settings.format, settings.output_name);
    record.written = written_file(out.files, settings.format, settings.output_name);
    out.summary.nodes = sc.nodes.size();
    out.summary.meshes = sc.meshes.size();
    out.summary.materials = sc.materials.size();
    out.summary.animated = !sc.animations.empty();
    sc = {}; // encoded: its memory serves the sidecar (a whole-command cost at game scale)
    const mapping::RuleFaceNormals normals = mapping::rule_face_normals(p.model);
    out.sidecar =
        sidecar::make_binding_sidecar(p.model, in.model.size(), std::move(record), model_hash, held,
                                      mapping::derived_rules(p.model, normals), normals);
    return std::move(out);
}

} // namespace msh::conversion
