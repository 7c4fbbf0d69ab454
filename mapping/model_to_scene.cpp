#include "model_to_scene.hpp"
#include "unique_names.hpp"

#include "formats/cp1251.hpp"

#include "formats/anim.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace msh::mapping {

namespace {

using Vec3a = std::array<float, 3>;

Vec3a sub(const Vec3a& a, const Vec3a& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec3a cross(const Vec3a& a, const Vec3a& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
// Normalises in double, returns false for a zero (or non-finite) vector.
bool normalize(Vec3a& v) {
    const double len = std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]);
    if (!(len > 1e-12) || !std::isfinite(len)) return false;
    for (float& c : v) c = float(double(c) / len);
    return true;
}

anim::Quat normalize_quat(const anim::Quat& q) {
    const double n = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] +
                               double(q[3]) * q[3]);
    if (!(n > 0) || !std::isfinite(n)) return {0, 0, 0, 1};
    return {float(q[0] / n), float(q[1] / n), float(q[2] / n), float(q[3] / n)};
}

// Decoded, normalised rotation of a key in glTF axes.
anim::Quat key_rotation(const std::array<int16_t, 4>& raw, KeyQuaternion order) {
    return to_gltf_quat(normalize_quat(anim::decode_quat(raw, order)));
}

// An unnamed node or mesh is called `node`, so every scene name says something.
std::string or_node(std::string name) {
    return name.empty() ? std::string("node") : name;
}

struct Builder {
    const Model& model;
    const ExportOptions& options;
    scene::Scene out;
    std::vector<int> material_of_row; // WEAR row -> scene material, -1 = not yet used
    // Per-batch working space, reused.
    std::vector<uint32_t> scratch_global, scratch_local;
    std::vector<uint8_t> scratch_ok;

    std::vector<int> lit_material_of_row; // the same for lit batches (lightmapped models)
    bool lightmap_uvs = false;            // TEXCOORD_2 from Res18

    int material(uint16_t row, bool lit) {
        std::vector<int>& table = lit ? lit_material_of_row : material_of_row;
        if (table.size() <= row) table.resize(size_t(row) + 1, scene::kNoIndex);
        int& m = table[row];
        if (m == scene::kNoIndex) {
            scene::Material mat;
            mat.name = row < options.material_names.size() && !options.material_names[row].empty()
                           ? options.material_names[row]
                           : "mat_" + std::to_string(row);
            mat.identity.wear_row = row;
            if (lit) {
                mat.name += "_lit";
                mat.identity.lightmap_row = 0; // every shipped LIGHTMAPS section has one row
            }
            m = int(out.materials.size());
            out.materials.push_back(std::move(mat));
        }
        return m;
    }

    // The WEAR row of a batch under the batch-material reading.
    uint16_t material_row(const Batch& b) const {
        if (options.batch_material == BatchMaterial::Row) return b.material;
        const int32_t id = b.opaque4 & 0xFF;
        for (size_t r = 0; r < options.material_ids.size() && r <= 0xFFFF; ++r)
            if (options.material_ids[r] == id) return uint16_t(r);
        return b.material;
    }

    // Res18 record v as a UV pair (two u16 / 1024).
    std::array<float, 2> lightmap_uv(size_t v) const {
        const nres::Entry* e = model.entry(kVertexStream18);
        return {float(load<uint16_t>(e->data, v * 4)) / 1024.0f,
                float(load<uint16_t>(e->data, v * 4 + 2)) / 1024.0f};
    }

