// convert, glTF / GLB / OBJ (+ sidecar) -> MSH model: standalone or into an archive entry
// (`mshconv convert tank.glb static.rlb:TANK.msh`). Prints a short change report.
#include "commands.hpp"
#include "convert.hpp"

#include "formats/file_io.hpp"
#include "formats/material.hpp"
#include "formats/wear.hpp"
#include "pipeline/game_files.hpp"
#include "pipeline/model_import.hpp"
#include "sidecar/model_sidecar.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

void print_new_model(const fs::path& input, const Address& out, const mapping::NewModelSummary& s) {
    std::printf("%s -> %s: new model (no sidecar)\n", input.string().c_str(),
                out.display().c_str());
    std::printf("  nodes %zu, slots %zu, batches %zu, vertices %zu, triangles %zu; animated "
                "nodes %zu, frames %u\n",
                s.nodes, s.slots, s.batches, s.vertices, s.triangles, s.animated_nodes,
                s.frame_count);
    for (const std::string& d : s.defaults) std::printf("  default: %s\n", d.c_str());
}

void print_changes(const fs::path& input, const Address& out, const pipeline::ModelImport& r) {
    std::printf("%s -> %s: %s\n", input.string().c_str(), out.display().c_str(),
                r.identical ? "unchanged, original bytes kept" : "rebuilt where changed");
    if (r.identical || !r.changes) return;
    const mapping::ModelChangeReport& c = *r.changes;
    std::printf("  vertices moved %zu, normals %zu, UVs %zu; bounds recomputed in %zu "
                "slots; animation %s\n",
                c.vertices_moved, c.normals_changed, c.uvs_changed, c.slots_with_bounds_recomputed,
                c.animation_rebuilt ? "rebuilt" : "kept");
    if (const auto& t = c.topology) {
        std::printf("  topology: triangles %zu kept, %zu added, %zu removed; vertices %zu "
                    "added, %zu removed, %zu moved; slots %zu added, %zu removed\n",
                    t->triangles_kept, t->triangles_added, t->triangles_removed, t->vertices_added,
                    t->vertices_removed, t->vertices_moved, t->slots_added, t->slots_removed);
        for (const std::string& n : c.new_parts) std::printf("  new part %s\n", n.c_str());
    }
    nlohmann::json nodes = mapping::to_json(c)["nodes"];
    for (const auto& n : nodes) std::printf("  node %s\n", n.dump().c_str());
}

