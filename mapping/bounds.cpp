#include "bounds.hpp"

#include "formats/anim.hpp"

#include <algorithm>
#include <cmath>

namespace msh::mapping {

namespace {

using D3 = std::array<double, 3>;

bool close(double stored, double rule) {
    return std::abs(stored - rule) <= 1e-4 * std::max(1.0, std::abs(stored));
}

struct SlotValues {
    std::array<float, 3> mn{}, mx{};
    std::array<float, 4> sphere{};
    float area = 0, volume = 0;
    bool empty = true;
};

// The vertices and triangles a slot draws. Two passes over its batches' indices (the box, then
// the sphere around the box's centre) instead of a list of them: min and max do not depend on
// order or repeats, and the area sums triangles in the same order.
SlotValues slot_values(const Model& m, const Slot& s) {
    SlotValues v;
    const size_t batch_end = std::min(size_t(s.batch_start) + s.batch_count, m.batches.size());
    auto each_corner = [&](auto&& visit) {
        for (size_t b = s.batch_start; b < batch_end; ++b) {
            const Batch& bt = m.batches[b];
            for (size_t k = 0; k + 2 < bt.index_count; k += 3)
                for (size_t c = 0; c < 3; ++c)
                    visit(m.positions[bt.base_vertex + m.indices[bt.index_start + k + c]]);
        }
    };
    double area = 0;
    v.mn = {INFINITY, INFINITY, INFINITY};
    v.mx = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t b = s.batch_start; b < batch_end; ++b) {
        const Batch& bt = m.batches[b];
        for (size_t k = 0; k + 2 < bt.index_count; k += 3) {
            v.empty = false;
            D3 p[3];
            for (size_t c = 0; c < 3; ++c) {
                const Vec3& q = m.positions[bt.base_vertex + m.indices[bt.index_start + k + c]];
                p[c] = {q.x, q.y, q.z};
                const float f[3] = {q.x, q.y, q.z};
                for (size_t a = 0; a < 3; ++a)
                    v.mn[a] = std::min(v.mn[a], f[a]), v.mx[a] = std::max(v.mx[a], f[a]);
            }
            const D3 a{p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
            const D3 b2{p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
            const D3 cr{a[1] * b2[2] - a[2] * b2[1], a[2] * b2[0] - a[0] * b2[2],
                        a[0] * b2[1] - a[1] * b2[0]};
            area += 0.5 * std::sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]);
        }
    }
    if (v.empty) return SlotValues{};
    D3 centre{};
    for (int c = 0; c < 3; ++c) centre[size_t(c)] = (double(v.mn[size_t(c)]) + v.mx[size_t(c)]) / 2;
    double r = 0;
    each_corner([&](const Vec3& q) {
        const double d[3] = {q.x - centre[0], q.y - centre[1], q.z - centre[2]};
        r = std::max(r, std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
    });
    v.sphere = {float(centre[0]), float(centre[1]), float(centre[2]), float(r)};
    v.area = float(area);
    v.volume = float((double(v.mx[0]) - v.mn[0]) * (double(v.mx[1]) - v.mn[1]) *
                     (double(v.mx[2]) - v.mn[2]));
    return v;
}

float tail_float(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}
uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

} // namespace

void recompute_slot_bounds(const Model& orig, const DerivedRules& rules, Model& m,
                           const std::vector<bool>& touched, DiagnosticSink& diagnostics) {
    std::vector<int> origin(m.slots.size());
    for (size_t i = 0; i < origin.size(); ++i)
        origin[i] = i < touched.size() && touched[i] && i < orig.slots.size() ? int(i) : kUntouched;
    recompute_slot_bounds(orig, rules, m, origin, diagnostics);
}

void recompute_slot_bounds(const Model& orig, const DerivedRules& rules, Model& m,
                           const std::vector<int>& origin, DiagnosticSink& diagnostics) {
    for (size_t i = 0; i < m.slots.size() && i < origin.size(); ++i) {
        if (origin[i] == kUntouched) continue;
        const SlotValues after = slot_values(m, m.slots[i]);
        Slot& s = m.slots[i];
        if (origin[i] == kNewSlot) { // no stored value to check the rule against
            if (after.empty) continue;
            s.aabb_min = after.mn, s.aabb_max = after.mx, s.sphere = after.sphere;
            s.tail = {float_bits(after.area), float_bits(after.volume), 0, 0, 0};
            continue;
        }
        const size_t o = size_t(origin[i]);
        const SlotRule rule = o < rules.slots.size() ? rules.slots[o] : SlotRule{};
        if (!rule.drawn || after.empty || o >= orig.slots.size()) continue;
        const std::string name = "slot " + std::to_string(o);
        if (rule.box)
            s.aabb_min = after.mn, s.aabb_max = after.mx;
        else
            diagnostics.warn(name, Location::whole(), "stored AABB does not follow the rule; kept");
        if (rule.sphere)
            s.sphere = after.sphere;
        else
            diagnostics.warn(name, Location::whole(),
                             "stored sphere does not follow the rule; kept");
        if (rule.area)
            s.tail[0] = float_bits(after.area);
        else
            diagnostics.warn(name, Location::whole(), "tail +48 is not the triangle area; kept");
        if (rule.volume)
            s.tail[1] = float_bits(after.volume);
        else
            diagnostics.warn(name, Location::whole(), "tail +52 is not the AABB volume; kept");
    }
}

namespace {

struct Box {
    D3 mn{INFINITY, INFINITY, INFINITY}, mx{-INFINITY, -INFINITY, -INFINITY};
    std::vector<D3> points;
};

// Every drawn vertex of every slot in model space, nodes posed at their first key.
Box posed_box(const Model& m) {
    Box box;
    std::vector<anim::NodeFields> fields;
    for (const Node& n : m.nodes) fields.push_back({n.map_start, n.fallback_key});
    std::vector<anim::Track> tracks = anim::decompose(m.animation, fields);
    std::vector<std::array<double, 4>> rq(m.nodes.size());
    std::vector<D3> rt(m.nodes.size());
    std::vector<uint32_t> seen_by_node(m.positions.size(), 0); // node index + 1
    auto rotate = [](const std::array<double, 4>& q, const D3& v) {
        const D3 u{q[0], q[1], q[2]};
        const D3 uv{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                    u[0] * v[1] - u[1] * v[0]};
        const D3 uuv{u[1] * uv[2] - u[2] * uv[1], u[2] * uv[0] - u[0] * uv[2],
                     u[0] * uv[1] - u[1] * uv[0]};
        return D3{v[0] + 2 * (q[3] * uv[0] + uuv[0]), v[1] + 2 * (q[3] * uv[1] + uuv[1]),
                  v[2] + 2 * (q[3] * uv[2] + uuv[2])};
    };
    for (size_t i = 0; i < m.nodes.size(); ++i) {
        const anim::Key& k = tracks[i].keys.front();
        anim::Quat q = anim::decode_quat(k.rot, m.animation.key_order);
        double n = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] +
                             double(q[3]) * q[3]);
        std::array<double, 4> lq =
            n > 0 ? std::array<double, 4>{q[0] / n, q[1] / n, q[2] / n, q[3] / n}
                  : std::array<double, 4>{0, 0, 0, 1};
        D3 lt{k.pos[0], k.pos[1], k.pos[2]};
        const uint16_t p = m.nodes[i].parent;
        if (p != kNone && p < i) {
            const auto& a = rq[p];
            rq[i] = {a[3] * lq[0] + a[0] * lq[3] + a[1] * lq[2] - a[2] * lq[1],
                     a[3] * lq[1] - a[0] * lq[2] + a[1] * lq[3] + a[2] * lq[0],
                     a[3] * lq[2] + a[0] * lq[1] - a[1] * lq[0] + a[2] * lq[3],
                     a[3] * lq[3] - a[0] * lq[0] - a[1] * lq[1] - a[2] * lq[2]};
            const D3 t = rotate(a, lt);
            rt[i] = {t[0] + rt[p][0], t[1] + rt[p][1], t[2] + rt[p][2]};
        } else {
            rq[i] = lq;
            rt[i] = lt;
        }
        for (uint16_t w : m.nodes[i].slots) {
            if (w == kNone || w >= m.slots.size()) continue;
            const Slot& s = m.slots[w];
            for (size_t b = s.batch_start; b < size_t(s.batch_start) + s.batch_count; ++b) {
                const Batch& bt = m.batches[b];
                for (size_t k2 = 0; k2 < bt.index_count; ++k2) {
                    // Each vertex once per node: the box and the sphere's radius (a maximum) do
                    // not change with repeats.
                    const uint32_t vi = bt.base_vertex + m.indices[bt.index_start + k2];
                    if (seen_by_node[vi] == i + 1) continue;
                    seen_by_node[vi] = uint32_t(i + 1);
                    const Vec3& v = m.positions[vi];
                    const D3 r = rotate(rq[i], {v.x, v.y, v.z});
                    const D3 w2{r[0] + rt[i][0], r[1] + rt[i][1], r[2] + rt[i][2]};
                    box.points.push_back(w2);
                    for (int c = 0; c < 3; ++c)
                        box.mn[size_t(c)] = std::min(box.mn[size_t(c)], w2[size_t(c)]),
                        box.mx[size_t(c)] = std::max(box.mx[size_t(c)], w2[size_t(c)]);
                }
            }
        }
    }
    return box;
}

