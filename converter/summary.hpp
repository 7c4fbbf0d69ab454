// What `info` reports: a JSON description of an archive or a model.
#pragma once

#include "formats/msh.hpp"

#include <nlohmann/json.hpp>

namespace msh::cli {

nlohmann::json summarize_model(const Model& model);
// Archive entries; nested models get a "model" summary (read tolerantly so info works on damage).
nlohmann::json summarize_archive(const nres::Archive& archive, const std::string& where);
std::string type_label(uint32_t type); // FourCC text when printable, else the number

} // namespace msh::cli
