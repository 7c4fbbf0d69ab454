// The drawing half of the previews (conversion/preview_image.hpp): a scene, posed, turned into
// world-space triangle lists with their surfaces, and views of them rendered into cells of a sheet.
#pragma once

#include "preview_image.hpp"

#include "render/camera.hpp"
#include "render/raster.hpp"
#include "render/shells.hpp"
#include "scene/scene.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace msh::conversion::preview_draw {

// Fill opacity of the areal classes over the ground in a map preview.
constexpr float kFillAlpha = 0.35f;

struct Item {
    std::vector<render::Vertex> vertices;
    std::vector<uint32_t> triangles;
    render::Surface surface;
};

struct Lines {
    std::vector<render::Vec3> points;
    std::vector<uint32_t> segments;
    std::array<float, 4> colour{0, 0, 0, 1};
};

struct DrawList {
    std::vector<Item> items; // opaque and cut-out first, blended last
    std::vector<Lines> lines;
    std::vector<render::Vec3> framed; // the points the camera frames
    size_t triangles = 0;
    // The closed shells of the opaque items (by item): their inner sides are not drawn.
    render::ShellSet shells;
};

// A node's local pose overriding its TRS (translation, rotation x, y, z, w).
struct LocalPose {
    std::array<float, 3> translation;
    std::array<float, 4> rotation;
};
using Pose = std::vector<std::optional<LocalPose>>; // by scene node; empty: the rest pose

// What of a scene is drawn and how (maps: the overlay layer instead of the raw polygons).
struct DrawOptions {
    bool terrain = false;
    bool cull_hidden = true; // find the closed shells (maps: the terrain is open; never)
    PreviewSettings::Overlay overlay = PreviewSettings::Overlay::Fill;
};

// Triangles of every shown node (MSFT_lod levels outside the scene are not shown), textured
// through the materials' images (decoded once per cache). Warnings for images that do not decode.
DrawList draw_list(const scene::Scene& scene, const Pose& pose, const DrawOptions& options,
                   PreviewTextureCache& cache, std::vector<std::string>& warnings);

// Linear interpolation of a scene's animation at `seconds` (rotations by slerp).
Pose sample_scene_animation(const scene::Scene& scene, double seconds);
double scene_animation_seconds(const scene::Scene& scene);

// One view of `list` through `camera`.
texm::Image render_view(const DrawList& list, const render::Camera& camera,
                        const PreviewSettings& settings);

// Pastes `cell` into `sheet` at (x, y).
void paste(texm::Image& sheet, const texm::Image& cell, uint32_t x, uint32_t y);

// The view's camera in glTF axes, as the public result holds it.
mshconv::PreviewCamera preview_camera(const render::Camera& camera, const std::string& view,
                                      std::array<int, 4> viewport);
// The same as the metadata records it (a flat view: its level and viewport).
nlohmann::json camera_json(const mshconv::PreviewCamera& camera);

} // namespace msh::conversion::preview_draw
