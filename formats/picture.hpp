// Images in the encodings foreign models carry (PNG through formats/png; JPEG, BMP, GIF, PSD,
// HDR through stb_image), decoded to RGBA8, and resampling to the sizes the game loads
// (stb_image_resize). For textures that come from outside the game: a new model's images.
#pragma once

#include "bytes.hpp"
#include "png.hpp"
#include "texm.hpp"

#include <string>

namespace msh::picture {

// "PNG", "JPEG", "BMP", ... from the leading bytes, or "" when none is recognised.
std::string encoding_of(ByteView bytes);

// RGBA8 pixels. Throws FormatError naming `where` on bytes no decoder reads, and before any pixel
// is allocated when the image is over `max_pixels`.
texm::Image decode(ByteView bytes, const std::string& where,
                   uint64_t max_pixels = png::kDefaultMaxPixels);

// A filtered resample (Mitchell for shrinking, Catmull-Rom for enlarging) in linear light for
// colour, alpha kept straight.
texm::Image resize(const texm::Image& img, uint32_t width, uint32_t height);

} // namespace msh::picture