struct HeaderValues {
    std::array<float, 4> sphere{};
    std::array<float, 7> capsule{};
};

HeaderValues header_values(const Box& b) {
    HeaderValues h;
    D3 c{(b.mn[0] + b.mx[0]) / 2, (b.mn[1] + b.mx[1]) / 2, (b.mn[2] + b.mx[2]) / 2};
    double r = 0;
    for (const D3& p : b.points)
        r = std::max(r, std::sqrt((p[0] - c[0]) * (p[0] - c[0]) + (p[1] - c[1]) * (p[1] - c[1]) +
                                  (p[2] - c[2]) * (p[2] - c[2])));
    h.sphere = {float(c[0]), float(c[1]), float(c[2]), float(r)};
    h.capsule = {float(c[0]),
                 float(c[1]),
                 float(b.mn[2]),
                 float(c[0]),
                 float(c[1]),
                 float(b.mx[2]),
                 float(std::hypot((b.mx[0] - b.mn[0]) / 2, (b.mx[1] - b.mn[1]) / 2))};
    return h;
}

} // namespace

void recompute_header(const Model& orig, const DerivedRules& rules, Model& m,
                      DiagnosticSink& diagnostics) {
    if (m.legacy_nodes || m.nodes.empty() || !rules.header.posed) return;
    const Box after = posed_box(m);
    if (after.points.empty()) return;
    if (const auto& hull_max = rules.header.hull_max) {
        for (size_t k = 0; k < 24; ++k)
            m.header.hull[k] = float((*hull_max)[k] ? after.mx[k % 3] : after.mn[k % 3]);
    } else {
        diagnostics.warn({}, Location::whole(), "header hull does not follow the rule; kept");
    }
    const HeaderValues ha = header_values(after);
    if (rules.header.sphere)
        m.header.sphere = ha.sphere;
    else
        diagnostics.warn({}, Location::whole(), "header sphere does not follow the rule; kept");
    if (rules.header.capsule)
        m.header.capsule = ha.capsule;
    else
        diagnostics.warn({}, Location::whole(), "header capsule does not follow the rule; kept");
    (void)orig;
}

