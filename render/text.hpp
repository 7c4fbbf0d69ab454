// Labels on preview sheets: a built-in 5x7 pixel font (upper case, digits and a little
// punctuation; lower case is drawn as upper case, anything else as a box), scaled by whole
// pixels. Small and fixed, so labels look the same everywhere and need no font file.
#pragma once

#include "formats/texm.hpp"

#include <array>
#include <string>

namespace msh::render {

// Width and height in pixels of `text` at `scale`.
int text_width(const std::string& text, int scale);
int text_height(int scale);

// Draws `text` with its top-left corner at (x, y) on a filled box of `box` (padding `scale`
// pixels), clipped to the image.
void draw_label(texm::Image& image, int x, int y, const std::string& text, int scale,
                std::array<uint8_t, 4> ink, std::array<uint8_t, 4> box);

// Fills a rectangle (clipped).
void fill_rect(texm::Image& image, int x, int y, int w, int h, std::array<uint8_t, 4> colour);

} // namespace msh::render
