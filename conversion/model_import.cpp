#include "model_import.hpp"

#include "formats/assimp_read.hpp"
#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/mtl.hpp"
#include "formats/obj.hpp"
#include "mapping/model_rebuild.hpp"
#include "mapping/scene_to_model.hpp"
#include "mapping/scene_to_new_model.hpp"
#include "outputs.hpp"
#include "scene/merge_animations.hpp"

namespace msh::conversion {

ModelImport rebuild_model(const scene::Scene& incoming, const sidecar::ModelSidecar* sidecar,
                          const ModelImportSettings& settings) {
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
        opt.slot_names = settings.readings.slots;
        DiagnosticSink diagnostics(ReadMode::Tolerant);
        mapping::NewModelResult r = mapping::build_new_model(scene, opt, diagnostics);
        out.warnings = diagnostics.warning_texts();
        out.msh = std::move(r.image);
        out.new_model = true;
        out.new_model_summary = std::move(r.summary);
        return out;
    }
    out.pairing = sidecar::check_pairing(sidecar::scene_pairing_token(scene), sidecar->record.pair,
                                         settings.where, settings.sidecar_name, settings.force);
    // An --fps override changes the key times the import expects; copy only then.
    std::optional<sidecar::ModelSidecar> overridden;
    if (settings.fps && *settings.fps != sidecar->record.fps) {
        overridden = *sidecar;
        overridden->record.fps = *settings.fps;
        sidecar = &*overridden;
    }
    mapping::ImportResult r = mapping::import_scene(scene, *sidecar, settings.from_obj,
                                                    settings.where, settings.sidecar_name);
    out.warnings = sidecar->unread;
    out.warnings.insert(out.warnings.end(), r.report.warnings.begin(), r.report.warnings.end());
    out.msh = std::move(r.image);
    out.identical = r.identical;
    out.changes = std::move(r.report);
    return out;
}

