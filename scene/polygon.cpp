#include "polygon.hpp"

#include <cmath>
#include <limits>

namespace msh::scene {

namespace {

struct P2 {
    double x, y;
};

double cross(const P2& a, const P2& b, const P2& c) {
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

// p inside or on triangle abc (counter-clockwise).
bool inside(const P2& a, const P2& b, const P2& c, const P2& p) {
    return cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0;
}

} // namespace

std::vector<std::array<uint32_t, 3>>
triangulate_polygon(const std::vector<std::array<float, 3>>& corners) {
    const size_t n = corners.size();
    std::vector<std::array<uint32_t, 3>> out;
    if (n < 3) return out;
    if (n == 3) return {{0, 1, 2}};
    // Newell normal; project on the plane of its two smaller axes.
    double nx = 0, ny = 0, nz = 0;
    for (size_t i = 0; i < n; ++i) {
        const auto& a = corners[i];
        const auto& b = corners[(i + 1) % n];
        nx += (double(a[1]) - b[1]) * (double(a[2]) + b[2]);
        ny += (double(a[2]) - b[2]) * (double(a[0]) + b[0]);
        nz += (double(a[0]) - b[0]) * (double(a[1]) + b[1]);
    }
    int u = 0, v = 1;
    double along = nz;
    if (std::abs(nx) >= std::abs(ny) && std::abs(nx) >= std::abs(nz))
        u = 1, v = 2, along = nx;
    else if (std::abs(ny) >= std::abs(nz))
        u = 2, v = 0, along = ny;
    // Projected counter-clockwise: mirror one axis when the normal points down the dropped axis.
    const double flip = along < 0 ? -1.0 : 1.0;
    std::vector<P2> p(n);
    for (size_t i = 0; i < n; ++i)
        p[i] = {double(corners[i][size_t(u)]), flip * corners[i][size_t(v)]};

    std::vector<uint32_t> ring(n);
    for (size_t i = 0; i < n; ++i) ring[i] = uint32_t(i);
    while (ring.size() > 3) {
        const size_t m = ring.size();
        size_t ear = m, fallback = 0;
        double best = -std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < m && ear == m; ++i) {
            const P2& a = p[ring[(i + m - 1) % m]];
            const P2& b = p[ring[i]];
            const P2& c = p[ring[(i + 1) % m]];
            const double turn = cross(a, b, c);
            if (turn > best) best = turn, fallback = i;
            if (turn <= 0) continue; // reflex or flat: not an ear
            bool empty = true;
            for (size_t k = 0; k < m && empty; ++k) {
                const uint32_t q = ring[k];
                if (q == ring[(i + m - 1) % m] || q == ring[i] || q == ring[(i + 1) % m]) continue;
                const P2& r = p[q];
                // A corner at the same place as a triangle corner (a seam) does not block it.
                if ((r.x == a.x && r.y == a.y) || (r.x == b.x && r.y == b.y) ||
                    (r.x == c.x && r.y == c.y))
                    continue;
                empty = !inside(a, b, c, r);
            }
            if (empty) ear = i;
        }
        if (ear == m) ear = fallback;
        out.push_back({ring[(ear + m - 1) % m], ring[ear], ring[(ear + 1) % m]});
        ring.erase(ring.begin() + std::ptrdiff_t(ear));
    }
    out.push_back({ring[0], ring[1], ring[2]});
    return out;
}

} // namespace msh::scene
