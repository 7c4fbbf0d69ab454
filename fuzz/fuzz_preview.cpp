// Previews of whatever the MSH reader accepts: the model's scene built, posed and drawn by the
// rasterizer in every view of a grid (small: the drawing is under test, not the pixel count).
// A model may have nothing to draw (PreviewError); anything else but FormatError is a finding.
#include "harness.hpp"

#include "pipeline/preview.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    fuzz::expect_format_errors([&] {
        const pipeline::ModelExportInput input(fuzz::view(data, size), "fuzz");
        pipeline::PreviewSettings settings;
        settings.width = settings.height = 32;
        settings.view = "grid";
        settings.frame = double(size % 7) * 3.5; // the engine sampler at some frame
        try {
            pipeline::preview_model(input, settings);
        } catch (const pipeline::PreviewError&) {
        }
    });
    return 0;
}
