// The sidecar of an exported terrain level (design.md §3; `"kind": "terrain"`): the original
// Land.msh and Land.map payloads (base64, size, FNV-1a 64 as 16 hex digits) so an import can
// restore every unchanged record exactly, plus the readable fields glTF/OBJ cannot carry:
//   terrain.faces: {columns: [...], rows: [[...] per face]} keyed by face index = the
//     TEXCOORD_2.x of the export (mapping/terrain_to_scene.hpp); flags also as hex strings;
//   areal_map.areals: one object per areal (anchor, area, normal, class id, logic flag, links,
//     reserved fields, vertex count) keyed by areal index = TEXCOORD_0.x of the overlay;
//   the WEAR rows used for material names; the NRes directories.
// No per-vertex JSON: vertex streams travel only inside the base64 Land.msh.
#pragma once

#include "formats/readings.hpp"

#include "formats/arealmap.hpp"
#include "formats/terrain.hpp"
#include "written_file.hpp"

#include <memory>
#include <optional>

#include <string>
#include <vector>

namespace msh::sidecar {

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

// The terrain sidecar, typed: the export record, the original payloads and, on the export side,
// the decoded level its readable part is written from (a sidecar read back leaves them null: the
// import uses only the payloads and the record; the text writer then decodes the payloads).
struct TerrainSidecar {
    TerrainExportRecord record;
    Bytes land_msh;                // the original Land.msh
    std::optional<Bytes> land_map; // the original Land.map; none when the export had none
    std::shared_ptr<const terrain::Terrain> terrain;
    std::shared_ptr<const arealmap::ArealMap> map;
};

// The sidecar text. Layout: one line per value whose compact form fits in `width` characters (a
// face row, an areal), nested indentation above that; newline-terminated. The face rows and the
// base64 payloads are written straight into the text (no JSON DOM for them: a stress map has
// 65,535 faces).
std::string terrain_sidecar_text(const TerrainSidecar& sidecar, size_t width = 240);

} // namespace msh::sidecar
