// The binding part of a model sidecar (`mshconv-sidecar/2`, docs/sidecar.md): what glTF, OBJ or
// PNG cannot hold, and nothing they hold. The model image is rebuilt from it and the incoming
// file; the import reads these fields, so an edit to one changes the MSH.
//
// - The NRes directory of the image (names, attributes, sort indices, layout, gaps, trailing
//   bytes), each entry naming where its payload comes from.
// - Readable tables for the resources a person can read as rows: Res1 nodes, the Res2 header and
//   slots, Res13 batches, Res10 node strings, Res8 keys and Res19 frame-map words.
// - Raw blocks (size and XXH3-64) for the rest: Res4, Res6, Res7, Res9, Res15-18, Res20, a legacy
//   node table, unknown types, and any resource the reader left raw.
// - Res3 positions and Res5 UVs come from the glTF, found by vertex identity; the sidecar carries
//   only the records of vertices the export does not hold exactly (other LODs, OBJ and skinned
//   exports, which are in world space) and one fingerprint per vertex, so that the import knows
//   which incoming copy is the original value and which is an edit.
// - The derived values (slot and header bounds, Res7 face normals) whose stored value does not
//   follow its rule: they need the original positions to check, and an edit keeps them.
// - A check per table row, so that the change report names the rows a person edited.
#pragma once

#include "binding_fields.hpp"

#include "formats/anim.hpp"
#include "formats/derived_rules.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msh::sidecar {

class JsonAt;

// Where a directory entry's payload comes from.
enum class EntryContent {
    Nodes,       // /nodes (Res1, stride 38)
    HeaderSlots, // /header and /slots (Res2)
    Positions,   // the glTF, and /vertices (Res3)
    Uvs,         // the glTF, and /vertices (Res5)
    Keys,        // /animation/keys (Res8)
    FrameMap,    // /animation/frame_map (Res19)
    NodeStrings, // /node_strings (Res10)
    Batches,     // /batches (Res13)
    Block,       // /blocks: raw bytes
    Triangles,   // /triangles: Res7 records without their face normals, which follow from the
                 // positions (msh.md §11) but for the ones listed
};

// A Res7 record without its normal, as /triangles/records holds it: flags, 3 links, selectors.
constexpr size_t kTriangleRecord = 10;

// A run of vertices whose Res3 (and Res5) records the sidecar carries.
struct VertexRange {
    uint32_t first = 0, count = 0;
};

// /vertices/carried: [first, count] rows in vertex order, apart and below `vertex_count`, appended
// to `ranges`; their vertices' total. Every problem is a FormatError at its pointer.
uint64_t read_vertex_ranges(const JsonAt& carried, uint32_t vertex_count,
                            std::vector<VertexRange>& ranges);
class ReadableJson;
// The [first, count] rows, one per line (`table`) or laid out as any array.
void write_vertex_ranges(ReadableJson& w, const std::vector<VertexRange>& ranges, bool table);
// Appends vertex v (after every vertex the ranges hold) to the carried ranges.
void add_to_ranges(std::vector<VertexRange>& ranges, uint32_t v);

struct ModelBinding {
    nres::Archive directory;           // entries without payloads, layout, trailing bytes
    std::vector<EntryContent> content; // per directory entry
    std::vector<Bytes> blocks;         // per directory entry; used for Block only

    std::vector<Node> nodes;
    std::vector<std::string> node_names; // UTF-8, for a reader of the file; never read back
    std::vector<NodeString> node_strings;
    ModelHeader header;
    std::vector<Slot> slots;
    std::vector<Batch> batches;
    std::vector<anim::Key> keys;
    std::vector<uint16_t> frame_map;

    uint32_t vertex_count = 0;
    bool has_uvs = false;
    std::vector<VertexRange> carried; // in vertex order, not overlapping
    std::vector<Vec3> carried_positions;
    std::vector<PackedUv> carried_uvs; // empty without Res5
    // Per vertex the file holds (not carried), in vertex order; UVs with Res5 only.
    std::vector<uint32_t> position_fingerprints;
    std::vector<uint8_t> uv_fingerprints;

    // Res7 (content Triangles): each record's flags, links and selectors (10 bytes), and the
    // stored face normals that are not exactly the rule's value of the original positions.
    Bytes triangle_records;
    std::map<uint32_t, std::array<int16_t, 3>> stored_normals;

    // Only the values that do not follow their rule are recorded; `drawn` and `posed` are left
    // for the import to find from the structure (mapping::complete_rules).
    DerivedRules rules;

    // Per table row, the check of its bytes as exported (row_check): "nodes", "slots",
    // "batches", "keys", "node_strings"; "header" and "frame_map" have one row.
    std::map<std::string, std::vector<uint16_t>> checks;
};

// What the fingerprints are (the import computes the same of each incoming copy).
uint32_t position_fingerprint(const Vec3& p);
uint8_t uv_fingerprint(const PackedUv& uv);

// Res7 face normals by the rule (msh.md §11) per record, none for a record no slot draws
// (mapping::rule_face_normals).
using RuleNormals = std::vector<std::optional<std::array<int16_t, 3>>>;

// The binding of `model` (read from its image): `held[v]` says that the export holds vertex v
// exactly (its position and UV in the glTF are the stored ones); `rules` are derived_rules(model)
// and `rule_normals` rule_face_normals(model).
ModelBinding bind_model(const Model& model, const std::vector<bool>& held,
                        const DerivedRules& rules, const RuleNormals& rule_normals);

// Res7 records with their normals: the stored ones listed, the rule's for the others.
Bytes triangle_payload(const ModelBinding& binding, const RuleNormals& rule_normals);

// The row checks of the tables as they are now (compared with `checks` by the import).
std::map<std::string, std::vector<uint16_t>> table_checks(const ModelBinding& binding);

class ReadableJson;
// The binding's members, written into a sidecar's text (model_sidecar_text): `other(key)` writes
// the document's other members that sort before `key`, and the rest when `key` is empty.
void write_binding_json(const ModelBinding& binding, ReadableJson& w,
                        const std::function<void(std::string_view before)>& other);
// Reads them; every problem is a FormatError at its JSON pointer.
ModelBinding read_binding(const JsonAt& doc);

} // namespace msh::sidecar
