#include "terrain_gen.hpp"

#include "formats/terrain_flags.hpp"
#include "samples/rng.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace msh::samples {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Face flags (terrain.md §4/§5). Water is documented; land and build-area values are our
// choice (unverified): the water mask without the water bit, plus 0x200000 for build areas.
constexpr uint32_t kLandFlags = 0x00000608;
constexpr uint32_t kBuildFlags = 0x00200608;

// Land1.wea rows (materialId) and Land2.wea rows (auxByte).
enum Layer1 : uint8_t { kGrass1, kGrass2, kRock1, kSand1, kWater1, kDirt1 };
const std::vector<std::string> kLayer1Names = {"GRASS1", "GRASS2", "ROCK1",
                                               "SAND1",  "WATER1", "DIRT1"};
enum Layer2 : uint8_t { kDirt2, kRock2, kGrass3 };
const std::vector<std::string> kLayer2Names = {"DIRT2", "ROCK2", "GRASS3"};

double smoothstep(double e0, double e1, double x) {
    double t = std::clamp((x - e0) / (e1 - e0), 0.0, 1.0);
    return t * t * (3 - 2 * t);
}

// ---- Height field: hills, ridges, a river carved below the water level, flat build areas ----

struct Blob {
    double x, y, r, h;
};

class HeightField {
  public:
    HeightField(const MapSpec& spec, Rng& rng) : side_(spec.side), z_max_(spec.z_max) {
        int hills = rng.range(7, 14);
        for (int i = 0; i < hills; ++i)
            hills_.push_back({rng.uniform(0, side_), rng.uniform(0, side_),
                              rng.uniform(0.06, 0.2) * side_, rng.uniform(0.3, 1.0) * spec.z_max});
        ridge_a_ = rng.uniform(2.0, 5.0);
        ridge_lx_ = side_ / rng.uniform(3, 7);
        ridge_ly_ = side_ / rng.uniform(3, 7);
        river_y0_ = side_ * rng.uniform(0.3, 0.7);
        river_a_ = side_ * rng.uniform(0.05, 0.12);
        river_l_ = side_ / rng.uniform(0.8, 1.6);
        river_phase_ = rng.uniform(0, 2 * kPi);
        river_w_ = side_ * 0.03;
        int plateaus = rng.range(2, 4);
        for (int tries = 0; int(plateaus_.size()) < plateaus && tries < 200; ++tries) {
            double x = rng.uniform(0.15, 0.85) * side_, y = rng.uniform(0.15, 0.85) * side_;
            if (river_distance(x, y) < 0.15 * side_) continue;
            double r = rng.uniform(0.04, 0.07) * side_;
            bool clash = false;
            for (const Blob& b : plateaus_)
                clash |= std::hypot(b.x - x, b.y - y) < b.r + r + 0.05 * side_;
            if (clash) continue;
            plateaus_.push_back({x, y, r, raw(x, y)});
        }
        mask_.clear();
        for (int i = 0; i < 6; ++i)
            mask_.push_back(
                {rng.uniform(0, side_), rng.uniform(0, side_), rng.uniform(0.05, 0.15) * side_, 1});
    }

    double water_level() const { return kWater; }
    double river_distance(double x, double y) const {
        return std::fabs(y -
                         (river_y0_ + river_a_ * std::sin(2 * kPi * x / river_l_ + river_phase_)));
    }
    double river_half_width() const { return river_w_; }
    // Surface height: never below the water level (the river surface is flat).
    double height(double x, double y) const {
        double h = raw(x, y);
        for (const Blob& p : plateaus_) {
            double d = std::hypot(x - p.x, y - p.y);
            if (d < p.r * 1.4) h = p.h + (h - p.h) * smoothstep(p.r, p.r * 1.4, d);
        }
        double d = river_distance(x, y);
        if (d < 3 * river_w_) h = kBed + (h - kBed) * smoothstep(river_w_, 3 * river_w_, d);
        return std::max(h, kWater);
    }
    bool in_build_area(double x, double y) const {
        for (const Blob& p : plateaus_)
            if (std::hypot(x - p.x, y - p.y) <= p.r) return true;
        return false;
    }
    // Second-layer mask in 0..1 (dirt and rock patches).
    double layer2_mask(double x, double y) const {
        double m = 0;
        for (const Blob& b : mask_) {
            double dx = (x - b.x) / b.r, dy = (y - b.y) / b.r;
            m += std::exp(-(dx * dx + dy * dy));
        }
        m += 0.25 * (std::sin(x * 0.021) * std::cos(y * 0.017) + 1) / 2;
        return std::min(1.0, m);
    }

