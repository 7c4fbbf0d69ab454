// A preview (thumbnail) of an asset, drawn in memory on the CPU: what `mshconv preview` writes,
// as bytes. IN is an MSH model (file or ARCHIVE:ENTRY, textured through its WEAR and the game's
// libraries), a Land.msh (its Land.map and WEARs beside it), a Texm texture, or a .gltf, .glb or
// .obj. Public header: standard library only.
//
//   const mshconv::Preview p = mshconv::preview({"static.rlb:TANK.msh"}, io);
//   // p.png: the picture; p.views: each view's camera (project() puts a point on the picture);
//   // p.facts: counts, bounds and materials; p.metadata_json: all of it, as --metadata writes it
#pragma once

#include <mshconv/convert.hpp>
#include <mshconv/io.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mshconv {

// The camera: one view, or a 2 x 2 grid of views; Default: Iso for models, Top for maps.
enum class PreviewView { Default, Iso, Front, Back, Left, Right, Top, Grid };
// How a map's areal overlay is drawn: not at all, its outlines, or filled with a legend.
enum class OverlayStyle { None, Outline, Fill };

// "iso", ..., "grid" ("default" for Default): the names `mshconv preview --view` takes.
const char* to_string(PreviewView view);
// The view or style by its name as `mshconv preview` takes it; nullopt for another name.
std::optional<PreviewView> parse_preview_view(const std::string& name);
// "none", "outline", "fill".
const char* to_string(OverlayStyle style);
std::optional<OverlayStyle> parse_overlay_style(const std::string& name);

struct PreviewOptions {
    int width = 256, height = 256; // one view; a grid is 2 x 2 views
    PreviewView view = PreviewView::Default;
    int lod = 0, group = 0;
    std::optional<double> frame;                      // pose at this animation frame
    double fps = 24;                                  // of the frame numbers
    int strip = 0;                                    // N frames side by side
    int turntable = 0;                                // N views around it, an animated PNG
    std::optional<std::array<uint8_t, 3>> background; // none: transparent
    OverlayStyle overlay = OverlayStyle::Fill;        // maps
    int samples_per_side = 2;                         // 2: 4 samples per pixel
    bool both_sides = false;                          // the inner side of closed shells too
};

struct PreviewRequest {
    std::string input; // a path or ARCHIVE:ENTRY
    PreviewOptions options = {};
    // Where the game's libraries and a map's level files are (game_dir, materials, textures,
    // map, wear1, wear2) and the readings; the rest is not used.
    ConvertOptions sources = {};
};

// What a preview drew: an MSH model, a map, a texture, a scene file (glTF, OBJ, Assimp's) or a
// mission's level (its map and every placed object).
enum class PreviewKind { Model, Map, Texture, Scene, Level };
const char* to_string(PreviewKind kind); // "model", "map", "texture", "scene", "level"

// One view's camera, in glTF axes (Y up; MSH (x, y, z) = (x, z, -y)), so that a caller can put a
// point of the asset on the picture exactly (project()). A texture's view is flat: no camera.
struct PreviewCamera {
    std::string view;  // its label: "iso", "top", "FRONT" in a grid, "F 43" in a strip, "texture"
    bool flat = false; // a texture's mip level (`level`) drawn as it is: project() gives nullopt
    int level = 0;
    bool orthographic = false;
    std::array<double, 3> eye{}, right{}, up{}, forward{};
    double focal = 0; // pixels per unit of x/z and y/z (perspective), or per unit (orthographic)
    std::array<double, 2> principal{}; // the optical axis, in the view's pixels
    std::array<int, 4> viewport{};     // the view in the picture: x, y, width, height
};

// Where `point` (glTF axes) lands in the picture, in pixels from its top-left corner (y down);
// nullopt for a point on or behind a perspective camera's plane, and for a flat view.
std::optional<std::array<double, 2>> project(const PreviewCamera& camera,
                                             const std::array<double, 3>& point);

// A material the preview drew and the texture its first phase names (none: untextured).
struct PreviewMaterial {
    std::string name;
    std::optional<std::string> texture;
};

// A class of a map's areals: how many, and the overlay's colour ("#rrggbb") and fill alpha.
struct PreviewArealClass {
    uint32_t id = 0;
    size_t areals = 0;
    std::string colour;
    double fill_alpha = 0;
};

// What the preview drew, counted: the metadata's "facts". A field that is not the kind's stays
// empty or 0.
struct PreviewFacts {
    // Every kind but a texture: the drawn points at rest, in MSH axes (none: nothing drawn), and
    // the materials (in the scene's order; the areal overlay's not) with the distinct textures
    // they name, sorted.
    std::optional<std::array<std::array<float, 3>, 2>> bounds; // min, max
    std::vector<PreviewMaterial> materials;
    std::vector<std::string> textures;
    // A model: nodes, vertices and triangles in the file; a scene or level: nodes, meshes and the
    // triangles drawn.
    size_t nodes = 0, meshes = 0, vertices = 0, triangles = 0;
    // A model: the LODs and groups its nodes fill, and the LOD, group and triangles drawn.
    std::vector<int> lods, groups;
    int shown_lod = 0, shown_group = 0;
    size_t shown_triangles = 0;
    // A model's animation (frames and keys) or a scene's (seconds, and frames at the preview's
    // fps).
    bool animated = false;
    double frames = 0, seconds = 0;
    size_t keys = 0;
    // A map: its faces and vertices, and its areals by class.
    size_t faces = 0, areals = 0;
    std::vector<PreviewArealClass> areal_classes;
    // A level: the placed objects, those whose model was not found, and the distinct models.
    size_t objects = 0, unresolved = 0, distinct_models = 0;
    // A texture: its Texm pixel format (0: indexed; TextureInfo::format_name names it), first
    // level's size, mip levels, atlas pages and whether it has a palette.
    uint32_t format = 0;
    int width = 0, height = 0;
    size_t mips = 0, pages = 0;
    bool palette = false;
};

struct Preview {
    std::vector<uint8_t> png;
    PreviewKind kind = PreviewKind::Model;
    std::string source;               // the input as drawn (ARCHIVE:ENTRY)
    int width = 0, height = 0;        // the picture (a grid's, a strip's, a turntable frame's)
    std::vector<PreviewCamera> views; // each view's camera (a strip's or turntable's: a frame's)
    PreviewFacts facts;
    // All of the above as JSON, as `mshconv preview --metadata` writes it.
    std::string metadata_json;
};

// Throws UsageError on bad options, std::runtime_error on an input it cannot draw. Warnings
// (an untextured material, say) go to `on_message`.
Preview preview(const PreviewRequest& request, Io& io = disk(), const OnMessage& on_message = {});

// The interactive 3D view of the input: one HTML page with the viewer's script and the asset
// inline, which opens from disk (what `mshconv view` writes).
struct ViewPage {
    std::string html;
    PreviewKind kind = PreviewKind::Model;
    std::string name; // the input without its folders (ARCHIVE:ENTRY), the page's title
};

// Throws UsageError in a library built without the viewer (viewer_built(): Node was missing
// when it was configured), before the input is read; otherwise as preview() does.
ViewPage view_page(const PreviewRequest& request, Io& io = disk(),
                   const OnMessage& on_message = {});
bool viewer_built();

} // namespace mshconv
