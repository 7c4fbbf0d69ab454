// Triangulation of one polygon face (OBJ `f` with more than 3 corners) by ear clipping in the
// plane of its Newell normal: concave and mildly non-planar polygons keep their area and winding.
// Hand-written because Debian ships no C++ triangulation library (earcut only as Python binding);
// OBJ faces are small, so the O(n^2) clipping is cheap.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace msh::scene {

// Triangles as index triples into `corners` (size n >= 3), in the polygon's winding; n - 2
// triangles for a simple polygon. A degenerate or self-intersecting polygon falls back to clipping
// its least reflex corner (never fails; always n - 2 triangles).
std::vector<std::array<uint32_t, 3>>
triangulate_polygon(const std::vector<std::array<float, 3>>& corners);

} // namespace msh::scene
