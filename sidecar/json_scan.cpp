#include "json_scan.hpp"

#include "formats/json_nesting.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstring>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace msh::sidecar::json_scan {

namespace {

struct Scanner {
    std::string_view s;
    size_t i = 0;
    // The scan of the outermost object ends at the member of this name (find_member).
    const std::string_view* stop_at = nullptr;
    bool stopped = false;

    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument("offset " + std::to_string(i) + ": " + what);
    }
    int peek() const { return i < s.size() ? static_cast<unsigned char>(s[i]) : -1; }
    void ws() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
    }
    void expect(char c, const char* what) {
        if (peek() != static_cast<unsigned char>(c)) fail(std::string(what) + " expected");
        ++i;
    }

    // One UTF-8 sequence starting at a byte >= 0x80 (RFC 3629: no overlongs, no surrogates).
    void utf8() {
        const int lead = peek();
        int n = 0, lo = 0x80, hi = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            n = 1;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            n = 2;
            if (lead == 0xE0) lo = 0xA0;
            if (lead == 0xED) hi = 0x9F;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            n = 3;
            if (lead == 0xF0) lo = 0x90;
            if (lead == 0xF4) hi = 0x8F;
        } else {
            fail("invalid UTF-8 in a string");
        }
        ++i;
        for (int k = 0; k < n; ++k, ++i) {
            const int c = peek();
            if (c < (k == 0 ? lo : 0x80) || c > (k == 0 ? hi : 0xBF))
                fail("invalid UTF-8 in a string");
        }
    }

    // At the opening quote; leaves `i` after the closing one. True when there was an escape.
    // Past the bytes that need no attention in a string (not '"', '\\', a control character or
    // UTF-8), 16 at a time: base64 payloads are megabytes of them.
    void skip_plain_run() {
#if defined(__SSE2__)
        const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'),
                      space = _mm_set1_epi8(0x20);
        while (i + 16 <= s.size()) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
            // Signed: bytes >= 0x80 are negative, so "less than 0x20" also catches UTF-8.
            const __m128i stop =
                _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                             _mm_cmplt_epi8(v, space));
            const unsigned mask = unsigned(_mm_movemask_epi8(stop));
            if (mask) {
                i += size_t(__builtin_ctz(mask));
                return;
            }
            i += 16;
        }
#endif
    }

    bool string() {
        ++i;
        bool escaped = false;
        for (;;) {
            skip_plain_run();
            while (i < s.size()) {
                const auto c = static_cast<unsigned char>(s[i]);
                if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
                ++i;
            }
            const int c = peek();
            if (c < 0) fail("unterminated string");
            if (c == '"') {
                ++i;
                return escaped;
            }
            if (c < 0x20) fail("control character in a string");
            if (c >= 0x80) {
                utf8();
                continue;
            }
            escaped = true; // backslash
            ++i;
            switch (peek()) {
            case '"':
            case '\\':
            case '/':
            case 'b':
            case 'f':
            case 'n':
            case 'r':
            case 't':
                ++i;
                break;
            case 'u':
                ++i;
                for (int k = 0; k < 4; ++k, ++i)
                    if (!std::isxdigit(peek())) fail("bad \\u escape");
                break;
            default:
                fail("bad escape in a string");
            }
        }
    }

    void digits() {
        if (peek() < '0' || peek() > '9') fail("digit expected");
        while (peek() >= '0' && peek() <= '9') ++i;
    }
    void number() {
        if (peek() == '-') ++i;
        if (peek() == '0')
            ++i;
        else
            digits();
        if (peek() == '.') {
            ++i;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            ++i;
            if (peek() == '+' || peek() == '-') ++i;
            digits();
        }
    }
    void literal(std::string_view word) {
        if (s.substr(i, word.size()) != word) fail("unexpected character");
        i += word.size();
    }

    // `depth`: the containers around the value. A container opened here is level depth + 1;
    // past kMaxJsonNesting it is refused, as check_json_nesting refuses it (so a text this scan
    // accepts needs no second pass for nlohmann's sake).
    void value(int depth, std::vector<Member>* members = nullptr) {
        ws();
        switch (peek()) {
        case '{':
            nest(depth);
            object(depth, members);
            return;
        case '[':
            nest(depth);
            array(depth);
            return;
        case '"':
            string();
            return;
        case 't':
            literal("true");
            return;
        case 'f':
            literal("false");
            return;
        case 'n':
            literal("null");
            return;
        case -1:
            fail("value expected, end of text");
        default:
            if (peek() == '-' || (peek() >= '0' && peek() <= '9')) {
                number();
                return;
            }
            fail("unexpected character");
        }
    }
    // An array element or a member's value: numbers and strings, most of a sidecar's values,
    // are scanned here without a recursive call of value() each (measured: a tenth of the scan).
    void element(int depth) {
        ws();
        const int c = peek();
        if (c == '-' || (c >= '0' && c <= '9'))
            number();
        else if (c == '"')
            string();
        else
            value(depth);
    }
    void nest(int depth) const {
        if (size_t(depth) >= kMaxJsonNesting)
            fail("nested deeper than " + std::to_string(kMaxJsonNesting) + " levels");
    }
    void array(int depth) {
        ++i;
        ws();
        if (peek() == ']') {
            ++i;
            return;
        }
        for (;;) {
            element(depth + 1);
            ws();
            if (peek() == ',') {
                ++i;
                continue;
            }
            expect(']', "',' or ']'");
            return;
        }
    }
    void object(int depth, std::vector<Member>* members) {
        ++i;
        ws();
        if (peek() == '}') {
            ++i;
            return;
        }
        for (;;) {
            ws();
            if (peek() != '"') fail("member name expected");
            const size_t k0 = i;
            const bool escaped = string();
            const std::string_view key = s.substr(k0, i - k0);
            ws();
            expect(':', "':'");
            ws();
            const size_t v0 = i;
            element(depth + 1);
            if (members)
                members->push_back({escaped ? nlohmann::json::parse(key).get<std::string>()
                                            : std::string(key.substr(1, key.size() - 2)),
                                    s.substr(v0, i - v0)});
            if (members && stop_at && depth == 0 && members->back().key == *stop_at) {
                stopped = true;
                return;
            }
            ws();
            if (peek() == ',') {
                ++i;
                continue;
            }
            expect('}', "',' or '}'");
            return;
        }
    }
    void end() {
        ws();
        if (i != s.size()) fail("text after the JSON value");
    }
};

} // namespace

