// Terrain import: an incoming scene (glTF/GLB through gltf::read, or the OBJ text) overlaid onto
// the original Land.msh / Land.map the terrain sidecar carries (design.md §2-§3, terrain.md §9).
// The original level is exported again (terrain_to_scene with the recorded lift and areal-faces
// option) and every incoming value is compared with what the exporter produced from it: equal ->
// the stored value stays; no change at all -> the original bytes of both files.
//
// Identity
//   glTF: node `Terrain`, TEXCOORD_2 = (face index, corner), TEXCOORD_3.x = vertex index (must
//     name the face's vertex); nodes `ArealMap_areas` (TRIANGLES) and `ArealMap_outlines` (LINES,
//     read with gltf::ReadOptions::lines), TEXCOORD_0 = (areal index, polygon vertex).
//   OBJ: by order, as the exporter wrote them: the k-th `v` line of object `Terrain` is the k-th
//     exported corner (materials ascending, faces in file order, corners 0..2), of
//     `ArealMap_outlines` the k-th outline point (areals in order, V points each), of
//     `ArealMap_areas` the k-th vertex of the filled polygons; the `f` / `l` lines say which are
//     still used. The lift baked into OBJ overlay positions is removed by the inverse transform.
// Overlay rule (filled polygons and outlines; README "Editing terrain")
//   Each polygon vertex is compared with the exporter's value in every representation present.
//   A vertex moved in one representation and unchanged in the other takes the moved position
//   (so an outline-only edit and a fill-only edit both count); moved to the same place in both:
//   fine; moved to different places: FormatError naming the areal, the vertex and both nodes.
//   Outlines whose TEXCOORD_0 a tool dropped can only be checked as a set of positions: any
//   position that is neither exported nor a moved fill vertex is a FormatError (never ignored).
//   An areal missing from every representation present is deleted: later areals move down one
//   index, links to it become (-1, -1) (its neighbours lose that neighbour, links stay mutual),
//   other links and extra links follow the new indices, attr1 = the new count, and the grid is
//   rebuilt by the §9 rule (or, when the original does not follow it, keeps its cells with the
//   deleted ids removed and the others renumbered). Missing from one representation but present
//   in the other, or losing only some vertices: FormatError. Deleting every areal: FormatError.
// Positions
//   Every position is compared per component in glTF world space (node transforms applied) with
//   the exporter's value for the same element; a component that is equal keeps its stored float
//   exactly (so the +0.5 lift never leaks into an unedited coordinate), a changed one is mapped
//   back (inverse node transform, (x, y, z) -> (x, -z, y)). Corners of one vertex that were moved
//   to different places are an error; moved and unmoved corners of one vertex: the moved value.
//
// Rebuilt for moved terrain vertices
//   type 3 position; type 4 normal of every vertex of every face that uses a moved vertex
//   ("touched" vertices): the normalised sum of the unit geometric normals of the usable faces
//   around the vertex (unweighted average; computed in double), encoded i8 = clamp(round(c*127))
//   per component, byte 3 kept; a zero sum keeps the stored normal. Face normals (+20..+24) of
//   faces using a moved vertex: terrain::packed_face_normal, only when every stored normal of an
//   unchanged usable face is unit length at /32767 (within 1e-2), else kept with a warning. Slot
//   AABB/sphere of slots whose face range holds such a face, and the Res2 header hull/sphere/
//   capsule: by the rule of the generated corpus (AABB of the slot's face vertices, sphere around
//   the AABB centre), applied only when that rule reproduces every stored value of the original
//   bit for bit (self-check), else kept with a warning. Neighbours, flags, tails, types 1, 11, 14
//   are kept.
// Rebuilt for moved areal vertices
//   the areal's vertices; area, normal (0, 0, 1), anchor strictly inside and reserved fields by
//   arealmap::apply_polygon_rules; links kept (mutual as before); the grid rebuilt by
//   arealmap::rebuild_grid (terrain.md §9 rule) when that rule reproduces the original grid
//   exactly, else kept verbatim with a warning. The report lists changed and deleted areals by
//   their exported (sidecar) index.
//
// Refused (FormatError): deleted or added terrain faces (terrain.md §9: topology edits are
// refused; the message counts and names the missing faces), triangles whose corners do not belong
// to one face, added areals or polygon vertices, removed polygon vertices, conflicting overlay
// edits (above).
// Not imported yet (reported as warnings when they differ): NORMAL, UV and weight edits.
#pragma once

#include "formats/bytes.hpp"
#include "scene/scene.hpp"
#include "sidecar/terrain_sidecar_read.hpp"

#include "change_report.hpp"

#include <string>
#include <vector>

namespace msh::mapping {

struct TerrainImportResult {
    Bytes land_msh;
    Bytes land_map;             // empty when the sidecar has no Land.map
    bool msh_identical = true;  // land_msh == the sidecar's original
    bool map_identical = true;  // land_map == the sidecar's original
    TerrainImportReport report; // what changed, what was recomputed, warnings
    std::string pairing;        // the file and its sidecar: sidecar::to_string(Pairing)
};

// The nodes whose meshes import_terrain_scene reads (Terrain, ArealMap_areas, ArealMap_outlines);
// the others (the second layer, the draped overlay) are pictures of the same data.
const std::vector<std::string>& terrain_import_nodes();

// glTF / GLB scene (gltf::read).
TerrainImportResult import_terrain_scene(const scene::Scene& incoming,
                                         const sidecar::TerrainSidecar& sidecar,
                                         const std::string& where);
// OBJ text as the terrain exporter wrote it (identity by order).
TerrainImportResult import_terrain_obj(const std::string& obj_text,
                                       const sidecar::TerrainSidecar& sidecar,
                                       const std::string& where);

} // namespace msh::mapping
