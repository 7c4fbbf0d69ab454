// A bound on JSON nesting checked before any JSON library sees the text: parsers and the
// destructors of their documents recurse per level, so a few bytes of `[[[[...` could otherwise
// exhaust the stack (glTF documents, sidecars, archive manifests).
#pragma once

#include "bytes.hpp"

#include <string>

namespace msh {

// Deeper than any document mshconv reads or writes (sidecars nest 5 levels, glTF extras a few).
constexpr size_t kMaxJsonNesting = 256;

// Throws FormatError(where, line/column of the first bracket too deep, ...) when arrays and
// objects nest deeper than `limit`; brackets inside strings do not count. Checks nothing else.
void check_json_nesting(ByteView text, const std::string& where, size_t limit = kMaxJsonNesting);

} // namespace msh
