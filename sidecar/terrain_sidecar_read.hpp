// Reading side of the terrain sidecar (sidecar/terrain_sidecar.hpp, `"kind": "terrain"`): the
// binding (every field read and checked) or, in the first layout, the original Land.msh / Land.map
// payloads (base64, checked against the recorded size and hash), and the export options the
// terrain import needs to re-create what the exporter wrote.
#pragma once

#include "formats/bytes.hpp"
#include "integer_rows.hpp"
#include "json_scan.hpp"
#include "terrain_sidecar.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msh::sidecar {

// True when `doc` is a sidecar object with "kind": "terrain".
bool is_terrain_sidecar(const nlohmann::json& doc);

// Parses first-layout sidecar text (any kind; the whole text is checked as JSON) keeping only what
// an import reads: the readable per-face and per-areal parts of a terrain sidecar (`terrain`,
// `areal_map`, the directories, `conventions`) are dropped while parsing, so a stress-map sidecar
// builds no DOM for its 65,535 face rows (sidecar/json_scan.hpp still checks the whole text).
// Throws std::invalid_argument (or nlohmann::json::parse_error) on bad JSON.
nlohmann::json parse_for_import(std::string_view text);
// The same of the text's members (json_scan::object_members: the text is validated).
nlohmann::json parse_for_import(const std::vector<json_scan::Member>& members);

// A binding sidecar's members parsed as its reader needs them: every member but the face rows
// (parse_json_fast), which are scanned as integer rows without a DOM into `face_rows` (left empty
// when the rows are anything else: the DOM reader then names the value at fault).
nlohmann::json parse_binding_members(const std::vector<json_scan::Member>& members,
                                     const std::string& where, IntegerRows& face_rows);

// The binding or the payloads, and the export record (a first layout's readable part is not read
// back; the terrain and map pointers stay null). Throws FormatError naming `where` and the JSON
// pointer on a missing or malformed field, bad base64 or a size/hash mismatch.
TerrainSidecar parse_terrain_sidecar(const nlohmann::json& doc, const std::string& where,
                                     const IntegerRows* face_rows = nullptr);

} // namespace msh::sidecar
