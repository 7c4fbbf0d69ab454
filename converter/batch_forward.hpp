// batch, forward (--to glb|gltf|obj and/or png): folders, archives, files and archive entries
// converted into a mirror of the input's structure (see batch.cpp for the layout).
#pragma once

#include "batch_progress.hpp"
#include "batch_shard.hpp"
#include "options.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace msh::cli {

struct Targets {
    std::string model_ext; // ".glb", ".gltf", ".obj" or empty: models and maps are skipped
    bool png = false;      // textures to PNG
    bool nres = false;     // reverse: rebuild archives
    bool preview = false;  // thumbnails, facts and a gallery (batch_preview.hpp)
    std::string text;
};

// `--to` as given; throws UsageError on an unknown or contradictory format list.
Targets parse_targets(const std::string& text);

// Converts every input (a folder, an archive, a file or an archive entry) into `out`, one Result
// per item; archives' entries and loose files run in parallel (OpenMP).
void convert_forward(const Targets& targets, const std::vector<std::string>& inputs,
                     const std::filesystem::path& out, const po::variables_map& vm,
                     const Shard& shard, Progress& progress, std::vector<Result>& results);

} // namespace msh::cli
