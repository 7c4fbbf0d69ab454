#include "arealmap.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>

namespace msh::arealmap {

namespace {

const std::string kPanic = "SystemArealMap panic: ";

class Limiter {
  public:
    explicit Limiter(size_t cap = 20) : cap_(cap) {}
    bool take() { return count_++ < cap_; }
    size_t dropped() const { return count_ > cap_ ? count_ - cap_ : 0; }

  private:
    size_t cap_;
    size_t count_ = 0;
};

Vec3 load_vec(const uint8_t* p) {
    Vec3 v;
    std::memcpy(&v, p, 12);
    return v;
}

static_assert(sizeof(Vec3) == 12 && sizeof(EdgeLink) == 8);

// Byte offset of every areal record inside the payload (for diagnostics).
std::vector<uint64_t> record_offsets(const std::vector<Areal>& areals) {
    std::vector<uint64_t> off(areals.size() + 1, 0);
    for (size_t i = 0; i < areals.size(); ++i) off[i + 1] = off[i] + areals[i].byte_size();
    return off;
}

} // namespace

size_t Areal::byte_size() const {
    size_t s = kPrefixSize + 12 * vertices.size() + 8 * links.size();
    for (const SubBlock& b : sub_blocks) s += 4 + b.data.size();
    return s;
}

namespace {

// The payload read front to back: `at` is the offset of the next byte, `base` the payload's
// offset in the file (for the diagnostics).
struct PayloadReader {
    ByteView payload;
    uint64_t size;
    uint64_t at;
    DiagnosticSink& sink;
    const std::string& label;
    uint64_t base;

    bool areal(uint32_t i, Areal& a);
    bool grid(uint32_t areal_count, Grid& grid, bool& ok);
};

// Areal i: its 56-byte prefix, vertices, links and sub-blocks; false (reported) when it does
// not fit or a vertex is not finite.
bool PayloadReader::areal(uint32_t i, Areal& a) {
    const std::string who = "areal " + std::to_string(i);
    if (!in_range(at, kPrefixSize, size)) {
        sink.error(label, base + at,
                   kPanic + "Incorrect ArealMap: " + who + " prefix runs past the entry end");
        return false;
    }
    const uint8_t* p = payload.data() + at;
    a.anchor = load_vec(p);
    a.reserved12 = load<float>(p + 12);
    a.area = load<float>(p + 16);
    a.normal = load_vec(p + 20);
    a.logic_flag = load<uint32_t>(p + 32);
    a.reserved36 = load<uint32_t>(p + 36);
    a.class_id = load<uint32_t>(p + 40);
    a.reserved44 = load<uint32_t>(p + 44);
    uint64_t v = load<uint32_t>(p + 48);
    uint64_t b = load<uint32_t>(p + 52);
    at += kPrefixSize;
    uint64_t need = 12 * v + 8 * (v + 3 * b);
    if (!in_range(at, need, size)) {
        sink.error(label, base + at - kPrefixSize,
                   kPanic + "Incorrect ArealMap: " + who + " (V = " + std::to_string(v) +
                       ", B = " + std::to_string(b) + ") needs " + std::to_string(need) +
                       " bytes after its prefix but only " + std::to_string(size - at) + " remain");
        return false;
    }
    a.vertices.resize(size_t(v));
    if (v) std::memcpy(a.vertices.data(), payload.data() + at, size_t(12 * v));
    for (size_t k = 0; k < a.vertices.size(); ++k) {
        const Vec3& c = a.vertices[k];
        if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z)) {
            sink.error(label, base + at + 12 * k,
                       who + " vertex " + std::to_string(k) + " is not finite (NaN or infinity)");
            return false;
        }
    }
    at += 12 * v;
    a.links.resize(size_t(v + 3 * b));
    if (!a.links.empty()) std::memcpy(a.links.data(), payload.data() + at, a.links.size() * 8);
    at += 8 * (v + 3 * b);
    a.sub_blocks.resize(size_t(b));
    for (uint64_t s = 0; s < b; ++s) {
        if (!in_range(at, 4, size)) {
            sink.error(label, base + at,
                       kPanic + "Incorrect ArealMap: " + who + " sub-block " + std::to_string(s) +
                           " count runs past the entry end");
            return false;
        }
        uint64_t n = load<uint32_t>(payload.data() + at);
        if (!in_range(at + 4, 12 * n, size)) {
            sink.error(label, base + at,
                       kPanic + "Incorrect ArealMap: " + who + " sub-block " + std::to_string(s) +
                           " (n = " + std::to_string(n) + ") runs past the entry end");
            return false;
        }
        a.sub_blocks[size_t(s)].data.assign(payload.begin() + ptrdiff_t(at + 4),
                                            payload.begin() + ptrdiff_t(at + 4 + 12 * n));
        at += 4 + 12 * n;
    }
    return true;
}

