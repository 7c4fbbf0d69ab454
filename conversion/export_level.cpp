// convert, level: MISSIONS/<dir>/data.tma -> one .gltf / .glb scene (+ OUT_STEM.sidecar.json,
// kind "level"). Finds the game folder above the mission (the nearest holding objects.rlb, or
// --game-dir), the map the mission names, every object's model through the registry and the
// unit .dat assemblies, and the game's libraries; a reference that does not resolve is a warning
// and its object an empty node. The conversion itself is conversion/level.hpp.
#include "address.hpp"
#include "convert.hpp"
#include "game_files.hpp"
#include "level.hpp"
#include "level_files.hpp"

#include "formats/assembly.hpp"
#include "formats/cp1251.hpp"
#include "formats/names.hpp"
#include "formats/object_registry.hpp"
#include "formats/wear.hpp"

#include <map>
#include <memory>

namespace msh::conversion {

namespace fs = std::filesystem;

namespace {

// The game folder: --game-dir, else the nearest folder at or above the mission's holding
// objects.rlb.
fs::path game_folder(const Job& job, const fs::path& mission) {
    if (!job.options.game_dir.empty()) {
        if (!job.io.is_folder(job.options.game_dir))
            throw UsageError("--game-dir is not a folder: " + job.options.game_dir.string());
        return job.options.game_dir;
    }
    if (const std::optional<fs::path> found = find_game_folder(job.io, mission)) return *found;
    throw UsageError(mission.string() +
                     ": no objects.rlb in its folder or any folder above it, so its objects "
                     "cannot be found; name the game folder with --game-dir");
}

LevelExportSettings level_export_settings(const ConvertOptions& o, const fs::path& out) {
    const std::optional<SceneFormat> format = scene_format_of(out.filename().string());
    if (!format) throw UsageError("a level converts to .gltf, .glb or .obj: " + out.string());
    LevelExportSettings s;
    s.format = *format;
    s.output_name = out.filename().string();
    s.png = png_options(o);
    apply_level_readings(o, s);
    return s;
}

} // namespace

// The level's references resolved against the game folder: each distinct model loaded once.
class LevelResolver {
  public:
    LevelResolver(const Job& job, fs::path root, const registry::Registry& registry)
        : job_(job), root_(root), references_(job.io, root, registry) {}

    // The parts of one placed object, each model loaded once; `problem` set (and no parts) when
    // it does not resolve.
    mapping::LevelObject resolve(const mission::PlacedObject& o) {
        const ObjectRefs refs = references_.resolve(o);
        mapping::LevelObject out;
        out.problem = refs.problem;
        try {
            for (const PartRef& p : refs.parts)
                out.parts.push_back({model_index(p.model), p.parent, p.attach, p.part_class,
                                     p.record, p.description});
        } catch (const std::exception& e) {
            out.parts.clear();
            out.problem = e.what();
        }
        return out;
    }

    // Each model's export input; they refer to this resolver, which must outlive them.
    std::vector<ModelExportInput> model_inputs(const mapping::MaterialLibraries* libraries) {
        std::vector<ModelExportInput> inputs;
        for (const auto& m : models_) {
            m->context.wear = m->wear;
            m->context.libraries = libraries;
            inputs.push_back(model_export_input(job_, m->loaded, &m->context));
        }
        return inputs;
    }
    // Every model's WEAR rows: what the libraries are opened for.
    mapping::LibraryNeeds needs() const {
        mapping::LibraryNeeds n;
        for (const auto& m : models_)
            if (m->wear) try {
                    for (std::string& row :
                         wear::material_names(wear::read(m->wear->bytes, m->wear->address)))
                        n.materials.push_back(std::move(row));
                } catch (const FormatError&) {
                }
        return n;
    }
    size_t model_count() const { return models_.size(); }

  private:
    struct LoadedModel {
        Loaded loaded;
        std::optional<Sibling> wear;
        ModelExportContext context; // what its export input refers to
    };

    int model_index(const registry::ModelRef& ref) {
        const std::string key = lower_ascii(ref.archive) + ":" + lower_ascii(ref.member);
        if (const auto it = index_.find(key); it != index_.end()) return it->second;
        const std::optional<fs::path> archive = find_path_ci(job_.io, root_, ref.archive);
        if (!archive)
            throw std::runtime_error("no archive " + ref.archive + " in " + root_.string());
        Address address;
        address.file = *archive;
        address.entries = {ref.member};
        auto m =
            std::make_unique<LoadedModel>(LoadedModel{load(job_.io, address), std::nullopt, {}});
        // The WEAR the registry names beside the model, else `<stem>.wea`.
        m->wear =
            find_sibling(job_.io, address, ref.wear.empty() ? model_wear_name(address) : ref.wear);
        models_.push_back(std::move(m));
        const int index = int(models_.size()) - 1;
        index_[key] = index;
        return index;
    }

