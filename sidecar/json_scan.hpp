// A validating JSON scanner for big sidecars: checks the whole text against the JSON grammar
// (RFC 8259: objects, arrays, strings with escapes and valid UTF-8, numbers, literals; arrays and
// objects nested at most kMaxJsonNesting levels, the bound of check_json_nesting) about ten times
// faster than building a DOM, and hands out the byte spans of an object's members so a reader
// parses only the members it needs (nlohmann::json::parse on the span) and takes long escape-free
// strings (base64) as they are.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msh::sidecar::json_scan {

struct Member {
    std::string key;        // decoded
    std::string_view value; // the value's text, validated
};

// Throws std::invalid_argument("offset N: ...") unless `text` is exactly one JSON value
// (whitespace around it allowed).
void validate(std::string_view text);

// The members of the object `text`, in order (validates all of `text`; throws when it is not
// one valid JSON object).
std::vector<Member> object_members(std::string_view text);

// The value of the outermost object's first member named `key`, scanning (and validating) the
// text only up to it; nullopt when the object has no such member (then all of `text` is
// validated). Throws as object_members on invalid text before the member.
std::optional<std::string_view> find_member(std::string_view text, std::string_view key);

// A quick look, without validating, for the outermost object's member `key` whose value is a
// string without escapes: its content, or nullopt when the look finds no such member or meets
// text it does not expect (then only a validating reader can tell). Skips strings with memchr: a
// megabyte sidecar's "kind" in a small fraction of a validating scan. Not proof of valid JSON.
std::optional<std::string_view> peek_plain_member(std::string_view text, std::string_view key);

// The content of a string value `value` (as returned in Member::value) when it has no escapes;
// nullopt otherwise (or when `value` is not a string).
std::optional<std::string_view> plain_string(std::string_view value);

} // namespace msh::sidecar::json_scan
