// Building blocks of the corpus recipes: small mesh placement helpers, LOD segment counts and
// the Kit that collects one model's description (nodes, per-slot parts, key tracks, WEAR rows).
#pragma once

#include "samples/generator.hpp"
#include "samples/model_builder.hpp"
#include "samples/rng.hpp"
#include "samples/shapes.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

namespace msh::samples {

constexpr double kPi = std::numbers::pi;
inline double deg(double d) {
    return d * kPi / 180.0;
}

// Segment counts falling with the LOD, e.g. 16 / 10 / 6.
inline int segs(int lod, int s0) {
    constexpr double f[3] = {1.0, 0.625, 0.375};
    return std::max(3, int(std::lround(s0 * f[lod])));
}
inline int rings(int lod, int r0) {
    constexpr double f[3] = {1.0, 0.67, 0.4};
    return std::max(2, int(std::lround(r0 * f[lod])));
}

inline Mesh moved(Mesh m, V3 t) {
    m.translate(t);
    return m;
}
inline Mesh turned(Mesh m, V3 axis, double degrees, V3 t = {}) {
    m.transform(axis_angle(axis, deg(degrees)), t);
    return m;
}
inline Mesh along_x(Mesh m, V3 t = {}) {
    return turned(std::move(m), {0, 1, 0}, 90, t);
}
inline Mesh along_y(Mesh m, V3 t = {}) {
    return turned(std::move(m), {1, 0, 0}, -90, t);
}
inline Mesh downward(Mesh m, V3 t = {}) {
    return turned(std::move(m), {1, 0, 0}, 180, t);
}
inline Mesh scaled(Mesh m, V3 s, V3 t = {}) {
    m.scale(s);
    m.translate(t);
    return m;
}

inline std::vector<int> steps(int step, int end) {
    std::vector<int> t;
    for (int v = 0; v < end; v += step) t.push_back(v);
    t.push_back(end);
    return t;
}

struct Motion {
    V3 dpos{};
    Rot drot{};
};

// Collects one model's description; the recipes (recipes.hpp) fill it.
class Kit {
  public:
    Kit(const Options& o, const std::string& model) : rng(o.seed, model) {
        spec.name = model;
        spec.seed = o.seed ^ hash_name(model);
        static const uint32_t attr2s[] = {1, 1, 2, 3, 0x10, 0x11};
        spec.res1_attr2 = rng.pick(attr2s);
        spec.opaque6_is_node = rng.chance(0.5);
        // Res17.attr3 is unknown ("preserve"); we write its node record size, as other tables do.
        spec.res17_attr3 = 20;
    }

    ModelSpec spec;
    Rng rng;
    std::vector<std::string> materials;
    std::optional<std::string> lightmap;

    uint16_t mat(const std::string& name) {
        auto it = std::find(materials.begin(), materials.end(), name);
        if (it != materials.end()) return uint16_t(it - materials.begin());
        materials.push_back(name);
        return uint16_t(materials.size() - 1);
    }

    int node(const std::string& name, int parent, V3 pos, uint16_t flags = 0, Rot rot = {}) {
        NodeSpec n;
        n.name = name;
        n.parent = parent < 0 ? kNone : uint16_t(parent);
        n.flags = flags;
        n.keys = {make_key(0, pos, rot)};
        spec.nodes.push_back(std::move(n));
        rest_pos_.push_back(pos);
        rest_rot_.push_back(rot);
        return int(spec.nodes.size() - 1);
    }
    void label(int n, std::string text) { spec.nodes[size_t(n)].label = std::move(text); }
    // Res10 names for every node (empty Res9 names stay len 0).
    void label_all() {
        for (NodeSpec& n : spec.nodes) n.label = n.name;
    }
    void blank_name(int n) { spec.nodes[size_t(n)].name.clear(); }

    void part(int n, int lod, int group, Mesh m, uint16_t material, uint16_t tri_flags = 0,
              uint16_t batch_flags = 0) {
        spec.nodes[size_t(n)].slots[size_t(lod * kGroups + group)].push_back(
            {std::move(m), material, tri_flags, batch_flags});
    }
    // One part per LOD of group 0 (lods = how many LODs get it).
    template <class F>
    void lods(int n, uint16_t material, F&& fn, int count = 3, uint16_t tri_flags = 0,
              uint16_t batch_flags = 0) {
        for (int lod = 0; lod < count; ++lod)
            part(n, lod, 0, fn(lod), material, tri_flags, batch_flags);
    }
    // Coarse collision geometry: slot entry 4 (lod 0, group 4).
    void collide(int n, Mesh m, uint16_t tri_flags = 16) {
        part(n, 0, 4, std::move(m), 0, tri_flags);
    }

    // Keys at whole-number frames; motion(t) is relative to the node's rest pose.
    template <class F> void animate(int n, const std::vector<int>& times, F&& motion) {
        auto& keys = spec.nodes[size_t(n)].keys;
        keys.clear();
        for (int t : times) {
            Motion mo = motion(double(t));
            keys.push_back(
                make_key(float(t), rest_pos_[size_t(n)] + mo.dpos, rest_rot_[size_t(n)] * mo.drot));
        }
    }
    void spin(int n, V3 axis, const std::vector<int>& times, const std::vector<double>& degrees) {
        auto& keys = spec.nodes[size_t(n)].keys;
        keys.clear();
        for (size_t i = 0; i < times.size(); ++i)
            keys.push_back(make_key(float(times[i]), rest_pos_[size_t(n)],
                                    rest_rot_[size_t(n)] * axis_angle(axis, deg(degrees[i]))));
    }
    size_t part_count() const {
        size_t c = 0;
        for (const NodeSpec& n : spec.nodes)
            for (const auto& s : n.slots) c += s.size();
        return c;
    }
    size_t vertex_count() const {
        size_t c = 0;
        for (const NodeSpec& n : spec.nodes)
            for (const auto& s : n.slots)
                for (const PartSpec& p : s) c += p.mesh.verts.size();
        return c;
    }

  private:
    std::vector<V3> rest_pos_;
    std::vector<Rot> rest_rot_;
};

} // namespace msh::samples
