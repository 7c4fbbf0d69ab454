// A level's files: data.tma, a unit .dat and objects.rlb's slots (the first byte picks which).
// What a reader accepted writes back to the same bytes (they are lossless by construction).
#include "harness.hpp"

#include "formats/assembly.hpp"
#include "formats/mission.hpp"
#include "formats/object_registry.hpp"

#include <algorithm>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    if (size == 0) return 0;
    const ByteView bytes = fuzz::view(data + 1, size - 1);
    fuzz::expect_format_errors([&] {
        DiagnosticSink sink(ReadMode::Tolerant);
        switch (data[0] % 3) {
        case 0: {
            const mission::Mission m = mission::read(bytes, sink, "fuzz");
            const Bytes back = mission::write(m);
            fuzz::require(ByteView(back).size() == bytes.size() &&
                              std::equal(back.begin(), back.end(), bytes.begin()),
                          "data.tma written back differs");
            break;
        }
        case 1: {
            const assembly::Assembly a = assembly::read(bytes, sink, "fuzz");
            (void)a.parents();
            const Bytes back = assembly::write(a);
            fuzz::require(back.size() == bytes.size() &&
                              std::equal(back.begin(), back.end(), bytes.begin()),
                          "unit .dat written back differs");
            break;
        }
        default: {
            const Bytes back = registry::write_slots(registry::read_slots(bytes, "fuzz"));
            fuzz::require(back.size() == bytes.size() &&
                              std::equal(back.begin(), back.end(), bytes.begin()),
                          "registry slots written back differ");
        }
        }
    });
    return 0;
}
