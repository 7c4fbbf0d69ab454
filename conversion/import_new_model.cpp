// A new model's output set (`convert new.glb static.rlb:NEW.msh [--game-dir DIR]`): the model as
// a loose .msh or an archive entry (added when new), its WEAR beside it, and its materials and
// textures added to Material.lib and Textures.lib (conversion/game_library_add.hpp). Every file
// appears, or none does.
#include "convert.hpp"

#include "formats/file_io.hpp"
#include "game_files.hpp"
#include "game_library_add.hpp"

namespace msh::conversion {

namespace fs = std::filesystem;

namespace {

struct LibraryFile {
    fs::path path;
    std::optional<nres::Archive> archive; // nullopt: not there yet (a new library)
};

struct LibraryTargets {
    LibraryFile materials, textures;
};

std::optional<nres::Archive> read_library(Io& io, const fs::path& path) {
    if (!io.is_file(path)) return std::nullopt;
    // Strict: a damaged library is never rewritten.
    return nres::read(read_payload(io, path), ReadMode::Strict, path.string());
}

// Where the new materials and textures go: --materials / --textures, else the libraries of
// --game-dir (created there when missing), else those beside OUT (the game's folder layout);
// nullopt when there are none and none was asked for.
std::optional<LibraryTargets> library_targets(const Job& job, const Address& out) {
    const ConvertOptions& o = job.options;
    const bool asked = !o.game_dir.empty() || !o.materials.empty() || !o.textures.empty();
    fs::path dir = out.file.parent_path();
    if (!o.game_dir.empty()) {
        dir = o.game_dir;
        if (!job.io.is_folder(dir)) throw UsageError("--game-dir is not a folder: " + dir.string());
    }
    if (dir.empty()) dir = ".";
    auto locate = [&](const fs::path& given, const char* name) -> std::optional<fs::path> {
        if (!given.empty()) return given;
        if (auto found = find_file_ci(dir, name, job.io)) return found;
        if (asked) return dir / name;
        return std::nullopt;
    };
    const auto materials = locate(o.materials, "Material.lib");
    const auto textures = locate(o.textures, "Textures.lib");
    if (!materials && !textures) return std::nullopt;
    LibraryTargets t;
    t.materials.path = materials ? *materials : dir / "Material.lib";
    t.textures.path = textures ? *textures : dir / "Textures.lib";
    t.materials.archive = read_library(job.io, t.materials.path);
    t.textures.archive = read_library(job.io, t.textures.path);
    return t;
}

std::optional<texm::Format> format_option(const ConvertOptions& o) {
    if (!o.format) return std::nullopt;
    const auto f = texm::to_format(*o.format);
    if (!f || *f == texm::Format::Indexed)
        throw UsageError("--format " + std::to_string(*o.format) +
                         ": new textures are 565, 556, 4444, 88, 888 or 8888");
    return f;
}

} // namespace

void import_new_model(const Job& job, const fs::path& input, const Address& out, const Bytes& msh,
                      const scene::Scene& scene, nlohmann::json& report) {
    const std::string wear_name = model_wear_name(out);
    const std::optional<LibraryTargets> targets = library_targets(job, out);
    for (const LibraryFile* lib :
         {targets ? &targets->materials : nullptr, targets ? &targets->textures : nullptr})
        if (lib && (job.io.same_file(lib->path, input) || job.io.same_file(lib->path, out.file)))
            throw UsageError(lib->path.string() + " is the input or the model's output");

    LibraryAddSettings settings;
    settings.model_stem =
        fs::path(out.entries.empty() ? out.file : fs::path(out.entries.back())).stem().string();
    settings.format = format_option(job.options);
    settings.replace = job.options.replace;
    settings.max_size = job.options.max_texture_size.value_or(256);
    if (settings.max_size == 0 || (settings.max_size & (settings.max_size - 1)))
        throw UsageError("--max-texture-size must be a power of two");
    settings.where = input.string();
    GameLibraries libraries;
    if (targets) {
        libraries.materials = targets->materials.archive;
        libraries.textures = targets->textures.archive;
        libraries.materials_name = targets->materials.path.filename().string();
        libraries.textures_name = targets->textures.path.filename().string();
    }
    // No libraries: only the WEAR is written, so the images are not even decoded.
    scene::Scene without_images;
    if (!targets) {
        without_images.materials = scene.materials;
        for (scene::Material& m : without_images.materials) m.base_color.reset();
    }
    LibraryAddition added =
        add_to_game_libraries(targets ? scene : without_images, libraries, settings);
    if (!targets) {
        added.materials.reset();
        added.textures.reset();
        if (!scene.materials.empty()) // else the one row is the game's own DEFAULT
            job.warn(input.string() + ": no Material.lib or Textures.lib beside " + out.display() +
                     ": the model's WEAR names " + std::to_string(scene.materials.size()) +
                     " material(s) that are not in the game (--game-dir DIR adds them)");
        added.added.clear(), added.replaced.clear(), added.kept.clear();
    }
    for (const std::string& w : added.warnings) job.warn(w);

    std::vector<PathBytes> files;
    // What the model references first: textures, materials, then the WEAR and the model.
    if (added.textures) files.push_back({targets->textures.path, *added.textures});
    if (added.materials) files.push_back({targets->materials.path, *added.materials});
    Bytes archive_image;
    if (out.entries.empty()) {
        files.push_back({out.file.parent_path() / wear_name, added.wear});
        files.push_back({out.file, msh});
    } else {
        Address archive = out;
        const std::string model_name = archive.entries.back();
        archive.entries.pop_back();
        const nres::Archive holder = innermost_archive(job.io, archive);
        std::vector<nres::Entry> members;
        members.push_back(new_member(holder, wear_name, added.wear, ".wea"));
        members.push_back(new_member(holder, model_name, msh, ".msh"));
        archive_image = archive_with_entries(job.io, archive, std::move(members));
        files.push_back({out.file, archive_image});
    }
    write_files(job.io, files);

    nlohmann::json libs;
    libs["wear"] =
        out.entries.empty()
            ? recorded_path(out.file.parent_path() / wear_name)
            : Address{out.file, {out.entries.begin(), out.entries.end() - 1}}.recorded() + ":" +
                  wear_name;
    libs["added"] = added.added;
    libs["replaced"] = added.replaced;
    libs["kept"] = added.kept;
    report["game_libraries"] = libs;
    job.report("  WEAR " + libs["wear"].get<std::string>() + " (" +
               std::to_string(std::max<size_t>(scene.materials.size(), 1)) + " rows)");
    for (const std::string& a : added.added) job.report("  added " + a);
    for (const std::string& a : added.replaced) job.report("  replaced " + a);
    for (const std::string& a : added.kept) job.report("  kept " + a);
}

} // namespace msh::conversion
