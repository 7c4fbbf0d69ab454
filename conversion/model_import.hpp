// glTF / GLB / OBJ scene -> MSH model, in memory. With the model's sidecar the import restores
// every unchanged record from the original image and rebuilds only what was edited (mapping/
// scene_to_model.hpp); without one the scene becomes a new model with the defaults listed in
// mapping/scene_to_new_model.hpp.
#pragma once

#include <mshconv/io.hpp>

#include "outputs.hpp"

#include "formats/bytes.hpp"
#include "mapping/change_report.hpp"
#include "scene/scene.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/pairing.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace msh::conversion {

struct ModelImportSettings {
    std::optional<double> fps; // frames per second of the key times (default: the sidecar's, 24)
    bool from_obj = false;     // the scene came from OBJ (world-space positions, identity by order)
    std::string where;         // the input's name for messages and the report
    std::string sidecar_name;  // the sidecar's name for messages
    bool force = false;        // import even when the file's pairing token is not the sidecar's
    // Several glTF animations: "all" merges them into the one MSH timeline, or a name / index
    // picks one (scene/merge_animations.hpp).
    std::string animation = "all";
    // A new model (no sidecar): the readings its scene is named by (slots); with a sidecar, the
    // sidecar's readings apply.
    Readings readings;
};

struct ModelImport {
    Bytes msh;              // the MSH model image
    bool new_model = false; // no sidecar: built from the scene alone
    bool identical = false; // == the sidecar's original image
    // With a sidecar: whether the file's pairing token matched it (sidecar/pairing.hpp).
    std::optional<sidecar::Pairing> pairing;
    // With a sidecar: what was kept, rebuilt and recomputed (docs/import.md).
    std::optional<mapping::ModelChangeReport> changes;
    // A new model: its counts and the defaults it was given.
    mapping::NewModelSummary new_model_summary;
    std::vector<std::string> warnings;
};

// The report's JSON form (`convert --report`): the change report, or for a new model
// {new_model: true, sidecar: null, summary, warnings}.
nlohmann::json report_json(const ModelImport& result);

// Throws FormatError / std::runtime_error naming `settings.where` on a scene it cannot import,
// and FormatError when the scene's pairing token is not the sidecar's (unless settings.force).
ModelImport rebuild_model(const scene::Scene& scene, const sidecar::ModelSidecar* sidecar,
                          const ModelImportSettings& settings);

// The import of the very file the export wrote (every byte as its sidecar's `export.written`
// records, sidecar/written_file.hpp): what rebuild_model gives for it — the original image, the
// pairing verified, nothing changed — without reading the scene. nullopt when `file` is not that
// file, or when the settings ask for more than the recorded export (another fps, one animation
// of several, an OBJ): then read the scene and call rebuild_model.
std::optional<ModelImport> rebuild_unchanged_model(const std::filesystem::path& file,
                                                   const sidecar::ModelSidecar& sidecar,
                                                   const ModelImportSettings& settings,
                                                   mshconv::Io& io = mshconv::disk());

// Reads a .gltf, .glb or .obj file (or one Assimp reads) into the neutral scene; warnings
// collects what the reader dropped. `lines`: keep line primitives (the terrain's areal outlines).
// `images`: also the materials' colours and base colour images (glTF images, OBJ's MTL Kd, d and
// map_Kd; always for Assimp formats), for a new model. `meshes_of_nodes` (glTF): decode only the
// meshes of these nodes (gltf::ReadOptions).
scene::Scene read_scene_file(const std::filesystem::path& file, std::vector<std::string>& warnings,
                             bool lines = false, bool images = false,
                             const std::vector<std::string>& meshes_of_nodes = {},
                             mshconv::Io& io = mshconv::disk());
// The same from memory: a GLB, OBJ text, or a self-contained .gltf (buffers as data: URIs).
scene::Scene read_scene(ByteView bytes, SceneFormat format, const std::string& where,
                        std::vector<std::string>& warnings, bool lines = false);

} // namespace msh::conversion
