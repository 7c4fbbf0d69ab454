// batch to preview: a thumbnail (NAME.png) and its facts (NAME.json) for every model (also
// nested in archives), map and texture below the inputs, plus DIR/index.json (every asset) and
// DIR/index.html (a static gallery, conversion/preview_gallery). Output paths mirror the input's
// structure (DIR/static.rlb/House_01.msh.png). Incremental: an asset whose key (the content hash
// of its bytes, its WEAR or level files, the game libraries and the options) matches the JSON
// already there is skipped unless `force`. A damaged asset gets a placeholder tile and its error.
#pragma once

#include "batch.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace msh::conversion {

struct PreviewRun {
    size_t unchanged = 0; // skipped by their key
};

PreviewRun preview_all(BatchRun& run, const std::vector<std::string>& inputs,
                       const std::filesystem::path& out);

} // namespace msh::conversion
