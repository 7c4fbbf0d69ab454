#include "texture.hpp"

#include "formats/diagnostics.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/payload_hash.hpp"
#include "sidecar/portable_address.hpp"
#include "sidecar/texture_binding.hpp"

#include <algorithm>

namespace msh::conversion {

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

} // namespace

png::Decoded decode_png(ByteView bytes, const std::string& where, uint64_t max_pixels) {
    try {
        return png::decode(bytes, max_pixels);
    } catch (const FormatError& e) {
        throw FormatError(where, e.location(), "not a readable PNG: " + e.message());
    }
}

TextureExport encode_texture(ByteView texm, const std::string& address,
                             const TextureExportSettings& settings) {
    texm::Texture t = read_texture(texm, address);
    const ChannelOrder order = settings.readings.texm_rgb;
    t.channel_order = order;
    TextureExport out;
    std::vector<std::string> mip_names;
    if (settings.mips)
        for (uint32_t i = 1; i < t.header.mip_count; ++i) {
            mip_names.push_back(sidecar::mip_png_name(settings.output_name, i));
            out.files.push_back({mip_names.back(), png::from_texm_level(t, i, settings.png)});
        }
    out.files.push_back({settings.output_name, png::from_texm_level(t, 0, settings.png)});
    sidecar::TextureSidecar& sc = out.sidecar;
    sc.source = sidecar::portable_address(address);
    sc.png = settings.output_name;
    sc.mips = std::move(mip_names);
    sc.header = t.header;
    sc.page = t.page;
    sc.channel_order = order;
    sidecar::bind_texture(t, texm, settings.mips, sc);
    out.summary = {t.header.width, t.header.height, t.header.format, t.header.mip_count};
    return out;
}

namespace {

// Whether `in` is the PNG its sidecar's export wrote (the hash recorded), alone (no mips, which
// may have been edited), in its own format and within `max_pixels` (as the decode checks): then
// its pixels are the original's level 0 and the import gives the original payload, undecoded.
bool is_exported_png(const TextureImportInput& in, const TextureImportSettings& settings) {
    const sidecar::WrittenFile& w = in.sidecar->written;
    if (!w.recorded() || !in.sidecar->mips.empty() || settings.format || in.png.size() < 24)
        return false;
    // The signature, then the IHDR chunk: width and height, big-endian.
    static const uint8_t kSignatureAndIhdr[16] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',
                                                  0,    0,   0,   13,  'I',  'H',  'D',  'R'};
    if (!std::equal(kSignatureAndIhdr, kSignatureAndIhdr + 16, in.png.begin())) return false;
    const auto be32 = [&](size_t at) {
        return uint64_t(in.png[at]) << 24 | uint64_t(in.png[at + 1]) << 16 |
               uint64_t(in.png[at + 2]) << 8 | uint64_t(in.png[at + 3]);
    };
    return be32(16) * be32(20) <= settings.max_pixels &&
           sidecar::hex64(sidecar::payload_hash(in.png)) == w.xxh3_64;
}

} // namespace

TextureImport rebuild_texture(const TextureImportInput& in, const TextureImportSettings& settings) {
    TextureImport out;
    if (in.sidecar && in.sidecar->layout != 1)
        return rebuild_bound_texture(in, settings,
                                     decode_png(in.png, settings.where, settings.max_pixels));
    if (in.sidecar && !settings.full_read && is_exported_png(in, settings)) {
        out.texm = in.sidecar->original;
        out.identical = true;
        out.notes.push_back("unchanged, original bytes kept");
        return out;
    }
    png::Decoded base = decode_png(in.png, settings.where, settings.max_pixels);

    if (!in.sidecar) {
        // A new texture (§8): the caller's format, else 8888 with alpha, 565 without.
        const texm::Format f = settings.format         ? *settings.format
                               : uses_alpha(base.rgba) ? texm::Format::A8R8G8B8
                                                       : texm::Format::R5G6B5;
        Bytes palette;
        if (f == texm::Format::Indexed) {
            if (!base.indices)
                throw FormatError(settings.where, Location::whole(),
                                  "format 0 needs an indexed (palette) PNG");
            palette = palette_from_png(base, settings.readings.texm_rgb);
        }
        texm::Texture t = texm::make_texture(f, base.rgba, palette, 0, settings.readings.texm_rgb);
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
    texm::Texture orig = read_texture(original_bytes, settings.where + " (sidecar original)");
    orig.channel_order = in.sidecar->channel_order; // the export's reading
    const texm::Format orig_format = *orig.format();

    if (settings.format && *settings.format != orig_format) {
        // Format change: re-encode from the PNG, keep the header words, mip count and Page.
        const texm::Format f = *settings.format;
        Bytes palette;
        if (f == texm::Format::Indexed) {
            if (orig_format == texm::Format::Indexed)
                palette = orig.palette;
            else if (base.indices)
                palette = palette_from_png(base, orig.channel_order);
            else
                throw FormatError(settings.where, Location::whole(),
                                  "format 0 needs an indexed (palette) PNG");
        }
        if (base.rgba.width != orig.header.width || base.rgba.height != orig.header.height)
            throw FormatError(settings.where, Location::whole(),
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
        levels.push_back(png::to_level_input(
            decode_png(*in.mips[k], settings.where + " (mip " + std::to_string(k + 1) + ")",
                       settings.max_pixels)));
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

} // namespace msh::conversion
