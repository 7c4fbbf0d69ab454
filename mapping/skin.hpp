// --skin: turns the node-parented scene into skinned meshes whose joints are the MSH nodes
// (rigid skinning: every vertex weighted 1.0 to its node). Vertices move to the bind pose (the
// rest pose in world space); inverse bind matrices undo it, so the same animation drives the
// joints. One skinned mesh per exported (LOD, group) combination, named `skin`, `skin@lod1`...
#pragma once

#include "scene/scene.hpp"

namespace msh::mapping {

// `joint_count`: scene nodes [0, joint_count) are the MSH nodes; the nodes after them are slot
// children (`<node>@lod1` ...) and are folded into the skinned meshes.
scene::Scene skin_scene(scene::Scene node_scene, size_t joint_count);

} // namespace msh::mapping