// A model's WEAR for a new place (texm-materials.md §12: the game finds a model's materials
// through `<stem>.wea` beside it): the one the export read when it can still be read, else the
// sidecar's rows.
std::optional<Bytes> record_wear(const sidecar::ExportRecord& record) {
    if (!record.wear_source.empty()) {
        try {
            const Loaded source = load(parse_address(record.wear_source));
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
std::optional<std::pair<fs::path, Bytes>> loose_wear(const Address& out,
                                                     const sidecar::ExportRecord& record) {
    const std::string name = model_wear_name(out);
    if (pipeline::find_file_ci(out.file.parent_path().empty() ? "." : out.file.parent_path(), name))
        return std::nullopt;
    if (auto bytes = record_wear(record))
        return std::make_pair(out.file.parent_path() / name, std::move(*bytes));
    return std::nullopt;
}

// Into an archive: the entry replaced, or — a new name — added with its WEAR beside it (the one
// the export read, else the sidecar's rows), as the add-on's "export as a new model" does.
void write_archive_model(const Address& out, const Bytes& msh,
                         const sidecar::ExportRecord& record) {
    Address archive = out;
    const std::string name = archive.entries.back();
    archive.entries.pop_back();
    const nres::Archive holder = innermost_archive(archive);
    if (holder.find(name)) {
        store(out, msh);
        return;
    }
    std::vector<nres::Entry> members;
    const std::string wear_name = model_wear_name(out);
    if (!holder.find(wear_name))
        if (const auto wear = record_wear(record))
            members.push_back(new_member(holder, wear_name, *wear, ".wea"));
    members.push_back(new_member(holder, name, msh, ".msh"));
    write_file_atomic(out.file, archive_with_entries(archive, std::move(members)));
}

// The model and (when missing) its WEAR as one set, and a warning when the WEAR's materials are
// not in a Material.lib beside the model (or in --game-dir / --materials): the game would show
// them untextured.
void write_loose_model(const Address& out, const Bytes& msh, const sidecar::ExportRecord& record,
                       const po::variables_map& vm) {
    const auto wear = loose_wear(out, record);
    AtomicFileSet files;
    if (wear) files.add(wear->first, wear->second);
    files.add(out.file, msh);
    files.commit();
    if (wear) spdlog::info("{}: WEAR written from the sidecar", wear->first.string());
    if (record.wear_rows.empty()) return;
    fs::path dir = out.file.parent_path().empty() ? fs::path(".") : out.file.parent_path();
    if (vm.count("game-dir")) dir = vm["game-dir"].as<std::string>();
    const std::optional<fs::path> library =
        vm.count("materials") ? std::optional<fs::path>(vm["materials"].as<std::string>())
                              : pipeline::find_file_ci(dir, "Material.lib");
    std::error_code ec;
    if (!library || !fs::is_regular_file(*library, ec)) {
        spdlog::warn("{}: no Material.lib in {}: the game will not find its {} material(s) ({}); "
                     "--game-dir DIR names the game folder",
                     out.display(), dir.string(), record.wear_rows.size(),
                     record.wear_rows.front() + (record.wear_rows.size() > 1 ? ", ..." : ""));
        return;
    }
    try {
        const nres::Archive lib =
            nres::read(read_file(*library), ReadMode::Tolerant, library->string());
        std::vector<std::string> missing;
        for (const std::string& row : record.wear_rows)
            if (material::find_material(lib, row).rule != material::LookupRule::Exact)
                missing.push_back(row);
        if (!missing.empty()) {
            std::string names;
            for (const std::string& m : missing) names += (names.empty() ? "" : ", ") + m;
            spdlog::warn("{}: {} of its materials are not in {} ({}): the game falls back to "
                         "DEFAULT",
                         out.display(), missing.size(), library->string(), names);
        }
    } catch (const std::exception& e) {
        spdlog::warn("{}: {} cannot be read to check its materials: {}", out.display(),
                     library->string(), e.what());
    }
}

pipeline::ModelImport import_scene_file(const fs::path& input, const sidecar::ModelSidecar* sidecar,
                                        const fs::path& sidecar_path, const ImportChoices& choices,
                                        scene::Scene* scene_out = nullptr) {
    pipeline::ImportSettings settings;
    settings.fps = choices.fps;
    settings.force = choices.force;
    settings.animation = choices.animation;
    settings.readings = choices.readings;
    settings.sidecar_name = sidecar_path.string();
    settings.from_obj =
        pipeline::scene_format_of(input.filename().string()) == pipeline::SceneFormat::Obj;
    settings.where = input.string();
    if (sidecar && !choices.full_read)
        if (auto unchanged = pipeline::import_unchanged_model(input, *sidecar, settings)) {
            spdlog::debug("{}: the file its sidecar's export wrote, byte for byte: the original "
                          "image, the scene not read",
                          input.string());
            return std::move(*unchanged);
        }
    std::vector<std::string> warnings;
    scene::Scene read = pipeline::read_scene_file(input, warnings, false, sidecar == nullptr);
    const scene::Scene& scene = scene_out ? (*scene_out = std::move(read)) : read;
    for (const std::string& w : warnings) spdlog::warn("{}", w);
    pipeline::ModelImport r = pipeline::import_model(scene, sidecar, settings);
    for (const std::string& w : r.warnings) spdlog::warn("{}", w);
    return r;
}

} // namespace

pipeline::ModelImport import_model_files(const fs::path& input, const fs::path& sidecar_path,
                                         const ImportChoices& choices) {
    const sidecar::ModelSidecar sidecar =
        sidecar::read_model_sidecar_for_import(read_file(sidecar_path), sidecar_path.string());
    return import_scene_file(input, &sidecar, sidecar_path, choices);
}

int import_model(const Address& in, const std::string& out_spec, const po::variables_map& vm) {
    const fs::path input = in.file;
    const std::string ext = lower_ascii(input.extension().string());
    const Address out = parse_address(out_spec);
    std::error_code ec;
    if (out.entries.empty() && fs::exists(out.file, ec) && fs::equivalent(out.file, input, ec))
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
    if (vm.count("skin") || vm.count("msft-lod") || !vm["lod"].defaulted() ||
        !vm["group"].defaulted())
        throw UsageError("--skin, --msft-lod, --lod and --group are export options; the import "
                         "reads them from the sidecar");

    const fs::path sidecar_path = import_sidecar_path(input, vm);
    if (vm.count("sidecar") && !fs::exists(sidecar_path))
        throw FormatError(input.string(), 0, "no sidecar at " + sidecar_path.string());
    ImportChoices choices;
    if (vm.count("fps")) choices.fps = vm["fps"].as<double>();
    choices.readings = readings_option(vm);
    choices.force = vm.count("force") > 0;
    choices.full_read = vm.count("full-read") > 0;
    if (vm.count("animation")) choices.animation = vm["animation"].as<std::string>();
    const bool has_sidecar = fs::exists(sidecar_path);
    scene::Scene scene;
    std::optional<sidecar::ModelSidecar> sidecar;
    if (has_sidecar)
        sidecar =
            sidecar::read_model_sidecar_for_import(read_file(sidecar_path), sidecar_path.string());
    pipeline::ModelImport r = import_scene_file(input, sidecar ? &*sidecar : nullptr, sidecar_path,
                                                choices, sidecar ? nullptr : &scene);
    nlohmann::json report = pipeline::report_json(r);
    report["input"] = input.string();
    report["output"] = out.display();
    if (has_sidecar) report["sidecar"] = sidecar_path.string();

    if (r.new_model) {
        if (spdlog::get_level() <= spdlog::level::warn)
            print_new_model(input, out, r.new_model_summary);
        write_new_model(input, out, r.msh, scene, vm, report);
    } else {
        if (vm.count("replace") || !vm["max-texture-size"].defaulted())
            throw UsageError("--replace and --max-texture-size are for new models (no sidecar): "
                             "an import with its sidecar keeps the model's materials");
        if (out.entries.empty())
            write_loose_model(out, r.msh, sidecar->record, vm);
        else
            write_archive_model(out, r.msh, sidecar->record);
        if (spdlog::get_level() <= spdlog::level::warn) print_changes(input, out, r);
    }
    if (vm.count("report")) {
        const std::string text = report.dump(2) + "\n";
        write_file_atomic(vm["report"].as<std::string>(), Bytes(text.begin(), text.end()));
    }
    return 0;
}

} // namespace msh::cli
