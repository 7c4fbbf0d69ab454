// The glTF form of scene identity (scene/identity.hpp): a few keys of each element's extras
// (design.md §2), the scene's pairing token under `mshconv`. The writers add the keys to the
// extras they write; the readers move them out of the extras they read, each key only with a type
// the imports accept (a key of another type stays in the extras as a foreign file's own).
#pragma once

#include "scene/scene.hpp"

#include <nlohmann/json.hpp>

namespace msh::gltf {

// `extras` with the identity's keys added: the extras object a writer writes (null when both
// are empty, `extras` as it is when the identity is).
nlohmann::json extras_with(const nlohmann::json& extras, const scene::NodeIdentity& identity);
nlohmann::json extras_with(const nlohmann::json& extras, const scene::MeshIdentity& identity);
nlohmann::json extras_with(const nlohmann::json& extras, const scene::MaterialIdentity& identity);
nlohmann::json extras_with(const nlohmann::json& extras, const scene::SceneIdentity& identity);

// The identity keys of `extras` moved into the identity. Extras that held nothing else become
// null (as an element written without any).
scene::NodeIdentity take_node_identity(nlohmann::json& extras);
scene::MeshIdentity take_mesh_identity(nlohmann::json& extras);
scene::MaterialIdentity take_material_identity(nlohmann::json& extras);
scene::SceneIdentity take_scene_identity(nlohmann::json& extras);

} // namespace msh::gltf
