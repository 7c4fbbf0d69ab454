// The preview verb behind mshconv::preview (include/mshconv/preview.hpp); `batch --to preview`
// draws with the same pieces.
#pragma once

#include "convert.hpp"

#include "preview_image.hpp"

#include <mshconv/preview.hpp>

namespace msh::conversion {

// The settings of `options` (UsageError on a bad value or combination).
PreviewSettings preview_settings(const mshconv::PreviewOptions& options, const Readings& readings);

// The preview of a loaded asset (model, Land.msh or Texm, sniffed); throws FormatError when it is
// none of these. `context`: batch's WEAR and libraries. With `view`, also the asset's interactive
// view (conversion/preview_view.hpp) from the same inputs.
Preview preview_loaded(const Job& job, const Loaded& in, const PreviewSettings& settings,
                       PreviewTextureCache* cache = nullptr,
                       const ModelExportContext* context = nullptr, nlohmann::json* view = nullptr);

// The preview of `input` (a path or ARCHIVE:ENTRY; a .gltf/.glb/.obj or a format Assimp reads
// is read as a scene); with `view`, also its interactive view.
Preview preview_of(const Job& job, const std::string& input, const PreviewSettings& settings,
                   nlohmann::json* view = nullptr);

} // namespace msh::conversion
