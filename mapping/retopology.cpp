#include "retopology.hpp"

#include "bounds.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>

namespace msh::mapping {

namespace {

constexpr size_t kMaxIndexCount = 65535; // Res13 indexCount is u16 (21,845 triangles)
constexpr size_t kMaxIndexValue = 65535; // Res6 indices are u16 relative to baseVertex
constexpr size_t kMaxTriangles = 65535;  // Res7 links are u16 with 0xFFFF = none
constexpr size_t kMaxRecords = 65535;    // Res1 slot words, Res2 batch fields: u16, 0xFFFF = none

// Where each original batch and triangle sits. Topology edits need the canonical layout's
// preconditions: every batch in exactly one slot, every Res7 record walked by exactly one slot.
struct OrigLayout {
    std::vector<int> slot_of_batch;
    std::vector<std::vector<uint32_t>> tris_of_batch; // Res7 index of each index triple
    std::vector<std::vector<uint32_t>> used;          // sorted global vertices of each batch
    std::vector<uint32_t> range_end;                  // last vertex of each batch's range
    std::vector<int> last_batch_of_slot;
    std::vector<bool> vertex_used;
};

OrigLayout layout_of(const Model& o, const std::string& where) {
    OrigLayout L;
    const size_t batches = o.batches.size();
    L.slot_of_batch.assign(batches, -1);
    L.tris_of_batch.resize(batches);
    L.used.resize(batches);
    L.range_end.resize(batches);
    L.last_batch_of_slot.assign(o.slots.size(), -1);
    L.vertex_used.assign(o.positions.size(), false);
    std::vector<bool> tri_seen(o.triangles.size(), false);
    const std::string need = ": topology edits need the canonical layout (msh.md §11)";
    for (size_t s = 0; s < o.slots.size(); ++s) {
        const Slot& sl = o.slots[s];
        size_t t = sl.tri_start;
        for (size_t b = sl.batch_start; b < size_t(sl.batch_start) + sl.batch_count; ++b) {
            if (L.slot_of_batch[b] >= 0)
                throw FormatError(where, Location::whole(),
                                  "batch " + std::to_string(b) + " is in slots " +
                                      std::to_string(L.slot_of_batch[b]) + " and " +
                                      std::to_string(s) + need);
            L.slot_of_batch[b] = int(s);
            L.last_batch_of_slot[s] = int(b);
            const Batch& bt = o.batches[b];
            for (size_t k = 0; k + 2 < bt.index_count; k += 3, ++t) {
                if (t >= o.triangles.size() || tri_seen[t])
                    throw FormatError(
                        where, 0,
                        "slot " + std::to_string(s) + " walks Res7 record " + std::to_string(t) +
                            (t >= o.triangles.size() ? " past the end" : " again") + need);
                tri_seen[t] = true;
                L.tris_of_batch[b].push_back(uint32_t(t));
            }
        }
    }
    for (size_t b = 0; b < batches; ++b) {
        if (L.slot_of_batch[b] < 0)
            throw FormatError(where, Location::whole(),
                              "batch " + std::to_string(b) + " is in no slot" + need);
        const Batch& bt = o.batches[b];
        for (size_t i = 0; i < bt.index_count; ++i)
            L.used[b].push_back(bt.base_vertex + o.indices[bt.index_start + i]);
        std::sort(L.used[b].begin(), L.used[b].end());
        L.used[b].erase(std::unique(L.used[b].begin(), L.used[b].end()), L.used[b].end());
        L.range_end[b] = L.used[b].empty() ? bt.base_vertex : L.used[b].back();
        for (uint32_t v : L.used[b]) L.vertex_used[v] = true;
    }
    for (size_t t = 0; t < tri_seen.size(); ++t)
        if (!tri_seen[t])
            throw FormatError(where, Location::whole(),
                              "Res7 record " + std::to_string(t) + " belongs to no slot" + need);
    return L;
}

bool uses(const std::vector<uint32_t>& sorted, uint32_t v) {
    return std::binary_search(sorted.begin(), sorted.end(), v);
}

struct VRef {
    bool fresh = false;
    uint32_t id = 0; // original Res3 index or index into the fresh list
};

struct Fresh {
    int64_t source = -1; // original vertex it was split from
    InCorner data;
    size_t batch = 0; // output batch key
};

// A batch of the output before layout: an original batch (key < original count) or a new one.
struct OutBatch {
    int64_t orig = -1;
    size_t slot = 0; // slot key: original index, or original count + new slot number
    Batch fields;
    std::vector<std::array<VRef, 3>> tris;
    std::vector<int64_t> orig_tri; // index triple within the original batch, -1 = new
    bool dropped = false;
};

std::array<uint32_t, 3> rotate_min_first(std::array<uint32_t, 3> t) {
    while (!(t[0] <= t[1] && t[0] <= t[2])) t = {t[1], t[2], t[0]};
    return t;
}

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

PackedNormal encode_normal(const std::array<float, 3>& n, int8_t w) {
    return {encode_normal_component(n[0]), encode_normal_component(n[1]),
            encode_normal_component(n[2]), w};
}

struct NewSlot {
    size_t node;
    int lod, group;
};

struct Variant {
    std::array<uint32_t, 5> key;
    size_t count;
    bool as_exported;
    const InCorner* first;
};

struct TriOut {
    size_t slot;
    int64_t orig_res7 = -1;
    std::array<uint32_t, 3> v;
    bool rule_normal = false;
};

struct OpenEdge {
    size_t tri;
    int edge;
    bool fresh, broken;
};

// The re-topology as named phases on one state: the inputs, then what each phase builds.
struct Retopology {
    Retopology(const Model& original, const DerivedRules& derived, Model& edited,
               const std::vector<SlotEdit>& slot_edits, DiagnosticSink& sink,
               const std::string& name)
        : orig(original), rules(derived), m(edited), edits(slot_edits), diagnostics(sink),
          where(name), L(layout_of(original, name)), V(original.positions.size()),
          B(original.batches.size()), S(original.slots.size()),
          has_normals(original.normals.size() == V), has_uvs(original.uvs.size() == V) {}

