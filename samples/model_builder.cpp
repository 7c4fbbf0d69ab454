#include "samples/model_builder.hpp"

#include "formats/nres.hpp"
#include "samples/rng.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace msh::samples {

namespace {

// Float as stored; -0.0 becomes +0.0 so that coincident vertices have identical bits.
float to_f32(double d) {
    return float(d) + 0.0f;
}

int8_t encode_normal(double c) {
    float f = float(c);
    return int8_t(std::clamp(std::lround(f * 127.0f), -128L, 127L));
}
int16_t encode_uv_value(double f) {
    return int16_t(std::clamp(std::lround(float(f) * 1024.0f), -32768L, 32767L));
}

V3 as_v3(const Vec3& v) {
    return {double(v.x), double(v.y), double(v.z)};
}

struct PosKey {
    uint32_t x, y, z;
    auto operator<=>(const PosKey&) const = default;
};
PosKey pos_key(const Vec3& v) {
    return {std::bit_cast<uint32_t>(v.x), std::bit_cast<uint32_t>(v.y),
            std::bit_cast<uint32_t>(v.z)};
}

// A rigid transform (rotation, then translation).
struct Pose {
    Rot r;
    V3 t;
};
Rot decode_rot(const std::array<int16_t, 4>& q) {
    double x = q[0] / 32767.0, y = q[1] / 32767.0, z = q[2] / 32767.0, w = q[3] / 32767.0;
    double l = std::sqrt(x * x + y * y + z * z + w * w);
    if (l == 0) return {};
    return {x / l, y / l, z / l, w / l};
}

class Builder {
  public:
    explicit Builder(const ModelSpec& spec)
        : spec_(spec), rng_(spec.seed, "builder:" + spec.name) {}

    BuiltModel run() {
        check_spec();
        std::vector<std::array<uint16_t, kSlotWords>> slot_words(spec_.nodes.size());
        for (size_t n = 0; n < spec_.nodes.size(); ++n) {
            slot_words[n].fill(kNone);
            for (int w = 0; w < kSlotWords; ++w) {
                const auto& parts = spec_.nodes[n].slots[size_t(w)];
                if (parts.empty()) continue;
                slot_words[n][size_t(w)] = uint16_t(m_.slots.size());
                add_slot(n, w, parts);
            }
        }
        if (m_.triangles.size() > 0xFFFE)
            throw std::logic_error(spec_.name + ": too many triangles");
        if (m_.slots.size() > 0xFFFE || m_.batches.size() > 0xFFFF)
            throw std::logic_error(spec_.name + ": too many slots or batches");

        build_animation(slot_words);
        build_header();
        tweak_normals();
        build_node_strings();
        assemble();

        BuiltModel out;
        out.image = nres::write_canonical(m_.container);
        out.nodes = spec_.nodes.size();
        out.slots = m_.slots.size();
        out.batches = m_.batches.size();
        out.vertices = m_.positions.size();
        out.triangles = m_.triangles.size();
        out.keys = m_.animation.keys.size();
        out.frame_count = m_.animation.frame_count;
        out.material_rows = material_rows_;
        out.lightmapped = spec_.lightmapped;
        out.legacy24 = spec_.legacy24;
        out.res17_nonempty = !spec_.res17.empty();
        out.animated_nodes = animated_nodes_;
        return out;
    }

  private:
    const ModelSpec& spec_;
    Rng rng_;
    Model m_;
    uint16_t material_rows_ = 0;
    size_t animated_nodes_ = 0;
    std::vector<uint16_t> vertex_node_; // node of every vertex
    std::vector<bool> lit_batch_;
    std::vector<uint16_t> batch_node_; // node of every batch

    void check_spec() const {
        if (spec_.nodes.empty()) throw std::logic_error(spec_.name + ": no nodes");
        for (size_t n = 0; n < spec_.nodes.size(); ++n) {
            const NodeSpec& node = spec_.nodes[n];
            if (node.parent != kNone && node.parent >= n)
                throw std::logic_error(spec_.name + ": parent must precede its child");
            if (node.keys.empty() || node.keys[0].time != 0.0f)
                throw std::logic_error(spec_.name + ": every track starts with a key at frame 0");
            for (size_t k = 1; k < node.keys.size(); ++k)
                if (!(node.keys[k].time > node.keys[k - 1].time) ||
                    node.keys[k].time != std::floor(node.keys[k].time))
                    throw std::logic_error(spec_.name + ": key times must be whole and increasing");
        }
    }

