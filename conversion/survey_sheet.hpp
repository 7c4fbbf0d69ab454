// The contact sheet of `mshconv survey --sheet DIR` (docs/survey.md): every 888 and paletted
// texture's level 0 twice, once per texm-rgb reading, packed onto labelled PNG pages, with
// index.txt (one line per cell) and index.html (the pages with a caption per cell) beside them.
#pragma once

#include "survey_stats.hpp"

#include "formats/bytes.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

namespace msh::conversion::survey {

struct SheetOutcome {
    size_t pages = 0, textures = 0;
};

// Pages are at most this wide and tall; cells are kSheetSpacing px apart and from the edges.
constexpr uint32_t kSheetPage = 1024;
constexpr uint32_t kSheetSpacing = 16;

// Files to write as one set, with their bytes.
using OwnedFiles = std::vector<std::pair<std::filesystem::path, Bytes>>;

// Adds the pages, index.txt and index.html under `dir` to `files` (the report's set). Each cell is
// a texture decoded B, G, R (texm-rgb=bgr, the default) on the left and with R and B exchanged
// (texm-rgb=rgb) on the right, `gap` px apart, each half labelled with its reading.
SheetOutcome add_sheet(OwnedFiles& files, const std::filesystem::path& dir,
                       const std::vector<SheetTexture>& items, uint32_t gap);

} // namespace msh::conversion::survey
