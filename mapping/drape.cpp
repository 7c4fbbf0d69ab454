#include "drape.hpp"

#include "terrain_to_scene.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace msh::mapping {

const std::array<std::array<float, 3>, 10> kArealClassColours = {{
    {0.90f, 0.20f, 0.15f},
    {0.15f, 0.55f, 0.95f},
    {0.95f, 0.75f, 0.10f},
    {0.55f, 0.25f, 0.85f},
    {0.10f, 0.80f, 0.45f},
    {0.95f, 0.45f, 0.10f},
    {0.10f, 0.85f, 0.85f},
    {0.90f, 0.30f, 0.65f},
    {0.60f, 0.80f, 0.15f},
    {0.45f, 0.45f, 0.45f},
}};

namespace {

struct P2 {
    double x, y;
};

// A terrain triangle in XY, counter-clockwise, with its plane for heights, its corners' heights
// and their vertex ids (the first vertex of their position: one id per point of the ground).
struct Ground {
    P2 a, b, c;
    double za, dzdx, dzdy; // plane: z = za + dzdx (x - a.x) + dzdy (y - a.y)
    double zb = 0, zc = 0;
    std::array<uint32_t, 3> id{};
    P2 lo{0, 0}, hi{0, 0}; // bounds in XY
    double height(double x, double y) const { return za + dzdx * (x - a.x) + dzdy * (y - a.y); }
};

constexpr uint32_t kNoVertex = UINT32_MAX;

// The slot of position `k` (its coordinates' bit patterns) in an open-addressed table of vertex
// indices whose size is a power of two: the slot holding a vertex of that position, or the empty
// slot where it goes. `key_of` gives a held vertex's key.
template <class KeyOf>
size_t position_slot(const std::vector<uint32_t>& slots, const std::array<uint32_t, 3>& k,
                     const KeyOf& key_of) {
    uint64_t h = (uint64_t(k[0]) * 0x9E3779B97F4A7C15ull) ^
                 (uint64_t(k[1]) * 0xC2B2AE3D27D4EB4Full) ^
                 (uint64_t(k[2]) * 0x165667B19E3779F9ull);
    h ^= h >> 29;
    const size_t mask = slots.size() - 1;
    size_t at = size_t(h) & mask;
    while (slots[at] != kNoVertex && key_of(slots[at]) != k) at = (at + 1) & mask;
    return at;
}

// A line a corner of a clipped piece was cut from: a terrain edge (u, v: vertex ids, p and q
// their points, zp and zq their heights) or an edge of the clipped polygon (u == kNoVertex).
// p and q in one order whichever piece or way the edge is met (terrain edges by id, polygon edges
// by coordinates), so that a crossing computed from two lines is the same point, bit for bit, in
// every piece that has it: what lets neighbouring pieces share their vertices.
struct Line {
    P2 p, q;
    double zp = 0, zq = 0;
    uint32_t u = kNoVertex, v = kNoVertex;
    bool terrain() const { return u != kNoVertex; }
};

bool operator==(P2 p, P2 q) {
    return p.x == q.x && p.y == q.y;
}

bool same_line(const Line& l, const Line& m) {
    return l.p == m.p && l.q == m.q && l.u == m.u && l.v == m.v;
}

bool before(P2 p, P2 q) {
    return p.x < q.x || (p.x == q.x && p.y < q.y);
}

Line polygon_edge(P2 p, P2 q) {
    if (before(q, p)) std::swap(p, q);
    return {p, q};
}

Line ground_edge(P2 p, double zp, uint32_t u, P2 q, double zq, uint32_t v) {
    if (v < u) std::swap(p, q), std::swap(zp, zq), std::swap(u, v);
    return {p, q, zp, zq, u, v};
}

// A corner of a clipped piece: its point and height (NaN: the ground triangle's plane there, for
// the polygon's own corners).
struct Corner {
    P2 xy;
    double z;
};

double cross(P2 o, P2 p, P2 q) {
    return (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x);
}

// A ground triangle's plane: dz/dx, dz/dy and the height at x = y = 0, as bits (+0 for -0): equal
// on the triangles of a flat stretch, and a total order whatever the values.
std::array<uint64_t, 3> plane_key(const Ground& g) {
    const auto bits = [](double v) { return std::bit_cast<uint64_t>(v + 0.0); };
    return {bits(g.dzdx), bits(g.dzdy), bits(g.za - g.dzdx * g.a.x - g.dzdy * g.a.y)};
}

// Uniform grid of terrain triangles over their XY bounds.
class GroundIndex {
  public:
    explicit GroundIndex(const terrain::Terrain& t) {
        const std::vector<uint32_t> id = first_of_each_position(t.positions);
        for (size_t f = 0; f < t.faces.size(); ++f) {
            if (!terrain::face_usable(t, f)) continue;
            const auto& v = t.faces[f].v;
            const terrain::Vec3 &a = t.positions[v[0]], &b = t.positions[v[1]],
                                &c = t.positions[v[2]];
            Ground g{{a.x, a.y}, {b.x, b.y}, {c.x, c.y},
                     a.z,        0,          0,
                     b.z,        c.z,        {id[v[0]], id[v[1]], id[v[2]]}};
            const double ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z;
            const double vx = c.x - a.x, vy = c.y - a.y, vz = c.z - a.z;
            const double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
            if (std::abs(nz) < 1e-9) continue; // vertical in XY: nothing lies on it
            g.dzdx = -nx / nz, g.dzdy = -ny / nz;
            if (nz < 0) { // counter-clockwise seen from above
                std::swap(g.b, g.c), std::swap(g.zb, g.zc);
                std::swap(g.id[1], g.id[2]);
            }
            g.lo = {std::min({g.a.x, g.b.x, g.c.x}), std::min({g.a.y, g.b.y, g.c.y})};
            g.hi = {std::max({g.a.x, g.b.x, g.c.x}), std::max({g.a.y, g.b.y, g.c.y})};
            ground_.push_back(g);
        }
        if (ground_.empty()) return;
        lo_ = hi_ = ground_[0].a;
        for (const Ground& g : ground_)
            for (P2 p : {g.a, g.b, g.c}) {
                lo_.x = std::min(lo_.x, p.x), lo_.y = std::min(lo_.y, p.y);
                hi_.x = std::max(hi_.x, p.x), hi_.y = std::max(hi_.y, p.y);
            }
        n_ = std::max<size_t>(1, size_t(std::sqrt(double(ground_.size()) / 2)));
        // Each cell's triangles in index order, the cells one after another (counted, then
        // placed: one array rather than a vector per cell).
        std::vector<std::array<size_t, 4>> ranges(ground_.size()); // x0, y0, x1, y1
        cell_start_.assign(n_ * n_ + 1, 0);
        for (size_t i = 0; i < ground_.size(); ++i) {
            const Ground& g = ground_[i];
            const auto [x0, y0] = cell(g.lo.x, g.lo.y);
            const auto [x1, y1] = cell(g.hi.x, g.hi.y);
            ranges[i] = {x0, y0, x1, y1};
            for (size_t x = x0; x <= x1; ++x)
                for (size_t y = y0; y <= y1; ++y) ++cell_start_[x * n_ + y + 1];
        }
        for (size_t c = 0; c < n_ * n_; ++c) cell_start_[c + 1] += cell_start_[c];
        cell_ground_.resize(cell_start_.back());
        std::vector<size_t> filled(cell_start_.begin(), cell_start_.end() - 1);
        for (size_t i = 0; i < ground_.size(); ++i) {
            const auto [x0, y0, x1, y1] = ranges[i];
            for (size_t x = x0; x <= x1; ++x)
                for (size_t y = y0; y <= y1; ++y) cell_ground_[filled[x * n_ + y]++] = uint32_t(i);
        }
    }

    // Which ground triangles a visit has seen: one per thread.
    struct Marks {
        std::vector<uint32_t> stamp;
        uint32_t round = 0;
    };
    Marks marks() const { return {std::vector<uint32_t>(ground_.size(), 0), 0}; }

    // Every terrain triangle whose cell range meets the box, once.
    template <class Visit> void visit(P2 lo, P2 hi, Marks& marks, Visit&& visit_ground) const {
        if (ground_.empty()) return;
        if (++marks.round == 0) { // wrapped: no stamp may look fresh
            std::fill(marks.stamp.begin(), marks.stamp.end(), 0);
            marks.round = 1;
        }
        const auto [x0, y0] = cell(lo.x, lo.y);
        const auto [x1, y1] = cell(hi.x, hi.y);
        for (size_t x = x0; x <= x1; ++x)
            for (size_t y = y0; y <= y1; ++y)
                for (size_t at = cell_start_[x * n_ + y]; at < cell_start_[x * n_ + y + 1]; ++at)
                    if (const uint32_t i = cell_ground_[at]; marks.stamp[i] != marks.round) {
                        marks.stamp[i] = marks.round;
                        visit_ground(ground_[i]);
                    }
    }

