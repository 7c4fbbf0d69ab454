// MSH model: the tolerant reader, the strict one with write-back equality, and the animation
// decomposition of what was read.
#include "harness.hpp"

#include "formats/anim.hpp"
#include "formats/msh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    const ByteView bytes = fuzz::view(data, size);
    fuzz::expect_format_errors([&] {
        DiagnosticSink sink(ReadMode::Tolerant);
        const Model m = read_model(bytes, sink, "fuzz");
        if (m.legacy_nodes) return;
        std::vector<anim::NodeFields> fields;
        for (const Node& n : m.nodes) fields.push_back({n.map_start, n.fallback_key});
        anim::decompose(m.animation, fields);
    });
    fuzz::expect_format_errors([&] {
        const Model m = read_model(bytes, ReadMode::Strict, "fuzz");
        fuzz::require(write_model(m) == Bytes(bytes.begin(), bytes.end()),
                      "strict MSH read writes back the same bytes");
    });
    return 0;
}
