// Topology edits of an existing model (msh.md §11 "change topology"): the triangles an imported
// scene holds for each exported slot replace that slot's triangles; everything the edit did not
// reach keeps its records and, where nothing moved, its bytes.
//
// Rules (documented in docs/import.md):
// - Vertices: a corner that claims an original Res3 vertex (TEXCOORD_1, or an exact OBJ match)
//   and carries that vertex's main variant (the exported position + UV if any corner still has
//   them, else the most used) is that vertex. Other variants (a new UV seam, a split-off copy) and
//   claims into a batch that never used the vertex become new vertices that copy the source's
//   Res4 4th byte and Res15/Res16/Res18 records; corners without a claim become new vertices with
//   zero records. Vertices no triangle uses any more are removed (unless they were unused before).
// - Layout: original order is kept; new vertices follow the last vertex of their batch's original
//   range, new batches follow the last batch of their slot, new slots go last. Res6 and Res7 are
//   written in batch order (the canonical layout). A batch that outgrows a u16 index range or the
//   u16 index count is split into batches with their own base vertex.
// - Triangles: a triangle whose three corners are the same original vertices as an original
//   triangle of the same batch keeps its Res7 record and its stored corner order; its face normal
//   is recomputed only when a vertex moved (self-check rule). New triangles: flags of the batch
//   when all its kept triangles agree (else 0), selectors 0x3F, face normal by the rule.
// - Links: kept where the neighbour survived and still shares the edge; edges of new triangles
//   and edges whose neighbour went away are paired by identical positions within the slot,
//   mutually. Edges that were open stay open unless a new triangle closes them.
// - Slots that lose every triangle are removed (Res1 words become 0xFFFF, others renumbered); a
//   removed part keeps its node (game code addresses nodes by index).
#pragma once

#include "formats/derived_rules.hpp"

#include "change_report.hpp"
#include "formats/msh.hpp"

#include <array>
#include <string>
#include <vector>

namespace msh::mapping {

struct InCorner {
    int64_t vid = -1;   // original Res3 index the corner claims, -1 none
    int64_t batch = -1; // original batch it claims, -1 none
    // Bit pattern of the incoming position and UV as read (the variant of a vertex).
    std::array<uint32_t, 5> key{};
    // Against what the exporter produced for `vid`: equal position / UV, normal within tolerance.
    bool pos_as_exported = false, uv_as_exported = false, normal_as_exported = false;
    // Values in MSH axes and the slot node's frame.
    Vec3 pos;
    std::array<float, 3> normal{};
    std::array<float, 2> uv{};
    bool has_normal = false, has_uv = false;
};

struct InTriangle {
    std::array<InCorner, 3> corner;
    int material_row = -1; // WEAR row of the primitive's material
};

// The incoming triangles of one slot: an exported one (orig_slot) or a new (node, lod, group).
struct SlotEdit {
    uint16_t orig_slot = kNone;
    size_t node = 0;
    int lod = 0, group = 0;
    std::vector<InTriangle> triangles;
};

// `edits` must cover every slot the export held (an exported slot without an entry is removed).
// Rebuilds m's geometry (Res2 slots, Res3/4/5, Res6, Res7, Res13, Res15/16/18 and Res1 slot
// words); `m` already holds the node edits. Throws FormatError naming a format limit.
// `rules`: which derived values of `orig` follow their rule (bounds.hpp).
TopologyReport retopologise(const Model& orig, const DerivedRules& rules, Model& m,
                            const std::vector<SlotEdit>& edits, DiagnosticSink& diagnostics,
                            const std::string& where);

} // namespace msh::mapping
