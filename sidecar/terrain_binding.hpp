// The binding part of a terrain sidecar (`mshconv-sidecar/2`, `"kind": "terrain"`,
// docs/sidecar.md): what glTF and OBJ cannot hold, and nothing they hold. Land.msh and Land.map
// are rebuilt from it and the incoming file; the import reads every field, so an edit of one
// changes the level.
//
// - The NRes directories of Land.msh and Land.map, each entry naming where its payload comes from.
// - The type-21 faces as readable rows (flags, material rows, unk06, neighbours, packed normal,
//   edge class, unk27). A glTF holds each usable face's vertex indices (TEXCOORD_2 and
//   TEXCOORD_3.x of its corners): they come from the file, and the sidecar lists only the others'.
//   An OBJ's corners carry no identity: its sidecar holds every face's indices in the rows.
// - Type-3 positions come from the file, found by vertex identity (TEXCOORD_3.x, or the OBJ's
//   order): the sidecar carries one fingerprint per vertex the file holds, so that the import
//   knows which incoming copy is the original value, and the positions of the others (vertices
//   no usable face uses, non-finite values, zero components whose sign OBJ loses).
// - Type-5 UVs (a glTF's TEXCOORD_0, an OBJ's vt), and from a glTF also the type-18 UVs
//   (TEXCOORD_1) and type-14 weights (TEXCOORD_3.y) come from the file the same way: a one-byte
//   fingerprint per vertex the file holds exactly, the raw records of the others (no usable face
//   uses them, or the value does not survive the V flip that OBJ and Blender apply: a non-finite
//   weight, one below 0.5 whose 1 - (1 - w) rounds). An OBJ's sidecar keeps 18 and 14 as blocks.
// - Whether the original's slot bounds and header follow their recompute rule: the check needs
//   the original positions, which an edit in the file replaces.
// - Land.map's areal records as readable rows (the 56-byte prefix fields, the edge links); their
//   polygon vertices from the file (the overlay's raw layer, unlifted) the way the positions are:
//   a fingerprint per vertex it gives back bit for bit, the others carried; the sub-blocks as a
//   block, the grid by the terrain.md §9 rule when that rule gives it back exactly, else as a
//   block. A Land.map the rows would not give back byte for byte (a payload the reader left raw) is
//   one block.
// - Raw blocks (size and XXH3-64) for the other resources: nodes, header and slots, normals (the
//   file holds directions, not the packed bytes; the import applies its normal edits to the
//   block), cell pairs, unknown types and anything the reader left raw.
// - A check per face row and block, so that the change report names the rows a person edited.
#pragma once

