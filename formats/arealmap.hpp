// Areal map `Land.map` (spec terrain.md §7-§9): an NRes with exactly one entry, type 12
// `ArealMap`, whose attr1 is the areal count. The payload is that many variable-size areal
// records (56-byte prefix, polygon vertices, EdgeLink8 links, optional sub-blocks), then the
// cellsX x cellsY grid of u16 hit lists (x outer, y inner). Parsing must end exactly at the entry
// size. The reader keeps the container; the writer re-encodes the views losslessly.
#pragma once

#include "bytes.hpp"
#include "diagnostics.hpp"
#include "nres.hpp"
#include "vec3.hpp"

#include <array>
#include <string>
#include <vector>

namespace msh::arealmap {

inline constexpr uint32_t kChunkType = 12;
inline constexpr size_t kPrefixSize = 56;
inline constexpr uint32_t kGridSize = 128; // shipped cellsX = cellsY
inline constexpr uint32_t kMaxHits = 1023; // runtime packs (hitCount << 22) | start
inline constexpr uint64_t kMaxPool = (uint64_t(1) << 22) - 1;

using msh::Vec3;

struct EdgeLink {
    int32_t area_ref = -1;
    int32_t edge_ref = -1;
    bool none() const { return area_ref == -1 && edge_ref == -1; }
    bool operator==(const EdgeLink&) const = default;
};

// Undocumented polygon sub-block: u32 n, then 12 * n bytes (presumed n points). Kept raw.
struct SubBlock {
    Bytes data; // 12 * n bytes
    uint32_t n() const { return uint32_t(data.size() / 12); }
};

struct Areal {
    Vec3 anchor;             // +0, strictly inside the polygon, z = 0 in shipped data
    float reserved12 = 0;    // +12
    float area = 0;          // +16, precomputed
    Vec3 normal{0, 0, 1};    // +20
    uint32_t logic_flag = 1; // +32
    uint32_t reserved36 = 0;
    uint32_t class_id = 1; // +40
    uint32_t reserved44 = 0;
    std::vector<Vec3> vertices;       // V
    std::vector<EdgeLink> links;      // V + 3B; links[0..V-1] belong to edges (v_k, v_(k+1))
    std::vector<SubBlock> sub_blocks; // B

    size_t byte_size() const;
};

struct Grid {
    uint32_t cells_x = 0, cells_y = 0;
    std::vector<std::vector<uint16_t>> cells; // [x * cells_y + y]
    const std::vector<uint16_t>& cell(uint32_t x, uint32_t y) const {
        return cells[size_t(x) * cells_y + y];
    }
    bool operator==(const Grid&) const = default;
};

struct ArealMap {
    nres::Archive container;
    std::vector<Areal> areals;
    Grid grid;
    bool decoded = false; // the payload parsed exactly; false keeps it raw
};

// Reads Land.map. Structural rules are errors in both modes; links are graded per §8.
ArealMap read(ByteView bytes, DiagnosticSink& sink, const std::string& where);
ArealMap read(ByteView bytes, ReadMode mode, const std::string& where);

// Payload parser (entry attr1 = areal count). `base` is the payload offset in the file.
bool parse_payload(ByteView payload, uint32_t areal_count, std::vector<Areal>& areals, Grid& grid,
                   DiagnosticSink& sink, const std::string& label, uint64_t base);
Bytes encode_payload(const std::vector<Areal>& areals, const Grid& grid);

// Link, grid-id, normal, reserved-field and anchor checks of terrain.md §8.
void validate(const ArealMap& map, DiagnosticSink& sink, const std::string& where);

void sync_container(ArealMap& map); // payload + attr1 for changed views
Bytes write(const ArealMap& map);   // lossless
// New data: one entry of type 12 named "ArealMap", attr2 = attr3 = 0.
void init_container(ArealMap& map);
Bytes write_canonical(const ArealMap& map);

// ---- Derived values (terrain.md §9) ----
double signed_area_xy(const std::vector<Vec3>& poly); // shoelace, > 0 for counter-clockwise
double polygon_area_xy(const std::vector<Vec3>& poly);
// Newell normal of the 3D polygon, normalised; (0, 0, 1) for a counter-clockwise planar XY one.
Vec3 polygon_normal(const std::vector<Vec3>& poly);
// The normal §9 prescribes for new or changed areals.
inline Vec3 canonical_normal() {
    return {0, 0, 1};
}
bool is_convex_xy(const std::vector<Vec3>& poly);
// Strictly inside in XY (points on an edge are outside).
bool point_in_polygon_xy(const std::vector<Vec3>& poly, double x, double y);
// A point strictly inside: the area centroid when the polygon is convex, else the middle of the
// widest interval of a horizontal line through the widest vertex-free band; z = 0.
Vec3 interior_anchor(const std::vector<Vec3>& poly);
// Applies the §9 rules for a new or changed polygon: area, normal (0, 0, 1), anchor, reserved 0.
void apply_polygon_rules(Areal& a);
// Edge links from shared XY edges (edge k of one areal equal to the reversed edge m of another):
// mutual (areal, edge) pairs, (-1, -1) elsewhere. Extra links (3B) are left as they are.
void rebuild_links(std::vector<Areal>& areals);
// The §9 grid rule: cells tile the XY bounding box of all areal vertices uniformly; each cell
// lists, ascending, every areal whose XY box overlaps the cell (open intervals).
Grid rebuild_grid(const std::vector<Areal>& areals, uint32_t cells_x = kGridSize,
                  uint32_t cells_y = kGridSize);

} // namespace msh::arealmap
