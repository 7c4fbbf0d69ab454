// Whole-file I/O. Writes are atomic (temp file in the same folder + rename) so a failed run never
// leaves a partial output, and never touch an input path.
#pragma once

#include "bytes.hpp"

#include <filesystem>

namespace msh {

Bytes read_file(const std::filesystem::path& path);
void write_file_atomic(const std::filesystem::path& path, ByteView bytes);

} // namespace msh