std::optional<ModelImport> rebuild_unchanged_model(const std::filesystem::path& file,
                                                   const sidecar::ModelSidecar& sidecar,
                                                   const ModelImportSettings& settings,
                                                   mshconv::Io& io) {
    const bool as_exported = !settings.from_obj && settings.animation == "all" &&
                             (!settings.fps || *settings.fps == sidecar.record.fps);
    // The file of this export carries its token: rebuild_model would find the pair verified.
    if (!as_exported || sidecar.record.pair.empty() ||
        !is_written_file(file, sidecar.record.written, io))
        return std::nullopt;
    ModelImport out;
    if (sidecar.binding) {
        // The image is rebuilt with the file's vertices; the scene is read for them only, and
        // nothing is compared: the file is the one the export wrote.
        std::optional<scene::Scene> vertices;
        if (scene_format_of(file.filename().string()) == SceneFormat::Glb) {
            // Its vertices straight from the BIN (the rebuilt image's hash checks them below).
            std::optional<MappedFile> mapped;
            mshconv::FileBytes from_io;
            if (on_disk(&io))
                mapped.emplace(file, Reading::Whole);
            else
                from_io = io.read(file);
            vertices = gltf::read_written_vertices(mapped ? mapped->bytes() : from_io.bytes);
        }
        std::vector<std::string> warnings;
        const scene::Scene scene =
            vertices ? std::move(*vertices) : read_scene_file(file, warnings, false, false, {}, io);
        mapping::RebuiltOriginal rebuilt =
            mapping::rebuild_original(*sidecar.binding, scene, settings.where);
        if (rebuilt.image.size() != sidecar.original_size ||
            sidecar::payload_hash(rebuilt.image) != sidecar.original_hash)
            return std::nullopt; // the full import says why
        out.msh = std::move(rebuilt.image);
    } else {
        out.msh = sidecar.original_image;
    }
    out.identical = true;
    out.warnings = sidecar.unread;
    out.pairing = sidecar::Pairing::Verified;
    out.changes.emplace(); // identical, nothing moved or rebuilt
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

namespace {

// A file an OBJ or MTL names, inside the OBJ's folder (formats/file_io.hpp confined_path); a
// name that leaves it, or a missing file, is a warning and nothing.
std::optional<Bytes> read_named_file(mshconv::Io& io, const std::filesystem::path& folder,
                                     const std::string& name, const std::string& what,
                                     std::vector<std::string>& warnings) {
    std::filesystem::path path;
    try {
        path = confined_path(&io, folder, name);
    } catch (const std::runtime_error& e) {
        warnings.push_back(what + " '" + name + "' not read: " + e.what());
        return std::nullopt;
    }
    if (!io.is_file(path)) {
        // `/` on every system: the warning goes into reports compared across builds.
        warnings.push_back(what + " '" + name + "' is not beside the OBJ (" +
                           path.generic_string() + ")");
        return std::nullopt;
    }
    const mshconv::FileBytes file = io.read(path);
    return Bytes(file.bytes.begin(), file.bytes.end());
}

// The MTL libraries of an OBJ: each usemtl material gets its Kd, d and map_Kd image.
// Without `images` (an import with its sidecar: materials are the sidecar's) only whether each
// library is there.
void read_obj_materials(mshconv::Io& io, scene::Scene& scene, const std::filesystem::path& file,
                        const std::vector<std::string>& libraries, bool images,
                        std::vector<std::string>& warnings) {
    const std::filesystem::path folder = file.parent_path();
    std::vector<mtl::Material> found;
    for (const std::string& lib : libraries) {
        const std::optional<Bytes> text =
            read_named_file(io, folder, lib, file.string() + ": mtllib", warnings);
        if (!text) {
            warnings.back() += "; its materials are taken by their usemtl names only";
            continue;
        }
        if (!images) continue;
        const std::string where = (folder / lib).string();
        for (mtl::Material& m :
             mtl::read(std::string_view(reinterpret_cast<const char*>(text->data()), text->size()),
                       where))
            found.push_back(std::move(m));
    }
    for (scene::Material& mat : scene.materials) {
        const mtl::Material* m = nullptr;
        for (const mtl::Material& f : found)
            if (f.name == mat.name) m = &f; // the last definition wins, as in most readers
        if (!m) continue;
        if (m->diffuse)
            for (size_t k = 0; k < 3; ++k) mat.base_color_factor[k] = (*m->diffuse)[k];
        mat.base_color_factor[3] = m->dissolve;
        if (m->dissolve < 1) mat.alpha_mode = scene::AlphaMode::Blend;
        if (m->diffuse_map.empty()) continue;
        // Backslashes are folder separators in MTLs written on Windows.
        std::string name = m->diffuse_map;
        for (char& c : name)
            if (c == '\\') c = '/';
        if (std::optional<Bytes> image =
                read_named_file(io, folder, name,
                                file.string() + ": material " + mat.name + ": map_Kd", warnings)) {
            mat.base_color =
                scene::Image{std::filesystem::path(name).stem().string(), std::move(*image)};
            // An MTL's Kd is the untextured colour; with a map the image alone is the colour.
            mat.base_color_factor = {1, 1, 1, mat.base_color_factor[3]};
        }
    }
}

} // namespace

scene::Scene read_scene_file(const std::filesystem::path& file, std::vector<std::string>& warnings,
                             bool lines, bool images,
                             const std::vector<std::string>& meshes_of_nodes, mshconv::Io& io) {
    const std::optional<SceneFormat> format = scene_format_of(file.filename().string());
    if (!format && assimp_read::handles(file.filename().string())) {
        if (!on_disk(&io))
            throw FormatError(file.string(), Location::whole(),
                              "formats read through Assimp are read from the disk only");
        DiagnosticSink diagnostics(ReadMode::Tolerant);
        scene::Scene scene = assimp_read::read(file, diagnostics);
        for (std::string& w : diagnostics.warning_texts()) warnings.push_back(std::move(w));
        return scene;
    }
    if (!format)
        throw FormatError(file.string(), Location::whole(),
                          "not a .gltf, .glb or .obj file, nor a format Assimp reads");
    if (*format == SceneFormat::Obj) {
        const mshconv::FileBytes bytes = io.read(file);
        const std::string text(bytes.bytes.begin(), bytes.bytes.end());
        scene::Scene scene = obj::read(text, file.string());
        read_obj_materials(io, scene, file, obj::material_libraries(text, file.string()), images,
                           warnings);
        return scene;
    }
    gltf::ReadOptions options;
    options.lines = lines;
    options.images = images;
    options.meshes_of_nodes = meshes_of_nodes;
    options.io = &io;
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

} // namespace msh::conversion
