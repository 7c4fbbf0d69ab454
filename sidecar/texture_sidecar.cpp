#include "texture_sidecar.hpp"

#include "base64.hpp"
#include "binding_fields.hpp"
#include "json_at.hpp"
#include "model_sidecar.hpp"
#include "payload_hash.hpp"
#include "portable_address.hpp"
#include "readable_writer.hpp"
#include "texture_binding.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/png.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

namespace msh::sidecar {

namespace {

void write_page(ReadableJson& w, const std::optional<std::vector<texm::PageRect>>& page) {
    if (!page) return w.null();
    w.begin_array();
    for (const texm::PageRect& r : *page) {
        w.begin_object();
        w.member("h", r.h);
        w.member("w", r.w);
        w.member("x", r.x);
        w.member("y", r.y);
        w.end_object();
    }
    w.end_array();
}

void write_palette(ReadableJson& w, const Bytes& palette, ChannelOrder order) {
    if (palette.empty()) return w.null();
    w.begin_object();
    w.member("byte_order", order == ChannelOrder::Bgr ? "B, G, R, X" : "R, G, B, X");
    w.key("entries");
    w.begin_array();
    for (size_t k = 0; k + 4 <= palette.size(); k += 4)
        w.value(to_hex(ByteView(palette).subspan(k, 4)));
    w.end_array();
    w.end_object();
}

Bytes hex_field(const JsonAt& at) {
    try {
        return from_hex(at.as<std::string>());
    } catch (const std::invalid_argument& e) {
        at.fail(e.what());
    }
}

} // namespace

std::string mip_png_name(const std::string& png_name, uint32_t level) {
    std::string stem = png_name;
    const auto dot = stem.rfind('.');
    if (dot != std::string::npos && dot > 0) stem.resize(dot);
    return stem + ".mip" + std::to_string(level) + ".png";
}

namespace {

// The first layout, the original's base64 (most of the text) straight into the text.
void write_first_layout(ReadableJson& w, const TextureSidecar& s) {
    const texm::Header& h = s.header;
    w.begin_object();
    w.member("format", h.format);
    w.key("header");
    w.begin_object();
    w.member("flags4", h.flags4);
    w.member("flags5", h.flags5);
    w.member("format", h.format);
    w.member("height", h.height);
    w.member("mip_count", h.mip_count);
    w.member("unknown6", h.unknown6);
    w.member("width", h.width);
    w.end_object();
    w.member("kind", "texm");
    w.member("mips", s.mips);
    w.key("original");
    w.begin_object();
    w.key("base64");
    w.plain_string_with([&](std::string& out) { append_base64(out, s.original); });
    w.member("size", uint64_t(s.original.size()));
    w.member(kPayloadHashKey, hex64(payload_hash(s.original)));
    w.end_object();
    w.key("page");
    write_page(w, s.page);
    w.key("palette");
    write_palette(w, s.palette, s.channel_order);
    w.member("png", s.png);
    w.key("readings");
    w.begin_object();
    w.member("texm-rgb", channel_order_name(s.channel_order));
    w.end_object();
    w.member("schema", kSchema);
    w.member("source", s.source);
    w.member("tail_bytes", s.tail_bytes);
    if (s.written.recorded()) {
        w.key("written");
        write_written_file(w, s.written);
    }
    w.end_object();
}

} // namespace

namespace {

// A first-layout sidecar: the original payload (decoded from the text as parsed) and its header.
TextureSidecar parse_with_original(const JsonAt& at) {
    if (!at.is_object()) at.fail("bad texm sidecar: not a JSON object");
    if (at["schema"].as<std::string>() != kSchema)
        at["schema"].fail("bad texm sidecar: schema is not " + std::string(kSchema));
    if (at["kind"].as<std::string>() != "texm")
        at["kind"].fail("bad texm sidecar: kind is not \"texm\" (a model sidecar?)");
    TextureSidecar s;
    s.layout = 1;
    s.where = at.where();
    const JsonAt o = at["original"];
    try {
        s.original = from_base64(o["base64"].as_string_view());
    } catch (const std::invalid_argument& e) {
        o["base64"].fail(std::string("bad texm sidecar: ") + e.what());
    }
    if (s.original.size() != o["size"].as<uint64_t>())
        o["size"].fail("bad texm sidecar: original payload size does not match");
    const PayloadHashCheck hash = check_payload_hash(o, s.original);
    if (!hash.matches) // a missing member fails as missing
        o[hash.key].fail(
            "bad texm sidecar: original payload hash does not match (edited sidecar?)");
    s.source = at["source"].as<std::string>();
    s.png = at["png"].as<std::string>();
    s.mips = read_mip_names(at["mips"]);
    const JsonAt h = at["header"];
    s.header.width = h["width"].as<uint32_t>();
    s.header.height = h["height"].as<uint32_t>();
    s.header.mip_count = h["mip_count"].as<uint32_t>();
    s.header.flags4 = h["flags4"].as<uint32_t>();
    s.header.flags5 = h["flags5"].as<uint32_t>();
    s.header.unknown6 = h["unknown6"].as<uint32_t>();
    s.header.format = h["format"].as<uint32_t>();
    if (!at["page"].is_null()) {
        const JsonAt page = at["page"];
        s.page.emplace();
        for (size_t i = 0; i < page.size(); ++i)
            s.page->push_back({page[i]["x"].as<uint16_t>(), page[i]["w"].as<uint16_t>(),
                               page[i]["y"].as<uint16_t>(), page[i]["h"].as<uint16_t>()});
    }
    if (!at["palette"].is_null()) {
        const JsonAt entries = at["palette"]["entries"];
        for (size_t i = 0; i < entries.size(); ++i) {
            const Bytes e = hex_field(entries[i]);
            if (e.size() != 4) entries[i].fail("expected 4 bytes (8 hex digits)");
            s.palette.insert(s.palette.end(), e.begin(), e.end());
        }
    }
    s.tail_bytes = at["tail_bytes"].as<uint64_t>();
    s.channel_order = read_channel_order(at);
    if (at.has("written")) s.written = read_written_file(at["written"]); // not in older sidecars
    return s;
}

} // namespace

namespace {

TextureSidecar parse_texture_sidecar(const JsonAt& at) {
    if (at.is_object() && at.has("schema") && at["schema"].is_text(kBindingSchema))
        return read_binding_texture(at);
    return parse_with_original(at);
}

} // namespace

std::string texture_sidecar_text(const TextureSidecar& sidecar) {
    std::string text;
    text.reserve(sidecar.layout == 1 ? 4096 + base64_size(sidecar.original.size()) : 0);
    {
        ReadableJson w(text, kReadableWidth);
        if (sidecar.layout == 1)
            write_first_layout(w, sidecar);
        else
            write_binding_texture(w, sidecar);
    }
    text += '\n';
    return text;
}

// Either layout is read from the document RapidJSON parsed in place (the original's base64,
// megabytes for a large texture, decoded from the text, never copied).
TextureSidecar read_texture_sidecar(ByteView bytes, const std::string& where) {
    ParsedJson parsed;
    parsed.parse(bytes, where);
    return parse_texture_sidecar(JsonAt(parsed.root(), "", where));
}

} // namespace msh::sidecar