    void add_slot(size_t node, int word, const std::vector<PartSpec>& parts) {
        Slot s;
        s.batch_start = uint16_t(m_.batches.size());
        s.tri_start = uint16_t(m_.indices.size() / 3);
        size_t first_vertex = m_.positions.size();
        for (const PartSpec& p : parts) add_batch(node, word, p);
        s.batch_count = uint16_t(m_.batches.size() - s.batch_start);
        s.tri_count = uint16_t(m_.indices.size() / 3 - s.tri_start);
        link_triangles(s.tri_start, s.tri_count);

        // node-local bounds of the slot's vertices
        V3 lo{std::numeric_limits<double>::max(), std::numeric_limits<double>::max(),
              std::numeric_limits<double>::max()};
        V3 hi = lo * -1.0;
        for (size_t v = first_vertex; v < m_.positions.size(); ++v) {
            V3 p = as_v3(m_.positions[v]);
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        }
        s.aabb_min = {to_f32(lo.x), to_f32(lo.y), to_f32(lo.z)};
        s.aabb_max = {to_f32(hi.x), to_f32(hi.y), to_f32(hi.z)};
        V3 c = (as_v3({s.aabb_min[0], s.aabb_min[1], s.aabb_min[2]}) +
                as_v3({s.aabb_max[0], s.aabb_max[1], s.aabb_max[2]})) *
               0.5;
        double radius = 0;
        for (size_t v = first_vertex; v < m_.positions.size(); ++v)
            radius = std::max(radius, length(as_v3(m_.positions[v]) - c));
        s.sphere = {to_f32(c.x), to_f32(c.y), to_f32(c.z), to_f32(radius)};

        double area = 0;
        for (size_t t = s.tri_start; t < size_t(s.tri_start) + s.tri_count; ++t) {
            const Batch& b = batch_of_triangle(t);
            size_t i = 3 * t;
            V3 p0 = as_v3(m_.positions[b.base_vertex + m_.indices[i]]);
            V3 p1 = as_v3(m_.positions[b.base_vertex + m_.indices[i + 1]]);
            V3 p2 = as_v3(m_.positions[b.base_vertex + m_.indices[i + 2]]);
            area += 0.5 * length(cross(p1 - p0, p2 - p0));
        }
        double volume = (double(s.aabb_max[0]) - s.aabb_min[0]) *
                        (double(s.aabb_max[1]) - s.aabb_min[1]) *
                        (double(s.aabb_max[2]) - s.aabb_min[2]);
        s.tail[0] = std::bit_cast<uint32_t>(to_f32(area));
        s.tail[1] = std::bit_cast<uint32_t>(to_f32(volume));
        // +56..+67: unknown; varied non-zero values (a small float, a small count, a bit mask).
        s.tail[2] = std::bit_cast<uint32_t>(float(rng_.range(1, 40)) * 0.25f);
        s.tail[3] = uint32_t(rng_.range(1, 255));
        s.tail[4] = uint32_t(rng_.next() & 0x00FFFFFF) | 0x01000000u;
        m_.slots.push_back(s);
    }

    const Batch& batch_of_triangle(size_t t) const {
        // batches are contiguous in Res6 order; binary search by index start
        auto it = std::upper_bound(m_.batches.begin(), m_.batches.end(), uint32_t(3 * t),
                                   [](uint32_t v, const Batch& b) { return v < b.index_start; });
        return *(it - 1);
    }

