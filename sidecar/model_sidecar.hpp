// The sidecar of an exported MSH model (design.md §3; schema in docs/sidecar.md): everything
// glTF/OBJ cannot carry, readable where a person may want to look (node, slot and batch fields,
// the container directory), plus the original model image so an import can restore every
// unchanged record exactly, whatever order a tool wrote it in.
#pragma once

#include "formats/msh.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace msh::sidecar {

constexpr const char* kSchema = "mshconv-sidecar/1";

struct ExportRecord {
    std::string source; // address of the model (file or archive:entry)
    std::string output; // file name of the export
    std::string format; // gltf, glb or obj
    double fps = 24;
    nlohmann::json options;  // lod, group, skin, ...
    std::string wear_source; // address of the WEAR used for material names, or empty
    std::vector<std::string> wear_rows;
    std::vector<std::string> wear_lightmaps; // LIGHTMAPS rows (empty: none)
};

uint64_t fnv1a64(ByteView bytes);

nlohmann::json make_model_sidecar(const Model& model, ByteView original_image,
                                  const ExportRecord& record);

struct ModelSidecar {
    nlohmann::json doc;
    Bytes original_image; // the model as it was exported (hash-checked)
    double fps = 24;
};

// Checks the schema and the original image against its recorded size and hash; throws
// std::runtime_error naming `where` and the problem.
ModelSidecar parse_model_sidecar(const nlohmann::json& doc, const std::string& where);

// The JSON edge: the sidecar file's text, and back (throws FormatError naming `where` when it is
// not JSON, std::runtime_error as parse_model_sidecar).
std::string model_sidecar_text(const ModelSidecar& sidecar);
ModelSidecar read_model_sidecar(ByteView text, const std::string& where);

} // namespace msh::sidecar
