// OBJ text -> the neutral scene -> a new MSH model; the same text as an MTL library (both go
// through the OBJ text level).
#include "harness.hpp"

#include "formats/mtl.hpp"
#include "formats/obj.hpp"
#include "mapping/scene_to_new_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::expect_format_errors([&] {
        const scene::Scene s = obj::read(text, "fuzz.obj");
        DiagnosticSink sink(ReadMode::Tolerant);
        mapping::build_model(s, {24, "fuzz.obj"}, sink);
    });
    fuzz::expect_format_errors([&] { mtl::read(text, "fuzz.mtl"); });
    return 0;
}
