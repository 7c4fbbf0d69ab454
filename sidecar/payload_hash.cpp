#include "payload_hash.hpp"

#include "base64.hpp"

#include "formats/content_hash.hpp"

namespace msh::sidecar {

uint64_t payload_hash(ByteView bytes) {
    return content_hash(bytes);
}

uint64_t fnv1a64(ByteView bytes, uint64_t state) {
    uint64_t h = state;
    for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
    return h;
}

PayloadHashCheck check_payload_hash(const nlohmann::json& object, ByteView bytes) {
    PayloadHashCheck check;
    if (!object.is_object()) return check;
    for (const char* key : {kPayloadHashKey, kLegacyPayloadHashKey}) {
        const auto member = object.find(key);
        if (member == object.end()) continue;
        check.key = key;
        const uint64_t h = key == kPayloadHashKey ? payload_hash(bytes) : fnv1a64(bytes);
        check.matches = member->is_string() && member->get_ref<const std::string&>() == hex64(h);
        return check;
    }
    return check;
}

} // namespace msh::sidecar
