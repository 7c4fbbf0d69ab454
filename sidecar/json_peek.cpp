#include "json_peek.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace msh::sidecar {

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

bool is_bracket_or_quote(char c) {
    return c == '"' || c == '{' || c == '}' || c == '[' || c == ']';
}

// The offset of the next quote or bracket at or after `i` (s.size() when none): rows of numbers
// skipped 16 bytes at a time.
size_t next_bracket_or_quote(std::string_view s, size_t i) {
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
    while (i < s.size() && !is_bracket_or_quote(s[i])) ++i;
    return i;
}

// The offset just past the value starting at `i` (a string, an array, an object or a scalar).
size_t past_value(std::string_view s, size_t i) {
    if (i >= s.size()) return std::string_view::npos;
    if (s[i] == '"') return past_string(s, i);
    if (s[i] != '{' && s[i] != '[') { // a scalar ends at a comma, a space or its container's end
        while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && !is_space(s[i])) ++i;
        return i;
    }
    size_t depth = 0;
    for (i = next_bracket_or_quote(s, i); i < s.size(); i = next_bracket_or_quote(s, i)) {
        const char c = s[i];
        if (c == '"') {
            i = past_string(s, i);
            if (i == std::string_view::npos) return i;
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
        } else if (--depth == 0) {
            return i + 1;
        }
        ++i;
    }
    return std::string_view::npos;
}

// The content of the string `value` when it has no escapes; nullopt otherwise (or when `value` is
// not a string).
std::optional<std::string_view> plain_string(std::string_view value) {
    if (value.size() < 2 || value.front() != '"' || value.back() != '"') return std::nullopt;
    const std::string_view body = value.substr(1, value.size() - 2);
    if (body.find('\\') != std::string_view::npos) return std::nullopt;
    return body;
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

} // namespace msh::sidecar
