// Closed shells: which opaque triangles can never be seen from outside a model, so that a preview
// need not draw them. A shell is a group of triangles joined edge to edge that closes on itself
// with one consistent winding (every edge a -> b of it is matched by an edge b -> a); seen from
// outside its bounding box, the ray to any point of its inner side first enters the shell
// through its outer side, which is nearer. Two-sided drawing of a closed model otherwise draws
// its far half only to hide it (half of a thumbnail's pixel visits). Nothing is promised about a
// model's winding (the game's normals are the promise of facing, not its winding): the test
// finds what a model's geometry proves and culls nothing elsewhere.
#pragma once

#include "raster.hpp"

#include <cstdint>
#include <vector>

namespace msh::render {

struct Shell {
    Vec3 lo, hi;  // bounding box, world
    bool outward; // counter-clockwise (glTF's front face) is the outside
};

// One mesh of a draw: its vertices and triangle list (as Canvas::draw takes them).
struct MeshRef {
    const std::vector<Vertex>* vertices;
    const std::vector<uint32_t>* triangles;
};

struct ShellSet {
    std::vector<Shell> shells;
    // Per mesh, per triangle: the index of its shell, or -1 (not part of a closed shell).
    std::vector<std::vector<int32_t>> shell_of;
};

// The closed shells of `meshes` taken together (vertices joined by exact position across
// meshes, so a shell may span several materials). Give it only the opaque meshes: a cut-out or
// blended surface does not hide what is behind it.
ShellSet closed_shells(const std::vector<MeshRef>& meshes);

// Per mesh (of the `mesh_count` given to closed_shells), per triangle: the side `canvas` may
// skip (an empty list: nothing to skip), the inner side of every shell its camera sees wholly
// from outside (the eye outside the box, every corner in front of the camera and in range).
// What the picture shows stays the same but for rounding along silhouettes: where an inner
// side meets the outer one, the two lie at the same depth, and two-sided drawing shows either.
std::vector<std::vector<Cull>> culling(const ShellSet& set, size_t mesh_count,
                                       const Canvas& canvas);

} // namespace msh::render