  private:
    static constexpr double kWater = 5.0, kBed = 1.0;
    double side_, z_max_;
    std::vector<Blob> hills_, plateaus_, mask_;
    double ridge_a_, ridge_lx_, ridge_ly_;
    double river_y0_, river_a_, river_l_, river_phase_, river_w_;

    double raw(double x, double y) const {
        double sum = 0;
        for (const Blob& b : hills_) {
            double dx = (x - b.x) / b.r, dy = (y - b.y) / b.r;
            sum += b.h * std::exp(-(dx * dx + dy * dy));
        }
        // Overlapping hills saturate below z_max.
        const double top = z_max_ - 20;
        return 14 +
               ridge_a_ * std::sin(2 * kPi * x / ridge_lx_) * std::cos(2 * kPi * y / ridge_ly_) +
               top * (1 - std::exp(-sum / top));
    }
};

// ---- Terrain: tiles of 2 x 2 quads, each tile with its own vertices (duplicated on tile seams,
// which gives the corpus' faces/vertices ratio of about 0.9) ----

enum class Tile : uint8_t { Plain, Fine, Split }; // 9 v / 8 f, 13 v / 16 f, 16 v / 8 f

struct TileMix {
    int t = 0; // tiles per side
    int fine = 0, split = 0;
};

constexpr int kMaxFaces = 65535, kMaxVertices = 65536;

// Chooses the tile count and mix whose vertex and face totals come closest to the targets.
TileMix solve_mix(int vertices, int faces) {
    TileMix best;
    double best_err = 1e300;
    for (int t = 2; t <= 120; ++t) {
        int n = t * t;
        double b = (double(faces) / n - 8) / 8;
        double c = (double(vertices) / n - 9 - 4 * b) / 7;
        b = std::clamp(b, 0.0, 1.0);
        c = std::clamp(c, 0.0, 1.0 - b);
        int nb = int(std::lround(b * n)), nc = int(std::lround(c * n));
        // The format's ceilings (terrain.md §4): at most 65,535 faces (u16 face references,
        // 0xFFFF = none) and 65,536 vertices (u16 vertex indices).
        if (8 * n > kMaxFaces || 9 * n > kMaxVertices) continue;
        nb = std::min(nb, (kMaxFaces - 8 * n) / 8);
        nc = std::min(nc, (kMaxVertices - 9 * n - 4 * nb) / 7);
        double v = 9.0 * n + 4.0 * nb + 7.0 * nc, f = 8.0 * n + 8.0 * nb;
        double err = std::fabs(v - vertices) / vertices + std::fabs(f - faces) / faces;
        if (err < best_err) {
            best_err = err;
            best = {t, nb, nc};
        }
    }
    return best;
}

terrain::Vec3 to_vec(double x, double y, double z) {
    return {float(x), float(y), float(z)};
}

