// What a game file holds and whether it is sound, as `mshconv info` and `mshconv validate` report
// it: an archive (its entries, nested models and textures summarised), a model, a Land.msh, a
// Land.map, a Texm texture or a WEAR table, as a file or an ARCHIVE:ENTRY. Public header:
// standard library only.
//
//   const mshconv::Validation v = mshconv::validate({"static.rlb"}, io);
//   if (!v.valid) for (const auto& f : v.findings) std::puts(f.text.c_str());
#pragma once

#include <mshconv/io.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mshconv {

struct Info {
    std::string kind; // archive, model, terrain, areal_map, texture, wear
    std::string file; // the input's address
    std::size_t size = 0;
    std::string json; // the description `mshconv info --json` prints (docs/cli.md#info)
};

// Read tolerantly, so that a damaged file is described as far as it can be; throws
// std::runtime_error when the input is none of these kinds or cannot be read.
Info info(const std::string& input, Io& io = disk());

struct ValidateRequest {
    std::string input;   // a path or ARCHIVE:ENTRY
    bool strict = false; // every violated invariant of the spec is an error, not a warning
};

// One finding: what is wrong, in which resource, at which byte.
struct Finding {
    bool error = false; // else a warning
    std::string resource;
    uint64_t offset = 0;
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
    std::string json;                              // what `mshconv validate --json` prints
};

// Every reader over the input and what it contains (nested archives, models, textures, MAT0,
// WEAR); damage is a finding, not an exception. Throws std::runtime_error when it cannot be read.
Validation validate(const ValidateRequest& request, Io& io = disk());

} // namespace mshconv
