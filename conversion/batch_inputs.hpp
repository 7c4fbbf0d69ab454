// The units of a forward batch (`--to glb|gltf|obj|png|preview`): every file below an input
// folder (sorted; the output folder left out when it lies inside), or the input file or archive
// entry itself, and the share of them a `--shard` job takes.
#pragma once

#include "address.hpp"
#include "batch_shard.hpp"

#include <mshconv/batch.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace msh::conversion {

struct BatchUnit {
    Address address;
    std::filesystem::path rel;  // its folder relative to its input folder (mirrored below DIR)
    std::filesystem::path root; // that input folder (or the file's own folder)
};

// Adds the units of `spec`; returns what went wrong (a missing input, a folder that cannot be
// listed), or "" when nothing did.
std::string add_batch_input(mshconv::Io& io, const std::string& spec,
                            const std::filesystem::path& out_dir, std::vector<BatchUnit>& units);

// The folder of the game libraries for assets in `dir`: options.game_dir, else the nearest folder
// from `dir` up to `root` holding Material.lib or Textures.lib, else `dir`.
std::filesystem::path library_folder(mshconv::Io& io, const std::filesystem::path& dir,
                                     const std::filesystem::path& root,
                                     const mshconv::BatchOptions& options);

// Which units belong to `shard`, balanced by their file sizes (batch_shard.hpp).
std::vector<bool> shard_units(mshconv::Io& io, const std::vector<BatchUnit>& units,
                              const Shard& shard);

} // namespace msh::conversion
