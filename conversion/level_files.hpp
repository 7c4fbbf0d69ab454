// A level's files in the game folder (docs/formats/level.md §1, §3.1): the folder above a mission
// that holds objects.rlb, the game's backslashed relative paths found case-insensitively, and what
// each placed object's reference leads to: a registry key to its model (scenery), a unit .dat to
// its tree of parts, each part to its model.
#pragma once

#include <mshconv/io.hpp>

#include "formats/mission.hpp"
#include "formats/object_registry.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace msh::conversion {

// `relative` (backslashes or slashes, any case) below `root`, each part matched
// case-insensitively through `io`.
std::optional<std::filesystem::path>
find_path_ci(mshconv::Io& io, const std::filesystem::path& root, const std::string& relative);
// The nearest folder at or above `file`'s holding objects.rlb (any case).
std::optional<std::filesystem::path> find_game_folder(mshconv::Io& io,
                                                      const std::filesystem::path& file);

// One part of a placed object: the model its record leads to, and where it hangs.
struct PartRef {
    registry::ModelRef model;
    int parent = -1; // the parent part (-1: the root)
    int attach = -1; // the node of the parent's model
    uint32_t part_class = 0;
    std::string record, description;
};
struct ObjectRefs {
    std::vector<PartRef> parts; // empty when it does not resolve
    std::string problem;        // why not
};
// A scenery key through the registry; a building's or unit's .dat (read tolerantly) and each of its
// components through the registry. Never throws for a reference that does not resolve.
ObjectRefs resolve_object(mshconv::Io& io, const std::filesystem::path& root,
                          const registry::Registry& registry, const mission::PlacedObject& object);
// The parts of a unit .dat (already read) through the registry.
ObjectRefs resolve_assembly(const std::vector<uint8_t>& dat, const std::string& where,
                            const registry::Registry& registry);
// "" when the model `ref` names is there (its archive below `root`, the member in it), else why.
std::string missing_model(mshconv::Io& io, const std::filesystem::path& root,
                          const registry::ModelRef& ref);

} // namespace msh::conversion
