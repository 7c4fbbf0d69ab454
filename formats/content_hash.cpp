#include "content_hash.hpp"

// Header-only use: the functions are compiled here, no library to link.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace msh {

uint64_t content_hash(ByteView bytes) {
    return XXH3_64bits(bytes.data(), bytes.size());
}

} // namespace msh