terrain::Terrain build_terrain(const MapSpec& spec, const HeightField& field, Rng& rng) {
    using namespace terrain;
    TileMix mix = solve_mix(spec.vertices, spec.faces);
    const int T = mix.t;
    const double step = spec.side / (4.0 * T); // lattice step: a quarter of a tile
    auto lat = [&](int g) { return g == 4 * T ? spec.side : g * step; };

    // Tile kinds: split tiles along the river (water surface and shore), fine tiles where the
    // relief is roughest, plain elsewhere.
    const int n = T * T;
    std::vector<Tile> kind(static_cast<size_t>(n), Tile::Plain);
    {
        std::vector<int> order(static_cast<size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        auto centre = [&](int i, double& x, double& y) {
            x = (i / T + 0.5) * spec.side / T;
            y = (i % T + 0.5) * spec.side / T;
        };
        std::vector<double> river(static_cast<size_t>(n)), rough(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            double x, y;
            centre(i, x, y);
            river[size_t(i)] = field.river_distance(x, y) + rng.uniform(0, 1e-3);
            double h = spec.side / T / 2;
            rough[size_t(i)] = std::fabs(field.height(x + h, y) - field.height(x - h, y)) +
                               std::fabs(field.height(x, y + h) - field.height(x, y - h)) +
                               rng.uniform(0, 1e-3);
        }
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return river[size_t(a)] < river[size_t(b)]; });
        for (int i = 0; i < mix.split && i < n; ++i) kind[size_t(order[size_t(i)])] = Tile::Split;
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return rough[size_t(a)] > rough[size_t(b)]; });
        int placed = 0;
        for (int i = 0; i < n && placed < mix.fine; ++i)
            if (kind[size_t(order[size_t(i)])] == Tile::Plain) {
                kind[size_t(order[size_t(i)])] = Tile::Fine;
                ++placed;
            }
    }

    Terrain t;
    const int sx = std::min(spec.slots_x, T), sy = std::min(spec.slots_y, T);
    const size_t slot_count = size_t(sx * sy);
    std::vector<std::vector<int>> slot_tiles(slot_count);
    for (int tx = 0; tx < T; ++tx)
        for (int ty = 0; ty < T; ++ty)
            slot_tiles[size_t((tx * sx / T) * sy + ty * sy / T)].push_back(tx * T + ty);

    std::vector<double> vertex_x, vertex_y; // exact lattice coordinates (for the masks)
    std::vector<size_t> tile_end;           // face index after each tile (type-11 groups)
    auto add_vertex = [&](int tx, int ty, int gx, int gy) {
        double x = lat(4 * tx + gx), y = lat(4 * ty + gy);
        double z = field.height(x, y);
        t.positions.push_back(to_vec(x, y, z));
        // Normal from the surface gradient.
        double e = step;
        double dzdx = (field.height(x + e, y) - field.height(x - e, y)) / (2 * e);
        double dzdy = (field.height(x, y + e) - field.height(x, y - e)) / (2 * e);
        double len = std::sqrt(dzdx * dzdx + dzdy * dzdy + 1);
        t.normals.push_back({encode_normal_component(float(-dzdx / len)),
                             encode_normal_component(float(-dzdy / len)),
                             encode_normal_component(float(1 / len)), 0});
        // Layer 1: tile-local UV (u along +X, v along -Y); layer 2: microtexture, 4 repeats.
        float u = float(gx / 4.0), v = float(1 - gy / 4.0);
        t.uv1.push_back({encode_uv(u), encode_uv(v)});
        t.uv2.push_back({encode_uv(u * 4), encode_uv(v * 4)});
        vertex_x.push_back(x);
        vertex_y.push_back(y);
        return uint16_t(t.positions.size() - 1);
    };
    auto add_face = [&](uint16_t a, uint16_t b, uint16_t c) {
        Face f;
        f.v = {a, b, c};
        t.faces.push_back(f);
    };

    t.slots.resize(slot_count);
    for (size_t s = 0; s < slot_count; ++s) {
        t.slots[s].tri_start = uint16_t(t.faces.size());
        for (int tile : slot_tiles[s]) {
            const int tx = tile / T, ty = tile % T;
            const Tile k = kind[size_t(tile)];
            if (k == Tile::Split) {
                for (int qx = 0; qx < 2; ++qx)
                    for (int qy = 0; qy < 2; ++qy) {
                        uint16_t a = add_vertex(tx, ty, 2 * qx, 2 * qy),
                                 b = add_vertex(tx, ty, 2 * qx + 2, 2 * qy);
                        uint16_t c = add_vertex(tx, ty, 2 * qx + 2, 2 * qy + 2),
                                 d = add_vertex(tx, ty, 2 * qx, 2 * qy + 2);
                        if ((qx + qy) % 2 == 0) {
                            add_face(a, b, c);
                            add_face(a, c, d);
                        } else {
                            add_face(a, b, d);
                            add_face(b, c, d);
                        }
                    }
            } else {
                uint16_t g[3][3];
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) g[i][j] = add_vertex(tx, ty, 2 * i, 2 * j);
                for (int qx = 0; qx < 2; ++qx)
                    for (int qy = 0; qy < 2; ++qy) {
                        uint16_t a = g[qx][qy], b = g[qx + 1][qy], c = g[qx + 1][qy + 1],
                                 d = g[qx][qy + 1];
                        if (k == Tile::Fine) {
                            uint16_t m = add_vertex(tx, ty, 2 * qx + 1, 2 * qy + 1);
                            add_face(a, b, m);
                            add_face(b, c, m);
                            add_face(c, d, m);
                            add_face(d, a, m);
                        } else if ((qx + qy) % 2 == 0) {
                            add_face(a, b, c);
                            add_face(a, c, d);
                        } else {
                            add_face(a, b, d);
                            add_face(b, c, d);
                        }
                    }
            }
            tile_end.push_back(t.faces.size());
        }
        t.slots[s].tri_count = uint16_t(t.faces.size() - t.slots[s].tri_start);
    }
    if (t.positions.size() > size_t(kMaxVertices) || t.faces.size() > size_t(kMaxFaces))
        throw std::logic_error("terrain_gen: map exceeds the u16 index range");

    rebuild_neighbours(t);

    // Face attributes.
    const float wl = float(field.water_level());
    std::vector<double> mask(t.faces.size(), -1);
    for (size_t i = 0; i < t.faces.size(); ++i) {
        Face& f = t.faces[i];
        const Vec3 &a = t.positions[f.v[0]], &b = t.positions[f.v[1]], &c = t.positions[f.v[2]];
        f.normal = packed_face_normal(a, b, c);
        double cx = (vertex_x[f.v[0]] + vertex_x[f.v[1]] + vertex_x[f.v[2]]) / 3;
        double cy = (vertex_y[f.v[0]] + vertex_y[f.v[1]] + vertex_y[f.v[2]]) / 3;
        double cz = (double(a.z) + b.z + c.z) / 3;
        bool water = a.z == wl && b.z == wl && c.z == wl;
        bool build = true;
        for (uint16_t v : f.v) build &= field.in_build_area(vertex_x[v], vertex_y[v]);
        f.unk06 = 0xFFFF;
        f.unk27 = 0;
        if (water) {
            f.flags = terrain_flags::kWaterFaceFlags;
            f.material = kWater1;
            continue;
        }
        f.flags = build ? kBuildFlags : kLandFlags;
        double nz = decode_face_normal(f.normal[2]);
        if (build)
            f.material = kDirt1;
        else if (nz < 0.8)
            f.material = kRock1;
        else if (cz < wl + 3)
            f.material = kSand1;
        else if (cz > 0.45 * spec.z_max)
            f.material = kGrass2;
        else
            f.material = kGrass1;
        mask[i] = field.layer2_mask(cx, cy) + 1e-9 * double(i % 97);
    }
    // Second layer on the `layer2` fraction of faces with the strongest mask (land only).
    {
        std::vector<size_t> land;
        for (size_t i = 0; i < mask.size(); ++i)
            if (mask[i] >= 0) land.push_back(i);
        size_t want =
            std::min(land.size(), size_t(std::lround(spec.layer2 * double(t.faces.size()))));
        std::stable_sort(land.begin(), land.end(),
                         [&](size_t a, size_t b) { return mask[a] > mask[b]; });
        for (size_t k = 0; k < want; ++k) {
            Face& f = t.faces[land[k]];
            f.aux = f.material == kRock1 ? kRock2 : f.material == kGrass2 ? kGrass3 : kDirt2;
        }
    }
    // Edge classes (unverified semantics): 1 = map border, 2 = water/land boundary, 0 otherwise.
    for (Face& f : t.faces) {
        uint8_t ec = 0;
        for (size_t k = 0; k < 3; ++k) {
            uint8_t c = 0;
            if (f.n[k] == kNone)
                c = 1;
            else if ((t.faces[f.n[k]].flags ^ f.flags) & terrain_flags::kWaterBit)
                c = 2;
            ec = uint8_t(ec | (c << (2 * k)));
        }
        f.edge_class = ec;
    }
    // Type 14: layer-1 weight, exactly 1.0 unless a layer-2 face touches the vertex.
    t.weights.assign(t.positions.size(), weight_raw(1.0f));
    for (const Face& f : t.faces) {
        if (f.aux == kNoLayer2) continue;
        for (uint16_t v : f.v) {
            double m = field.layer2_mask(vertex_x[v], vertex_y[v]);
            t.weights[v] = weight_raw(float(0.15 + 0.7 * (1 - m)));
        }
    }
    // Type 11: one pair per face (key = face index); a one-face first group then one group per
    // tile, 0x10 ending a group; first pairs (0, 0x58), (1, 0x48) as on every shipped map.
    t.cell_pairs.resize(t.faces.size());
    for (size_t i = 0; i < t.faces.size(); ++i) t.cell_pairs[i] = {uint16_t(i), 0x48};
    t.cell_pairs[0].flags = 0x58;
    for (size_t e : tile_end)
        if (e > 1) t.cell_pairs[e - 1].flags = 0x58;
    // Shipped maps may hold more type-11 pairs than faces (terrain.md §6): on every other map a
    // trailing group no slot addresses, with keys past the face count (opaque shade-cache keys).
    // (Chosen from the vertex count, not the random stream, so the rest of the map is unchanged.)
    if (t.positions.size() % 2 == 1)
        for (size_t k = 0, extra = 2 + t.faces.size() % 6; k < extra; ++k)
            t.cell_pairs.push_back({uint16_t(std::min<size_t>(t.faces.size() + k, 0xFFFF)),
                                    uint16_t(k + 1 == extra ? 0x58 : 0x48)});

    // Nodes: one per slot, mostly 0xFF bytes, first slot word = the slot.
    t.nodes.resize(slot_count);
    for (size_t s = 0; s < slot_count; ++s) {
        t.nodes[s].words.fill(0xFFFF);
        t.nodes[s].words[4] = uint16_t(s);
    }
    // Slot bounds (msh.md §11 rules: AABB, sphere around its centre, tail +48 area, +52 volume).
    double gmin[3] = {1e300, 1e300, 1e300}, gmax[3] = {-1e300, -1e300, -1e300};
    for (Slot& s : t.slots) {
        double mn[3] = {1e300, 1e300, 1e300}, mx[3] = {-1e300, -1e300, -1e300};
        double area = 0;
        for (size_t i = s.tri_start; i < size_t(s.tri_start) + s.tri_count; ++i) {
            const Face& f = t.faces[i];
            for (uint16_t v : f.v) {
                const Vec3& p = t.positions[v];
                double c[3] = {p.x, p.y, p.z};
                for (int k = 0; k < 3; ++k) {
                    mn[k] = std::min(mn[k], c[k]);
                    mx[k] = std::max(mx[k], c[k]);
                }
            }
            const Vec3 &a = t.positions[f.v[0]], &b = t.positions[f.v[1]], &c = t.positions[f.v[2]];
            double ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z, vx = c.x - a.x, vy = c.y - a.y,
                   vz = c.z - a.z;
            area +=
                0.5 * std::sqrt(std::pow(uy * vz - uz * vy, 2) + std::pow(uz * vx - ux * vz, 2) +
                                std::pow(ux * vy - uy * vx, 2));
        }
        double ctr[3], r = 0;
        for (int k = 0; k < 3; ++k) {
            s.aabb_min[size_t(k)] = float(mn[k]);
            s.aabb_max[size_t(k)] = float(mx[k]);
            ctr[k] = (mn[k] + mx[k]) / 2;
            gmin[k] = std::min(gmin[k], mn[k]);
            gmax[k] = std::max(gmax[k], mx[k]);
        }
        for (size_t i = s.tri_start; i < size_t(s.tri_start) + s.tri_count; ++i)
            for (uint16_t v : t.faces[i].v) {
                const Vec3& p = t.positions[v];
                r = std::max(r, std::hypot(p.x - ctr[0], p.y - ctr[1], p.z - ctr[2]));
            }
        s.sphere = {float(ctr[0]), float(ctr[1]), float(ctr[2]), float(r)};
        s.tail = {weight_raw(float(area)),
                  weight_raw(float((mx[0] - mn[0]) * (mx[1] - mn[1]) * (mx[2] - mn[2]))), 0, 0, 0};
    }
    for (int i = 0; i < 8; ++i) {
        t.header.hull[size_t(3 * i)] = float(i & 1 ? gmax[0] : gmin[0]);
        t.header.hull[size_t(3 * i + 1)] = float(i & 2 ? gmax[1] : gmin[1]);
        t.header.hull[size_t(3 * i + 2)] = float(i & 4 ? gmax[2] : gmin[2]);
    }
    double c[3] = {(gmin[0] + gmax[0]) / 2, (gmin[1] + gmax[1]) / 2, (gmin[2] + gmax[2]) / 2};
    double r = 0;
    for (const Vec3& p : t.positions)
        r = std::max(r, std::hypot(p.x - c[0], p.y - c[1], p.z - c[2]));
    t.header.sphere = {float(c[0]), float(c[1]), float(c[2]), float(r)};
    t.header.capsule = {float(c[0]),
                        float(c[1]),
                        float(gmin[2]),
                        float(c[0]),
                        float(c[1]),
                        float(gmax[2]),
                        float(std::hypot((gmax[0] - gmin[0]) / 2, (gmax[1] - gmin[1]) / 2))};
    init_container(t, 1);
    return t;
}

