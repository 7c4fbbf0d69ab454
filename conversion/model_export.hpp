// MSH model -> glTF / GLB / OBJ, in memory: the model's bytes (+ its WEAR and the game's
// material libraries) in, the encoded files and the typed sidecar out. Nothing is read from or
// written to disk here; finding the WEAR and the libraries is the caller's business.
#pragma once

#include "outputs.hpp"

#include "formats/bytes.hpp"
#include "formats/png.hpp"
#include "mapping/materials.hpp"
#include "mapping/model_to_scene.hpp"
#include "sidecar/model_sidecar.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace msh::conversion {

// Bytes with the address they came from (a file or `archive:entry`), for sidecars and messages.
struct NamedBytes {
    std::string address;
    Bytes bytes;
};

struct ModelExportSettings {
    SceneFormat format = SceneFormat::Glb;
    // The main output's file name: `.bin`, `.mtl` and image files are named after its stem.
    std::string output_name = "model.glb";
    // The sidecar's file name as recorded in the scene (default `<stem>.sidecar.json`).
    std::string sidecar_name;
    int lod = 0;            // 0..2 or mapping::kAll
    int group = 0;          // 0..4 or mapping::kAll
    double fps = 24;        // key time = frame / fps
    bool skin = false;      // glTF: one skinned mesh per LOD/group whose joints are the nodes
    bool msft_lod = false;  // glTF with lod = all: MSFT_lod on the nodes
    png::EncodeOptions png; // the textures' PNG encoding (--png-level)
    Readings readings;      // the contested readings (formats/readings.hpp), recorded in the export
    // A level's models only (the model export keeps the first key and animates the rest).
    mapping::RestPose rest_pose = mapping::RestPose::FirstKey;
};

// The one check of a combination of settings: the problem in the command's words (`--lod ...`),
// or empty when they are usable.
std::string settings_problem(const ModelExportSettings& settings);

struct ModelExportInput {
    ModelExportInput() = default;
    ModelExportInput(ByteView model_bytes, std::string model_address)
        : model(model_bytes), address(std::move(model_address)) {}

    ByteView model; // the MSH model (an NRes image)
    // What keeps `model` alive (Payload::keeper()), if anything: its resources are then read as
    // views instead of copies.
    std::shared_ptr<const void> model_keeper;
    // Where it came from: named in messages, and without its folders in the sidecar and the glTF
    // extras (sidecar/portable_address.hpp).
    std::string address;
    std::optional<NamedBytes> wear; // the model's WEAR (none: materials named mat_<row>)
    // The game libraries, asked for only when the WEAR names materials (null: untextured), with
    // what this model needs of them (a provider for one model may read only that); the export
    // lets go of them as soon as the textures are resolved, so a provider that opens them for
    // one model frees them before the encoding.
    std::function<std::shared_ptr<const mapping::MaterialLibraries>(const mapping::LibraryNeeds&)>
        libraries;
};

struct ModelExportSummary {
    size_t nodes = 0, meshes = 0, materials = 0, textured_materials = 0;
    bool animated = false;
};

struct ModelExport {
    OutputFiles files;                 // in write order; the sidecar is not among them
    sidecar::ModelSidecar sidecar;     // JSON text: sidecar::model_sidecar_text
    std::vector<std::string> warnings; // what the user should know (unresolved textures, ...)
    std::vector<std::string> notes;    // detail for --verbose
    ModelExportSummary summary;
};

// Throws FormatError on a model that cannot be read, std::invalid_argument on bad settings.
ModelExport encode_model(const ModelExportInput& input, const ModelExportSettings& settings);

// The model and the scene encode_model would encode (slots as selected, textures resolved),
// without encoding it: what a preview draws. Throws as encode_model.
struct ModelScene {
    Model model;
    scene::Scene scene;
    std::vector<std::string> warnings, notes;
    ModelExportSummary summary;
};
ModelScene model_scene(const ModelExportInput& input, const ModelExportSettings& settings);

} // namespace msh::conversion
