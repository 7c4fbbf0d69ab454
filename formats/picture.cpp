#include "picture.hpp"

#include "diagnostics.hpp"

#include <stb/stb_image.h>
#include <stb/stb_image_resize.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace msh::picture {

namespace {

constexpr uint64_t kMaxPixelsPerByte = 4096;

bool starts_with(ByteView b, const char* magic, size_t n) {
    return b.size() >= n && std::memcmp(b.data(), magic, n) == 0;
}

} // namespace

std::string encoding_of(ByteView b) {
    if (starts_with(b, "\x89PNG\r\n\x1a\n", 8)) return "PNG";
    if (starts_with(b, "\xff\xd8\xff", 3)) return "JPEG";
    if (starts_with(b, "BM", 2)) return "BMP";
    if (starts_with(b, "GIF8", 4)) return "GIF";
    if (starts_with(b, "8BPS", 4)) return "PSD";
    if (starts_with(b, "#?RADIANCE", 10) || starts_with(b, "#?RGBE", 6)) return "HDR";
    if (starts_with(b, "RIFF", 4) && b.size() >= 12 && std::memcmp(b.data() + 8, "WEBP", 4) == 0)
        return "WebP";
    if (starts_with(b, "\xabKTX", 4)) return "KTX";
    if (starts_with(b, "DDS ", 4)) return "DDS";
    return "";
}

texm::Image decode(ByteView bytes, const std::string& where, uint64_t max_pixels) {
    const std::string encoding = encoding_of(bytes);
    if (encoding == "PNG") return png::decode(bytes, max_pixels).rgba;
    if (bytes.size() > size_t(INT32_MAX))
        throw FormatError(where, Location::whole(), "image too large to decode");
    const int size = int(bytes.size());
    int w = 0, h = 0, channels = 0;
    // Only encodings recognised by their magic reach stb_image: its loaders for formats without
    // one (TGA) or rarely used (PNM, PIC) are not trusted with foreign bytes — fuzzing found a
    // 13-byte PNM that makes Debian's stb (2022-09) read out of bounds.
    static const char* const trusted[] = {"JPEG", "BMP", "GIF", "PSD", "HDR"};
    const bool known =
        std::find(std::begin(trusted), std::end(trusted), encoding) != std::end(trusted);
    if (!known || !stbi_info_from_memory(bytes.data(), size, &w, &h, &channels))
        throw FormatError(where, Location::whole(),
                          (encoding.empty() ? std::string("an image in an unknown encoding")
                                            : "a " + encoding + " image") +
                              " mshconv cannot decode (PNG, JPEG, BMP, GIF, PSD and HDR are "
                              "read): convert it to PNG");
    if (w <= 0 || h <= 0 || uint64_t(w) * uint64_t(h) > max_pixels)
        throw FormatError(where, Location::whole(),
                          "a " + std::to_string(w) + " x " + std::to_string(h) + " " + encoding +
                              " image is over the " + std::to_string(max_pixels) + "-pixel limit");
    // No encoding stb reads packs more than a few hundred pixels into a byte of real images
    // (RLE runs, LZW, flat JPEG blocks); a header claiming more is refused before allocation.
    if (uint64_t(w) * uint64_t(h) >
        std::max<uint64_t>(uint64_t(size) * kMaxPixelsPerByte, 1u << 16))
        throw FormatError(where, Location::whole(),
                          "a " + std::to_string(bytes.size()) + "-byte " + encoding + " claims " +
                              std::to_string(w) + " x " + std::to_string(h) +
                              " pixels, more than its data can hold");
    std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
        stbi_load_from_memory(bytes.data(), size, &w, &h, &channels, 4), stbi_image_free);
    if (!pixels)
        throw FormatError(where, Location::whole(),
                          "a damaged " + (encoding.empty() ? std::string("image") : encoding) +
                              ": " + stbi_failure_reason());
    texm::Image out{uint32_t(w), uint32_t(h)};
    std::memcpy(out.rgba.data(), pixels.get(), out.rgba.size());
    return out;
}

texm::Image resize(const texm::Image& img, uint32_t width, uint32_t height) {
    if (img.width == width && img.height == height) return img;
    texm::Image out(width, height);
    stbir_resize_uint8_srgb(img.rgba.data(), int(img.width), int(img.height), 0, out.rgba.data(),
                            int(width), int(height), 0, 4, 3, 0);
    return out;
}

} // namespace msh::picture
