#include "png.hpp"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <png.h>
#include <zlib.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include <algorithm>
#include <array>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <optional>

namespace msh::png {

namespace {

// libpng reports errors by longjmp. Every C++ object lives in the caller of the *_impl functions,
// so a jump never skips a destructor; the impl frames hold only trivially destructible locals.
struct Context {
    ByteView input;
    size_t pos = 0;
    Bytes* output = nullptr;
    uint64_t max_pixels = 0;
    char message[256] = {};
};

void on_error(png_structp png, png_const_charp msg) {
    auto* ctx = static_cast<Context*>(png_get_error_ptr(png));
    std::snprintf(ctx->message, sizeof ctx->message, "%s", msg ? msg : "libpng error");
    png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}

void on_read(png_structp png, png_bytep out, size_t len) {
    auto* ctx = static_cast<Context*>(png_get_io_ptr(png));
    if (len > ctx->input.size() - ctx->pos) png_error(png, "PNG data is truncated");
    std::memcpy(out, ctx->input.data() + ctx->pos, len);
    ctx->pos += len;
}
void on_write(png_structp png, png_bytep data, size_t len) {
    auto* ctx = static_cast<Context*>(png_get_io_ptr(png));
    ctx->output->insert(ctx->output->end(), data, data + len);
}
void on_flush(png_structp) {}

// Deflate expands at most 1032:1; with room for zlib's framing, image data larger than this
// many times its IDAT bytes cannot be there.
constexpr uint64_t kMaxInflation = 1100;

// The IDAT bytes of a PNG, by walking its chunks (whatever libpng will make of them).
uint64_t idat_bytes(ByteView png) {
    uint64_t total = 0;
    for (size_t at = 8; at + 12 <= png.size();) {
        const uint32_t length = uint32_t(png[at]) << 24 | uint32_t(png[at + 1]) << 16 |
                                uint32_t(png[at + 2]) << 8 | png[at + 3];
        if (std::memcmp(png.data() + at + 4, "IDAT", 4) == 0) total += length;
        if (length > png.size() - at - 12) break;
        at += 12 + size_t(length);
    }
    return total;
}

struct ReadState {
    Decoded* out;
    std::vector<png_bytep> rows;
    Bytes buffer;
    std::vector<png_color> plte;
    std::vector<uint8_t> trns;
};

// Returns false after a libpng error (message in ctx).
bool decode_impl(png_structp png, png_infop info, Context& ctx, ReadState& st) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_read_fn(png, &ctx, on_read);
    png_read_info(png, info);
    png_uint_32 width = 0, height = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &depth, &color, &interlace, nullptr, nullptr);
    // Both before anything is allocated: the pixel budget, and what the file can back.
    // (A plain buffer: png_error longjmps past any destructor.)
    char why[160];
    if (uint64_t(width) * height > ctx.max_pixels) {
        std::snprintf(why, sizeof why, "image is %ux%u, over the budget of %llu pixels",
                      unsigned(width), unsigned(height), (unsigned long long)ctx.max_pixels);
        png_error(png, why);
    }
    const uint64_t row = (uint64_t(width) * png_get_channels(png, info) * uint64_t(depth) + 7) / 8;
    const uint64_t compressed = idat_bytes(ctx.input);
    if (uint64_t(height) * (row + 1) > kMaxInflation * compressed + 64) {
        std::snprintf(why, sizeof why, "%llu bytes of image data cannot fill %ux%u pixels",
                      (unsigned long long)compressed, unsigned(width), unsigned(height));
        png_error(png, why);
    }
    Decoded& d = *st.out;
    d.bit_depth = depth;
    bool has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    bool indexed = color == PNG_COLOR_TYPE_PALETTE;
    switch (color) {
    case PNG_COLOR_TYPE_GRAY:
        d.source_type = ColorType::Gray;
        break;
    case PNG_COLOR_TYPE_GRAY_ALPHA:
        d.source_type = ColorType::GrayAlpha;
        break;
    case PNG_COLOR_TYPE_RGB:
        d.source_type = ColorType::RGB;
        break;
    case PNG_COLOR_TYPE_RGB_ALPHA:
        d.source_type = ColorType::RGBA;
        break;
    default:
        d.source_type = ColorType::Indexed;
        break;
    }
    size_t px_bytes = 4;
    if (indexed) {
        png_colorp plte = nullptr;
        int n = 0;
        if (png_get_PLTE(png, info, &plte, &n) && plte) st.plte.assign(plte, plte + n);
        if (has_trns) {
            png_bytep alpha = nullptr;
            int na = 0;
            png_get_tRNS(png, info, &alpha, &na, nullptr);
            if (alpha) st.trns.assign(alpha, alpha + na);
        }
        png_set_packing(png); // 1/2/4-bit indices to one byte each
        px_bytes = 1;
    } else {
        png_set_expand(png); // grey < 8 bits to 8, tRNS to an alpha channel
        png_set_scale_16(png);
        png_set_gray_to_rgb(png);
        if (!(color & PNG_COLOR_MASK_ALPHA) && !has_trns)
            png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != size_t(width) * px_bytes)
        png_error(png, "unexpected row layout");
    st.buffer.resize(size_t(width) * height * px_bytes);
    st.rows.resize(height);
    for (png_uint_32 y = 0; y < height; ++y)
        st.rows[y] = st.buffer.data() + size_t(y) * width * px_bytes;
    png_read_image(png, st.rows.data());
    png_read_end(png, nullptr);
    d.rgba.width = width;
    d.rgba.height = height;
    return true;
}

