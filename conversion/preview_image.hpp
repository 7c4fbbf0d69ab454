// Previews for asset databases (README "Previews"): a model, a map, a texture or any scene drawn
// to a PNG by the software rasterizer in render/, with the facts about the asset as JSON. In
// memory like the rest of the front door: bytes and settings in, PNG bytes and metadata out.
//
//   model    the scene encode_model builds (slots as selected, textures through WEAR -> MAT0 ->
//            Texm), posed at a frame with the engine's sampler
//   map      the terrain textured as far as the libraries resolve, the areal overlay on top
//   texture  the Texm's level 0 fitted on a checkerboard
//   scene    a glTF / GLB / OBJ read by read_scene (the same neutral scene)
#pragma once

#include "level.hpp"
#include "model_export.hpp"
#include "terrain.hpp"

#include "formats/bytes.hpp"
#include "render/raster.hpp"
#include "scene/scene.hpp"

#include <mshconv/preview.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace msh::conversion {

// A preview that cannot be drawn from valid input (nothing to show in the chosen LOD/group, ...).
struct PreviewError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct PreviewSettings {
    int width = 256, height = 256; // one view; a grid is 2 x 2 views, a strip N views wide
    // iso, front, back, left, right, top, or grid (front, right, top and iso, labelled).
    std::string view; // empty: iso for models, top for maps
    int lod = 0, group = 0;
    Readings readings;           // the contested readings (formats/readings.hpp)
    std::optional<double> frame; // pose at this animation frame (models)
    double fps = 24;             // --time S = frame S * fps; a scene's key times are seconds
    int strip = 0;               // > 0: this many frames of the animation side by side
    int turntable = 0;           // > 0: this many views around the model, an animated PNG
    std::optional<std::array<uint8_t, 3>> background;                   // none: transparent
    enum class Overlay { None, Outline, Fill } overlay = Overlay::Fill; // maps
    int samples_per_side = 2; // supersampling: 2 = 4 samples per pixel
    // Draw the inner side of closed shells too (render/shells.hpp): slower, the same coverage,
    // colours along silhouettes as rounding picks; for checks, and a way round a model whose
    // closed parts are wound inside out in places.
    bool both_sides = false;
};

// Checks the settings; returns the problem, or empty when they are usable.
std::string preview_settings_problem(const PreviewSettings& settings);

// Decoded textures shared between previews of one run (a batch's models share most of theirs),
// keyed by the image bytes' hash, or for images that come as pixels (the game's texture chain
// shares one decoded image between all its users) by those pixels, which the cache keeps alive.
// Thread-safe.
struct PreviewTextureCache {
    std::mutex mutex;
    std::map<std::pair<uint64_t, size_t>, std::shared_ptr<const render::Texture>> textures;
    std::map<const texm::Image*,
             std::pair<std::shared_ptr<const texm::Image>, std::shared_ptr<const render::Texture>>>
        by_pixels;
};

struct Preview {
    Bytes png;
    // kind, source, hash, size (of the picture; a turntable: of each frame), facts (counts,
    // bounds, materials, textures, ...), views (each view's viewport and camera, so that a test
    // or a tool can project geometry the same way).
    nlohmann::json metadata;
    mshconv::PreviewKind kind = mshconv::PreviewKind::Model; // typed ("kind" above)
    std::string source;                                      // "source" above
    int width = 0, height = 0;                               // "size" above
    std::vector<mshconv::PreviewCamera> cameras; // the views' cameras, typed ("views" above)
    mshconv::PreviewFacts facts;                 // typed ("facts" above)
    std::vector<std::string> warnings;
};

Preview preview_model(const ModelExportInput& input, const PreviewSettings& settings,
                      PreviewTextureCache* cache = nullptr);
Preview preview_terrain(const TerrainExportInput& input, const PreviewSettings& settings,
                        PreviewTextureCache* cache = nullptr);
Preview preview_texture(ByteView texm, const std::string& address, const PreviewSettings& settings);
// A mission's level (conversion/level.hpp), drawn from above by default.
Preview preview_level(const LevelExportInput& input, const PreviewSettings& settings,
                      PreviewTextureCache* cache = nullptr);
// A scene read from glTF / GLB / OBJ (`bytes`: the file, for the hash).
Preview preview_scene(const scene::Scene& scene, ByteView bytes, const std::string& address,
                      const PreviewSettings& settings, PreviewTextureCache* cache = nullptr);

} // namespace msh::conversion
