// A fast 64-bit hash of bytes for change detection (incremental keys, preview metadata):
// XXH3 from xxHash (Debian libxxhash-dev), an order of magnitude faster than the byte-wise
// FNV-1a that sidecars record (sidecar::fnv1a64 stays their format's hash).
#pragma once

#include "bytes.hpp"

#include <cstdint>

namespace msh {

uint64_t content_hash(ByteView bytes);

} // namespace msh
