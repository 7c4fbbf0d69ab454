// A fast 64-bit hash of bytes for change detection (incremental keys, preview metadata, the
// payload hash sidecars record): XXH3 from xxHash (Debian libxxhash-dev).
#pragma once

#include "bytes.hpp"

#include <cstdint>

namespace msh {

uint64_t content_hash(ByteView bytes);

} // namespace msh
