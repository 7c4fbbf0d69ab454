// What a game file holds and whether it is sound, as `mshconv info` and `mshconv validate` report
// it: an archive (its entries, nested models and textures summarised), a model, a Land.msh, a
// Land.map, a Texm texture or a WEAR table, as a file or an ARCHIVE:ENTRY. Public header:
// standard library only.
//
//   const mshconv::Validation v = mshconv::validate({"static.rlb"}, io);
//   if (!v.valid) for (const auto& f : v.findings) std::puts(f.text.c_str());
#pragma once

#include <mshconv/error.hpp>
#include <mshconv/io.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mshconv {

// What an input is, as `info` reads it.
enum class InfoKind { Archive, Model, Terrain, ArealMap, Texture, Wear };
const char* to_string(InfoKind kind); // "archive", "model", "terrain", "areal_map", ...

struct Info {
    InfoKind kind = InfoKind::Archive;
    std::string file; // the input's address
    std::size_t size = 0;
    std::string json; // the description `mshconv info --json` prints (docs/cli.md#info)
};

// Read tolerantly, so that a damaged file is described as far as it can be; throws
// mshconv::Error (error.hpp) when the input is none of these kinds or cannot be read.
Info info(const std::string& input, Io& io = disk());

struct ValidateRequest {
    std::string input;   // a path or ARCHIVE:ENTRY
    bool strict = false; // every violated invariant of the spec is an error, not a warning
};

// One finding: what is wrong, in which resource, where in it.
struct Finding {
    bool error = false; // else a warning
    std::string resource;
    uint64_t offset = 0;                  // bytes into the resource's file or image
    std::optional<uint64_t> line, column; // text formats (WEAR, OBJ), 1-based
    std::optional<std::string> pointer;   // JSON (glTF, sidecars): RFC 6901
    std::string message;
    std::string text; // the whole line as `mshconv validate` prints it
};

struct Validation {
    std::string file; // the input's address
    bool valid = true;
    std::size_t errors = 0, warnings = 0;
    std::vector<Finding> findings;
    // What was read: "models", "archives", "terrains", "areal_maps", "wear_tables", "textures",
    // "materials".
    std::map<std::string, std::size_t> counts;
    std::string sort_fold;                         // the input archive's sort-index fold
    std::map<std::string, std::size_t> sort_folds; // archives by fold, nested ones too
};

// What `mshconv validate --json` prints for `validation` (docs/cli.md#validate).
std::string to_json(const Validation& validation);

// Every reader over the input and what it contains (nested archives, models, textures, MAT0,
// WEAR); damage is a finding, not an exception. Throws mshconv::Error when it cannot be read.
Validation validate(const ValidateRequest& request, Io& io = disk());

} // namespace mshconv
