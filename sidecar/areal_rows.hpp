// Land.map's type-12 payload (terrain.md §7) as the terrain sidecar's readable rows (`/map`): each
// areal's prefix fields and links as rows, its polygon vertices from the file (the overlay's raw
// layer) by fingerprint, its sub-blocks as a hashed block, the grid by rule or raw.
// sidecar/terrain_binding.* places them in the sidecar.
#pragma once

#include "model_binding.hpp"

#include "formats/arealmap.hpp"
#include "formats/bytes.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace msh::sidecar {

class JsonAt;

// The polygon vertices (areals in order, V each) as the file gives them back: the overlay's raw
// layer holds each one lifted (in the glTF node's transform, baked into an OBJ's positions), and
// the import maps it back (unlifted_vertex). `fingerprints`: position_fingerprint of each vertex
// that comes back bit for bit, in order; the others (of an areal with V < 3, which no filled
// polygon holds; a value the lift's float rounding or a zero's sign does not give back) are carried
// exactly.
struct FileVertices {
    uint32_t count = 0;
    std::vector<VertexRange> carried; // in order, not overlapping
    std::vector<Vec3> carried_vertices;
    std::vector<uint32_t> fingerprints;
};

// Land.map's type-12 payload as rows: each areal's prefix fields, polygon vertices, links and
// sub-blocks; the grid rebuilt by arealmap::rebuild_grid (`grid_rule`) or carried raw.
struct ArealRows {
    // With `file_vertices` read from a sidecar, the vertices it does not carry are placeholders
    // (0, 0, 0) until the import finds them in the file.
    std::vector<arealmap::Areal> areals;
    // None: the rows hold every polygon vertex (`/map/vertices` as one block).
    std::optional<FileVertices> file_vertices;
    bool grid_rule = false;
    uint32_t cells_x = 0, cells_y = 0; // with grid_rule
    Bytes grid;                        // without it: the grid as stored (cellsX, cellsY, cells)
};

// The payload the rows give (terrain.md §7).
Bytes areal_payload(const ArealRows& rows);

// The columns of `/map/areals`: the 56-byte areal prefix, one per field; V and B frame the record.
inline constexpr const char* kArealColumns[] = {
    "anchor_x", "anchor_y",   "anchor_z",   "reserved12", "area",       "normal_x", "normal_y",
    "normal_z", "logic_flag", "reserved36", "class_id",   "reserved44", "V",        "B"};

// The rows of a decoded Land.map whose payload they give back exactly; nullopt otherwise (a
// payload the reader left raw, a directory of more than the one type-12 entry). The polygon
// vertices come from a file whose overlay is lifted `lift` units along game +Z.
std::optional<ArealRows> bind_areal_rows(const arealmap::ArealMap& map, float lift);

// A polygon vertex's position in the overlay's raw layer: glTF axes, lifted `lift` along game +Z
// by the overlay node's transform (scene::apply, as the export bakes it into an OBJ and the import
// computes a glTF node's world positions).
std::array<float, 3> lifted_world(const Vec3& vertex, float lift);
// The polygon vertex a raw-layer position maps back to: the inverse of that transform.
Vec3 unlifted_vertex(const std::array<float, 3>& world, float lift);

// What the row checks cover: an areal's 56-byte prefix as stored, every areal's polygon vertices
// (f32 x, y, z) and sub-blocks (u32 n, 12·n bytes) in order, and the grid's rule and size or the
// stored grid. vertices_checked: with file_vertices, what the sidecar holds of them (count,
// carried ranges, carried vertices, fingerprints), else areal_vertices.
std::array<uint8_t, arealmap::kPrefixSize> areal_prefix(const arealmap::Areal& a);
Bytes areal_vertices(const std::vector<arealmap::Areal>& areals);
Bytes vertices_checked(const ArealRows& rows);
Bytes areal_sub_blocks(const std::vector<arealmap::Areal>& areals);
Bytes grid_checked(const ArealRows& rows);

// One compact row of `/map/areals` and of `/map/links` (its V + 3B area_ref, edge_ref pairs).
void put_areal_row(const arealmap::Areal& a, std::string& out);
void put_links_row(const arealmap::Areal& a, std::string& out);

// The rows of `/map` (`map`: that member); each value validated at its JSON pointer, the row
// count against the entry's `areal_count` (attr1). `/map/vertices` is either the file's
// (`count`, `carried`, `positions`, `fingerprints`) or one block of every vertex.
ArealRows read_areal_rows(const JsonAt& map, uint32_t areal_count);

// `/map/vertices` for file vertices: {"carried", "count", "fingerprints", "positions"}.
void write_file_vertices(ReadableJson& w, const FileVertices& v);
ByteView positions_bytes(const FileVertices& v);
ByteView fingerprint_bytes(const FileVertices& v);

} // namespace msh::sidecar
