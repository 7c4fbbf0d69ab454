#include "samples/game_scale.hpp"

#include "samples/rng.hpp"

#include <cmath>
#include <cstdio>

namespace msh::samples {

namespace {

// Both parts of the game: 435 + ~515 models, 518 + 631 Texm, 33 + 32 maps.
constexpr CorpusSize kGame{950, 1150, 65};

struct UiLibrary {
    const char* file;
    int share; // textures per part (texm-materials.md §13)
};
constexpr UiLibrary kUiLibraries[] = {
    {"ui/minimap.lib", 53}, {"ui/ui.lib", 15}, {"ui/ui_back.lib", 32}, {"ui/ui_factory.lib", 6}};

} // namespace

CorpusSize game_size(double scale, const CorpusSize& standard) {
    auto scaled = [&](int game, int least) {
        return std::max(least, int(std::lround(game * scale)));
    };
    return {scaled(kGame.models, standard.models), scaled(kGame.textures, standard.textures),
            scaled(kGame.maps, standard.maps)};
}

std::vector<TextureSpec> extra_texture_specs(uint64_t seed, int count) {
    Rng rng(seed, "game-scale textures");
    int ui_total = 0;
    for (const UiLibrary& u : kUiLibraries) ui_total += u.share;
    std::vector<TextureSpec> specs;
    for (int i = 0; i < count; ++i) {
        // One in ~5.4 textures of the game lives in a UI library (2 x 106 of 1,150).
        std::string library = kTexturesLib;
        if (rng.range(0, 1149) < 2 * ui_total) {
            int pick = rng.range(0, ui_total - 1);
            for (const UiLibrary& u : kUiLibraries)
                if ((pick -= u.share) < 0) {
                    library = u.file;
                    break;
                }
        }
        char name[24];
        std::snprintf(name, sizeof name, "G%04d.0", i);
        TextureSpec s = random_texture_spec(rng, name);
        s.library = library;
        specs.push_back(std::move(s));
    }
    return specs;
}

std::vector<MapSpec> extra_map_specs(uint64_t seed, int first, int count) {
    std::vector<MapSpec> specs;
    for (int i = first; i < first + count; ++i) {
        char name[16];
        std::snprintf(name, sizeof name, "Syn%02d", i);
        Rng rng(seed, std::string("game-scale map ") + name);
        MapSpec s;
        s.name = name;
        s.side = rng.uniform(800, 2490);
        s.vertices = rng.range(3000, 11000);
        s.faces = int(s.vertices * rng.uniform(0.83, 1.04)); // terrain.md §11
        s.areals = rng.range(300, 1000);
        s.slots_x = rng.chance(0.5) ? 16 : 8;
        s.slots_y = 8;
        s.z_max = rng.uniform(90, 290);
        s.layer2 = rng.uniform(0.08, 0.3);
        specs.push_back(std::move(s));
    }
    return specs;
}

const std::vector<std::string>& extra_model_archives() {
    static const std::vector<std::string> names = {"build.rlb",  "robots.rlb",  "vehicle.rlb",
                                                   "plants.rlb", "effects.rlb", "intsys.rlb"};
    return names;
}

} // namespace msh::samples
