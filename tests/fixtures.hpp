// Small hand-built inputs for unit tests: a minimal valid two-node model whose every field is
// known, plus helpers to corrupt one field of it at a time.
#pragma once

#include "formats/msh.hpp"
#include "formats/nres.hpp"

#include <string>

namespace msh::test {

// Two nodes (root + animated child), one tetrahedron slot each (lod 0 group 0), one batch per
// slot, 3-key track on the child (times 0, 2, 4; frame count 5), Res10 with one name.
inline Model make_minimal_model() {
    Model m;
    const Vec3 tet[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const uint16_t faces[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    // Neighbour across edge k = (i_k, i_(k+1)) of each face above.
    const uint16_t links[4][3] = {{2, 3, 1}, {0, 3, 2}, {1, 3, 0}, {0, 2, 1}};
    for (int node = 0; node < 2; ++node) {
        for (const Vec3& p : tet) m.positions.push_back({p.x + float(node), p.y, p.z});
        for (int v = 0; v < 4; ++v) {
            m.normals.push_back({int8_t(v == 1 ? 127 : -73), int8_t(v == 2 ? 127 : -73),
                                 int8_t(v == 3 ? 127 : -73), 0});
            m.uvs.push_back({int16_t(v * 256), int16_t(1024 - v * 256)});
        }
        for (uint16_t i : faces) m.indices.push_back(i);
        for (int t = 0; t < 4; ++t) {
            TriDesc d;
            d.flags = node ? 2 : 0;
            for (int k = 0; k < 3; ++k) d.link[size_t(k)] = uint16_t(links[t][k] + 4 * node);
            d.normal = {0, 0, 32767};
            m.triangles.push_back(d);
        }
        Batch b;
        b.material = uint16_t(node);
        b.opaque4 = uint16_t(0xFF00 | node);
        b.index_count = 12;
        b.index_start = uint32_t(12 * node);
        b.opaque14 = 4;
        b.base_vertex = uint32_t(4 * node);
        m.batches.push_back(b);
        Slot s;
        s.tri_start = uint16_t(4 * node);
        s.tri_count = 4;
        s.batch_start = uint16_t(node);
        s.batch_count = 1;
        s.aabb_min = {float(node), 0, 0};
        s.aabb_max = {float(node) + 1, 1, 1};
        s.sphere = {float(node) + 0.5f, 0.5f, 0.5f, 0.9f};
        s.tail = {1, 2, 3, 4, 5};
        m.slots.push_back(s);
        Node n;
        n.flags = uint16_t(node ? 0x40 : 0);
        n.parent = node ? 0 : kNone;
        n.slots[0] = uint16_t(node);
        m.nodes.push_back(n);
    }
    m.nodes[0].map_start = kNone;
    m.nodes[0].fallback_key = 0;
    m.nodes[1].map_start = 0;
    m.nodes[1].fallback_key = 3;
    auto key = [](float t, float x) {
        anim::Key k;
        k.time = t;
        k.pos = {x, 0, 0};
        return k;
    };
    m.animation.keys = {key(0, 0), key(0, 1), key(2, 2), key(4, 3)};
    m.animation.words = {1, 1, 2, 2, 3};
    m.animation.frame_count = 5;
    m.node_strings = {{true, "body"}, {}};
    m.header.sphere = {1, 0.5f, 0.5f, 1.5f};

    const uint32_t order[] = {1, 2, 3, 4, 5, 15, 13, 6, 7, 8, 19, 9, 10, 17};
    for (uint32_t t : order) {
        nres::Entry e;
        e.type = t;
        e.set_name("model");
        if (t == 15) e.data.edit().assign(8 * 8, 0x11), e.attr1 = 8, e.attr3 = 8;
        if (t == 9) e.data.edit().assign(64, 0), e.attr1 = 2, e.attr3 = 32;
        if (t == 17) e.attr3 = 0;
        m.container.entries.push_back(std::move(e));
    }
    for (uint32_t t : {1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 19}) m.decoded_mask |= 1u << t;
    sync_container(m);
    return m;
}

inline Bytes make_minimal_model_bytes() {
    return nres::write_canonical(make_minimal_model().container);
}

// Offset of the payload of the first entry of `type` inside a model image.
inline size_t payload_offset(const Bytes& image, uint32_t type) {
    nres::Archive ar = nres::read(image, ReadMode::Tolerant, "fixture");
    return ar.entries.at(*ar.find_type(type)).data_offset;
}

// Offset of the directory entry of the first entry of `type`.
inline size_t directory_offset(const Bytes& image, uint32_t type) {
    nres::Archive ar = nres::read(image, ReadMode::Tolerant, "fixture");
    return image.size() - 64 * ar.entries.size() + 64 * *ar.find_type(type);
}

template <class T> inline void poke(Bytes& b, size_t off, T v) {
    store<T>(b.data() + off, v);
}

} // namespace msh::test
