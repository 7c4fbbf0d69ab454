// Wavefront MTL, the part a model's look needs: each `newmtl` with its diffuse colour (`Kd`),
// dissolve (`d`, or `Tr` = 1 - d) and diffuse texture (`map_Kd`, options skipped). Read through
// the OBJ text level (formats/obj.hpp), so line continuation, BOM and encoding rules are the same.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msh::mtl {

struct Material {
    std::string name;
    std::optional<std::array<float, 3>> diffuse; // Kd
    float dissolve = 1;                          // d (1 = opaque)
    std::string diffuse_map;                     // map_Kd file name as written ("" = none)
};

// Throws FormatError naming `where` and the line on a statement it cannot read (a Kd that is not
// three numbers, a map_Kd without a file name); unknown statements are skipped.
std::vector<Material> read(std::string_view text, const std::string& where);

} // namespace msh::mtl
