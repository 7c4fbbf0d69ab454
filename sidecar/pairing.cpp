#include "pairing.hpp"

#include "base64.hpp"
#include "payload_hash.hpp"

#include "formats/diagnostics.hpp"

namespace msh::sidecar {

std::string pairing_token(ByteView source, std::string_view export_facts) {
    return pairing_token_of_hash(payload_hash(source), export_facts);
}

std::string pairing_token_of_hash(uint64_t source_hash, std::string_view export_facts) {
    std::string mixed = hex64(source_hash);
    mixed += '\n';
    mixed += export_facts;
    return hex64(
        payload_hash(ByteView(reinterpret_cast<const uint8_t*>(mixed.data()), mixed.size())));
}

std::string scene_pairing_token(const scene::Scene& scene) {
    return scene.identity.pair.value_or("");
}

const char* to_string(Pairing pairing) {
    switch (pairing) {
    case Pairing::Verified:
        return "verified";
    case Pairing::NoTokenInFile:
        return "not verified: the file carries no pairing token";
    case Pairing::NoTokenInSidecar:
        return "not verified: the sidecar carries no pairing token";
    case Pairing::Forced:
        return "mismatch ignored (--force)";
    }
    return "?";
}

Pairing check_pairing(const std::string& file_token, const std::string& sidecar_token,
                      const std::string& where, const std::string& sidecar_name, bool force) {
    if (sidecar_token.empty()) return Pairing::NoTokenInSidecar;
    if (file_token.empty()) return Pairing::NoTokenInFile;
    if (file_token == sidecar_token) return Pairing::Verified;
    if (force) return Pairing::Forced;
    throw FormatError(where, Location::whole(),
                      "belongs to another export than its sidecar " + sidecar_name +
                          " (pairing token " + file_token + " in the file, " + sidecar_token +
                          " in the sidecar): export the model again, give the right sidecar "
                          "with --sidecar, or import anyway with --force");
}

} // namespace msh::sidecar
