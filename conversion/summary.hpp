// What `info` reports, typed (include/mshconv/inspect.hpp): an archive, a model, a texture, a
// Land.msh or a Land.map described; and the JSON form `info --json` prints (info_json.cpp).
#pragma once

#include <mshconv/inspect.hpp>

#include "formats/arealmap.hpp"
#include "formats/assembly.hpp"
#include "formats/mission.hpp"
#include "formats/msh.hpp"
#include "formats/object_registry.hpp"
#include "formats/terrain.hpp"

#include <nlohmann/json.hpp>

namespace msh::conversion {

mshconv::ModelInfo summarize_model(const Model& model);
// A Texm payload (texm-materials.md §2-§5): format, size, mip levels, header flags, palette, Page
// rects, and `name`'s external palette (§9). Read tolerantly: damage shows as `diagnostics`.
mshconv::TextureInfo summarize_texture(ByteView payload, const std::string& name,
                                       const std::string& where);
// Land.msh: faces, vertices, slots, materials of both layers, the extent.
mshconv::TerrainInfo summarize_terrain(const terrain::Terrain& terrain);
// Land.map: areals by class, polygon vertices, grid size and occupancy.
mshconv::ArealMapInfo summarize_areal_map(const arealmap::ArealMap& map);
// data.tma: sections counted, objects by kind, the map path and the description's text.
mshconv::MissionInfo summarize_mission(const mission::Mission& mission);
// A unit .dat: the class word and each part with its parent.
mshconv::AssemblyInfo summarize_assembly(const assembly::Assembly& assembly);
// objects.rlb: records by type, slots, records that lead to no model.
mshconv::RegistryInfo summarize_registry(const registry::Registry& registry);
// Archive entries; nested models are described too (read tolerantly, so info works on damage).
mshconv::ArchiveInfo summarize_archive(const nres::Archive& archive, const std::string& where);
std::string type_label(uint32_t type); // FourCC text when printable, else the number

// The JSON forms (`info --json`, docs/cli.md#info).
nlohmann::json info_json(const mshconv::Info& info);
nlohmann::json texture_json(const mshconv::TextureInfo& texture);
nlohmann::json mission_json(const mshconv::MissionInfo& mission);
nlohmann::json assembly_json(const mshconv::AssemblyInfo& assembly);
nlohmann::json registry_json(const mshconv::RegistryInfo& registry);

} // namespace msh::conversion