std::array<int16_t, 3> face_normal(const Vec3& a, const Vec3& b, const Vec3& c) {
    const D3 e1{double(b.x) - a.x, double(b.y) - a.y, double(b.z) - a.z};
    const D3 e2{double(c.x) - a.x, double(c.y) - a.y, double(c.z) - a.z};
    const D3 n{e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
               e1[0] * e2[1] - e1[1] * e2[0]};
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0) || !std::isfinite(len)) return {0, 0, 0}; // degenerate, or past float range
    return {int16_t(std::lround(n[0] / len * 32767)), int16_t(std::lround(n[1] / len * 32767)),
            int16_t(std::lround(n[2] / len * 32767))};
}

std::array<int16_t, 3> face_normal(const Model& m, size_t batch, size_t t) {
    const Batch& b = m.batches[batch];
    auto corner = [&](size_t c) -> const Vec3& {
        return m.positions[b.base_vertex + m.indices[b.index_start + 3 * t + c]];
    };
    return face_normal(corner(0), corner(1), corner(2));
}

DerivedRules derived_rules(const Model& orig) {
    return derived_rules(orig, rule_face_normals(orig));
}

DerivedRules derived_rules(const Model& orig, const RuleFaceNormals& normals) {
    DerivedRules rules;
    rules.slots.resize(orig.slots.size());
    for (size_t i = 0; i < orig.slots.size(); ++i) {
        const Slot& o = orig.slots[i];
        const SlotValues before = slot_values(orig, o);
        SlotRule& r = rules.slots[i];
        if (before.empty) continue;
        r.drawn = true;
        r.box = true, r.sphere = true;
        for (int c = 0; c < 3; ++c)
            r.box = r.box && close(o.aabb_min[size_t(c)], before.mn[size_t(c)]) &&
                    close(o.aabb_max[size_t(c)], before.mx[size_t(c)]);
        for (int c = 0; c < 4; ++c)
            r.sphere = r.sphere && close(o.sphere[size_t(c)], before.sphere[size_t(c)]);
        r.area = close(tail_float(o.tail[0]), before.area);
        r.volume = close(tail_float(o.tail[1]), before.volume);
    }
    if (!orig.legacy_nodes && !orig.nodes.empty()) {
        const Box before = posed_box(orig);
        HeaderRule& h = rules.header;
        h.posed = !before.points.empty();
        if (h.posed) {
            // The stored corner pattern: which corner takes the minimum or maximum per axis.
            std::array<bool, 24> hull_max{};
            bool hull = true;
            for (size_t k = 0; k < 24 && hull; ++k) {
                const float stored = orig.header.hull[k];
                if (close(stored, before.mn[k % 3]))
                    hull_max[k] = false;
                else if (close(stored, before.mx[k % 3]))
                    hull_max[k] = true;
                else
                    hull = false;
            }
            if (hull) h.hull_max = hull_max;
            const HeaderValues hb = header_values(before);
            h.sphere = h.capsule = true;
            for (int c = 0; c < 4; ++c)
                h.sphere = h.sphere && close(orig.header.sphere[size_t(c)], hb.sphere[size_t(c)]);
            for (int c = 0; c < 7; ++c)
                h.capsule =
                    h.capsule && close(orig.header.capsule[size_t(c)], hb.capsule[size_t(c)]);
        }
    }
    rules.triangle_normals.assign(orig.triangles.size(), false);
    for (size_t t = 0; t < normals.size(); ++t) {
        if (!normals[t]) continue;
        bool follows = true;
        for (size_t c = 0; c < 3; ++c)
            follows = follows && std::abs(int((*normals[t])[c]) - orig.triangles[t].normal[c]) <= 1;
        rules.triangle_normals[t] = follows;
    }
    return rules;
}

