#include "text.hpp"

#include <algorithm>
#include <cctype>

namespace msh::render {

namespace {

// 7 rows of 5 bits (bit 4 = leftmost column).
struct Glyph {
    char c;
    std::array<uint8_t, 7> rows;
};

constexpr Glyph kGlyphs[] = {
    {' ', {0, 0, 0, 0, 0, 0, 0}},        {'A', {14, 17, 17, 31, 17, 17, 17}},
    {'B', {30, 17, 17, 30, 17, 17, 30}}, {'C', {14, 17, 16, 16, 16, 17, 14}},
    {'D', {30, 17, 17, 17, 17, 17, 30}}, {'E', {31, 16, 16, 30, 16, 16, 31}},
    {'F', {31, 16, 16, 30, 16, 16, 16}}, {'G', {14, 17, 16, 23, 17, 17, 15}},
    {'H', {17, 17, 17, 31, 17, 17, 17}}, {'I', {14, 4, 4, 4, 4, 4, 14}},
    {'J', {7, 2, 2, 2, 2, 18, 12}},      {'K', {17, 18, 20, 24, 20, 18, 17}},
    {'L', {16, 16, 16, 16, 16, 16, 31}}, {'M', {17, 27, 21, 21, 17, 17, 17}},
    {'N', {17, 17, 25, 21, 19, 17, 17}}, {'O', {14, 17, 17, 17, 17, 17, 14}},
    {'P', {30, 17, 17, 30, 16, 16, 16}}, {'Q', {14, 17, 17, 17, 21, 18, 13}},
    {'R', {30, 17, 17, 30, 20, 18, 17}}, {'S', {15, 16, 16, 14, 1, 1, 30}},
    {'T', {31, 4, 4, 4, 4, 4, 4}},       {'U', {17, 17, 17, 17, 17, 17, 14}},
    {'V', {17, 17, 17, 17, 17, 10, 4}},  {'W', {17, 17, 17, 21, 21, 21, 10}},
    {'X', {17, 17, 10, 4, 10, 17, 17}},  {'Y', {17, 17, 10, 4, 4, 4, 4}},
    {'Z', {31, 1, 2, 4, 8, 16, 31}},     {'0', {14, 17, 19, 21, 25, 17, 14}},
    {'1', {4, 12, 4, 4, 4, 4, 14}},      {'2', {14, 17, 1, 2, 4, 8, 31}},
    {'3', {31, 2, 4, 2, 1, 17, 14}},     {'4', {2, 6, 10, 18, 31, 2, 2}},
    {'5', {31, 16, 30, 1, 1, 17, 14}},   {'6', {6, 8, 16, 30, 17, 17, 14}},
    {'7', {31, 1, 2, 4, 8, 8, 8}},       {'8', {14, 17, 17, 14, 17, 17, 14}},
    {'9', {14, 17, 17, 15, 1, 2, 12}},   {'-', {0, 0, 0, 31, 0, 0, 0}},
    {'.', {0, 0, 0, 0, 0, 12, 12}},      {':', {0, 12, 12, 0, 12, 12, 0}},
    {'/', {0, 1, 2, 4, 8, 16, 0}},       {'_', {0, 0, 0, 0, 0, 0, 31}},
    {'#', {10, 10, 31, 10, 31, 10, 10}}, {'(', {2, 4, 8, 8, 8, 4, 2}},
    {')', {8, 4, 2, 2, 2, 4, 8}},        {'=', {0, 0, 31, 0, 31, 0, 0}},
    {'+', {0, 4, 4, 31, 4, 4, 0}},       {',', {0, 0, 0, 0, 12, 4, 8}},
    {'%', {24, 25, 2, 4, 8, 19, 3}},
};

constexpr std::array<uint8_t, 7> kBox{31, 17, 17, 17, 17, 17, 31};

const std::array<uint8_t, 7>& glyph(char c) {
    const char u = char(std::toupper(static_cast<unsigned char>(c)));
    for (const Glyph& g : kGlyphs)
        if (g.c == u) return g.rows;
    return kBox;
}

void put(texm::Image& img, int x, int y, std::array<uint8_t, 4> c) {
    if (x < 0 || y < 0 || x >= int(img.width) || y >= int(img.height)) return;
    uint8_t* p = img.at(uint32_t(x), uint32_t(y));
    std::copy(c.begin(), c.end(), p);
}

} // namespace

int text_width(const std::string& text, int scale) {
    return text.empty() ? 0 : int(text.size()) * 6 * scale - scale;
}

int text_height(int scale) {
    return 7 * scale;
}

void fill_rect(texm::Image& image, int x, int y, int w, int h, std::array<uint8_t, 4> colour) {
    for (int j = std::max(0, y); j < std::min(int(image.height), y + h); ++j)
        for (int i = std::max(0, x); i < std::min(int(image.width), x + w); ++i)
            put(image, i, j, colour);
}

void draw_label(texm::Image& image, int x, int y, const std::string& text, int scale,
                std::array<uint8_t, 4> ink, std::array<uint8_t, 4> box) {
    fill_rect(image, x, y, text_width(text, scale) + 2 * scale, text_height(scale) + 2 * scale,
              box);
    int pen = x + scale;
    for (char c : text) {
        const auto& rows = glyph(c);
        for (int r = 0; r < 7; ++r)
            for (int col = 0; col < 5; ++col)
                if (rows[size_t(r)] & (16 >> col))
                    fill_rect(image, pen + col * scale, y + scale + r * scale, scale, scale, ink);
        pen += 6 * scale;
    }
}

} // namespace msh::render
