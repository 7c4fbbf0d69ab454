// Terrain level (Land.msh + Land.map + Land1.wea/Land2.wea) -> neutral Scene (terrain.md §10,
// design.md §2/§4). Pure mapping: no file access.
//
// Scene layout
//   node `Terrain` (root), mesh `Terrain`: one TRIANGLES primitive per materialId (ascending),
//     material = Land1.wea row name (`land1_row_<id>` past the end of the list; duplicates get
//     `_2`, `_3`, ...), material identity {wear: "Land1.wea", wear_row: id}. Faces in file order
//     inside each primitive, indices i0, i1, i2 in file order (winding kept).
//   Vertices are NOT shared: every face owns three vertices (corner k = vertex i_k), so every
//   corner carries its own identity, and that identity survives Blender's import/export (which
//   keeps every TEXCOORD_n value for value and may split, merge or reorder primitives/vertices):
//     POSITION   = type 3, (x, y, z) -> (x, z, -y), no scaling
//     NORMAL     = type 4, i8 / 127 (clamped), normalised (a zero vector falls back to the face's
//                  geometric normal, then to +Y); the raw bytes stay in the sidecar's Land.msh
//     TEXCOORD_0 = type 5 (layer 1), i16 / 1024 (decision 6)
//     TEXCOORD_1 = type 18 (layer 2), i16 / 1024
//     TEXCOORD_2 = (face index, corner k in 0..2), exact whole floats   <- per-face identity
//     TEXCOORD_3 = (Res3 vertex index as a whole float, type-14 layer-1 weight as f32)
//                  (weight 1.0 when type 14 is absent, 0.0 when the stored bits are not finite;
//                  the sidecar carries the raw bits the file cannot hold, terrain_binding.hpp)
//   Face fields (flags, materialId, auxByte/Land2 row, unk06, neighbours, packed face normal,
//   edgeClass, unk27) live in the sidecar keyed by face index (sidecar/terrain_sidecar.hpp).
//   Faces the tolerant reader flags as unusable (indices out of range) are left out of the mesh
//   and listed in the Terrain node extras (`skipped_faces`).
//
//   node `Terrain_layer2` (root, with `layer2` only; glTF exports and previews), translation
//     (0, layer2_lift, 0): the faces with an auxByte again, one TRIANGLES primitive per Land2.wea
//     row (material = its name, identity {wear: "Land2.wea", wear2_row}, alpha BLEND), unshared
//     vertices, TEXCOORD_0 = type 18, COLOR_0 = (1, 1, 1, 1 - type-14 weight): layer 2 over
//     layer 1 as the game mixes them. The import ignores the node.
//   node `ArealMap` (root, separate from `Terrain`), translation (0, lift, 0): the overlay is
//   lifted `areal_lift` units (default 0.5) along world +Z (glTF +Y) so it sits visibly above the
//   ground. The lift is only in the node transform; vertex positions are the stored ones.
//     child `ArealMap_outlines`: one LINES primitive, every areal with V >= 2 contributes V
//       vertices and V segments (v_k, v_(k+1 mod V)); TEXCOORD_0 = (areal index, vertex k).
//     child `ArealMap_areas`: filled polygons, one TRIANGLES primitive per (class_id, logic_flag),
//       material `areal_class_<id>` (logic_flag 1) or `areal_class_<id>_logic_<flag>`, identity
//       {class_id, logic_flag}. Each areal owns its V vertices (TEXCOORD_0 = (areal, k)) and is
//       triangulated by ear clipping in XY (V - 2 triangles for V >= 3, counter-clockwise seen
//       from above whatever the stored orientation; polygons with V > 256 are fanned from vertex
//       0). The per-areal fields (anchor, area, normal, class id, logic flag, links) are in the
//       sidecar; the ArealMap node extras hold counts and the lift.
#pragma once

#include "formats/arealmap.hpp"
#include "formats/terrain.hpp"
#include "scene/scene.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace msh::mapping {

struct TerrainSceneOptions {
    // The WEAR files the face bytes name (the face-material reading, formats/readings.hpp): byte 4
    // (materialId, every face) and byte 5 (auxByte, 0xFF = none); the names below are their rows.
    std::string layer1_wear = "Land1.wea", layer2_wear = "Land2.wea";
    std::vector<std::string> layer1_names; // Land1.wea rows (materialId)
    std::vector<std::string> layer2_names; // Land2.wea rows (auxByte), listed in node extras
    float areal_lift = 0.5f;               // world +Z offset of the ArealMap node
    bool areal_faces = true;               // build ArealMap_areas
    // Also the node `Terrain_layer2`: layer 2 blended over layer 1 (for viewers; glTF only, the
    // import ignores it). Off by default: the import rebuilds the expected scene without it.
    bool layer2 = false;
    float layer2_lift = 0.2f; // world +Z offset of that node: above layer 1, below the overlay
};

inline constexpr const char* kTerrainNode = "Terrain";
inline constexpr const char* kTerrainLayer2Node = "Terrain_layer2";
inline constexpr const char* kArealNode = "ArealMap";
inline constexpr const char* kArealOutlinesNode = "ArealMap_outlines";
inline constexpr const char* kArealAreasNode = "ArealMap_areas";

// Each areal's triangulate_xy, by areal.
using ArealTriangles = std::vector<std::vector<std::array<uint32_t, 3>>>;

// `areal_map` may be null (no Land.map) or undecoded (kept raw): no overlay then.
// `areal_triangles`, if given, receives the triangulations ArealMap_areas is built from (for the
// draped overlay, which needs the same; left empty without areal faces).
scene::Scene terrain_to_scene(const terrain::Terrain& terrain, const arealmap::ArealMap* areal_map,
                              const TerrainSceneOptions& options,
                              ArealTriangles* areal_triangles = nullptr);

// Ear clipping of a simple polygon in XY: V - 2 triangles (indices into `poly`), each
// counter-clockwise in XY. Collinear or degenerate input still yields V - 2 (possibly zero-area)
// triangles; V > 256 is fanned from vertex 0. Empty for V < 3.
std::vector<std::array<uint32_t, 3>> triangulate_xy(const std::vector<arealmap::Vec3>& poly);

} // namespace msh::mapping
