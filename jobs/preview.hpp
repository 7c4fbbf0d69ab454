// The preview jobs behind mshconv::preview (include/mshconv/preview.hpp); `batch --to preview`
// draws with the same pieces.
#pragma once

#include "convert.hpp"

#include "pipeline/preview.hpp"

#include <mshconv/preview.hpp>

namespace msh::jobs {

// The settings of `options` (UsageError on a bad value or combination).
pipeline::PreviewSettings preview_settings(const mshconv::PreviewOptions& options,
                                           const Readings& readings);

// The preview of a loaded asset (model, Land.msh or Texm, sniffed); throws FormatError when it is
// none of these. `context`: batch's WEAR and libraries. With `view`, also the asset's interactive
// view (pipeline/preview_view.hpp) from the same inputs.
pipeline::Preview preview_loaded(const Job& job, const Loaded& in,
                                 const pipeline::PreviewSettings& settings,
                                 pipeline::PreviewTextureCache* cache = nullptr,
                                 const ModelExportContext* context = nullptr,
                                 nlohmann::json* view = nullptr);

// The preview of `input` (a path or ARCHIVE:ENTRY; a .gltf/.glb/.obj or a format Assimp reads
// is read as a scene); with `view`, also its interactive view.
pipeline::Preview preview(const Job& job, const std::string& input,
                          const pipeline::PreviewSettings& settings,
                          nlohmann::json* view = nullptr);

} // namespace msh::jobs
