// The synthetic corpus (issue 2): archives shaped like the game's, written from the spec.
// Deterministic for a given seed.
#pragma once

#include "formats/bytes.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace msh::samples {

struct GeneratedFile {
    std::string relative_path; // e.g. "static.rlb"
    Bytes bytes;
};

struct Options {
    uint64_t seed = 1998;
    // 0: the standard corpus (64 models, 6 maps, 6 missions with parts.rlb's 10 part models).
    // Otherwise about `scale` x the shipped game (1: ~950 models in 13 archives, 1,150 textures,
    // 65 maps, 29 missions with 864 objects; samples/game_scale.hpp, samples/levels_gen.hpp).
    double scale = 0;
};

// Every archive of the corpus, in memory.
std::vector<GeneratedFile> generate_corpus(const Options& options);

// Writes generate_corpus() below `out_dir` (atomic per file). Returns the files written.
std::vector<std::filesystem::path> write_corpus(const std::filesystem::path& out_dir,
                                                const Options& options);

} // namespace msh::samples