    void add_batch(size_t node, int word, const PartSpec& p) {
        if (p.mesh.verts.empty() || p.mesh.tris.empty())
            throw std::logic_error(spec_.name + ": empty part");
        if (p.mesh.verts.size() > 0xFFFF || p.mesh.tris.size() * 3 > 0xFFFF)
            throw std::logic_error(spec_.name + ": part too large for one batch");
        Batch b;
        b.flags = p.batch_flags;
        b.material = p.material;
        material_rows_ = std::max<uint16_t>(material_rows_, uint16_t(p.material + 1));
        bool lit = spec_.lightmapped && word % kGroups == 0;
        lit_batch_.push_back(lit);
        batch_node_.push_back(uint16_t(node));
        b.opaque4 = uint16_t((lit ? 0x0000 : 0xFF00) | (p.material & 0xFF));
        b.opaque6 = spec_.opaque6_is_node ? uint16_t(node) : uint16_t(rng_.range(1, 0x60));
        b.index_count = uint16_t(p.mesh.tris.size() * 3);
        b.index_start = uint32_t(m_.indices.size());
        b.base_vertex = uint32_t(m_.positions.size());
        uint16_t max_index = 0;
        for (const auto& t : p.mesh.tris)
            for (uint32_t i : t) {
                m_.indices.push_back(uint16_t(i));
                max_index = std::max<uint16_t>(max_index, uint16_t(i));
            }
        b.opaque14 = uint16_t(max_index + 1);
        for (const Vertex& v : p.mesh.verts) {
            m_.positions.push_back({to_f32(v.pos.x), to_f32(v.pos.y), to_f32(v.pos.z)});
            m_.normals.push_back({encode_normal(v.normal.x), encode_normal(v.normal.y),
                                  encode_normal(v.normal.z), 0});
            m_.uvs.push_back({encode_uv_value(v.u), encode_uv_value(v.v)});
            vertex_node_.push_back(uint16_t(node));
        }
        for (const auto& t : p.mesh.tris) {
            TriDesc d;
            d.flags = p.tri_flags;
            V3 p0 = as_v3(m_.positions[b.base_vertex + t[0]]);
            V3 p1 = as_v3(m_.positions[b.base_vertex + t[1]]);
            V3 p2 = as_v3(m_.positions[b.base_vertex + t[2]]);
            V3 n = cross(p1 - p0, p2 - p0);
            if (!(length(n) > 0)) throw std::logic_error(spec_.name + ": degenerate triangle");
            n = normalize(n);
            d.normal = {int16_t(std::lround(n.x * 32767.0)), int16_t(std::lround(n.y * 32767.0)),
                        int16_t(std::lround(n.z * 32767.0))};
            if (rng_.chance(spec_.selector_share)) {
                uint16_t sel = 0x3F;
                while (sel == 0x3F) sel = uint16_t(rng_.next() & 0x3F);
                d.selectors = sel;
            }
            m_.triangles.push_back(d);
        }
        m_.batches.push_back(b);
    }

    // Neighbour across edge k = (i_k, i_(k+1)) by shared positions within the slot; mutual.
    void link_triangles(size_t first, size_t count) {
        std::map<PosKey, uint32_t> ids;
        auto id_of = [&](size_t t, int k) {
            const Batch& b = batch_of_triangle(t);
            PosKey key = pos_key(m_.positions[b.base_vertex + m_.indices[3 * t + size_t(k)]]);
            return ids.emplace(key, uint32_t(ids.size())).first->second;
        };
        std::vector<std::array<uint32_t, 3>> tri_ids(count);
        for (size_t t = 0; t < count; ++t)
            for (int k = 0; k < 3; ++k) tri_ids[t][size_t(k)] = id_of(first + t, k);
        std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, int>>> edges;
        for (size_t t = 0; t < count; ++t)
            for (int k = 0; k < 3; ++k) {
                uint32_t a = tri_ids[t][size_t(k)], b = tri_ids[t][size_t((k + 1) % 3)];
                edges[{std::min(a, b), std::max(a, b)}].push_back({uint32_t(t), k});
            }
        for (const auto& [edge, users] : edges) {
            for (size_t i = 0; i < users.size(); ++i) {
                auto [t, k] = users[i];
                TriDesc& d = m_.triangles[first + t];
                if (d.link[size_t(k)] != kNone) continue;
                for (size_t j = i + 1; j < users.size(); ++j) {
                    auto [t2, k2] = users[j];
                    TriDesc& d2 = m_.triangles[first + t2];
                    if (t2 == t || d2.link[size_t(k2)] != kNone) continue;
                    d.link[size_t(k)] = uint16_t(first + t2);
                    d2.link[size_t(k2)] = uint16_t(first + t);
                    break;
                }
            }
        }
    }

    void build_animation(const std::vector<std::array<uint16_t, kSlotWords>>& slot_words) {
        std::vector<anim::Track> tracks;
        for (const NodeSpec& n : spec_.nodes) {
            anim::Track t;
            t.keys = n.keys;
            // hemisphere continuity for new data (animation.md §9)
            for (size_t k = 1; k < t.keys.size(); ++k) {
                const auto& a = t.keys[k - 1].rot;
                auto& b = t.keys[k].rot;
                long d =
                    long(a[0]) * b[0] + long(a[1]) * b[1] + long(a[2]) * b[2] + long(a[3]) * b[3];
                if (d < 0)
                    for (auto& c : b) c = int16_t(-c);
            }
            if (t.keys.size() > 1) ++animated_nodes_;
            tracks.push_back(std::move(t));
        }
        if (spec_.legacy24) {
            // Layout of the 24-byte records is unknown; the animation stays static.
            for (auto& t : tracks) t.keys.resize(1);
            animated_nodes_ = 0;
        }
        anim::Composed c = anim::compose(tracks);
        m_.animation = std::move(c.animation);
        if (spec_.legacy24) {
            legacy_res1(slot_words);
            return;
        }
        for (size_t n = 0; n < spec_.nodes.size(); ++n) {
            Node node;
            node.flags = spec_.nodes[n].flags;
            node.parent = spec_.nodes[n].parent;
            node.map_start = c.nodes[n].map_start;
            node.fallback_key = c.nodes[n].fallback_key;
            node.slots = slot_words[n];
            m_.nodes.push_back(node);
        }
    }