    const Model& orig;
    const DerivedRules& rules;
    Model& m;
    const std::vector<SlotEdit>& edits;
    DiagnosticSink& diagnostics;
    const std::string& where;
    const OrigLayout L;
    const size_t V, B, S; // original vertex, batch and slot counts
    const bool has_normals, has_uvs;

    std::vector<int> slot_users;
    std::vector<OutBatch> out;
    std::vector<NewSlot> new_slots;
    std::vector<bool> covered;
    std::vector<std::vector<size_t>> new_batches_of_slot; // by slot key
    std::vector<size_t> slot_key;                         // of each edit
    std::vector<const InCorner*> main_variant;
    std::vector<Fresh> fresh; // new vertices
    size_t kept_tris = 0, added_tris = 0, removed_tris = 0;
    std::vector<uint32_t> new_of_orig, new_of_fresh; // output index of each vertex
    std::vector<int64_t> source_of; // per output vertex: the original record it copies, -1 none
    std::vector<Vec3> positions;
    std::vector<PackedNormal> normals;
    std::vector<PackedUv> uvs;
    std::vector<bool> moved_out, needs_normal;
    size_t moved = 0, removed_verts = 0;
    std::vector<size_t> batch_order; // output batch keys in file order
    std::vector<Batch> batches;
    std::vector<uint16_t> indices;
    std::vector<TriDesc> tris;
    std::vector<TriOut> info;
    std::vector<size_t> slot_of_out_batch;
    size_t splits = 0;
    size_t links_kept = 0, links_made = 0;
    std::vector<Slot> slots;
    std::vector<int> origin; // original slot of each output slot, -1 new
    size_t removed_slots = 0;

