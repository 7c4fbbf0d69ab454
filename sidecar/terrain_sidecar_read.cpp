#include "terrain_sidecar_read.hpp"

#include "base64.hpp"
#include "binding_fields.hpp"
#include "formats/diagnostics.hpp"
#include "json_at.hpp"
#include "json_scan.hpp"
#include "model_sidecar.hpp"
#include "payload_hash.hpp"
#include "terrain_binding.hpp"

#include <stdexcept>

namespace msh::sidecar {

using nlohmann::json;

namespace {

Bytes decode_payload(const json& p, const std::string& field, const std::string& where) {
    if (!p.is_object() || !p.contains("base64") || !p["base64"].is_string())
        throw FormatError(where, Location::at_pointer("/" + field + "/base64"),
                          "sidecar field '" + field + ".base64' is missing");
    Bytes bytes;
    try {
        bytes = from_base64(p["base64"].get_ref<const std::string&>());
    } catch (const std::exception& e) {
        throw FormatError(where, Location::at_pointer("/" + field + "/base64"),
                          "sidecar field '" + field + ".base64': " + e.what());
    }
    if (p.contains("size") && p["size"].is_number_unsigned() &&
        p["size"].get<uint64_t>() != bytes.size())
        throw FormatError(where, Location::at_pointer("/" + field + "/size"),
                          "sidecar field '" + field + "': size " + p["size"].dump() +
                              " does not match the decoded payload (" +
                              std::to_string(bytes.size()) + " bytes)");
    // Every terrain sidecar records a hash (FNV-1a 64 in older ones): one without
    // is damaged, as for models and textures.
    const PayloadHashCheck hash = check_payload_hash(p, bytes);
    if (!hash.matches)
        throw FormatError(where, Location::at_pointer("/" + field + "/" + hash.key),
                          "sidecar field '" + field + "': " +
                              (hash.recorded ? "the recorded " + hash.key + " does not match"
                                             : "no " + hash.key + " of") +
                              " the decoded payload (edited or damaged sidecar)");
    return bytes;
}

// The faces object as the writer lays it out, `{"columns": [...], "rows": [...]}`, split without a
// second validating scan (the text is validated): `columns` parsed into `faces`, `rows` its span.
// False for any other shape (the caller scans its members).
bool split_face_rows(std::string_view v, json& faces, std::string_view& rows) {
    auto blank = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
    auto skip = [&](size_t at) {
        while (at < v.size() && blank(v[at])) ++at;
        return at;
    };
    constexpr std::string_view kColumns = "\"columns\"", kRows = "\"rows\"";
    if (v.size() < 2 || v.front() != '{' || v.back() != '}') return false;
    size_t at = skip(1);
    if (v.compare(at, kColumns.size(), kColumns) != 0) return false;
    at = skip(at + kColumns.size());
    if (at >= v.size() || v[at] != ':') return false;
    const size_t first = skip(at + 1);
    const size_t close = v.find(']', first); // a bracket in a name: the columns do not parse
    if (close == std::string_view::npos) return false;
    at = skip(close + 1);
    if (at >= v.size() || v[at] != ',') return false;
    at = skip(at + 1);
    if (v.compare(at, kRows.size(), kRows) != 0) return false;
    at = skip(at + kRows.size());
    if (at >= v.size() || v[at] != ':') return false;
    at = skip(at + 1);
    size_t end = v.size() - 1; // the closing brace
    while (end > at && blank(v[end - 1])) --end;
    json columns = json::parse(v.substr(first, close + 1 - first), nullptr, false);
    if (columns.is_discarded() || !columns.is_array()) return false;
    faces["columns"] = std::move(columns);
    rows = v.substr(at, end - at);
    return true;
}

} // namespace

json parse_for_import(std::string_view text) {
    return parse_for_import(json_scan::object_members(text));
}

json parse_binding_members(const std::vector<json_scan::Member>& members, const std::string& where,
                           IntegerRows& face_rows) {
    json doc = json::object();
    auto bytes = [](std::string_view v) {
        return ByteView(reinterpret_cast<const uint8_t*>(v.data()), v.size());
    };
    for (const json_scan::Member& m : members) {
        if (m.key != "faces") {
            doc[m.key] = parse_json_fast(bytes(m.value), where);
            continue;
        }
        json faces = json::object();
        std::string_view rows;
        std::optional<IntegerRows> scanned;
        if (split_face_rows(m.value, faces, rows))
            scanned = scan_integer_rows(rows, faces["columns"].size());
        if (!scanned) { // any other shape: member by member, the rows as a DOM unless integers
            faces = json::object();
            rows = {};
            if (!m.value.empty() && m.value.front() == '{')
                for (const json_scan::Member& f : json_scan::object_members(m.value)) {
                    if (f.key == "rows")
                        rows = f.value;
                    else
                        faces[f.key] = parse_json_fast(bytes(f.value), where);
                }
            if (!rows.empty() && faces.contains("columns") && faces["columns"].is_array())
                scanned = scan_integer_rows(rows, faces["columns"].size());
        }
        if (scanned) {
            face_rows = std::move(*scanned);
            faces["rows"] = json::array(); // read from face_rows
        } else if (!rows.empty()) {
            faces["rows"] = parse_json_fast(bytes(rows), where);
        }
        doc[m.key] =
            m.value.front() == '{' ? std::move(faces) : parse_json_fast(bytes(m.value), where);
    }
    return doc;
}

json parse_for_import(const std::vector<json_scan::Member>& members) {
    static const char* const kReadableOnly[] = {"terrain", "areal_map", "land_msh_directory",
                                                "land_map_directory"};
    auto readable_only = [](const std::string& key) {
        for (const char* k : kReadableOnly)
            if (key == k) return true;
        return false;
    };
    // The scanner validates the whole text; nlohmann parses only the members kept, and the
    // base64 payloads (megabytes, no escapes) are taken as they are.
    json doc = json::object();
    for (const json_scan::Member& m : members) {
        if (readable_only(m.key)) continue;
        if ((m.key == "land_msh" || m.key == "land_map") && !m.value.empty() &&
            m.value.front() == '{') {
            json payload = json::object();
            for (const json_scan::Member& p : json_scan::object_members(m.value)) {
                const auto plain = p.key == "base64" ? json_scan::plain_string(p.value)
                                                     : std::optional<std::string_view>();
                payload[p.key] = plain ? json(std::string(*plain)) : json::parse(p.value);
            }
            doc[m.key] = std::move(payload);
            continue;
        }
        doc[m.key] = json::parse(m.value);
    }
    return doc;
}

namespace {

// The recorded facts (the lift, the WEAR rows, the readings, the files' hashes) give the pairing
// token `export.pair`; a sidecar whose facts no longer give it was edited where an import must
// not be steered.
void check_record_token(const TerrainSidecar& s, const json& doc, const std::string& where) {
    const TerrainExportRecord& r = s.record;
    // A first-layout sidecar that records the older FNV-1a hashes made its token from those.
    auto older_hash = [&](const char* payload) {
        return doc.contains(payload) && doc[payload].is_object() &&
               !doc[payload].contains(kPayloadHashKey);
    };
    if (r.pair.empty() || (!s.binding && (older_hash("land_msh") || older_hash("land_map"))))
        return;
    const uint64_t no_map = payload_hash(ByteView());
    const std::string token =
        s.binding
            ? terrain_pairing_token_of(s.binding->msh_source.xxh3_64, s.binding->msh_source.size,
                                       s.binding->land_map ? s.binding->map_source.xxh3_64 : no_map,
                                       r)
            : terrain_pairing_token(s.land_msh, s.land_map ? ByteView(*s.land_map) : ByteView(), r);
    if (token != r.pair)
        throw FormatError(where, Location::at_pointer("/export/pair"),
                          "the export's record was edited: its lift, readings, WEAR rows and the "
                          "files' hashes no longer give this pairing token. They say how the file "
                          "was written, not what to import: restore them");
}

} // namespace

bool is_terrain_sidecar(const json& doc) {
    return doc.is_object() && doc.contains("kind") && doc["kind"] == "terrain";
}

TerrainSidecar parse_terrain_sidecar(const json& doc, const std::string& where,
                                     const IntegerRows* face_rows) {
    if (!is_terrain_sidecar(doc))
        throw FormatError(where, Location::at_pointer("/kind"),
                          "not a terrain sidecar (\"kind\": \"terrain\" expected)");
    TerrainSidecar s;
    s.where = where;
    const bool binding = doc.contains("schema") && doc["schema"] == kBindingSchema;
    if (binding) {
        const JsonAt at(doc, "", where);
        s.binding = std::make_shared<const TerrainBinding>(read_terrain_binding(at, face_rows));
        s.record.source =
            at["source"].has("address") ? at["source"]["address"].as<std::string>() : std::string();
        if (s.binding->land_map && at["map_source"].has("address"))
            s.record.map_source = at["map_source"]["address"].as<std::string>();
    } else if (!doc.contains("land_msh"))
        throw FormatError(where, Location::at_pointer("/land_msh"),
                          "sidecar field 'land_msh' is missing");
    if (!binding) {
        s.land_msh = decode_payload(doc["land_msh"], "land_msh", where);
        if (doc.contains("land_map") && !doc["land_map"].is_null())
            s.land_map = decode_payload(doc["land_map"], "land_map", where);
    }
    TerrainExportRecord& r = s.record;
    r.areal_faces = true; // what an export without the option wrote
    if (doc.contains("export") && doc["export"].is_object()) {
        const JsonAt e(doc["export"], "/export", where);
        if (e.has("source")) r.source = e["source"].as<std::string>();
        if (e.has("output")) r.output = e["output"].as<std::string>();
        if (e.has("format")) r.format = e["format"].as<std::string>();
        if (e.has("pair")) r.pair = e["pair"].as<std::string>();
        if (e.has("written")) r.written = read_written_file(e["written"]); // not in older sidecars
        if (e.has("readings")) r.readings = read_readings(e["readings"]);  // absent: defaults
        if (e.has("options")) {
            const JsonAt o = e["options"];
            if (o.has("lift")) r.lift = o["lift"].as<float>();
            if (o.has("areal_faces")) r.areal_faces = o["areal_faces"].as<bool>();
        }
    }
    if (doc.contains("wear") && doc["wear"].is_object()) {
        const JsonAt w(doc["wear"], "/wear", where);
        auto layer = [&](const char* key, std::string& address, std::vector<std::string>& rows) {
            if (!w.has(key)) return;
            const JsonAt l = w[key];
            if (l.has("address")) address = l["address"].as<std::string>();
            if (l.has("rows"))
                for (size_t i = 0; i < l["rows"].size(); ++i)
                    rows.push_back(l["rows"][i].as<std::string>());
        };
        layer("land1", r.wear1_source, r.wear1_rows);
        layer("land2", r.wear2_source, r.wear2_rows);
    }
    if (s.land_map && doc["land_map"].is_object() && doc["land_map"].contains("address") &&
        doc["land_map"]["address"].is_string())
        r.map_source = doc["land_map"]["address"].get<std::string>();
    check_record_token(s, doc, where);
    if (doc.contains("conventions") && doc["conventions"].is_object())
        for (const auto& [key, text] : kTerrainConventions) {
            const json& c = doc["conventions"];
            if (c.contains(key) && !(c[key].is_string() && c[key].get<std::string>() == text))
                s.unread.push_back(
                    unread_layout_warning(where, std::string("/conventions/") + key, text));
        }
    return s;
}

} // namespace msh::sidecar
