// Rigid transforms (rotation + translation, no scale) for rest-pose baking (OBJ, skin bind
// pose). Computed in double, stored in float.
#pragma once

#include "scene/scene.hpp"

#include <array>
#include <vector>

namespace msh::scene {

struct Rigid {
    std::array<double, 4> q{0, 0, 0, 1}; // x, y, z, w (unit)
    std::array<double, 3> t{0, 0, 0};
};

Rigid compose(const Rigid& parent, const Rigid& child); // parent ∘ child
Rigid inverse(const Rigid& r);
std::array<double, 3> rotate(const std::array<double, 4>& q, const std::array<double, 3>& v);
// Inline: called per vertex by the imports, and nearly always without a rotation (terrain and
// overlay nodes), where it is three additions.
inline std::array<float, 3> apply(const Rigid& r, const std::array<float, 3>& p) {
    // No rotation: the same values rotate() gives, without its arithmetic.
    if (r.q[0] == 0 && r.q[1] == 0 && r.q[2] == 0)
        return {float(p[0] + r.t[0]), float(p[1] + r.t[1]), float(p[2] + r.t[2])};
    const auto v = rotate(r.q, {p[0], p[1], p[2]});
    return {float(v[0] + r.t[0]), float(v[1] + r.t[1]), float(v[2] + r.t[2])};
}
std::array<float, 3> apply_rotation(const Rigid& r, const std::array<float, 3>& v);
// Column-major 4x4 (glTF order).
std::array<float, 16> to_matrix(const Rigid& r);

// With scale (a level's placements): T * R * S as a column-major 4x4 in double (glTF order), the
// rotation (x, y, z, w) normalised first; and the product a * b.
using Matrix4 = std::array<double, 16>;
Matrix4 scaled_matrix(const std::array<double, 3>& t, std::array<double, 4> q,
                      const std::array<double, 3>& s);
Matrix4 multiply(const Matrix4& a, const Matrix4& b);

// World rest transform of every scene node (parents before or after children: any order).
std::vector<Rigid> world_transforms(const Scene& scene);

} // namespace msh::scene
