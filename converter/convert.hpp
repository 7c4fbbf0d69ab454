// `mshconv convert IN OUT`: the direction comes from the input's content and the output's
// extension; each direction lives in its own file.
#pragma once

#include "address.hpp"
#include "options.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>

namespace msh::cli {

// MSH model -> .gltf / .glb / .obj (+ sidecar). export_model.cpp
int export_model(const Loaded& in, const std::filesystem::path& out, const po::variables_map& vm);
// .gltf / .glb / .obj (+ sidecar) -> MSH model, standalone or into an archive entry.
// import_model.cpp
int import_model(const Address& in, const std::string& out_spec, const po::variables_map& vm);

// Texm texture -> PNG (+ NAME.sidecar.json, --mips: every level). convert_texture.cpp
int export_texture(const Loaded& in, const std::filesystem::path& out_png,
                   const po::variables_map& vm);
// PNG (+ sidecar) -> Texm: an existing archive entry (Textures.lib:NAME.0) or a .texm file.
int import_texture(const std::filesystem::path& png, const std::string& out_spec,
                   const po::variables_map& vm);
// A payload that starts with the Texm magic and a whole header.
bool is_texm(ByteView bytes);

std::string lower_ascii(std::string s);

// ---- Terrain export (export_terrain.cpp) ----
// True for an NRes image with terrain face records (type 21) and positions (type 3): Land.msh.
bool is_terrain(ByteView bytes);
// Land.msh (+ Land.map, Land1/2.wea found beside it or via --map/--wear1/--wear2) -> .gltf / .glb
// / .obj (+ sidecar, kind "terrain").
int export_terrain(const Loaded& in, const std::filesystem::path& out, const po::variables_map& vm);

// ---- Terrain import (import_terrain.cpp) ----
// The sidecar of `input` (IN_STEM.sidecar.json or --sidecar), parsed once for the import
// (sidecar::parse_for_import), when it says "kind": "terrain"; nullopt otherwise.
std::optional<nlohmann::json> terrain_sidecar_doc(const std::filesystem::path& input,
                                                  const po::variables_map& vm);
// .gltf / .glb / .obj (+ terrain sidecar) -> OUT.msh and, beside it, OUT.map.
int import_terrain(const Address& in, const std::string& out_spec, const po::variables_map& vm,
                   nlohmann::json sidecar_doc);

} // namespace msh::cli
