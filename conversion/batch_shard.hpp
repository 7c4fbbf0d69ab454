// `batch --shard I/N`: a deterministic share of the work for job I of N (a Slurm array task, a
// GNU parallel slot, a CI matrix cell), and `batch --merge-reports` to join their reports. The
// units are whole input files (forward) or mirror records / unpacked archives (reverse); they are
// dealt largest first, each to the share with the fewest bytes so far (ties: the lower index;
// equal sizes: by path), so every job sees the same split and the N shares cover the tree once.
#pragma once

#include <mshconv/batch.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace msh::conversion {

struct Shard {
    size_t index = 1; // 1..count
    size_t count = 1;
    bool whole() const { return count == 1; }
};

// "I/N" with 1 <= I <= N; UsageError otherwise.
Shard parse_shard(const std::string& text);
// A library caller's shard, checked as parse_shard checks.
Shard checked_shard(const mshconv::BatchShard& shard);

struct ShardUnit {
    std::string key; // a stable name (the path)
    uint64_t bytes = 0;
};

// Which of `units` belong to `shard` (same order as `units`).
std::vector<bool> shard_members(const std::vector<ShardUnit>& units, const Shard& shard);

} // namespace msh::conversion
