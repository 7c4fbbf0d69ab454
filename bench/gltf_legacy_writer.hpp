// A glTF writer through tinygltf (Scene -> tinygltf::Model -> tinygltf serialisation), kept for the
// tests as the reference of formats/gltf.cpp's direct writer. Not part of mshcore. When the writer
// learns something new (say a second material texture), teach this reference the same in tinygltf
// terms, or tests/test_gltf_writer.cpp will report the difference.
#pragma once

#include "formats/gltf.hpp"

namespace tinygltf {
class Model;
}

namespace msh::test::legacy_gltf {

// Builds the tinygltf model; `bin_uri` names the external buffer (empty: GLB-embedded buffer).
void to_tinygltf(const scene::Scene& scene, const std::string& bin_uri, tinygltf::Model& out,
                 const gltf::ImageMode& images = {});

// gltf::encode as it was: .glb through tinygltf's binary writer, .gltf re-indented by nlohmann.
gltf::Encoded encode(const scene::Scene& scene, bool binary, const std::string& out_name);

} // namespace msh::test::legacy_gltf
