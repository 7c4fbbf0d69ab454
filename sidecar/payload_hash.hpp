// The hash a sidecar records beside an original payload it carries in base64 (a model image, a
// Texm, Land.msh / Land.map), so that an edited or damaged sidecar is refused rather than
// restored: XXH3-64 as 16 hex digits under "xxh3_64". Older sidecars record
// FNV-1a 64 under "fnv1a64"; a reader still accepts those. FNV-1a is a chain of one multiply per
// byte (about 0.8 GB/s here, 8 % of a game-sized batch); XXH3 runs at memory speed.
#pragma once

#include "json_at.hpp"

#include "formats/bytes.hpp"

#include <cstdint>
#include <string>

namespace msh::sidecar {

inline constexpr const char* kPayloadHashKey = "xxh3_64";
inline constexpr const char* kLegacyPayloadHashKey = "fnv1a64";

// XXH3-64 of `bytes`: what new sidecars record under kPayloadHashKey.
uint64_t payload_hash(ByteView bytes);
// The same of a file written in pieces (the hash of their bytes one after another).
uint64_t payload_hash(std::span<const ByteView> pieces);

inline constexpr uint64_t kFnv1a64Basis = 0xcbf29ce484222325ull;
// FNV-1a 64 of `bytes`, from `state` (the hash of what comes before them): the hash of sidecars
// of an older format, checked when one of those is read.
uint64_t fnv1a64(ByteView bytes, uint64_t state = kFnv1a64Basis);

struct PayloadHashCheck {
    std::string key = kPayloadHashKey; // the member recording the hash (to name in an error)
    bool recorded = false;             // whether `object` records one; none is a mismatch
    bool matches = false;              // whether `bytes` hash to the recorded value
    uint64_t xxh3 = 0;                 // payload_hash(bytes), computed once for the caller
};
// Checks `bytes` against the hash `object` records: "xxh3_64" when present, else the older
// "fnv1a64". A member of the wrong type is a mismatch.
PayloadHashCheck check_payload_hash(const JsonAt& object, ByteView bytes);

} // namespace msh::sidecar
