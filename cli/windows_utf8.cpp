// mshconv.exe's narrow strings are UTF-8, as on Linux: names from the command line (read as
// UTF-16, cli/console.cpp), manifests, sidecars, an archive's CP1251 names converted. On
// Windows std::filesystem makes its UTF-16 path of a std::string through the C runtime's mbrtowc,
// in the C locale's code page (the bytes taken one by one), and MinGW's msvcrt has no UTF-8
// locale to select. So the executable defines the runtime's three multibyte-to-wide functions
// (the one object of the runtime that holds them is then never linked) as UTF-8. A character
// beyond U+FFFF, which one wchar_t cannot hold, is refused as an invalid sequence.
#ifdef _WIN32

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cwchar>

namespace {

constexpr size_t kInvalid = size_t(-1), kIncomplete = size_t(-2);

// The length of the sequence starting with `lead` and the lowest code point it may hold (an
// overlong one is invalid); 0 when `lead` starts none that fits a wchar_t.
struct Lead {
    size_t length;
    uint32_t bits, minimum;
};

Lead lead_of(uint8_t b) {
    if (b < 0x80) return {1, b, 0};
    if ((b & 0xE0) == 0xC0) return {2, uint32_t(b & 0x1F), 0x80};
    if ((b & 0xF0) == 0xE0) return {3, uint32_t(b & 0x0F), 0x800};
    return {0, 0, 0};
}

size_t utf8_to_wide(wchar_t* out, const char* in, size_t n) {
    if (!in) return 0;
    if (n == 0) return kIncomplete;
    const Lead lead = lead_of(uint8_t(in[0]));
    if (lead.length == 0) {
        errno = EILSEQ;
        return kInvalid;
    }
    uint32_t code = lead.bits;
    for (size_t k = 1; k < lead.length; ++k) {
        if (k >= n) return kIncomplete;
        const uint8_t b = uint8_t(in[k]);
        if ((b & 0xC0) != 0x80) {
            errno = EILSEQ;
            return kInvalid;
        }
        code = code << 6 | (b & 0x3F);
    }
    if (code < lead.minimum || (code >= 0xD800 && code <= 0xDFFF)) {
        errno = EILSEQ;
        return kInvalid;
    }
    if (out) *out = wchar_t(code);
    return code == 0 ? 0 : lead.length;
}

} // namespace

extern "C" {

size_t mbrtowc(wchar_t* out, const char* in, size_t n, mbstate_t*) {
    return utf8_to_wide(out, in, n);
}

size_t mbrlen(const char* in, size_t n, mbstate_t*) {
    return utf8_to_wide(nullptr, in, n);
}

size_t mbsrtowcs(wchar_t* out, const char** in, size_t size, mbstate_t*) {
    size_t written = 0;
    const char* at = *in;
    while (!out || written < size) {
        wchar_t c = 0;
        const size_t used = utf8_to_wide(&c, at, 4);
        if (used == kInvalid || used == kIncomplete) {
            errno = EILSEQ;
            return kInvalid;
        }
        if (used == 0) {
            if (out) {
                out[written] = 0;
                *in = nullptr;
            }
            return written;
        }
        if (out) out[written] = c;
        ++written;
        at += used;
    }
    *in = at;
    return written;
}

} // extern "C"

#endif