// The grid: its header and every cell's areal ids; false (reported) when it does not fit.
// `ok` turns false on ids the runtime cannot hold (reported, the parse goes on).
bool PayloadReader::grid(uint32_t areal_count, Grid& grid, bool& ok) {
    if (!in_range(at, 8, size)) {
        sink.error(
            label, base + at,
            kPanic +
                "Incorrect ArealMap: the grid header (cellsX, cellsY) runs past the entry end");
        return false;
    }
    grid.cells_x = load<uint32_t>(payload.data() + at);
    grid.cells_y = load<uint32_t>(payload.data() + at + 4);
    if (grid.cells_x == 0 || grid.cells_y == 0) {
        sink.error(label, base + at,
                   kPanic + "ArealMap Cells are empty (cellsX = " + std::to_string(grid.cells_x) +
                       ", cellsY = " + std::to_string(grid.cells_y) + ")");
        return false;
    }
    at += 8;
    uint64_t cells = uint64_t(grid.cells_x) * grid.cells_y;
    if (cells * 2 > size - at) {
        sink.error(label, base + at - 8,
                   kPanic + "Incorrect ArealMap: " + std::to_string(grid.cells_x) + " x " +
                       std::to_string(grid.cells_y) + " cells cannot fit in the " +
                       std::to_string(size - at) + " bytes left");
        return false;
    }
    grid.cells.resize(size_t(cells));
    Limiter bad_id, too_many;
    uint64_t pool = 0;
    for (uint64_t c = 0; c < cells; ++c) {
        if (!in_range(at, 2, size)) {
            sink.error(label, base + at,
                       kPanic + "Incorrect ArealMap: grid cell " + std::to_string(c) +
                           " runs past the entry end");
            return false;
        }
        uint16_t hits = load<uint16_t>(payload.data() + at);
        if (!in_range(at + 2, 2 * uint64_t(hits), size)) {
            sink.error(label, base + at,
                       kPanic + "Incorrect ArealMap: grid cell (" +
                           std::to_string(c / grid.cells_y) + ", " +
                           std::to_string(c % grid.cells_y) + ") with " + std::to_string(hits) +
                           " ids runs past the entry end");
            return false;
        }
        if (hits > kMaxHits && too_many.take()) {
            sink.error(label, base + at,
                       "grid cell (" + std::to_string(c / grid.cells_y) + ", " +
                           std::to_string(c % grid.cells_y) + ") lists " + std::to_string(hits) +
                           " areals; the runtime packs at most 1023");
            ok = false;
        }
        std::vector<uint16_t>& cell = grid.cells[size_t(c)];
        cell.resize(hits);
        if (hits) std::memcpy(cell.data(), payload.data() + at + 2, 2 * size_t(hits));
        for (size_t h = 0; h < hits; ++h)
            if (cell[h] >= areal_count && bad_id.take()) {
                sink.error(label, base + at + 2 + 2 * h,
                           "grid cell (" + std::to_string(c / grid.cells_y) + ", " +
                               std::to_string(c % grid.cells_y) + ") names areal " +
                               std::to_string(cell[h]) + " but the map has " +
                               std::to_string(areal_count) + " areals");
                ok = false;
            }
        pool += hits;
        at += 2 + 2 * uint64_t(hits);
    }
    if (bad_id.dropped())
        sink.error(label, base, std::to_string(bad_id.dropped()) + " more grid ids out of range");
    if (pool > kMaxPool) {
        sink.error(label, base,
                   "the grid lists " + std::to_string(pool) +
                       " ids; the runtime pool holds at most 2^22 - 1");
        ok = false;
    }
    return true;
}

} // namespace

