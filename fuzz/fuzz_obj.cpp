// OBJ text -> the neutral scene -> a new MSH model.
#include "harness.hpp"

#include "formats/obj.hpp"
#include "mapping/scene_to_new_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    fuzz::expect_format_errors([&] {
        const scene::Scene s =
            obj::read(std::string(reinterpret_cast<const char*>(data), size), "fuzz.obj");
        DiagnosticSink sink(ReadMode::Tolerant);
        mapping::build_model(s, {24, "fuzz.obj"}, sink);
    });
    return 0;
}
