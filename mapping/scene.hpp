// A small neutral scene between the game IR and the interchange writers (design.md §1): nodes with
// TRS and parents, meshes of primitives with named float attributes, materials, one animation and
// JSON extras. Plain data; coordinates are already in the target convention (glTF: Y up).
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace msh::scene {

constexpr int kNoIndex = -1;

struct Node {
    std::string name;
    int parent = kNoIndex; // index into Scene::nodes; children are derived from it
    std::array<float, 3> translation{0, 0, 0};
    std::array<float, 4> rotation{0, 0, 0, 1}; // x, y, z, w
    int mesh = kNoIndex;
    int skin = kNoIndex;
    // A root node that is not listed in the scene (an MSFT_lod level referenced from elsewhere).
    bool in_scene = true;
    // MSFT_lod: the nodes of the coarser levels, with the screen coverage of each level.
    std::vector<int> lod_ids;
    std::vector<float> lod_coverage;
    nlohmann::json extras; // null = none
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
};

struct Mesh {
    std::string name;
    std::vector<Primitive> primitives;
    nlohmann::json extras;
};

struct Material {
    std::string name;
    nlohmann::json extras;
};

enum class Path { Translation, Rotation };

struct Channel {
    int node = kNoIndex;
    Path path = Path::Translation;
    std::vector<float> times;  // seconds, strictly increasing
    std::vector<float> values; // 3 (translation) or 4 (rotation x, y, z, w) floats per time
};

struct Animation {
    std::string name;
    std::vector<Channel> channels; // LINEAR interpolation
    nlohmann::json extras;
};

struct Skin {
    std::string name;
    std::vector<int> joints;
    std::vector<float> inverse_bind; // 16 floats (column-major) per joint
};

struct Scene {
    std::vector<Node> nodes;
    std::vector<Mesh> meshes;
    std::vector<Material> materials;
    std::vector<Animation> animations; // zero or one for MSH models
    std::vector<Skin> skins;
    nlohmann::json extras; // scene-level extras
};

} // namespace msh::scene
