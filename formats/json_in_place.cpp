// RapidJSON's SSE2 scans, for this file's in-place parse only (no other file instantiates it): the
// strings and whitespace of a text 16 bytes at a time, in aligned loads that stay inside the
// buffer's padding (parse_in_place). Every x86-64 processor has SSE2.
#if defined(__SSE2__) && !defined(RAPIDJSON_SSE2)
#define RAPIDJSON_SSE2
#endif

#include "json_in_place.hpp"

#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace msh {

namespace {

// JSON's only control characters outside an escape are the whitespace between tokens.
bool allowed_control(uint8_t c) {
    return c == '\t' || c == '\n' || c == '\r';
}

} // namespace

bool utf8_without_control(ByteView text) {
    const uint8_t* p = text.data();
    const size_t n = text.size();
    size_t i = 0;
    while (i < n) {
#if defined(__SSE2__)
        if (n - i >= 16) { // printable ASCII 16 bytes at a time, up to the first other byte
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
            const __m128i below_space = _mm_set1_epi8(0x1F);
            const unsigned other = unsigned(_mm_movemask_epi8(v)) | // a byte >= 0x80
                                   unsigned(_mm_movemask_epi8(
                                       _mm_cmpeq_epi8(_mm_max_epu8(v, below_space), below_space)));
            if (other == 0) {
                i += 16;
                continue;
            }
            i += size_t(std::countr_zero(other)); // to the first byte of another kind
        }
#endif
        if (n - i >= 8) {
            uint64_t w;
            std::memcpy(&w, p + i, 8);
            // No byte >= 0x80 and none below 0x20: printable ASCII (each byte's high bit, forced
            // on, survives subtracting 0x20 exactly when its low seven bits are 0x20 or more).
            constexpr uint64_t kHigh = 0x8080808080808080ull, kSpace = 0x2020202020202020ull;
            const uint64_t below_space = (((w | kHigh) - kSpace) & kHigh) ^ kHigh;
            if (((w & kHigh) | below_space) == 0) {
                i += 8;
                continue;
            }
        }
        const uint8_t c = p[i];
        if (c < 0x80) {
            if (c < 0x20 && !allowed_control(c)) return false;
            ++i;
            continue;
        }
        size_t len = 0;
        uint32_t cp = 0;
        if ((c & 0xE0) == 0xC0)
            len = 2, cp = c & 0x1Fu;
        else if ((c & 0xF0) == 0xE0)
            len = 3, cp = c & 0x0Fu;
        else if ((c & 0xF8) == 0xF0)
            len = 4, cp = c & 0x07u;
        else
            return false;
        if (n - i < len) return false;
        for (size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (p[i + k] & 0x3Fu);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

bool parse_in_place(ByteView text, std::string& buffer, rapidjson::Document& doc,
                    Precision precision) {
    if (!utf8_without_control(text)) return false;
    // NUL-terminated, and padded so that an aligned 16-byte load around the end is in the buffer.
    buffer.assign(reinterpret_cast<const char*>(text.data()), text.size());
    buffer.append(16, '\0');
    if (precision == Precision::Full)
        doc.ParseInsitu<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseIterativeFlag>(
            buffer.data());
    else
        doc.ParseInsitu<rapidjson::kParseIterativeFlag>(buffer.data());
    return !doc.HasParseError();
}

} // namespace msh
