// The page `mshconv view` writes: one asset's interactive view (conversion/preview_view.hpp) with
// the viewer's script (conversion/viewer_bundle.hpp) inline, a single file that opens from disk.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace msh::conversion {

// Throws when the library was built without the viewer, saying how to get it.
void require_viewer();
// The page; throws as require_viewer() does.
std::string view_page_html(const std::string& title, const nlohmann::json& view);

} // namespace msh::conversion
