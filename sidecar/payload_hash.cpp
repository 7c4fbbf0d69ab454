#include "payload_hash.hpp"

#include "base64.hpp"

#include "formats/content_hash.hpp"

namespace msh::sidecar {

uint64_t payload_hash(ByteView bytes) {
    return content_hash(bytes);
}

uint64_t payload_hash(std::span<const ByteView> pieces) {
    return content_hash(pieces);
}

uint64_t fnv1a64(ByteView bytes, uint64_t state) {
    uint64_t h = state;
    for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
    return h;
}

PayloadHashCheck check_payload_hash(const JsonAt& object, ByteView bytes) {
    PayloadHashCheck check;
    check.xxh3 = payload_hash(bytes);
    if (!object.is_object()) return check;
    auto compare = [&](const char* key, uint64_t hash) {
        if (!object.has(key)) return false;
        check.key = key;
        check.recorded = true;
        const JsonAt member = object[key];
        check.matches = member.is_text(hex64(hash));
        return true;
    };
    if (!compare(kPayloadHashKey, check.xxh3)) compare(kLegacyPayloadHashKey, fnv1a64(bytes));
    return check;
}

} // namespace msh::sidecar
