// The import of a texture from its binding sidecar (`mshconv-sidecar/2`, docs/sidecar.md): the
// levels from the PNGs where they changed, else the recorded bytes; §8's mip chain rebuilt from a
// changed level 0.
#include "texture.hpp"

#include "formats/diagnostics.hpp"
#include "sidecar/binding_fields.hpp"
#include "sidecar/payload_hash.hpp"

namespace msh::conversion {

namespace {

// One level offered by a PNG or the sidecar.
struct Offered {
    Bytes bytes;
    bool present = false; // else built from level 0
    bool changed = false; // not the level the export recorded
};

} // namespace

TextureImport rebuild_bound_texture(const TextureImportInput& in,
                                    const TextureImportSettings& settings, png::Decoded base) {
    const sidecar::TextureSidecar& s = *in.sidecar;
    const ChannelOrder order = s.channel_order;
    const texm::Format stored = *texm::to_format(s.encoded_format);
    const texm::Format f = settings.format ? *settings.format : *texm::to_format(s.header.format);
    const uint32_t width = base.rgba.width, height = base.rgba.height;
    const uint32_t count = s.header.mip_count;
    if (count > texm::full_mip_count(width, height))
        throw FormatError(s.where, Location::at_pointer("/header/mip_count"),
                          std::to_string(count) + " levels, but a " + std::to_string(width) + "x" +
                              std::to_string(height) + " texture (the PNG's size) has at most " +
                              std::to_string(texm::full_mip_count(width, height)));

    texm::Texture t;
    t.header.width = width;
    t.header.height = height;
    t.header.mip_count = count;
    t.header.flags4 = s.header.flags4;
    t.header.flags5 = s.header.flags5;
    t.header.unknown6 = s.header.unknown6;
    t.header.format = uint32_t(f);
    t.page = s.page;
    t.tail = s.tail;
    t.channel_order = order;
    if (f == texm::Format::Indexed) {
        // The palette's colours are the PNG's, its X bytes the sidecar's.
        if (!base.indices)
            throw FormatError(settings.where, Location::whole(),
                              "the texture is paletted (format 0): its palette and indices come "
                              "from an indexed PNG, and this PNG is not indexed (save it as an "
                              "indexed PNG, or import with --format to re-encode)");
        const texm::ByteOrder bo = texm::byte_order(f, order);
        t.palette.assign(texm::kPaletteSize, 0);
        for (size_t k = 0; k < texm::kPaletteEntries; ++k) {
            uint8_t* entry = t.palette.data() + 4 * k;
            if (k < base.palette.size()) {
                entry[bo.r] = base.palette[k][0];
                entry[bo.g] = base.palette[k][1];
                entry[bo.b] = base.palette[k][2];
            }
            entry[bo.a] = s.palette_x.empty() ? 0 : s.palette_x[k];
        }
    }

    TextureImport out;
    out.sidecar_edits = s.edits;
    const std::string edits_note = s.edits.empty() ? "" : " (sidecar fields edited: " + [&] {
        std::string list;
        for (const std::string& e : s.edits) list += (list.empty() ? "" : ", ") + e;
        return list;
    }() + ")";

    if (f != stored) {
        // Another format: every level is encoded anew from the PNG (the recorded levels are in
        // the old one); the header words, Page and tail stay.
        texm::Texture n = texm::make_texture(f, base.rgba, t.palette, count, order);
        if (f == texm::Format::Indexed) n.levels[0] = *base.indices; // the PNG's indices
        n.header.flags4 = t.header.flags4;
        n.header.flags5 = t.header.flags5;
        n.header.unknown6 = t.header.unknown6;
        n.page = t.page;
        n.tail = t.tail;
        out.texm = texm::write(n);
        out.notes.push_back("format " + std::to_string(uint32_t(stored)) + " -> " +
                            std::to_string(uint32_t(f)) + ", mip chain rebuilt" + edits_note);
        return out;
    }

    const auto encode = [&](const png::Decoded& d) {
        if (f == texm::Format::Indexed && d.indices) return *d.indices;
        return texm::encode_pixels(f, d.rgba, t.palette, texm::PaletteMatch::Exact, order);
    };
    std::vector<Offered> levels(count);
    const auto offer = [&](uint32_t k, const png::Decoded& d) {
        const uint32_t w = texm::level_width(width, k), h = texm::level_height(height, k);
        if (d.rgba.width != w || d.rgba.height != h)
            throw FormatError(
                settings.where + " (mip " + std::to_string(k) + ")", Location::whole(),
                "image is " + std::to_string(d.rgba.width) + "x" + std::to_string(d.rgba.height) +
                    ", the level is " + std::to_string(w) + "x" + std::to_string(h));
        Offered o{encode(d), true, true};
        if (k < s.levels.size()) {
            const sidecar::TextureLevel& recorded = s.levels[k];
            if (recorded.bytes) {
                // The PNG does not hold the bytes exactly: unchanged pixels keep them.
                const bool same = recorded.bytes->size() == o.bytes.size() &&
                                  texm::decode_pixels(f, w, h, *recorded.bytes, t.palette, order) ==
                                      texm::decode_pixels(f, w, h, o.bytes, t.palette, order);
                if (same) o.bytes = *recorded.bytes;
                o.changed = !same;
            } else {
                o.changed = o.bytes.size() != recorded.size ||
                            sidecar::payload_hash(o.bytes) != recorded.xxh3_64;
            }
        }
        levels[k] = std::move(o);
    };
    offer(0, base);
    std::vector<std::string> missing;
    for (uint32_t k = 1; k < count; ++k) {
        const sidecar::TextureLevel* recorded = k < s.levels.size() ? &s.levels[k] : nullptr;
        if (recorded && recorded->from == sidecar::LevelSource::MipPng) {
            if (k - 1 < in.mips.size() && in.mips[k - 1]) {
                offer(k, decode_png(*in.mips[k - 1],
                                    settings.where + " (mip " + std::to_string(k) + ")",
                                    settings.max_pixels));
                continue;
            }
            if (!recorded->bytes) missing.push_back(s.mips[k - 1]);
        }
        if (recorded && recorded->bytes) levels[k] = {*recorded->bytes, true, false};
    }

    // §8: a changed level 0 with no lower level changed rebuilds the chain from it.
    bool lower_changed = false;
    for (uint32_t k = 1; k < count; ++k) lower_changed |= levels[k].present && levels[k].changed;
    const bool rebuild_lower = levels[0].changed && !lower_changed;
    t.levels.resize(count);
    t.levels[0] = std::move(levels[0].bytes);
    std::vector<texm::Image> chain;
    uint32_t built = 0;
    for (uint32_t k = 1; k < count; ++k) {
        if (levels[k].present && !rebuild_lower) {
            const uint64_t expected = uint64_t(texm::level_width(width, k)) *
                                      texm::level_height(height, k) * texm::bytes_per_pixel(f);
            if (levels[k].bytes.size() != expected)
                throw FormatError(
                    s.where, Location::at_pointer("/levels/rows/" + std::to_string(k)),
                    "level " + std::to_string(k) + " holds " +
                        std::to_string(levels[k].bytes.size()) + " bytes; in a " +
                        std::to_string(width) + "x" + std::to_string(height) +
                        " texture (the PNG's size) it holds " + std::to_string(expected));
            t.levels[k] = std::move(levels[k].bytes);
            continue;
        }
        if (chain.empty())
            chain = texm::build_mip_chain(
                texm::decode_pixels(f, width, height, t.levels[0], t.palette, order), count);
        t.levels[k] = texm::encode_pixels(f, chain[k], t.palette,
                                          f == texm::Format::Indexed ? texm::PaletteMatch::Nearest
                                                                     : texm::PaletteMatch::Exact,
                                          order);
        ++built;
    }
    try {
        out.texm = texm::write(t);
    } catch (const FormatError& e) {
        throw FormatError(s.where, e.location(), "the texture cannot be rebuilt: " + e.message());
    }
    out.identical =
        out.texm.size() == s.source_size && sidecar::payload_hash(out.texm) == s.source_xxh3_64;
    bool changed = count != s.levels.size() || !missing.empty() || built > 0;
    for (uint32_t k = 0; k < count; ++k) changed |= levels[k].present && levels[k].changed;
    // Nothing edited on either side: the rebuild must be the source the sidecar records.
    if (!out.identical && !changed && s.edits.empty())
        throw FormatError(s.where, Location::at_pointer("/source/xxh3_64"),
                          "the texture rebuilt from the PNG and its sidecar is not the source the "
                          "sidecar records (size and hash): a damaged sidecar, or one of another "
                          "export");
    if (out.identical) {
        out.notes.push_back("unchanged, original bytes kept");
        // Marked edited, yet the texture is the original: the PNG decides, or a check was edited.
        for (const std::string& row : out.sidecar_edits)
            out.warnings.push_back(sidecar::unread_edit_warning(s.where, row));
        out.sidecar_edits.clear();
        return out;
    }
    uint32_t reencoded = 0;
    for (uint32_t k = 0; k < count; ++k)
        reencoded += k >= s.levels.size() || t.levels[k].size() != s.levels[k].size ||
                     sidecar::payload_hash(t.levels[k]) != s.levels[k].xxh3_64;
    for (const std::string& name : missing)
        out.notes.push_back(name + " is missing: its level is rebuilt from level 0");
    out.notes.push_back(std::to_string(reencoded) + " of " + std::to_string(count) +
                        " levels re-encoded in format " + std::to_string(uint32_t(f)) + edits_note);
    return out;
}

} // namespace msh::conversion