    void plan_slots();
    void choose_main_variants();
    void assign_triangles();
    void keep_original_triangles();
    void lay_out_vertices();
    void order_batches();
    void lay_out_records();
    void link_triangles();
    void normals_of_new_vertices();
    void lay_out_slots();
    TopologyReport commit();
    // The original batch of slot key `sk` that holds the corner's vertex, or -1.
    int64_t claim(const InCorner& c, size_t sk) const;
    uint32_t resolve(const VRef& r) const {
        return r.fresh ? new_of_fresh[r.id] : new_of_orig[r.id];
    }
};

int64_t Retopology::claim(const InCorner& c, size_t sk) const {
    if (c.vid < 0 || size_t(c.vid) >= V || sk >= S) return -1;
    const uint32_t v = uint32_t(c.vid);
    if (c.batch >= 0 && size_t(c.batch) < B && L.slot_of_batch[size_t(c.batch)] == int(sk) &&
        uses(L.used[size_t(c.batch)], v))
        return c.batch;
    const Slot& s = orig.slots[sk];
    for (size_t b = s.batch_start; b < size_t(s.batch_start) + s.batch_count; ++b)
        if (uses(L.used[b], v)) return int64_t(b);
    return -1;
}

// Slots: who uses each original slot, the output batches (originals first), the slot key of each
// edit (an original slot, or a new one after them); claims are validated against it.
void Retopology::plan_slots() {
    slot_users.assign(S, 0);
    for (const Node& n : orig.nodes)
        for (uint16_t w : n.slots)
            if (w < S) ++slot_users[w];

    out.resize(B);
    for (size_t b = 0; b < B; ++b) {
        out[b].orig = int64_t(b);
        out[b].slot = size_t(L.slot_of_batch[b]);
        out[b].fields = orig.batches[b];
    }
    covered.assign(S, false);

    // Slot key of each edit; claims validated against it.
    slot_key.resize(edits.size());
    for (size_t e = 0; e < edits.size(); ++e) {
        const SlotEdit& ed = edits[e];
        if (ed.orig_slot != kNone) {
            if (ed.orig_slot >= S)
                throw FormatError(where, Location::whole(),
                                  "slot " + std::to_string(ed.orig_slot) + " unknown");
            if (slot_users[ed.orig_slot] > 1)
                throw FormatError(where, Location::whole(),
                                  "slot " + std::to_string(ed.orig_slot) +
                                      " is shared by several nodes; its triangles cannot be edited "
                                      "for one of them");
            covered[ed.orig_slot] = true;
            slot_key[e] = ed.orig_slot;
        } else {
            slot_key[e] = S + new_slots.size();
            new_slots.push_back({ed.node, ed.lod, ed.group});
        }
    }
    new_batches_of_slot.resize(S + new_slots.size());
}

// The main variant of every claimed vertex: the exported position + UV when some corner still has
// them, else the variant most corners use (first seen on a tie).
void Retopology::choose_main_variants() {
    std::vector<std::vector<Variant>> variants(V);
    for (size_t e = 0; e < edits.size(); ++e)
        for (const InTriangle& t : edits[e].triangles)
            for (const InCorner& c : t.corner) {
                if (claim(c, slot_key[e]) < 0) continue;
                auto& list = variants[size_t(c.vid)];
                auto it = std::find_if(list.begin(), list.end(),
                                       [&](const Variant& x) { return x.key == c.key; });
                if (it == list.end())
                    list.push_back({c.key, 1, c.pos_as_exported && c.uv_as_exported, &c});
                else
                    ++it->count;
            }
    main_variant.assign(V, nullptr);
    for (size_t v = 0; v < V; ++v) {
        const Variant* best = nullptr;
        for (const Variant& x : variants[v])
            if (!best || (x.as_exported && !best->as_exported) ||
                (x.as_exported == best->as_exported && x.count > best->count))
                best = &x;
        if (best) main_variant[v] = best->first;
    }
}

// Incoming triangles into batches; new vertices are shared by corners of one batch with the same
// position, UV, source and packed normal (a flat-shaded new part keeps its hard edges).
void Retopology::assign_triangles() {
    std::map<std::tuple<size_t, std::array<uint32_t, 5>, int64_t, uint32_t>, uint32_t> fresh_of;
    std::vector<std::string> no_material;
    for (size_t e = 0; e < edits.size(); ++e) {
        const size_t sk = slot_key[e];
        for (const InTriangle& t : edits[e].triangles) {
            std::array<int64_t, 3> cb{};
            int64_t hint = -1;
            for (int i = 0; i < 3; ++i) {
                cb[size_t(i)] = claim(t.corner[size_t(i)], sk);
                if (hint < 0) hint = cb[size_t(i)];
            }
            int row = t.material_row;
            if (row < 0 && hint >= 0) row = orig.batches[size_t(hint)].material;
            if (row < 0 || row > 0xFFFF)
                throw FormatError(where, Location::whole(),
                                  "a triangle of slot (node " + std::to_string(edits[e].node) +
                                      ", lod " + std::to_string(edits[e].lod) + ", group " +
                                      std::to_string(edits[e].group) +
                                      ") has a material that is not a row of the model's WEAR");
            // The batch: the claimed one if its material matches, else the slot's first batch of
            // that material, else a new batch.
            size_t bk = SIZE_MAX;
            if (hint >= 0 && out[size_t(hint)].fields.material == row) bk = size_t(hint);
            if (bk == SIZE_MAX && sk < S) {
                const Slot& s = orig.slots[sk];
                for (size_t b = s.batch_start; b < size_t(s.batch_start) + s.batch_count; ++b)
                    if (out[b].fields.material == row) {
                        bk = b;
                        break;
                    }
            }
            if (bk == SIZE_MAX)
                for (size_t nb : new_batches_of_slot[sk])
                    if (out[nb].fields.material == row) {
                        bk = nb;
                        break;
                    }
            if (bk == SIZE_MAX) {
                OutBatch nb;
                nb.slot = sk;
                // Spec defaults for a new batch; opaque6 from a template batch of the slot.
                nb.fields = Batch{};
                nb.fields.material = uint16_t(row);
                nb.fields.opaque4 = uint16_t(0xFF00 | (row & 0xFF));
                if (hint >= 0) nb.fields.opaque6 = orig.batches[size_t(hint)].opaque6;
                bk = out.size();
                new_batches_of_slot[sk].push_back(bk);
                out.push_back(std::move(nb));
            }
            std::array<VRef, 3> refs;
            for (int i = 0; i < 3; ++i) {
                const InCorner& c = t.corner[size_t(i)];
                const bool mine = cb[size_t(i)] >= 0 && bk < B && uses(L.used[bk], uint32_t(c.vid));
                if (mine && main_variant[size_t(c.vid)]->key == c.key) {
                    refs[size_t(i)] = {false, uint32_t(c.vid)};
                    continue;
                }
                const int64_t source = cb[size_t(i)] >= 0 ? c.vid : -1;
                uint32_t packed = 0;
                if (c.has_normal)
                    for (int k = 0; k < 3; ++k)
                        packed =
                            packed << 8 | uint8_t(encode_normal_component(c.normal[size_t(k)]));
                auto [it, inserted] =
                    fresh_of.try_emplace({bk, c.key, source, packed}, uint32_t(fresh.size()));
                if (inserted) fresh.push_back({source, c, bk});
                refs[size_t(i)] = {true, it->second};
            }
            out[bk].tris.push_back(refs);
            out[bk].orig_tri.push_back(-1);
        }
    }
}

// Original batches of untouched slots keep their triangles; survivors in edited batches.
void Retopology::keep_original_triangles() {
    for (size_t b = 0; b < B; ++b) {
        const Batch& bt = orig.batches[b];
        const size_t n = bt.index_count / 3;
        if (!covered[size_t(L.slot_of_batch[b])]) {
            for (size_t k = 0; k < n; ++k) {
                std::array<VRef, 3> refs;
                for (size_t c = 0; c < 3; ++c)
                    refs[c] = {false, bt.base_vertex + orig.indices[bt.index_start + 3 * k + c]};
                out[b].tris.push_back(refs);
                out[b].orig_tri.push_back(int64_t(k));
            }
            continue;
        }
        std::map<std::array<uint32_t, 3>, std::vector<size_t>> by_triple;
        for (size_t k = n; k-- > 0;) {
            std::array<uint32_t, 3> t;
            for (size_t c = 0; c < 3; ++c)
                t[c] = bt.base_vertex + orig.indices[bt.index_start + 3 * k + c];
            by_triple[rotate_min_first(t)].push_back(k); // back() is the first original
        }
        OutBatch& x = out[b];
        std::vector<std::pair<int64_t, std::array<VRef, 3>>> order;
        for (size_t j = 0; j < x.tris.size(); ++j) {
            auto& r = x.tris[j];
            int64_t k = -1;
            // Identity of a corner: its original vertex, or the one a split copy came from.
            auto ident = [&](const VRef& v) -> int64_t {
                return v.fresh ? fresh[v.id].source : int64_t(v.id);
            };
            const int64_t i0 = ident(r[0]), i1 = ident(r[1]), i2 = ident(r[2]);
            if (i0 >= 0 && i1 >= 0 && i2 >= 0 && i0 != i1 && i1 != i2 && i0 != i2) {
                auto it =
                    by_triple.find(rotate_min_first({uint32_t(i0), uint32_t(i1), uint32_t(i2)}));
                if (it != by_triple.end() && !it->second.empty()) {
                    k = int64_t(it->second.back());
                    it->second.pop_back();
                    // The stored corner order, each corner keeping the vertex it now uses.
                    const std::array<VRef, 3> in = r;
                    for (size_t c = 0; c < 3; ++c) {
                        const uint32_t w =
                            bt.base_vertex + orig.indices[bt.index_start + 3 * size_t(k) + c];
                        for (const VRef& v : in)
                            if (ident(v) == int64_t(w)) r[c] = v;
                    }
                }
            }
            order.push_back({k, r});
        }
        std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& c) {
            const uint64_t ka = a.first < 0 ? UINT64_MAX : uint64_t(a.first);
            const uint64_t kc = c.first < 0 ? UINT64_MAX : uint64_t(c.first);
            return ka < kc;
        });
        x.tris.clear();
        x.orig_tri.clear();
        for (auto& [k, r] : order) {
            x.tris.push_back(r);
            x.orig_tri.push_back(k);
            if (k >= 0)
                ++kept_tris;
            else
                ++added_tris;
        }
        removed_tris += n - (x.tris.size() -
                             size_t(std::count(x.orig_tri.begin(), x.orig_tri.end(), int64_t(-1))));
        if (n > 0 && x.tris.empty()) x.dropped = true;
    }
    for (size_t b = B; b < out.size(); ++b) added_tris += out[b].tris.size();
}