  private:
    // Each vertex's id: the first vertex of its position (bit patterns equal), so that faces
    // that do not share their vertices still share their edges' crossings. An open-addressed
    // table of the first vertices, met in vertex order.
    static std::vector<uint32_t> first_of_each_position(const std::vector<terrain::Vec3>& pos) {
        const auto key = [&](size_t i) {
            return std::array<uint32_t, 3>{std::bit_cast<uint32_t>(pos[i].x),
                                           std::bit_cast<uint32_t>(pos[i].y),
                                           std::bit_cast<uint32_t>(pos[i].z)};
        };
        const size_t size = std::bit_ceil(std::max<size_t>(16, 2 * pos.size()));
        std::vector<uint32_t> slots(size, kNoVertex);
        std::vector<uint32_t> id(pos.size());
        for (size_t i = 0; i < pos.size(); ++i) {
            const size_t at = position_slot(slots, key(i), key);
            if (slots[at] == kNoVertex) slots[at] = uint32_t(i);
            id[i] = slots[at];
        }
        return id;
    }

    std::pair<size_t, size_t> cell(double x, double y) const {
        auto axis = [&](double v, double lo, double hi) {
            const double span = hi - lo;
            if (span <= 0) return size_t(0);
            // Truncated where positive: the floor, without a call to floor.
            const double k = (v - lo) / span * double(n_);
            if (!(k >= 1)) return size_t(0); // NaN too (a damaged map's vertex)
            return k >= double(n_ - 1) ? n_ - 1 : size_t(k);
        };
        return {axis(x, lo_.x, hi_.x), axis(y, lo_.y, hi_.y)};
    }

