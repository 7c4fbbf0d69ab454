// The sidecar of an exported terrain level (design.md §3; `"kind": "terrain"`). Its binding layout
// (`mshconv-sidecar/2`, sidecar/terrain_binding.hpp) carries what glTF/OBJ cannot hold: the face
// rows, the NRes directories, fingerprints of the positions the file holds and raw blocks for the
// other resources; the import rebuilds Land.msh and Land.map from it and the file. The first
// layout (`mshconv-sidecar/1`, still read) carries both files in base64 beside a readable view
// (face rows, areals) that the import does not read. Face rows are keyed by face index = the
// TEXCOORD_2.x of the export (mapping/terrain_to_scene.hpp).
#pragma once

#include "formats/readings.hpp"

#include "formats/arealmap.hpp"
#include "formats/terrain.hpp"
#include "terrain_binding.hpp"
#include "written_file.hpp"

#include <memory>
#include <optional>
#include <utility>

#include <string>
#include <vector>

namespace msh::sidecar {

// The columns of a face row (terrain.md, Res2 face records), in both sidecar layouts.
inline constexpr const char* kFaceColumns[] = {"flags",
                                               "material_land1_row",
                                               "aux_land2_row",
                                               "unk06",
                                               "i0",
                                               "i1",
                                               "i2",
                                               "n0",
                                               "n1",
                                               "n2",
                                               "nx",
                                               "ny",
                                               "nz",
                                               "edge_class",
                                               "unk27"};

struct TerrainExportRecord {
    std::string source;       // address of Land.msh (portable_address: no folders)
    std::string output;       // file name of the export
    std::string format;       // gltf, glb or obj
    std::string map_source;   // address of Land.map, empty when none
    std::string wear1_source; // empty when none
    std::string wear2_source;
    std::vector<std::string> wear1_rows, wear2_rows;
    float lift = 0.5f;        // world +Z offset of the ArealMap node
    bool areal_faces = false; // OBJ: the areals also as filled faces (glTF always)
    std::string pair;         // the pairing token also stamped into the export (pairing.hpp)
    WrittenFile written;      // the glTF file as the export wrote it (written_file.hpp)
    Readings readings;        // the contested readings the export used (face-material)
};

// The pairing token of a terrain export: over Land.msh, Land.map and the record's fields that
// give the sidecar its meaning (not an address, nor the output's name, format or OBJ-only
// options).
std::string terrain_pairing_token(ByteView land_msh, ByteView land_map,
                                  const TerrainExportRecord& record);
// The same from the files' sizes and payload hashes (the map's: of no bytes when there is none).
std::string terrain_pairing_token_of(uint64_t msh_hash, uint64_t msh_size, uint64_t map_hash,
                                     const TerrainExportRecord& record);

// How an export of this version lays out its file (the sidecar's `conventions`): fixed, so an
// edited text is not read.
inline constexpr std::pair<const char*, const char*> kTerrainConventions[] = {
    {"axes", "(x, y, z) -> (x, z, -y), no scaling"},
    {"terrain_identity", "unshared vertices; TEXCOORD_2 = (face index, corner 0..2), "
                         "TEXCOORD_3 = (Land.msh vertex index, type-14 layer-1 weight)"},
    {"terrain_uv", "TEXCOORD_0 = type 5, TEXCOORD_1 = type 18, i16 / 1024"},
    {"areal_identity", "TEXCOORD_0 = (areal index, polygon vertex index)"},
    {"areal_lift", "ArealMap node translated along world +Z by options.lift"}};

// The terrain sidecar, typed: the export record and either the binding (an export, or a binding
// sidecar read back) or the original payloads (a first-layout sidecar read back). On the export
// side also the decoded level and the original payloads; the text writer writes the binding when
// there is one.
struct TerrainSidecar {
    TerrainExportRecord record;
    Bytes land_msh;                // the original Land.msh (first layout; the export)
    std::optional<Bytes> land_map; // the original Land.map; none when the export had none
    std::shared_ptr<const TerrainBinding> binding;
    std::shared_ptr<const terrain::Terrain> terrain;
    std::shared_ptr<const arealmap::ArealMap> map;
    std::string where; // the sidecar's name, for errors found by the import (binding sidecars)
    // Edited values the import does not read (the conventions), as warnings.
    std::vector<std::string> unread;

    bool has_map() const { return land_map || (binding && binding->land_map); }
};

// The sidecar text: the binding layout when `sidecar.binding` is set, else the first. One line per
// value whose compact form fits in `width` characters (a face row, an areal), nested indentation
// above that; newline-terminated. The face rows and the base64 are written straight into the text
// (no JSON DOM for them: a stress map has 65,535 faces).
std::string terrain_sidecar_text(const TerrainSidecar& sidecar, size_t width = 240);

} // namespace msh::sidecar
