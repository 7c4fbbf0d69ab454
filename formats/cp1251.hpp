// The game's names are CP1251 bytes (NRes entry names, node names); people, JSON and file
// systems speak UTF-8. These convert between the two without loss: every byte 0x80-0xFF has a
// code point (0x98, unassigned in CP1251, maps to U+0098), so a name survives UTF-8 and back.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace msh {

// CP1251 bytes -> UTF-8 (ASCII unchanged).
std::string cp1251_to_utf8(std::string_view cp1251);
// UTF-8 -> CP1251 bytes; nullopt when the text is not UTF-8 or has a character CP1251 lacks.
std::optional<std::string> utf8_to_cp1251(std::string_view utf8);

} // namespace msh
