// batch, reverse (to nres): every folder below the inputs that holds `_nres.json` rebuilt into
// its archive, converted entries imported from their PNG/glTF/OBJ + sidecar; a whole-tree mirror
// (batch_mirror.hpp) back into the tree it came from.
#pragma once

#include "batch.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace msh::conversion {

// One Result per archive or mirrored file (and per failed entry); throws UsageError on inputs
// that are not batch output folders. Only the run's shard of the mirror's files or of the
// unpacked archives.
void convert_backward(BatchRun& run, const std::vector<std::string>& inputs,
                      const std::filesystem::path& out);

} // namespace msh::conversion
