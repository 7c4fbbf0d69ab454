// Scene -> Wavefront OBJ + MTL. OBJ has no hierarchy: every node's rest-pose world transform is
// baked into its positions and normals. One `o` per mesh node, one `g` + `usemtl` per primitive
// (`g <object>.batch<k>` keeps the batch identity), `vt u 1-v`, shortest round-trip floats.
#pragma once

#include "scene/scene.hpp"

#include <string>
#include <vector>

namespace msh::obj {

struct Files {
    std::string obj;
    std::string mtl;
    std::vector<scene::ImageFile> images; // `<image_prefix><image>.png` beside the OBJ
};

// `mtl_name` is referenced by `mtllib` (the MTL's file name beside the OBJ). A material with a
// base-colour image gets `map_Kd <image_prefix><image>.png`.
Files write(const scene::Scene& scene, const std::string& mtl_name,
            const std::string& image_prefix = {});

// Reads OBJ text into the scene: one root node per `o` (positions as written: world space), one
// primitive per `g`/`usemtl` run, its vertices the distinct (v, vt, vn) triples it uses ordered by
// v index; `vt` v is flipped back; polygons are fanned into triangles. Throws FormatError naming
// `where` and the line on bad input.
scene::Scene read(const std::string& text, const std::string& where);

// The name as the writer prints it after `o`, `g` and `usemtl`: one token (whitespace becomes
// '_', an empty name "unnamed").
std::string name_token(const std::string& name);

} // namespace msh::obj
