#include "game_files.hpp"

#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "outputs.hpp"

namespace msh::conversion {

namespace fs = std::filesystem;

std::optional<fs::path> find_file_ci(const fs::path& dir, const std::string& name,
                                     mshconv::Io& io) {
    const std::string wanted = lower_ascii(name);
    for (const std::string& entry : io.list(dir))
        if (lower_ascii(entry) == wanted) {
            const fs::path path = dir.empty() ? fs::path(entry) : dir / entry;
            if (io.is_file(path)) return path;
        }
    return std::nullopt;
}

bool has_game_libraries(const fs::path& dir, mshconv::Io& io) {
    return find_file_ci(dir, "Material.lib", io) || find_file_ci(dir, "Textures.lib", io);
}

mapping::MaterialLibraries open_game_libraries(const fs::path& dir, const LibraryPaths& paths,
                                               std::vector<std::string>& warnings,
                                               const mapping::LibraryNeeds* needs,
                                               mshconv::Io& io) {
    // Views into a mapped file, which the entries keep mapped: only the pages of the entries
    // used are ever read (with `names` given, only those are kept; the libraries are looked up,
    // never written back).
    auto open = [&](const std::optional<fs::path>& p, std::optional<nres::Archive>& lib,
                    std::string& name, const std::vector<std::string>* names) {
        if (!p) return;
        name = p->string();
        try {
            const mshconv::FileBytes file = io.read(*p);
            DiagnosticSink sink(ReadMode::Tolerant);
            lib = nres::read_entries(
                file.bytes,
                [&](const nres::Entry& e) {
                    if (!names) return true;
                    for (const std::string& n : *names)
                        if (nres::compare_names(e.name(), n) == 0) return true;
                    return false;
                },
                sink, name, file.owner);
        } catch (const std::exception& e) {
            warnings.push_back(std::string(e.what()) + " (ignored: materials stay untextured)");
            lib.reset();
        }
    };
    mapping::MaterialLibraries libs;
    open(paths.materials ? paths.materials : find_file_ci(dir, "Material.lib", io), libs.materials,
         libs.materials_name, nullptr);
    std::vector<std::string> textures;
    if (needs && libs.materials)
        textures = mapping::phase0_textures(needs->materials, *libs.materials);
    open(paths.textures ? paths.textures : find_file_ci(dir, "Textures.lib", io), libs.textures,
         libs.textures_name, needs ? &textures : nullptr);
    open(find_file_ci(dir, "palettes.lib", io), libs.palettes, libs.palettes_name, nullptr);
    open(find_file_ci(dir, "LightMap.lib", io), libs.lightmaps, libs.lightmaps_name,
         needs ? &needs->lightmaps : nullptr);
    return libs;
}

TerrainExportInput LevelFiles::export_input() const {
    TerrainExportInput in(land_msh.bytes, land_msh.address, land_map);
    in.wear1 = wear1;
    in.wear2 = wear2;
    return in;
}

LevelFiles read_level_files(const fs::path& land_msh) {
    LevelFiles level;
    level.land_msh = {land_msh.string(), read_file(land_msh)};
    const std::string base = file_stem(land_msh.filename().string());
    auto sibling = [&](const std::string& leaf) -> std::optional<NamedBytes> {
        const auto p = find_file_ci(land_msh.parent_path(), leaf);
        if (!p) return std::nullopt;
        return NamedBytes{p->string(), read_file(*p)};
    };
    level.land_map = sibling(base + ".map");
    level.wear1 = sibling(base + "1.wea");
    level.wear2 = sibling(base + "2.wea");
    return level;
}

} // namespace msh::conversion