struct WriteState {
    std::vector<png_bytep> rows;
    std::vector<png_color> plte;
};

bool encode_impl(png_structp png, png_infop info, Context& ctx, WriteState& st, uint32_t width,
                 uint32_t height, int color, const EncodeOptions& o) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_write_fn(png, &ctx, on_write, on_flush);
    png_set_compression_level(png, o.compression_level);
    switch (o.filter) {
    case RowFilter::Adaptive:
        break;
    case RowFilter::None:
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
        break;
    case RowFilter::Sub:
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
        break;
    case RowFilter::Up:
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
        break;
    case RowFilter::Paeth:
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_PAETH);
        break;
    }
    png_set_IHDR(png, info, width, height, 8, color, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (color == PNG_COLOR_TYPE_PALETTE) {
        png_set_PLTE(png, info, st.plte.data(), int(st.plte.size()));
        if (!o.palette_alpha.empty())
            png_set_tRNS(png, info, o.palette_alpha.data(), int(o.palette_alpha.size()), nullptr);
    }
    if (o.significant_bits[0] != 0) {
        png_color_8 sbit{};
        sbit.red = sbit.gray = o.significant_bits[0];
        sbit.green = o.significant_bits[1];
        sbit.blue = o.significant_bits[2];
        sbit.alpha = o.significant_bits[3];
        png_set_sBIT(png, info, &sbit);
    }
    png_write_info(png, info);
    png_write_image(png, st.rows.data());
    png_write_end(png, nullptr);
    return true;
}

int png_color_type(ColorType t) {
    switch (t) {
    case ColorType::Gray:
        return PNG_COLOR_TYPE_GRAY;
    case ColorType::GrayAlpha:
        return PNG_COLOR_TYPE_GRAY_ALPHA;
    case ColorType::RGB:
        return PNG_COLOR_TYPE_RGB;
    case ColorType::RGBA:
        return PNG_COLOR_TYPE_RGB_ALPHA;
    case ColorType::Indexed:
        return PNG_COLOR_TYPE_PALETTE;
    }
    return PNG_COLOR_TYPE_RGB_ALPHA;
}

size_t channels(ColorType t) {
    switch (t) {
    case ColorType::Gray:
    case ColorType::Indexed:
        return 1;
    case ColorType::GrayAlpha:
        return 2;
    case ColorType::RGB:
        return 3;
    case ColorType::RGBA:
        return 4;
    }
    return 4;
}

// Drops or reorders channels of an RGBA8 image for `type` (grey takes R): the pixels in `type`'s
// layout, the image's own bytes for RGBA (not copied), else packed into `storage`.
ByteView pack(const texm::Image& img, ColorType type, Bytes& storage) {
    size_t n = size_t(img.width) * img.height, c = channels(type);
    if (type == ColorType::RGBA) return img.rgba;
    Bytes& out = storage;
    out.resize(n * c);
    const uint8_t* s = img.rgba.data();
    uint8_t* o = out.data();
    for (size_t i = 0; i < n; ++i, s += 4, o += c) {
        switch (type) {
        case ColorType::Gray:
            o[0] = s[0];
            break;
        case ColorType::GrayAlpha:
            o[0] = s[0], o[1] = s[3];
            break;
        case ColorType::RGB:
            o[0] = s[0], o[1] = s[1], o[2] = s[2];
            break;
        default:
            break;
        }
    }
    return out;
}

