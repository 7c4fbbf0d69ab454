// The interactive view's script: three.js, its glTF loader and orbit controls and
// viewer/src/viewer.js as one minified classic script, bundled at build time by viewer/build.mjs
// (npm: three and esbuild, pinned by viewer/package-lock.json) and linked into mshconv, so that
// a gallery or a view page is complete wherever the binary is installed.
#pragma once

#include <string>
#include <string_view>

namespace msh::jobs {

// The bundle's file name in a gallery folder (written once per gallery).
constexpr std::string_view kViewerScriptName = "mshconv-viewer.js";

const std::string& viewer_bundle();
std::string_view viewer_three_version();

} // namespace msh::jobs
