// Synthetic game levels (terrain.md §11): DATA/MAPS/<map>/Land.msh, Land.map, Land1.wea and
// Land2.wea shaped like the shipped maps: a tiled height field with hills, a river of water faces
// and flat build areas; two texture layers; node/slot tables; areals that tile the map with mutual
// edge links and the 128 x 128 grid of terrain.md §9. Deterministic for a given seed.
#pragma once

#include "formats/arealmap.hpp"
#include "formats/terrain.hpp"
#include "samples/generator.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace msh::samples {

struct MapSpec {
    std::string name;     // folder under DATA/MAPS
    double side = 1190.7; // square side, units
    int vertices = 3000;  // targets (the tile mix gets within a tile's worth)
    int faces = 3200;
    int areals = 340;
    int slots_x = 8, slots_y = 8; // Res2 slot grid
    double z_max = 95;            // highest hill top
    double layer2 = 0.15;         // fraction of faces with a second texture layer
};

// The normal set (six maps with the corpus figures of terrain.md §11) and, with include_stress,
// stress_map_spec() last.
std::vector<MapSpec> map_specs(bool include_stress);

// The stress map `SynStress`: as many faces as a Land.msh can hold (terrain.md §2, §4: vertex
// indices, neighbour faces, slot face ranges and type-11 keys are all u16, 0xFFFF = no
// neighbour, so at most 65,535 faces and 65,536 vertices), at the largest shipped map side.
MapSpec stress_map_spec();

struct GeneratedMap {
    MapSpec spec;
    terrain::Terrain terrain;                // container built (init_container)
    arealmap::ArealMap areal_map;            // container built
    std::vector<std::string> layer1, layer2; // Land1.wea / Land2.wea rows
    Bytes land_msh, land_map, land1_wea, land2_wea;
};

GeneratedMap build_map(const MapSpec& spec, uint64_t seed);

// Four files per map under DATA/MAPS/<map>/.
std::vector<GeneratedFile> generate_maps(uint64_t seed, bool include_stress);
std::vector<GeneratedFile> generate_map(const MapSpec& spec, uint64_t seed);

// WEAR text: "<count>\r\n" then "<legacyId> <NAME>\r\n" rows.
Bytes wear_text(const std::vector<std::string>& names);

} // namespace msh::samples
