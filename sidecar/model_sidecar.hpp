// The sidecar of an exported MSH model (design.md §3; schema in docs/sidecar.md): everything
// glTF/OBJ cannot carry, readable where a person may want to look (node, slot and batch fields,
// the container directory), plus the original model image so an import can restore every
// unchanged record exactly, whatever order a tool wrote it in. A typed struct; its JSON form is
// written and read only at the edge (model_sidecar_text / read_model_sidecar).
#pragma once

#include "formats/derived_rules.hpp"
#include "formats/msh.hpp"
#include "formats/readings.hpp"
#include "model_binding.hpp"
#include "payload_hash.hpp"
#include "written_file.hpp"

#include <optional>
#include <string>
#include <vector>

namespace msh::sidecar {

constexpr const char* kSchema = "mshconv-sidecar/1";

// `lod` / `group` value meaning every LOD or group ("all" in the JSON; mapping::kAll).
constexpr int kAllChoice = -1;

struct ExportedOptions {
    int lod = 0;   // 0..2 or kAllChoice
    int group = 0; // 0..4 or kAllChoice
    bool skin = false;
    bool msft_lod = false;
};

struct ExportRecord {
    std::string source; // address of the model (file or archive:entry; portable_address)
    std::string output; // file name of the export
    std::string format; // gltf, glb or obj
    double fps = 24;
    ExportedOptions options;
    std::string wear_source; // address of the WEAR used for material names (portable), or empty
    std::vector<std::string> wear_rows;
    std::vector<std::string> wear_lightmaps; // LIGHTMAPS rows (empty: none)
    // The WEAR's bytes as the export read them (empty: none, or a sidecar that does not record
    // them): a new model's WEAR wherever the export's source lies.
    Bytes wear_image;
    Readings readings;   // the contested readings the export used; the import uses the same
    std::string pair;    // the pairing token also stamped into the export (sidecar/pairing.hpp)
    WrittenFile written; // the glTF file as the export wrote it (sidecar/written_file.hpp)
};

// The readable view of the model image: what a person looks at; the import trusts the image.
struct ContainerEntry {
    uint32_t type = 0;
    std::string name;
    Bytes raw_name; // the whole name field, bytes after the NUL included
    uint32_t attr1 = 0, attr2 = 0, attr3 = 0, sort_index = 0;
    uint64_t size = 0;
    bool decoded = false; // interpreted by the reader (else kept raw)
};

struct NamedNode {
    std::string name;
    Node node;
};

struct AnimationCounts {
    uint32_t frame_count = 0;
    uint64_t key_count = 0, frame_map_words = 0;
};

struct ModelDescription {
    std::vector<ContainerEntry> entries;
    bool legacy_node_table = false;
    std::vector<NamedNode> nodes;                         // stride-38 Res1 only
    std::vector<std::optional<std::string>> node_strings; // Res10 (nullopt: absent)
    ModelHeader header;
    std::vector<Slot> slots;
    std::vector<Batch> batches;
    AnimationCounts animation;
};

// Sidecars of the first layout (`mshconv-sidecar/1`) carry the whole model image and a readable
// view the import never reads; binding sidecars (`mshconv-sidecar/2`, model_binding.hpp) carry
// what the glTF cannot hold, and the import rebuilds the image from both.
struct ModelSidecar {
    ExportRecord record;
    ModelDescription model;              // first layout: the readable view
    std::optional<ModelBinding> binding; // binding layout
    Bytes original_image; // first layout: the model as it was exported (size and hash checked)
    uint64_t original_size = 0; // the model image's size (both layouts)
    // payload_hash(original_image), computed once by the export (for the pairing token too) and
    // by the reader.
    uint64_t original_hash = 0;
    // Edited values the import does not read (the layout a file of this version has), as
    // warnings: "SIDECAR: at POINTER: ...".
    std::vector<std::string> unread;
};

// The pairing token of an export: over the model image (its payload_hash) and the record's fields
// that give the sidecar its meaning (fps, options, WEAR rows); not an address, nor the output's
// name or format.
std::string model_pairing_token(uint64_t original_hash, const ExportRecord& record);

class JsonAt;
// An export's `readings` object (model and terrain sidecars): the readings it names, the defaults
// for the others; an unknown name or variant fails at its JSON pointer.
Readings read_readings(const JsonAt& at);

// `original_hash`: payload_hash(original_image), which the export already has for the pairing
// token.
ModelSidecar make_model_sidecar(const Model& model, ByteView original_image, ExportRecord record,
                                uint64_t original_hash);

// A binding sidecar of `model` (read from an image of `original_size` bytes): `held[v]` says the
// export holds vertex v exactly; `rules` are its derived rules (mapping::derived_rules).
ModelSidecar make_binding_sidecar(const Model& model, size_t original_size, ExportRecord record,
                                  uint64_t original_hash, const std::vector<bool>& held,
                                  const DerivedRules& rules, const RuleNormals& rule_normals);

// Width of a line of a binding sidecar: shorter objects and arrays (a table row, at most about
// 250 characters) take one line.
constexpr size_t kReadableWidth = 256;

// The sidecar file's text, and back (FormatError at the line and column where it is not JSON).
std::string model_sidecar_text(const ModelSidecar& sidecar);
ModelSidecar read_model_sidecar(ByteView text, const std::string& where);
// What an import uses: the original image (size and hash checked), `source`, `export` and `wear`
// read as read_model_sidecar reads them; the readable view (`model`: container, nodes, slots,
// batches, ...) is left empty, its text only checked to be JSON. The import restores from the
// image and never reads that view.
ModelSidecar read_model_sidecar_for_import(ByteView text, const std::string& where);

} // namespace msh::sidecar
