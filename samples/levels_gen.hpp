// Synthetic levels (docs/formats/level.md): what a mission needs beside its map, shaped like the
// shipped files.
//
// - `parts.rlb`: the unit part models (chassis, turrets, guns, armour, an engine, a clip) with
//   `Base_*` socket nodes, a hangar whose Res17 hall-way graph houses units, and a bridge half.
// - `objects.rlb`: the prototype registry. Scenery records (STAT, 6 slots) naming static.rlb
//   members under keys that differ from the mesh names, part records naming parts.rlb members,
//   building prototypes, and FORT records (2 slots) that name no model but a parent record. Some
//   slots keep bytes after their NUL, as buffers reused by the game's tools left them.
// - `UNITS/**/*.dat`: building and unit assemblies (component trees whose attach indices are
//   socket nodes of the parent's model).
// - `MISSIONS/<dir>/data.tma` with `descr` and `mission.cfg`: routes, clans, placed objects on the
//   generated maps (origins on the ground, bridge halves meeting, units housed in the hangar),
//   the map path, the damaged description and mineral lodes.
//
// Choices the evidence leaves open are ours: the registry tags of part records (EXTO chassis and
// turrets, WPNS guns, INTO armour, internals and clips), EXTO for building prototypes, the
// buildings' class words other than the generator's, the property values, the text of `descr`
// and `mission.cfg`. Deterministic for a given seed.
#pragma once

#include "samples/generator.hpp"

#include <string>
#include <vector>

namespace msh::samples {

inline constexpr const char* kPartsArchive = "parts.rlb";
inline constexpr const char* kRegistryFile = "objects.rlb";

// Standard missions and their object count; with Options::scale > 0 the corpus holds
// round(scale x Part 1's 29 missions and 864 placed objects), never fewer than these.
inline constexpr int kStandardMissions = 6;
inline constexpr int kStandardObjects = 150;
inline constexpr int kGameMissions = 29;
inline constexpr int kGameObjects = 864;

// The models parts.rlb holds (they count towards the corpus' models).
int level_model_count();

// parts.rlb, objects.rlb, the unit assemblies and the missions. The missions lie on the maps
// among `corpus` (DATA/MAPS/<map>/Land.msh, read back for the ground height): the standard six on
// SynAuto, SynTut1, SynProl and SynTut2 (which must be there), the extra ones of a scaled corpus
// on every map in turn.
std::vector<GeneratedFile> generate_levels(const Options& options,
                                           const std::vector<GeneratedFile>& corpus);

} // namespace msh::samples