bool parse_payload(ByteView payload, uint32_t areal_count, std::vector<Areal>& areals, Grid& grid,
                   DiagnosticSink& sink, const std::string& label, uint64_t base) {
    const uint64_t size = payload.size();
    areals.clear();
    grid = Grid{};
    if (areal_count == 0) {
        sink.error(label, base,
                   kPanic + "Cannot load ArealMapGeometry: the areal count (attr1) is 0");
        return false;
    }
    // Each record is at least 56 bytes: refuse absurd counts before reserving.
    if (uint64_t(areal_count) * kPrefixSize > size) {
        sink.error(label, base,
                   kPanic + "Incorrect ArealMap: attr1 = " + std::to_string(areal_count) +
                       " areals cannot fit in " + std::to_string(size) + " bytes");
        return false;
    }
    areals.resize(areal_count);
    PayloadReader r{payload, size, 0, sink, label, base};
    for (uint32_t i = 0; i < areal_count; ++i)
        if (!r.areal(i, areals[i])) return false;
    bool ok = true;
    if (!r.grid(areal_count, grid, ok)) return false;
    const uint64_t at = r.at;
    if (at != size) {
        sink.error(label, base + at,
                   kPanic + "Incorrect ArealMap: parsing ended at byte " + std::to_string(at) +
                       " but the entry holds " + std::to_string(size) + " bytes");
        return false;
    }
    return ok;
}

Bytes encode_payload(const std::vector<Areal>& areals, const Grid& grid) {
    ByteWriter w;
    size_t total = 8;
    for (const Areal& a : areals) total += a.byte_size();
    for (const auto& c : grid.cells) total += 2 + 2 * c.size();
    w.bytes().reserve(total);
    for (const Areal& a : areals) {
        w.put(a.anchor);
        w.put(a.reserved12);
        w.put(a.area);
        w.put(a.normal);
        w.put(a.logic_flag);
        w.put(a.reserved36);
        w.put(a.class_id);
        w.put(a.reserved44);
        w.put(uint32_t(a.vertices.size()));
        w.put(uint32_t(a.sub_blocks.size()));
        for (const Vec3& v : a.vertices) w.put(v);
        for (const EdgeLink& l : a.links) w.put(l);
        for (const SubBlock& b : a.sub_blocks) {
            w.put(b.n());
            w.put_bytes(b.data);
        }
    }
    w.put(grid.cells_x);
    w.put(grid.cells_y);
    for (const auto& c : grid.cells) {
        w.put(uint16_t(c.size()));
        for (uint16_t id : c) w.put(id);
    }
    return w.take();
}

