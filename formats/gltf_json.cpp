#include "gltf_json.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

namespace msh::gltf {

namespace {

// Length of the UTF-8 sequence starting at s[i], or 0 when it is not well-formed (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF).
size_t utf8_sequence(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return uint8_t(s[k]); };
    const uint8_t c = b(i);
    const size_t left = s.size() - i;
    auto cont = [&](size_t k) { return k < left && (b(i + k) & 0xC0) == 0x80; };
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        const uint8_t c1 = b(i + 1);
        if (c == 0xE0 && c1 < 0xA0) return 0; // overlong
        if (c == 0xED && c1 > 0x9F) return 0; // surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        const uint8_t c1 = b(i + 1);
        if (c == 0xF0 && c1 < 0x90) return 0; // overlong
        if (c == 0xF4 && c1 > 0x8F) return 0; // above U+10FFFF
        return 4;
    }
    return 0;
}

// Bytes written as they are inside a JSON string: printable ASCII but '"' and '\\'.
constexpr auto kPlain = [] {
    std::array<bool, 256> t{};
    for (int c = 0x20; c < 0x80; ++c) t[size_t(c)] = c != '"' && c != '\\';
    return t;
}();

} // namespace

void JsonWriter::grow(size_t n) {
    // In steps (within a reservation nothing moves; past it the vector grows geometrically).
    out_.resize(used_ + std::max(n, size_t(4096)));
}

void JsonWriter::newline_indent() {
    const size_t depth = first_.size();
    uint8_t* p = reserve(1 + depth);
    *p = '\n';
    std::memset(p + 1, ' ', depth);
    used_ += 1 + depth;
}

void JsonWriter::separate() {
    if (!first_.back()) put(',');
    first_.back() = 0;
    if (pretty_) newline_indent();
}

JsonWriter& JsonWriter::open(char c) {
    before_value();
    put(c);
    first_.push_back(1);
    return *this;
}

JsonWriter& JsonWriter::close(char c) {
    const bool empty = first_.back();
    first_.pop_back();
    if (pretty_ && !empty) newline_indent();
    put(c);
    return *this;
}

JsonWriter& JsonWriter::escaped_key(std::string_view name) {
    before_value();
    quoted(name);
    put(pretty_ ? std::string_view(": ") : std::string_view(":"));
    after_key_ = true;
    return *this;
}

JsonWriter& JsonWriter::plain_string(std::string_view s) {
    before_value();
    uint8_t* p = reserve(s.size() + 2);
    *p++ = '"';
    std::memcpy(p, s.data(), s.size());
    p[s.size()] = '"';
    used_ += s.size() + 2;
    return *this;
}

JsonWriter& JsonWriter::string(std::string_view s) {
    before_value();
    quoted(s);
    return *this;
}

void JsonWriter::quoted(std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    put('"');
    size_t run = 0; // start of the pending run of characters that need no escape
    for (size_t i = 0; i < s.size();) {
        const uint8_t c = uint8_t(s[i]);
        if (kPlain[c]) {
            ++i;
            continue;
        }
        if (c >= 0x80) {
            const size_t n = utf8_sequence(s, i);
            if (n == 0)
                throw std::invalid_argument("glTF writer: invalid UTF-8 byte 0x" +
                                            std::string{kHex[c >> 4], kHex[c & 15]} + " at index " +
                                            std::to_string(i) + " of a string");
            i += n;
            continue;
        }
        put(s.substr(run, i - run));
        switch (c) {
        case '"':
            put("\\\"");
            break;
        case '\\':
            put("\\\\");
            break;
        case '\b':
            put("\\b");
            break;
        case '\f':
            put("\\f");
            break;
        case '\n':
            put("\\n");
            break;
        case '\r':
            put("\\r");
            break;
        case '\t':
            put("\\t");
            break;
        default:
            put("\\u00");
            put(kHex[c >> 4]);
            put(kHex[c & 15]);
        }
        run = ++i;
    }
    put(s.substr(run));
    put('"');
}

JsonWriter& JsonWriter::integer_slow(int64_t v) {
    before_value();
    char* p = reinterpret_cast<char*>(reserve(24));
    used_ += size_t(std::to_chars(p, p + 24, v).ptr - p);
    return *this;
}

JsonWriter& JsonWriter::unsigned_integer(uint64_t v) {
    before_value();
    char* p = reinterpret_cast<char*>(reserve(24));
    used_ += size_t(std::to_chars(p, p + 24, v).ptr - p);
    return *this;
}

JsonWriter& JsonWriter::number(double v) {
    before_value();
    if (!std::isfinite(v)) {
        put("null");
        return *this;
    }
    char* p = reinterpret_cast<char*>(reserve(40));
    char* end = std::to_chars(p, p + 38, v).ptr;
    bool fraction = false;
    for (const char* q = p; q != end; ++q) fraction = fraction || *q == '.' || *q == 'e';
    if (!fraction) *end++ = '.', *end++ = '0'; // 24 -> 24.0: reads back as a floating point
    used_ += size_t(end - p);
    return *this;
}

JsonWriter& JsonWriter::boolean(bool v) {
    before_value();
    put(v ? std::string_view("true") : std::string_view("false"));
    return *this;
}

JsonWriter& JsonWriter::null() {
    before_value();
    put("null");
    return *this;
}

JsonWriter& JsonWriter::value(const nlohmann::json& j) {
    using T = nlohmann::json::value_t;
    switch (j.type()) {
    case T::object:
        begin_object();
        for (auto it = j.begin(); it != j.end(); ++it) escaped_key(it.key()).value(it.value());
        return end_object();
    case T::array:
        begin_array();
        for (const auto& e : j) value(e);
        return end_array();
    case T::string:
        return string(j.get_ref<const std::string&>());
    case T::boolean:
        return boolean(j.get<bool>());
    case T::number_integer:
        return integer(j.get<int64_t>());
    case T::number_unsigned:
        return unsigned_integer(j.get<uint64_t>());
    case T::number_float:
        return number(j.get<double>());
    default: // null, discarded, binary
        return null();
    }
}

} // namespace msh::gltf