// Vertices: kept in original order, new ones after their batch's original range.
void Retopology::lay_out_vertices() {
    std::vector<bool> used_now(V, false);
    for (const OutBatch& x : out)
        for (const auto& r : x.tris)
            for (const VRef& v : r)
                if (!v.fresh) used_now[v.id] = true;
    auto insert_after = [&](size_t bk) -> size_t {
        if (bk < B) return L.range_end[bk];
        const size_t sk = out[bk].slot;
        if (sk < S && L.last_batch_of_slot[sk] >= 0)
            return L.range_end[size_t(L.last_batch_of_slot[sk])];
        return V; // the end
    };
    std::vector<std::vector<uint32_t>> fresh_at(V + 1);
    for (uint32_t f = 0; f < fresh.size(); ++f)
        fresh_at[std::min(insert_after(fresh[f].batch), V)].push_back(f);
    new_of_orig.assign(V, UINT32_MAX);
    new_of_fresh.resize(fresh.size());
    auto emit_fresh = [&](uint32_t f) {
        const Fresh& fr = fresh[f];
        new_of_fresh[f] = uint32_t(positions.size());
        const int64_t src = fr.source;
        source_of.push_back(src);
        positions.push_back(fr.data.pos);
        const int8_t w = src >= 0 && has_normals ? orig.normals[size_t(src)][3] : int8_t(0);
        if (fr.data.has_normal)
            normals.push_back(encode_normal(fr.data.normal, w));
        else
            normals.push_back(src >= 0 && has_normals ? orig.normals[size_t(src)]
                                                      : PackedNormal{0, 0, 127, 0});
        needs_normal.push_back(!fr.data.has_normal && src < 0);
        if (fr.data.has_uv)
            uvs.push_back({encode_uv(fr.data.uv[0]), encode_uv(fr.data.uv[1])});
        else
            uvs.push_back(src >= 0 && has_uvs ? orig.uvs[size_t(src)] : PackedUv{0, 0});
        // A split copy that stayed where its source is (a seam) did not move anything.
        moved_out.push_back(src < 0 || !same_bits(fr.data.pos, orig.positions[size_t(src)]));
    };
    for (size_t v = 0; v < V; ++v) {
        if (used_now[v] || !L.vertex_used[v]) {
            new_of_orig[v] = uint32_t(positions.size());
            source_of.push_back(int64_t(v));
            Vec3 p = orig.positions[v];
            PackedNormal n = has_normals ? orig.normals[v] : PackedNormal{0, 0, 127, 0};
            PackedUv uv = has_uvs ? orig.uvs[v] : PackedUv{0, 0};
            bool mv = false;
            if (const InCorner* c = main_variant[v]) {
                if (!c->pos_as_exported) p = c->pos, mv = true, ++moved;
                if (c->has_uv && !c->uv_as_exported)
                    uv = {encode_uv(c->uv[0]), encode_uv(c->uv[1])};
                if (c->has_normal && !c->normal_as_exported) n = encode_normal(c->normal, n[3]);
            }
            positions.push_back(p);
            normals.push_back(n);
            uvs.push_back(uv);
            moved_out.push_back(mv);
            needs_normal.push_back(false);
        } else {
            ++removed_verts;
        }
        for (uint32_t f : fresh_at[v]) emit_fresh(f);
    }
    for (uint32_t f : fresh_at[V]) emit_fresh(f);
}