void validate(const ArealMap& map, DiagnosticSink& sink, const std::string& where) {
    if (!map.decoded) return;
    const bool strict = sink.mode() == ReadMode::Strict;
    const std::string label = where + ": ArealMap";
    uint64_t base = 0;
    if (auto i = map.container.find_type(kChunkType)) base = map.container.entries[*i].data_offset;
    const auto& areals = map.areals;
    std::vector<uint64_t> off = record_offsets(areals);
    Limiter bad_link, not_mutual, extra, soft;
    for (size_t i = 0; i < areals.size(); ++i) {
        const Areal& a = areals[i];
        const size_t v = a.vertices.size();
        const uint64_t links_at = base + off[i] + kPrefixSize + 12 * v;
        for (size_t k = 0; k < a.links.size(); ++k) {
            const EdgeLink& l = a.links[k];
            if (l.none()) continue;
            const uint64_t at = links_at + 8 * k;
            if (k >= v) { // one of the 3B extra links: validate area_ref only
                if ((l.area_ref < 0 || size_t(l.area_ref) >= areals.size()) && l.area_ref != -1 &&
                    extra.take())
                    sink.strict_error(label, at,
                                      "areal " + std::to_string(i) + ": extra link " +
                                          std::to_string(k - v) + " names areal " +
                                          std::to_string(l.area_ref) + " of " +
                                          std::to_string(areals.size()));
                continue;
            }
            bool valid = l.area_ref >= 0 && size_t(l.area_ref) < areals.size() && l.edge_ref >= 0 &&
                         size_t(l.edge_ref) < areals[size_t(l.area_ref)].vertices.size();
            if (!valid) {
                if (bad_link.take())
                    sink.strict_error(label, at,
                                      "areal " + std::to_string(i) + ": edge " + std::to_string(k) +
                                          " link (" + std::to_string(l.area_ref) + ", " +
                                          std::to_string(l.edge_ref) +
                                          ") is neither (-1, -1) nor a valid areal and edge");
                continue;
            }
            const Areal& o = areals[size_t(l.area_ref)];
            const EdgeLink back = o.links[size_t(l.edge_ref)];
            if ((back.area_ref != int32_t(i) || back.edge_ref != int32_t(k)) && not_mutual.take())
                sink.warn(label, at,
                          "areal " + std::to_string(i) + ": edge " + std::to_string(k) +
                              " links to areal " + std::to_string(l.area_ref) + " edge " +
                              std::to_string(l.edge_ref) + ", which links back to (" +
                              std::to_string(back.area_ref) + ", " + std::to_string(back.edge_ref) +
                              ") (not mutual)");
        }
        if (!strict) continue;
        const uint64_t at = base + off[i];
        double len = std::sqrt(double(a.normal.x) * a.normal.x + double(a.normal.y) * a.normal.y +
                               double(a.normal.z) * a.normal.z);
        if (!(std::fabs(len - 1.0) <= 1e-3) && soft.take())
            sink.warn(label, at + 20,
                      "areal " + std::to_string(i) + ": normal length " + std::to_string(len) +
                          " is not 1");
        if ((a.reserved12 != 0 || a.reserved36 != 0 || a.reserved44 != 0) && soft.take())
            sink.warn(label, at + 12, "areal " + std::to_string(i) + ": reserved fields are not 0");
        if (a.vertices.size() >= 3 && !point_in_polygon_xy(a.vertices, a.anchor.x, a.anchor.y) &&
            soft.take())
            sink.warn(label, at,
                      "areal " + std::to_string(i) + ": anchor (" + std::to_string(a.anchor.x) +
                          ", " + std::to_string(a.anchor.y) +
                          ") is not strictly inside the polygon");
        if (a.vertices.size() < 3 && soft.take())
            sink.warn(label, at + 48,
                      "areal " + std::to_string(i) + " has " + std::to_string(a.vertices.size()) +
                          " vertices");
    }
    if (bad_link.dropped())
        sink.strict_error(label, base, std::to_string(bad_link.dropped()) + " more bad links");
    if (extra.dropped())
        sink.strict_error(label, base, std::to_string(extra.dropped()) + " more bad extra links");
    if (not_mutual.dropped())
        sink.warn(label, base, std::to_string(not_mutual.dropped()) + " more non-mutual links");
    if (soft.dropped())
        sink.warn(label, base, std::to_string(soft.dropped()) + " more areal warnings");
}

ArealMap read(ByteView bytes, DiagnosticSink& sink, const std::string& where) {
    ArealMap map;
    map.container = nres::read(bytes, sink, where);
    const auto& es = map.container.entries;
    size_t found = 0, at = 0;
    for (size_t i = 0; i < es.size(); ++i)
        if (es[i].type == kChunkType && found++ == 0) at = i;
    if (found == 0) {
        sink.error(where, 0, kPanic + "Cannot find chunk in resource (no type-12 ArealMap entry)");
        return map;
    }
    if (es.size() != 1)
        sink.error(where, 0,
                   "Land.map must hold exactly one entry (type 12 ArealMap); it holds " +
                       std::to_string(es.size()) + " (" + std::to_string(found) + " of type 12)");
    const nres::Entry& e = es[at];
    const std::string label = where + ": ArealMap";
    if (e.name() != "ArealMap")
        sink.warn(label, e.data_offset, "entry is named '" + e.name() + "', expected 'ArealMap'");
    map.decoded = parse_payload(e.data, e.attr1, map.areals, map.grid, sink, label, e.data_offset);
    if (!map.decoded) {
        map.areals.clear();
        map.grid = Grid{};
        return map;
    }
    validate(map, sink, where);
    return map;
}