#include "areal_rows.hpp"
#include "formats/arealmap.hpp"
#include "formats/terrain.hpp"
#include "model_binding.hpp"
#include "readable_writer.hpp"

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace msh::sidecar {

class JsonAt;

// Where a directory entry's payload comes from.
enum class TerrainContent { Faces, Positions, Block, Uv1, Uv2, Weights, ArealRows };

// A per-vertex stream of 4-byte records that the file holds (types 5, 18, 14).
struct VertexStream {
    TerrainContent content;
    uint32_t type;
    const char* member; // under /vertices
};
inline constexpr VertexStream kVertexStreams[] = {
    {TerrainContent::Uv1, 5, "layer1_uvs"},
    {TerrainContent::Uv2, 18, "layer2_uvs"},
    {TerrainContent::Weights, 14, "weights"},
};
inline constexpr size_t kStreamCount = std::size(kVertexStreams);

// One stream's binding: the records of the vertices the file does not hold exactly, a fingerprint
// (stream_fingerprint) of every other vertex's record, in vertex order.
struct BoundStream {
    bool bound = false; // the file holds it (else a block, or no such entry)
    std::vector<VertexRange> carried;
    std::vector<uint32_t> carried_records; // the 4 bytes as stored
    std::vector<uint8_t> fingerprints;
};

// Per stream of kVertexStreams, one 4-byte record per vertex (empty for a stream not bound).
using StreamRecords = std::array<std::vector<uint32_t>, kStreamCount>;

// What a stream's fingerprint is (model_binding's UV fingerprint of the 4 stored bytes).
uint8_t stream_fingerprint(uint32_t record);
// A UV record as stored, and back.
uint32_t uv_record(const PackedUv& uv);
PackedUv uv_of_record(uint32_t record);

// One rebuilt file: its directory, each entry's content and the blocks (Block entries only).
struct BoundArchive {
    nres::Archive directory; // entries without payloads
    std::vector<TerrainContent> content;
    std::vector<Bytes> blocks;
};

// Size and XXH3-64 of a file as the export read it: what an unedited rebuild must give.
struct SourceRecord {
    uint64_t size = 0, xxh3_64 = 0;
};

struct TerrainBinding {
    BoundArchive land_msh;
    std::vector<terrain::Face> faces; // with indices_in_file, the indices of the others only
    // Whether the file holds the vertex indices of the faces not in `carried_indices`.
    bool indices_in_file = false;
    std::map<uint32_t, std::array<uint16_t, 3>> carried_indices;

    uint32_t vertex_count = 0;
    std::vector<VertexRange> carried; // in vertex order, not overlapping
    std::vector<Vec3> carried_positions;
    std::vector<uint32_t> position_fingerprints;   // per vertex the file holds, in vertex order
    std::array<BoundStream, kStreamCount> streams; // as kVertexStreams

    // Whether the original's slot bounds and Res2 header follow the import's recompute rules.
    bool slot_bounds_rule = false, header_rule = false;

    std::optional<BoundArchive> land_map; // none: the level had no Land.map
    std::optional<ArealRows> areal_rows;  // the payload of its ArealRows entry
    SourceRecord msh_source, map_source;

    // Per table, the check of each row as exported: "faces", "blocks", "map_blocks",
    // "map_areals", "map_links"; "container", "map_container", "map_vertices", "map_sub_blocks"
    // and "map_grid" have one row.
    std::map<std::string, std::vector<uint16_t>> checks;
};

// The binding of a level: `land_msh` / `land_map` are the files `t` and `map` were read from;
// `areal_lift` the overlay's lift (TerrainSceneOptions::areal_lift); `gltf` for a glTF export (its
// file holds the faces' vertex indices, both UV sets and the weights), else an OBJ's (positions and
// layer-1 UVs). nullopt when the binding would not rebuild them byte for byte (a directory with
// overlapping payloads): the sidecar then carries the files whole (the first layout).
std::optional<TerrainBinding> bind_terrain(const terrain::Terrain& t, ByteView land_msh,
                                           const arealmap::ArealMap* map, ByteView land_map,
                                           float areal_lift, bool gltf, bool slot_bounds_rule,
                                           bool header_rule);

// The faces with their indices: `from_file[f]` where the file holds them, else the binding's.
std::vector<terrain::Face>
faces_with_indices(const TerrainBinding& binding,
                   const std::vector<std::array<uint16_t, 3>>& from_file);
// Land.msh from the binding with these faces (faces_with_indices), positions and records of the
// bound streams (one per vertex each).
Bytes rebuild_land_msh(const TerrainBinding& binding, const std::vector<terrain::Face>& faces,
                       const std::vector<Vec3>& positions, const StreamRecords& streams);
// Land.map from the binding (it must have one); with `rows`, its areal rows (the binding's with the
// polygon vertices the file gives).
Bytes rebuild_land_map(const TerrainBinding& binding);
Bytes rebuild_land_map(const TerrainBinding& binding, const ArealRows& rows);

// The row checks of the tables as they are now (compared with `checks` by the import).
std::map<std::string, std::vector<uint16_t>> terrain_checks(const TerrainBinding& binding);

// The binding's members, written into a sidecar's text (terrain_sidecar_text), the sources with
// their addresses: `other(key)` writes the document's other members that sort before `key`, and
// the rest when `key` is empty.
void write_terrain_binding(const TerrainBinding& binding, ReadableJson& w,
                           const std::string& msh_address, const std::string& map_address,
                           const std::function<void(std::string_view before)>& other);

// Reads them; every problem is a FormatError at its JSON pointer.
TerrainBinding read_terrain_binding(const JsonAt& doc);

} // namespace msh::sidecar
