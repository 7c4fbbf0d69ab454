#include "content_hash.hpp"

// Header-only use: the functions are compiled here, no library to link.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace msh {

uint64_t content_hash(ByteView bytes) {
    return XXH3_64bits(bytes.data(), bytes.size());
}

uint64_t content_hash(std::span<const ByteView> pieces) {
    if (pieces.size() == 1) return content_hash(pieces[0]);
    XXH3_state_t state;
    XXH3_64bits_reset(&state);
    for (const ByteView p : pieces) XXH3_64bits_update(&state, p.data(), p.size());
    return XXH3_64bits_digest(&state);
}

} // namespace msh
