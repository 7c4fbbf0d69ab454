// Models in the formats Assimp 5.2 reads (FBX, COLLADA, 3DS, PLY, STL, DirectX .x, B3D, LightWave,
// MD2/MD3, ...) -> the neutral scene, by the rules of the glTF reader: nodes rigid with scale and
// shear baked (scene/bake_scale), triangles only (points and lines counted in a warning), UVs in
// the glTF convention, materials by name, bones as a skin, every animation. Post-processing is
// chosen so nothing is lost silently: polygons triangulated, no vertex welding (it would merge
// across UV seams), no degenerate-face removal. glTF/GLB/OBJ keep their own readers.
#pragma once

#include "diagnostics.hpp"
#include "scene/scene.hpp"

#include <filesystem>
#include <string>

namespace msh::assimp_read {

// Whether `file_name`'s extension is one Assimp reads and not one mshconv reads itself (game
// formats, glTF, OBJ, PNG).
bool handles(const std::string& file_name);

// Throws FormatError naming the file with Assimp's message when it cannot read it.
scene::Scene read(const std::filesystem::path& file, DiagnosticSink& diagnostics);

} // namespace msh::assimp_read
