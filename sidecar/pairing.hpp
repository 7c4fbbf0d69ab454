// Pairing a sidecar with the file it was written for (issue 16). An export stamps one token into
// both: the sidecar's `export.pair` and the scene's identity (in a glTF `extras.mshconv.pair`, in
// an OBJ the comment `# mshconv pair TOKEN`). An import refuses a file whose token differs from its
// sidecar's — a re-export left beside an old sidecar would otherwise give a hybrid model. Tools may
// drop the token (Blender keeps scene extras only when its export includes custom properties); a
// file without one is imported as before and the report says the pair was not verified.
#pragma once

#include "formats/bytes.hpp"
#include "scene/scene.hpp"

#include <string>
#include <string_view>

namespace msh::sidecar {

// 16 hex digits over the source bytes and the facts that decide what the export made of them
// (options, WEAR rows, ...; never a path): two exports that differ in any of these get different
// tokens, and the same export in another folder gets the same one.
std::string pairing_token(ByteView source, std::string_view export_facts);
// The same from the source's payload_hash.
std::string pairing_token_of_hash(uint64_t source_hash, std::string_view export_facts);

// The token a scene carries, or "" when it has none.
std::string scene_pairing_token(const scene::Scene& scene);

enum class Pairing { Verified, NoTokenInFile, NoTokenInSidecar, Forced };
const char* to_string(Pairing pairing);

// Compares the two tokens. A mismatch throws FormatError naming `where` and the sidecar, unless
// `force` (then Forced). Either token missing -> NoToken*.
Pairing check_pairing(const std::string& file_token, const std::string& sidecar_token,
                      const std::string& where, const std::string& sidecar_name, bool force);

} // namespace msh::sidecar
