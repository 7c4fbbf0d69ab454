// A level's files in the game folder (docs/formats/level.md §1, §3.1): the folder above a mission
// that holds objects.rlb, the game's backslashed relative paths found case-insensitively, and what
// each placed object's reference leads to: a registry key to its model (scenery), a unit .dat to
// its tree of parts, each part to its model.
#pragma once

#include <mshconv/io.hpp>

#include "formats/mission.hpp"
#include "formats/object_registry.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <set>
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
// The parts of a unit .dat (already read) through the registry.
ObjectRefs resolve_assembly(const std::vector<uint8_t>& dat, const std::string& where,
                            const registry::Registry& registry);

// A level's references in one game folder, each file read once however many objects name it:
// a scenery key through the registry; a building's or unit's .dat (read tolerantly) and each of
// its parts through the registry; whether the model a part leads to is there.
class LevelReferences {
  public:
    LevelReferences(mshconv::Io& io, std::filesystem::path root, const registry::Registry& registry)
        : io_(io), root_(std::move(root)), registry_(registry) {}
    // Never throws for a reference that does not resolve: `problem` says why.
    ObjectRefs resolve(const mission::PlacedObject& object);
    // "" when the model `ref` names is there (its archive below the root, the member in it).
    std::string missing_model(const registry::ModelRef& ref);
    // resolve(), and every part's model there: "" or why not.
    std::string problem(const mission::PlacedObject& object);

  private:
    mshconv::Io& io_;
    std::filesystem::path root_;
    const registry::Registry& registry_;
    std::map<std::string, ObjectRefs> assemblies_; // by the .dat path, lowered
    std::map<std::string, std::string> archives_;  // archive (lowered) -> why it is unusable
    std::map<std::string, std::set<std::string>> members_; // archive (lowered) -> members
};

} // namespace msh::conversion
