// Shared by the libFuzzer harnesses: each one feeds the bytes to one reader entry point and
// checks what must hold for any input: a reader either returns or throws FormatError (never
// another exception, never a crash; the sanitizers catch the rest), and what a strict reader
// accepted writes back to the same bytes.
#pragma once

#include "formats/bytes.hpp"
#include "formats/diagnostics.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace msh::fuzz {

inline ByteView view(const uint8_t* data, size_t size) {
    return ByteView(data, size);
}

// Runs `f`; FormatError is the expected answer to bad input. Anything else escaping is a finding.
template <class F> void expect_format_errors(F&& f) {
    try {
        f();
    } catch (const FormatError&) {
    } catch (const std::exception& e) {
        std::fprintf(stderr, "unexpected exception: %s\n", e.what());
        std::abort();
    }
}

// A property that must hold: abort (a finding) when it does not.
inline void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "property violated: %s\n", what);
        std::abort();
    }
}

} // namespace msh::fuzz
