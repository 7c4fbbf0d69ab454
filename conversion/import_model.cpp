// convert, glTF / GLB / OBJ (+ sidecar) -> MSH model: standalone or into an archive entry
// (`mshconv convert tank.glb static.rlb:TANK.msh`). Prints a short change report.
#include "convert.hpp"

#include "formats/file_io.hpp"
#include "formats/material.hpp"
#include "formats/wear.hpp"
#include "game_files.hpp"
#include "model_import.hpp"
#include "sidecar/model_sidecar.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace msh::conversion {

namespace fs = std::filesystem;

namespace {

void print_new_model(const Job& job, const fs::path& input, const Address& out,
                     const mapping::NewModelSummary& s) {
    job.report(input.string() + " -> " + out.display() + ": new model (no sidecar)");
    job.report(printed("  nodes %zu, slots %zu, batches %zu, vertices %zu, triangles %zu; animated "
                       "nodes %zu, frames %u",
                       s.nodes, s.slots, s.batches, s.vertices, s.triangles, s.animated_nodes,
                       s.frame_count));
    for (const std::string& d : s.defaults) job.report("  default: " + d);
}

// "node 3 'turret': 12 vertices moved, renamed to 'gun', parent now node 1, animation rebuilt"
std::string node_change_text(const mapping::NodeChange& n) {
    std::vector<std::string> parts;
    if (n.vertices_moved) parts.push_back(printed("%zu vertices moved", n.vertices_moved));
    if (n.normals_changed) parts.push_back(printed("%zu normals changed", n.normals_changed));
    if (n.uvs_changed) parts.push_back(printed("%zu UVs changed", n.uvs_changed));
    if (n.renamed_to) parts.push_back("renamed to '" + *n.renamed_to + "'");
    if (n.reparented)
        parts.push_back(n.new_parent ? "parent now node " + std::to_string(*n.new_parent)
                                     : std::string("now a root"));
    if (n.animation_rebuilt) parts.push_back("animation rebuilt");
    std::string text = "node " + std::to_string(n.index) + " '" + n.name + "':";
    for (size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : " ") + parts[i];
    return text;
}

void print_changes(const Job& job, const fs::path& input, const Address& out,
                   const ModelImport& r) {
    job.report(input.string() + " -> " + out.display() + ": " +
               (r.identical ? "unchanged, original bytes kept" : "rebuilt where changed"));
    if (r.identical || !r.changes) return;
    const mapping::ModelChangeReport& c = *r.changes;
    job.report(printed("  vertices moved %zu, normals %zu, UVs %zu; bounds recomputed in %zu "
                       "slots; animation %s",
                       c.vertices_moved, c.normals_changed, c.uvs_changed,
                       c.slots_with_bounds_recomputed, c.animation_rebuilt ? "rebuilt" : "kept"));
    if (const auto& t = c.topology) {
        job.report(printed("  topology: triangles %zu kept, %zu added, %zu removed; vertices %zu "
                           "added, %zu removed, %zu moved; slots %zu added, %zu removed",
                           t->triangles_kept, t->triangles_added, t->triangles_removed,
                           t->vertices_added, t->vertices_removed, t->vertices_moved,
                           t->slots_added, t->slots_removed));
        for (const std::string& n : c.new_parts) job.report("  new part " + n);
    }
    for (const std::string& e : c.sidecar_edits) job.report("  sidecar field edited: " + e);
    for (const mapping::NodeChange& n : c.nodes) job.report("  " + node_change_text(n));
}

// Whether OUT already holds something a new model would replace: the file, or the named entry.
bool target_exists(const Job& job, const Address& out) {
    if (!job.io.is_file(out.file)) return false;
    if (out.entries.empty()) return true;
    try {
        load(job.io, out);
        return true;
    } catch (const FormatError&) {
        return false; // no such entry (a damaged archive is refused when it is written)
    }
}

// An import without a sidecar becomes a new model. That must never happen by accident: a map
// export never becomes one, and an existing model or entry is replaced only on --new-model.
void refuse_unpaired_import(const Job& job, const fs::path& input, const Address& out,
                            const std::string& out_spec, const ImportSidecar& found) {
    const ExportRecord& r = found.record;
    const std::string looked = sidecar_search_text(input, found);
    if (r.kind == "terrain")
        throw FormatError(input.string(), Location::whole(),
                          "a map export (its glTF extras say kind \"terrain\"" +
                              (r.source.empty() ? std::string() : ", source " + r.source) +
                              ") never imports as a model, and its sidecar was not found; "
                              "nothing was written. Pass --sidecar FILE (" +
                              looked + ")");
    if (job.options.new_model) return;
    const bool exists = target_exists(job, out);
    const std::string leaf =
        out.entries.empty() ? out.file.filename().string() : out.entries.back();
    const bool land = lower_ascii(leaf) == "land.msh";
    if (!exists && !land) return;
    const std::string what = exists ? "replace " + out.display() +
                                          " with a new model (its LODs, groups, animation and "
                                          "materials lost)"
                                    : "write a model named " + out_spec + ", a map's file name";
    throw FormatError(input.string(), Location::whole(),
                      "no sidecar found, so this import would " + what +
                          "; nothing was written. Pass --sidecar FILE to import it as an edit, or "
                          "--new-model to write a new model on purpose (" +
                          looked + ")");
}

// A model's WEAR for a new place (texm-materials.md §12: the game finds a model's materials
// through `<stem>.wea` beside it): the one the export read, as the sidecar records it; from a
// sidecar that records only its address, that file when it can still be read; else the sidecar's
// rows.
std::optional<Bytes> record_wear(Io& io, const sidecar::ExportRecord& record) {
    if (!record.wear_image.empty()) return record.wear_image;
    if (!record.wear_source.empty()) {
        try {
            const Loaded source = load(io, parse_address(io, record.wear_source));
            wear::read(source.bytes, record.wear_source);
            return source.bytes.to_bytes();
        } catch (const std::exception&) {
            // moved or changed since the export: the sidecar's rows below
        }
    }
    if (record.wear_rows.empty()) return std::nullopt;
    wear::Wear w;
    for (size_t i = 0; i < record.wear_rows.size(); ++i)
        w.materials.push_back({int32_t(i), record.wear_rows[i]});
    for (size_t i = 0; i < record.wear_lightmaps.size(); ++i)
        w.lightmaps.push_back({int32_t(i), record.wear_lightmaps[i]});
    return wear::write(w);
}

// A loose model's WEAR; nothing when one is there already (it is not ours to replace).
std::optional<std::pair<fs::path, Bytes>> loose_wear(Io& io, const Address& out,
                                                     const sidecar::ExportRecord& record) {
    const std::string name = model_wear_name(out);
    if (find_file_ci(out.file.parent_path(), name, io)) return std::nullopt;
    if (auto bytes = record_wear(io, record))
        return std::make_pair(out.file.parent_path() / name, std::move(*bytes));
    return std::nullopt;
}

// Into an archive: the entry replaced, or — a new name — added with its WEAR beside it (the one
// the export read, else the sidecar's rows), as the add-on's "export as a new model" does.
void write_archive_model(Io& io, const Address& out, const Bytes& msh,
                         const sidecar::ExportRecord& record) {
    Address archive = out;
    const std::string name = archive.entries.back();
    archive.entries.pop_back();
    const nres::Archive holder = innermost_archive(io, archive);
    if (holder.find(name)) {
        store(io, out, msh);
        return;
    }
    std::vector<nres::Entry> members;
    const std::string wear_name = model_wear_name(out);
    if (!holder.find(wear_name))
        if (const auto wear = record_wear(io, record))
            members.push_back(new_member(holder, wear_name, *wear, ".wea"));
    members.push_back(new_member(holder, name, msh, ".msh"));
    write_files(io, {{out.file, archive_with_entries(io, archive, std::move(members))}});
}

// The model and (when missing) its WEAR as one set, and a warning when the WEAR's materials are
// not in a Material.lib beside the model (or in --game-dir / --materials): the game would show
// them untextured.
void write_loose_model(const Job& job, const Address& out, const Bytes& msh,
                       const sidecar::ExportRecord& record) {
    const auto wear = loose_wear(job.io, out, record);
    std::vector<PathBytes> files;
    if (wear) files.push_back({wear->first, wear->second});
    files.push_back({out.file, msh});
    write_files(job.io, files);
    if (wear) job.info(wear->first.string() + ": WEAR written from the sidecar");
    if (record.wear_rows.empty()) return;
    fs::path dir = out.file.parent_path().empty() ? fs::path(".") : out.file.parent_path();
    if (!job.options.game_dir.empty()) dir = job.options.game_dir;
    const std::optional<fs::path> library = !job.options.materials.empty()
                                                ? std::optional<fs::path>(job.options.materials)
                                                : find_file_ci(dir, "Material.lib", job.io);
    if (!library || !job.io.is_file(*library)) {
        job.warn(out.display() + ": no Material.lib in " + dir.string() +
                 ": the game will not find its " + std::to_string(record.wear_rows.size()) +
                 " material(s) (" + record.wear_rows.front() +
                 (record.wear_rows.size() > 1 ? ", ..." : "") +
                 "); --game-dir DIR names the game folder");
        return;
    }
    try {
        const nres::Archive lib =
            nres::read(read_payload(job.io, *library), ReadMode::Tolerant, library->string());
        std::vector<std::string> missing;
        for (const std::string& row : record.wear_rows)
            if (material::find_material(lib, row).rule != material::LookupRule::Exact)
                missing.push_back(row);
        if (!missing.empty()) {
            std::string names;
            for (const std::string& m : missing) names += (names.empty() ? "" : ", ") + m;
            job.warn(out.display() + ": " + std::to_string(missing.size()) +
                     " of its materials are not in " + library->string() + " (" + names +
                     "): the game falls back to DEFAULT");
        }
    } catch (const std::exception& e) {
        job.warn(out.display() + ": " + library->string() +
                 " cannot be read to check its materials: " + e.what());
    }
}

ModelImport import_scene_file(const Job& job, const fs::path& input,
                              const sidecar::ModelSidecar* sidecar, const fs::path& sidecar_path,
                              const ImportChoices& choices, scene::Scene* scene_out = nullptr) {
    ModelImportSettings settings;
    settings.fps = choices.fps;
    settings.force = choices.force;
    settings.animation = choices.animation;
    settings.readings = choices.readings;
    settings.sidecar_name = sidecar_path.string();
    settings.from_obj = scene_format_of(input.filename().string()) == SceneFormat::Obj;
    settings.where = input.string();
    if (sidecar && !choices.full_read)
        if (auto unchanged = rebuild_unchanged_model(input, *sidecar, settings, job.io)) {
            job.debug(input.string() + ": the file its sidecar's export wrote, byte for byte: "
                                       "the original image, the scene not read");
            return std::move(*unchanged);
        }
    std::vector<std::string> warnings;
    scene::Scene read = read_scene_file(input, warnings, false, sidecar == nullptr, {}, job.io);
    const scene::Scene& scene = scene_out ? (*scene_out = std::move(read)) : read;
    for (const std::string& w : warnings) job.warn(w);
    ModelImport r = rebuild_model(scene, sidecar, settings);
    for (const std::string& w : r.warnings) job.warn(w);
    return r;
}

} // namespace

