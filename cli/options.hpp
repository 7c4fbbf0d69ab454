// The commands' option parsing (Boost.Program_options) in the user's words: usage errors name
// options as the synopsis spells them (`-o`, IN, OUT), never Boost's keys, and a mistyped option
// or command is answered with the closest known ones.
#pragma once

#include "commands.hpp"

#include <boost/program_options.hpp>

#include <string>
#include <vector>

namespace msh::cli {

namespace po = boost::program_options;

// A positional argument: the key its value is stored under and its name in the synopsis.
struct Positional {
    std::string key;
    std::string shown; // IN, OUT, DIR, ...
    bool many = false; // IN...: every remaining argument
    bool required = true;
};

// Parses `args`: `desc` holds the options --help lists (--help itself is added), `hidden` those
// accepted without being listed (older spellings). `usage` is the synopsis after "mshconv " (one
// line per form); the help prints it before the options. Returns false when --help was given.
// Throws UsageError on a mistake, with the user's spelling of the option it concerns.
bool parse_options(const Args& args, const std::string& usage, po::options_description& desc,
                   const std::vector<Positional>& positionals, po::variables_map& vm,
                   const po::options_description& hidden = po::options_description());

// The known words closest to `typed` by edit distance (case-insensitive), at most three; or those
// it begins when none is close. Empty when nothing is near.
std::vector<std::string> closest_words(const std::string& typed,
                                       const std::vector<std::string>& known);
// "; did you mean 'a'?" / "; did you mean 'a' or 'b'?"; empty when `words` is.
std::string did_you_mean(const std::vector<std::string>& words);

} // namespace msh::cli
