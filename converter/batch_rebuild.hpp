// batch, reverse (--to nres): every folder below the inputs that holds `_nres.json` rebuilt into
// its archive, converted entries imported from their PNG/glTF/OBJ + sidecar.
#pragma once

#include "batch_progress.hpp"
#include "batch_shard.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace msh::cli {

// One Result per archive (and per failed entry); throws UsageError on inputs that are not batch
// output folders.
// `shard`: only this job's share of the mirror's files or of the unpacked archives.
void rebuild_all(const std::vector<std::string>& inputs, const std::filesystem::path& out,
                 const Shard& shard, Progress& progress, std::vector<Result>& results,
                 bool full_read = false);

} // namespace msh::cli