    // One primitive per batch; returns false for an empty batch (no triangles).
    bool primitive(size_t batch_index, scene::Primitive& prim) {
        const std::string where = "Res13";
        if (batch_index >= model.batches.size())
            throw FormatError(where, batch_index * kBatchStride,
                              "batch " + std::to_string(batch_index) +
                                  " outside the batch table (" +
                                  std::to_string(model.batches.size()) + " batches)");
        const Batch& b = model.batches[batch_index];
        const size_t count = b.index_count - b.index_count % 3;
        if (count == 0) return false;
        if (size_t(b.index_start) + count > model.indices.size())
            throw FormatError(where, batch_index * kBatchStride,
                              "batch " + std::to_string(batch_index) + " indices [" +
                                  std::to_string(b.index_start) + ", +" + std::to_string(count) +
                                  ") outside Res6 (" + std::to_string(model.indices.size()) +
                                  " indices)");
        // The batch's vertices in increasing original order become 0..n-1; with the original
        // range dense enough (a batch owns its range), a lookup table, else a sorted list.
        std::vector<uint32_t>& global = scratch_global;
        global.resize(count);
        uint32_t lo = UINT32_MAX, hi = 0;
        for (size_t i = 0; i < count; ++i) {
            const uint64_t v = uint64_t(b.base_vertex) + model.indices[b.index_start + i];
            if (v >= model.positions.size())
                throw FormatError(where, batch_index * kBatchStride,
                                  "batch " + std::to_string(batch_index) + " references vertex " +
                                      std::to_string(v) + " of " +
                                      std::to_string(model.positions.size()));
            global[i] = uint32_t(v);
            lo = std::min(lo, uint32_t(v));
            hi = std::max(hi, uint32_t(v));
        }
        std::vector<uint32_t> used;
        prim.indices.resize(count);
        const size_t range = size_t(hi - lo) + 1;
        if (range <= 4 * count + 64) {
            constexpr uint32_t kUnused = UINT32_MAX;
            std::vector<uint32_t>& local = scratch_local;
            local.assign(range, kUnused);
            for (uint32_t g : global) local[g - lo] = 0;
            uint32_t next = 0;
            for (size_t r = 0; r < range; ++r)
                if (local[r] != kUnused) local[r] = next++;
            used.reserve(next);
            for (size_t r = 0; r < range; ++r)
                if (local[r] != kUnused) used.push_back(lo + uint32_t(r));
            for (size_t i = 0; i < count; ++i) prim.indices[i] = local[global[i] - lo];
        } else {
            used = global;
            std::sort(used.begin(), used.end());
            used.erase(std::unique(used.begin(), used.end()), used.end());
            for (size_t i = 0; i < count; ++i)
                prim.indices[i] =
                    uint32_t(std::lower_bound(used.begin(), used.end(), global[i]) - used.begin());
        }

        const bool has_normals = model.normals.size() == model.positions.size();
        const bool has_uvs = model.uvs.size() == model.positions.size();
        const size_t n = used.size();
        scene::Attribute pos{3, std::vector<float>(3 * n)}, nrm{3, {}}, uv0{2, {}},
            uv1{2, std::vector<float>(2 * n)};
        if (has_uvs) uv0.data.resize(2 * n);
        const bool with_lightmap_uvs = lightmap_uvs && has_uvs;
        scene::Attribute uv2{2, {}};
        if (with_lightmap_uvs) uv2.data.resize(2 * n);
        for (size_t i = 0; i < n; ++i) {
            const Vec3& src = model.positions[used[i]];
            const Vec3a g = to_gltf({src.x, src.y, src.z});
            std::copy(g.begin(), g.end(), pos.data.begin() + long(3 * i));
            if (has_uvs) {
                uv0.data[2 * i] = decode_uv(model.uvs[used[i]][0]);
                uv0.data[2 * i + 1] = decode_uv(model.uvs[used[i]][1]);
            }
            uv1.data[2 * i] = float(used[i]);
            uv1.data[2 * i + 1] = float(batch_index);
            if (with_lightmap_uvs) {
                const auto uv = lightmap_uv(used[i]);
                uv2.data[2 * i] = uv[0];
                uv2.data[2 * i + 1] = uv[1];
            }
        }
        if (has_normals) {
            nrm.data.resize(3 * n);
            std::vector<uint8_t>& ok = scratch_ok;
            ok.assign(n, 0);
            auto normal = [&](size_t i) { return nrm.data.data() + 3 * i; };
            auto position = [&](uint32_t i) {
                const float* p = pos.data.data() + 3 * size_t(i);
                return Vec3a{p[0], p[1], p[2]};
            };
            for (size_t i = 0; i < n; ++i) {
                const PackedNormal& s = model.normals[used[i]];
                Vec3a v = to_gltf({decode_normal_component(s[0]), decode_normal_component(s[1]),
                                   decode_normal_component(s[2])});
                ok[i] = normalize(v);
                std::copy(v.begin(), v.end(), normal(i));
            }
            // Zero-length stored normals: the face normal of the first usable triangle.
            for (size_t t = 0; t + 2 < prim.indices.size(); t += 3) {
                const uint32_t a = prim.indices[t], bb = prim.indices[t + 1],
                               c = prim.indices[t + 2];
                if (ok[a] && ok[bb] && ok[c]) continue;
                const Vec3a pa = position(a);
                Vec3a f = cross(sub(position(bb), pa), sub(position(c), pa));
                if (!normalize(f)) continue;
                for (uint32_t v : {a, bb, c})
                    if (!ok[v]) std::copy(f.begin(), f.end(), normal(v)), ok[v] = 1;
            }
            for (size_t i = 0; i < n; ++i)
                if (!ok[i]) {
                    float* d = normal(i);
                    d[0] = 0, d[1] = 1, d[2] = 0;
                }
        }
        prim.attributes["POSITION"] = std::move(pos);
        if (has_normals) prim.attributes["NORMAL"] = std::move(nrm);
        if (has_uvs) prim.attributes["TEXCOORD_0"] = std::move(uv0);
        prim.attributes["TEXCOORD_1"] = std::move(uv1);
        if (with_lightmap_uvs)
            prim.attributes["TEXCOORD_" + std::to_string(kLightmapTexcoord)] = std::move(uv2);
        // msh.md §6, one project's reading: opaque4 high byte 0x00 = lit, 0xFF = unlit.
        prim.material = material(material_row(b), with_lightmap_uvs && (b.opaque4 >> 8) == 0);
        return true;
    }

