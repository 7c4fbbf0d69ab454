// The areal overlay laid on the ground (the draped layer, `ArealMap_draped`): a picture of the
// map's polygons that follows the terrain, for viewers — the raw polygons (`ArealMap_areas`,
// `ArealMap_outlines`) stay for the round trip, and the terrain import ignores this node.
//
// Each areal polygon, in convex parts (its ear-clipped triangulation with every diagonal removed
// that convexity does not need), is clipped against the terrain triangles under it (in XY,
// Sutherland-Hodgman); a part wholly inside one terrain triangle stays one piece. A corner where
// a piece's edge crosses a terrain edge is computed from those two lines alone, at the height
// interpolated along the terrain edge, so every piece that has it (either side of the terrain
// edge, of a diagonal, of an edge two areals share) has the same point bit for bit; terrain
// vertices keep their own; the areal's corners get the height of the terrain triangle under
// them; all `lift` above the ground. An areal's pieces on one plane (one terrain triangle, or a
// flat stretch: a plateau, the river) are merged where they share edges, a corner then left on a
// straight line it was only cut from is dropped, and each merged ring is ear-clipped (a group
// that does not merge into simple rings is laid piece by piece, each a fan).
// Outlines: each edge is clipped into segments for a LINES primitive (consecutive ones joined where
// the ground bends them less than 0.05 units, hidden by the ribbons they run along), and its band
// `outline_width` wide is draped like the fills into ribbons of triangles (Blender does not render
// LINES; a ribbon's pieces on one plane merge the same way), both lifted a little more than the
// fills; an edge two areals share is outlined once. A band is the edge's rectangle, mitred where
// two outlined edges meet (of one areal or of two; the straightest pairs where more meet), so that
// neighbouring ribbons share their corners. Each primitive is then welded: one vertex per position
// (bit patterns equal), in order of first use, so neighbouring pieces share their vertices and the
// layer is a fraction of the terrain's GLB (docs/benchmarks.md; a primitive of more than 65,535
// vertices in parts that fit 16-bit indices). One material per areal class,
// `areal_class_<id>_draped` (the raw areas keep `areal_class_<id>`), in the class's colour
// (kArealClassColours; the same for both), alpha-blended so the ground shows (draped fills alpha
// 0.2; the raw fills, which float or sink between their corners, 0.1).
#pragma once

#include "formats/arealmap.hpp"
#include "formats/terrain.hpp"
#include "scene/scene.hpp"
#include "terrain_to_scene.hpp"

#include <array>

namespace msh::mapping {

inline constexpr const char* kArealDrapedNode = "ArealMap_draped";

struct DrapeOptions {
    float lift = 0.5f;          // fills: world units above the terrain
    float outline_lift = 0.8f;  // outlines: above the fills (both within 1 unit of the ground)
    float outline_width = 2.0f; // ribbon width in world units (a map is ~1,600 units wide)
    // Threads draping the areals (runs of them, joined in areal order): the same layer whatever
    // the count. 1 where the caller is parallel already (a batch converts files on its threads).
    unsigned threads = 1;
    // The layer's arrays copied to their exact size (drawn on one thread they grew by doubling
    // and hold up to twice their bytes): for a caller that then assembles the whole GLB in memory
    // beside them (stress map, in process: peak RSS 304 -> 295 MB). Otherwise only a copy (1.4 %
    // of a forward batch's instructions), and the capacity past the end is never touched.
    bool tight_arrays = true;
};

// Distinct colours (linear RGB) for class ids: id % size.
extern const std::array<std::array<float, 3>, 10> kArealClassColours;

// Colours every `areal_class_*` material of `sc` (base colour factor, alpha blend) and adds the
// node `ArealMap_draped` with one TRIANGLES primitive per class, one LINES primitive of draped
// outline segments and one TRIANGLES primitive of outline ribbons (material `areal_outline`).
// Positions in glTF axes, as terrain_to_scene writes them. `areal_triangles`: the areals'
// triangulations terrain_to_scene handed out, if any (each areal is triangulated here otherwise).
void add_draped_overlay(scene::Scene& sc, const terrain::Terrain& terrain,
                        const arealmap::ArealMap& map, const DrapeOptions& options = {},
                        const ArealTriangles* areal_triangles = nullptr);

} // namespace msh::mapping
