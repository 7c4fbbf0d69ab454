// A mission (data.tma) with its map and every placed object -> one neutral Scene
// (docs/formats/level.md §3, §4). Pure: the models' scenes and the terrain's come in built.
//
// Scene layout (glTF axes: the game's (x, y, z) is (x, z, -y), as in every export)
//   the terrain scene's nodes, as the map export makes them (Terrain, ArealMap, ...)
//   node `Objects`: one child per placed object, in record order, named
//     `<instance name, else the reference's stem>#<record>`, at its place: translation = position,
//     rotation = Rz(z)·Ry(y)·Rx(x) (a heading θ is +θ about glTF +Y), scale = the record's for
//     scenery (kinds 2 and 3); buildings and units are never scaled (the engine ignores it).
//     A unit housed in a building stands at the host's hall-way vertex (MSH Res17).
//     extras.mshconv_level: record, kind, clan, logical_id, instance_name, reference (the
//     objects.rlb key or the .dat path as written), the properties, the parts. The models'
//     animations are left out: every part stands in its rest pose (the rest-pose reading).
//     Under it, one node per assembly part (`<object>/<part record>`), each holding a copy of its
//     model's node tree; the copies share the model's meshes, so a model placed 200 times is
//     stored once. With Assembly::Sockets a child part hangs at node `attach` of its parent's
//     model, times the inverse of its own root node's rest pose; with Assembly::Root every part
//     is at the object's origin. Parts of a hidden class are kept with visibility off.
//   node `Lodes`: an empty per mineral lode (`Lode_<i>`), extras: found, type, amount, word.
//   node `Routes`: one LINES mesh per route (`Route_<id>`, a closed polygon).
//   node `Clans`: an empty per clan at its base anchor on the ground (`Clan_<i>_<name>`), with
//     one empty per zone (`..._zone_<k>`), extras: type, scripts, radii.
#pragma once

#include "formats/mission.hpp"
#include "formats/terrain.hpp"
#include "formats/vec3.hpp"
#include "scene/scene.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace msh::mapping {

inline constexpr const char* kObjectsNode = "Objects";
inline constexpr const char* kLevelExtras = "mshconv_level";

// One distinct model of the level, its scene built once (nodes in MSH node order).
struct LevelModel {
    std::string address; // "static.rlb:Tree_Pine.msh"
    scene::Scene scene;
    std::vector<Vec3> hall_way; // Res17 points in model space, game axes (empty: none)
};

// One component of a placed object (a scenery object has one).
struct LevelPart {
    int model = -1;  // index into the level's models; -1: it draws nothing
    int parent = -1; // index of the parent part in the object's parts (-1: the root)
    int attach = -1; // the node of the parent's model it hangs at
    uint32_t part_class = 0;
    std::string record; // the objects.rlb key
    std::string description;
};

struct LevelObject {
    std::vector<LevelPart> parts; // empty: unresolved (`problem` says why); the node stays
    std::string problem;
};

enum class AssemblyReading { Sockets, Root };

struct LevelSceneOptions {
    AssemblyReading assembly = AssemblyReading::Sockets;
    // Part classes drawn (0 chassis .. 5 ammo); the others are kept with visibility off.
    std::array<bool, 6> shown_classes{true, true, false, false, true, false};
};

// The height of the ground under (x, y), game axes; none outside the terrain.
std::optional<float> ground_height(const terrain::Terrain& terrain, float x, float y);

// A game placement as a glTF rotation (x, y, z, w): C·Rz·Ry·Rx·Cᵀ with C the axis map.
std::array<float, 4> placement_rotation(const Vec3& euler);

// `terrain_scene` is moved in first; `terrain` (may be null) puts the clan anchors on the ground.
scene::Scene level_to_scene(const mission::Mission& mission, scene::Scene terrain_scene,
                            const terrain::Terrain* terrain, const std::vector<LevelModel>& models,
                            const std::vector<LevelObject>& objects,
                            const LevelSceneOptions& options, std::vector<std::string>& warnings);

// The object node's name for record `record` (what level_to_scene calls it).
std::string object_node_name(const mission::PlacedObject& object, size_t record);

} // namespace msh::mapping