    std::vector<Ground> ground_;
    // Cell c's triangles: cell_ground_[cell_start_[c]] up to cell_ground_[cell_start_[c + 1]].
    std::vector<size_t> cell_start_;
    std::vector<uint32_t> cell_ground_;
    size_t n_ = 1;
    P2 lo_{0, 0}, hi_{0, 0};
};

// The draped outline segments (LINES) are straight where the ground under them bends less than
// this (world units): drawn 0.8 above the ground, in the ribbons' colour, the difference does not
// show, and on the corpus's maps they have a third fewer vertices.
constexpr double kLineSag = 0.05;

// Areals of more corners are draped triangle by triangle (convex_parts): a convex part has at
// most this many corners.
constexpr size_t kMergedCornersAtMost = 256;
// The corners a clip can hold: a convex part's or a ribbon's (4), and each triangle edge adds at
// most one.
constexpr size_t kMaxClipCorners = kMergedCornersAtMost + 3;

// A clip's working memory, the caller's and reused: the drape clips hundreds of thousands of
// pieces on a map (fixed arrays: no size bookkeeping per corner). A corner's line is a pointer
// (to the subject's lines or the ground triangle's edges) until the piece is kept.
struct ClipBuffers {
    std::array<std::array<Corner, kMaxClipCorners>, 2> rings;
    std::array<std::array<const Line*, kMaxClipCorners>, 2> lines; // lines[k]: corner k to k + 1
    std::array<const Line*, kMaxClipCorners> subject_lines;
    std::array<Line, 3> ground_edges;         // those a clip cut along (made only then)
    std::array<bool, kMaxClipCorners> inside; // corner k on the inner side of the ground edge
};

double clamp01(double f) {
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

// Where the piece's edge along `l` crosses the ground triangle's edge `e`, from the two lines
// alone (`fallback()`, the clip's own point, when they do not cross: rare, so made only then):
// two terrain edges meet at their common vertex; a polygon edge crosses a terrain edge at a
// height interpolated along it.
template <class Fallback> Corner crossing(const Line& l, const Line& e, Fallback&& fallback) {
    if (l.terrain()) {
        if (l.u == e.u || l.u == e.v) return {l.p, l.zp};
        if (l.v == e.u || l.v == e.v) return {l.q, l.zq};
        return {fallback(), std::nan("")};
    }
    const double dp = cross(e.p, e.q, l.p), dq = cross(e.p, e.q, l.q);
    const double ep = cross(l.p, l.q, e.p), eq = cross(l.p, l.q, e.q);
    if (!(dp != dq) || !(ep != eq)) return {fallback(), std::nan("")};
    const double s = clamp01(dp / (dp - dq)), r = clamp01(ep / (ep - eq));
    return {{l.p.x + s * (l.q.x - l.p.x), l.p.y + s * (l.q.y - l.p.y)}, e.zp + r * (e.zq - e.zp)};
}

// The ground triangle's edge k (a-b, b-c, c-a: counter-clockwise).
Line ground_edge(const Ground& g, int k) {
    switch (k) {
    case 0:
        return ground_edge(g.a, g.za, g.id[0], g.b, g.zb, g.id[1]);
    case 1:
        return ground_edge(g.b, g.zb, g.id[1], g.c, g.zc, g.id[2]);
    default:
        return ground_edge(g.c, g.zc, g.id[2], g.a, g.za, g.id[0]);
    }
}

// A clipped piece: its corners and, for each, the line its edge to the next lies on.
struct Clipped {
    const Corner* corners;
    const Line* const* lines;
    size_t count; // 0 when they do not overlap
};

// Sutherland-Hodgman: the part of the convex polygon `subject` (`n` corners, counter-clockwise:
// a convex part of an areal or a ribbon; `subject_lines[k]` the edge from corner k to k + 1)
// inside the counter-clockwise ground triangle. Each of the
// three edges adds at most one corner; a corner cut by an edge is computed from the two lines it
// lies on (crossing), the same in the pieces on either side.
Clipped clip(const Corner* subject, const Line* const* subject_lines, size_t n, const Ground& g,
             ClipBuffers& b) {
    const Corner* poly = subject;
    const Line* const* lines = subject_lines;
    int next = 0;
    bool* inside = b.inside.data();
    const P2* const edges[3][2] = {{&g.a, &g.b}, {&g.b, &g.c}, {&g.c, &g.a}}; // not copied
    for (int k = 0; k < 3; ++k) {
        const P2 e0 = *edges[k][0], e1 = *edges[k][1];
        size_t count_in = 0;
        for (size_t i = 0; i < n; ++i) count_in += inside[i] = cross(e0, e1, poly[i].xy) >= 0;
        if (count_in == 0) return {nullptr, nullptr, 0};
        if (count_in == n) continue; // this edge cuts nothing off
        const Line* edge_line = &(b.ground_edges[size_t(k)] = ground_edge(g, k));
        Corner* out = b.rings[size_t(next)].data();
        const Line** out_lines = b.lines[size_t(next)].data();
        size_t m = 0;
        for (size_t i = 0, prev = n - 1; i < n; prev = i++) {
            const bool in = inside[i], prev_in = inside[prev];
            if (in != prev_in) {
                out[m] = crossing(*lines[prev], *edge_line, [&] {
                    // The sides again (rare: not kept for every corner), the same values.
                    const double dp = cross(e0, e1, poly[prev].xy), di = cross(e0, e1, poly[i].xy);
                    const double f = dp / (dp - di);
                    const P2 p = poly[prev].xy, q = poly[i].xy;
                    return P2{p.x + f * (q.x - p.x), p.y + f * (q.y - p.y)};
                });
                // Leaving: on along the ground edge; entering: on along the piece's edge.
                out_lines[m++] = prev_in ? edge_line : lines[prev];
            }
            if (in) out[m] = poly[i], out_lines[m++] = lines[i];
        }
        poly = out;
        lines = out_lines;
        n = m;
        next ^= 1;
        if (n < 3) return {nullptr, nullptr, 0};
    }
    return {poly, lines, n};
}

// Whether the ground triangle lies wholly outside one edge of the counter-clockwise `subject`:
// then they do not overlap.
bool separated(const Ground& g, const std::vector<Corner>& subject) {
    for (size_t i = 0, prev = subject.size() - 1; i < subject.size(); prev = i++) {
        const P2 p = subject[prev].xy, q = subject[i].xy;
        if (cross(p, q, g.a) < 0 && cross(p, q, g.b) < 0 && cross(p, q, g.c) < 0) return true;
    }
    return false;
}

// A corner that keeps a counter-clockwise ring convex: a left turn, or straight on (never a
// turn back).
bool convex_corner(P2 a, P2 b, P2 c) {
    const double turn = cross(a, b, c);
    return turn > 0 || (turn == 0 && (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) > 0);
}

// The areal in convex parts, counter-clockwise, for clipping whole against the ground: its
// triangulation with every diagonal removed whose two sides together stay convex (Hertel-
// Mehlhorn; a convex areal becomes one part). Every inner edge left cuts the ground triangles
// under it into more pieces: on the stress map the areals' triangles gave 616,000 pieces, their
// convex parts give 200,000. `triangles`: the areal's triangulate_xy. The parts and the working
// memory are the caller's, reused from areal to areal.
struct ConvexParts {
    std::vector<P2> points;     // the parts' corners, one part after another
    std::vector<uint32_t> ends; // where each part's corners end in points

    struct Side {
        uint32_t lo, hi, part;
    };
    std::vector<std::vector<uint32_t>> rings; // of vertex indices, counter-clockwise
    std::vector<Side> sides;
    std::vector<uint32_t> owner, merged;
};

void convex_parts(const std::vector<arealmap::Vec3>& vertices,
                  const std::vector<std::array<uint32_t, 3>>& triangles, ConvexParts& out) {
    const auto xy = [&](uint32_t i) { return P2{vertices[i].x, vertices[i].y}; };
    out.points.clear(), out.ends.clear();
    // A merge copies the rings it joins: quadratic in the corners. Past 256 corners (where
    // triangulate_xy fans too; no shipped areal has that many) the triangles are the parts.
    if (vertices.size() > kMergedCornersAtMost) {
        for (auto tri : triangles) {
            if (cross(xy(tri[0]), xy(tri[1]), xy(tri[2])) < 0) std::swap(tri[1], tri[2]);
            for (uint32_t i : tri) out.points.push_back(xy(i));
            out.ends.push_back(uint32_t(out.points.size()));
        }
        return;
    }
    std::vector<std::vector<uint32_t>>& parts = out.rings;
    parts.resize(triangles.size());
    for (size_t t = 0; t < triangles.size(); ++t) {
        auto tri = triangles[t];
        if (cross(xy(tri[0]), xy(tri[1]), xy(tri[2])) < 0) std::swap(tri[1], tri[2]);
        parts[t].assign(tri.begin(), tri.end());
    }
    // Inner edges: an edge two triangles share, one each way.
    using Side = ConvexParts::Side;
    std::vector<Side>& sides = out.sides;
    sides.clear();
    for (uint32_t t = 0; t < parts.size(); ++t)
        for (size_t k = 0; k < 3; ++k) {
            const uint32_t u = parts[t][k], v = parts[t][(k + 1) % 3];
            if (u != v) sides.push_back({std::min(u, v), std::max(u, v), t});
        }
    std::sort(sides.begin(), sides.end(), [](const Side& x, const Side& y) {
        return std::tie(x.lo, x.hi, x.part) < std::tie(y.lo, y.hi, y.part);
    });
    std::vector<uint32_t>& owner = out.owner; // the part each triangle has gone into
    owner.resize(parts.size());
    for (uint32_t t = 0; t < owner.size(); ++t) owner[t] = t;
    const auto root = [&](uint32_t t) {
        while (owner[t] != t) t = owner[t];
        return t;
    };
    // Where the ring runs from `from` to `to`: the index of `from`, or the ring's size.
    const auto edge_at = [](const std::vector<uint32_t>& ring, uint32_t from, uint32_t to) {
        for (size_t k = 0; k < ring.size(); ++k)
            if (ring[k] == from && ring[(k + 1) % ring.size()] == to) return k;
        return ring.size();
    };
    std::vector<uint32_t>& merged = out.merged;
    for (size_t i = 0; i + 1 < sides.size(); ++i) {
        if (sides[i].lo != sides[i + 1].lo || sides[i].hi != sides[i + 1].hi) continue;
        const uint32_t pa = root(sides[i].part), pb = root(sides[i + 1].part);
        if (pa == pb) continue;
        std::vector<uint32_t>&a = parts[pa], &b = parts[pb];
        // The shared edge u-v: a runs it one way, b the other.
        const uint32_t u = sides[i].lo, v = sides[i].hi;
        size_t ka = edge_at(a, u, v), kb = edge_at(b, v, u);
        if (ka == a.size() || kb == b.size()) ka = edge_at(a, v, u), kb = edge_at(b, u, v);
        if (ka == a.size() || kb == b.size()) continue;
        // The union: a from the edge's far end round to its near end, then b's corners between.
        merged.clear();
        for (size_t k = 1; k <= a.size(); ++k) merged.push_back(a[(ka + k) % a.size()]);
        for (size_t k = 2; k < b.size(); ++k) merged.push_back(b[(kb + k) % b.size()]);
        bool convex = true;
        for (size_t k = 0; k < merged.size() && convex; ++k)
            convex = convex_corner(xy(merged[k]), xy(merged[(k + 1) % merged.size()]),
                                   xy(merged[(k + 2) % merged.size()]));
        if (!convex) continue;
        std::swap(a, merged);
        b.clear();
        owner[pb] = pa;
    }
    for (const auto& ring : parts) {
        if (ring.empty()) continue;
        for (uint32_t i : ring) out.points.push_back(xy(i));
        out.ends.push_back(uint32_t(out.points.size()));
    }
}

// Which areal edges to outline: neighbouring areals store their common edge once each, and it
// is outlined once, by the first areal that has it (a second copy would draw the same lines and
// ribbon on top of the first). Per areal, per edge in order; found through a table of the edges
// met so far, by their ends (the same whichever way an edge runs) compared as bit patterns.
std::vector<std::vector<bool>> edges_to_outline(const arealmap::ArealMap& map) {
    using Ends = std::array<uint32_t, 4>; // lower end first
    auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
    size_t count = 0;
    for (const arealmap::Areal& areal : map.areals) count += areal.vertices.size();
    const size_t size = std::bit_ceil(std::max<size_t>(16, 2 * count));
    std::vector<Ends> seen;
    seen.reserve(count);
    std::vector<uint32_t> slots(size, kNoVertex); // indices into seen
    std::vector<std::vector<bool>> outline(map.areals.size());
    for (uint32_t a = 0; a < map.areals.size(); ++a) {
        const auto& v = map.areals[a].vertices;
        outline[a].assign(v.size(), true);
        for (uint32_t k = 0; k < v.size(); ++k) {
            const auto& next = v[(k + 1) % v.size()];
            std::array<uint32_t, 2> p{bits(v[k].x), bits(v[k].y)}, q{bits(next.x), bits(next.y)};
            if (q[0] < p[0] || (q[0] == p[0] && q[1] < p[1])) std::swap(p, q);
            const Ends ends{p[0], p[1], q[0], q[1]};
            uint64_t h = ((uint64_t(ends[0]) << 32 | ends[1]) * 0x9E3779B97F4A7C15ull) ^
                         ((uint64_t(ends[2]) << 32 | ends[3]) * 0xC2B2AE3D27D4EB4Full);
            h ^= h >> 29;
            size_t at = size_t(h) & (size - 1);
            while (slots[at] != kNoVertex && seen[slots[at]] != ends) at = (at + 1) & (size - 1);
            if (slots[at] != kNoVertex) {
                outline[a][k] = false; // an earlier areal's edge, or this one's again
                continue;
            }
            slots[at] = uint32_t(seen.size());
            seen.push_back(ends);
        }
    }
    return outline;
}

// The ends grouped by position (`at`), each group in the ends' order (by edge: an edge of some
// length has its two ends at two positions), the groups in order of their first end: a table of
// positions and a counting sort, not a sort by position.
// The mitres at one position do not depend on another's.
template <class End> std::vector<End> group_by_position(std::vector<End> ends) {
    const size_t size = std::bit_ceil(std::max<size_t>(16, 2 * ends.size()));
    std::vector<uint32_t> slots(size, kNoVertex); // a position's group
    std::vector<uint64_t> group_at;
    std::vector<uint32_t> group_of(ends.size());
    std::vector<size_t> start;
    for (size_t i = 0; i < ends.size(); ++i) {
        const uint64_t at = uint64_t(ends[i].at[0]) << 32 | ends[i].at[1];
        uint64_t h = at * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
        size_t slot = size_t(h) & (size - 1);
        while (slots[slot] != kNoVertex && group_at[slots[slot]] != at)
            slot = (slot + 1) & (size - 1);
        if (slots[slot] == kNoVertex) {
            slots[slot] = uint32_t(group_at.size());
            group_at.push_back(at);
            start.push_back(0);
        }
        group_of[i] = slots[slot];
        ++start[slots[slot]];
    }
    size_t next = 0;
    for (size_t& s : start) next += std::exchange(s, next);
    std::vector<End> grouped(ends.size());
    for (size_t i = 0; i < ends.size(); ++i) grouped[start[group_of[i]]++] = ends[i];
    return grouped;
}

// The ribbons the outlines are drawn with: each outlined edge's band `width` wide, as four
// corners counter-clockwise (right at its start, right at its end, left at its end, left at its
// start, along the edge as its areal runs), by areal and edge. A band is the edge's rectangle,
// but where exactly two outlined edges meet (of one areal, or of two areals whose outlines go on
// into each other) at a turn of at most 120 degrees, and the join takes less than half of either
// edge, both end on the mitre: the corners where their sides' lines cross, computed once, so the
// two ribbons share them (two vertices a join instead of four; no gap outside the turn, no
// overlap inside it).
struct Ribbons {
    std::vector<size_t> first; // per areal, and one past the last: where its edges start in quads
    std::vector<std::array<P2, 4>> quads;
    std::vector<bool> drawn; // outlined, and of some length
};

Ribbons outline_ribbons(const arealmap::ArealMap& map,
                        const std::vector<std::vector<bool>>& outlined, double width) {
    const double half = width / 2;
    Ribbons r;
    struct EdgeDir {
        P2 normal; // left, unit
        double length;
    };
    std::vector<EdgeDir> dirs;
    // Each drawn edge's two ends, by position (bit patterns, as edges_to_outline compares them).
    struct End {
        std::array<uint32_t, 2> at;
        uint32_t edge;
        bool start;
        P2 point;
    };
    std::vector<End> ends;
    auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
    size_t edge_count = 0; // each array made at its size (no growth by doubling)
    for (const arealmap::Areal& areal : map.areals) edge_count += areal.vertices.size();
    r.first.reserve(map.areals.size() + 1);
    r.quads.reserve(edge_count), r.drawn.reserve(edge_count), dirs.reserve(edge_count);
    ends.reserve(2 * edge_count);
    r.first.push_back(0);
    for (size_t a = 0; a < map.areals.size(); ++a) {
        const auto& v = map.areals[a].vertices;
        for (size_t k = 0; k < v.size(); ++k) {
            const P2 p{v[k].x, v[k].y}, q{v[(k + 1) % v.size()].x, v[(k + 1) % v.size()].y};
            const double len = std::hypot(q.x - p.x, q.y - p.y);
            const bool drawn = outlined[a][k] && len > 0;
            const P2 n = drawn ? P2{-(q.y - p.y) / len, (q.x - p.x) / len} : P2{0, 0};
            const P2 side{n.x * half, n.y * half};
            const uint32_t e = uint32_t(r.quads.size());
            r.quads.push_back({P2{p.x - side.x, p.y - side.y}, P2{q.x - side.x, q.y - side.y},
                               P2{q.x + side.x, q.y + side.y}, P2{p.x + side.x, p.y + side.y}});
            r.drawn.push_back(drawn);
            dirs.push_back({n, len});
            if (!drawn) continue;
            const auto& w = v[(k + 1) % v.size()];
            ends.push_back({{bits(v[k].x), bits(v[k].y)}, e, true, p});
            ends.push_back({{bits(w.x), bits(w.y)}, e, false, q});
        }
        r.first.push_back(r.quads.size());
    }
    ends = group_by_position(std::move(ends));
    // The turn's cosine at the ends x and y taken as a path through their vertex (x arriving, y
    // leaving, each turned round where it runs the other way), if they can be mitred.
    const auto turn = [&](const End& x, const End& y) -> std::optional<double> {
        const P2 nx = dirs[x.edge].normal, ny = dirs[y.edge].normal;
        const double c = (x.start == y.start ? -1.0 : 1.0) * (nx.x * ny.x + nx.y * ny.y);
        if (!(c >= -0.5)) return std::nullopt;
        // Along each edge the mitre reaches half * tan(turn / 2) from the vertex.
        const double reach = half * std::sqrt((1 - c) / (1 + c));
        if (!(2 * reach < dirs[x.edge].length) || !(2 * reach < dirs[y.edge].length))
            return std::nullopt;
        return c;
    };
    const auto mitre = [&](const End& x, const End& y, double cos_turn) {
        const bool x_turned = x.start, y_turned = !y.start;
        const P2 nx = dirs[x.edge].normal, ny = dirs[y.edge].normal;
        const P2 a{x_turned ? -nx.x : nx.x, x_turned ? -nx.y : nx.y};
        const P2 b{y_turned ? -ny.x : ny.x, y_turned ? -ny.y : ny.y};
        const double f = half / (1 + cos_turn);
        const P2 m{(a.x + b.x) * f, (a.y + b.y) * f};
        const P2 left{x.point.x + m.x, x.point.y + m.y}, right{x.point.x - m.x, x.point.y - m.y};
        for (const auto& [end, turned] : {std::pair{&x, x_turned}, std::pair{&y, y_turned}}) {
            std::array<P2, 4>& quad = r.quads[end->edge];
            (end->start ? quad[0] : quad[1]) = turned ? left : right;
            (end->start ? quad[3] : quad[2]) = turned ? right : left;
        }
    };
    // Where more than two outlined edges meet, the straightest pairs are mitred (each end once)
    // and the others keep their rectangles' ends, which reach into the mitred bands.
    struct Pair {
        double cos_turn;
        size_t x, y;
    };
    std::vector<Pair> pairs;
    std::vector<bool> used;
    for (size_t i = 0, j; i < ends.size(); i = j) {
        for (j = i + 1; j < ends.size() && ends[j].at == ends[i].at; ++j) {
        }
        pairs.clear();
        for (size_t x = i; x < j; ++x)
            for (size_t y = x + 1; y < j; ++y)
                if (const auto c = turn(ends[x], ends[y])) pairs.push_back({*c, x - i, y - i});
        std::sort(pairs.begin(), pairs.end(), [](const Pair& p, const Pair& q) {
            return std::tie(q.cos_turn, p.x, p.y) < std::tie(p.cos_turn, q.x, q.y);
        });
        used.assign(j - i, false);
        for (const Pair& p : pairs) {
            if (used[p.x] || used[p.y]) continue;
            used[p.x] = used[p.y] = true;
            mitre(ends[i + p.x], ends[i + p.y], p.cos_turn);
        }
    }
    return r;
}

bool boxes_meet(const Ground& g, P2 lo, P2 hi) {
    return g.hi.x >= lo.x && g.lo.x <= hi.x && g.hi.y >= lo.y && g.lo.y <= hi.y;
}

// Cyrus-Beck: the part of segment p->q inside the triangle, if any: its parameter range and
// the triangle edge (0..2) that cut each end, -1 where the segment's own end is.
struct SegmentClip {
    double t0 = 0, t1 = 1;
    int edge0 = -1, edge1 = -1;
};
std::optional<SegmentClip> clip_segment(P2 p, P2 q, const Ground& g) {
    SegmentClip s;
    const P2 edges[3][2] = {{g.a, g.b}, {g.b, g.c}, {g.c, g.a}};
    for (int k = 0; k < 3; ++k) {
        const auto& e = edges[k];
        const double dp = cross(e[0], e[1], p), dq = cross(e[0], e[1], q);
        if (dp < 0 && dq < 0) return std::nullopt;
        if (dp < 0 && dp / (dp - dq) > s.t0) s.t0 = dp / (dp - dq), s.edge0 = k;
        if (dq < 0 && dp / (dp - dq) < s.t1) s.t1 = dp / (dp - dq), s.edge1 = k;
        if (s.t0 >= s.t1) return std::nullopt;
    }
    return s;
}

void push(std::vector<float>& out, double x, double y, double z) {
    // MSH (x, y, z) -> glTF (x, z, -y), as terrain_to_scene.
    out.push_back(float(x)), out.push_back(float(z)), out.push_back(float(-y));
}

// The draped layer's material for a class: its own (`areal_class_<id>_draped`), after the raw
// ones, made on first use; `made` remembers them by (class id, logic flag).
int class_material(scene::Scene& sc, std::map<std::pair<uint32_t, uint32_t>, int>& made,
                   uint32_t class_id, uint32_t logic_flag) {
    const auto [at, added] = made.try_emplace({class_id, logic_flag}, int(sc.materials.size()));
    if (!added) return at->second;
    scene::Material m;
    m.name = "areal_class_" + std::to_string(class_id) +
             (logic_flag == 1 ? "" : "_logic_" + std::to_string(logic_flag)) + "_draped";
    m.identity.class_id = class_id;
    m.identity.logic_flag = logic_flag;
    sc.materials.push_back(std::move(m));
    return at->second;
}

void colour(scene::Material& m, uint32_t class_id, float alpha) {
    const auto& c = kArealClassColours[class_id % kArealClassColours.size()];
    m.base_color_factor = {c[0], c[1], c[2], alpha};
    m.alpha_mode = scene::AlphaMode::Blend;
}

// Ear clipping of a simple counter-clockwise ring in XY (a merged piece: small, flat): its
// triangles as ring indices, or false when no ear is left (a ring that is not simple). `left`:
// working memory, the caller's.
bool ear_clip(const std::vector<P2>& ring, std::vector<uint32_t>& triangles,
              std::vector<uint32_t>& left) {
    left.resize(ring.size());
    for (uint32_t i = 0; i < left.size(); ++i) left[i] = i;
    size_t at = 0;
    while (left.size() > 3) {
        bool found = false;
        for (size_t tried = 0; tried < left.size() && !found; ++tried, ++at) {
            const size_t m = left.size(), i = at % m;
            const uint32_t a = left[(i + m - 1) % m], b = left[i], c = left[(i + 1) % m];
            const P2 pa = ring[a], pb = ring[b], pc = ring[c];
            if (!(cross(pa, pb, pc) > 0)) continue;
            bool inside = false;
            for (uint32_t k : left) {
                const P2 p = ring[k];
                if (k == a || k == b || k == c || p == pa || p == pb || p == pc) continue;
                if (cross(pa, pb, p) >= 0 && cross(pb, pc, p) >= 0 && cross(pc, pa, p) >= 0) {
                    inside = true;
                    break;
                }
            }
            if (inside) continue;
            triangles.insert(triangles.end(), {a, b, c});
            left.erase(left.begin() + std::ptrdiff_t(i));
            at = i == 0 ? 0 : i - 1;
            found = true;
        }
        if (!found) return false;
    }
    triangles.insert(triangles.end(), {left[0], left[1], left[2]});
    return true;
}

// What a run of areals drapes: fills by material, outline segments, ribbons.
struct DrapedLayer {
    DrapedLayer() { lines.mode = scene::Primitive::Mode::Lines; }
    std::map<int, scene::Primitive> fills;
    scene::Primitive lines, ribbons; // POSITION of 3 components, as every Attribute by default
};

// Drapes areals into a layer; one per thread (the ground marks and clip buffers are its own).
class Draper {
  public:
    // `areal_triangles`: each areal's triangulate_xy, or null to triangulate here.
    Draper(const GroundIndex& index, const DrapeOptions& options, const Ribbons& ribbons,
           const ArealTriangles* areal_triangles)
        : index_(index), options_(options), ribbons_(ribbons), areal_triangles_(areal_triangles),
          marks_(index.marks()) {}

    void areal(const arealmap::ArealMap& map, size_t a, int material, DrapedLayer& out) {
        const arealmap::Areal& areal = map.areals[a];
        const size_t n = areal.vertices.size();
        scene::Primitive& fill = out.fills[material];
        fill.material = material;
        if (n >= 3) {
            if (areal_triangles_) {
                convex_parts(areal.vertices, (*areal_triangles_)[a], parts_);
            } else {
                triangulation_ = triangulate_xy(areal.vertices);
                convex_parts(areal.vertices, triangulation_, parts_);
            }
            for (size_t part = 0, from = 0; part < parts_.ends.size(); from = parts_.ends[part++]) {
                const P2* corners = parts_.points.data() + from;
                const size_t count = parts_.ends[part] - from;
                subject_.clear(), subject_lines_.clear();
                for (size_t k = 0; k < count; ++k) {
                    subject_.push_back({corners[k], std::nan("")});
                    subject_lines_.push_back(polygon_edge(corners[k], corners[(k + 1) % count]));
                }
                drape_convex(false);
            }
        }
        emit(arrays_of(fill), options_.lift);
        auto& line_pos = out.lines.attributes["POSITION"];
        const Arrays ribbons = arrays_of(out.ribbons);
        for (size_t k = 0; k < n; ++k) {
            const P2 p{areal.vertices[k].x, areal.vertices[k].y};
            const P2 q{areal.vertices[(k + 1) % n].x, areal.vertices[(k + 1) % n].y};
            const size_t e = ribbons_.first[a] + k;
            if (!ribbons_.drawn[e]) continue;
            // The edge's segments, one per ground triangle, in order along it; a run of them
            // that meet end to end drawn as fewer, straight where the ground under them bends
            // less than kLineSag.
            const Line edge = polygon_edge(p, q);
            segments_.clear();
            index_.visit({std::min(p.x, q.x), std::min(p.y, q.y)},
                         {std::max(p.x, q.x), std::max(p.y, q.y)}, marks_, [&](const Ground& g) {
                             const auto s = clip_segment(p, q, g);
                             if (!s) return;
                             Segment& segment = segments_.emplace_back();
                             size_t end = 0;
                             for (const auto& [t, side] :
                                  {std::pair{s->t0, s->edge0}, std::pair{s->t1, s->edge1}}) {
                                 const P2 v{p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)};
                                 Corner c = side < 0 ? Corner{v, std::nan("")}
                                                     : crossing(edge, ground_edge(g, side),
                                                                [v] { return v; });
                                 if (std::isnan(c.z)) c.z = g.height(c.xy.x, c.xy.y);
                                 segment.t[end] = t, segment.ends[end++] = c;
                             }
                         });
            std::sort(segments_.begin(), segments_.end(),
                      [](const Segment& x, const Segment& y) { return x.t[0] < y.t[0]; });
            for (size_t i = 0, j; i < segments_.size(); i = j) {
                for (j = i + 1; j < segments_.size() &&
                                segments_[j].ends[0].xy == segments_[j - 1].ends[1].xy &&
                                segments_[j].ends[0].z == segments_[j - 1].ends[1].z;
                     ++j) {
                }
                // Segments i..j-1 meet end to end: from each start, on to the farthest end
                // whose chord passes every corner between within kLineSag.
                for (size_t from = i, to; from < j; from = to + 1) {
                    for (to = from; to + 1 < j; ++to) {
                        const Segment &first = segments_[from], &last = segments_[to + 1];
                        const double span = last.t[1] - first.t[0];
                        bool near = span > 0;
                        for (size_t m = from; m <= to && near; ++m) {
                            const double f = (segments_[m].t[1] - first.t[0]) / span;
                            const double z =
                                first.ends[0].z + f * (last.ends[1].z - first.ends[0].z);
                            near = std::abs(segments_[m].ends[1].z - z) <= kLineSag;
                        }
                        if (!near) break;
                    }
                    for (const Corner& c : {segments_[from].ends[0], segments_[to].ends[1]}) {
                        push(line_pos.data, c.xy.x, c.xy.y, c.z + options_.outline_lift);
                        out.lines.indices.push_back(uint32_t(out.lines.indices.size()));
                    }
                }
            }
            // The ribbon (outline_ribbons), draped like the fills (a quad per segment with the
            // heights of the segment's ground triangle left the terrain where its sides reached
            // over a fold or past the map's edge).
            const std::array<P2, 4>& ribbon = ribbons_.quads[e];
            subject_.clear(), subject_lines_.clear();
            for (size_t c = 0; c < 4; ++c) {
                subject_.push_back({ribbon[c], std::nan("")});
                subject_lines_.push_back(polygon_edge(ribbon[c], ribbon[(c + 1) % 4]));
            }
            drape_convex(true);
            emit(ribbons, options_.outline_lift);
        }
    }

  private:
    // Clips the subject (subject_, subject_lines_: convex, counter-clockwise) against every
    // ground triangle under it into the pieces that emit() then lays into a primitive.
    // `separate_first`: ribbons, whose boxes hold many triangles their sides pass by (for fills
    // the test only adds to the clip, measured).
    void drape_convex(bool separate_first) {
        if (subject_.size() > kMergedCornersAtMost) // convex_parts makes none: ClipBuffers' room
            throw std::logic_error("drape: a convex part of more than 256 corners");
        P2 lo = subject_[0].xy, hi = subject_[0].xy;
        for (const Corner& c : subject_) {
            lo.x = std::min(lo.x, c.xy.x), lo.y = std::min(lo.y, c.xy.y);
            hi.x = std::max(hi.x, c.xy.x), hi.y = std::max(hi.y, c.xy.y);
        }
        for (size_t k = 0; k < subject_.size(); ++k)
            clip_buffers_.subject_lines[k] = &subject_lines_[k];
        index_.visit(lo, hi, marks_, [&](const Ground& g) {
            if (!boxes_meet(g, lo, hi)) return;
            if (separate_first && separated(g, subject_)) return;
            const auto [piece, lines, corners] =
                clip(subject_.data(), clip_buffers_.subject_lines.data(), subject_.size(), g,
                     clip_buffers_);
            if (corners < 3) return;
            Piece p{corners_.size(), 0, plane_key(g)};
            for (size_t k = 0; k < corners; ++k) {
                Corner c = piece[k];
                if (std::isnan(c.z)) c.z = g.height(c.xy.x, c.xy.y);
                // A corner on the one before (a corner the ground's edge passes through).
                if (p.count > 0 && c.xy == corners_.back().xy) {
                    lines_.back() = *lines[k];
                    continue;
                }
                corners_.push_back(c), lines_.push_back(*lines[k]), ++p.count;
            }
            if (p.count > 1 && corners_.back().xy == corners_[p.first].xy)
                corners_.pop_back(), lines_.pop_back(), --p.count;
            if (p.count < 3) {
                corners_.resize(p.first), lines_.resize(p.first);
                return;
            }
            pieces_.push_back(p);
        });
    }

    struct Piece {
        size_t first, count;           // in corners_ and lines_
        std::array<uint64_t, 3> plane; // its ground triangle's plane_key
    };
    struct PieceOrder { // a piece by its plane: what emit sorts
        std::array<uint64_t, 3> plane;
        uint32_t piece;
    };

    // The arrays of a primitive that emit() writes (its POSITION looked up by name once an
    // areal, not once a ribbon).
    struct Arrays {
        std::vector<float>& positions;
        std::vector<uint32_t>& indices;
    };
    static Arrays arrays_of(scene::Primitive& p) {
        return {p.attributes["POSITION"].data, p.indices};
    }

    // Lays the pieces clipped so far into `target`, `lift` above the ground, and forgets them.
    // The pieces on one plane (a terrain triangle's, or a flat stretch's: a plateau, the river)
    // are merged where they share edges, and a corner then left on a straight line it was only
    // cut from (a terrain edge crossing a diagonal of the areal's convex parts or crossing a
    // ribbon between two coplanar triangles) is dropped; each ring is ear-clipped. A group that
    // does not merge into simple counter-clockwise rings is laid piece by piece, each a fan over
    // its corners.
    void emit(const Arrays& target, float lift) {
        std::vector<float>& pos = target.positions;
        // By plane, then in the order clipped (the plane beside its piece: no indirection).
        std::vector<PieceOrder>& order = order_;
        order.resize(pieces_.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = {pieces_[i].plane, uint32_t(i)};
        std::sort(order.begin(), order.end(), [](const PieceOrder& x, const PieceOrder& y) {
            if (x.plane[0] != y.plane[0]) return x.plane[0] < y.plane[0];
            if (x.plane[1] != y.plane[1]) return x.plane[1] < y.plane[1];
            if (x.plane[2] != y.plane[2]) return x.plane[2] < y.plane[2];
            return x.piece < y.piece;
        });
        for (size_t g0 = 0, g1; g0 < order.size(); g0 = g1) {
            for (g1 = g0 + 1; g1 < order.size() && order[g1].plane == order[g0].plane; ++g1) {
            }
            if (g1 - g0 > 1 && merge(order.data() + g0, g1 - g0, target, lift)) continue;
            for (size_t k = g0; k < g1; ++k) {
                const Piece& p = pieces_[order[k].piece];
                const uint32_t base = uint32_t(pos.size() / 3);
                float* to = grow(pos, 3 * p.count);
                for (size_t c = 0; c < p.count; ++c, to += 3) put(to, corners_[p.first + c], lift);
                uint32_t* fan = grow(target.indices, 3 * (p.count - 2));
                for (uint32_t c = 1; c + 1 < p.count; ++c, fan += 3)
                    fan[0] = base, fan[1] = base + c, fan[2] = base + c + 1;
            }
        }
        pieces_.clear(), corners_.clear(), lines_.clear();
    }

    // `v` lengthened by `count` elements, to be written through the pointer returned.
    template <class T> static T* grow(std::vector<T>& v, size_t count) {
        const size_t at = v.size();
        v.resize(at + count);
        return v.data() + at;
    }

    // A corner's position, `lift` above it, at `to` (MSH -> glTF axes, as push).
    static void put(float* to, const Corner& c, float lift) {
        const double z = c.z + lift;
        to[0] = float(c.xy.x), to[1] = float(z), to[2] = float(-c.xy.y);
    }

    // std::array's == calls memcmp here.
    static bool same_key(const std::array<uint64_t, 4>& x, const std::array<uint64_t, 4>& y) {
        return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3];
    }

    static bool key_less(const std::array<uint64_t, 4>& x, const std::array<uint64_t, 4>& y) {
        if (x[0] != y[0]) return x[0] < y[0];
        if (x[1] != y[1]) return x[1] < y[1];
        if (x[2] != y[2]) return x[2] < y[2];
        return x[3] < y[3];
    }

    // A piece's edge, a to b.
    struct Edge {
        std::array<uint64_t, 4> key; // a.x, a.y, b.x, b.y as bits
        uint32_t from;               // corners_ index of a, lines_ index of the edge
        bool inner = false;          // another piece has it the other way
        bool taken = false;
        uint32_t next = 0; // the outer edge on from b (trace_paired)
    };

    // Groups of up to this many edges pair them directly (quadratic, no sort): most merges
    // join a few pieces of a terrain triangle; a flat stretch can give thousands.
    static constexpr size_t kPairedEdgesAtMost = 32;

    // The pieces `group` (one plane) merged along the edges they share, into target; false
    // (nothing added) when their outline is not simple counter-clockwise rings.
    bool merge(const PieceOrder* group, size_t n, const Arrays& target, float lift) {
        const auto bits = [](double v) { return std::bit_cast<uint64_t>(v + 0.0); };
        std::vector<Edge>& edges = edges_;
        edges.clear();
        for (size_t i = 0; i < n; ++i) {
            const Piece& p = pieces_[group[i].piece];
            for (size_t k = 0; k < p.count; ++k) {
                const uint32_t a = uint32_t(p.first + k), b = uint32_t(p.first + (k + 1) % p.count);
                const P2 pa = corners_[a].xy, pb = corners_[b].xy;
                edges.push_back({{bits(pa.x), bits(pa.y), bits(pb.x), bits(pb.y)}, a});
            }
        }
        out_corners_.clear(), triangles_out_.clear();
        if (!(edges.size() <= kPairedEdgesAtMost ? trace_paired() : trace_sorted())) return false;
        std::vector<float>& pos = target.positions;
        const uint32_t base = uint32_t(pos.size() / 3);
        float* to = grow(pos, 3 * out_corners_.size());
        for (uint32_t c : out_corners_) put(to, corners_[c], lift), to += 3;
        uint32_t* index = grow(target.indices, triangles_out_.size());
        for (uint32_t t : triangles_out_) *index++ = base + t;
        return true;
    }

    // The outline of edges_: its outer edges (those no other edge runs back along) walked into
    // rings, each laid by lay_ring(); false when two edges are the same (pieces overlap), or
    // from a corner not exactly one outer edge leaves, or the walk does not close where it
    // began. The rings in the order of their least edge key, each from that edge.
    bool trace_sorted() {
        std::vector<Edge>& edges = edges_;
        // Keys compared field by field (std::array's operator< goes through a three-way
        // comparison).
        std::sort(edges.begin(), edges.end(),
                  [](const Edge& x, const Edge& y) { return key_less(x.key, y.key); });
        const auto find = [&](const std::array<uint64_t, 4>& key) {
            const auto it = std::lower_bound(
                edges.begin(), edges.end(), key,
                [](const Edge& e, const std::array<uint64_t, 4>& k) { return key_less(e.key, k); });
            return it != edges.end() && same_key(it->key, key) ? it : edges.end();
        };
        for (size_t i = 0; i < edges.size(); ++i) {
            if (i > 0 && same_key(edges[i].key, edges[i - 1].key)) return false; // pieces overlap
            const auto& k = edges[i].key;
            edges[i].inner = find({k[2], k[3], k[0], k[1]}) != edges.end();
        }
        std::vector<uint32_t>& ring = ring_;
        for (size_t i = 0; i < edges.size(); ++i) {
            if (edges[i].inner || edges[i].taken) continue;
            ring.clear();
            for (size_t at = i;;) {
                Edge& e = edges[at];
                if (e.taken) return false; // an outline that does not close where it began
                e.taken = true;
                ring.push_back(e.from);
                const auto& k = e.key;
                auto next = std::lower_bound(
                    edges.begin(), edges.end(), std::array<uint64_t, 2>{k[2], k[3]},
                    [](const Edge& x, const std::array<uint64_t, 2>& a) {
                        return x.key[0] != a[0] ? x.key[0] < a[0] : x.key[1] < a[1];
                    });
                size_t found = edges.size();
                for (; next != edges.end() && next->key[0] == k[2] && next->key[1] == k[3]; ++next)
                    if (!next->inner) {
                        if (found != edges.size()) return false; // two ways on: not simple
                        found = size_t(next - edges.begin());
                    }
                if (found == edges.size()) return false;
                if (found == i) break;
                at = found;
                if (ring.size() > edges.size()) return false;
            }
            if (!lay_ring()) return false;
        }
        return true;
    }

    // trace_sorted's outline and rings, found by comparing every pair of edges.
    bool trace_paired() {
        std::vector<Edge>& edges = edges_;
        const size_t m = edges.size();
        for (size_t i = 0; i < m; ++i) {
            const auto& x = edges[i].key;
            if (x[0] == x[2] && x[1] == x[3]) edges[i].inner = true; // its own way back
            for (size_t j = i + 1; j < m; ++j) {
                const auto& y = edges[j].key;
                if (same_key(x, y)) return false; // pieces overlap
                if (x[0] == y[2] && x[1] == y[3] && x[2] == y[0] && x[3] == y[1])
                    edges[i].inner = edges[j].inner = true;
            }
        }
        // The outer edges in order: the search for each one's successor and the walk need no
        // others.
        std::array<uint32_t, kPairedEdgesAtMost> outer;
        size_t outer_count = 0;
        for (uint32_t i = 0; i < m; ++i)
            if (!edges[i].inner) outer[outer_count++] = i;
        for (size_t a = 0; a < outer_count; ++a) {
            const auto& x = edges[outer[a]].key;
            size_t found = m;
            for (size_t b = 0; b < outer_count; ++b)
                if (edges[outer[b]].key[0] == x[2] && edges[outer[b]].key[1] == x[3]) {
                    if (found != m) return false; // two ways on: not simple
                    found = outer[b];
                }
            if (found == m) return false;
            edges[outer[a]].next = uint32_t(found);
        }
        std::vector<uint32_t>& ring = ring_;
        for (;;) {
            size_t start = m; // the least outer edge not yet walked
            for (size_t a = 0; a < outer_count; ++a)
                if (const uint32_t i = outer[a];
                    !edges[i].taken && (start == m || key_less(edges[i].key, edges[start].key)))
                    start = i;
            if (start == m) return true;
            ring.clear();
            for (size_t at = start;;) {
                Edge& e = edges[at];
                if (e.taken) return false; // an outline that does not close where it began
                e.taken = true;
                ring.push_back(e.from);
                at = e.next;
                if (at == start) break;
            }
            if (!lay_ring()) return false;
        }
    }

    // The ring ring_ (corners_ indices, counter-clockwise) laid into out_corners_ and
    // triangles_out_: the corners on a straight line they were only cut from dropped (the edges
    // before and after one lie on the same line), the rest ear-clipped. False when it is not a
    // simple counter-clockwise ring.
    bool lay_ring() {
        const std::vector<uint32_t>& ring = ring_;
        std::vector<P2>& ring_xy = ring_xy_;
        std::vector<uint32_t>& kept = kept_;
        ring_xy.clear();
        kept.clear();
        for (size_t k = 0; k < ring.size(); ++k) {
            const uint32_t before_edge = ring[(k + ring.size() - 1) % ring.size()];
            if (same_line(lines_[before_edge], lines_[ring[k]])) continue;
            kept.push_back(ring[k]);
            ring_xy.push_back(corners_[ring[k]].xy);
        }
        if (kept.size() < 3) return false;
        double area2 = 0;
        for (size_t k = 0; k < ring_xy.size(); ++k)
            area2 += cross({0, 0}, ring_xy[k], ring_xy[(k + 1) % ring_xy.size()]);
        if (!(area2 > 0)) return false; // a hole, or nothing
        std::vector<uint32_t>& triangles = triangles_;
        triangles.clear();
        if (!ear_clip(ring_xy, triangles, ears_left_)) return false;
        const uint32_t base = uint32_t(out_corners_.size());
        out_corners_.insert(out_corners_.end(), kept.begin(), kept.end());
        for (uint32_t t : triangles) triangles_out_.push_back(base + t);
        return true;
    }

    const GroundIndex& index_;
    const DrapeOptions& options_;
    const Ribbons& ribbons_;
    const ArealTriangles* areal_triangles_;
    GroundIndex::Marks marks_;
    std::vector<std::array<uint32_t, 3>> triangulation_; // without areal_triangles_
    ConvexParts parts_;
    ClipBuffers clip_buffers_;
    std::vector<Corner> subject_;
    std::vector<Line> subject_lines_;
    // The pieces clipped and not yet emitted: their corners and the lines each corner's edge to
    // the next lies on.
    std::vector<Piece> pieces_;
    std::vector<Corner> corners_;
    std::vector<Line> lines_;
    // merge()'s and emit()'s working memory.
    std::vector<PieceOrder> order_;
    std::vector<uint32_t> ring_, kept_, triangles_, ears_left_, out_corners_, triangles_out_;
    std::vector<P2> ring_xy_;
    std::vector<Edge> edges_;
    // An outline edge's segments, by where they start along it.
    struct Segment {
        std::array<double, 2> t; // its ends' parameters along the edge
        std::array<Corner, 2> ends;
    };
    std::vector<Segment> segments_;
};

// Appends `from` to `to` (indices moved past `to`'s vertices) and frees `from`.
void append(scene::Primitive& to, scene::Primitive& from) {
    std::vector<float>& to_pos = to.attributes["POSITION"].data;
    std::vector<float>& from_pos = from.attributes["POSITION"].data;
    const uint32_t base = uint32_t(to_pos.size() / 3);
    to_pos.insert(to_pos.end(), from_pos.begin(), from_pos.end());
    for (uint32_t i : from.indices) to.indices.push_back(base + i);
    from = scene::Primitive();
}

// The layers of consecutive runs of areals as one, in their order: the bytes a single run
// gives. Each target is sized once (no growth by doubling, which held up to twice the bytes
// while the GLB encoder allocated the whole file).
DrapedLayer concatenate(std::vector<DrapedLayer>& layers) {
    DrapedLayer out;
    std::map<int, std::pair<size_t, size_t>> fill_sizes; // floats, indices
    size_t line_floats = 0, line_indices = 0, ribbon_floats = 0, ribbon_indices = 0;
    for (DrapedLayer& l : layers) {
        for (auto& [material, p] : l.fills) {
            fill_sizes[material].first += p.attributes["POSITION"].data.size();
            fill_sizes[material].second += p.indices.size();
        }
        line_floats += l.lines.attributes["POSITION"].data.size();
        line_indices += l.lines.indices.size();
        ribbon_floats += l.ribbons.attributes["POSITION"].data.size();
        ribbon_indices += l.ribbons.indices.size();
    }
    for (const auto& [material, size] : fill_sizes) {
        scene::Primitive& p = out.fills[material];
        p.material = material;
        p.attributes["POSITION"].data.reserve(size.first);
        p.indices.reserve(size.second);
    }
    out.lines.attributes["POSITION"].data.reserve(line_floats);
    out.lines.indices.reserve(line_indices);
    out.ribbons.attributes["POSITION"].data.reserve(ribbon_floats);
    out.ribbons.indices.reserve(ribbon_indices);
    for (DrapedLayer& l : layers) {
        for (auto& [material, p] : l.fills) append(out.fills[material], p);
        append(out.lines, l.lines);
        append(out.ribbons, l.ribbons);
        l = DrapedLayer();
    }
    return out;
}

// Drapes every areal, on `threads` OpenMP threads over runs of consecutive areals (taken in turn
// as each thread finishes one), and joins the runs in areal order: the same layer whatever the
// thread count.
DrapedLayer drape_areals(const GroundIndex& index, const arealmap::ArealMap& map,
                         const std::vector<int>& material_of, const DrapeOptions& options,
                         const ArealTriangles* areal_triangles) {
    const Ribbons ribbons = outline_ribbons(map, edges_to_outline(map), options.outline_width);
    const size_t areals = map.areals.size();
    const size_t threads = std::max<size_t>(1, std::min<size_t>(options.threads, areals));
    // Several runs per thread: areals differ in cost by orders of magnitude.
    const size_t runs = threads == 1 ? 1 : std::min(areals, threads * 16);
    std::vector<DrapedLayer> layers(runs);
    // An exception may not leave an OpenMP region: the first is kept, and the other runs skipped.
    std::exception_ptr failure;
    std::atomic<bool> failed{false};
    auto keep_failure = [&] {
#pragma omp critical(drape_failure)
        if (!failure) failure = std::current_exception();
        failed = true;
    };
#pragma omp parallel num_threads(int(threads)) if (threads > 1)
    {
        std::optional<Draper> draper;
        try {
            draper.emplace(index, options, ribbons, areal_triangles);
        } catch (...) {
            keep_failure();
        }
#pragma omp for schedule(dynamic, 1)
        for (size_t r = 0; r < runs; ++r) {
            if (failed || !draper) continue;
            try {
                for (size_t a = areals * r / runs; a < areals * (r + 1) / runs; ++a)
                    if (material_of[a] >= 0) draper->areal(map, a, material_of[a], layers[r]);
            } catch (...) {
                keep_failure();
            }
        }
    }
    if (failure) std::rethrow_exception(failure);
    if (runs == 1) return std::move(layers[0]);
    return concatenate(layers);
}

// One vertex per position (bit patterns equal) in the order of first use, and the triangles or
// segments that welding leaves without area dropped: the pieces' shared corners, computed the
// same in each, become shared vertices. An open-addressed table of the kept vertices (8 bytes a
// vertex beside the layer); the result does not depend on the table, so neither on the threads.
void weld(scene::Primitive& p) {
    std::vector<float>& pos = p.attributes["POSITION"].data;
    const size_t n = pos.size() / 3;
    const auto key = [&](size_t i) {
        return std::array<uint32_t, 3>{std::bit_cast<uint32_t>(pos[3 * i]),
                                       std::bit_cast<uint32_t>(pos[3 * i + 1]),
                                       std::bit_cast<uint32_t>(pos[3 * i + 2])};
    };
    const size_t size = std::bit_ceil(std::max<size_t>(16, 2 * n));
    std::vector<uint32_t> slots(size, kNoVertex); // kept vertices' new indices
    // Each vertex's new index (every one written before it is read: not zeroed first).
    const std::unique_ptr<uint32_t[]> to(new uint32_t[n]);
    uint32_t kept = 0;
    for (size_t i = 0; i < n; ++i) {
        const size_t at = position_slot(slots, key(i), key);
        if (slots[at] == kNoVertex) { // the first copy: kept, moved down to its new index
            for (size_t c = 0; c < 3; ++c) pos[3 * size_t(kept) + c] = pos[3 * i + c];
            slots[at] = kept++;
        }
        to[i] = slots[at];
    }
    slots.clear(), slots.shrink_to_fit();
    pos.resize(3 * size_t(kept));
    const size_t corners = p.mode == scene::Primitive::Mode::Lines ? 2 : 3;
    size_t out = 0;
    for (size_t k = 0; k + corners <= p.indices.size(); k += corners) {
        const uint32_t a = to[p.indices[k]], b = to[p.indices[k + 1]],
                       c = corners == 3 ? to[p.indices[k + 2]] : kNoVertex;
        if (a == b || (corners == 3 && (b == c || a == c))) continue;
        p.indices[out++] = a, p.indices[out++] = b;
        if (corners == 3) p.indices[out++] = c;
    }
    p.indices.resize(out);
}

// Adds the welded primitive `p` (if it has anything) to the mesh, in parts of at most 65,535
// vertices, each with 16-bit indices (the GLB writer's choice where every index is below 65,535):
// its triangles or segments in order, a part taking the vertices they use in order of first use
// (a vertex two parts use is stored in both, at the same position). Halves the indices' bytes of
// a map whose class has more vertices (the stress map's fills and ribbons).
void add_in_short_parts(scene::Mesh& mesh, scene::Primitive& p) {
    constexpr size_t kPartVertices = 0xFFFF;
    const std::vector<float>& pos = p.attributes["POSITION"].data;
    if (p.indices.empty()) return;
    if (pos.size() / 3 <= kPartVertices) {
        mesh.primitives.push_back(std::move(p));
        return;
    }
    const size_t corners = p.mode == scene::Primitive::Mode::Lines ? 2 : 3;
    // The parts laid out first (each corner's index in its part, each part's vertices in order,
    // where each part ends in both), then each part's arrays made at their size and filled.
    // local and part_indices: every element read is written first (local[v] once part_of[v]
    // names the part), so not zeroed.
    const std::unique_ptr<uint32_t[]> local(new uint32_t[pos.size() / 3]);
    const std::unique_ptr<uint32_t[]> part_indices(new uint32_t[p.indices.size()]);
    std::vector<uint32_t> part_of(pos.size() / 3, kNoVertex), part_vertices;
    part_vertices.reserve(pos.size() / 3);
    std::vector<size_t> indices_end, vertices_end; // per part
    uint32_t at = kNoVertex;                       // the part being filled
    uint32_t part_vertex_count = 0;                // its vertices so far
    size_t k = 0;
    for (; k + corners <= p.indices.size(); k += corners) {
        size_t added = 0;
        for (size_t c = 0; c < corners; ++c) added += part_of[p.indices[k + c]] != at;
        if (at == kNoVertex) {
            at = 0;
        } else if (part_vertex_count + added > kPartVertices) {
            indices_end.push_back(k), vertices_end.push_back(part_vertices.size());
            ++at;
            part_vertex_count = 0;
        }
        for (size_t c = 0; c < corners; ++c) {
            const uint32_t v = p.indices[k + c];
            if (part_of[v] != at) {
                part_of[v] = at, local[v] = part_vertex_count++;
                part_vertices.push_back(v);
            }
            part_indices[k + c] = local[v];
        }
    }
    if (at != kNoVertex) indices_end.push_back(k), vertices_end.push_back(part_vertices.size());
    std::vector<scene::Primitive> parts(indices_end.size());
    for (size_t part = 0; part < parts.size(); ++part) {
        scene::Primitive& next = parts[part];
        next.material = p.material;
        next.mode = p.mode;
        const size_t first_vertex = part == 0 ? 0 : vertices_end[part - 1];
        std::vector<float>& to_pos = next.attributes["POSITION"].data;
        to_pos.resize(3 * (vertices_end[part] - first_vertex));
        float* to = to_pos.data();
        for (size_t i = first_vertex; i < vertices_end[part]; ++i, to += 3) {
            const float* from = pos.data() + 3 * size_t(part_vertices[i]);
            to[0] = from[0], to[1] = from[1], to[2] = from[2];
        }
        const size_t first_index = part == 0 ? 0 : indices_end[part - 1];
        next.indices.assign(part_indices.get() + first_index,
                            part_indices.get() + indices_end[part]);
    }
    p = scene::Primitive();
    for (scene::Primitive& part : parts) mesh.primitives.push_back(std::move(part));
}

} // namespace