    // A mesh of the batches [first, first + count); kNoIndex when it would be empty.
    int mesh(const std::string& name, size_t first, size_t count, scene::MeshIdentity identity) {
        scene::Mesh m;
        m.name = name;
        m.identity = std::move(identity);
        for (size_t b = first; b < first + count; ++b) {
            scene::Primitive prim;
            if (primitive(b, prim)) m.primitives.push_back(std::move(prim));
        }
        if (m.primitives.empty()) return scene::kNoIndex;
        out.meshes.push_back(std::move(m));
        return int(out.meshes.size() - 1);
    }
};

// Parent of node i, or kNoIndex when hdr1 is none, out of range or would close a cycle.
std::vector<int> safe_parents(const std::vector<Node>& nodes) {
    std::vector<int> parent(nodes.size(), scene::kNoIndex);
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].parent != kNone && nodes[i].parent < nodes.size() && nodes[i].parent != i)
            parent[i] = nodes[i].parent;
    for (size_t i = 0; i < nodes.size(); ++i) {
        // Walk up; more steps than nodes means a cycle: detach i.
        int p = parent[i];
        for (size_t steps = 0; p != scene::kNoIndex; ++steps) {
            if (steps > nodes.size() || size_t(p) == i) {
                parent[i] = scene::kNoIndex;
                break;
            }
            p = parent[size_t(p)];
        }
    }
    return parent;
}

bool canonical_animation(const Model& model, const std::vector<anim::NodeFields>& fields) {
    DiagnosticSink sink(ReadMode::Tolerant);
    anim::validate(model.animation, fields, sink, "animation");
    return sink.diagnostics().empty();
}

void build_animation(Builder& b, const std::vector<anim::Track>& tracks,
                     const std::vector<anim::NodeFields>& fields) {
    const Model& model = b.model;
    const double fps = b.options.fps;
    const bool canonical = canonical_animation(model, fields);
    scene::Animation an;
    an.name = "timeline";
    an.extras = {
        {"fps", fps}, {"frame_count", model.animation.frame_count}, {"resampled", !canonical}};
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        if (model.nodes[i].map_start == kNone) continue;
        std::vector<float> frames;
        std::vector<anim::Pose> poses;
        if (canonical) {
            for (const anim::Key& k : tracks[i].keys) {
                frames.push_back(k.time);
                poses.push_back({anim::decode_quat(k.rot, model.animation.key_order), k.pos});
            }
        } else {
            for (uint32_t f = 0; f < model.animation.frame_count; ++f) {
                frames.push_back(float(f));
                poses.push_back(anim::sample(model.animation, fields[i], float(f)));
            }
        }
        scene::Channel tr, rot;
        tr.node = rot.node = int(i);
        tr.path = scene::Path::Translation;
        rot.path = scene::Path::Rotation;
        anim::Quat prev{0, 0, 0, 1};
        for (size_t k = 0; k < frames.size(); ++k) {
            const float t = float(double(frames[k]) / fps);
            tr.times.push_back(t);
            rot.times.push_back(t);
            const auto p = to_gltf(poses[k].pos);
            tr.values.insert(tr.values.end(), p.begin(), p.end());
            anim::Quat q = to_gltf_quat(normalize_quat(poses[k].rot));
            const double d = double(q[0]) * prev[0] + double(q[1]) * prev[1] +
                             double(q[2]) * prev[2] + double(q[3]) * prev[3];
            if (k > 0 && d < 0)
                for (float& c : q) c = -c;
            rot.values.insert(rot.values.end(), q.begin(), q.end());
            prev = q;
        }
        an.channels.push_back(std::move(tr));
        an.channels.push_back(std::move(rot));
    }
    if (!an.channels.empty()) b.out.animations.push_back(std::move(an));
}

} // namespace

