#include "sidecar/level_sidecar.hpp"

#include "formats/diagnostics.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/pairing.hpp"
#include "sidecar/payload_hash.hpp"

#include <nlohmann/json.hpp>

namespace msh::sidecar {

namespace {

constexpr const char* kLevelSchema = "mshconv-sidecar/2";

} // namespace

std::string level_pairing_token(ByteView mission,
                                const std::map<std::string, std::string>& readings) {
    std::string facts = "level";
    for (const auto& [name, variant] : readings) facts += ";" + name + "=" + variant;
    return pairing_token(mission, facts);
}

std::string level_sidecar_text(const LevelSidecar& s) {
    nlohmann::ordered_json j;
    j["schema"] = kLevelSchema;
    j["kind"] = "level";
    j["export"] = {{"source", s.source},
                   {"output", s.output},
                   {"format", s.format},
                   {"pair", s.pair},
                   {"readings", s.readings}};
    j["data_tma"] = {{"size", s.mission.size()},
                     {"xxh3_64", hex64(payload_hash(s.mission))},
                     {"base64", to_base64(s.mission)}};
    return j.dump(2) + "\n";
}

std::optional<LevelSidecar> read_level_sidecar(ByteView text, const std::string& where) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
    if (!j.is_object() || j.value("kind", "") != "level") return std::nullopt;
    auto fail = [&](const std::string& pointer, const std::string& message) -> FormatError {
        return FormatError(where, Location::at_pointer(pointer), message);
    };
    if (j.value("schema", "") != kLevelSchema)
        throw fail("/schema", std::string("not ") + kLevelSchema);
    const nlohmann::json& record = j.contains("export") ? j["export"] : nlohmann::json();
    if (!record.is_object()) throw fail("/export", "missing the export record");
    auto text_of = [&](const char* key) {
        if (!record.contains(key) || !record[key].is_string())
            throw fail(std::string("/export/") + key, "missing or not a string");
        return record[key].get<std::string>();
    };
    LevelSidecar s;
    s.source = text_of("source");
    s.output = text_of("output");
    s.format = text_of("format");
    s.pair = text_of("pair");
    if (record.contains("readings")) {
        if (!record["readings"].is_object()) throw fail("/export/readings", "not an object");
        for (const auto& [name, variant] : record["readings"].items()) {
            if (!variant.is_string()) throw fail("/export/readings/" + name, "not a string");
            s.readings[name] = variant.get<std::string>();
        }
    }
    const nlohmann::json& data = j.contains("data_tma") ? j["data_tma"] : nlohmann::json();
    if (!data.is_object() || !data.contains("base64") || !data["base64"].is_string())
        throw fail("/data_tma/base64", "missing data.tma's bytes");
    try {
        s.mission = from_base64(data["base64"].get<std::string>());
    } catch (const std::exception& e) {
        throw fail("/data_tma/base64", std::string("not base64: ") + e.what());
    }
    if (!data.contains("size") || !data["size"].is_number_unsigned() ||
        data["size"].get<uint64_t>() != s.mission.size())
        throw fail("/data_tma/size",
                   "does not match the bytes included (" + std::to_string(s.mission.size()) + ")");
    if (!data.contains("xxh3_64") || !data["xxh3_64"].is_string() ||
        data["xxh3_64"].get<std::string>() != hex64(payload_hash(s.mission)))
        throw fail("/data_tma/xxh3_64", "does not match the bytes included");
    return s;
}

} // namespace msh::sidecar
