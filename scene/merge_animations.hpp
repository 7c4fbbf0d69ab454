// glTF files often carry several animations where an MSH model has one timeline: Blender's default
// export writes one animation per animated object. They become one: every channel of every
// animation on the shared timeline (`all`, the default), or one animation picked by name or index.
#pragma once

#include "scene/scene.hpp"

#include <string>

namespace msh::scene {

// `choice`: "all", an animation's name, or its index. Afterwards the scene holds at most one
// animation (a single animation is left as it is). Throws std::invalid_argument with a message
// naming both animations when two of them drive the same property of the same node, or naming the
// choice when no animation matches it.
void merge_animations(Scene& scene, const std::string& choice = "all");

} // namespace msh::scene