RuleFaceNormals rule_face_normals(const Model& m) {
    RuleFaceNormals out(m.triangles.size());
    for (const Slot& s : m.slots) {
        size_t t = s.tri_start;
        for (size_t b = s.batch_start;
             b < size_t(s.batch_start) + s.batch_count && b < m.batches.size(); ++b) {
            const Batch& bt = m.batches[b];
            for (size_t k = 0; k + 2 < bt.index_count; k += 3, ++t) {
                if (t >= out.size() || bt.index_start + k + 2 >= m.indices.size()) continue;
                bool inside = true;
                for (size_t c = 0; c < 3; ++c)
                    inside = inside && bt.base_vertex + size_t(m.indices[bt.index_start + k + c]) <
                                           m.positions.size();
                if (inside) out[t] = face_normal(m, b, k / 3);
            }
        }
    }
    return out;
}

std::string first_rule_difference(const DerivedRules& recorded, const DerivedRules& computed) {
    const HeaderRule &r = recorded.header, &c = computed.header;
    if (c.posed) {
        if (r.hull_max != c.hull_max) return "/derived/header/hull";
        if (r.sphere != c.sphere) return "/derived/header/sphere";
        if (r.capsule != c.capsule) return "/derived/header/capsule";
    }
    for (size_t i = 0; i < computed.slots.size() && i < recorded.slots.size(); ++i) {
        const SlotRule &a = recorded.slots[i], &b = computed.slots[i];
        if (b.drawn &&
            (a.box != b.box || a.sphere != b.sphere || a.area != b.area || a.volume != b.volume))
            return "/derived/slots";
    }
    if (recorded.triangle_normals != computed.triangle_normals)
        return "/derived/triangle_normals_kept";
    return "";
}

void complete_rules(DerivedRules& rules, const Model& orig) {
    rules.slots.resize(orig.slots.size(), SlotRule{false, true, true, true, true});
    for (size_t i = 0; i < orig.slots.size(); ++i) {
        const Slot& s = orig.slots[i];
        bool drawn = false;
        for (size_t b = s.batch_start;
             b < size_t(s.batch_start) + s.batch_count && b < orig.batches.size() && !drawn; ++b)
            drawn = orig.batches[b].index_count >= 3;
        rules.slots[i].drawn = drawn;
    }
    rules.header.posed =
        !orig.legacy_nodes && !orig.nodes.empty() && !posed_box(orig).points.empty();
    rules.triangle_normals.resize(orig.triangles.size(), true);
}

} // namespace msh::mapping