namespace {

// The two words of a slot suffix: `lod` + `g` (lod-group) or `state` + `lod` (state-lod).
std::pair<std::string, std::string> slot_words(SlotNames names) {
    if (names == SlotNames::StateLod) return {"state", "lod"};
    return {"lod", "g"};
}

} // namespace

std::string slot_suffix(int lod, int group, SlotNames names) {
    const auto [first, second] = slot_words(names);
    std::string s;
    if (lod != 0) s += first + std::to_string(lod);
    if (group != 0) s += second + std::to_string(group);
    return s.empty() ? s : "@" + s;
}

std::optional<std::pair<int, int>> parse_slot_name(const std::string& name, std::string* base,
                                                   SlotNames names) {
    const size_t at = name.rfind('@');
    if (at == std::string::npos) return std::nullopt;
    const std::string s = name.substr(at + 1);
    const auto [first, second] = slot_words(names);
    size_t i = 0;
    int lod = 0, group = 0;
    bool any = false;
    // `word` and one digit 0..max at i: its value, and i moves past it.
    auto number = [&](const std::string& word, char max, int& value) {
        const size_t n = word.size();
        if (s.compare(i, n, word) != 0 || i + n >= s.size() || s[i + n] < '0' || s[i + n] > max)
            return;
        value = s[i + n] - '0';
        i += n + 1;
        any = true;
    };
    number(first, char('0' + kLods - 1), lod);
    number(second, char('0' + kGroups - 1), group);
    if (!any || i != s.size() || (lod == 0 && group == 0)) return std::nullopt;
    if (base) *base = name.substr(0, at);
    return std::pair{lod, group};
}

std::string lightmap_uv_problem(const Model& model) {
    const nres::Entry* e = model.entry(kVertexStream18);
    if (!e) return "the model has no Res18";
    if (e->data.size() != model.positions.size() * 4)
        return "Res18 holds " + std::to_string(e->data.size()) + " bytes, not 4 per vertex (" +
               std::to_string(model.positions.size()) + " vertices)";
    return "";
}

