// A new model's image (PNG through libpng; JPEG, BMP, TGA, GIF, PSD, HDR through stb_image) ->
// RGBA -> the Texm, MAT0 and WEAR a new model adds to the game's libraries.
#include "harness.hpp"

#include "conversion/game_library_add.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    scene::Scene s;
    scene::Material m;
    m.name = "fuzz";
    m.base_color = scene::Image{"fuzz", Bytes(data, data + size)};
    s.materials.push_back(std::move(m));
    conversion::LibraryAddSettings settings;
    settings.model_stem = "fuzz";
    settings.max_size = 64; // keeps resampling and mip chains small per input
    fuzz::expect_format_errors([&] { conversion::add_to_game_libraries(s, {}, settings); });
    return 0;
}
