// MAT0 materials; the first byte picks the version the payload is read as.
#include "harness.hpp"

#include "formats/material.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    if (size == 0) return 0;
    fuzz::expect_format_errors([&] {
        DiagnosticSink sink(ReadMode::Tolerant);
        material::read(fuzz::view(data + 1, size - 1), data[0] % 4, sink, "fuzz");
    });
    return 0;
}
