// Animated PNG (APNG, the acTL / fcTL / fdAT chunks every current browser plays) from frames of
// one size: each frame is encoded by libpng (formats/png) and its image data repackaged, so a
// viewer without APNG support still shows the first frame. Debian's libpng has no APNG writer.
#pragma once

#include "bytes.hpp"
#include "png.hpp"
#include "texm.hpp"

#include <vector>

namespace msh::apng {

// Frames shown for delay_num / delay_den seconds each, looping forever. Throws
// std::invalid_argument when there are no frames or their sizes differ.
Bytes encode(const std::vector<texm::Image>& frames, uint16_t delay_num, uint16_t delay_den,
             const png::EncodeOptions& options = {});

} // namespace msh::apng
