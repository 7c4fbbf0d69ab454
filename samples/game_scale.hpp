// A corpus at the size of the shipped game (both parts: about 950 models, 1,150 Texm textures and
// 65 maps; msh.md, texm-materials.md §13, terrain.md §11), or a fraction of it, for benchmarks and
// CI: the standard corpus plus more of the same kinds drawn from the spec's figures.
#pragma once

#include "samples/terrain_gen.hpp"
#include "samples/textures_gen.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace msh::samples {

struct CorpusSize {
    int models = 0, textures = 0, maps = 0;
};

// round(scale x the game's figures), never below the standard corpus.
CorpusSize game_size(double scale, const CorpusSize& standard);

// `count` more textures: the game's UI libraries (ui/minimap.lib, ui/ui.lib, ui/ui_back.lib,
// ui/ui_factory.lib in the §13 proportions, about a fifth) and the rest appended to Textures.lib,
// with the §13 format, size, mip and flag mix.
std::vector<TextureSpec> extra_texture_specs(uint64_t seed, int count);

// Maps `first`..`first + count - 1` after the standard six (folders Syn07, Syn08, ...), each drawn
// from the synthetic map recipe of terrain.md §11.
std::vector<MapSpec> extra_map_specs(uint64_t seed, int first, int count);

// The model archives beside the standard six that hold the extra models.
const std::vector<std::string>& extra_model_archives();

} // namespace msh::samples
