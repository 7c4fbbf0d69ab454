// Names between a scene (UTF-8, as glTF and OBJ carry them) and the game's files (CP1251 bytes in
// Res10 strings and Res9 names, as the engine reads them).
#pragma once

#include <string>

namespace msh::mapping {

// The CP1251 bytes of a UTF-8 name. A character CP1251 has no code for becomes '?', and
// `replaced` (when given) is set; bytes that are not UTF-8 are kept as they are.
std::string to_game_name(const std::string& utf8, bool* replaced = nullptr);

} // namespace msh::mapping
