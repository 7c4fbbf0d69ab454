// Names as the game compares them, and how close a mistyped one is to a known one.
#pragma once

#include <cstddef>
#include <string>

namespace msh {

// ASCII letters lowered (game file names compare case-insensitively; CP1251 bytes unchanged).
std::string lower_ascii(std::string s);
// The name before its last dot (`tank.msh` -> `tank`); a name that starts with its only dot, or
// has none, whole. Plain text: an archive entry's name has no folders.
std::string name_stem(const std::string& name);
// Levenshtein distance (insertions, deletions, substitutions): how close a mistyped name is to
// a known one, for "did you mean".
size_t edit_distance(const std::string& a, const std::string& b);

} // namespace msh
