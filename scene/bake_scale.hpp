// MSH nodes are rigid (translation + rotation). A glTF node's scale, or the scale and shear of its
// matrix, is baked: the node keeps a rigid frame (its rotation chain, its origin where it was) and
// the rest goes into its mesh's vertices and its children's translations, so every vertex keeps
// its world position. With B_p the parent's baked linear part, Q the node's rotation and U its
// residual (scale / shear): B = Q^T B_p Q U; the node's translation (and its translation keys)
// become B_p t; positions B v, normals B^-T n, winding flipped where det B < 0; a skin's inverse
// bind matrices B_j IBM_j. Rotation keys stay exact when B_p is a uniform scale; under a
// non-uniform parent they are kept with a warning naming the node.
#pragma once

#include "scene/scene.hpp"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace msh::scene {

using Linear3 = std::array<double, 9>; // row-major 3x3
constexpr Linear3 kIdentity3{1, 0, 0, 0, 1, 0, 0, 0, 1};

// A glTF node matrix (column-major 4x4, affine) as translation, rotation (x, y, z, w) and the
// residual linear part U (upper triangular: scale and shear; a mirror makes U[8] negative).
struct Decomposed {
    std::array<float, 3> translation{0, 0, 0};
    std::array<float, 4> rotation{0, 0, 0, 1};
    Linear3 residual = kIdentity3;
};
Decomposed decompose_matrix(const std::array<double, 16>& column_major);

bool is_identity(const Linear3& m);

// Whether scale keys (x, y, z per key) only repeat the node's rest scale, the residual's diagonal:
// exporters sample such a channel with every animated object, and the bake already carries it.
bool keeps_rest_scale(const std::vector<float>& keys, const Linear3& residual);
// The warning for a scale channel that changes (MSH nodes cannot scale).
std::string animated_scale_warning(const std::string& animation, const std::string& node);

// `residual[i]` is node i's local linear part beyond its rotation (kIdentity3 for a rigid node).
// Returns the number of nodes whose frame or geometry changed. `warn(node, text)` is called once
// per node whose animation cannot be carried exactly.
size_t bake_residuals(Scene& scene, const std::vector<Linear3>& residual,
                      const std::function<void(int, const std::string&)>& warn);

} // namespace msh::scene
