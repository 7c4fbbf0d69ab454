#include "texture_sidecar.hpp"

#include "base64.hpp"
#include "binding_fields.hpp"
#include "json_at.hpp"
#include "json_readable.hpp"
#include "json_scan.hpp"
#include "model_sidecar.hpp"
#include "payload_hash.hpp"
#include "portable_address.hpp"
#include "texture_binding.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/png.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

namespace msh::sidecar {

using nlohmann::json;

namespace {

// An interpretable texture or a FormatError naming `where`.
texm::Texture read_texture(ByteView payload, const std::string& where) {
    DiagnosticSink sink(ReadMode::Tolerant);
    texm::Texture t = texm::read(payload, sink, where);
    if (t.raw_only || !t.format()) {
        // The reader's own reason, located: its first error, else what it warned about.
        // The tolerant reader's "(copied through raw)" is what batch and nres do with it; here
        // nothing is copied, so the message says what can and cannot be done instead.
        constexpr std::string_view kRaw = " (copied through raw)";
        for (const Severity s : {Severity::Error, Severity::Warning})
            for (const Diagnostic& d : sink.diagnostics())
                if (d.severity == s) {
                    std::string message = d.message;
                    if (message.ends_with(kRaw)) message.resize(message.size() - kRaw.size());
                    const Location at = d.location.kind == Location::Kind::Offset
                                            ? Location::at_offset(d.offset)
                                            : d.location;
                    throw FormatError(d.resource, at,
                                      message +
                                          "; cannot convert it to PNG (batch and nres keep such "
                                          "a texture byte for byte, info and validate list it)");
                }
        throw FormatError(where, 0,
                          "not an interpretable Texm texture (magic, size or format); cannot "
                          "convert it to PNG");
    }
    return t;
}

// The palette of an indexed PNG as Texm palette bytes (B, G, R, X = 0), padded to 256 entries.
Bytes palette_from_png(const png::Decoded& d, ChannelOrder order) {
    const texm::ByteOrder bo = texm::byte_order(texm::Format::Indexed, order);
    Bytes pal(texm::kPaletteSize, 0);
    for (size_t k = 0; k < d.palette.size() && k < texm::kPaletteEntries; ++k) {
        pal[4 * k + bo.r] = d.palette[k][0];
        pal[4 * k + bo.g] = d.palette[k][1];
        pal[4 * k + bo.b] = d.palette[k][2];
    }
    return pal;
}

bool uses_alpha(const texm::Image& img) {
    for (size_t i = 3; i < img.rgba.size(); i += 4)
        if (img.rgba[i] != 255) return true;
    return false;
}

json page_json(const std::optional<std::vector<texm::PageRect>>& page) {
    if (!page) return nullptr;
    json out = json::array();
    for (const texm::PageRect& r : *page)
        out.push_back({{"x", r.x}, {"w", r.w}, {"y", r.y}, {"h", r.h}});
    return out;
}

json palette_json(const Bytes& palette, ChannelOrder order) {
    if (palette.empty()) return nullptr;
    json entries = json::array();
    for (size_t k = 0; k + 4 <= palette.size(); k += 4)
        entries.push_back(to_hex(ByteView(palette).subspan(k, 4)));
    return {{"byte_order", order == ChannelOrder::Bgr ? "B, G, R, X" : "R, G, B, X"},
            {"entries", entries}};
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

TextureExport export_texture(ByteView payload, const std::string& where,
                             const std::string& png_name, bool mips,
                             const png::EncodeOptions& encoding, ChannelOrder order) {
    texm::Texture t = read_texture(payload, where);
    t.channel_order = order;
    TextureExport out;
    out.png = png::from_texm_level(t, 0, encoding);
    std::vector<std::string> mip_names;
    if (mips)
        for (uint32_t i = 1; i < t.header.mip_count; ++i) {
            out.mips.push_back(png::from_texm_level(t, i, encoding));
            mip_names.push_back(mip_png_name(png_name, i));
        }
    TextureSidecar& sc = out.sidecar;
    sc.source = portable_address(where);
    sc.png = png_name;
    sc.mips = std::move(mip_names);
    sc.header = t.header;
    sc.page = t.page;
    sc.channel_order = order;
    bind_texture(t, payload, mips, sc);
    return out;
}

namespace {

// The first layout. `with_base64` false: the original's base64 is an empty placeholder
// (texture_sidecar_text).
json first_layout_json(const TextureSidecar& s, bool with_base64) {
    const texm::Header& h = s.header;
    json doc = {
        {"schema", kSchema},
        {"kind", "texm"},
        {"source", s.source},
        {"png", s.png},
        {"mips", s.mips},
        {"format", h.format},
        {"header",
         {{"width", h.width},
          {"height", h.height},
          {"mip_count", h.mip_count},
          {"flags4", h.flags4},
          {"flags5", h.flags5},
          {"unknown6", h.unknown6},
          {"format", h.format}}},
        {"page", page_json(s.page)},
        {"palette", palette_json(s.palette, s.channel_order)},
        {"readings", {{"texm-rgb", channel_order_name(s.channel_order)}}},
        {"tail_bytes", s.tail_bytes},
        {"original",
         {{"size", s.original.size()},
          {kPayloadHashKey, hex64(payload_hash(s.original))},
          {"base64", with_base64 ? to_base64(s.original) : std::string()}}},
    };
    if (s.written.recorded()) doc["written"] = to_json(s.written);
    return doc;
}

} // namespace

json to_json(const TextureSidecar& s) {
    return s.layout == 1 ? first_layout_json(s, true) : binding_texture_json(s);
}

namespace {

// The sidecar; `original_base64`, when given, is the original's base64 read apart from the DOM
// (doc's "original"."base64" is then a placeholder).
TextureSidecar parse_with_original(const json& doc, const std::string& where,
                                   const std::string_view* original_base64) {
    const JsonAt at(doc, "", where);
    if (!doc.is_object()) at.fail("bad texm sidecar: not a JSON object");
    if (at["schema"].as<std::string>() != kSchema)
        at["schema"].fail("bad texm sidecar: schema is not " + std::string(kSchema));
    if (at["kind"].as<std::string>() != "texm")
        at["kind"].fail("bad texm sidecar: kind is not \"texm\" (a model sidecar?)");
    TextureSidecar s;
    s.layout = 1;
    s.where = where;
    const JsonAt o = at["original"];
    try {
        s.original = original_base64 ? from_base64(*original_base64)
                                     : from_base64(o["base64"].as<std::string>());
    } catch (const std::invalid_argument& e) {
        o["base64"].fail(std::string("bad texm sidecar: ") + e.what());
    }
    if (s.original.size() != o["size"].as<uint64_t>())
        o["size"].fail("bad texm sidecar: original payload size does not match");
    const PayloadHashCheck hash = check_payload_hash(o.json(), s.original);
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

TextureSidecar parse_texture_sidecar(const json& doc, const std::string& where) {
    if (doc.is_object() && doc.contains("schema") && doc["schema"] == kBindingSchema)
        return read_binding_texture(doc, where);
    return parse_with_original(doc, where, nullptr);
}

std::string texture_sidecar_text(const TextureSidecar& sidecar) {
    if (sidecar.layout != 1) return dump_readable(binding_texture_json(sidecar), kReadableWidth);
    // The original's base64 (most of the text) is spliced into the dump.
    const json doc = first_layout_json(sidecar, false);
    return splice_base64(doc.dump(1), "\n  \"base64\": \"\"", sidecar.original) + "\n";
}

// A binding sidecar is parsed whole (RapidJSON). A first-layout one as the model sidecar: a
// validating scan hands out the members, each is parsed on its own, and the original's base64
// (megabytes for a large texture) is decoded straight from the text.
TextureSidecar read_texture_sidecar(ByteView bytes, const std::string& where) {
    // The scan bounds the nesting (json_scan.hpp); the DOM fallback says where it is too deep.
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    json doc = json::object();
    std::optional<std::string_view> original;
    bool binding = false;
    try {
        const std::vector<json_scan::Member> members = json_scan::object_members(text);
        for (const json_scan::Member& m : members)
            binding |= m.key == "schema" && json_scan::plain_string(m.value) == kBindingSchema;
        for (const json_scan::Member& m : binding ? std::vector<json_scan::Member>() : members) {
            if (m.key != "original" || m.value.empty() || m.value.front() != '{') {
                doc[m.key] = json::parse(m.value.begin(), m.value.end());
                continue;
            }
            json payload = json::object();
            original.reset(); // a repeated member replaces the earlier one, as in a DOM
            for (const json_scan::Member& p : json_scan::object_members(m.value)) {
                if (p.key == "base64" && (original = json_scan::plain_string(p.value))) {
                    payload[p.key] = "";
                    continue;
                }
                payload[p.key] = json::parse(p.value.begin(), p.value.end());
            }
            doc[m.key] = std::move(payload);
        }
    } catch (const std::exception&) { // not JSON, or a number nlohmann refuses
        return parse_texture_sidecar(parse_json(bytes, where), where); // it says where and why
    }
    if (binding) return read_binding_texture(parse_json_fast(bytes, where), where);
    return parse_with_original(doc, where, original ? &*original : nullptr);
}

namespace {

// Whether `in` is the PNG its sidecar's export wrote (the hash recorded), alone (no mips, which
// may have been edited), in its own format and within `max_pixels` (as the decode checks): then
// its pixels are the original's level 0 and the import gives the original payload, undecoded.
bool is_exported_png(const TextureImportInput& in) {
    const WrittenFile& w = in.sidecar->written;
    if (!w.recorded() || !in.sidecar->mips.empty() || in.format || in.png.size() < 24) return false;
    // The signature, then the IHDR chunk: width and height, big-endian.
    static const uint8_t kSignatureAndIhdr[16] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',
                                                  0,    0,   0,   13,  'I',  'H',  'D',  'R'};
    if (!std::equal(kSignatureAndIhdr, kSignatureAndIhdr + 16, in.png.begin())) return false;
    const auto be32 = [&](size_t at) {
        return uint64_t(in.png[at]) << 24 | uint64_t(in.png[at + 1]) << 16 |
               uint64_t(in.png[at + 2]) << 8 | uint64_t(in.png[at + 3]);
    };
    return be32(16) * be32(20) <= in.max_pixels && hex64(payload_hash(in.png)) == w.xxh3_64;
}

} // namespace

TextureImport import_texture(const TextureImportInput& in) {
    TextureImport out;
    if (in.sidecar && in.sidecar->layout != 1)
        return rebuild_texture(in, decode_png(in.png, in.where, in.max_pixels));
    if (in.sidecar && !in.full_read && is_exported_png(in)) {
        out.texm = in.sidecar->original;
        out.identical = true;
        out.notes.push_back("unchanged, original bytes kept");
        return out;
    }
    png::Decoded base = decode_png(in.png, in.where, in.max_pixels);

    if (!in.sidecar) {
        // A new texture (§8): the caller's format, else 8888 with alpha, 565 without.
        const texm::Format f = in.format               ? *in.format
                               : uses_alpha(base.rgba) ? texm::Format::A8R8G8B8
                                                       : texm::Format::R5G6B5;
        Bytes palette;
        if (f == texm::Format::Indexed) {
            if (!base.indices)
                throw FormatError(in.where, Location::whole(),
                                  "format 0 needs an indexed (palette) PNG");
            palette = palette_from_png(base, in.order);
        }
        texm::Texture t = texm::make_texture(f, base.rgba, palette, 0, in.order);
        if (f == texm::Format::Indexed) {
            t.levels[0] = *base.indices; // keep the indices themselves
            t.raw = texm::write(t);
        }
        out.texm = t.raw;
        out.notes.push_back("no sidecar: new texture, format " + std::to_string(uint32_t(f)) +
                            ", " + std::to_string(t.header.mip_count) + " levels");
        return out;
    }

    const Bytes& original_bytes = in.sidecar->original;
    texm::Texture orig = read_texture(original_bytes, in.where + " (sidecar original)");
    orig.channel_order = in.sidecar->channel_order; // the export's reading
    const texm::Format orig_format = *orig.format();

    if (in.format && *in.format != orig_format) {
        // Format change: re-encode from the PNG, keep the header words, mip count and Page.
        const texm::Format f = *in.format;
        Bytes palette;
        if (f == texm::Format::Indexed) {
            if (orig_format == texm::Format::Indexed)
                palette = orig.palette;
            else if (base.indices)
                palette = palette_from_png(base, orig.channel_order);
            else
                throw FormatError(in.where, Location::whole(),
                                  "format 0 needs an indexed (palette) PNG");
        }
        if (base.rgba.width != orig.header.width || base.rgba.height != orig.header.height)
            throw FormatError(in.where, Location::whole(),
                              "image is " + std::to_string(base.rgba.width) + "x" +
                                  std::to_string(base.rgba.height) + ", the texture is " +
                                  std::to_string(orig.header.width) + "x" +
                                  std::to_string(orig.header.height));
        texm::Texture t =
            texm::make_texture(f, base.rgba, palette, orig.header.mip_count, orig.channel_order);
        t.header.flags4 = orig.header.flags4;
        t.header.flags5 = orig.header.flags5;
        t.header.unknown6 = orig.header.unknown6;
        t.page = orig.page;
        t.raw = texm::write(t);
        out.texm = t.raw;
        out.notes.push_back("format " + std::to_string(uint32_t(orig_format)) + " -> " +
                            std::to_string(uint32_t(f)) + ", mip chain rebuilt");
        return out;
    }

    std::vector<std::optional<texm::LevelInput>> levels;
    levels.push_back(png::to_level_input(std::move(base)));
    for (size_t k = 0; k < in.mips.size(); ++k) {
        if (!in.mips[k]) {
            levels.emplace_back();
            continue;
        }
        levels.push_back(png::to_level_input(decode_png(
            *in.mips[k], in.where + " (mip " + std::to_string(k + 1) + ")", in.max_pixels)));
    }
    if (levels.size() > orig.header.mip_count) levels.resize(orig.header.mip_count);

    const texm::Texture t = texm::import_levels(orig, levels);
    // Unchanged levels keep their bytes; when nothing changed the payload is the original one
    // (tail and all), byte for byte.
    if (t.levels == orig.levels) {
        out.texm = original_bytes;
        out.identical = true;
        out.notes.push_back("unchanged, original bytes kept");
        return out;
    }
    size_t changed = 0;
    for (size_t i = 0; i < t.levels.size(); ++i) changed += t.levels[i] != orig.levels[i];
    out.texm = t.raw;
    out.notes.push_back(std::to_string(changed) + " of " + std::to_string(t.levels.size()) +
                        " levels re-encoded in format " + std::to_string(uint32_t(orig_format)));
    return out;
}

} // namespace msh::sidecar
