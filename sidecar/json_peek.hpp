// A quick look into a sidecar's text, without parsing it: the value of the outermost object's
// member `key` when it is a string without escapes. An import asks each sidecar reader in turn
// whether the sidecar is its kind; each answers from `"kind"` with this look before it parses
// anything (docs/benchmarks.md: parsing a map's sidecar only to learn its kind doubled the import).
#pragma once

#include <optional>
#include <string_view>

namespace msh::sidecar {

// The content of the outermost object's member `key` whose value is a string without escapes, or
// nullopt when the look finds no such member or meets text it does not expect (then only a parser
// can tell). Skips strings with memchr and arrays 16 bytes at a time. Not proof of valid JSON.
std::optional<std::string_view> peek_plain_member(std::string_view text, std::string_view key);

} // namespace msh::sidecar
