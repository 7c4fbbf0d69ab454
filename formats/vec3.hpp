// The f32 x, y, z triple every format stores (model and terrain positions, areal vertices).
#pragma once

namespace msh {

struct Vec3 {
    float x = 0, y = 0, z = 0;
};

} // namespace msh
