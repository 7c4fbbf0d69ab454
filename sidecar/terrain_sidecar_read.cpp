#include "terrain_sidecar_read.hpp"

#include "base64.hpp"
#include "binding_fields.hpp"
#include "formats/diagnostics.hpp"
#include "json_peek.hpp"
#include "model_sidecar.hpp"
#include "payload_hash.hpp"
#include "terrain_binding.hpp"

namespace msh::sidecar {

namespace {

Bytes decode_payload(const JsonAt& doc, const std::string& field) {
    const std::string& where = doc.where();
    const JsonAt p = doc[field];
    if (!p.is_object() || !p.has("base64") || !p["base64"].is_string())
        throw FormatError(where, Location::at_pointer("/" + field + "/base64"),
                          "sidecar field '" + field + ".base64' is missing");
    Bytes bytes;
    try {
        bytes = from_base64(p["base64"].as_string_view());
    } catch (const std::exception& e) {
        throw FormatError(where, Location::at_pointer("/" + field + "/base64"),
                          "sidecar field '" + field + ".base64': " + e.what());
    }
    if (p.has("size") && p["size"].is_unsigned() && p["size"].as<uint64_t>() != bytes.size())
        throw FormatError(
            where, Location::at_pointer("/" + field + "/size"),
            "sidecar field '" + field + "': size " + std::to_string(p["size"].as<uint64_t>()) +
                " does not match the decoded payload (" + std::to_string(bytes.size()) + " bytes)");
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

} // namespace

namespace {

// The recorded facts (the lift, the WEAR rows, the readings, the files' hashes) give the pairing
// token `export.pair`; a sidecar whose facts no longer give it was edited where an import must
// not be steered.
void check_record_token(const TerrainSidecar& s, const JsonAt& doc) {
    const TerrainExportRecord& r = s.record;
    // A first-layout sidecar that records the older FNV-1a hashes made its token from those.
    auto older_hash = [&](const char* payload) {
        return doc.has(payload) && doc[payload].is_object() && !doc[payload].has(kPayloadHashKey);
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
        throw FormatError(doc.where(), Location::at_pointer("/export/pair"),
                          "the export's record was edited: its lift, readings, WEAR rows and the "
                          "files' hashes no longer give this pairing token. They say how the file "
                          "was written, not what to import: restore them");
}

bool has_text(const JsonAt& object, const char* key, std::string_view text) {
    return object.has(key) && object[key].is_text(text);
}

// What the export's record and the WEAR layers say, over what `r` holds.
void read_export_record(const JsonAt& doc, TerrainExportRecord& r) {
    r.areal_faces = true; // what an export without the option wrote
    if (doc.has("export") && doc["export"].is_object()) {
        const JsonAt e = doc["export"];
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
    if (doc.has("wear") && doc["wear"].is_object()) {
        const JsonAt w = doc["wear"];
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
}

} // namespace

TerrainSidecar parse_terrain_sidecar(const JsonAt& doc) {
    const std::string& where = doc.where();
    if (!doc.is_object() || !has_text(doc, "kind", "terrain"))
        throw FormatError(where, Location::at_pointer("/kind"),
                          "not a terrain sidecar (\"kind\": \"terrain\" expected)");
    TerrainSidecar s;
    s.where = where;
    if (has_text(doc, "schema", kBindingSchema)) {
        s.binding = std::make_shared<const TerrainBinding>(read_terrain_binding(doc));
        if (doc["source"].has("address"))
            s.record.source = doc["source"]["address"].as<std::string>();
        if (s.binding->land_map && doc["map_source"].has("address"))
            s.record.map_source = doc["map_source"]["address"].as<std::string>();
    } else {
        if (!doc.has("land_msh"))
            throw FormatError(where, Location::at_pointer("/land_msh"),
                              "sidecar field 'land_msh' is missing");
        s.land_msh = decode_payload(doc, "land_msh");
        if (doc.has("land_map") && !doc["land_map"].is_null()) {
            s.land_map = decode_payload(doc, "land_map");
            if (doc["land_map"].has("address") && doc["land_map"]["address"].is_string())
                s.record.map_source = doc["land_map"]["address"].as<std::string>();
        }
    }
    read_export_record(doc, s.record); // its "source" before the binding's
    check_record_token(s, doc);
    if (doc.has("conventions") && doc["conventions"].is_object())
        for (const auto& [key, text] : kTerrainConventions)
            if (doc["conventions"].has(key) && !doc["conventions"][key].is_text(text))
                s.unread.push_back(
                    unread_layout_warning(where, std::string("/conventions/") + key, text));
    return s;
}

std::optional<TerrainSidecar> read_terrain_sidecar(ByteView text, const std::string& where) {
    // A model or texture sidecar says so in its "kind": not parsed here (its own reader does).
    const std::string_view chars(reinterpret_cast<const char*>(text.data()), text.size());
    if (const auto kind = peek_plain_member(chars, "kind"); kind && *kind != "terrain")
        return std::nullopt;
    ParsedJson parsed;
    if (!parsed.try_parse(text)) return std::nullopt; // not JSON: the model import says why
    const JsonAt doc(parsed.root(), "", where);
    if (!doc.is_object() || !has_text(doc, "kind", "terrain")) return std::nullopt;
    return parse_terrain_sidecar(doc);
}

} // namespace msh::sidecar
