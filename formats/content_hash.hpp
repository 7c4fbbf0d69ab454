// A fast 64-bit hash of bytes for change detection (incremental keys, preview metadata, the
// payload hash sidecars record): XXH3 from xxHash (Debian libxxhash-dev).
#pragma once

#include "bytes.hpp"

#include <cstdint>
#include <span>

namespace msh {

uint64_t content_hash(ByteView bytes);
// The hash of the pieces' bytes one after another: content_hash of the joined bytes.
uint64_t content_hash(std::span<const ByteView> pieces);

} // namespace msh
