// The original level rebuilt from a binding terrain sidecar (sidecar/terrain_binding.hpp) and the
// incoming file: every resource from its rows or block, type-3 positions from the vertices the
// sidecar carries and, for the others, from the incoming copy whose value has the vertex's
// fingerprint. A vertex no copy matches was edited (or its faces removed): its original position
// is unknown and stands as NaN, so that every comparison the import makes with it finds a change.
#pragma once

#include "formats/bytes.hpp"
#include "scene/scene.hpp"
#include "sidecar/terrain_binding.hpp"

#include <optional>
#include <string>
#include <vector>

namespace msh::mapping {

// An incoming copy of a vertex's position, in game space (Z up).
struct PositionCopy {
    uint32_t vertex = 0;
    Vec3 position;
};

// The copies a glTF scene holds: every vertex of the `Terrain` node's triangles with a whole
// TEXCOORD_3.x (the import checks the identity itself).
std::vector<PositionCopy> gltf_position_copies(const scene::Scene& incoming);
// The copies an OBJ holds: the `Terrain` object's vertices in the order the export wrote them.
std::vector<PositionCopy> obj_position_copies(const std::string& obj_text,
                                              const sidecar::TerrainBinding& binding,
                                              const std::string& where);

struct RebuiltLevel {
    Bytes land_msh;
    std::optional<Bytes> land_map;
    size_t positions_unknown = 0;
    // JSON pointers of the rows the sidecar's text changed (/faces/rows/3, /blocks/2, ...).
    std::vector<std::string> edited_rows;
};

RebuiltLevel rebuild_level(const sidecar::TerrainBinding& binding,
                           const std::vector<PositionCopy>& copies);

// Whether Land.msh / Land.map are the files the sidecar records (size and XXH3-64).
bool is_recorded_msh(const sidecar::TerrainBinding& binding, ByteView land_msh);
bool is_recorded_map(const sidecar::TerrainBinding& binding, ByteView land_map);

} // namespace msh::mapping
