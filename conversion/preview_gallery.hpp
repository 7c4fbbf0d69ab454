// The static gallery (`index.html`) that `batch --to preview` writes next to the thumbnails.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace msh::conversion {

// One self-contained HTML5 page (inline CSS and JS, no network, works from file://) showing the
// assets of `index` (the preview index.json: {"generator", "options", "assets": [...]}) as a grid
// of thumbnails with their facts, a search box, a kind filter ("error" holds the failed assets,
// whatever their kind) and the filters mirrored in the URL hash (`#q=house&kind=model`).
// The index is embedded as JSON with `<`, `>`, `&` escaped; the page builds its DOM from it with
// textContent only, so asset names cannot inject markup.
std::string gallery_html(const nlohmann::json& index);

} // namespace msh::conversion
