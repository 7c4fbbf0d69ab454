// Turns a description of a model (nodes, their key tracks and, per slot, closed meshes with a
// material) into a complete MSH image laid out as msh.md §11 prescribes for new models:
// contiguous batches per slot, Res6 slices in batch order, one Res7 descriptor per index triple
// with face normals and mutual adjacency, derived bounds, canonical animation (animation.md §9).
#pragma once

#include "formats/anim.hpp"
#include "formats/bytes.hpp"
#include "formats/msh.hpp"
#include "samples/shapes.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace msh::samples {

struct PartSpec {
    Mesh mesh;
    uint16_t material = 0;    // WEAR row
    uint16_t tri_flags = 0;   // Res7 triFlags of every triangle of the part
    uint16_t batch_flags = 0; // Res13 batchFlags
};

struct NodeSpec {
    std::string name;                 // Res9 name ("" = empty record)
    std::optional<std::string> label; // Res10 text; nullopt = len 0 (as shipped)
    uint16_t parent = kNone;
    uint16_t flags = 0;          // hdr0
    std::vector<anim::Key> keys; // >= 1; whole-number times from 0, strictly increasing
    std::array<std::vector<PartSpec>, kSlotWords> slots; // [lod * 5 + group]
};

struct ModelSpec {
    std::string name;
    uint64_t seed = 0;
    std::vector<NodeSpec> nodes;
    uint32_t res1_attr2 = 0;
    // system.rlb::MTCHECK.MSH: Res1 with 24-byte records of unknown layout, stored raw.
    bool legacy24 = false;
    // Res18 + Res20 present (second observed entry order); group-0 batches are lit.
    bool lightmapped = false;
    // Res17 path graph (msh.md §7): empty for most models.
    Bytes res17;
    uint32_t res17_nodes = 0, res17_links = 0;
    uint32_t res17_attr3 = 0;
    // Share of triangles with real selector values, of vertices with a non-zero 4th normal byte,
    // and of -127 normal components stored as the raw value -128.
    double selector_share = 0.04;
    double nw_share = 0.0;
    double neg128_share = 0.0;
    bool opaque6_is_node = false; // else small varied values
};

struct BuiltModel {
    Bytes image;
    size_t nodes = 0, slots = 0, batches = 0, vertices = 0, triangles = 0, keys = 0;
    uint32_t frame_count = 1;
    uint16_t material_rows = 0; // max material index + 1
    bool lightmapped = false;
    bool legacy24 = false;
    bool res17_nonempty = false;
    size_t animated_nodes = 0;
};

BuiltModel build_model(const ModelSpec& spec);

// Key helpers for the recipes.
anim::Key make_key(float time, V3 pos, Rot rot);

} // namespace msh::samples
