// `mshconv preview IN OUT.png`: one thumbnail (pipeline/preview.hpp) of a model, map, texture or
// glTF/GLB/OBJ scene, with --metadata its facts as JSON. The options are shared with
// `batch --to preview`.
#pragma once

#include "address.hpp"
#include "convert.hpp"
#include "options.hpp"

#include "pipeline/preview.hpp"

#include <filesystem>

namespace msh::cli {

// --size, --view, --frame, --time, --strip, --turntable, --background, --overlay, --samples,
// --materials, --textures, --map, --wear1, --wear2; with `standalone` also --lod, --group, --fps
// and --game-dir (batch has its own).
void add_preview_options(po::options_description& desc, bool standalone);
// Throws UsageError on a bad value or combination.
pipeline::PreviewSettings preview_settings(const po::variables_map& vm);

// The preview of a loaded asset (model, Land.msh or Texm, sniffed); throws FormatError when it is
// none of these. `context`: batch's WEAR and libraries. With `view`, also the asset's
// interactive view (pipeline/preview_view.hpp) from the same inputs.
pipeline::Preview preview_loaded(const Loaded& in, const po::variables_map& vm,
                                 const pipeline::PreviewSettings& settings,
                                 pipeline::PreviewTextureCache* cache = nullptr,
                                 const ModelExportContext* context = nullptr,
                                 nlohmann::json* view = nullptr);

} // namespace msh::cli