ArealMap read(ByteView bytes, ReadMode mode, const std::string& where) {
    DiagnosticSink sink(mode);
    ArealMap map = read(bytes, sink, where);
    if (mode == ReadMode::Strict) sink.throw_if_errors();
    return map;
}

void sync_container(ArealMap& map) {
    if (!map.decoded) return;
    auto i = map.container.find_type(kChunkType);
    if (!i) return;
    nres::Entry& e = map.container.entries[*i];
    Bytes data = encode_payload(map.areals, map.grid);
    if (data != e.data) e.data = std::move(data);
    e.attr1 = uint32_t(map.areals.size());
}

Bytes write(const ArealMap& map) {
    if (!map.decoded) return nres::write(map.container);
    ArealMap copy = map;
    sync_container(copy);
    return nres::write(copy.container);
}

void init_container(ArealMap& map) {
    map.container = nres::Archive{};
    nres::Entry e;
    e.type = kChunkType;
    e.set_name("ArealMap");
    map.container.entries.push_back(std::move(e));
    map.container.recompute_sort_index();
    map.decoded = true;
    sync_container(map);
}

Bytes write_canonical(const ArealMap& map) {
    ArealMap copy = map;
    sync_container(copy);
    return nres::write_canonical(copy.container);
}

// ---- Derived values ----

double signed_area_xy(const std::vector<Vec3>& poly) {
    double s = 0;
    const size_t n = poly.size();
    for (size_t i = 0; i < n; ++i) {
        const Vec3& a = poly[i];
        const Vec3& b = poly[(i + 1) % n];
        s += double(a.x) * double(b.y) - double(b.x) * double(a.y);
    }
    return s / 2;
}

double polygon_area_xy(const std::vector<Vec3>& poly) {
    return std::fabs(signed_area_xy(poly));
}

Vec3 polygon_normal(const std::vector<Vec3>& poly) {
    double nx = 0, ny = 0, nz = 0;
    const size_t n = poly.size();
    for (size_t i = 0; i < n; ++i) {
        const Vec3& a = poly[i];
        const Vec3& b = poly[(i + 1) % n];
        nx += (double(a.y) - b.y) * (double(a.z) + b.z);
        ny += (double(a.z) - b.z) * (double(a.x) + b.x);
        nz += (double(a.x) - b.x) * (double(a.y) + b.y);
    }
    double len = std::sqrt(nx * nx + ny * ny + nz * nz);
    if (len == 0) return {0, 0, 1};
    return {float(nx / len), float(ny / len), float(nz / len)};
}

bool is_convex_xy(const std::vector<Vec3>& poly) {
    const size_t n = poly.size();
    if (n < 3) return false;
    int sign = 0;
    for (size_t i = 0; i < n; ++i) {
        const Vec3& a = poly[i];
        const Vec3& b = poly[(i + 1) % n];
        const Vec3& c = poly[(i + 2) % n];
        double cross =
            (double(b.x) - a.x) * (double(c.y) - b.y) - (double(b.y) - a.y) * (double(c.x) - b.x);
        if (cross == 0) continue;
        int s = cross > 0 ? 1 : -1;
        if (sign == 0)
            sign = s;
        else if (s != sign)
            return false;
    }
    return sign != 0;
}

