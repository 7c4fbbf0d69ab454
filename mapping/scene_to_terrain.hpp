// Terrain import: an incoming scene (glTF/GLB through gltf::read, or the OBJ text) overlaid onto
// the original Land.msh / Land.map: rebuilt from a binding sidecar and the file
// (mapping/terrain_rebuild.hpp), or carried whole by a first-layout one. The original level is
// exported again and every incoming value compared with what the exporter produced from it: equal
// -> the stored value stays; no change at all -> the original bytes of both files. The rules
// (identity, the overlay rule, what is rebuilt, what is refused) are specified in docs/import.md,
// "Terrain".
#pragma once

#include "formats/bytes.hpp"
#include "formats/terrain.hpp"
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

// The import's refusal of terrain faces the file lost (their indices), named in `where`.
[[noreturn]] void refuse_missing_faces(const std::vector<size_t>& missing,
                                       const std::string& where);

// Whether a level's stored slot bounds and Res2 header follow the import's recompute rules
// (docs/import.md, "Terrain"). A binding sidecar records them: the check needs the original
// positions, which an edit in the file replaces.
struct TerrainRuleFacts {
    bool slot_bounds = false, header = false;
};
TerrainRuleFacts terrain_rule_facts(const terrain::Terrain& t);

// glTF / GLB scene (gltf::read).
TerrainImportResult import_terrain_scene(const scene::Scene& incoming,
                                         const sidecar::TerrainSidecar& sidecar,
                                         const std::string& where);
// OBJ text as the terrain exporter wrote it (identity by order).
TerrainImportResult import_terrain_obj(const std::string& obj_text,
                                       const sidecar::TerrainSidecar& sidecar,
                                       const std::string& where);

} // namespace msh::mapping