// Batch order: original order, new batches after the last batch of their slot, new slots last.
void Retopology::order_batches() {
    for (size_t b = 0; b < B; ++b) {
        if (!out[b].dropped) batch_order.push_back(b);
        const size_t sk = out[b].slot;
        if (L.last_batch_of_slot[sk] == int(b))
            for (size_t nb : new_batches_of_slot[sk]) batch_order.push_back(nb);
    }
    for (size_t k = 0; k < new_slots.size(); ++k)
        for (size_t nb : new_batches_of_slot[S + k]) batch_order.push_back(nb);
}

// Lay out Res13, Res6 and Res7.
void Retopology::lay_out_records() {
    for (size_t bk : batch_order) {
        OutBatch& x = out[bk];
        std::vector<std::array<uint32_t, 3>> tv;
        for (const auto& r : x.tris) tv.push_back({resolve(r[0]), resolve(r[1]), resolve(r[2])});
        // Flags for new triangles: the batch's when all its kept triangles agree.
        std::optional<uint16_t> common;
        bool agree = true;
        for (size_t j = 0; j < tv.size(); ++j)
            if (x.orig_tri[j] >= 0) {
                const uint16_t f = orig.triangles[L.tris_of_batch[bk][size_t(x.orig_tri[j])]].flags;
                if (common && *common != f) agree = false;
                common = f;
            }
        const uint16_t new_flags = agree && common ? *common : 0;

        uint64_t base = UINT64_MAX;
        if (x.orig >= 0 && new_of_orig.size() > x.fields.base_vertex &&
            new_of_orig[x.fields.base_vertex] != UINT32_MAX)
            base = new_of_orig[x.fields.base_vertex];
        uint32_t lo = UINT32_MAX, hi = 0;
        for (const auto& t : tv)
            for (uint32_t v : t) lo = std::min(lo, v), hi = std::max(hi, v);
        const bool one = tv.size() * 3 <= kMaxIndexCount &&
                         (tv.empty() || (base <= lo && hi - base <= kMaxIndexValue));
        if (tv.empty() && base == UINT64_MAX) base = 0;
        size_t j = 0;
        do {
            // One chunk: greedy while the u16 index count and index range allow.
            size_t end = j;
            uint64_t chunk_base = base;
            if (one) {
                end = tv.size();
            } else {
                uint32_t clo = UINT32_MAX, chi = 0;
                while (end < tv.size() && (end - j + 1) * 3 <= kMaxIndexCount) {
                    uint32_t nlo = clo, nhi = chi;
                    for (uint32_t v : tv[end]) nlo = std::min(nlo, v), nhi = std::max(nhi, v);
                    if (nhi - nlo > kMaxIndexValue) break;
                    clo = nlo, chi = nhi, ++end;
                }
                if (end == j)
                    throw FormatError(where, Location::whole(),
                                      "a triangle spans more than 65,536 vertices of Res3; it "
                                      "cannot be addressed from one base vertex");
                chunk_base = clo;
                if (j > 0 || end < tv.size()) ++splits;
            }
            Batch nb = x.fields;
            nb.index_start = uint32_t(indices.size());
            nb.index_count = uint16_t((end - j) * 3);
            nb.base_vertex = uint32_t(chunk_base);
            uint32_t mx = 0;
            for (size_t t = j; t < end; ++t) {
                TriOut ti;
                ti.slot = x.slot;
                ti.v = tv[t];
                TriDesc d;
                if (x.orig_tri[t] >= 0) {
                    ti.orig_res7 = L.tris_of_batch[bk][size_t(x.orig_tri[t])];
                    d = orig.triangles[size_t(ti.orig_res7)];
                    bool touched = false;
                    for (uint32_t v : tv[t]) touched = touched || moved_out[v];
                    if (touched) {
                        // Self-check rule: recompute only a normal the rule reproduces.
                        const size_t r7 = size_t(ti.orig_res7);
                        if (r7 < rules.triangle_normals.size() && rules.triangle_normals[r7])
                            ti.rule_normal = true;
                        else
                            diagnostics.warn({}, Location::whole(),
                                             "Res7 triangle " + std::to_string(ti.orig_res7) +
                                                 ": stored normal does not follow the rule; kept");
                    }
                } else {
                    d.flags = new_flags;
                    ti.rule_normal = true;
                }
                d.link = {kNone, kNone, kNone};
                for (uint32_t v : tv[t]) {
                    indices.push_back(uint16_t(v - chunk_base));
                    mx = std::max<uint32_t>(mx, v - uint32_t(chunk_base));
                }
                tris.push_back(d);
                info.push_back(ti);
            }
            // opaque14: the vertex span (max + 1) when the original followed that rule.
            bool span_rule = x.orig < 0;
            if (x.orig >= 0) {
                const Batch& ob = orig.batches[size_t(x.orig)];
                uint32_t omx = 0;
                for (size_t i = 0; i < ob.index_count; ++i)
                    omx = std::max<uint32_t>(omx, orig.indices[ob.index_start + i]);
                span_rule = ob.index_count > 0 && ob.opaque14 == omx + 1;
            }
            if (span_rule && nb.index_count > 0) nb.opaque14 = uint16_t(mx + 1);
            batches.push_back(nb);
            slot_of_out_batch.push_back(x.slot);
            j = end;
        } while (j < tv.size());
    }
    if (tris.size() > kMaxTriangles)
        throw FormatError(where, Location::whole(),
                          "the edited model has " + std::to_string(tris.size()) +
                              " triangles; Res7 links address at most 65,535");
    if (batches.size() > kMaxRecords)
        throw FormatError(where, Location::whole(),
                          "the edited model has " + std::to_string(batches.size()) +
                              " batches; Res2 slots address at most 65,535");
    if (S + new_slots.size() > kMaxRecords)
        throw FormatError(where, Location::whole(), "more than 65,535 slots");
}

