#include "json_readable.hpp"

#include "base64.hpp"

#include <algorithm>
#include <cstdint>

namespace msh::sidecar {

using nlohmann::json;

namespace {

// Appends `text` as a JSON string; long plain-ASCII strings (base64) bypass the escaper.
void put_string(const std::string& text, std::string& out) {
    bool plain = true;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
            plain = false;
            break;
        }
    }
    if (!plain) {
        out += json(text).dump();
        return;
    }
    out += '"';
    out += text;
    out += '"';
}

size_t digits(uint64_t v) {
    size_t n = 1;
    while (v >= 10) v /= 10, ++n;
    return n;
}

// Size of the compact dump of `j`, or SIZE_MAX as soon as it exceeds `limit` (so the check costs
// at most about `limit` characters of work per value, whatever the value's size). Deferred values
// count as too long.
size_t compact_size(const json& j, size_t limit, const Deferred& deferred) {
    if (deferred.count(&j)) return SIZE_MAX;
    if (j.is_string()) {
        const size_t raw = j.get_ref<const std::string&>().size() + 2;
        return raw > limit ? SIZE_MAX : std::max(raw, j.dump().size());
    }
    if (j.is_number_unsigned()) return digits(j.get<uint64_t>());
    if (j.is_number_integer()) {
        const int64_t v = j.get<int64_t>();
        return v < 0 ? 1 + digits(uint64_t(0) - uint64_t(v)) : digits(uint64_t(v));
    }
    if (j.is_boolean()) return j.get<bool>() ? 4 : 5;
    if (j.is_null()) return 4;
    if (!j.is_object() && !j.is_array()) return j.dump().size(); // floats
    size_t n = 2;                                                // brackets
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) ++n; // comma
        first = false;
        if (j.is_object()) n += compact_size(json(it.key()), limit, deferred) + 1; // "key":
        if (n > limit) return SIZE_MAX;
        const size_t v = compact_size(it.value(), limit - n, deferred);
        if (v == SIZE_MAX) return SIZE_MAX;
        n += v;
        if (n > limit) return SIZE_MAX;
    }
    return n;
}

void dump_into(const json& j, size_t width, int depth, const Deferred& deferred, std::string& out) {
    if (auto it = deferred.find(&j); it != deferred.end()) {
        it->second(out, depth);
        return;
    }
    if (j.is_string()) {
        put_string(j.get_ref<const std::string&>(), out);
        return;
    }
    const bool container = j.is_object() || j.is_array();
    if (!container || j.empty() || compact_size(j, width, deferred) != SIZE_MAX) {
        out += j.dump();
        return;
    }
    const std::string pad(size_t(depth + 1), ' ');
    out += j.is_object() ? "{\n" : "[\n";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out += ",\n";
        first = false;
        out += pad;
        if (j.is_object()) out += json(it.key()).dump() + ": ";
        dump_into(it.value(), width, depth + 1, deferred, out);
    }
    out += '\n' + std::string(size_t(depth), ' ') + (j.is_object() ? '}' : ']');
}

} // namespace

std::string dump_readable(const json& doc, size_t width, const Deferred& deferred, size_t reserve) {
    std::string out;
    out.reserve(reserve);
    dump_into(doc, width, 0, deferred, out);
    out += '\n';
    return out;
}

void put_base64(ByteView bytes, std::string& out) {
    out += '"';
    append_base64(out, bytes); // not through a second string: megabytes per map
    out += '"';
}

// A long array of short values as dump_readable lays it out: one element per line.
void put_lines(size_t count, std::string& out, int depth,
               const std::function<void(size_t, std::string&)>& element) {
    if (count == 0) {
        out += "[]";
        return;
    }
    const std::string pad(size_t(depth + 1), ' ');
    out += "[\n";
    for (size_t i = 0; i < count; ++i) {
        if (i) out += ",\n";
        out += pad;
        element(i, out);
    }
    out += '\n' + std::string(size_t(depth), ' ') + ']';
}

} // namespace msh::sidecar
