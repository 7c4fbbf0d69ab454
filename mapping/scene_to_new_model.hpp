// Import without a sidecar: a glTF or OBJ scene made from scratch becomes a new MSH model laid out
// as msh.md §11 prescribes for new models ("Canonical layout", "Values for new records").
//
// - Nodes: one MSH node per scene node except skin holders (nodes carrying a skinned mesh) and
//   slot children. Order: parents before children (stable topological order of the scene). hdr0 =
//   0; hdr1 = parent. Names: Res10 record (len > 0; bytes as given, empty name -> len 0) and Res9
//   (32 bytes, NUL padded, truncated to 31 bytes with a warning).
// - Slots: a node's own mesh is slot (lod 0, group 0). A child node named `<parent>@lod<L>`,
//   `<parent>@g<G>` or `<parent>@lod<L>g<G>` without children of its own (what the exporter
//   writes) goes to slot (L, G) of its parent; its own TRS is baked into the vertices.
// - Batches: one per primitive (split into several when it has more than 21,845 triangles, the
//   u16 indexCount limit; each batch then addresses at most 65,535 vertices from its own
//   baseVertex). materialIndex = scene material index (a primitive without material -> 0);
//   batchFlags 0, opaque4 = 0xFF00 | (material & 0xFF), opaque6 0, opaque14 = max(slice) + 1.
//   A batch's vertices are the distinct vertices its triangles use, in ascending source order.
// - Vertices: node-local frame, axes (x, y, z)glTF -> (x, -z, y). Normals /127 (computed from the
//   area-weighted face normals of the primitive when absent; a zero sum gives +Z), 4th byte 0;
//   UV0 /1024 (0 when absent); Res15 8 zero bytes per vertex.
// - Res7: one descriptor per triangle: flags 0, selPacked 0x3F, face normal rule, links =
//   neighbour across edge k found by identical positions within the slot, paired mutually,
//   else 0xFFFF.
// - Bounds: slot AABB/sphere and tail (+48 area, +52 AABB volume, rest 0); header hull, sphere and
//   capsule with every node at its first key (msh.md §11).
// - Animation (animation.md §10): the first glTF animation. Key times seconds * fps; within 1e-3
//   of a whole frame they are snapped, otherwise the channel is resampled at every whole frame of
//   its range. STEP channels get a key at g - 1 carrying the value of f. Translation and rotation
//   are merged on the union of their frames (linear / shortest-arc slerp in between); a first key
//   after frame 0 is copied to frame 0. A node without channels, or whose keys are all identical,
//   gets one static key = its TRS. Rotations are encoded with hemisphere continuity.
// - Skins (`--skin` exports): each vertex goes to its dominant joint (largest weight; blended
//   weights give a warning) and is moved from bind space into that joint's local frame with the
//   joint's inverse bind matrix. A triangle goes to the joint most of its vertices use (ties: its
//   first vertex); the slot comes from the holder's `skin@lod1g4`-style name.
// - Res8/Res19 by anim::compose; Res17 empty; WEAR is not written.
#pragma once

#include "formats/bytes.hpp"
#include "formats/diagnostics.hpp"
#include "formats/readings.hpp"
#include "scene/scene.hpp"

#include "change_report.hpp"

#include <string>
#include <vector>

namespace msh::mapping {

struct NewModelOptions {
    double fps = 24;                            // frames per second of the glTF key times
    std::string where;                          // file name for messages
    SlotNames slot_names = SlotNames::LodGroup; // how `<node>@...` slot nodes are named
};

struct NewModelResult {
    Bytes image;
    NewModelSummary summary;
};

NewModelResult build_new_model(const scene::Scene& scene, const NewModelOptions& options,
                               DiagnosticSink& diagnostics);

// The model image only. Throws FormatError naming the limit when the scene cannot be addressed
// (more than 65,535 triangles, batches, slots or nodes; more than 65,535 keys).
Bytes build_model(const scene::Scene& scene, const NewModelOptions& options,
                  DiagnosticSink& diagnostics);

} // namespace msh::mapping