void put_u32(Bytes& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(uint8_t(v >> shift));
}

// A chunk with the CRC of its type and data: ISA-L's CRC-32, the same as zlib's, computed with
// carry-less multiplication (zlib's table-driven loop was 1 % of a thumbnail batch).
void put_chunk(Bytes& out, const char* type, ByteView data) {
    put_u32(out, uint32_t(data.size()));
    const size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    put_u32(out, crc32_gzip_refl(0, out.data() + start, out.size() - start));
}

// ISA-L's AVX code returns with the upper halves of the vector registers in use. Every SSE
// instruction after that (all of our code: it is built for plain x86-64) then pays a state
// transition, which made the rasterizer 1.5x slower. vzeroupper clears them.
#if defined(__x86_64__) || defined(__i386__)
[[gnu::target("avx")]] void clear_upper_vector_state() {
    _mm256_zeroupper();
}

// AVX usable (the CPU has it and the OS saves its registers), asked once, at the first picture:
// not __builtin_cpu_supports, which links libgcc's start-up probe of every feature into every
// command, and CPUID traps to the hypervisor in a VM (a tenth of an `mshconv --version`).
bool avx_usable() {
    static const bool usable = [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
        if (!(c & (1u << 27)) || !(c & (1u << 28))) return false; // OSXSAVE, AVX
        uint32_t lo = 0, hi = 0;
        __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        return (lo & 6u) == 6u; // the OS saves the SSE and AVX state
    }();
    return usable;
}
#endif

// Signature, IHDR, sBIT, PLTE, tRNS (those three as the options ask, in the order PNG requires and
// with the bytes libpng writes), one IDAT (Up-filtered rows in one zlib stream from ISA-L's
// igzip at level 0), IEND. nullopt when igzip needs more room than the bound (data that does not
// compress): libpng then.
std::optional<Bytes> encode_with_igzip(uint32_t width, uint32_t height, ColorType type,
                                       ByteView pixels, const EncodeOptions& options) {
    const size_t stride = size_t(width) * channels(type);
    const size_t filtered_size = (stride + 1) * height;
    // Buffers every byte of which is written before it is read: not zeroed first.
    const std::unique_ptr<uint8_t[]> filtered(new uint8_t[filtered_size]);
    for (uint32_t y = 0; y < height; ++y) {
        uint8_t* out = filtered.get() + size_t(y) * (stride + 1);
        const uint8_t* row = pixels.data() + size_t(y) * stride;
        out[0] = 2; // Up
        if (y == 0) {
            std::memcpy(out + 1, row, stride);
            continue;
        }
        const uint8_t* above = row - stride;
        for (size_t x = 0; x < stride; ++x) out[1 + x] = uint8_t(row[x] - above[x]);
    }
    if (filtered_size > std::numeric_limits<uint32_t>::max() / 2) return std::nullopt;
    const size_t bound = filtered_size + filtered_size / 16 + 1024;
    const std::unique_ptr<uint8_t[]> z(new uint8_t[bound]);
    // Zeroed first: the stateless init leaves some fields (the history window among them) as
    // they were, and a stack leftover there made the same picture compress differently.
    isal_zstream stream{};
    isal_deflate_stateless_init(&stream);
    // Level 0, static Huffman codes, which needs no level buffer. Levels 1 and 2 (ISA-L 2.30)
    // gave files that depend on the process's address layout: the same picture compressed to
    // another stream in about 3 runs of 100 (the same pixels; measured on a 2x4 mip level), and
    // level 3 is as slow as zlib.
    stream.level = 0;
    stream.gzip_flag = IGZIP_ZLIB;
    stream.end_of_stream = 1;
    stream.flush = NO_FLUSH;
    stream.next_in = filtered.get();
    stream.avail_in = uint32_t(filtered_size);
    stream.next_out = z.get();
    stream.avail_out = uint32_t(bound);
    const int result = isal_deflate_stateless(&stream);
#if defined(__x86_64__) || defined(__i386__)
    if (avx_usable()) clear_upper_vector_state();
#endif
    if (result != COMP_OK) return std::nullopt;
    const size_t n = stream.total_out;
    const int color = png_color_type(type);
    Bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    out.reserve(out.size() + 25 + 16 + (12 + 3 * options.palette.size()) +
                (12 + options.palette_alpha.size()) + (12 + n) + 12);
    Bytes ihdr;
    put_u32(ihdr, width);
    put_u32(ihdr, height);
    ihdr.insert(ihdr.end(), {8, uint8_t(color), 0, 0, 0});
    put_chunk(out, "IHDR", ihdr);
    if (const auto& bits = options.significant_bits; bits[0] != 0) {
        // As png_write_sBIT: grey or R, G, B (a palette's too), then alpha.
        Bytes sbit =
            (color & PNG_COLOR_MASK_COLOR) ? Bytes{bits[0], bits[1], bits[2]} : Bytes{bits[0]};
        if (color & PNG_COLOR_MASK_ALPHA) sbit.push_back(bits[3]);
        put_chunk(out, "sBIT", sbit);
    }
    if (type == ColorType::Indexed) {
        Bytes plte;
        for (const auto& c : options.palette) plte.insert(plte.end(), c.begin(), c.end());
        put_chunk(out, "PLTE", plte);
        if (!options.palette_alpha.empty()) put_chunk(out, "tRNS", options.palette_alpha);
    }
    put_chunk(out, "IDAT", ByteView(z.get(), n));
    put_chunk(out, "IEND", {});
    return out;
}

} // namespace

