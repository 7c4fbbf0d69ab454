// The game's file conventions on disk, for callers that start from a folder rather than bytes: the
// material libraries a model's textures resolve through, and the files of a terrain level beside
// its Land.msh. Game folders mix the case of names, so every lookup is case-insensitive.
#pragma once

#include <mshconv/io.hpp>

#include "model_export.hpp"
#include "terrain.hpp"

#include "mapping/materials.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace msh::conversion {

// A regular file of `dir` named `name`, case-insensitively.
// Through `io`, as every lookup here (the disk by default).
std::optional<std::filesystem::path> find_file_ci(const std::filesystem::path& dir,
                                                  const std::string& name,
                                                  mshconv::Io& io = mshconv::disk());

// True when `dir` holds Material.lib or Textures.lib (any case).
bool has_game_libraries(const std::filesystem::path& dir, mshconv::Io& io = mshconv::disk());

struct LibraryPaths {
    std::optional<std::filesystem::path> materials, textures; // else looked up in the folder
};

// Material.lib, Textures.lib, palettes.lib and LightMap.lib of `dir` (or the explicit paths). A
// library that is missing leaves its part empty; one that cannot be read is a warning (the
// export stays untextured), never a failure.
// With `needs` (one model's export), Textures.lib and LightMap.lib are mapped and only the
// textures those rows resolve to are read (MaterialLibraries then holds just those entries).
mapping::MaterialLibraries open_game_libraries(const std::filesystem::path& dir,
                                               const LibraryPaths& explicit_paths,
                                               std::vector<std::string>& warnings,
                                               const mapping::LibraryNeeds* needs = nullptr,
                                               mshconv::Io& io = mshconv::disk());

// A level as files: `<base>.msh` and, beside it, `<base>.map`, `<base>1.wea`, `<base>2.wea`.
struct LevelFiles {
    NamedBytes land_msh;
    std::optional<NamedBytes> land_map, wear1, wear2;

    // The export's input; it points into this struct, which must outlive it.
    TerrainExportInput export_input() const;
};

// Reads Land.msh and whichever of its level files exist (throws on an unreadable Land.msh).
LevelFiles read_level_files(const std::filesystem::path& land_msh);

} // namespace msh::conversion
