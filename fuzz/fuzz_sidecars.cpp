// Every sidecar reader: model, texture and terrain; what a reader accepted writes back to text
// that reads again.
#include "harness.hpp"

#include "pipeline/terrain.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/texture_sidecar.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    const ByteView bytes = fuzz::view(data, size);
    fuzz::expect_format_errors([&] {
        const sidecar::ModelSidecar s = sidecar::read_model_sidecar(bytes, "fuzz");
        const std::string text = sidecar::model_sidecar_text(s);
        sidecar::read_model_sidecar(
            ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()), "again");
    });
    fuzz::expect_format_errors([&] {
        const sidecar::TextureSidecar s = sidecar::read_texture_sidecar(bytes, "fuzz");
        sidecar::texture_sidecar_text(s);
    });
    fuzz::expect_format_errors([&] { pipeline::read_terrain_sidecar(bytes, "fuzz"); });
    return 0;
}
