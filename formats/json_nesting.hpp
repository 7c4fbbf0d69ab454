// A bound on JSON nesting checked before any JSON library sees the text: parsers and the
// destructors of their documents recurse per level, so a few bytes of `[[[[...` could otherwise
// exhaust the stack (glTF documents, sidecars, archive manifests).
#pragma once

#include "bytes.hpp"

#include <string>
#include <string_view>

namespace msh {

// Deeper than any document mshconv reads or writes (sidecars nest 5 levels, glTF extras a few).
constexpr size_t kMaxJsonNesting = 256;

// Throws FormatError(where, line/column of the first bracket too deep, ...) when arrays and
// objects nest deeper than `limit`; brackets inside strings do not count. Checks nothing else.
void check_json_nesting(ByteView text, const std::string& where, size_t limit = kMaxJsonNesting);

// nlohmann refuses some valid JSON grammar without a position (a number past the double range:
// out_of_range.406 "number overflow parsing 'TOKEN'"): the offset of TOKEN, quoted in the
// message `what`, in `text`; text.size() when the message quotes nothing found there.
size_t refused_token_offset(ByteView text, std::string_view what);

} // namespace msh
