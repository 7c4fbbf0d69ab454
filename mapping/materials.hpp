// The chain from a batch to pixels (texm-materials.md §12) for textured model export:
// WEAR row name -> MAT0 in Material.lib (case-insensitive; fallback DEFAULT, then entry 0) ->
// phase 0 texture name -> Texm in Textures.lib -> level 0 as PNG. Palettised textures decode with
// their embedded palette (§9: the external palette named by the texture is only recorded).
// Missing pieces are warnings: the row stays untextured, the export goes on.
#pragma once

#include "formats/readings.hpp"

#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "scene/scene.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace msh::mapping {

// Base-colour textures already decoded and encoded as PNG in this run, by Textures.lib entry and
// PNG encoding: a batch's models share most of their textures. Safe to share between threads.
struct TextureCache {
    struct Texture {
        scene::Image image;
        scene::AlphaMode alpha = scene::AlphaMode::Opaque;
        nlohmann::json info; // format, size, mips, pages
    };
    // Textures.lib entry, zlib level, row filter, pixels only.
    using Key = std::tuple<size_t, int, int, bool>;
    std::mutex mutex;
    std::map<Key, std::shared_ptr<const Texture>> textures;
};

// The opened game libraries; any of them may be absent. The names are used in messages.
struct MaterialLibraries {
    std::optional<nres::Archive> materials; // Material.lib
    std::optional<nres::Archive> textures;  // Textures.lib
    std::optional<nres::Archive> palettes;  // palettes.lib
    std::optional<nres::Archive> lightmaps; // LightMap.lib
    // How their 888 and paletted textures are decoded (the texm-rgb reading).
    ChannelOrder channel_order = ChannelOrder::Bgr;
    std::string materials_name = "Material.lib";
    std::string textures_name = "Textures.lib";
    std::string palettes_name = "palettes.lib";
    std::string lightmaps_name = "LightMap.lib";
    // Set by a caller that resolves many models against these libraries (batch); none: no cache.
    std::shared_ptr<TextureCache> texture_cache;
};

// What one model asks of the libraries: its WEAR's material rows and lightmap names.
struct LibraryNeeds {
    std::vector<std::string> materials, lightmaps;
};

// The phase-0 texture names `rows` resolve to through `materials` (Material.lib), the same lookup
// resolve_materials makes: what a library opened for one model needs of Textures.lib.
std::vector<std::string> phase0_textures(const std::vector<std::string>& rows,
                                         const nres::Archive& materials);

struct ResolvedMaterial {
    std::string name;                  // the WEAR row name
    std::optional<scene::Image> image; // phase-0 texture, level 0 as PNG; none = untextured
    scene::AlphaMode alpha_mode = scene::AlphaMode::Opaque;
    nlohmann::json extras = nlohmann::json::object(); // mat0, attr1, phase0 params, texture
};

// One entry per row, in row order. `diagnostics` receives one warning per missing or unusable
// piece.
std::vector<ResolvedMaterial> resolve_materials(const std::vector<std::string>& rows,
                                                const MaterialLibraries& libs,
                                                DiagnosticSink& diagnostics,
                                                const png::EncodeOptions& png = {});

// Gives every scene material whose identity holds `wear_row` r the image, alpha mode and extras of
// resolved[r] (extras are merged under the key "material"). Returns how many got an image.
size_t apply_materials(scene::Scene& scene, const std::vector<ResolvedMaterial>& resolved);

struct ResolvedLightmap {
    std::string name;                  // the WEAR LIGHTMAPS row name
    std::optional<scene::Image> image; // level 0 as PNG; none = missing (slot -1, §12.4)
    nlohmann::json info = nlohmann::json::object(); // name, format, size
};

// LIGHTMAPS rows -> Texm in LightMap.lib (case-insensitive, type Texm). A missing library,
// lightmap or unusable payload is a warning: the row has no image (never the diffuse texture).
std::vector<ResolvedLightmap> resolve_lightmaps(const std::vector<std::string>& rows,
                                                const MaterialLibraries& libs,
                                                DiagnosticSink& diagnostics,
                                                const png::EncodeOptions& png = {});

// Gives every scene material whose identity holds `lightmap_row` r the image of resolved[r] (on UV
// set kLightmapTexcoord) and extras {"lightmap": info}. Returns how many got one.
size_t apply_lightmaps(scene::Scene& scene, const std::vector<ResolvedLightmap>& resolved);

} // namespace msh::mapping
