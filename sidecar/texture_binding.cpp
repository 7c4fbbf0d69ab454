#include "texture_binding.hpp"

#include "base64.hpp"
#include "binding_fields.hpp"
#include "json_at.hpp"
#include "payload_hash.hpp"
#include "readable_writer.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"

#include <array>

namespace msh::sidecar {

namespace {

constexpr size_t kMaxLevels = 32; // a 65,535-pixel side has 17

const char* level_source_name(LevelSource s) {
    switch (s) {
    case LevelSource::Png:
        return "png";
    case LevelSource::MipPng:
        return "mip png";
    case LevelSource::Sidecar:
        break;
    }
    return "sidecar";
}

// Whether a PNG of `level` decodes to pixels that encode back to exactly its bytes. Narrow
// channels widen by bit replication and round back exactly (texm::encode_pixels), 88 is grey,
// 8888 is 8-bit, a palette PNG keeps its indices; only 888's X byte has no place in a PNG.
bool png_holds_exactly(texm::Format f, ByteView level) {
    if (f != texm::Format::X8R8G8B8) return true;
    for (size_t i = 3; i < level.size(); i += 4)
        if (level[i] != 0) return false;
    return true;
}

uint64_t read_hash(const JsonAt& at) {
    const std::string hash = at.as<std::string>();
    if (hash.size() != 16 || hash.find_first_not_of("0123456789abcdef") != std::string::npos)
        at.fail("expected 16 lower-case hex digits");
    return std::stoull(hash, nullptr, 16);
}

texm::Format read_format(const JsonAt& at) {
    const std::optional<texm::Format> f = texm::to_format(at.as<uint32_t>());
    if (!f) at.fail("not a Texm format: 0, 565, 556, 4444, 88, 888 or 8888");
    return *f;
}

std::string hex16(uint16_t v) {
    return hex64(v).substr(12);
}

// A level row's check: its size and hash, which an edit of its bytes must change.
uint16_t level_check(const TextureLevel& level) {
    return row_check(pod_bytes(std::vector<uint64_t>{level.size, level.xxh3_64}));
}

// {"base64", "size", "xxh3_64"} of `bytes`.
void write_hashed(ReadableJson& w, ByteView bytes) {
    w.begin_object();
    w.member("base64", to_base64(bytes));
    w.member("size", uint64_t(bytes.size()));
    w.member(kPayloadHashKey, hex64(payload_hash(bytes)));
    w.end_object();
}

} // namespace

std::vector<std::string> read_mip_names(const JsonAt& mips) {
    std::vector<std::string> names;
    for (size_t i = 0; i < mips.size(); ++i) {
        std::string name = mips[i].as<std::string>();
        // Read beside the PNG: a plain file name, never a path that leaves its folder.
        if (!is_plain_file_name(name))
            mips[i].fail("bad texm sidecar: a mip must be a plain file name");
        names.push_back(std::move(name));
    }
    return names;
}

ChannelOrder read_channel_order(const JsonAt& doc) {
    if (!doc.has("readings") || !doc["readings"].has("texm-rgb")) return ChannelOrder::Bgr;
    const JsonAt order = doc["readings"]["texm-rgb"];
    try {
        return readings_from_map({{"texm-rgb", order.as<std::string>()}}).texm_rgb;
    } catch (const std::invalid_argument& e) {
        order.fail(e.what());
    }
}

std::string channel_order_name(ChannelOrder order) {
    return reading_map(Readings{.texm_rgb = order}).at("texm-rgb");
}

void bind_texture(const texm::Texture& t, ByteView payload, bool mip_pngs, TextureSidecar& s) {
    const texm::Format f = *t.format();
    s.layout = 2;
    s.source_size = payload.size();
    s.source_xxh3_64 = payload_hash(payload);
    s.encoded_format = t.header.format;
    s.levels.clear();
    for (size_t k = 0; k < t.levels.size(); ++k) {
        const Bytes& bytes = t.levels[k];
        TextureLevel level;
        level.from = k == 0     ? LevelSource::Png
                     : mip_pngs ? LevelSource::MipPng
                                : LevelSource::Sidecar;
        level.size = bytes.size();
        level.xxh3_64 = payload_hash(bytes);
        if (level.from == LevelSource::Sidecar || !png_holds_exactly(f, bytes)) level.bytes = bytes;
        s.levels.push_back(std::move(level));
    }
    s.palette_x.clear();
    if (f == texm::Format::Indexed) {
        const uint8_t x = texm::byte_order(f, t.channel_order).a;
        for (size_t k = 0; k < texm::kPaletteEntries; ++k)
            s.palette_x.push_back(t.palette[4 * k + x]);
    }
    s.tail = t.tail;
    s.checks = texture_checks(s);
    s.level_checks.clear();
    for (const TextureLevel& level : s.levels) s.level_checks.push_back(level_check(level));
}

std::map<std::string, uint16_t> texture_checks(const TextureSidecar& s) {
    const texm::Header& h = s.header;
    const std::vector<uint32_t> header = {h.mip_count, h.flags4, h.flags5, h.unknown6, h.format};
    Bytes page{0xff}; // none differs from a chunk of no rectangles
    if (s.page) {
        page.clear();
        for (const texm::PageRect& r : *s.page)
            for (const uint16_t v : {r.x, r.w, r.y, r.h}) {
                page.push_back(uint8_t(v));
                page.push_back(uint8_t(v >> 8));
            }
    }
    return {{"header", row_check(pod_bytes(header))},
            {"page", row_check(page)},
            {"palette_x", row_check(s.palette_x)},
            {"readings", uint16_t(s.channel_order == ChannelOrder::Bgr ? 0 : 1)},
            {"tail", row_check(s.tail)}};
}

void write_binding_texture(ReadableJson& w, const TextureSidecar& s) {
    const texm::Header& h = s.header;
    w.begin_object();
    w.key("checks");
    w.begin_object();
    bool levels_written = false;
    auto write_level_checks = [&] {
        w.key("levels");
        w.begin_array();
        for (const uint16_t check : s.level_checks) w.value(hex16(check));
        w.end_array();
        levels_written = true;
    };
    for (const auto& [member, check] : s.checks) {
        if (member == "levels") continue; // the level checks' own member
        if (!levels_written && std::string_view("levels") < member) write_level_checks();
        w.member(member, hex16(check));
    }
    if (!levels_written) write_level_checks();
    w.end_object();
    w.key("header");
    w.begin_object();
    w.member("flags4", h.flags4);
    w.member("flags5", h.flags5);
    w.member("format", h.format);
    w.member("mip_count", h.mip_count);
    w.member("unknown6", h.unknown6);
    w.end_object();
    w.member("kind", "texm");
    w.key("levels");
    w.begin_object();
    w.member("format", s.encoded_format);
    w.key("rows");
    w.begin_array();
    for (size_t k = 0; k < s.levels.size(); ++k) {
        const TextureLevel& l = s.levels[k];
        w.begin_object();
        if (l.bytes) w.member("base64", to_base64(*l.bytes));
        w.member("in", level_source_name(l.from));
        w.member("level", uint64_t(k));
        w.member("size", l.size);
        w.member(kPayloadHashKey, hex64(l.xxh3_64));
        w.end_object();
    }
    w.end_array();
    w.end_object();
    w.member("mips", s.mips);
    w.key("page");
    if (s.page) {
        w.begin_array();
        for (const texm::PageRect& r : *s.page) {
            w.begin_array();
            for (const uint16_t v : {r.x, r.w, r.y, r.h}) w.value(v);
            w.end_array();
        }
        w.end_array();
    } else {
        w.null();
    }
    if (!s.palette_x.empty()) w.member("palette_x", to_hex(s.palette_x));
    w.member("png", s.png);
    w.key("readings");
    w.begin_object();
    w.member("texm-rgb", channel_order_name(s.channel_order));
    w.end_object();
    w.member("schema", kBindingSchema);
    w.key("source");
    write_source(w, s.source, s.source_size, s.source_xxh3_64);
    w.key("tail");
    write_hashed(w, s.tail);
    w.end_object();
}

TextureSidecar read_binding_texture(const JsonAt& at) {
    if (!at.is_object()) at.fail("bad texm sidecar: not a JSON object");
    if (at["kind"].as<std::string>() != "texm")
        at["kind"].fail("bad texm sidecar: kind is not \"texm\" (a model sidecar?)");
    TextureSidecar s;
    s.layout = 2;
    s.where = at.where();
    const JsonAt source = at["source"];
    s.source = source["address"].as<std::string>();
    s.source_size = source["size"].as<uint64_t>();
    s.source_xxh3_64 = read_hash(source[kPayloadHashKey]);
    s.png = at["png"].as<std::string>();
    s.mips = read_mip_names(at["mips"]);

    const JsonAt h = at["header"];
    s.header.mip_count = h["mip_count"].as<uint32_t>();
    if (s.header.mip_count == 0) h["mip_count"].fail("a texture has at least 1 level");
    s.header.flags4 = h["flags4"].as<uint32_t>();
    s.header.flags5 = h["flags5"].as<uint32_t>();
    s.header.unknown6 = h["unknown6"].as<uint32_t>();
    s.header.format = uint32_t(read_format(h["format"]));

    if (!at["page"].is_null()) {
        const JsonAt page = at["page"];
        s.page.emplace();
        for (size_t i = 0; i < page.size(); ++i) {
            const JsonAt r = page[i];
            if (!r.is_array() || r.size() != 4) r.fail("expected a row of 4 values: x, w, y, h");
            s.page->push_back({r[0].as<uint16_t>(), r[1].as<uint16_t>(), r[2].as<uint16_t>(),
                               r[3].as<uint16_t>()});
        }
    }
    s.channel_order = read_channel_order(at);

    const JsonAt levels = at["levels"];
    s.encoded_format = uint32_t(read_format(levels["format"]));
    const JsonAt rows = levels["rows"];
    if (rows.size() == 0 || rows.size() > kMaxLevels)
        rows.fail("expected 1.." + std::to_string(kMaxLevels) + " levels");
    for (size_t k = 0; k < rows.size(); ++k) {
        const JsonAt row = rows[k];
        if (row["level"].as<uint32_t>() != k)
            row["level"].fail("expected " + std::to_string(k) + ": the rows are levels 0, 1, ...");
        TextureLevel level;
        const std::string in = row["in"].as<std::string>();
        if (in == "png")
            level.from = LevelSource::Png;
        else if (in == "mip png")
            level.from = LevelSource::MipPng;
        else if (in != "sidecar")
            row["in"].fail("expected \"png\", \"mip png\" or \"sidecar\"");
        if ((k == 0) != (level.from == LevelSource::Png))
            row["in"].fail(k == 0 ? "level 0 is in the PNG" : "only level 0 is in the PNG");
        if (level.from == LevelSource::MipPng && k > s.mips.size())
            row["in"].fail("a level in a mip PNG needs its name in /mips");
        level.size = row["size"].as<uint64_t>();
        level.xxh3_64 = read_hash(row[kPayloadHashKey]);
        if (level.from == LevelSource::Sidecar || row.has("base64"))
            level.bytes = read_hashed_bytes(row, "level " + std::to_string(k),
                                            "an edited level needs its new size and xxh3_64");
        s.levels.push_back(std::move(level));
    }

    if (at.has("palette_x")) {
        const JsonAt x = at["palette_x"];
        try {
            s.palette_x = from_hex(x.as<std::string>());
        } catch (const std::invalid_argument& e) {
            x.fail(e.what());
        }
        if (s.palette_x.size() != texm::kPaletteEntries)
            x.fail("expected 256 bytes (512 hex digits)");
    }
    s.tail =
        read_hashed_bytes(at["tail"], "the tail", "an edited tail needs its new size and xxh3_64");
    if (s.page && !s.tail.empty())
        at["page"].fail(
            "a texture ends in a Page chunk or in a tail, not both (/tail is not empty)");

    const JsonAt checks = at["checks"];
    const auto read_check = [](const JsonAt& c) {
        const std::string text = c.as<std::string>();
        if (text.size() != 4 || text.find_first_not_of("0123456789abcdef") != std::string::npos)
            c.fail("expected 4 lower-case hex digits");
        return uint16_t(std::stoul(text, nullptr, 16));
    };
    for (const auto& [member, check] : texture_checks(s)) {
        s.checks[member] = read_check(checks[member]);
        if (s.checks[member] != check) s.edits.push_back("/" + member);
    }
    const JsonAt level_checks = checks["levels"];
    if (level_checks.size() != s.levels.size())
        level_checks.fail("expected one check per level row (" + std::to_string(s.levels.size()) +
                          ")");
    for (size_t k = 0; k < s.levels.size(); ++k) {
        s.level_checks.push_back(read_check(level_checks[k]));
        if (s.level_checks[k] != level_check(s.levels[k]))
            s.edits.push_back("/levels/rows/" + std::to_string(k));
    }
    return s;
}

} // namespace msh::sidecar
