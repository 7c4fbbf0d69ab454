// Import: an incoming scene (read from glTF or OBJ) overlaid onto the original model the sidecar
// carries (design.md §2-§3). Every exported element has an identity: nodes by their index (glTF
// extras.index; else name), vertices by TEXCOORD_1 = (Res3 index, batch) (OBJ: by order within
// `g <node>.batch<k>`). The original model is exported again with the recorded options and each
// incoming value is compared with what the exporter produced from the raw value: equal -> the raw
// value stays; different -> it is re-encoded and the derived values are rebuilt. No change at all
// gives the original bytes.
//
// Supported edits: moved vertices (Res3; slot/header bounds by the self-check rule; Res7 normals
// of touched triangles), changed normals (outside the tolerance) and UVs, renamed and reparented
// nodes, changed animation keys (Res8/Res19 rebuilt by the canonical writer), and topology edits
// (added/removed triangles and vertices, UV seams, new and removed parts: retopology.hpp). The
// rules are in docs/import.md.
#pragma once

#include "change_report.hpp"
#include "formats/msh.hpp"
#include "scene/scene.hpp"
#include "sidecar/model_sidecar.hpp"

#include <nlohmann/json.hpp>

namespace msh::mapping {

// Blender perturbs custom normals by ~0.02; a vertex whose normal moved by less than this angle
// (and whose position and UV are unchanged) keeps its packed normal.
constexpr double kNormalToleranceDegrees = 5.0;

struct ImportResult {
    Bytes image;              // the MSH model image
    bool identical = true;    // image == the sidecar's original
    ModelChangeReport report; // what was kept, rebuilt and recomputed
};

// `obj`: the scene came from OBJ (world-space positions, identity by order).
// `sidecar_where` names the sidecar in its errors (default: `where`).
ImportResult import_scene(const scene::Scene& incoming, const sidecar::ModelSidecar& sidecar,
                          bool obj, const std::string& where,
                          const std::string& sidecar_where = {});

} // namespace msh::mapping
