// A small neutral scene between the game IR and the interchange writers (design.md §1): nodes with
// TRS and parents, meshes of primitives with named float attributes, materials, one animation, the
// typed identity of each element (identity.hpp) and free-form JSON extras. Plain data; coordinates
// are already in the target convention (glTF: Y up).
#pragma once

#include <nlohmann/json.hpp>

#include "identity.hpp"
#include "pixels.hpp"
#include <array>
#include <cstdint>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace msh::scene {

constexpr int kNoIndex = -1;

struct Node {
    std::string name;
    int parent = kNoIndex; // index into Scene::nodes; children are derived from it
    std::array<float, 3> translation{0, 0, 0};
    std::array<float, 4> rotation{0, 0, 0, 1}; // x, y, z, w
    // Written by the glTF writer only; the reader bakes a node's scale into its geometry (MSH
    // nodes are rigid). A level's scaled scenery is the one producer.
    std::array<float, 3> scale{1, 1, 1};
    int mesh = kNoIndex;
    int skin = kNoIndex;
    // A root node that is not listed in the scene (an MSFT_lod level referenced from elsewhere).
    bool in_scene = true;
    // KHR_node_visibility: false = the node and its children are not shown (slots other than the
    // selected one in an export of every LOD and group), yet present to edit.
    bool visible = true;
    // MSFT_lod: the nodes of the coarser levels, with the screen coverage of each level.
    std::vector<int> lod_ids;
    std::vector<float> lod_coverage;
    NodeIdentity identity;
    nlohmann::json extras; // null = none; free-form, the identity aside
};

// A vertex attribute: `components` floats per vertex (2, 3 or 4), tightly packed. `joints`
// attributes hold whole numbers and are written as unsigned integers (JOINTS_n).
struct Attribute {
    int components = 3;
    std::vector<float> data;
    bool joints = false;
    size_t count() const { return components ? data.size() / size_t(components) : 0; }
};

struct Primitive {
    // Names as in glTF: POSITION, NORMAL, TEXCOORD_0, TEXCOORD_1, ...
    std::map<std::string, Attribute> attributes;
    std::vector<uint32_t> indices; // triangle list; the writer picks u16 when every index fits
    int material = kNoIndex;
    // Triangles (default): `indices` in threes; Lines: `indices` in pairs (glTF LINES), e.g. the
    // areal-map outlines of a terrain export. OBJ and import paths handle triangles only.
    enum class Mode { Triangles, Lines };
    Mode mode = Mode::Triangles;
};

struct Mesh {
    std::string name;
    std::vector<Primitive> primitives;
    MeshIdentity identity;
    nlohmann::json extras;
};

// A texture image carried by a material: encoded PNG bytes and a name that writers turn into a
// file name (`<out stem>_<name>.png` beside a .gltf/.obj) or an image name (.glb). Imports keep
// the file's bytes as they are (PNG, or JPEG and the other formats a foreign file may carry).
struct Image {
    explicit Image(std::string name_ = {}, std::vector<uint8_t> png_ = {},
                   std::shared_ptr<const Pixels> pixels_ = nullptr)
        : name(std::move(name_)), png(std::move(png_)), pixels(std::move(pixels_)) {}
    std::string name;
    std::vector<uint8_t> png;
    // Decoded pixels (RGBA8) instead of `png`, from producers asked for pixels only
    // (png::EncodeOptions::pixels_only: previews, which draw them and would only decode a PNG
    // again). Shared: copies of the scene do not copy them.
    std::shared_ptr<const Pixels> pixels;
    bool operator==(const Image& o) const {
        return name == o.name && png == o.png && pixels == o.pixels;
    }
};

// glTF alphaMode. OPAQUE unless the material is known to be a cut-out (texm-materials.md §7).
enum class AlphaMode { Opaque, Mask, Blend };

struct Material {
    std::string name;
    MaterialIdentity identity;
    nlohmann::json extras;
    std::optional<Image> base_color; // baseColorTexture (TEXCOORD_0)
    // A baked multiplicative lightmap (texm-materials.md §12, step 4) on UV set
    // `lightmap_texcoord`. glTF has no lightmap slot: written as occlusionTexture, the closest
    // (README "Lightmaps").
    std::optional<Image> lightmap;
    int lightmap_texcoord = 2;
    AlphaMode alpha_mode = AlphaMode::Opaque;
    float alpha_cutoff = 0.5f; // MASK only
    // Linear RGBA multiplier of the base colour (glTF baseColorFactor, MTL Kd, Assimp's diffuse
    // colour). Read by imports (a new model's material without an image becomes a plain-colour
    // texture); the exports leave it white.
    std::array<float, 4> base_color_factor{1, 1, 1, 1};
};

enum class Path { Translation, Rotation };

struct Channel {
    int node = kNoIndex;
    Path path = Path::Translation;
    std::vector<float> times;  // seconds, strictly increasing
    std::vector<float> values; // 3 (translation) or 4 (rotation x, y, z, w) floats per time
    // A file's STEP sampler: each value holds until the next time (the writers write LINEAR).
    bool step = false;
};

struct Animation {
    std::string name;
    std::vector<Channel> channels; // LINEAR interpolation unless a channel says STEP
    nlohmann::json extras;
};

struct Skin {
    std::string name;
    std::vector<int> joints;
    std::vector<float> inverse_bind; // 16 floats (column-major) per joint
};

// The file-name form of an image name: characters outside [A-Za-z0-9._-] become '_' (safe as a
// file name and as a glTF URI without escaping).
inline std::string image_file_stem(const std::string& name) {
    std::string s = name.empty() ? std::string("image") : name;
    for (char& c : s)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.'))
            c = '_';
    return s;
}

struct ImageFile {
    std::string name; // file name beside the document
    std::vector<uint8_t> png;
};

struct Scene {
    std::vector<Node> nodes;
    std::vector<Mesh> meshes;
    std::vector<Material> materials;   // images come with their materials (deduplicated by name)
    std::vector<Animation> animations; // zero or one for MSH models
    std::vector<Skin> skins;
    SceneIdentity identity;
    nlohmann::json extras; // scene-level extras
};

// The distinct image files of the scene's materials, named `<prefix><image_file_stem>.png`:
// base colour images, and lightmaps when the format has a place for them (glTF, not OBJ).
inline std::vector<ImageFile> image_files(const Scene& scene, const std::string& prefix,
                                          bool with_lightmaps = false) {
    std::vector<ImageFile> files;
    auto add = [&](const std::optional<Image>& img) {
        if (!img || img->png.empty()) return;
        const std::string file = prefix + image_file_stem(img->name) + ".png";
        bool seen = false;
        for (const ImageFile& f : files) seen = seen || f.name == file;
        if (!seen) files.push_back({file, img->png});
    };
    for (const Material& mat : scene.materials) add(mat.base_color);
    if (with_lightmaps)
        for (const Material& mat : scene.materials) add(mat.lightmap);
    return files;
}

} // namespace msh::scene