ModelImport import_model_files(const Job& job, const fs::path& input, const fs::path& sidecar_path,
                               const ImportChoices& choices) {
    const sidecar::ModelSidecar sidecar = sidecar::read_model_sidecar_for_import(
        read_payload(job.io, sidecar_path), sidecar_path.string());
    return import_scene_file(job, input, &sidecar, sidecar_path, choices);
}

void import_model(const Job& caller, const Address& in, const std::string& out_spec,
                  const ImportSidecar& found) {
    KeptWarnings warnings; // every warning printed is in the report
    const Job job = keeping_warnings(caller, warnings);
    const ConvertOptions& o = job.options;
    const fs::path input = in.file;
    const Address out = parse_address(job.io, out_spec);
    if (out.entries.empty() && job.io.same_file(out.file, input))
        throw UsageError("OUT is the input file; inputs are never overwritten");
    if (out.entries.empty()) {
        // An import writes an MSH; one named like an interchange file would be a trap.
        const std::string out_ext = lower_ascii(out.file.extension().string());
        if (out_ext != ".msh")
            throw UsageError("OUT '" + out_spec + "': importing " + input.filename().string() +
                             " writes an MSH model (.msh or ARCHIVE:ENTRY), not " +
                             (out_ext.empty() ? std::string("a file without extension") : out_ext) +
                             "; mshconv converts between game files and glTF/OBJ, not between "
                             "interchange formats");
    }
    if (o.skin || o.msft_lod || o.lod || o.group)
        throw UsageError("--skin, --msft-lod, --lod and --group are export options; the import "
                         "reads them from the sidecar");

    if (o.new_model && !o.sidecar.empty())
        throw UsageError("--new-model imports without a sidecar; it does not go with --sidecar");
    const fs::path& sidecar_path = found.path;
    if (!o.sidecar.empty() && !found.found)
        throw FormatError(input.string(), Location::whole(),
                          "no sidecar at " + sidecar_path.string());
    if (!found.found || o.new_model) refuse_unpaired_import(job, input, out, out_spec, found);
    ImportChoices choices;
    choices.fps = o.fps;
    choices.readings = readings_of(o);
    choices.force = o.force;
    choices.full_read = o.full_read;
    if (o.animation) choices.animation = *o.animation;
    const bool has_sidecar = found.found && !o.new_model;
    if (has_sidecar &&
        (found.how == SidecarFound::ByExtras || found.how == SidecarFound::ByPairingToken))
        job.report(input.string() + ": sidecar " + sidecar_path.string() + " (" +
                   to_string(found.how) + ")");
    scene::Scene scene;
    std::optional<sidecar::ModelSidecar> sidecar;
    if (has_sidecar)
        sidecar = sidecar::read_model_sidecar_for_import(read_payload(job.io, sidecar_path),
                                                         sidecar_path.string());
    ModelImport r = import_scene_file(job, input, sidecar ? &*sidecar : nullptr, sidecar_path,
                                      choices, sidecar ? nullptr : &scene);
    nlohmann::json report = report_json(r);
    report["input"] = recorded_path(input);
    report["output"] = out.recorded();
    if (has_sidecar) report["sidecar"] = recorded_path(sidecar_path);

    if (r.new_model) {
        print_new_model(job, input, out, r.new_model_summary);
        import_new_model(job, input, out, r.msh, scene, report);
    } else {
        if (o.replace || o.max_texture_size)
            throw UsageError("--replace and --max-texture-size are for new models (no sidecar): "
                             "an import with its sidecar keeps the model's materials");
        if (out.entries.empty())
            write_loose_model(job, out, r.msh, sidecar->record);
        else
            write_archive_model(job.io, out, r.msh, sidecar->record);
        print_changes(job, input, out, r);
    }
    if (!o.report.empty()) {
        report["warnings"] = warnings.texts();
        const std::string text = report.dump(2) + "\n";
        write_files(job.io, {{o.report, ByteView(reinterpret_cast<const uint8_t*>(text.data()),
                                                 text.size())}});
    }
}

} // namespace msh::conversion
