// RapidJSON as formats/rapidjson.hpp sets it (strict JSON, UTF-8 checked, numbers in full
// precision, iterative), faster for long strings: the text's encoding is checked once over the
// whole text, ASCII eight bytes at a time, and a copy is parsed in place, so that RapidJSON neither
// checks nor copies strings a byte at a time (a sidecar's megabytes of base64).
#pragma once

#include "bytes.hpp"
#include "rapidjson.hpp"

#include <string>

namespace msh {

// Whether `text` is UTF-8 (no overlong forms, surrogates or code points past U+10FFFF) whose only
// control characters are tab, line feed and carriage return: JSON allows no other anywhere (in a
// string they are escaped), the in-place parse's text ends at a NUL, and RapidJSON's SSE2 string
// scan lets 0x1A..0x1F through.
bool utf8_without_control(ByteView text);

// Decimal numbers to the nearest double (Full, the default flags), or to within a few units in the
// last place, several times faster, for a reader that uses integers only (Integers: integers are
// exact either way).
enum class Precision { Full, Integers };

// Parses `text` into `doc` through `buffer`, which the document's strings point into (keep it as
// long as `doc`). False for what the default flags refuse, and for a NUL or a byte order mark:
// a strict parser then says where and why, or reads it.
bool parse_in_place(ByteView text, std::string& buffer, rapidjson::Document& doc,
                    Precision precision = Precision::Full);

} // namespace msh
