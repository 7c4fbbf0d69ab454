#include "sidecar/level_sidecar.hpp"

#include "formats/diagnostics.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/json_at.hpp"
#include "sidecar/json_peek.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/pairing.hpp"
#include "sidecar/payload_hash.hpp"
#include "sidecar/readable_writer.hpp"

#include <stdexcept>

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
    std::string text;
    text.reserve(1024 + base64_size(s.mission.size()));
    ReadableJson w(text, kReadableWidth);
    w.begin_object();
    w.key("data_tma");
    w.begin_object();
    w.key("base64");
    w.plain_string_with([&](std::string& out) { append_base64(out, s.mission); });
    w.member("size", uint64_t(s.mission.size()));
    w.member("xxh3_64", hex64(payload_hash(s.mission)));
    w.end_object();
    w.key("export");
    w.begin_object();
    w.member("format", s.format);
    w.member("output", s.output);
    w.member("pair", s.pair);
    w.key("readings");
    w.begin_object();
    for (const auto& [name, variant] : s.readings) w.member(name, variant);
    w.end_object();
    w.member("source", s.source);
    w.end_object();
    w.member("kind", "level");
    w.member("schema", kLevelSchema);
    w.end_object();
    text += '\n';
    return text;
}

namespace {

std::optional<LevelSidecar> read_level(const JsonAt& at) {
    if (!at.is_object() || !at.has("kind") || !at["kind"].is_string() ||
        at["kind"].as_string_view() != "level")
        return std::nullopt;
    if (at["schema"].as_string_view() != kLevelSchema)
        at["schema"].fail(std::string("not ") + kLevelSchema);
    const JsonAt record = at["export"];
    LevelSidecar s;
    s.source = record["source"].as<std::string>();
    s.output = record["output"].as<std::string>();
    s.format = record["format"].as<std::string>();
    s.pair = record["pair"].as<std::string>();
    if (record.has("readings")) {
        const JsonAt readings = record["readings"];
        for (const std::string& name : readings.keys())
            s.readings[name] = readings[name].as<std::string>();
    }
    const JsonAt data = at["data_tma"];
    try {
        s.mission = from_base64(data["base64"].as_string_view());
    } catch (const std::invalid_argument& e) {
        data["base64"].fail(std::string("not base64: ") + e.what());
    }
    if (data["size"].as<uint64_t>() != s.mission.size())
        data["size"].fail("does not match the bytes included (" + std::to_string(s.mission.size()) +
                          ")");
    if (data["xxh3_64"].as_string_view() != hex64(payload_hash(s.mission)))
        data["xxh3_64"].fail("does not match the bytes included");
    return s;
}

} // namespace

std::optional<LevelSidecar> read_level_sidecar(ByteView text, const std::string& where) {
    // Another kind of sidecar (or no JSON at all) is not refused here: the caller tries the next.
    const std::string_view chars(reinterpret_cast<const char*>(text.data()), text.size());
    const std::optional<std::string_view> kind = peek_plain_member(chars, "kind");
    if (kind && *kind != "level") return std::nullopt;
    ParsedJson parsed;
    if (!kind && !parsed.try_parse(text)) return std::nullopt; // not JSON: not a level sidecar
    if (kind) parsed.parse(text, where); // a level sidecar's broken text: where it breaks
    return read_level(JsonAt(parsed.root(), "", where));
}

} // namespace msh::sidecar
