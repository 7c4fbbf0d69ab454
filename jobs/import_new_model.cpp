// A new model's output set (`convert new.glb static.rlb:NEW.msh [--game-dir DIR]`): the model as
// a loose .msh or an archive entry (added when new), its WEAR beside it, and its materials and
// textures added to Material.lib and Textures.lib (pipeline/game_library_add.hpp). Every file
// appears, or none does.
#include "commands.hpp"
#include "convert.hpp"

#include "formats/file_io.hpp"
#include "pipeline/game_files.hpp"
#include "pipeline/game_library_add.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

struct LibraryFile {
    fs::path path;
    std::optional<nres::Archive> archive; // nullopt: not there yet (a new library)
};

struct LibraryTargets {
    LibraryFile materials, textures;
};

std::optional<nres::Archive> read_library(const fs::path& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    // Strict: a damaged library is never rewritten.
    return nres::read(read_file(path), ReadMode::Strict, path.string());
}

// Where the new materials and textures go: --materials / --textures, else the libraries of
// --game-dir (created there when missing), else those beside OUT (the game's folder layout);
// nullopt when there are none and none was asked for.
std::optional<LibraryTargets> library_targets(const Address& out, const po::variables_map& vm) {
    const bool asked = vm.count("game-dir") || vm.count("materials") || vm.count("textures");
    fs::path dir = out.file.parent_path();
    if (vm.count("game-dir")) {
        dir = vm["game-dir"].as<std::string>();
        if (!fs::is_directory(dir)) throw UsageError("--game-dir is not a folder: " + dir.string());
    }
    if (dir.empty()) dir = ".";
    auto locate = [&](const char* option, const char* name) -> std::optional<fs::path> {
        if (vm.count(option)) return fs::path(vm[option].as<std::string>());
        if (auto found = pipeline::find_file_ci(dir, name)) return found;
        if (asked) return dir / name;
        return std::nullopt;
    };
    const auto materials = locate("materials", "Material.lib");
    const auto textures = locate("textures", "Textures.lib");
    if (!materials && !textures) return std::nullopt;
    LibraryTargets t;
    t.materials.path = materials ? *materials : dir / "Material.lib";
    t.textures.path = textures ? *textures : dir / "Textures.lib";
    t.materials.archive = read_library(t.materials.path);
    t.textures.archive = read_library(t.textures.path);
    return t;
}

std::optional<texm::Format> format_option(const po::variables_map& vm) {
    if (!vm.count("format")) return std::nullopt;
    const std::string v = vm["format"].as<std::string>();
    uint32_t code = 0;
    try {
        code = uint32_t(std::stoul(v));
    } catch (const std::exception&) {
        throw UsageError("--format " + v + ": a Texm format code (565, 4444, 8888, ...)");
    }
    const auto f = texm::to_format(code);
    if (!f || *f == texm::Format::Indexed)
        throw UsageError("--format " + v + ": new textures are 565, 556, 4444, 88, 888 or 8888");
    return f;
}

} // namespace

void write_new_model(const fs::path& input, const Address& out, const Bytes& msh,
                     const scene::Scene& scene, const po::variables_map& vm,
                     nlohmann::json& report) {
    const std::string wear_name = model_wear_name(out);
    const std::optional<LibraryTargets> targets = library_targets(out, vm);
    for (const LibraryFile* lib :
         {targets ? &targets->materials : nullptr, targets ? &targets->textures : nullptr})
        if (lib && (lib->path == input || (out.entries.empty() && lib->path == out.file) ||
                    (!out.entries.empty() && fs::exists(out.file) && fs::exists(lib->path) &&
                     fs::equivalent(lib->path, out.file))))
            throw UsageError(lib->path.string() + " is the input or the model's output");

    pipeline::LibraryAddSettings settings;
    settings.model_stem =
        fs::path(out.entries.empty() ? out.file : fs::path(out.entries.back())).stem().string();
    settings.format = format_option(vm);
    settings.replace = vm.count("replace") > 0;
    settings.max_size = vm["max-texture-size"].as<uint32_t>();
    if (settings.max_size == 0 || (settings.max_size & (settings.max_size - 1)))
        throw UsageError("--max-texture-size must be a power of two");
    settings.where = input.string();
    pipeline::GameLibraries libraries;
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
    pipeline::LibraryAddition added =
        pipeline::add_to_game_libraries(targets ? scene : without_images, libraries, settings);
    if (!targets) {
        added.materials.reset();
        added.textures.reset();
        if (!scene.materials.empty()) // else the one row is the game's own DEFAULT
            spdlog::warn("{}: no Material.lib or Textures.lib beside {}: the model's WEAR names {} "
                         "material(s) that are not in the game (--game-dir DIR adds them)",
                         input.string(), out.display(), scene.materials.size());
        added.added.clear(), added.replaced.clear(), added.kept.clear();
    }
    for (const std::string& w : added.warnings) spdlog::warn("{}", w);

    AtomicFileSet files;
    // What the model references first: textures, materials, then the WEAR and the model.
    if (added.textures) files.add(targets->textures.path, *added.textures);
    if (added.materials) files.add(targets->materials.path, *added.materials);
    if (out.entries.empty()) {
        files.add(out.file.parent_path() / wear_name, added.wear);
        files.add(out.file, msh);
    } else {
        Address archive = out;
        const std::string model_name = archive.entries.back();
        archive.entries.pop_back();
        const nres::Archive holder = innermost_archive(archive);
        std::vector<nres::Entry> members;
        members.push_back(new_member(holder, wear_name, added.wear, ".wea"));
        members.push_back(new_member(holder, model_name, msh, ".msh"));
        files.add(out.file, archive_with_entries(archive, std::move(members)));
    }
    files.commit();

    nlohmann::json libs;
    libs["wear"] = out.entries.empty()
                       ? (out.file.parent_path() / wear_name).string()
                       : Address{out.file, {out.entries.begin(), out.entries.end() - 1}}.display() +
                             ":" + wear_name;
    libs["added"] = added.added;
    libs["replaced"] = added.replaced;
    libs["kept"] = added.kept;
    report["game_libraries"] = libs;
    if (spdlog::get_level() <= spdlog::level::warn) {
        std::printf("  WEAR %s (%zu rows)\n", libs["wear"].get<std::string>().c_str(),
                    std::max<size_t>(scene.materials.size(), 1));
        for (const std::string& a : added.added) std::printf("  added %s\n", a.c_str());
        for (const std::string& a : added.replaced) std::printf("  replaced %s\n", a.c_str());
        for (const std::string& a : added.kept) std::printf("  kept %s\n", a.c_str());
    }
}

} // namespace msh::cli