void add_draped_overlay(scene::Scene& sc, const terrain::Terrain& terrain,
                        const arealmap::ArealMap& map, const DrapeOptions& options,
                        const ArealTriangles* areal_triangles) {
    if (!map.decoded) return;
    if (areal_triangles && areal_triangles->size() != map.areals.size()) areal_triangles = nullptr;
    const GroundIndex index(terrain);
    // The raw fills' materials (shared by nothing else): faint, since they float or sink.
    for (scene::Material& m : sc.materials)
        if (m.identity.class_id && m.name.rfind("areal_class_", 0) == 0)
            colour(m, *m.identity.class_id, 0.1f);
    // The draped materials, made in areal order before any thread starts.
    std::map<std::pair<uint32_t, uint32_t>, int> draped_materials;
    std::vector<int> material_of(map.areals.size(), -1); // -1: nothing to drape
    for (size_t a = 0; a < map.areals.size(); ++a) {
        const arealmap::Areal& areal = map.areals[a];
        if (areal.vertices.size() < 2) continue;
        material_of[a] = class_material(sc, draped_materials, areal.class_id, areal.logic_flag);
        colour(sc.materials[size_t(material_of[a])], areal.class_id, 0.2f);
    }
    DrapedLayer layer = drape_areals(index, map, material_of, options, areal_triangles);
    auto& fills = layer.fills;
    scene::Primitive &lines = layer.lines, &ribbons = layer.ribbons;

    scene::Mesh mesh;
    mesh.name = kArealDrapedNode;
    for (auto& [material, p] : fills) {
        weld(p);
        add_in_short_parts(mesh, p);
    }
    scene::Material outline;
    outline.name = "areal_outline";
    outline.base_color_factor = {0.02f, 0.02f, 0.02f, 1.0f};
    sc.materials.push_back(std::move(outline));
    lines.material = ribbons.material = int(sc.materials.size() - 1);
    weld(lines);
    weld(ribbons);
    add_in_short_parts(mesh, lines);
    add_in_short_parts(mesh, ribbons);
    if (mesh.primitives.empty()) return;
    if (options.tight_arrays)
        for (scene::Primitive& p : mesh.primitives) {
            p.indices.shrink_to_fit();
            for (auto& [name, attribute] : p.attributes) attribute.data.shrink_to_fit();
        }
    sc.meshes.push_back(std::move(mesh));
    scene::Node node;
    node.name = kArealDrapedNode;
    node.mesh = int(sc.meshes.size() - 1);
    node.extras["mshconv"] = {
        {"kind", "arealmap_draped"},
        {"note", "a picture of the areal map on the terrain; the import ignores this node"},
        {"lift", options.lift},
        {"outline_lift", options.outline_lift},
        {"outline_width", options.outline_width}};
    sc.nodes.push_back(std::move(node));
}

} // namespace msh::mapping
