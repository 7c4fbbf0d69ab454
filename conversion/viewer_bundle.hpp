// The interactive view's script: three.js, its glTF loader and orbit controls and
// viewer/src/viewer.js as one minified classic script, bundled at build time by viewer/build.mjs
// (npm: three and esbuild, pinned by viewer/package-lock.json) and linked into mshconv, so that
// a gallery or a view page is complete wherever the binary is installed. A build without Node
// has none (viewer_built()).
#pragma once

#include <string>
#include <string_view>

namespace msh::conversion {

// The bundle's file name in a gallery folder (written once per gallery).
constexpr std::string_view kViewerScriptName = "mshconv-viewer.js";

// Empty when the library was built without the viewer (viewer/viewer_bundle_missing.cpp).
const std::string& viewer_bundle();
std::string_view viewer_three_version();

// Why there is no view, and how to get one, for a library built without the viewer.
constexpr std::string_view kViewerMissing =
    "this mshconv was built without the 3D viewer (Node.js and viewer/node_modules were missing "
    "when it was configured): run scripts/install-deps.sh --build, then build again";
inline bool viewer_built() {
    return !viewer_bundle().empty();
}

} // namespace msh::conversion
