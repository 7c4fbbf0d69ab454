#include "cp1251.hpp"

#include <array>

namespace msh {

namespace {

// Code points of CP1251 0x80-0xBF (0xC0-0xFF are U+0410-U+044F); 0x98 is unassigned and kept as
// U+0098 so that every byte round-trips.
constexpr std::array<char32_t, 64> kHigh = {
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409,
    0x2039, 0x040A, 0x040C, 0x040B, 0x040F, 0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x0098, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, 0x00A0,
    0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB,
    0x00AC, 0x00AD, 0x00AE, 0x0407, 0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6,
    0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457};

char32_t code_point(uint8_t b) {
    if (b < 0x80) return b;
    if (b >= 0xC0) return char32_t(0x0410 + (b - 0xC0));
    return kHigh[b - 0x80];
}

void put_utf8(char32_t c, std::string& out) {
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

} // namespace

std::string cp1251_to_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size() * 2);
    for (char ch : text) put_utf8(code_point(uint8_t(ch)), out);
    return out;
}

std::optional<std::string> utf8_to_cp1251(std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const auto b = uint8_t(text[i]);
        char32_t c = 0;
        size_t n = 0;
        if (b < 0x80) {
            c = b, n = 1;
        } else if ((b & 0xE0) == 0xC0) {
            c = b & 0x1F, n = 2;
        } else if ((b & 0xF0) == 0xE0) {
            c = b & 0x0F, n = 3;
        } else {
            return std::nullopt; // 4-byte sequences: nothing CP1251 has
        }
        if (i + n > text.size()) return std::nullopt;
        for (size_t k = 1; k < n; ++k) {
            const auto cont = uint8_t(text[i + k]);
            if ((cont & 0xC0) != 0x80) return std::nullopt;
            c = (c << 6) | (cont & 0x3F);
        }
        i += n;
        if (c < 0x80) {
            out += char(c);
            continue;
        }
        int byte = -1;
        for (int k = 0x80; k <= 0xFF && byte < 0; ++k)
            if (code_point(uint8_t(k)) == c) byte = k;
        if (byte < 0) return std::nullopt;
        out += char(byte);
    }
    return out;
}

} // namespace msh