// Links: kept where the neighbour survived and still shares the edge; the rest paired by identical
// positions within the slot.
void Retopology::link_triangles() {
    std::vector<int64_t> new_of_res7(orig.triangles.size(), -1);
    for (size_t t = 0; t < info.size(); ++t)
        if (info[t].orig_res7 >= 0) new_of_res7[size_t(info[t].orig_res7)] = int64_t(t);
    std::map<std::tuple<size_t, std::array<uint32_t, 3>, std::array<uint32_t, 3>>,
             std::vector<OpenEdge>>
        open;
    auto pos_bits = [&](uint32_t v) {
        return std::array<uint32_t, 3>{bits(positions[v].x), bits(positions[v].y),
                                       bits(positions[v].z)};
    };
    for (size_t t = 0; t < info.size(); ++t) {
        const TriOut& ti = info[t];
        const bool edited_slot = ti.slot >= S || covered[ti.slot];
        for (int e = 0; e < 3; ++e) {
            const uint32_t a = ti.v[size_t(e)], b = ti.v[size_t((e + 1) % 3)];
            bool broken = false;
            if (ti.orig_res7 >= 0) {
                const uint16_t l = orig.triangles[size_t(ti.orig_res7)].link[size_t(e)];
                if (l != kNone) {
                    const int64_t n = l < new_of_res7.size() ? new_of_res7[l] : -1;
                    const auto& nv = n >= 0 ? info[size_t(n)].v : std::array<uint32_t, 3>{};
                    // Shared by position: DCCs and the game split vertices along edges.
                    auto has = [&](uint32_t v) {
                        for (uint32_t w : nv)
                            if (w == v || same_bits(positions[w], positions[v])) return true;
                        return false;
                    };
                    if (n >= 0 && has(a) && has(b)) {
                        tris[t].link[size_t(e)] = uint16_t(n);
                        ++links_kept;
                        continue;
                    }
                    broken = true;
                }
            }
            if (!edited_slot) continue;
            auto pa = pos_bits(a), pb = pos_bits(b);
            if (pb < pa) std::swap(pa, pb);
            open[{ti.slot, pa, pb}].push_back({t, e, ti.orig_res7 < 0, broken});
        }
    }
    for (auto& [key, list] : open)
        for (size_t i = 0; i < list.size(); ++i) {
            OpenEdge& p = list[i];
            if (tris[p.tri].link[size_t(p.edge)] != kNone) continue;
            for (size_t k = i + 1; k < list.size(); ++k) {
                OpenEdge& q = list[k];
                if (q.tri == p.tri || tris[q.tri].link[size_t(q.edge)] != kNone) continue;
                if (!(p.fresh || q.fresh || (p.broken && q.broken))) continue;
                tris[p.tri].link[size_t(p.edge)] = uint16_t(q.tri);
                tris[q.tri].link[size_t(q.edge)] = uint16_t(p.tri);
                ++links_made;
                break;
            }
        }
}

