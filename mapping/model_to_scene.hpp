// MSH Model -> neutral Scene (design.md §2 and §4, msh.md §12, animation.md §10).
//
// - One scene node per Res1 node, parented by hdr1, named uniquely from Model::node_name()
//   (duplicates get `_2`, `_3`, ...), identity {index, flags, parent, map_start, fallback_key}.
//   Rest pose = the node's first key. The legacy stride-24 table gives one root node drawing
//   every batch in order, without animation (identity {legacy_nodes, node_count}).
// - Each exported (node, lod, group) slot is one mesh with one primitive per non-empty batch.
//   The primary slot (lod/group as selected, 0/0 when "all") hangs on the node itself; the
//   other selected slots become child nodes `<node>@lod1`, `<node>@g4`, `<node>@lod1g4` with
//   identity TRS and the slot's identity {lod, group, slot}; each slot's mesh has the identity
//   {node, lod, group, slot} (scene/identity.hpp).
// - Primitive vertices are compacted: the vertices a batch references, in ascending Res3 order.
//   TEXCOORD_1 = (Res3 vertex index, batch index) as exact whole floats (the identity route).
//   NORMAL = decoded (/127, clamp) and normalised; a zero-length stored normal is replaced by the
//   face normal of the first non-degenerate triangle using the vertex (else +Y) so that glTF
//   consumers get unit normals; the sidecar / raw Res4 keeps the original bytes.
// - Axes: (x, y, z) -> (x, z, -y); quaternions (x, y, z, w) -> (x, z, -y, w).
// - Animation: for every mapped node a translation and a rotation channel, one key per MSH key,
//   time = frame / fps; rotations normalised (zero -> identity) and hemisphere-continuous.
//   Non-canonical animation data is resampled at every whole frame with anim::sample().
// - Lightmaps (texm-materials.md §11-§12, msh.md §5; both readings unverified): with
//   `lightmapped` set and a Res18 of one 4-byte record per vertex, every primitive also gets
//   TEXCOORD_2 = Res18 as two u16 / 1024 (u, v; no flip, like TEXCOORD_0), and batches whose
//   Res13 opaque4 high byte is 0x00 ("lit" in one project's reading; 0xFF = unlit) use a lit
//   variant of their material: `<name>_lit`, identity {wear_row, lightmap_row: 0}. The lightmap
//   image itself is attached later (mapping/materials: apply_lightmaps).
#pragma once

#include "formats/msh.hpp"
#include "formats/readings.hpp"
#include "scene/scene.hpp"

#include <optional>
#include <string>
#include <vector>

namespace msh::mapping {

constexpr int kAll = -1;

// Which key poses a node at rest (a contested reading, level.md §4): its first key (one
// project's reading; the model export's) or its fallback key, the last of its range (another's).
enum class RestPose { FirstKey, FallbackKey };

struct ExportOptions {
    int lod = 0;     // 0..2, or kAll
    int group = 0;   // 0..4, or kAll
    double fps = 24; // frames per second for key times
    // With lod = all: also write MSFT_lod on each node whose group-0 slot has coarser levels.
    bool msft_lod = false;
    // WEAR row names (material index -> name); rows beyond the list are named mat_<row>.
    std::vector<std::string> material_names;
    // The WEAR has a LIGHTMAPS section: decode Res18 as lightmap UVs, lit material variants.
    bool lightmapped = false;
    // Which batch field names the material (a contested reading, formats/readings.hpp): the +2
    // row, or the +4 byte matched against the WEAR rows' legacy ids (`material_ids`, in row
    // order; a byte no row has falls back to the +2 row).
    BatchMaterial batch_material = BatchMaterial::Row;
    std::vector<int32_t> material_ids;
    SlotNames slot_names = SlotNames::LodGroup; // the slot nodes' names (the slots reading)
    RestPose rest_pose = RestPose::FirstKey;
};

// The name suffix of a non-primary slot (a, b) = (lod, group): `@lod1`, `@g4`, `@lod1g4` ("" for
// 0, 0); under the state-lod reading (a, b) = (damage state, LOD): `@state1`, `@lod4`,
// `@state1lod4`. And its inverse: (a, b) and the base name, nullopt for any other name (and for
// 0, 0).
std::string slot_suffix(int lod, int group, SlotNames names = SlotNames::LodGroup);
std::optional<std::pair<int, int>> parse_slot_name(const std::string& name, std::string* base,
                                                   SlotNames names = SlotNames::LodGroup);

// The UV set lightmap UVs go to: TEXCOORD_0 is the diffuse UV, TEXCOORD_1 the vertex identity.
constexpr int kLightmapTexcoord = 2;

// Why Res18 cannot serve as lightmap UVs ("" when it can): missing, or not 4 bytes per vertex.
std::string lightmap_uv_problem(const Model& model);

// Axis mapping helpers (exact: only permutation and sign).
inline std::array<float, 3> to_gltf(const std::array<float, 3>& v) {
    return {v[0], v[2], -v[1]};
}
inline std::array<float, 4> to_gltf_quat(const std::array<float, 4>& q) {
    return {q[0], q[2], -q[1], q[3]};
}

// Throws FormatError when the model's tables reference data outside their pools.
scene::Scene model_to_scene(const Model& model, const ExportOptions& options);

} // namespace msh::mapping
