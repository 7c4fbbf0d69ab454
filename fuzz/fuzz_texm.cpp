// Texm texture: read (tolerant) and decode every level it claims.
#include "harness.hpp"

#include "formats/texm.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    fuzz::expect_format_errors([&] {
        DiagnosticSink sink(ReadMode::Tolerant);
        const texm::Texture t = texm::read(fuzz::view(data, size), sink, "fuzz");
        if (t.raw_only || !t.format()) return;
        for (uint32_t level = 0; level < t.levels.size(); ++level) texm::decode_level(t, level);
    });
    return 0;
}
