// The original model image rebuilt from a binding sidecar and the incoming scene
// (sidecar/model_binding.hpp): every resource from its table or block, Res3 positions and Res5
// UVs from the vertices the sidecar carries and, for the others, from the incoming copy whose
// value has the vertex's fingerprint. A vertex no copy matches was edited (or removed): its
// original position is unknown and stands as NaN in the rebuilt model, so that every comparison
// the import makes with it finds a change; an unknown UV is marked for the import the same way.
#pragma once

#include "formats/derived_rules.hpp"
#include "formats/msh.hpp"
#include "scene/scene.hpp"
#include "sidecar/model_binding.hpp"

#include <optional>
#include <string>
#include <vector>

namespace msh::mapping {

// Which vertices an export holds exactly: a copy in `exported` (by identity) whose position and
// UV give back the stored records. None for an export in world space (OBJ, skinned).
std::vector<bool> held_vertices(const Model& model, const scene::Scene& exported, bool world_space);

struct RebuiltOriginal {
    Bytes image;
    std::vector<bool> uv_unknown; // per vertex
    size_t positions_unknown = 0, uvs_unknown = 0;
    // The first vertex neither carried by the sidecar nor held by the file (a deleted part, or
    // carried rows that no longer line up), for the error when the result does not validate.
    std::optional<uint32_t> first_unheld;
    // JSON pointers of the table rows the sidecar's text changed (/nodes/rows/3, /header, ...).
    std::vector<std::string> edited_rows;
};

// Throws FormatError (naming `where`) when a table does not fit its resource.
RebuiltOriginal rebuild_original(const sidecar::ModelBinding& binding, const scene::Scene& incoming,
                                 const std::string& where);

} // namespace msh::mapping
