// The whole-tree mirror (`batch GAME --to glb,png -o X`, back with `batch X --to nres -o BACK`):
// `X/_batch.json` (schema "mshconv-batch-mirror/1") lists every file of the input tree and what
// stands for it in X — an unpacked archive folder, a converted model, map or texture with its
// sidecar, or a raw copy (archives with nothing to convert, WEAR tables, anything else) — so the
// reverse gives the whole tree back byte for byte. A Land.map converts with its Land.msh
// ("map_part": the terrain import writes it back).
#pragma once

#include "batch.hpp"

#include <cstddef>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace msh::conversion {

constexpr const char* kMirrorFile = "_batch.json";
constexpr const char* kMirrorSchema = "mshconv-batch-mirror/1";

struct MirrorRecord {
    std::string path;    // the input file, relative to its input folder ('/' separators)
    std::string kind;    // archive, model, map, texture, raw, map_part
    std::string output;  // relative to the output folder: the folder, converted file or copy
    std::string sidecar; // model, map, texture: the sidecar beside `output`
    size_t result = std::numeric_limits<size_t>::max(); // its line in the results, if any
};

// Writes OUT/_batch.json (a shard: OUT/_batch.I-of-N.json) with the records whose result
// converted (or that have none).
void write_mirror(mshconv::Io& io, const std::filesystem::path& out,
                  const std::vector<MirrorRecord>& records, const std::vector<Result>& results,
                  const Shard& shard);

// The records of IN/_batch.json and of every IN/_batch.I-of-N.json (the shards of one run);
// nullopt when there is none. Throws FormatError (JSON pointer) on a damaged one.
std::optional<std::vector<MirrorRecord>> read_mirror(mshconv::Io& io,
                                                     const std::filesystem::path& in);

} // namespace msh::conversion
