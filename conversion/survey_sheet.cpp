// The contact sheet (survey_sheet.hpp). The labels are drawn with a 3 x 5 bitmap font of capital
// letters, digits and a little punctuation: enough for "BGR", "RGB" and the page's one-line
// instructions without a font dependency.
#include "survey_sheet.hpp"

#include "formats/png.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

namespace msh::conversion::survey {

namespace fs = std::filesystem;

namespace {

// ---- the bitmap font ---------------------------------------------------------------------------

constexpr uint32_t kGlyphWidth = 3, kGlyphHeight = 5, kAdvance = kGlyphWidth + 1;

struct Glyph {
    char c;
    const char* rows; // 5 rows of 3 columns, top first; 'X' is ink
};

constexpr Glyph kFont[] = {
    {'A', ".X.X.XXXXX.XX.X"}, {'B', "XX.X.XXX.X.XXX."}, {'C', ".XXX..X..X...XX"},
    {'D', "XX.X.XX.XX.XXX."}, {'E', "XXXX..XX.X..XXX"}, {'F', "XXXX..XX.X..X.."},
    {'G', ".XXX..X.XX.X.XX"}, {'H', "X.XX.XXXXX.XX.X"}, {'I', "XXX.X..X..X.XXX"},
    {'J', "..X..X..XX.X.X."}, {'K', "X.XX.XXX.X.XX.X"}, {'L', "X..X..X..X..XXX"},
    {'M', "X.XXXXXXXX.XX.X"}, {'N', "XX.X.XX.XX.XX.X"}, {'O', ".X.X.XX.XX.X.X."},
    {'P', "XX.X.XXX.X..X.."}, {'Q', ".X.X.XX.XXX..XX"}, {'R', "XX.X.XXX.X.XX.X"},
    {'S', ".XXX...X...XXX."}, {'T', "XXX.X..X..X..X."}, {'U', "X.XX.XX.XX.XXXX"},
    {'V', "X.XX.XX.XX.X.X."}, {'W', "X.XX.XXXXXXXX.X"}, {'X', "X.XX.X.X.X.XX.X"},
    {'Y', "X.XX.X.X..X..X."}, {'Z', "XXX..X.X.X..XXX"}, {'0', "XXXX.XX.XX.XXXX"},
    {'1', ".X.XX..X..X.XXX"}, {'2', "XX...X.X.X..XXX"}, {'3', "XX...X.X...XXX."},
    {'4', "X.XX.XXXX..X..X"}, {'5', "XXXX..XX...XXX."}, {'6', ".XXX..XXXX.XXXX"},
    {'7', "XXX..X.X..X..X."}, {'8', "XXXX.XXXXX.XXXX"}, {'9', "XXXX.XXXX..XXX."},
    {'-', "......XXX......"}, {':', "....X.....X...."}, {'.', ".............X."},
    {',', "..........X.X.."}, {'(', ".X.X..X..X...X."}, {')', ".X...X..X..X.X."},
    {'=', "...XXX...XXX..."}, {'/', "..X..X.X.X..X.."}, {'?', "XX...X.X.....X."},
    {'!', ".X..X..X.....X."}, {'_', "............XXX"},
};

const Glyph* glyph(char c) {
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    for (const Glyph& g : kFont)
        if (g.c == c) return &g;
    return nullptr; // drawn as a space
}

uint32_t text_width(std::string_view text, uint32_t scale) {
    return text.empty() ? 0 : (uint32_t(text.size()) * kAdvance - 1) * scale;
}

// Draws `text` with its top-left corner at (x, y), clipped to the page.
void draw_text(texm::Image& page, uint32_t x, uint32_t y, std::string_view text, uint32_t scale,
               uint8_t grey) {
    for (const char c : text) {
        if (const Glyph* g = glyph(c))
            for (uint32_t row = 0; row < kGlyphHeight; ++row)
                for (uint32_t col = 0; col < kGlyphWidth; ++col) {
                    if (g->rows[row * kGlyphWidth + col] != 'X') continue;
                    for (uint32_t dy = 0; dy < scale; ++dy)
                        for (uint32_t dx = 0; dx < scale; ++dx) {
                            const uint32_t px = x + col * scale + dx, py = y + row * scale + dy;
                            if (px >= page.width || py >= page.height) continue;
                            uint8_t* p = page.at(px, py);
                            p[0] = p[1] = p[2] = grey, p[3] = 255;
                        }
                }
        x += kAdvance * scale;
    }
}

// ---- the page ----------------------------------------------------------------------------------

constexpr uint8_t kBackground = 40, kInk = 235;
// The instructions at the top of every page, drawn at twice the glyph size.
constexpr std::string_view kInstructions[] = {
    "LEFT: BGR (THE DEFAULT)   RIGHT: RGB (RED AND BLUE SWAPPED)",
    "NATURAL COLOURS ON THE RIGHT? PASS --READING TEXM-RGB=RGB",
};
constexpr uint32_t kInstructionScale = 2, kInstructionPitch = 12;
// The first row of cells starts below the instructions; a cell's labels sit in the spacing above
// it.
constexpr uint32_t kTop = 48, kLabelAbove = kGlyphHeight + 2;
constexpr std::string_view kLeftLabel = "BGR", kRightLabel = "RGB";

uint32_t instructions_width() {
    uint32_t w = 0;
    for (std::string_view line : kInstructions)
        w = std::max(w, text_width(line, kInstructionScale));
    return w + 2 * kSheetSpacing;
}

std::string html_escaped(std::string_view s) {
    std::string out;
    for (const char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

void add_text(OwnedFiles& files, const fs::path& path, const std::string& text) {
    files.emplace_back(path, Bytes(text.begin(), text.end()));
}

} // namespace

SheetOutcome add_sheet(OwnedFiles& files, const fs::path& dir,
                       const std::vector<SheetTexture>& items, uint32_t gap) {
    struct Place {
        size_t page;
        uint32_t x, y;
    };
    const uint32_t label = text_width(kLeftLabel, 1);
    // A half narrower than its label keeps the label's width, so the two labels never overlap.
    auto slot_width = [&](const SheetTexture& t) { return 2 * std::max(t.bgr.width, label) + gap; };
    std::vector<Place> places;
    std::vector<std::pair<uint32_t, uint32_t>> extent; // per page: used width, height
    uint32_t x = kSheetSpacing, y = kTop, row = 0;
    for (const SheetTexture& t : items) {
        const uint32_t w = slot_width(t), h = t.bgr.height;
        if (extent.empty()) extent.push_back({instructions_width(), 0});
        if (x + w + kSheetSpacing > kSheetPage)
            x = kSheetSpacing, y += row + kSheetSpacing, row = 0;
        if (y + h + kSheetSpacing > kSheetPage)
            extent.push_back({instructions_width(), 0}), x = kSheetSpacing, y = kTop, row = 0;
        places.push_back({extent.size() - 1, x, y});
        extent.back().first = std::max(extent.back().first, x + w + kSheetSpacing);
        extent.back().second = std::max(extent.back().second, y + h + kSheetSpacing);
        x += w + kSheetSpacing;
        row = std::max(row, h);
    }
    auto page_name = [](size_t p) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "sheet-%03zu.png", p + 1);
        return std::string(buf);
    };
    for (size_t p = 0; p < extent.size(); ++p) {
        texm::Image page(extent[p].first, extent[p].second);
        for (size_t i = 0; i < page.rgba.size(); i += 4)
            page.rgba[i] = page.rgba[i + 1] = page.rgba[i + 2] = kBackground,
            page.rgba[i + 3] = 255;
        for (size_t line = 0; line < std::size(kInstructions); ++line)
            draw_text(page, kSheetSpacing, 8 + uint32_t(line) * kInstructionPitch,
                      kInstructions[line], kInstructionScale, kInk);
        for (size_t i = 0; i < items.size(); ++i) {
            if (places[i].page != p) continue;
            const texm::Image& img = items[i].bgr;
            const uint32_t right_x = places[i].x + std::max(img.width, label) + gap;
            for (uint32_t yy = 0; yy < img.height; ++yy)
                for (uint32_t xx = 0; xx < img.width; ++xx) {
                    const uint8_t* s = img.at(xx, yy);
                    uint8_t* left = page.at(places[i].x + xx, places[i].y + yy);
                    uint8_t* right = page.at(right_x + xx, places[i].y + yy);
                    std::copy(s, s + 4, left);
                    right[0] = s[2], right[1] = s[1], right[2] = s[0], right[3] = s[3];
                }
            draw_text(page, places[i].x, places[i].y - kLabelAbove, kLeftLabel, 1, kInk);
            draw_text(page, right_x, places[i].y - kLabelAbove, kRightLabel, 1, kInk);
        }
        files.emplace_back(dir / page_name(p), png::encode_rgba(page));
    }

