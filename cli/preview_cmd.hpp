// `mshconv preview IN OUT.png`: one thumbnail (include/mshconv/preview.hpp) of a model, map,
// texture or glTF/GLB/OBJ scene, with --metadata its facts as JSON. The options are shared with
// `batch --to preview`.
#pragma once

#include "options.hpp"

#include <mshconv/preview.hpp>

#include <filesystem>

namespace msh::cli {

// The commands that take the preview's options: `preview` all of them; `view` those that choose
// what it shows and its first camera (its page is no picture); `batch --to preview` the
// picture's (batch has its own --lod, --group, --fps, --game-dir and --reading).
enum class PreviewUse { Preview, View, Batch };
void add_preview_options(po::options_description& desc, PreviewUse use);
// `--overlay none|outline|fill`, the earlier spelling of --overlay-style, accepted unlisted.
void add_old_overlay_spelling(po::options_description& hidden);
// Takes `--overlay none|outline|fill` as --overlay-style, with a note on stderr; other values of
// --overlay (a map export's raw|draped|both) stay.
void adopt_old_overlay_spelling(po::variables_map& vm);
// Throws UsageError on a bad value or combination.
mshconv::PreviewOptions preview_options(const po::variables_map& vm);

} // namespace msh::cli
