// The f32 x, y, z triple every format stores (model and terrain positions, areal vertices).
#pragma once

#include <bit>
#include <cstdint>

namespace msh {

struct Vec3 {
    float x = 0, y = 0, z = 0;
};

// The same three floats bit for bit (NaN payloads, -0.0 against 0.0 told apart).
inline bool same_bits(const Vec3& a, const Vec3& b) {
    return std::bit_cast<uint32_t>(a.x) == std::bit_cast<uint32_t>(b.x) &&
           std::bit_cast<uint32_t>(a.y) == std::bit_cast<uint32_t>(b.y) &&
           std::bit_cast<uint32_t>(a.z) == std::bit_cast<uint32_t>(b.z);
}

} // namespace msh