bool point_in_polygon_xy(const std::vector<Vec3>& poly, double x, double y) {
    const size_t n = poly.size();
    if (n < 3) return false;
    bool inside = false;
    for (size_t i = 0, j = n - 1; i < n; j = i++) {
        double xi = poly[i].x, yi = poly[i].y, xj = poly[j].x, yj = poly[j].y;
        // On the edge (within a tiny relative tolerance) counts as outside.
        double ex = xi - xj, ey = yi - yj;
        double len2 = ex * ex + ey * ey;
        if (len2 > 0) {
            double t = ((x - xj) * ex + (y - yj) * ey) / len2;
            if (t >= 0 && t <= 1) {
                double px = xj + t * ex - x, py = yj + t * ey - y;
                if (px * px + py * py <= 1e-12 * len2) return false;
            }
        } else if (x == xi && y == yi) {
            return false;
        }
        if ((yi > y) != (yj > y)) {
            double cx = xj + (y - yj) * (xi - xj) / (yi - yj);
            if (x < cx) inside = !inside;
        }
    }
    return inside;
}

Vec3 interior_anchor(const std::vector<Vec3>& poly) {
    const size_t n = poly.size();
    if (n == 0) return {};
    if (is_convex_xy(poly)) {
        // Area centroid.
        double a = 0, cx = 0, cy = 0;
        for (size_t i = 0; i < n; ++i) {
            const Vec3& p = poly[i];
            const Vec3& q = poly[(i + 1) % n];
            double c = double(p.x) * q.y - double(q.x) * p.y;
            a += c;
            cx += (double(p.x) + q.x) * c;
            cy += (double(p.y) + q.y) * c;
        }
        if (a != 0) {
            Vec3 r{float(cx / (3 * a)), float(cy / (3 * a)), 0};
            if (point_in_polygon_xy(poly, r.x, r.y)) return r;
        }
    }
    // Scanline through the middle of the widest band between distinct vertex y values.
    std::vector<double> ys;
    for (const Vec3& p : poly) ys.push_back(p.y);
    std::sort(ys.begin(), ys.end());
    ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
    double best_y = ys.front(), best_gap = -1;
    for (size_t i = 0; i + 1 < ys.size(); ++i)
        if (ys[i + 1] - ys[i] > best_gap) {
            best_gap = ys[i + 1] - ys[i];
            best_y = (ys[i] + ys[i + 1]) / 2;
        }
    std::vector<double> xs;
    for (size_t i = 0, j = n - 1; i < n; j = i++) {
        double yi = poly[i].y, yj = poly[j].y;
        if ((yi > best_y) != (yj > best_y))
            xs.push_back(double(poly[j].x) +
                         (best_y - yj) * (double(poly[i].x) - poly[j].x) / (yi - yj));
    }
    std::sort(xs.begin(), xs.end());
    double best_x = poly[0].x, best_w = -1;
    for (size_t i = 0; i + 1 < xs.size(); i += 2)
        if (xs[i + 1] - xs[i] > best_w) {
            best_w = xs[i + 1] - xs[i];
            best_x = (xs[i] + xs[i + 1]) / 2;
        }
    return {float(best_x), float(best_y), 0};
}

void apply_polygon_rules(Areal& a) {
    a.area = float(polygon_area_xy(a.vertices));
    a.normal = canonical_normal();
    a.anchor = interior_anchor(a.vertices);
    a.reserved12 = 0;
    a.reserved36 = 0;
    a.reserved44 = 0;
}

