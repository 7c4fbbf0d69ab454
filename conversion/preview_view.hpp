// The data of an asset's interactive view (viewer/src/viewer.js; the gallery of
// `batch --to preview` and `mshconv view`): a model or map as one GLB (every LOD and group; maps
// with both layers and the draped areal overlay) carried as base64, with the preview's camera so
// that the view opens where the thumbnail looks from; a texture as each mip level's PNG and its
// atlas pages. In memory like the previews: bytes in, JSON and script text out.
#pragma once

#include "model_export.hpp"
#include "preview_image.hpp"
#include "terrain.hpp"

#include "formats/bytes.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace msh::conversion {

// `preview`: the metadata of the same asset's preview (its first view's camera, its facts).
nlohmann::json model_view(const ModelExportInput& input, const PreviewSettings& settings,
                          const nlohmann::json& preview);
nlohmann::json terrain_view(const TerrainExportInput& input, const PreviewSettings& settings,
                            const nlohmann::json& preview);
// A scene read from a .gltf, .glb, .obj or a format Assimp reads: shown as it is, as a model.
nlohmann::json scene_view(const scene::Scene& scene, const nlohmann::json& preview);
// A mission's level: its scene with PNG textures, kind "level" (the page shows the map's overlay
// switches, and a click on an object names it).
nlohmann::json level_view(const LevelExportInput& input, const nlohmann::json& preview);
nlohmann::json texture_view(ByteView texm, const std::string& address,
                            const PreviewSettings& settings, const nlohmann::json& preview);

// The view as a classic script that files it under `key` in window.mshconvViews: a page loads
// it with a <script> element from disk (no fetch(), which file:// pages may not use).
std::string view_script(const std::string& key, const nlohmann::json& view);

// JSON text that an HTML parser cannot end early inside a <script> element: `<`, `>` and `&`
// (which only occur inside JSON strings) as \u escapes, which mean the same.
std::string script_safe_json(const nlohmann::json& value);

} // namespace msh::conversion