// ---- Areals: a jittered lattice of cells grouped into polyominoes of 1..6 cells (up to 14
// vertices), single cells sometimes split into two triangles ----

struct ArealLayout {
    int cells = 0;                                          // lattice cells per side
    std::vector<std::vector<std::pair<int, int>>> polygons; // lattice points, counter-clockwise
};

ArealLayout grow_areals(int L, Rng& rng) {
    ArealLayout out;
    out.cells = L;
    std::vector<int> owner(size_t(L * L), -1);
    auto id = [&](int i, int j) { return i * L + j; };
    auto in = [&](int i, int j, int r) {
        return i >= 0 && j >= 0 && i < L && j < L && owner[size_t(id(i, j))] == r;
    };
    // A lattice point where the region touches itself only diagonally makes a non-simple polygon.
    auto pinched = [&](int i, int j, int r) {
        for (int di = 0; di <= 1; ++di)
            for (int dj = 0; dj <= 1; ++dj) {
                int px = i + di,
                    py = j + dj; // lattice point; cells around it: (px-1..px, py-1..py)
                bool a = in(px - 1, py - 1, r), b = in(px, py - 1, r), c = in(px, py, r),
                     d = in(px - 1, py, r);
                if ((a && c && !b && !d) || (b && d && !a && !c)) return true;
            }
        return false;
    };
    const double weights[] = {0.30, 0.25, 0.20, 0.13, 0.08, 0.04};
    int regions = 0;
    std::vector<std::vector<int>> cells_of;
    for (int i = 0; i < L; ++i)
        for (int j = 0; j < L; ++j) {
            if (owner[size_t(id(i, j))] != -1) continue;
            double u = rng.unit(), acc = 0;
            int size = 6;
            for (int s = 0; s < 6; ++s)
                if (u < (acc += weights[s])) {
                    size = s + 1;
                    break;
                }
            int r = regions++;
            owner[size_t(id(i, j))] = r;
            std::vector<int> members = {id(i, j)};
            while (int(members.size()) < size) {
                std::vector<int> cand;
                for (int m : members) {
                    int mi = m / L, mj = m % L;
                    const int d4[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                    for (auto& d : d4) {
                        int ni = mi + d[0], nj = mj + d[1];
                        if (ni < 0 || nj < 0 || ni >= L || nj >= L ||
                            owner[size_t(id(ni, nj))] != -1)
                            continue;
                        cand.push_back(id(ni, nj));
                    }
                }
                std::sort(cand.begin(), cand.end());
                cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
                bool added = false;
                while (!cand.empty() && !added) {
                    size_t k = size_t(rng.next() % cand.size());
                    int c = cand[k];
                    owner[size_t(c)] = r;
                    if (pinched(c / L, c % L, r)) {
                        owner[size_t(c)] = -1;
                        cand.erase(cand.begin() + ptrdiff_t(k));
                    } else {
                        members.push_back(c);
                        added = true;
                    }
                }
                if (!added) break;
            }
            cells_of.push_back(members);
        }
    for (int r = 0; r < regions; ++r) {
        const auto& members = cells_of[size_t(r)];
        if (members.size() == 1 && rng.chance(0.5)) {
            int i = members[0] / L, j = members[0] % L;
            if (rng.chance(0.5)) {
                out.polygons.push_back({{i, j}, {i + 1, j}, {i + 1, j + 1}});
                out.polygons.push_back({{i, j}, {i + 1, j + 1}, {i, j + 1}});
            } else {
                out.polygons.push_back({{i, j}, {i + 1, j}, {i, j + 1}});
                out.polygons.push_back({{i + 1, j}, {i + 1, j + 1}, {i, j + 1}});
            }
            continue;
        }
        // Directed boundary edges, counter-clockwise around each cell; one outgoing per point.
        std::vector<std::pair<std::pair<int, int>, std::pair<int, int>>> edges;
        for (int m : members) {
            int i = m / L, j = m % L;
            if (!in(i, j - 1, r)) edges.push_back({{i, j}, {i + 1, j}});
            if (!in(i + 1, j, r)) edges.push_back({{i + 1, j}, {i + 1, j + 1}});
            if (!in(i, j + 1, r)) edges.push_back({{i + 1, j + 1}, {i, j + 1}});
            if (!in(i - 1, j, r)) edges.push_back({{i, j + 1}, {i, j}});
        }
        std::sort(edges.begin(), edges.end());
        std::vector<std::pair<int, int>> poly;
        auto start = edges.front().first;
        auto cur = start;
        do {
            poly.push_back(cur);
            auto it = std::lower_bound(edges.begin(), edges.end(),
                                       std::make_pair(cur, std::make_pair(INT32_MIN, INT32_MIN)));
            cur = it->second;
        } while (cur != start && poly.size() <= edges.size());
        out.polygons.push_back(std::move(poly));
    }
    return out;
}

arealmap::ArealMap build_areals(const MapSpec& spec, const HeightField& field, Rng& rng) {
    // Pick the lattice size whose region growth lands nearest the areal target.
    int L = std::max(2, int(std::lround(std::sqrt(2.2 * spec.areals))));
    ArealLayout layout;
    for (int pass = 0; pass < 4; ++pass) {
        Rng trial(rng.next());
        layout = grow_areals(L, trial);
        if (pass == 3) break;
        int got = int(layout.polygons.size());
        if (std::abs(got - spec.areals) <= std::max(3, spec.areals / 50)) break;
        int next = std::max(2, int(std::lround(L * std::sqrt(double(spec.areals) / got))));
        if (next == L) break;
        L = next;
    }
    // Jittered lattice; border points slide along the border only, corners stay.
    L = layout.cells;
    const double cell = spec.side / L;
    std::vector<arealmap::Vec3> pts(size_t((L + 1) * (L + 1)));
    for (int i = 0; i <= L; ++i)
        for (int j = 0; j <= L; ++j) {
            double x = i == L ? spec.side : i * cell, y = j == L ? spec.side : j * cell;
            double jx = rng.uniform(-0.2, 0.2) * cell, jy = rng.uniform(-0.2, 0.2) * cell;
            if (i > 0 && i < L) x += jx;
            if (j > 0 && j < L) y += jy;
            float fx = float(x), fy = float(y);
            pts[size_t(i * (L + 1) + j)] = {fx, fy, float(field.height(fx, fy))};
        }
    arealmap::ArealMap map;
    map.areals.resize(layout.polygons.size());
    for (size_t a = 0; a < layout.polygons.size(); ++a) {
        arealmap::Areal& ar = map.areals[a];
        for (auto [i, j] : layout.polygons[a]) ar.vertices.push_back(pts[size_t(i * (L + 1) + j)]);
        ar.logic_flag = 1;
        ar.class_id = 1;
        arealmap::apply_polygon_rules(ar);
    }
    arealmap::rebuild_links(map.areals);
    map.grid = arealmap::rebuild_grid(map.areals);
    arealmap::init_container(map);
    return map;
}

} // namespace

