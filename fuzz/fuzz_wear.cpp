// WEAR material tables (text): the reader, and write-back of what it accepted.
#include "harness.hpp"

#include "formats/wear.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    fuzz::expect_format_errors([&] {
        DiagnosticSink sink(ReadMode::Tolerant);
        wear::read(fuzz::view(data, size), sink, "fuzz");
    });
    return 0;
}
