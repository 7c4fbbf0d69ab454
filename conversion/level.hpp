// A level (a mission's data.tma, its map and every placed object) <-> one glTF / GLB scene, in
// memory. The scene layout is mapping/level_to_scene.hpp's; finding the map, the registry, the
// .dat assemblies and the models in the game folder is the verb's (export_level.cpp).
//
// The sidecar (kind "level") keeps data.tma's bytes: the import starts from them and changes only
// the transform floats of the objects that moved, so an unchanged level comes back byte for byte.
#pragma once

#include "model_export.hpp"
#include "outputs.hpp"
#include "terrain.hpp"

#include "formats/mission.hpp"
#include "mapping/level_to_scene.hpp"
#include "sidecar/level_sidecar.hpp"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace msh::conversion {

struct LevelExportSettings {
    SceneFormat format = SceneFormat::Glb;
    std::string output_name = "level.glb";
    std::string sidecar_name; // recorded in the scene (default `<stem>.sidecar.json`)
    // The contested readings of level.md §4 (recorded in the export): how assembly parts attach,
    // which node pose is the rest pose, which part classes are shown.
    mapping::AssemblyReading assembly = mapping::AssemblyReading::Sockets;
    mapping::RestPose rest_pose = mapping::RestPose::FirstKey;
    std::array<bool, 6> shown_classes{true, true, false, false, true, false};
    png::EncodeOptions png;
    unsigned threads = 1; // the map's draped overlay
};

struct LevelExportInput {
    NamedBytes mission;                        // data.tma
    std::optional<TerrainExportInput> terrain; // the map the mission names (none: not found)
    std::vector<ModelExportInput> models;      // each distinct model once
    std::vector<mapping::LevelObject> objects; // by record: parts naming `models` by index
    std::vector<std::string> resolution_notes; // how references resolved (for --verbose)
};

struct LevelExportSummary {
    size_t objects = 0, unresolved = 0, models = 0, meshes = 0, nodes = 0;
};

struct LevelExport {
    OutputFiles files; // in write order; the sidecar is not among them
    sidecar::LevelSidecar sidecar;
    std::vector<std::string> warnings, notes;
    LevelExportSummary summary;
};

// The readings the export records (sidecar and scene extras): assembly, rest-pose, parts.
std::map<std::string, std::string> level_readings(const LevelExportSettings& settings);

// The scene encode_level would encode (what a preview draws), without encoding it.
struct LevelScene {
    scene::Scene scene;
    std::vector<std::string> warnings, notes;
    LevelExportSummary summary;
};
LevelScene level_scene(const LevelExportInput& input, const LevelExportSettings& settings);

// Throws FormatError on a data.tma, map or model that cannot be read.
LevelExport encode_level(const LevelExportInput& input, const LevelExportSettings& settings);

struct LevelImportSettings {
    std::string where;        // the input's name for messages
    std::string sidecar_name; // the sidecar's name for messages
    bool force = false;       // import even when the file's pairing token is not the sidecar's
};

// One object whose transform the edit changed.
struct LevelChange {
    size_t record = 0;
    std::string name;
    Vec3 before_position, after_position;
    float before_heading = 0, after_heading = 0;
    float before_scale = 1, after_scale = 1;
};

struct LevelImport {
    Bytes mission;       // the new data.tma
    std::string pairing; // how the file and its sidecar were paired (sidecar/pairing.hpp)
    std::vector<LevelChange> changes;
    std::vector<std::string> warnings;
};

// A glTF / GLB document as the level import reads it: the nodes carrying
// `extras.mshconv_level.record` (and any other child of `Objects`) with their world transforms
// (glTF axes), and the pairing token of its scene. Throws FormatError naming `where` on a
// document that cannot be read.
struct LevelNode {
    std::string name;
    std::optional<size_t> record; // none: a node under `Objects` that is no object of the level
    std::array<double, 3> translation{0, 0, 0};
    std::array<std::array<double, 3>, 3> basis{}; // world rotation times scale, columns = axes
    Location place; // in the file: its node's JSON pointer, or its OBJ object's line
    // A housed unit: where the export put it (game axes), the host's hall-way vertex.
    std::optional<std::array<double, 3>> housed_at;
    // How far the heading (radians) and the scale (relative) may stray and still count as
    // unchanged: what the file's precision allows (an OBJ's frame is read from float positions).
    double tolerance = 1e-5;
};
struct LevelDocument {
    std::vector<LevelNode> nodes;
    std::string pair; // "" when the file carries none
};
LevelDocument read_level_document(ByteView document, bool binary, const std::string& where);

// The OBJ form (conversion/level_obj.cpp): each placed object one OBJ object `<name>#<record>` of
// its visible parts in world positions and a frame triangle (material `mshconv_frame`) that
// carries its place, heading and scale; the map as the map export writes it; routes as polylines.
OutputFiles level_obj_files(const scene::Scene& level, const std::string& output_name);
// The objects of such an OBJ, read back from their frames (whatever order their corners are in).
LevelDocument read_level_obj(std::string_view text, const std::string& where);

// data.tma rebuilt from the sidecar's bytes and the nodes: refuses (FormatError naming the object)
// a tilt about x or y, a non-uniform scale, a scale on a building or unit, a housed unit moved,
// and an added or deleted object; and a file whose pairing token is not the sidecar's (unless
// `force`).
LevelImport rebuild_level(const LevelDocument& document, const sidecar::LevelSidecar& sidecar,
                          const LevelImportSettings& settings);

} // namespace msh::conversion