Bytes encode(uint32_t width, uint32_t height, ColorType type, ByteView pixels,
             const EncodeOptions& options) {
    if (width == 0 || height == 0) throw FormatError("PNG", 0, "cannot encode an empty image");
    size_t stride = size_t(width) * channels(type);
    if (pixels.size() != stride * height)
        throw FormatError("PNG", 0, "pixel buffer does not match the image size");
    if (type == ColorType::Indexed && (options.palette.empty() || options.palette.size() > 256))
        throw FormatError("PNG", 0, "an indexed PNG needs 1 to 256 palette colours");
    if (options.igzip)
        if (std::optional<Bytes> fast = encode_with_igzip(width, height, type, pixels, options))
            return std::move(*fast);
    Bytes out;
    Context ctx;
    ctx.output = &out;
    WriteState st;
    st.rows.resize(height);
    for (uint32_t y = 0; y < height; ++y)
        st.rows[y] = const_cast<png_bytep>(pixels.data() + y * stride);
    for (const auto& c : options.palette) st.plte.push_back({c[0], c[1], c[2]});
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    if (!png) throw FormatError("PNG", 0, "libpng initialisation failed");
    png_infop info = png_create_info_struct(png);
    bool ok = info && encode_impl(png, info, ctx, st, width, height, png_color_type(type), options);
    png_destroy_write_struct(&png, &info);
    if (!ok) throw FormatError("PNG", 0, std::string("libpng: ") + ctx.message);
    return out;
}

Bytes encode_rgba(const texm::Image& img, const EncodeOptions& options) {
    bool alpha = false;
    for (size_t i = 3; i < img.rgba.size() && !alpha; i += 4) alpha = img.rgba[i] != 255;
    ColorType type = alpha ? ColorType::RGBA : ColorType::RGB;
    Bytes packed;
    return encode(img.width, img.height, type, pack(img, type, packed), options);
}

