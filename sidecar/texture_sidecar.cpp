#include "texture_sidecar.hpp"

#include "base64.hpp"
#include "model_sidecar.hpp"

#include "formats/diagnostics.hpp"
#include "formats/png.hpp"

#include <cstdio>
#include <stdexcept>

namespace msh::sidecar {

using nlohmann::json;

namespace {

// An interpretable texture or a FormatError naming `where`.
texm::Texture read_texture(ByteView payload, const std::string& where) {
    DiagnosticSink sink(ReadMode::Tolerant);
    texm::Texture t = texm::read(payload, sink, where);
    if (t.raw_only || !t.format())
        throw FormatError(where, 0,
                          "not an interpretable Texm texture (magic, size or format); cannot "
                          "convert it to PNG");
    return t;
}

png::Decoded decode_png(ByteView bytes, const std::string& where) {
    try {
        return png::decode(bytes);
    } catch (const FormatError& e) {
        throw FormatError(where, 0, "not a readable PNG: " + e.message());
    }
}

// The palette of an indexed PNG as Texm palette bytes (B, G, R, X = 0), padded to 256 entries.
Bytes palette_from_png(const png::Decoded& d) {
    constexpr texm::ByteOrder bo = texm::kByteOrder;
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

// The original payload recorded in a texm sidecar, hash-checked.
texm::Texture original_from_sidecar(const json& doc, const std::string& where, Bytes& bytes) {
    // Every problem names the JSON pointer of the field it is about.
    auto fail = [&](const std::string& pointer, const std::string& what) {
        throw FormatError(where, Location::at_pointer(pointer), "bad texm sidecar: " + what);
    };
    std::string at = "/schema";
    try {
        if (doc.at("schema").get<std::string>() != kSchema)
            fail(at, "schema is not " + std::string(kSchema));
        at = "/kind";
        if (doc.at("kind").get<std::string>() != "texm")
            fail(at, "kind is not \"texm\" (a model sidecar?)");
        at = "/original/base64";
        const json& o = doc.at("original");
        bytes = from_base64(o.at("base64").get<std::string>());
        at = "/original/size";
        if (bytes.size() != o.at("size").get<size_t>())
            fail(at, "original payload size does not match");
        at = "/original/fnv1a64";
        if (hex64(fnv1a64(bytes)) != o.at("fnv1a64").get<std::string>())
            fail(at, "original payload hash does not match (edited sidecar?)");
    } catch (const FormatError&) {
        throw;
    } catch (const std::exception& e) {
        fail(at, e.what());
    }
    return read_texture(bytes, where + " (sidecar original)");
}

} // namespace

std::string mip_png_name(const std::string& png_name, uint32_t level) {
    std::string stem = png_name;
    const auto dot = stem.rfind('.');
    if (dot != std::string::npos && dot > 0) stem.resize(dot);
    return stem + ".mip" + std::to_string(level) + ".png";
}

TextureExport export_texture(ByteView payload, const std::string& where,
                             const std::string& png_name, bool mips) {
    const texm::Texture t = read_texture(payload, where);
    TextureExport out;
    out.png = png::from_texm_level(t, 0);
    json mip_names = json::array();
    if (mips)
        for (uint32_t i = 1; i < t.header.mip_count; ++i) {
            out.mips.push_back(png::from_texm_level(t, i));
            mip_names.push_back(mip_png_name(png_name, i));
        }
    const texm::Header& h = t.header;
    json page = nullptr;
    if (t.page) {
        page = json::array();
        for (const texm::PageRect& r : *t.page)
            page.push_back({{"x", r.x}, {"w", r.w}, {"y", r.y}, {"h", r.h}});
    }
    json palette = nullptr;
    if (!t.palette.empty()) {
        json entries = json::array();
        for (size_t k = 0; k + 4 <= t.palette.size(); k += 4)
            entries.push_back(to_hex(ByteView(t.palette).subspan(k, 4)));
        palette = {{"byte_order", "B, G, R, X"}, {"entries", entries}};
    }
    out.sidecar = {
        {"schema", kSchema},
        {"kind", "texm"},
        {"source", where},
        {"png", png_name},
        {"mips", mip_names},
        {"format", h.format},
        {"header",
         {{"width", h.width},
          {"height", h.height},
          {"mip_count", h.mip_count},
          {"flags4", h.flags4},
          {"flags5", h.flags5},
          {"unknown6", h.unknown6},
          {"format", h.format}}},
        {"page", page},
        {"palette", palette},
        {"tail_bytes", t.tail.size()},
        {"original",
         {{"size", payload.size()},
          {"fnv1a64", hex64(fnv1a64(payload))},
          {"base64", to_base64(payload)}}},
    };
    return out;
}

TextureImport import_texture(const TextureImportInput& in) {
    TextureImport out;
    png::Decoded base = decode_png(in.png, in.where);

    if (!in.sidecar) {
        // A new texture (§8): the caller's format, else 8888 with alpha, 565 without.
        const texm::Format f = in.format               ? *in.format
                               : uses_alpha(base.rgba) ? texm::Format::A8R8G8B8
                                                       : texm::Format::R5G6B5;
        Bytes palette;
        if (f == texm::Format::Indexed) {
            if (!base.indices)
                throw FormatError(in.where, 0, "format 0 needs an indexed (palette) PNG");
            palette = palette_from_png(base);
        }
        texm::Texture t = texm::make_texture(f, base.rgba, palette);
        if (f == texm::Format::Indexed) {
            t.levels[0] = *base.indices; // keep the indices themselves
            t.raw = texm::write(t);
        }
        out.texm = t.raw;
        out.notes.push_back("no sidecar: new texture, format " + std::to_string(uint32_t(f)) +
                            ", " + std::to_string(t.header.mip_count) + " levels");
        return out;
    }

    Bytes original_bytes;
    const texm::Texture orig = original_from_sidecar(*in.sidecar, in.where, original_bytes);
    const texm::Format orig_format = *orig.format();

    if (in.format && *in.format != orig_format) {
        // Format change: re-encode from the PNG, keep the header words, mip count and Page.
        const texm::Format f = *in.format;
        Bytes palette;
        if (f == texm::Format::Indexed) {
            if (orig_format == texm::Format::Indexed)
                palette = orig.palette;
            else if (base.indices)
                palette = palette_from_png(base);
            else
                throw FormatError(in.where, 0, "format 0 needs an indexed (palette) PNG");
        }
        if (base.rgba.width != orig.header.width || base.rgba.height != orig.header.height)
            throw FormatError(in.where, 0,
                              "image is " + std::to_string(base.rgba.width) + "x" +
                                  std::to_string(base.rgba.height) + ", the texture is " +
                                  std::to_string(orig.header.width) + "x" +
                                  std::to_string(orig.header.height));
        texm::Texture t = texm::make_texture(f, base.rgba, palette, orig.header.mip_count);
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
        levels.push_back(png::to_level_input(
            decode_png(*in.mips[k], in.where + " (mip " + std::to_string(k + 1) + ")")));
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
