// WEAR material list (texm-materials.md §11), the minimal part: material rows (legacy id + name)
// and the optional LIGHTMAPS rows. Strict about the counts; keeps nothing else yet.
#pragma once

#include "bytes.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace msh::wear {

struct Row {
    int32_t legacy_id = 0;
    std::string name; // single token, CP1251 bytes as stored
};

struct Wear {
    std::vector<Row> materials; // row r = Res13 material index r
    std::vector<Row> lightmaps;
};

// Throws FormatError (resource `where`, byte offset) on a bad count, a short list or a bad row.
Wear read(ByteView bytes, const std::string& where);

// Names of the material rows, in row order.
std::vector<std::string> material_names(const Wear& w);

} // namespace msh::wear