    Bytes legacy_bytes_;
    // 24 opaque bytes per node. The layout is unknown (msh.md §3); this one is our invention:
    // u16 flags, u16 parent, u16 slot[4] (lod 0..2 of group 0, group 4), u32, f32, u32.
    void legacy_res1(const std::vector<std::array<uint16_t, kSlotWords>>& slot_words) {
        ByteWriter w;
        for (size_t n = 0; n < spec_.nodes.size(); ++n) {
            w.put(spec_.nodes[n].flags);
            w.put(spec_.nodes[n].parent);
            for (int lod = 0; lod < kLods; ++lod) w.put(slot_words[n][size_t(lod * kGroups)]);
            w.put(slot_words[n][4]);
            w.put(uint32_t(0x00010000u | uint32_t(n)));
            w.put(1.0f);
            w.put(uint32_t(rng_.next() & 0xFFFF) | 0x100u);
        }
        legacy_bytes_ = w.take();
    }

    // Model-wide bounds with every node at its first key (msh.md §9, §11).
    void build_header() {
        std::vector<Pose> global(spec_.nodes.size());
        for (size_t n = 0; n < spec_.nodes.size(); ++n) {
            const anim::Key& k = spec_.nodes[n].keys[0];
            Pose local{spec_.legacy24 ? Rot{} : decode_rot(k.rot),
                       spec_.legacy24 ? V3{} : V3{k.pos[0], k.pos[1], k.pos[2]}};
            uint16_t p = spec_.nodes[n].parent;
            if (p == kNone || spec_.legacy24)
                global[n] = local;
            else
                global[n] = {global[p].r * local.r, rotate(global[p].r, local.t) + global[p].t};
        }
        std::vector<V3> posed(m_.positions.size());
        V3 lo{std::numeric_limits<double>::max(), std::numeric_limits<double>::max(),
              std::numeric_limits<double>::max()};
        V3 hi = lo * -1.0;
        for (size_t v = 0; v < m_.positions.size(); ++v) {
            const Pose& g = global[vertex_node_[v]];
            V3 p = rotate(g.r, as_v3(m_.positions[v])) + g.t;
            posed[v] = p;
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        }
        ModelHeader& h = m_.header;
        for (int i = 0; i < 8; ++i) {
            h.hull[size_t(3 * i)] = to_f32(i & 1 ? hi.x : lo.x);
            h.hull[size_t(3 * i + 1)] = to_f32(i & 2 ? hi.y : lo.y);
            h.hull[size_t(3 * i + 2)] = to_f32(i & 4 ? hi.z : lo.z);
        }
        V3 c = (lo + hi) * 0.5;
        double r = 0;
        for (const V3& p : posed) r = std::max(r, length(p - c));
        h.sphere = {to_f32(c.x), to_f32(c.y), to_f32(c.z), to_f32(r)};
        h.capsule = {to_f32(c.x),
                     to_f32(c.y),
                     to_f32(lo.z),
                     to_f32(c.x),
                     to_f32(c.y),
                     to_f32(hi.z),
                     to_f32(std::hypot((hi.x - lo.x) * 0.5, (hi.y - lo.y) * 0.5))};
    }

    void tweak_normals() {
        for (PackedNormal& n : m_.normals) {
            if (spec_.nw_share > 0 && rng_.chance(spec_.nw_share))
                n[3] = int8_t(rng_.range(1, 127));
            for (int c = 0; c < 3; ++c)
                if (n[size_t(c)] == -127 && spec_.neg128_share > 0 &&
                    rng_.chance(spec_.neg128_share))
                    n[size_t(c)] = -128;
        }
    }

    void build_node_strings() {
        for (const NodeSpec& n : spec_.nodes) {
            NodeString s;
            if (n.label && !n.label->empty()) {
                s.present = true;
                s.text = *n.label;
            }
            m_.node_strings.push_back(s);
        }
    }

    Bytes res9() const {
        Bytes b(32 * spec_.nodes.size(), 0);
        for (size_t n = 0; n < spec_.nodes.size(); ++n) {
            const std::string& s = spec_.nodes[n].name;
            std::copy_n(s.begin(), std::min<size_t>(s.size(), 31),
                        b.begin() + std::ptrdiff_t(32 * n));
        }
        return b;
    }