Decoded decode(ByteView data, uint64_t max_pixels) {
    if (data.size() < 8 || png_sig_cmp(data.data(), 0, 8) != 0)
        throw FormatError("PNG", 0, "not a PNG file");
    Decoded d;
    Context ctx;
    ctx.input = data;
    ctx.max_pixels = max_pixels;
    ReadState st{&d, {}, {}, {}, {}};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    if (!png) throw FormatError("PNG", 0, "libpng initialisation failed");
    png_infop info = png_create_info_struct(png);
    bool ok = info && decode_impl(png, info, ctx, st);
    png_destroy_read_struct(&png, &info, nullptr);
    if (!ok) throw FormatError("PNG", ctx.pos, std::string("libpng: ") + ctx.message);

    size_t n = size_t(d.rgba.width) * d.rgba.height;
    if (d.source_type == ColorType::Indexed) {
        for (const png_color& c : st.plte) d.palette.push_back({c.red, c.green, c.blue});
        d.rgba.rgba.resize(n * 4);
        uint8_t* o = d.rgba.rgba.data();
        for (size_t i = 0; i < n; ++i, o += 4) {
            uint8_t k = st.buffer[i];
            if (k < st.plte.size())
                o[0] = st.plte[k].red, o[1] = st.plte[k].green, o[2] = st.plte[k].blue;
            else
                o[0] = o[1] = o[2] = 0;
            o[3] = k < st.trns.size() ? st.trns[k] : 255;
        }
        d.indices = std::move(st.buffer);
    } else {
        d.rgba.rgba = std::move(st.buffer);
    }
    return d;
}

ColorType color_type_for(texm::Format f) {
    using texm::Format;
    switch (f) {
    case Format::Indexed:
        return ColorType::Indexed;
    case Format::R5G6B5:
    case Format::R5G5B6:
    case Format::X8R8G8B8:
        return ColorType::RGB;
    case Format::A4R4G4B4:
    case Format::A8R8G8B8:
        return ColorType::RGBA;
    case Format::L8A8:
        return ColorType::GrayAlpha;
    }
    return ColorType::RGBA;
}

EncodeOptions options_for_level(int zlib_level) {
    if (zlib_level < 0 || zlib_level > 9)
        throw std::invalid_argument("PNG level " + std::to_string(zlib_level) + " is not 0..9");
    EncodeOptions o;
    o.compression_level = zlib_level;
    o.filter = RowFilter::Adaptive;
    o.igzip = false;
    return o;
}

Bytes from_texm_level(const texm::Texture& t, uint32_t level, const EncodeOptions& base) {
    using texm::Format;
    std::optional<Format> f = t.format();
    if (t.raw_only || !f || level >= t.levels.size())
        throw FormatError("Texm", 0, "level " + std::to_string(level) + " cannot be exported");
    uint32_t w = texm::level_width(t.header.width, level),
             h = texm::level_height(t.header.height, level);
    EncodeOptions o = base;
    ColorType type = color_type_for(*f);
    switch (*f) {
    case Format::R5G6B5:
        o.significant_bits = {5, 6, 5, 0};
        break;
    case Format::R5G5B6:
        o.significant_bits = {5, 5, 6, 0};
        break;
    case Format::A4R4G4B4:
        o.significant_bits = {4, 4, 4, 4};
        break;
    default:
        break;
    }
    if (*f == Format::Indexed) {
        const texm::ByteOrder bo = texm::byte_order(*f, t.channel_order);
        o.palette.clear();
        for (size_t k = 0; k < texm::kPaletteEntries; ++k)
            o.palette.push_back(
                {t.palette[4 * k + bo.r], t.palette[4 * k + bo.g], t.palette[4 * k + bo.b]});
        o.palette_alpha.clear();
        if (t.header.flags5 & texm::kFlags5AlphaKey) o.palette_alpha = {0};
        return encode(w, h, type, t.levels[level], o);
    }
    const texm::Image pixels = texm::decode_level(t, level);
    Bytes packed;
    return encode(w, h, type, pack(pixels, type, packed), o);
}

texm::Image texm_level_pixels(const texm::Texture& t, uint32_t level) {
    if (t.raw_only || !t.format() || level >= t.levels.size())
        throw FormatError("Texm", 0, "level " + std::to_string(level) + " cannot be exported");
    texm::Image img = texm::decode_level(t, level);
    if (*t.format() == texm::Format::Indexed && (t.header.flags5 & texm::kFlags5AlphaKey)) {
        const Bytes& indices = t.levels[level];
        for (size_t i = 0; i < indices.size() && 4 * i + 3 < img.rgba.size(); ++i)
            if (indices[i] == 0) img.rgba[4 * i + 3] = 0; // the tRNS entry of from_texm_level
    }
    return img;
}

texm::LevelInput to_level_input(Decoded d) {
    texm::LevelInput in;
    in.rgba = std::move(d.rgba);
    in.indices = std::move(d.indices);
    return in;
}

} // namespace msh::png