    std::string index =
        "# mshconv survey contact sheet: each cell is one texture's level 0 twice, " +
        std::to_string(gap) +
        " px apart: one half decoded B,G,R (texm-rgb=bgr, the default; labelled BGR), the other "
        "R,G,B (texm-rgb=rgb; labelled RGB).\n# Pick the half whose colours look right: `mshconv "
        "... --reading texm-rgb=rgb` if it is the rgb one. index.html shows the pages with a "
        "caption per cell.\n# page\tx\ty\twidth\theight\tformat\tstored_size\tbgr_half\t"
        "texture\n";
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>mshconv survey: contact sheet (texm-rgb)</title>\n<style>\n"
        "body { background: #282828; color: #ddd; font-family: sans-serif; margin: 1em 2em; }\n"
        "img { display: block; margin: 0.5em 0; image-rendering: pixelated; }\n"
        "td, th { padding: 0.1em 0.8em; text-align: left; }\n"
        "</style>\n</head>\n<body>\n<h1>Contact sheet: which way round are the colours?</h1>\n"
        "<p>Every cell shows one texture twice. The left half, labelled <b>BGR</b>, is how "
        "mshconv reads it by default (<code>texm-rgb=bgr</code>: the bytes are blue, green, "
        "red). The right half, labelled <b>RGB</b>, is the same texture with red and blue "
        "swapped (<code>texm-rgb=rgb</code>).</p>\n"
        "<p>Look at things whose colour you know: skin, sky, fire, rust, grass, warning "
        "stripes. If the left halves look natural, the default fits and there is nothing to "
        "pass. If the right halves do, convert with <code>--reading texm-rgb=rgb</code>.</p>\n";
    for (size_t p = 0; p < extent.size(); ++p) {
        const std::string name = page_name(p);
        html += "<h2>" + name + "</h2>\n<img src=\"" + name + "\" width=\"" +
                std::to_string(extent[p].first) + "\" height=\"" +
                std::to_string(extent[p].second) + "\" alt=\"" + name + "\">\n" +
                "<table>\n<tr><th>cell at x, y</th><th>texture</th><th>format</th>"
                "<th>stored size</th><th>shows</th></tr>\n";
        for (size_t i = 0; i < items.size(); ++i) {
            if (places[i].page != p) continue;
            const SheetTexture& t = items[i];
            const std::string size = std::to_string(t.width) + "x" + std::to_string(t.height);
            html += "<tr><td>" + std::to_string(places[i].x) + ", " + std::to_string(places[i].y) +
                    "</td><td>" + html_escaped(t.where) + "</td><td>" +
                    (t.format == 0 ? "paletted" : std::to_string(t.format)) + "</td><td>" + size +
                    "</td><td>left BGR: texm-rgb=bgr (the default), right RGB: texm-rgb=rgb; "
                    "which half has natural colours?</td></tr>\n";
        }
        html += "</table>\n";
    }
    html += "</body>\n</html>\n";
    for (size_t i = 0; i < items.size(); ++i) {
        const SheetTexture& t = items[i];
        index += page_name(places[i].page) + "\t" + std::to_string(places[i].x) + "\t" +
                 std::to_string(places[i].y) + "\t" + std::to_string(slot_width(t)) + "\t" +
                 std::to_string(t.bgr.height) + "\t" + std::to_string(t.format) + "\t" +
                 std::to_string(t.width) + "x" + std::to_string(t.height) + "\tleft\t" + t.where +
                 "\n";
    }
    add_text(files, dir / "index.txt", index);
    add_text(files, dir / "index.html", html);
    return {extent.size(), items.size()};
}

} // namespace msh::conversion::survey