// Normals of new vertices that came without one: area-weighted face normals.
void Retopology::normals_of_new_vertices() {
    std::vector<std::array<double, 3>> acc(positions.size(), {0, 0, 0});
    for (const TriOut& ti : info) {
        const Vec3 &a = positions[ti.v[0]], &b = positions[ti.v[1]], &c = positions[ti.v[2]];
        const double e1[3] = {double(b.x) - a.x, double(b.y) - a.y, double(b.z) - a.z};
        const double e2[3] = {double(c.x) - a.x, double(c.y) - a.y, double(c.z) - a.z};
        const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                             e1[0] * e2[1] - e1[1] * e2[0]};
        for (uint32_t v : ti.v)
            if (needs_normal[v])
                for (size_t k = 0; k < 3; ++k) acc[v][k] += n[k];
    }
    for (size_t v = 0; v < positions.size(); ++v) {
        if (!needs_normal[v]) continue;
        const double l =
            std::sqrt(acc[v][0] * acc[v][0] + acc[v][1] * acc[v][1] + acc[v][2] * acc[v][2]);
        if (l > 0)
            normals[v] = encode_normal(
                {float(acc[v][0] / l), float(acc[v][1] / l), float(acc[v][2] / l)}, 0);
    }
    for (size_t t = 0; t < info.size(); ++t)
        if (info[t].rule_normal)
            tris[t].normal = face_normal(positions[info[t].v[0]], positions[info[t].v[1]],
                                         positions[info[t].v[2]]);
}

