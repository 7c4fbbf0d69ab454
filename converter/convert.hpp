// `mshconv convert IN OUT`: the direction comes from the input's content and the output's
// extension; each direction lives in its own file.
#pragma once

#include "address.hpp"
#include "options.hpp"

#include <filesystem>

namespace msh::cli {

// MSH model -> .gltf / .glb / .obj (+ sidecar). export_model.cpp
int export_model(const Loaded& in, const std::filesystem::path& out, const po::variables_map& vm);
// .gltf / .glb / .obj (+ sidecar) -> MSH model, standalone or into an archive entry.
// import_model.cpp
int import_model(const Address& in, const std::string& out_spec, const po::variables_map& vm);

std::string lower_ascii(std::string s);

} // namespace msh::cli
