#include "json_nesting.hpp"

#include "diagnostics.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace msh {

namespace {

struct NestingState {
    size_t depth = 0;
    bool in_string = false, escaped = false;
};

// One byte of the scan; false when it opens a level past `limit`.
inline bool step(NestingState& s, uint8_t c, size_t limit) {
    if (s.in_string) {
        if (s.escaped)
            s.escaped = false;
        else if (c == '\\')
            s.escaped = true;
        else if (c == '"')
            s.in_string = false;
        return true;
    }
    if (c == '"') {
        s.in_string = true;
    } else if (c == '[' || c == '{') {
        if (++s.depth > limit) return false;
    } else if ((c == ']' || c == '}') && s.depth > 0) {
        --s.depth;
    }
    return true;
}

} // namespace

void check_json_nesting(ByteView text, const std::string& where, size_t limit) {
    NestingState s;
    const size_t n = text.size();
    size_t i = 0;
    const auto too_deep = [&](size_t at) {
        return FormatError(where, text_location(text.data(), n, at),
                           "JSON nested deeper than " + std::to_string(limit) +
                               " levels (refused before parsing)");
    };
#if defined(__SSE2__)
    // Sidecars are mostly base64 strings and number arrays: 16 bytes at a time, a block with
    // nothing the scan reacts to (in a string: quote, backslash; outside: also brackets) is
    // skipped whole; any other block goes through the byte scan below.
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'),
                  open_sq = _mm_set1_epi8('['), close_sq = _mm_set1_epi8(']'),
                  open_cu = _mm_set1_epi8('{'), close_cu = _mm_set1_epi8('}');
    while (i + 16 <= n) {
        if (!s.escaped) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
            __m128i stop = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash));
            if (!s.in_string)
                stop = _mm_or_si128(stop, _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, open_sq),
                                                                    _mm_cmpeq_epi8(v, close_sq)),
                                                       _mm_or_si128(_mm_cmpeq_epi8(v, open_cu),
                                                                    _mm_cmpeq_epi8(v, close_cu))));
            if (_mm_movemask_epi8(stop) == 0) {
                i += 16;
                continue;
            }
        }
        for (const size_t end = i + 16; i < end; ++i)
            if (!step(s, text[i], limit)) throw too_deep(i);
    }
#endif
    for (; i < n; ++i)
        if (!step(s, text[i], limit)) throw too_deep(i);
}

} // namespace msh
