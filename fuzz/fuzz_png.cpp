// PNG decoding (libpng behind our budget checks).
#include "harness.hpp"

#include "formats/png.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    fuzz::expect_format_errors([&] { png::decode(fuzz::view(data, size)); });
    return 0;
}