scene::Scene model_to_scene(const Model& model, const ExportOptions& options) {
    if (!(options.fps > 0) || !std::isfinite(options.fps))
        throw std::invalid_argument("fps must be a positive number");
    Builder b{model, options, {}, {}, {}, {}, {}, {}, false};
    b.lightmap_uvs = options.lightmapped && lightmap_uv_problem(model).empty();
    b.out.extras = {
        {"mshconv",
         {{"fps", options.fps},
          {"lod", options.lod == kAll ? nlohmann::json("all") : nlohmann::json(options.lod)},
          {"group", options.group == kAll ? nlohmann::json("all") : nlohmann::json(options.group)},
          {"legacy_nodes", model.legacy_nodes}}}};

    if (model.legacy_nodes) {
        scene::Node root;
        root.name = "root";
        root.identity.legacy_nodes = true;
        root.identity.node_count = model.node_count();
        scene::MeshIdentity whole;
        whole.legacy_nodes = true;
        root.mesh = b.mesh("root", 0, model.batches.size(), whole);
        b.out.nodes.push_back(std::move(root));
        return std::move(b.out);
    }

    std::vector<anim::NodeFields> fields;
    for (const Node& n : model.nodes) fields.push_back({n.map_start, n.fallback_key});
    const std::vector<anim::Track> tracks =
        model.nodes.empty() ? std::vector<anim::Track>{} : anim::decompose(model.animation, fields);
    const std::vector<int> parents = safe_parents(model.nodes);

    UniqueNames names;
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        const Node& n = model.nodes[i];
        scene::Node sn;
        sn.name = names.unique(or_node(cp1251_to_utf8(model.node_name(i)))); // glTF names are UTF-8
        sn.parent = parents[i];
        if (!tracks[i].keys.empty()) {
            // The fallback key (hdr3) is the last of the node's range.
            const anim::Key& k = options.rest_pose == RestPose::FallbackKey
                                     ? tracks[i].keys.back()
                                     : tracks[i].keys.front();
            sn.translation = to_gltf(k.pos);
            sn.rotation = key_rotation(k.rot, model.animation.key_order);
        }
        sn.identity.index = int(i);
        sn.identity.flags = n.flags;
        sn.identity.parent = n.parent;
        sn.identity.map_start = n.map_start;
        sn.identity.fallback_key = n.fallback_key;
        b.out.nodes.push_back(std::move(sn));
    }

    // lod_child[node][lod]: the scene node of that node's group-0 slot at that LOD.
    std::vector<std::array<int, kLods>> lod_child(
        model.nodes.size(), {scene::kNoIndex, scene::kNoIndex, scene::kNoIndex});
    const int lod0 = options.lod == kAll ? 0 : options.lod;
    const int group0 = options.group == kAll ? 0 : options.group;
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        for (int lod = 0; lod < kLods; ++lod) {
            if (options.lod != kAll && lod != options.lod) continue;
            for (int group = 0; group < kGroups; ++group) {
                if (options.group != kAll && group != options.group) continue;
                const uint16_t slot_index = model.nodes[i].slot(lod, group);
                if (slot_index == kNone) continue;
                if (slot_index >= model.slots.size())
                    throw FormatError("Res1", i * kNodeStride,
                                      "node " + std::to_string(i) + " slot " +
                                          std::to_string(slot_index) + " outside Res2 (" +
                                          std::to_string(model.slots.size()) + " slots)");
                const Slot& s = model.slots[slot_index];
                const std::string node_name = b.out.nodes[i].name;
                const bool primary = lod == lod0 && group == group0;
                const std::string mesh_name =
                    node_name + slot_suffix(lod, group, options.slot_names);
                scene::MeshIdentity slot;
                slot.node = int(i);
                slot.lod = lod;
                slot.group = group;
                slot.slot = slot_index;
                const int m = b.mesh(mesh_name, s.batch_start, s.batch_count, slot);
                if (m == scene::kNoIndex) continue;
                if (primary) {
                    b.out.nodes[i].mesh = m;
                    continue;
                }
                scene::Node child;
                child.name = names.unique(or_node(mesh_name));
                child.parent = int(i);
                child.mesh = m;
                child.identity.lod = lod;
                child.identity.group = group;
                child.identity.slot = slot_index;
                child.visible = false; // the selected slot shows; the others are there to edit
                if (group == 0) lod_child[i][size_t(lod)] = int(b.out.nodes.size());
                b.out.nodes.push_back(std::move(child));
            }
        }
    }

    if (options.msft_lod && options.lod == kAll) {
        // Screen coverage thresholds: one per level including the base (MSFT_lod convention).
        const float coverage[kLods + 1] = {0.5f, 0.2f, 0.05f, 0.0f};
        for (size_t i = 0; i < model.nodes.size(); ++i) {
            scene::Node& n = b.out.nodes[i];
            if (n.mesh == scene::kNoIndex) continue;
            for (int lod = 1; lod < kLods; ++lod)
                if (lod_child[i][size_t(lod)] != scene::kNoIndex) {
                    n.lod_ids.push_back(lod_child[i][size_t(lod)]);
                    // An MSFT_lod level is chosen by the viewer: never hidden.
                    b.out.nodes[size_t(lod_child[i][size_t(lod)])].visible = true;
                }
            if (n.lod_ids.empty()) continue;
            n.lod_coverage.assign(coverage, coverage + n.lod_ids.size() + 1);
        }
    }

    bool animated = false;
    for (const Node& n : model.nodes) animated = animated || n.map_start != kNone;
    if (animated) build_animation(b, tracks, fields);
    return std::move(b.out);
}

} // namespace msh::mapping