    // Res15: 8 bytes per vertex, semantics unknown. We store an i16 tangent and a handedness word.
    Bytes res15() const {
        ByteWriter w;
        for (size_t v = 0; v < m_.normals.size(); ++v) {
            V3 n{m_.normals[v][0] / 127.0, m_.normals[v][1] / 127.0, m_.normals[v][2] / 127.0};
            V3 axis = std::abs(n.z) < 0.9 ? V3{0, 0, 1} : V3{1, 0, 0};
            V3 t = normalize(cross(axis, n));
            w.put(int16_t(std::lround(t.x * 32767.0)));
            w.put(int16_t(std::lround(t.y * 32767.0)));
            w.put(int16_t(std::lround(t.z * 32767.0)));
            w.put(int16_t((m_.uvs[v][0] ^ m_.uvs[v][1]) & 1 ? -32767 : 32767));
        }
        return w.take();
    }

    // Res18: 4 bytes per vertex; here a lightmap UV (u16/1024) projected from above.
    Bytes res18() const {
        float x0 = m_.header.hull[0], y0 = m_.header.hull[1];
        float x1 = m_.header.hull[21], y1 = m_.header.hull[22];
        ByteWriter w;
        for (size_t v = 0; v < m_.positions.size(); ++v) {
            double u = (m_.positions[v].x - x0) / std::max(1e-3f, x1 - x0);
            double t = (m_.positions[v].y - y0) / std::max(1e-3f, y1 - y0);
            w.put(uint16_t(std::clamp(std::lround(u * 1000.0) + 12, 1L, 1023L)));
            w.put(uint16_t(std::clamp(std::lround(t * 1000.0) + 12, 1L, 1023L)));
        }
        return w.take();
    }

    // Res20 as one project reads it (msh.md §7): 48-byte light/probe records whose first field is
    // an i32 node index. Ours: one record per lit batch, {i32 node, f32 position[3] (the node's
    // frame), f32 colour[3], f32 radius, f32 intensity, u32 flags, 8 zero bytes}; the fields after
    // the node index are a plausible fill, not a claim. attr1 = record count, attr3 = 48.
    Bytes res20(uint32_t& count) const {
        ByteWriter w;
        count = 0;
        for (size_t b = 0; b < m_.batches.size(); ++b) {
            if (!lit_batch_[b]) continue;
            w.put(int32_t(batch_node_[b]));
            for (float c : {0.25f * float(b % 4), 0.5f, 1.0f + 0.125f * float(b % 3)}) w.put(c);
            for (float c : {1.0f, 0.875f - 0.125f * float(b % 3), 0.75f}) w.put(c);
            w.put(2.0f + float(b % 5));
            w.put(0.5f + 0.125f * float(b % 5));
            w.put(uint32_t(1u << (b % 3)));
            w.put_zeros(8);
            ++count;
        }
        return w.take();
    }

    void assemble() {
        const auto vcount = uint32_t(m_.positions.size());
        const auto ncount = uint32_t(spec_.nodes.size());
        std::vector<RawResource> raw;
        if (spec_.legacy24)
            raw.push_back(
                {kNodes, legacy_bytes_, ncount, spec_.res1_attr2, uint32_t(kLegacyNodeStride)});
        if (spec_.lightmapped) raw.push_back({kVertexStream18, res18(), vcount, 0, 4});
        raw.push_back({kVertexStream15, res15(), vcount, 0, 8});
        raw.push_back({kNodeNames32, res9(), ncount, 0, 32});
        raw.push_back(
            {kPathGraph, spec_.res17, spec_.res17_nodes, spec_.res17_links, spec_.res17_attr3});
        if (spec_.lightmapped) {
            uint32_t count = 0;
            Bytes t = res20(count);
            raw.push_back({kTable20, std::move(t), count, 0, uint32_t(kRes20Stride)});
        }
        assemble_new_model(m_, std::move(raw), spec_.res1_attr2);
    }
};

} // namespace

anim::Key make_key(float time, V3 pos, Rot rot) {
    anim::Key k;
    k.time = time;
    k.pos = {to_f32(pos.x), to_f32(pos.y), to_f32(pos.z)};
    k.rot = anim::encode_quat({float(rot.x), float(rot.y), float(rot.z), float(rot.w)});
    return k;
}

BuiltModel build_model(const ModelSpec& spec) {
    return Builder(spec).run();
}

} // namespace msh::samples
