// NRes container: strict and tolerant readers; a strict read writes back byte for byte.
#include "harness.hpp"

#include "formats/nres.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    const ByteView bytes = fuzz::view(data, size);
    fuzz::expect_format_errors([&] {
        DiagnosticSink sink(ReadMode::Tolerant);
        nres::read(bytes, sink, "fuzz");
    });
    fuzz::expect_format_errors([&] {
        const nres::Archive ar = nres::read(bytes, ReadMode::Strict, "fuzz");
        fuzz::require(nres::write(ar) == Bytes(bytes.begin(), bytes.end()),
                      "strict NRes read writes back the same bytes");
    });
    return 0;
}
