// `mshconv preview IN OUT.png`: one thumbnail (pipeline/preview.hpp) of a model, map, texture or
// glTF/GLB/OBJ scene, with --metadata its facts as JSON. The options are shared with
// `batch --to preview`.
#pragma once

#include "disk_jobs.hpp"
#include "options.hpp"

#include "jobs/preview.hpp"

#include <filesystem>

namespace msh::cli {

// --size, --view, --frame, --time, --strip, --turntable, --background, --overlay, --samples,
// --materials, --textures, --map, --wear1, --wear2; with `standalone` also --lod, --group, --fps
// and --game-dir (batch has its own).
void add_preview_options(po::options_description& desc, bool standalone);
// Throws UsageError on a bad value or combination.
mshconv::PreviewOptions preview_options(const po::variables_map& vm);
pipeline::PreviewSettings preview_settings(const po::variables_map& vm);

} // namespace msh::cli
