// Decoded pixels on the scene floor: the texture formats decode into them (texm::Image is this
// type), the scene's images carry them, and the previews draw them.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace msh::scene {

// An RGBA8 image, rows top first, 4 bytes per pixel R, G, B, A.
struct Pixels {
    uint32_t width = 0;
    uint32_t height = 0;
    std::vector<uint8_t> rgba;

    Pixels() = default;
    Pixels(uint32_t w, uint32_t h) : width(w), height(h), rgba(size_t(w) * h * 4, 0) {}
    uint8_t* at(uint32_t x, uint32_t y) { return rgba.data() + (size_t(y) * width + x) * 4; }
    const uint8_t* at(uint32_t x, uint32_t y) const {
        return rgba.data() + (size_t(y) * width + x) * 4;
    }
    std::array<uint8_t, 4> pixel(uint32_t x, uint32_t y) const {
        const uint8_t* p = at(x, y);
        return {p[0], p[1], p[2], p[3]};
    }
    bool operator==(const Pixels&) const = default;
};

} // namespace msh::scene
