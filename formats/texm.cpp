#include "texm.hpp"

#include <algorithm>

namespace msh::texm {

namespace {

constexpr uint64_t kSaturated = UINT64_MAX;

uint64_t sat_add(uint64_t a, uint64_t b) {
    return a > kSaturated - b ? kSaturated : a + b;
}
uint64_t sat_mul(uint64_t a, uint64_t b) {
    return (b != 0 && a > kSaturated / b) ? kSaturated : a * b;
}

std::string hex(uint32_t v) {
    char buf[16];
    snprintf(buf, sizeof buf, "0x%08X", v);
    return buf;
}

// Bit replication (§3).
inline uint8_t widen5(uint32_t v) {
    return uint8_t((v << 3) | (v >> 2));
}
inline uint8_t widen6(uint32_t v) {
    return uint8_t((v << 2) | (v >> 4));
}
inline uint8_t widen4(uint32_t v) {
    return uint8_t(v * 17);
}
// Rounded narrowing: q = (c·max + 127) / 255.
inline uint32_t narrow(uint8_t c, uint32_t max) {
    return (uint32_t(c) * max + 127) / 255;
}

bool valid_page(ByteView tail, std::vector<PageRect>* out) {
    if (tail.size() < kPageHeaderSize || load<uint32_t>(tail, 0) != kPageMagic) return false;
    uint64_t n = load<uint32_t>(tail, 4);
    if (tail.size() != kPageHeaderSize + n * kPageRectSize) return false;
    if (out) {
        out->resize(size_t(n));
        for (size_t k = 0; k < n; ++k) {
            const uint8_t* p = tail.data() + kPageHeaderSize + k * kPageRectSize;
            (*out)[k] = {load<uint16_t>(p), load<uint16_t>(p + 2), load<uint16_t>(p + 4),
                         load<uint16_t>(p + 6)};
        }
    }
    return true;
}

uint32_t luma(const uint8_t* p) {
    return (299u * p[0] + 587u * p[1] + 114u * p[2] + 500u) / 1000u;
}

} // namespace

std::optional<Format> to_format(uint32_t code) {
    for (Format f : kAllFormats)
        if (uint32_t(f) == code) return f;
    return std::nullopt;
}

uint32_t bytes_per_pixel(Format f) {
    switch (f) {
    case Format::Indexed:
        return 1;
    case Format::R5G6B5:
    case Format::R5G5B6:
    case Format::A4R4G4B4:
    case Format::L8A8:
        return 2;
    case Format::X8R8G8B8:
    case Format::A8R8G8B8:
        return 4;
    }
    return 0;
}

bool has_alpha(Format f) {
    return f == Format::A4R4G4B4 || f == Format::L8A8 || f == Format::A8R8G8B8;
}

uint32_t level_width(uint32_t width, uint32_t level) {
    return level >= 32 ? 1 : std::max(1u, width >> level);
}
uint32_t level_height(uint32_t height, uint32_t level) {
    return level >= 32 ? 1 : std::max(1u, height >> level);
}

uint64_t chain_pixels(uint32_t width, uint32_t height, uint32_t mip_count) {
    uint64_t sum = 0;
    uint32_t i = 0;
    for (; i < mip_count && i < 33; ++i)
        sum = sat_add(sum, uint64_t(level_width(width, i)) * level_height(height, i));
    return sat_add(sum, uint64_t(mip_count - i)); // every further level is 1×1
}

uint64_t core_size(const Header& h) {
    std::optional<Format> f = to_format(h.format);
    if (!f) return 0;
    uint64_t size = kHeaderSize + (*f == Format::Indexed ? kPaletteSize : 0);
    return sat_add(size,
                   sat_mul(bytes_per_pixel(*f), chain_pixels(h.width, h.height, h.mip_count)));
}

uint32_t full_mip_count(uint32_t width, uint32_t height) {
    uint32_t n = 1;
    while (width > 1 || height > 1) {
        width = std::max(1u, width >> 1);
        height = std::max(1u, height >> 1);
        ++n;
    }
    return n;
}

// ---- reader / writer ------------------------------------------------------------------------

Texture read(ByteView payload, DiagnosticSink& sink, const std::string& where, KeepRaw keep) {
    Texture t;
    if (keep == KeepRaw::Always) t.raw.assign(payload.begin(), payload.end());
    auto give_up = [&](uint64_t offset, const std::string& message) {
        sink.strict_error(where, offset,
                          message +
                              (sink.mode() == ReadMode::Tolerant ? " (copied through raw)" : ""));
        t.raw_only = true;
        if (keep != KeepRaw::Always) t.raw.assign(payload.begin(), payload.end());
        return t;
    };
    if (payload.size() < kHeaderSize)
        return give_up(0, "Texm payload is " + std::to_string(payload.size()) +
                              " bytes, shorter than the 32-byte header");
    Header& h = t.header;
    h.magic = load<uint32_t>(payload, 0);
    h.width = load<uint32_t>(payload, 4);
    h.height = load<uint32_t>(payload, 8);
    h.mip_count = load<uint32_t>(payload, 12);
    h.flags4 = load<uint32_t>(payload, 16);
    h.flags5 = load<uint32_t>(payload, 20);
    h.unknown6 = load<uint32_t>(payload, 24);
    h.format = load<uint32_t>(payload, 28);

    if (h.magic != kMagic)
        return give_up(0, "bad Texm magic " + hex(h.magic) + " (expected 'Texm')");
    if (h.width == 0 || h.height == 0)
        return give_up(4, "texture size " + std::to_string(h.width) + "x" +
                              std::to_string(h.height) + " has a zero dimension");
    if (h.mip_count == 0) return give_up(12, "mipCount is 0");
    std::optional<Format> f = to_format(h.format);
    if (!f)
        return give_up(28, "unknown pixel format " + std::to_string(h.format) +
                               (h.format == 1 || h.format == 2
                                    ? " (a format of earlier releases that takes an external "
                                      "palette; not decoded, texm-materials.md §3)"
                                    : ""));

    if (h.flags4 != 0 && h.flags4 != kFlags4Mipmapped)
        sink.warn(where, 16, "unusual flags4 value " + std::to_string(h.flags4) + " (kept)");
    if (h.flags5 != 0 && h.flags5 != kFlags5Lightmap && h.flags5 != kFlags5Exporter)
        sink.warn(where, 20, "unusual flags5 value " + hex(h.flags5) + " (kept)");

    uint64_t core = core_size(h);
    if (core > payload.size())
        return give_up(kHeaderSize,
                       "payload of " + std::to_string(payload.size()) +
                           " bytes is shorter than the " + std::to_string(core) +
                           " bytes the header describes (truncated palette or mip level)");

    ByteView tail = payload.subspan(size_t(core));
    std::vector<PageRect> rects;
    if (!tail.empty() && !valid_page(tail, &rects)) {
        // Seed 001 reads format 88 as 4 bytes/px: such a payload is copied through (§4).
        if (*f == Format::L8A8) {
            uint64_t core4 =
                sat_add(kHeaderSize, sat_mul(4, chain_pixels(h.width, h.height, h.mip_count)));
            if (core4 <= payload.size() &&
                (core4 == payload.size() || valid_page(payload.subspan(size_t(core4)), nullptr)))
                return give_up(core, "format-88 payload only fits 4 bytes per pixel");
        }
        std::string why;
        if (tail.size() < kPageHeaderSize || load<uint32_t>(tail, 0) != kPageMagic)
            why = std::to_string(tail.size()) +
                  " trailing bytes after the mip chain are not a Page chunk";
        else
            why = "Page chunk of " + std::to_string(tail.size()) + " bytes does not match its " +
                  std::to_string(load<uint32_t>(tail, 4)) + " rectangles (expected 8 + 8*n bytes)";
        sink.strict_error(where, core,
                          why + (sink.mode() == ReadMode::Tolerant ? " (kept raw)" : ""));
        t.tail.assign(tail.begin(), tail.end());
    } else if (!tail.empty()) {
        t.page = std::move(rects);
    }

    size_t at = kHeaderSize;
    if (*f == Format::Indexed) {
        t.palette.assign(payload.begin() + at, payload.begin() + at + kPaletteSize);
        at += kPaletteSize;
    }
    uint32_t bpp = bytes_per_pixel(*f);
    t.levels.resize(h.mip_count);
    for (uint32_t i = 0; i < h.mip_count; ++i) {
        size_t n = size_t(level_width(h.width, i)) * level_height(h.height, i) * bpp;
        t.levels[i].assign(payload.begin() + at, payload.begin() + at + n);
        at += n;
    }
    return t;
}

Texture read(ByteView payload, ReadMode mode, const std::string& where) {
    DiagnosticSink sink(mode);
    Texture t = read(payload, sink, where);
    if (mode == ReadMode::Strict) sink.throw_if_errors();
    return t;
}

Bytes write(const Texture& t) {
    if (t.raw_only) return t.raw;
    const Header& h = t.header;
    std::optional<Format> f = to_format(h.format);
    if (!f)
        throw FormatError("Texm", 28,
                          "cannot write unknown pixel format " + std::to_string(h.format));
    if (h.width == 0 || h.height == 0 || h.mip_count == 0)
        throw FormatError("Texm", 4, "cannot write a texture with a zero size or mip count");
    if (t.levels.size() != h.mip_count)
        throw FormatError("Texm", 12,
                          "mipCount " + std::to_string(h.mip_count) + " but " +
                              std::to_string(t.levels.size()) + " levels");
    if ((*f == Format::Indexed) != !t.palette.empty() ||
        (!t.palette.empty() && t.palette.size() != kPaletteSize))
        throw FormatError("Texm", kHeaderSize,
                          "palette must be 1024 bytes for format 0 and absent otherwise");
    if (t.page && !t.tail.empty()) throw FormatError("Texm", 0, "both a Page chunk and a raw tail");
    ByteWriter w;
    // (the reserve is capped: a header that lies about its size fails the level check below)
    w.bytes().reserve(size_t(std::min<uint64_t>(core_size(h), uint64_t(1) << 28)) + t.tail.size() +
                      (t.page ? kPageHeaderSize + t.page->size() * kPageRectSize : 0));
    w.put(h.magic);
    w.put(h.width);
    w.put(h.height);
    w.put(h.mip_count);
    w.put(h.flags4);
    w.put(h.flags5);
    w.put(h.unknown6);
    w.put(h.format);
    w.put_bytes(t.palette);
    uint32_t bpp = bytes_per_pixel(*f);
    for (uint32_t i = 0; i < h.mip_count; ++i) {
        uint64_t n = uint64_t(level_width(h.width, i)) * level_height(h.height, i) * bpp;
        if (t.levels[i].size() != n)
            throw FormatError("Texm level " + std::to_string(i), w.size(),
                              "level holds " + std::to_string(t.levels[i].size()) +
                                  " bytes, expected " + std::to_string(n));
        w.put_bytes(t.levels[i]);
    }
    if (t.page) {
        w.put(kPageMagic);
        w.put(uint32_t(t.page->size()));
        for (const PageRect& r : *t.page) {
            w.put(r.x);
            w.put(r.w);
            w.put(r.y);
            w.put(r.h);
        }
    }
    w.put_bytes(t.tail);
    return w.take();
}

// ---- pixels -----------------------------------------------------------------------------------

ByteOrder byte_order(Format f, ChannelOrder order) {
    if (f == Format::A8R8G8B8 || order == ChannelOrder::Bgr) return kByteOrder;
    return ByteOrder{0, 1, 2, 3}; // R, G, B, X
}

Image decode_pixels(Format f, uint32_t width, uint32_t height, ByteView px, ByteView palette,
                    ChannelOrder order) {
    Image img(width, height);
    size_t n = size_t(width) * height;
    if (px.size() < n * bytes_per_pixel(f))
        throw FormatError("Texm", 0,
                          "level data shorter than " + std::to_string(width) + "x" +
                              std::to_string(height));
    uint8_t* o = img.rgba.data();
    const ByteOrder bo = byte_order(f, order);
    switch (f) {
    case Format::Indexed:
        if (palette.size() < kPaletteSize)
            throw FormatError("Texm", kHeaderSize, "format 0 needs a 1024-byte palette");
        for (size_t i = 0; i < n; ++i, o += 4) {
            const uint8_t* e = palette.data() + size_t(px[i]) * 4;
            o[0] = e[bo.r], o[1] = e[bo.g], o[2] = e[bo.b], o[3] = 255;
        }
        break;
    case Format::R5G6B5:
        for (size_t i = 0; i < n; ++i, o += 4) {
            uint32_t v = load<uint16_t>(px.data() + 2 * i);
            o[0] = widen5(v >> 11), o[1] = widen6((v >> 5) & 63), o[2] = widen5(v & 31), o[3] = 255;
        }
        break;
    case Format::R5G5B6:
        for (size_t i = 0; i < n; ++i, o += 4) {
            uint32_t v = load<uint16_t>(px.data() + 2 * i);
            o[0] = widen5(v >> 11), o[1] = widen5((v >> 6) & 31), o[2] = widen6(v & 63), o[3] = 255;
        }
        break;
    case Format::A4R4G4B4:
        for (size_t i = 0; i < n; ++i, o += 4) {
            uint32_t v = load<uint16_t>(px.data() + 2 * i);
            o[0] = widen4((v >> 8) & 15), o[1] = widen4((v >> 4) & 15), o[2] = widen4(v & 15),
            o[3] = widen4(v >> 12);
        }
        break;
    case Format::L8A8:
        for (size_t i = 0; i < n; ++i, o += 4) {
            uint32_t v = load<uint16_t>(px.data() + 2 * i);
            o[0] = o[1] = o[2] = uint8_t(v >> 8), o[3] = uint8_t(v);
        }
        break;
    case Format::X8R8G8B8:
    case Format::A8R8G8B8: {
        bool alpha = f == Format::A8R8G8B8;
        for (size_t i = 0; i < n; ++i, o += 4) {
            const uint8_t* p = px.data() + 4 * i;
            o[0] = p[bo.r], o[1] = p[bo.g], o[2] = p[bo.b], o[3] = alpha ? p[bo.a] : 255;
        }
        break;
    }
    }
    return img;
}

Image decode_level(const Texture& t, uint32_t level) {
    std::optional<Format> f = t.format();
    if (t.raw_only || !f || level >= t.levels.size())
        throw FormatError("Texm", 0, "level " + std::to_string(level) + " cannot be decoded");
    return decode_pixels(*f, level_width(t.header.width, level),
                         level_height(t.header.height, level), t.levels[level], t.palette,
                         t.channel_order);
}

Bytes encode_pixels(Format f, const Image& img, ByteView palette, PaletteMatch match,
                    ChannelOrder order) {
    size_t n = size_t(img.width) * img.height;
    if (img.rgba.size() != n * 4)
        throw FormatError("image", 0, "RGBA buffer does not match its size");
    Bytes out(n * bytes_per_pixel(f));
    const uint8_t* s = img.rgba.data();
    uint8_t* o = out.data();
    const ByteOrder bo = byte_order(f, order);
    switch (f) {
    case Format::Indexed: {
        if (palette.size() < kPaletteSize)
            throw FormatError("image", 0, "encoding to format 0 needs the texture's palette");
        std::array<std::array<int, 3>, kPaletteEntries> pal;
        for (size_t k = 0; k < kPaletteEntries; ++k)
            pal[k] = {palette[4 * k + bo.r], palette[4 * k + bo.g], palette[4 * k + bo.b]};
        uint32_t last_key = UINT32_MAX;
        uint8_t last_index = 0;
        for (size_t i = 0; i < n; ++i, s += 4) {
            uint32_t key =
                uint32_t(s[0]) | uint32_t(s[1]) << 8 | uint32_t(s[2]) << 16 | uint32_t(s[3]) << 24;
            if (key != last_key) {
                int best = INT32_MAX;
                size_t best_k = 0;
                for (size_t k = 0; k < kPaletteEntries && best != 0; ++k) {
                    int dr = pal[k][0] - s[0], dg = pal[k][1] - s[1], db = pal[k][2] - s[2];
                    int d = dr * dr + dg * dg + db * db;
                    if (d < best) best = d, best_k = k;
                }
                if (match == PaletteMatch::Exact && (best != 0 || s[3] != 255))
                    throw FormatError("image", i * 4,
                                      "pixel (" + std::to_string(i % img.width) + ", " +
                                          std::to_string(i / img.width) +
                                          ") has no exact match in the texture's palette");
                last_key = key;
                last_index = uint8_t(best_k);
            }
            o[i] = last_index;
        }
        break;
    }
    case Format::R5G6B5:
        for (size_t i = 0; i < n; ++i, s += 4)
            store(o + 2 * i,
                  uint16_t(narrow(s[0], 31) << 11 | narrow(s[1], 63) << 5 | narrow(s[2], 31)));
        break;
    case Format::R5G5B6:
        for (size_t i = 0; i < n; ++i, s += 4)
            store(o + 2 * i,
                  uint16_t(narrow(s[0], 31) << 11 | narrow(s[1], 31) << 6 | narrow(s[2], 63)));
        break;
    case Format::A4R4G4B4:
        for (size_t i = 0; i < n; ++i, s += 4)
            store(o + 2 * i, uint16_t(narrow(s[3], 15) << 12 | narrow(s[0], 15) << 8 |
                                      narrow(s[1], 15) << 4 | narrow(s[2], 15)));
        break;
    case Format::L8A8:
        for (size_t i = 0; i < n; ++i, s += 4) store(o + 2 * i, uint16_t(luma(s) << 8 | s[3]));
        break;
    case Format::X8R8G8B8:
    case Format::A8R8G8B8: {
        bool alpha = f == Format::A8R8G8B8;
        for (size_t i = 0; i < n; ++i, s += 4, o += 4) {
            o[bo.r] = s[0], o[bo.g] = s[1], o[bo.b] = s[2], o[bo.a] = alpha ? s[3] : 0;
        }
        break;
    }
    }
    return out;
}

Image downsample(const Image& img) {
    Image out(std::max(1u, img.width >> 1), std::max(1u, img.height >> 1));
    for (uint32_t y = 0; y < out.height; ++y)
        for (uint32_t x = 0; x < out.width; ++x) {
            uint32_t x0 = std::min(2 * x, img.width - 1), x1 = std::min(2 * x + 1, img.width - 1);
            uint32_t y0 = std::min(2 * y, img.height - 1), y1 = std::min(2 * y + 1, img.height - 1);
            uint32_t count = (x1 != x0 ? 2u : 1u) * (y1 != y0 ? 2u : 1u);
            uint8_t* o = out.at(x, y);
            for (int c = 0; c < 4; ++c) {
                uint32_t sum = img.at(x0, y0)[c];
                if (x1 != x0) sum += img.at(x1, y0)[c];
                if (y1 != y0) sum += img.at(x0, y1)[c];
                if (x1 != x0 && y1 != y0) sum += img.at(x1, y1)[c];
                o[c] = uint8_t((sum + count / 2) / count);
            }
        }
    return out;
}

std::vector<Image> build_mip_chain(const Image& base, uint32_t count) {
    std::vector<Image> chain;
    if (count == 0) return chain;
    chain.push_back(base);
    for (uint32_t i = 1; i < count; ++i) chain.push_back(downsample(chain.back()));
    return chain;
}

Texture make_texture(Format f, const Image& base, ByteView palette, uint32_t mip_count,
                     ChannelOrder order) {
    if (base.width == 0 || base.height == 0) throw FormatError("image", 0, "empty image");
    Texture t;
    t.channel_order = order;
    t.header.width = base.width;
    t.header.height = base.height;
    t.header.mip_count = mip_count ? mip_count : full_mip_count(base.width, base.height);
    t.header.flags4 = t.header.mip_count > 1 ? kFlags4Mipmapped : 0;
    t.header.format = uint32_t(f);
    if (f == Format::Indexed) {
        if (palette.size() != kPaletteSize)
            throw FormatError("image", 0, "format 0 needs a 1024-byte palette");
        t.palette.assign(palette.begin(), palette.end());
    }
    for (const Image& level : build_mip_chain(base, t.header.mip_count))
        t.levels.push_back(encode_pixels(f, level, t.palette, PaletteMatch::Nearest, order));
    t.raw = write(t);
    return t;
}

Texture import_levels(const Texture& original,
                      const std::vector<std::optional<LevelInput>>& input) {
    std::optional<Format> f = original.format();
    if (original.raw_only || !f)
        throw FormatError("Texm", 0, "texture was copied through raw; cannot import");
    Texture t = original;
    uint32_t count = original.header.mip_count;
    auto supplied = [&](uint32_t i) -> const LevelInput* {
        return i < input.size() && input[i] ? &*input[i] : nullptr;
    };
    auto changed = [&](uint32_t i) {
        const LevelInput* in = supplied(i);
        if (!in) return false;
        uint32_t w = level_width(original.header.width, i),
                 h = level_height(original.header.height, i);
        if (in->rgba.width != w || in->rgba.height != h)
            throw FormatError("Texm level " + std::to_string(i), 0,
                              "image is " + std::to_string(in->rgba.width) + "x" +
                                  std::to_string(in->rgba.height) + ", the level is " +
                                  std::to_string(w) + "x" + std::to_string(h));
        if (*f == Format::Indexed && in->indices) return *in->indices != original.levels[i];
        return !(in->rgba == decode_level(original, i));
    };
    auto encode = [&](uint32_t i, const LevelInput& in) {
        if (*f == Format::Indexed && in.indices) {
            if (in.indices->size() != original.levels[i].size())
                throw FormatError("Texm level " + std::to_string(i), 0,
                                  "index image has the wrong size");
            t.levels[i] = *in.indices;
        } else {
            t.levels[i] =
                encode_pixels(*f, in.rgba, t.palette, PaletteMatch::Exact, t.channel_order);
        }
    };
    std::vector<bool> diff(count);
    bool lower_changed = false;
    for (uint32_t i = 0; i < count; ++i) {
        diff[i] = changed(i);
        if (i > 0 && diff[i]) lower_changed = true;
    }
    if (diff[0] && !lower_changed) {
        const LevelInput& base = *supplied(0);
        encode(0, base);
        // Rebuild from the pixels level 0 now holds (for format 0 the indices' colours).
        std::vector<Image> chain = build_mip_chain(decode_level(t, 0), count);
        for (uint32_t i = 1; i < count; ++i)
            t.levels[i] =
                encode_pixels(*f, chain[i], t.palette,
                              *f == Format::Indexed ? PaletteMatch::Nearest : PaletteMatch::Exact,
                              t.channel_order);
    } else {
        for (uint32_t i = 0; i < count; ++i)
            if (diff[i]) encode(i, *supplied(i));
    }
    t.raw = write(t);
    return t;
}

} // namespace msh::texm