// Slots: ranges from the layout; emptied edited slots removed; new slots appended.
void Retopology::lay_out_slots() {
    const size_t slot_keys = S + new_slots.size();
    std::vector<int64_t> first_batch(slot_keys, -1), batch_count(slot_keys, 0);
    std::vector<int64_t> first_tri(slot_keys, -1), tri_count(slot_keys, 0);
    {
        size_t t = 0;
        for (size_t b = 0; b < batches.size(); ++b) {
            const size_t sk = slot_of_out_batch[b];
            if (first_batch[sk] < 0) first_batch[sk] = int64_t(b), first_tri[sk] = int64_t(t);
            ++batch_count[sk];
            tri_count[sk] += batches[b].index_count / 3;
            t += batches[b].index_count / 3;
        }
    }
    std::vector<uint16_t> new_slot_index(slot_keys, kNone);
    std::vector<bool> slot_changed(slot_keys, false);
    for (size_t b = 0; b < out.size(); ++b) {
        bool changed = b >= B || out[b].dropped;
        for (size_t j = 0; !changed && j < out[b].tris.size(); ++j)
            changed = out[b].orig_tri[j] < 0;
        if (b < B && !changed) {
            size_t survivors = out[b].tris.size();
            changed = survivors != orig.batches[b].index_count / 3;
            for (const auto& r : out[b].tris)
                for (const VRef& v : r) changed = changed || moved_out[resolve(v)];
        }
        if (changed) slot_changed[out[b].slot] = true;
    }
    for (size_t sk = 0; sk < slot_keys; ++sk) {
        const bool was_drawn = sk < S && orig.slots[sk].tri_count > 0;
        if (sk < S && covered[sk] && was_drawn && tri_count[sk] == 0) {
            ++removed_slots;
            continue;
        }
        Slot s = sk < S ? orig.slots[sk] : Slot{};
        if (batch_count[sk] > 0) {
            s.batch_start = uint16_t(first_batch[sk]);
            s.batch_count = uint16_t(batch_count[sk]);
            s.tri_start = uint16_t(first_tri[sk]);
            s.tri_count = uint16_t(tri_count[sk]);
        } else {
            s.batch_count = 0, s.tri_count = 0;
            s.batch_start = uint16_t(std::min<size_t>(s.batch_start, batches.size()));
            s.tri_start = uint16_t(std::min<size_t>(s.tri_start, tris.size()));
        }
        new_slot_index[sk] = uint16_t(slots.size());
        origin.push_back(sk >= S ? kNewSlot : slot_changed[sk] ? int(sk) : kUntouched);
        slots.push_back(s);
    }
    for (Node& n : m.nodes)
        for (uint16_t& w : n.slots)
            if (w != kNone) w = w < S ? new_slot_index[w] : kNone;
    for (size_t k = 0; k < new_slots.size(); ++k) {
        const NewSlot& ns = new_slots[k];
        if (new_slot_index[S + k] == kNone || ns.node >= m.nodes.size()) continue;
        m.nodes[ns.node].slots[size_t(ns.lod * kGroups + ns.group)] = new_slot_index[S + k];
    }
}

// Per-vertex raw streams follow their vertices; the new tables go into the model.
TopologyReport Retopology::commit() {
    for (const auto& [type, stride] : {std::pair{kVertexStream15, size_t(8)},
                                       {kVertexStream16, size_t(8)},
                                       {kVertexStream18, size_t(4)}}) {
        const auto e = m.container.find_type(type);
        if (!e) continue;
        nres::Entry& entry = m.container.entries[*e];
        if (entry.data.size() != stride * V) {
            diagnostics.warn({}, Location::whole(),
                             "Res" + std::to_string(type) + " is not one record per vertex; kept");
            continue;
        }
        Bytes data(stride * positions.size(), 0);
        for (size_t v = 0; v < positions.size(); ++v)
            if (source_of[v] >= 0)
                std::memcpy(data.data() + stride * v,
                            entry.data.data() + stride * size_t(source_of[v]), stride);
        entry.data = std::move(data);
        entry.attr1 = uint32_t(positions.size());
        entry.attr3 = uint32_t(stride);
    }
    // Res20's records name nodes (msh.md §7), not vertices or triangles: a topology edit keeps
    // every node where it was (new nodes go last), so the table stays valid as it is.

    m.positions = std::move(positions);
    if (has_normals) m.normals = std::move(normals);
    if (has_uvs) m.uvs = std::move(uvs);
    m.indices = std::move(indices);
    m.triangles = std::move(tris);
    m.batches = std::move(batches);
    m.slots = std::move(slots);
    recompute_slot_bounds(orig, rules, m, origin, diagnostics);

    TopologyReport report;
    report.triangles_kept = kept_tris;
    report.triangles_added = added_tris;
    report.triangles_removed = removed_tris;
    report.vertices_added = fresh.size();
    report.vertices_removed = removed_verts;
    report.vertices_moved = moved;
    report.batches = m.batches.size();
    report.batches_split = splits;
    report.slots_added = new_slots.size();
    report.slots_removed = removed_slots;
    report.links_kept = links_kept;
    report.links_made = links_made;
    return report;
}

} // namespace

TopologyReport retopologise(const Model& orig, const DerivedRules& rules, Model& m,
                            const std::vector<SlotEdit>& edits, DiagnosticSink& diagnostics,
                            const std::string& where) {
    Retopology r(orig, rules, m, edits, diagnostics, where);
    r.plan_slots();
    r.choose_main_variants();
    r.assign_triangles();
    r.keep_original_triangles();
    r.lay_out_vertices();
    r.order_batches();
    r.lay_out_records();
    r.link_triangles();
    r.normals_of_new_vertices();
    r.lay_out_slots();
    return r.commit();
}

} // namespace msh::mapping
