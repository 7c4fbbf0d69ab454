// The original level rebuilt from a binding terrain sidecar (sidecar/terrain_binding.hpp) and the
// incoming file: every resource from its rows or block, the faces' vertex indices from the rows
// or the file's corners, type-3 positions from the vertices the sidecar carries and, for the
// others, from the incoming copy whose value has the vertex's fingerprint. A vertex no copy matches
// was edited (or its faces removed): its original position is unknown and stands as NaN, so that
// every comparison the import makes with it finds a change. The UVs and weights the file holds
// (sidecar::kVertexStreams) are found the same way, each by its own fingerprint, and so are
// Land.map's polygon vertices (sidecar::FileVertices: the overlay's copies, unlifted).
#pragma once

#include "formats/bytes.hpp"
#include "scene/scene.hpp"
#include "sidecar/terrain_binding.hpp"

#include <optional>
#include <string>
#include <vector>

namespace msh::mapping {

// An incoming corner: its face and corner, the vertex it names, its position in game space (Z up)
// and the stream values the file gives it (kVertexStreams order: layer-1 UV, layer-2 UV, weight
// in [0]), each where `holds` has its bit.
struct CornerCopy {
    uint32_t face = 0, corner = 0, vertex = 0;
    Vec3 position;
    std::array<std::array<float, 2>, sidecar::kStreamCount> streams{};
    uint8_t holds = 0;
};

// The stored record of an incoming stream value: a UV encoded as the export decoded it
// (terrain.md §3: clamp(round(f·1024))), a weight's f32 bits.
uint32_t stream_record(size_t stream, const std::array<float, 2>& value);

// An incoming copy of a polygon vertex: its areal, its index in the polygon and its position in
// the overlay's raw layer (glTF axes, world: lifted).
struct ArealCopy {
    uint32_t areal = 0, k = 0;
    std::array<float, 3> world{};
};

// The corners a glTF scene holds: every vertex of the `Terrain` node's triangles with whole
// TEXCOORD_2 and TEXCOORD_3.x (the import checks the identity itself).
std::vector<CornerCopy> gltf_corner_copies(const scene::Scene& incoming);
// The polygon vertices a glTF scene holds: every vertex of the `ArealMap_areas` triangles and
// `ArealMap_outlines` lines with a whole TEXCOORD_0.
std::vector<ArealCopy> gltf_areal_copies(const scene::Scene& incoming);
// The corners an OBJ holds: the `Terrain` object's vertices in the order the export wrote them
// (its sidecar holds every face's indices; one written for a glTF export is refused); and into
// `areal` the polygon vertices of its `ArealMap_outlines` and `ArealMap_areas` objects, in the
// order the export wrote them (`areal_faces`: whether it wrote the filled polygons).
std::vector<CornerCopy> obj_corner_copies(const std::string& obj_text,
                                          const sidecar::TerrainBinding& binding, bool areal_faces,
                                          std::vector<ArealCopy>& areal, const std::string& where,
                                          const std::string& sidecar_where);

struct RebuiltLevel {
    Bytes land_msh;
    std::optional<Bytes> land_map;
    size_t positions_unknown = 0;
    // Per vertex, bit s: no incoming copy has stream s's fingerprint (an edit in the file); the
    // rebuilt record is a placeholder the import replaces.
    std::vector<uint8_t> streams_unknown;
    size_t stream_values_unknown = 0;
    // The polygon vertices (areal, k) no incoming copy gives back (moved in the file, or gone with
    // a deleted areal): (0, 0, 0) in `land_map`, taken from the file by the import.
    std::vector<std::pair<uint32_t, uint32_t>> areal_unknown;
    // JSON pointers of the rows the sidecar's text changed (/faces/rows/3, /blocks/2, ...).
    std::vector<std::string> edited_rows;
    // The first vertex neither carried by the sidecar nor held by the file. A terrain edit never
    // drops one (a face that loses a corner is refused), so its carried rows no longer line up.
    std::optional<uint32_t> first_unheld;
};

// Throws FormatError naming `where` when a face whose indices the file holds lost a corner.
// `areal_lift`: the export's (sidecar::TerrainExportRecord::lift), which the polygon vertices'
// copies are unlifted by.
RebuiltLevel rebuild_level(const sidecar::TerrainBinding& binding,
                           const std::vector<CornerCopy>& copies,
                           const std::vector<ArealCopy>& areal_copies, float areal_lift,
                           const std::string& where);

// Whether Land.msh / Land.map are the files the sidecar records (size and XXH3-64).
bool is_recorded_msh(const sidecar::TerrainBinding& binding, ByteView land_msh);
bool is_recorded_map(const sidecar::TerrainBinding& binding, ByteView land_map);

} // namespace msh::mapping
