// Closed geometry primitives for the sample corpus. Every shape is a closed, consistently wound
// (counter-clockwise seen from outside, right-handed) triangle mesh with outward normals; vertices
// that sit at the same place (seams, hard edges, poles) carry bit-identical positions so that
// triangle adjacency can be found by position.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace msh::samples {

struct V3 {
    double x = 0, y = 0, z = 0;
};
inline V3 operator+(V3 a, V3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline V3 operator-(V3 a, V3 b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline V3 operator*(V3 a, double s) {
    return {a.x * s, a.y * s, a.z * s};
}
inline double dot(V3 a, V3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline V3 cross(V3 a, V3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double length(V3 a) {
    return std::sqrt(dot(a, a));
}
inline V3 normalize(V3 a) {
    double l = length(a);
    return l > 0 ? a * (1.0 / l) : V3{0, 0, 1};
}

// Rotation quaternion (x, y, z, w).
struct Rot {
    double x = 0, y = 0, z = 0, w = 1;
};
Rot axis_angle(V3 axis, double radians);
Rot operator*(Rot a, Rot b); // Hamilton product: rotate(a * b, v) == rotate(a, rotate(b, v))
V3 rotate(Rot q, V3 v);

struct Vertex {
    V3 pos;
    V3 normal;
    double u = 0, v = 0;
};

struct Mesh {
    std::vector<Vertex> verts;
    std::vector<std::array<uint32_t, 3>> tris;

    void append(const Mesh& other);
    Mesh& transform(Rot r, V3 t); // rotate, then translate
    Mesh& translate(V3 t) { return transform(Rot{}, t); }
    Mesh& scale(V3 s); // non-uniform; normals by the inverse transpose
    Mesh& scale_uv(double su, double sv);
};

// Axis-aligned box given by its centre and half extents; flat faces, 24 vertices.
Mesh box(V3 centre, V3 half);
// Ramp: footprint [-hx, hx] x [-hy, hy] at z = 0, height h at y = -hy falling to 0 at y = +hy.
Mesh wedge(V3 half_footprint_h /* hx, hy, h */);
// Frustum along +z from z = 0 (radius r0) to z = h (radius r1), flat caps; r1 = r0 is a cylinder.
Mesh cylinder(double r0, double r1, double h, int segments);
// Cone along +z: base radius r at z = 0, apex at z = h.
Mesh cone(double r, double h, int segments);
// Sphere around the origin; rings >= 2 latitude bands.
Mesh sphere(double r, int segments, int rings);
// Capsule along z centred at the origin: cylinder part of length 2*half_len, hemispheres of
// radius r; rings is the number of latitude bands per hemisphere.
Mesh capsule(double r, double half_len, int segments, int rings);
// Regular n-gonal prism (flat shaded sides) along +z from 0 to h, circumradius r.
Mesh prism(double r, double h, int sides);

} // namespace msh::samples
