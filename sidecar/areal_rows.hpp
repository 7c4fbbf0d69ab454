// Land.map's type-12 payload (terrain.md §7) as the terrain sidecar's readable rows (`/map`): each
// areal's prefix fields and links as rows, its polygon vertices and sub-blocks as hashed blocks,
// the grid by rule or raw. sidecar/terrain_binding.* places them in the sidecar.
#pragma once

#include "formats/arealmap.hpp"
#include "formats/bytes.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace msh::sidecar {

class JsonAt;

// Land.map's type-12 payload as rows: each areal's prefix fields, polygon vertices, links and
// sub-blocks; the grid rebuilt by arealmap::rebuild_grid (`grid_rule`) or carried raw.
struct ArealRows {
    std::vector<arealmap::Areal> areals;
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
// payload the reader left raw, a directory of more than the one type-12 entry).
std::optional<ArealRows> bind_areal_rows(const arealmap::ArealMap& map);

// What the row checks cover: an areal's 56-byte prefix as stored, every areal's polygon vertices
// (f32 x, y, z) and sub-blocks (u32 n, 12·n bytes) in order, and the grid's rule and size or the
// stored grid.
std::array<uint8_t, arealmap::kPrefixSize> areal_prefix(const arealmap::Areal& a);
Bytes areal_vertices(const std::vector<arealmap::Areal>& areals);
Bytes areal_sub_blocks(const std::vector<arealmap::Areal>& areals);
Bytes grid_checked(const ArealRows& rows);

// One compact row of `/map/areals` and of `/map/links` (its V + 3B area_ref, edge_ref pairs).
void put_areal_row(const arealmap::Areal& a, std::string& out);
void put_links_row(const arealmap::Areal& a, std::string& out);

// The rows of `/map` (`map`: that member); each value validated at its JSON pointer, the row
// count against the entry's `areal_count` (attr1).
ArealRows read_areal_rows(const JsonAt& map, uint32_t areal_count);

} // namespace msh::sidecar