void validate(std::string_view text) {
    Scanner sc{text};
    sc.value(0);
    sc.end();
}

std::vector<Member> object_members(std::string_view text) {
    Scanner sc{text};
    sc.ws();
    if (sc.peek() != '{') sc.fail("an object expected");
    std::vector<Member> members;
    sc.value(0, &members);
    sc.end();
    return members;
}

std::optional<std::string_view> find_member(std::string_view text, std::string_view key) {
    Scanner sc{text};
    sc.stop_at = &key;
    sc.ws();
    if (sc.peek() != '{') sc.fail("an object expected");
    std::vector<Member> members;
    sc.value(0, &members);
    if (sc.stopped) return members.back().value;
    sc.end();
    return std::nullopt;
}

namespace {

bool is_space(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// The offset just past the string whose opening quote is at `open`, or npos: the next quote not
// escaped (an odd run of backslashes before it escapes it).
size_t past_string(std::string_view s, size_t open) {
    size_t i = open + 1;
    while (true) {
        const void* q = std::memchr(s.data() + i, '"', s.size() - i);
        if (!q) return std::string_view::npos;
        const size_t at = size_t(static_cast<const char*>(q) - s.data());
        size_t backslashes = 0;
        while (at - backslashes > open + 1 && s[at - backslashes - 1] == '\\') ++backslashes;
        if (backslashes % 2 == 0) return at + 1;
        i = at + 1;
    }
}

// The offset of the first '"', '{', '}', '[' or ']' from `i` (or the end): inside a container the
// rest (numbers, commas, whitespace, literals) needs no attention, and tables are rows of numbers.
size_t next_structural(std::string_view s, size_t i) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), open_brace = _mm_set1_epi8('{'),
                  close_brace = _mm_set1_epi8('}'), open_bracket = _mm_set1_epi8('['),
                  close_bracket = _mm_set1_epi8(']');
    for (; i + 16 <= s.size(); i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
        const __m128i hit =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, open_brace)),
                         _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, close_brace),
                                                   _mm_cmpeq_epi8(v, open_bracket)),
                                      _mm_cmpeq_epi8(v, close_bracket)));
        if (const unsigned mask = unsigned(_mm_movemask_epi8(hit)))
            return i + size_t(__builtin_ctz(mask));
    }
#endif
    while (i < s.size() && s[i] != '"' && s[i] != '{' && s[i] != '}' && s[i] != '[' && s[i] != ']')
        ++i;
    return i;
}

// The offset just past the value starting at `i` (a string, an array, an object or a scalar).
size_t past_value(std::string_view s, size_t i) {
    if (i >= s.size()) return std::string_view::npos;
    if (s[i] == '"') return past_string(s, i);
    size_t depth = 0;
    while (i < s.size()) {
        if (depth > 0 && (i = next_structural(s, i)) == s.size()) break;
        const char c = s[i];
        if (c == '"') {
            i = past_string(s, i);
            if (i == std::string_view::npos) return i;
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (depth == 0) return i; // the scalar ends at its container's end
            if (--depth == 0) return i + 1;
        } else if (depth == 0 && (c == ',' || is_space(c))) {
            return i;
        }
        ++i;
    }
    return depth == 0 ? i : std::string_view::npos;
}

} // namespace

std::optional<std::string_view> peek_plain_member(std::string_view s, std::string_view key) {
    size_t i = 0;
    auto skip_space = [&] {
        while (i < s.size() && is_space(s[i])) ++i;
    };
    skip_space();
    if (i >= s.size() || s[i] != '{') return std::nullopt;
    ++i;
    while (true) {
        skip_space();
        if (i >= s.size() || s[i] != '"') return std::nullopt;
        const size_t key_end = past_string(s, i);
        if (key_end == std::string_view::npos) return std::nullopt;
        const std::string_view name = s.substr(i + 1, key_end - i - 2);
        i = key_end;
        skip_space();
        if (i >= s.size() || s[i] != ':') return std::nullopt;
        ++i;
        skip_space();
        const size_t value_end = past_value(s, i);
        if (value_end == std::string_view::npos) return std::nullopt;
        if (name.find('\\') != std::string_view::npos) return std::nullopt; // an escaped key
        if (name == key) return plain_string(s.substr(i, value_end - i));
        i = value_end;
        skip_space();
        if (i >= s.size() || s[i] != ',') return std::nullopt;
        ++i;
    }
}

std::optional<std::string_view> plain_string(std::string_view value) {
    if (value.size() < 2 || value.front() != '"' || value.back() != '"') return std::nullopt;
    const std::string_view body = value.substr(1, value.size() - 2);
    if (body.find('\\') != std::string_view::npos) return std::nullopt;
    return body;
}

} // namespace msh::sidecar::json_scan
