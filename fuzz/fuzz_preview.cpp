// Previews of whatever the readers accept: an MSH model's scene built, posed and drawn by the
// rasterizer in every view of a grid (small: the drawing is under test, not the pixel count), and
// a GLB read as a foreign scene (any coordinates, UVs and images) drawn the same way. Nothing to
// draw is a PreviewError; anything else but FormatError is a finding.
#include "harness.hpp"

#include "conversion/model_import.hpp"
#include "conversion/preview_image.hpp"

#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    conversion::PreviewSettings settings;
    settings.width = settings.height = 32;
    settings.view = "grid";
    settings.frame = double(size % 7) * 3.5; // a pose at some frame
    const ByteView bytes = fuzz::view(data, size);
    fuzz::expect_format_errors([&] {
        try {
            if (size >= 4 && std::memcmp(data, "glTF", 4) == 0) {
                std::vector<std::string> warnings;
                const scene::Scene sc =
                    conversion::read_scene(bytes, conversion::SceneFormat::Glb, "fuzz", warnings);
                conversion::preview_scene(sc, bytes, "fuzz", settings);
            } else {
                conversion::preview_model(conversion::ModelExportInput(bytes, "fuzz"), settings);
            }
        } catch (const conversion::PreviewError&) {
        }
    });
    return 0;
}