    const Job& job_;
    fs::path root_;
    LevelReferences references_; // each .dat read once
    std::vector<std::unique_ptr<LoadedModel>> models_;
    std::map<std::string, int> index_;
};

bool is_level_reading(const std::string& name) {
    for (const ReadingInfo& info : level_reading_infos())
        if (name == info.name) return true;
    return false;
}

void apply_level_readings(const ConvertOptions& options, LevelExportSettings& s) {
    for (const mshconv::Reading& r : options.readings) {
        if (!is_level_reading(r.name)) continue;
        if (r.name == "assembly" && (r.variant == "sockets" || r.variant == "root"))
            s.assembly = r.variant == "root" ? mapping::AssemblyReading::Root
                                             : mapping::AssemblyReading::Sockets;
        else if (r.name == "rest-pose" &&
                 (r.variant == "first-frame" || r.variant == "fallback-key"))
            s.rest_pose = r.variant == "fallback-key" ? mapping::RestPose::FallbackKey
                                                      : mapping::RestPose::FirstKey;
        else if (r.name == "parts" && (r.variant == "drawn" || r.variant == "all"))
            s.shown_classes = r.variant == "all"
                                  ? std::array<bool, 6>{true, true, true, true, true, true}
                                  : LevelExportSettings{}.shown_classes;
        else
            for (const ReadingInfo& info : level_reading_infos())
                if (r.name == info.name) {
                    std::string known;
                    for (const char* v : info.variants)
                        known += (known.empty() ? "" : ", ") + std::string(v);
                    throw UsageError("--reading: " + r.name + " has no variant '" + r.variant +
                                     "' (" + known + ")");
                }
    }
}

struct LevelSources::Owned {
    std::optional<registry::Registry> registry;
    std::optional<LevelResolver> resolver; // the loaded models
    std::optional<Loaded> land;
    std::optional<mapping::MaterialLibraries> terrain_libraries, libraries;
};

LevelSources::LevelSources() : owned(std::make_unique<Owned>()) {}
LevelSources::~LevelSources() = default;

std::unique_ptr<LevelSources> read_level_sources(const Job& job, const Loaded& in) {
    if (!in.address.entries.empty())
        throw UsageError("a level is a loose MISSIONS/<dir>/data.tma file, not an archive entry");
    auto sources = std::make_unique<LevelSources>();
    LevelSources::Owned& own = *sources->owned;
    LevelExportInput& input = sources->input;
    const std::string where = in.address.display();
    const mission::Mission m = mission::read(in.bytes, ReadMode::Tolerant, where);
    const fs::path root = game_folder(job, in.address.file);
    const std::optional<fs::path> registry_path = find_file_ci(root, "objects.rlb", job.io);
    if (!registry_path) throw UsageError("no objects.rlb in " + root.string());
    own.registry.emplace(read_payload(job.io, *registry_path), registry_path->string());

    input.mission = {where, in.bytes.to_bytes()};
    LevelResolver& resolver = own.resolver.emplace(job, root, *own.registry);
    for (size_t i = 0; i < m.objects.size(); ++i) {
        input.objects.push_back(resolver.resolve(m.objects[i]));
        if (!input.objects.back().problem.empty())
            job.warn(where + ": object " + std::to_string(i) + " '" +
                     mapping::object_node_name(m.objects[i], i) +
                     "' does not resolve: " + input.objects.back().problem);
    }

    // The map: the mission's map path, its last part replaced by Land.msh.
    const std::string map_dir = mission::map_folder(m.map_path);
    if (const auto dir = find_path_ci(job.io, root, map_dir))
        if (const auto file = find_file_ci(*dir, "Land.msh", job.io)) {
            own.land = load(job.io, parse_address(job.io, file->string()));
            input.terrain = terrain_export_input(job, *own.land, nullptr, own.terrain_libraries);
        }
    if (!input.terrain)
        job.warn(where + ": no Land.msh in " + (root / map_dir).string() + " (the map path " +
                 cp1251_to_utf8(m.map_path) + "); the level has no terrain");

    const mapping::LibraryNeeds needs = resolver.needs();
    if (!needs.materials.empty()) own.libraries = open_libraries(job, root, &needs);
    input.models = resolver.model_inputs(own.libraries ? &*own.libraries : nullptr);
    return sources;
}

void export_level(const Job& job, const Loaded& in, const fs::path& out) {
    LevelExportSettings settings = level_export_settings(job.options, out);
    const fs::path sidecar_path = export_sidecar_path(job, out);
    settings.sidecar_name = sidecar_path.filename().string();
    const std::unique_ptr<LevelSources> sources = read_level_sources(job, in);
    const LevelExport result = encode_level(sources->input, settings);
    for (const std::string& w : result.warnings) job.warn(w);
    for (const std::string& n : result.notes) job.info(n);
    write_outputs(out.parent_path(), result.files, sidecar_path,
                  sidecar::level_sidecar_text(result.sidecar), job.io);
    const LevelExportSummary& s = result.summary;
    job.info(in.address.display() + " -> " + out.string() + " (" + std::to_string(s.objects) +
             " objects, " + std::to_string(s.models) + " distinct models, " +
             std::to_string(s.meshes) + " meshes" +
             (s.unresolved ? ", " + std::to_string(s.unresolved) + " unresolved" : "") + ")");
}

} // namespace msh::conversion
