// Land.msh (terrain) and Land.map (areal map): the tolerant and strict readers.
#include "harness.hpp"

#include "formats/arealmap.hpp"
#include "formats/terrain.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    const ByteView bytes = fuzz::view(data, size);
    for (ReadMode mode : {ReadMode::Tolerant, ReadMode::Strict}) {
        fuzz::expect_format_errors([&] { terrain::read(bytes, mode, "fuzz"); });
        fuzz::expect_format_errors([&] { arealmap::read(bytes, mode, "fuzz"); });
    }
    return 0;
}