std::vector<MapSpec> map_specs(bool include_stress) {
    // Figures of terrain.md §11 (AutoMAP, PROL, Tut_1..Tut_4); names are ours.
    std::vector<MapSpec> specs = {
        {"SynAuto", 1190.7, 3051, 3174, 343, 16, 8, 94.5, 0.12},
        {"SynProl", 2048.0, 11125, 9234, 731, 8, 8, 180.0, 0.22},
        {"SynTut1", 1600.0, 8827, 8290, 378, 8, 8, 120.0, 0.09},
        {"SynTut2", 1800.0, 9456, 8996, 900, 16, 8, 150.0, 0.28},
        {"SynTut3", 2200.0, 9833, 8560, 722, 8, 8, 288.0, 0.17},
        {"SynTut4", 1400.0, 9022, 8612, 737, 16, 8, 110.0, 0.14},
    };
    if (include_stress) specs.push_back(stress_map_spec());
    return specs;
}

MapSpec stress_map_spec() {
    // About 7 times the largest shipped map; the tile mix reaching closest to 65,535 faces.
    return {"SynStress", 2490.0, 60000, 65535, 8000, 16, 8, 300.0, 0.2};
}

Bytes wear_text(const std::vector<std::string>& names) {
    std::string s = std::to_string(names.size()) + "\r\n";
    for (size_t i = 0; i < names.size(); ++i) s += std::to_string(i) + " " + names[i] + "\r\n";
    return Bytes(s.begin(), s.end());
}

