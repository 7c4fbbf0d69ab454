// batch, reverse (--to nres): every folder below the inputs that holds `_nres.json` rebuilt into
// its archive, converted entries imported from their PNG/glTF/OBJ + sidecar.
#pragma once

#include "batch_progress.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace msh::cli {

// One Result per archive (and per failed entry); throws UsageError on inputs that are not batch
// output folders.
void rebuild_all(const std::vector<std::string>& inputs, const std::filesystem::path& out,
                 Progress& progress, std::vector<Result>& results);

} // namespace msh::cli
