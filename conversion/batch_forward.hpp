// batch, forward (to glb|gltf|obj and/or png): folders, archives, files and archive entries
// converted into a mirror of the input's structure (see batch.cpp for the layout).
#pragma once

#include "batch.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace msh::conversion {

// Converts every input (a folder, an archive, a file or an archive entry) into `out`, one Result
// per item; archives' entries and loose files run in parallel (OpenMP).
void convert_forward(BatchRun& run, const std::vector<std::string>& inputs,
                     const std::filesystem::path& out);

} // namespace msh::conversion