GeneratedMap build_map(const MapSpec& spec, uint64_t seed) {
    GeneratedMap m;
    m.spec = spec;
    Rng rng(seed, "terrain/" + spec.name);
    HeightField field(spec, rng);
    m.terrain = build_terrain(spec, field, rng);
    m.areal_map = build_areals(spec, field, rng);
    m.layer1 = kLayer1Names;
    m.layer2 = kLayer2Names;
    m.land_msh = terrain::write_canonical(m.terrain);
    m.land_map = arealmap::write_canonical(m.areal_map);
    m.land1_wea = wear_text(m.layer1);
    m.land2_wea = wear_text(m.layer2);
    return m;
}

std::vector<GeneratedFile> generate_map(const MapSpec& spec, uint64_t seed) {
    GeneratedMap m = build_map(spec, seed);
    const std::string dir = "DATA/MAPS/" + spec.name + "/";
    std::vector<GeneratedFile> files;
    files.push_back({dir + "Land.msh", std::move(m.land_msh)});
    files.push_back({dir + "Land.map", std::move(m.land_map)});
    files.push_back({dir + "Land1.wea", std::move(m.land1_wea)});
    files.push_back({dir + "Land2.wea", std::move(m.land2_wea)});
    return files;
}

std::vector<GeneratedFile> generate_maps(uint64_t seed, bool include_stress) {
    std::vector<GeneratedFile> files;
    for (const MapSpec& spec : map_specs(include_stress))
        for (GeneratedFile& f : generate_map(spec, seed)) files.push_back(std::move(f));
    return files;
}

} // namespace msh::samples
