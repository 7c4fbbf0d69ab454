// The readable layout of the big sidecars (terrain, model): a JSON document where every object or
// array that fits in `width` characters is written compact on one line and larger ones one
// member per line, so a table reads as one row per line. Values too big for a DOM (face rows,
// base64 blocks) are written by generators ("deferred") straight into the text.
#pragma once

#include "formats/bytes.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <unordered_map>

namespace msh::sidecar {

// Writers of values the DOM holds only a placeholder for, keyed by the placeholder's address.
using Deferred =
    std::unordered_map<const nlohmann::json*, std::function<void(std::string&, int depth)>>;

std::string dump_readable(const nlohmann::json& doc, size_t width, const Deferred& deferred = {},
                          size_t reserve = 0);

// Appends `bytes` as a base64 JSON string (not through a second string: megabytes per map).
void put_base64(ByteView bytes, std::string& out);
// A long array of short values as dump_readable lays it out: one element per line.
void put_lines(size_t count, std::string& out, int depth,
               const std::function<void(size_t, std::string&)>& element);

} // namespace msh::sidecar
