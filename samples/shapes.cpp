#include "samples/shapes.hpp"

#include <algorithm>
#include <numbers>

namespace msh::samples {

Rot axis_angle(V3 axis, double radians) {
    V3 a = normalize(axis);
    double s = std::sin(radians * 0.5);
    return {a.x * s, a.y * s, a.z * s, std::cos(radians * 0.5)};
}

Rot operator*(Rot a, Rot b) {
    return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

V3 rotate(Rot q, V3 v) {
    V3 u{q.x, q.y, q.z};
    V3 t = cross(u, v) * 2.0;
    return v + t * q.w + cross(u, t);
}

void Mesh::append(const Mesh& other) {
    auto base = uint32_t(verts.size());
    verts.insert(verts.end(), other.verts.begin(), other.verts.end());
    for (const auto& t : other.tris) tris.push_back({t[0] + base, t[1] + base, t[2] + base});
}

Mesh& Mesh::transform(Rot r, V3 t) {
    for (Vertex& v : verts) {
        v.pos = rotate(r, v.pos) + t;
        v.normal = normalize(rotate(r, v.normal));
    }
    return *this;
}

Mesh& Mesh::scale(V3 s) {
    for (Vertex& v : verts) {
        v.pos = {v.pos.x * s.x, v.pos.y * s.y, v.pos.z * s.z};
        v.normal = normalize(V3{v.normal.x / s.x, v.normal.y / s.y, v.normal.z / s.z});
    }
    return *this;
}

Mesh& Mesh::scale_uv(double su, double sv) {
    for (Vertex& v : verts) {
        v.u *= su;
        v.v *= sv;
    }
    return *this;
}

namespace {

// Convex polyhedron from faces given as index lists into `corners` (cyclic order). Each face gets
// its own flat-shaded vertices; the winding is fixed up to point away from the centroid.
Mesh polyhedron(const std::vector<V3>& corners, const std::vector<std::vector<int>>& faces) {
    V3 centre{};
    for (V3 c : corners) centre = centre + c;
    centre = centre * (1.0 / double(corners.size()));
    Mesh m;
    for (std::vector<int> f : faces) {
        // Newell normal
        V3 n{};
        for (size_t i = 0; i < f.size(); ++i) {
            V3 a = corners[size_t(f[i])], b = corners[size_t(f[(i + 1) % f.size()])];
            n = n +
                V3{(a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y)};
        }
        V3 fc{};
        for (int i : f) fc = fc + corners[size_t(i)];
        fc = fc * (1.0 / double(f.size()));
        if (dot(n, fc - centre) < 0) {
            std::reverse(f.begin(), f.end());
            n = n * -1.0;
        }
        n = normalize(n);
        V3 axis = std::abs(n.z) < 0.9 ? V3{0, 0, 1} : V3{1, 0, 0};
        V3 tu = normalize(cross(axis, n));
        V3 tv = cross(n, tu);
        auto base = uint32_t(m.verts.size());
        for (int i : f) {
            V3 p = corners[size_t(i)];
            m.verts.push_back({p, n, dot(p, tu), dot(p, tv)});
        }
        for (uint32_t i = 1; i + 1 < f.size(); ++i)
            m.tris.push_back({base, base + i, base + i + 1});
    }
    return m;
}

struct ProfilePoint {
    double r, z;   // radius and height
    double nr, nz; // outward normal in the (r, z) half-plane
};

// Surface of revolution around +z. The profile runs from the top axis point outwards and down to
// the bottom axis point; consecutive equal points mark a hard edge (split normals).
Mesh lathe(const std::vector<ProfilePoint>& profile, int segments) {
    const auto n = size_t(segments);
    std::vector<double> cs(n), sn(n), csm(n), snm(n);
    for (size_t i = 0; i < n; ++i) {
        double a = 2.0 * std::numbers::pi * double(i) / double(n);
        double am = 2.0 * std::numbers::pi * (double(i) + 0.5) / double(n);
        cs[i] = std::cos(a);
        sn[i] = std::sin(a);
        csm[i] = std::cos(am);
        snm[i] = std::sin(am);
    }
    Mesh m;
    std::vector<uint32_t> ring_start(profile.size());
    double arc = 0;
    for (size_t j = 0; j < profile.size(); ++j) {
        const ProfilePoint& p = profile[j];
        if (j > 0) arc += std::hypot(p.r - profile[j - 1].r, p.z - profile[j - 1].z);
        ring_start[j] = uint32_t(m.verts.size());
        if (p.r == 0) {
            // pole: one vertex per segment, all at the same place
            for (size_t i = 0; i < n; ++i)
                m.verts.push_back({V3{0, 0, p.z}, normalize(V3{p.nr * csm[i], p.nr * snm[i], p.nz}),
                                   (double(i) + 0.5) / double(n), arc});
        } else {
            for (size_t i = 0; i <= n; ++i) {
                size_t k = i % n;
                m.verts.push_back({V3{p.r * cs[k], p.r * sn[k], p.z},
                                   normalize(V3{p.nr * cs[k], p.nr * sn[k], p.nz}),
                                   double(i) / double(n), arc});
            }
        }
    }
    for (size_t j = 0; j + 1 < profile.size(); ++j) {
        const ProfilePoint &a = profile[j], &b = profile[j + 1];
        if (a.r == b.r && a.z == b.z) continue;
        if (a.r == 0 && b.r == 0) continue;
        uint32_t A = ring_start[j], B = ring_start[j + 1];
        for (uint32_t i = 0; i < uint32_t(n); ++i) {
            if (a.r == 0)
                m.tris.push_back({B + i, B + i + 1, A + i});
            else if (b.r == 0)
                m.tris.push_back({B + i, A + i + 1, A + i});
            else {
                m.tris.push_back({B + i, B + i + 1, A + i + 1});
                m.tris.push_back({B + i, A + i + 1, A + i});
            }
        }
    }
    return m;
}

} // namespace

Mesh box(V3 c, V3 h) {
    std::vector<V3> k(8);
    for (int i = 0; i < 8; ++i)
        k[size_t(i)] = {c.x + (i & 1 ? h.x : -h.x), c.y + (i & 2 ? h.y : -h.y),
                        c.z + (i & 4 ? h.z : -h.z)};
    return polyhedron(
        k, {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3}, {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}});
}

Mesh wedge(V3 d) {
    std::vector<V3> k = {{-d.x, -d.y, 0}, {d.x, -d.y, 0},    {d.x, d.y, 0},
                         {-d.x, d.y, 0},  {-d.x, -d.y, d.z}, {d.x, -d.y, d.z}};
    return polyhedron(k, {{0, 1, 2, 3}, {0, 1, 5, 4}, {4, 5, 2, 3}, {0, 4, 3}, {1, 2, 5}});
}

Mesh prism(double r, double h, int sides) {
    std::vector<V3> k;
    for (int z = 0; z < 2; ++z)
        for (int i = 0; i < sides; ++i) {
            double a = 2.0 * std::numbers::pi * (double(i) + 0.5) / double(sides);
            k.push_back({r * std::cos(a), r * std::sin(a), z ? h : 0.0});
        }
    std::vector<std::vector<int>> faces;
    std::vector<int> bottom, top;
    for (int i = 0; i < sides; ++i) {
        bottom.push_back(sides - 1 - i);
        top.push_back(sides + i);
        int j = (i + 1) % sides;
        faces.push_back({i, j, sides + j, sides + i});
    }
    faces.push_back(bottom);
    faces.push_back(top);
    return polyhedron(k, faces);
}

Mesh cylinder(double r0, double r1, double h, int segments) {
    V3 side = normalize(V3{h, 0, r0 - r1});
    return lathe({{0, h, 0, 1},
                  {r1, h, 0, 1},
                  {r1, h, side.x, side.z},
                  {r0, 0, side.x, side.z},
                  {r0, 0, 0, -1},
                  {0, 0, 0, -1}},
                 segments);
}

Mesh cone(double r, double h, int segments) {
    V3 side = normalize(V3{h, 0, r});
    return lathe({{0, h, side.x, side.z}, {r, 0, side.x, side.z}, {r, 0, 0, -1}, {0, 0, 0, -1}},
                 segments);
}

Mesh sphere(double r, int segments, int rings) {
    std::vector<ProfilePoint> p;
    for (int k = 0; k <= rings; ++k) {
        double phi = std::numbers::pi * double(k) / double(rings);
        double s = (k == 0 || k == rings) ? 0.0 : std::sin(phi);
        double c = k == 0 ? 1.0 : k == rings ? -1.0 : std::cos(phi);
        p.push_back({r * s, r * c, s, c});
    }
    return lathe(p, segments);
}

Mesh capsule(double r, double half_len, int segments, int rings) {
    std::vector<ProfilePoint> p;
    for (int k = 0; k <= rings; ++k) {
        double phi = 0.5 * std::numbers::pi * double(k) / double(rings);
        double s = k == 0 ? 0.0 : k == rings ? 1.0 : std::sin(phi);
        double c = k == 0 ? 1.0 : k == rings ? 0.0 : std::cos(phi);
        p.push_back({r * s, half_len + r * c, s, c});
    }
    for (int k = 0; k <= rings; ++k) {
        double phi = 0.5 * std::numbers::pi * double(k) / double(rings);
        double s = k == 0 ? 1.0 : k == rings ? 0.0 : std::cos(phi);
        double c = k == 0 ? 0.0 : k == rings ? 1.0 : std::sin(phi);
        p.push_back({r * s, -half_len - r * c, s, -c});
    }
    return lathe(p, segments);
}

} // namespace msh::samples
