// What `info` reports: a JSON description of an archive or a model.
#pragma once

#include "formats/arealmap.hpp"
#include "formats/msh.hpp"
#include "formats/terrain.hpp"

#include <nlohmann/json.hpp>

namespace msh::conversion {

nlohmann::json summarize_model(const Model& model);
// A Texm payload (texm-materials.md §2-§5): format, size, mip levels, header flags, palette, Page
// rects, and `name`'s external palette (§9). Read tolerantly: damage shows as "diagnostics".
nlohmann::json summarize_texture(ByteView payload, const std::string& name,
                                 const std::string& where);
// Archive entries; nested models get a "model" summary (read tolerantly so info works on damage).
// Land.msh: faces, vertices, slots, materials of both layers, the extent.
nlohmann::json summarize_terrain(const terrain::Terrain& terrain);
// Land.map: areals by class, polygon vertices, grid size and occupancy.
nlohmann::json summarize_areal_map(const arealmap::ArealMap& map);
nlohmann::json summarize_archive(const nres::Archive& archive, const std::string& where);
std::string type_label(uint32_t type); // FourCC text when printable, else the number

} // namespace msh::conversion