void rebuild_links(std::vector<Areal>& areals) {
    auto bits = [](float f) {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        return u;
    };
    auto key = [&](const Vec3& a, const Vec3& b) {
        return (uint64_t(bits(a.x)) << 32 | bits(a.y)) * 0x9E3779B97F4A7C15ull ^
               (uint64_t(bits(b.x)) << 32 | bits(b.y));
    };
    // Directed edge (XY of both ends) -> (areal, edge). Collisions of the 64-bit mix are
    // resolved by comparing the coordinates.
    std::unordered_multimap<uint64_t, std::pair<uint32_t, uint32_t>> open;
    for (Areal& a : areals) {
        if (a.links.size() < a.vertices.size()) a.links.resize(a.vertices.size());
        for (size_t k = 0; k < a.vertices.size(); ++k) a.links[k] = EdgeLink{};
    }
    auto same = [](const Vec3& p, const Vec3& q) { return p.x == q.x && p.y == q.y; };
    for (size_t i = 0; i < areals.size(); ++i) {
        Areal& a = areals[i];
        const size_t n = a.vertices.size();
        for (size_t k = 0; k < n; ++k) {
            const Vec3& p = a.vertices[k];
            const Vec3& q = a.vertices[(k + 1) % n];
            bool matched = false;
            auto range = open.equal_range(key(q, p));
            for (auto it = range.first; it != range.second; ++it) {
                auto [j, m] = it->second;
                const Areal& o = areals[j];
                const size_t on = o.vertices.size();
                if (same(o.vertices[m], q) && same(o.vertices[(m + 1) % on], p)) {
                    a.links[k] = {int32_t(j), int32_t(m)};
                    areals[j].links[m] = {int32_t(i), int32_t(k)};
                    open.erase(it);
                    matched = true;
                    break;
                }
            }
            if (!matched) open.emplace(key(p, q), std::make_pair(uint32_t(i), uint32_t(k)));
        }
    }
}

Grid rebuild_grid(const std::vector<Areal>& areals, uint32_t cells_x, uint32_t cells_y) {
    Grid g;
    g.cells_x = cells_x;
    g.cells_y = cells_y;
    g.cells.assign(size_t(cells_x) * cells_y, {});
    double min_x = std::numeric_limits<double>::infinity(), min_y = min_x;
    double max_x = -min_x, max_y = -min_x;
    for (const Areal& a : areals)
        for (const Vec3& v : a.vertices) {
            min_x = std::min(min_x, double(v.x));
            max_x = std::max(max_x, double(v.x));
            min_y = std::min(min_y, double(v.y));
            max_y = std::max(max_y, double(v.y));
        }
    if (!(max_x > min_x) || !(max_y > min_y) || cells_x == 0 || cells_y == 0) return g;
    const double wx = (max_x - min_x) / cells_x, wy = (max_y - min_y) / cells_y;
    auto lo_x = [&](uint32_t i) { return min_x + i * wx; };
    auto lo_y = [&](uint32_t j) { return min_y + j * wy; };
    for (size_t id = 0; id < areals.size(); ++id) {
        const Areal& a = areals[id];
        if (a.vertices.empty()) continue;
        double ax0 = a.vertices[0].x, ax1 = ax0, ay0 = a.vertices[0].y, ay1 = ay0;
        for (const Vec3& v : a.vertices) {
            ax0 = std::min(ax0, double(v.x));
            ax1 = std::max(ax1, double(v.x));
            ay0 = std::min(ay0, double(v.y));
            ay1 = std::max(ay1, double(v.y));
        }
        // Candidate range with one cell of margin, then the exact open-interval test.
        auto clampi = [](double v, uint32_t n) {
            return uint32_t(std::clamp(v, 0.0, double(n - 1)));
        };
        uint32_t i0 = clampi(std::floor((ax0 - min_x) / wx) - 1, cells_x),
                 i1 = clampi(std::floor((ax1 - min_x) / wx) + 1, cells_x);
        uint32_t j0 = clampi(std::floor((ay0 - min_y) / wy) - 1, cells_y),
                 j1 = clampi(std::floor((ay1 - min_y) / wy) + 1, cells_y);
        for (uint32_t i = i0; i <= i1; ++i) {
            double cx0 = lo_x(i), cx1 = i + 1 == cells_x ? max_x : lo_x(i + 1);
            if (!(ax0 < cx1 && ax1 > cx0)) continue;
            for (uint32_t j = j0; j <= j1; ++j) {
                double cy0 = lo_y(j), cy1 = j + 1 == cells_y ? max_y : lo_y(j + 1);
                if (!(ay0 < cy1 && ay1 > cy0)) continue;
                g.cells[size_t(i) * cells_y + j].push_back(uint16_t(id));
            }
        }
    }
    return g;
}

} // namespace msh::arealmap
