#include "shells.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

namespace msh::render {

namespace {

// Union-find over the triangles.
struct Groups {
    std::vector<uint32_t> parent;
    explicit Groups(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
    uint32_t find(uint32_t t) {
        while (parent[t] != t) t = parent[t] = parent[parent[t]];
        return t;
    }
    void join(uint32_t a, uint32_t b) {
        a = find(a), b = find(b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
};

// A position's bits (+0 for -0), the key that joins vertices at exactly the same place.
std::array<uint32_t, 3> position_key(const Vec3& p) {
    std::array<uint32_t, 3> key{};
    for (int i = 0; i < 3; ++i) {
        const float v = p[size_t(i)] + 0.0f;
        std::memcpy(&key[size_t(i)], &v, sizeof v);
    }
    return key;
}

bool finite(const Vec3& p) {
    return std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]);
}

// A 64-bit mix (the finaliser of MurmurHash3): the table's slot of a key.
uint64_t mix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}
uint64_t hash_of(const std::array<uint32_t, 3>& k) {
    return mix64((uint64_t(k[0]) << 32 | k[1]) ^ mix64(k[2]));
}
uint64_t hash_of(uint64_t k) {
    return mix64(k);
}

// Keys numbered in the order they are first added: an open-addressing table (linear probing,
// at most half full). Vertices and edges are looked up once each; sorting them took about half
// the time of finding shells.
template <class Key> class KeyNumbers {
  public:
    explicit KeyNumbers(size_t keys) { // keys: at most this many distinct ones
        size_t capacity = 16;
        while (capacity < 2 * keys) capacity *= 2;
        slots_.resize(capacity);
        mask_ = capacity - 1;
    }
    // The number of `key` and whether it is new.
    std::pair<uint32_t, bool> add(const Key& key) {
        for (size_t i = size_t(hash_of(key)) & mask_;; i = (i + 1) & mask_) {
            Slot& slot = slots_[i];
            if (slot.number == kEmpty) {
                slot = {key, count_};
                return {count_++, true};
            }
            if (slot.key == key) return {slot.number, false};
        }
    }

  private:
    static constexpr uint32_t kEmpty = UINT32_MAX;
    struct Slot {
        Key key{};
        uint32_t number = kEmpty;
    };
    std::vector<Slot> slots_;
    size_t mask_ = 0;
    uint32_t count_ = 0;
};

} // namespace

ShellSet closed_shells(const std::vector<MeshRef>& meshes) {
    constexpr uint32_t kNone = UINT32_MAX;
    ShellSet set;
    set.shell_of.resize(meshes.size());
    // Vertices and triangles numbered across the meshes; a mesh with an index out of range is
    // not drawn at all (Canvas::draw), so it joins no shell.
    std::vector<size_t> vertex_base(meshes.size() + 1, 0), triangle_base(meshes.size() + 1, 0);
    std::vector<bool> usable(meshes.size());
    for (size_t m = 0; m < meshes.size(); ++m) {
        const auto& v = *meshes[m].vertices;
        const auto& t = *meshes[m].triangles;
        usable[m] = std::all_of(t.begin(), t.end(), [&](uint32_t i) { return i < v.size(); });
        vertex_base[m + 1] = vertex_base[m] + v.size();
        triangle_base[m + 1] = triangle_base[m] + t.size() / 3;
        set.shell_of[m].assign(t.size() / 3, -1);
    }
    const size_t triangle_count = triangle_base.back();
    if (triangle_count == 0 || triangle_count >= kNone / 3) return set;

    // Each vertex's place: vertices at the same position share one (non-finite ones none).
    std::vector<uint32_t> place(vertex_base.back(), kNone);
    {
        KeyNumbers<std::array<uint32_t, 3>> places(vertex_base.back());
        for (size_t m = 0; m < meshes.size(); ++m)
            for (size_t i = 0; i < meshes[m].vertices->size(); ++i)
                if (const Vec3& p = (*meshes[m].vertices)[i].position; finite(p))
                    place[vertex_base[m] + i] = places.add(position_key(p)).first;
    }

    // Every edge of every triangle, undirected: a shell's edges pair up, each direction as
    // often as the other. The triangles along an edge join one group.
    struct EdgeUse {
        int32_t balance;   // +1 for each use lo -> hi, -1 for each hi -> lo
        uint32_t triangle; // the first triangle along it
    };
    std::vector<EdgeUse> uses;
    uses.reserve(3 * triangle_count / 2);
    KeyNumbers<uint64_t> edges(3 * triangle_count); // room for every edge apart
    std::vector<bool> open(triangle_count, false);  // cannot be part of a closed shell
    Groups groups(triangle_count);
    for (size_t m = 0; m < meshes.size(); ++m) {
        const auto& tris = *meshes[m].triangles;
        for (size_t t = 0; t + 2 < tris.size(); t += 3) {
            const uint32_t id = uint32_t(triangle_base[m] + t / 3);
            if (!usable[m]) {
                open[id] = true;
                continue;
            }
            uint32_t p[3];
            for (size_t k = 0; k < 3; ++k) p[k] = place[vertex_base[m] + tris[t + k]];
            if (p[0] == kNone || p[1] == kNone || p[2] == kNone) {
                open[id] = true; // never drawn: what it would hide may show
                continue;
            }
            if (p[0] == p[1] || p[1] == p[2] || p[2] == p[0]) continue; // no area: no shell
            for (int k = 0; k < 3; ++k) {
                const uint32_t a = p[k], b = p[(k + 1) % 3];
                const auto [edge, first] =
                    edges.add(uint64_t(std::min(a, b)) << 32 | std::max(a, b));
                if (first) {
                    uses.push_back({a < b ? 1 : -1, id});
                } else {
                    uses[edge].balance += a < b ? 1 : -1;
                    groups.join(uses[edge].triangle, id);
                }
            }
        }
    }
    for (const EdgeUse& u : uses)
        if (u.balance != 0) open[u.triangle] = true; // a border, or windings that disagree
    std::vector<uint32_t> group_of(triangle_count);
    for (uint32_t t = 0; t < triangle_count; ++t) group_of[t] = groups.find(t);
    for (uint32_t t = 0; t < triangle_count; ++t)
        if (open[t]) open[group_of[t]] = true;

    // The closed groups: boxes, then the signed volume (about the box's centre) says which
    // side is the outside.
    struct Candidate {
        Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
        double volume = 0;
        bool used = false;
    };
    std::vector<Candidate> candidates(triangle_count);
    auto for_each_closed = [&](auto&& visit) {
        for (size_t m = 0; m < meshes.size(); ++m) {
            const auto& tris = *meshes[m].triangles;
            const auto& verts = *meshes[m].vertices;
            if (!usable[m]) continue;
            for (size_t t = 0; t + 2 < tris.size(); t += 3) {
                const uint32_t group = group_of[triangle_base[m] + t / 3];
                if (open[group]) continue; // (a triangle without area is a group of its own: flat)
                visit(m, t, group, verts[tris[t]].position, verts[tris[t + 1]].position,
                      verts[tris[t + 2]].position);
            }
        }
    };
    for_each_closed(
        [&](size_t, size_t, uint32_t root, const Vec3& a, const Vec3& b, const Vec3& c) {
            Candidate& s = candidates[root];
            s.used = true;
            for (const Vec3* p : {&a, &b, &c})
                for (size_t i = 0; i < 3; ++i) {
                    s.lo[i] = std::min(s.lo[i], (*p)[i]);
                    s.hi[i] = std::max(s.hi[i], (*p)[i]);
                }
        });
    for_each_closed(
        [&](size_t, size_t, uint32_t root, const Vec3& a, const Vec3& b, const Vec3& c) {
            Candidate& s = candidates[root];
            double p[3][3];
            const Vec3* v[3] = {&a, &b, &c};
            for (int k = 0; k < 3; ++k)
                for (size_t i = 0; i < 3; ++i)
                    p[k][i] = double((*v[k])[i]) - 0.5 * (double(s.lo[i]) + double(s.hi[i]));
            s.volume += p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) -
                        p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0]) +
                        p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0]);
        });
    std::vector<int32_t> shell_index(triangle_count, -1);
    for (uint32_t root = 0; root < triangle_count; ++root) {
        const Candidate& s = candidates[root];
        if (!s.used) continue;
        const double extent = std::max(
            {double(s.hi[0]) - s.lo[0], double(s.hi[1]) - s.lo[1], double(s.hi[2]) - s.lo[2]});
        // Flat or nearly (two faces back to back, a plate thinner than float depth can order):
        // which side is nearer is not decided by the geometry; draw both.
        if (!(std::abs(s.volume) / 6 > 1e-6 * extent * extent * extent)) continue;
        shell_index[root] = int32_t(set.shells.size());
        set.shells.push_back({s.lo, s.hi, s.volume > 0});
    }
    for_each_closed([&](size_t m, size_t t, uint32_t root, const Vec3&, const Vec3&, const Vec3&) {
        set.shell_of[m][t / 3] = shell_index[root];
    });
    return set;
}

std::vector<std::vector<Cull>> culling(const ShellSet& set, size_t mesh_count,
                                       const Canvas& canvas) {
    std::vector<std::vector<Cull>> cull(mesh_count);
    if (mesh_count != set.shell_of.size()) return cull;
    std::vector<Cull> side(set.shells.size(), Cull::None); // the inner side of each shell
    bool any = false;                                      // seen wholly from outside
    for (size_t i = 0; i < set.shells.size(); ++i)
        if (canvas.sees_from_outside(set.shells[i].lo, set.shells[i].hi)) {
            side[i] = set.shells[i].outward ? Cull::Back : Cull::Front;
            any = true;
        }
    if (!any) return cull;
    for (size_t m = 0; m < mesh_count; ++m) {
        const std::vector<int32_t>& shell_of = set.shell_of[m];
        if (std::all_of(shell_of.begin(), shell_of.end(),
                        [&](int32_t s) { return s < 0 || side[size_t(s)] == Cull::None; }))
            continue;
        cull[m].reserve(shell_of.size());
        for (const int32_t s : shell_of) cull[m].push_back(s < 0 ? Cull::None : side[size_t(s)]);
    }
    return cull;
}

} // namespace msh::render
