// A new model's look, added to the game (texm-materials.md §12): its WEAR (one row per scene
// material, row r = the batches' materialIndex r), one MAT0 per material in Material.lib and one
// Texm per image in Textures.lib, so that `static.rlb:NEW.msh` renders textured in the game and
// exports textured again. In memory: the caller writes the results as one set.
//
// Rules (README "New models in the game's libraries"):
// - Material names: the scene's, reduced to one token of [A-Za-z0-9_.-] (<= 31 bytes; an unnamed
//   material is `<MODEL>_MAT<i>`). A MAT0 of that name already in Material.lib is kept (the WEAR
//   then names it, and its textures are not added) unless `replace`.
// - Texture names: `<NAME>.0` (upper case, <= 13 characters before the dot: MAT0 holds 15 bytes
//   and ".0" selects no external palette). A Texm of that name with other pixels is never
//   overwritten unless it belonged to the material being replaced: the new one takes a free name
//   (`NAME_2.0`, ...). Identical payloads are shared.
// - Pixels: base colour image x baseColorFactor (a material without image: an 8 x 8 texture of
//   its colour), resized to powers of two no larger than `max_size` (the game's textures are
//   8..256 px), 565 without alpha, 8888 with it (`format` forces one), full mip chain.
// - MAT0: version 6, one phase naming the texture, one looping animation block with one key (as
//   every shipped version-6 material has); the phase parameters are those of the library's
//   DEFAULT material (their colour semantics are unverified), else the neutral set in the .cpp.
#pragma once

#include "formats/bytes.hpp"
#include "formats/nres.hpp"
#include "formats/texm.hpp"
#include "scene/scene.hpp"

#include <optional>
#include <string>
#include <vector>

namespace msh::conversion {

struct LibraryAddSettings {
    std::string model_stem;             // the model's name without extension (unnamed materials)
    std::optional<texm::Format> format; // --format: every new texture in this format
    uint32_t max_size = 256;            // --max-texture-size: a larger side is resized down
    bool replace = false;               // --replace: overwrite materials of the same name
    std::string where;                  // the input, for messages
};

// The libraries as they are (nullopt: none yet; a new archive is written) and their names.
struct GameLibraries {
    std::optional<nres::Archive> materials, textures;
    std::string materials_name = "Material.lib", textures_name = "Textures.lib";
};

struct LibraryAddition {
    Bytes wear;                                     // the model's WEAR text (CRLF)
    std::optional<Bytes> materials, textures;       // the new library images (nullopt: unchanged)
    std::vector<std::string> added, kept, replaced; // "Material.lib:NAME" / "Textures.lib:NAME.0"
    std::vector<std::string> warnings;
};

// Throws FormatError naming settings.where for an image no decoder reads.
LibraryAddition add_to_game_libraries(const scene::Scene& scene, const GameLibraries& libraries,
                                      const LibraryAddSettings& settings);

// A fresh archive entry for `archive`: `type` and `name`, the attributes of the first entry of
// that type already there (nres.md §4.3: a new entry of an undocumented type copies a comparable
// one), else `fallback` (attr1, attr2, attr3).
nres::Entry new_entry_like(const nres::Archive* archive, uint32_t type, const std::string& name,
                           Bytes data, const std::array<uint32_t, 3>& fallback = {0, 0, 0});

} // namespace msh::conversion
