// A new model's materials and textures added to the game's libraries
// (conversion/game_library_add.hpp): WEAR rows, MAT0 entries naming Texm entries, pixels, formats,
// names, sizes, and what is kept or replaced in libraries that already hold entries.
#include "test_util.hpp"

#include "conversion/game_library_add.hpp"
#include "formats/material.hpp"
#include "formats/nres.hpp"
#include "formats/picture.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "formats/wear.hpp"

#include <stb/stb_image_write.h>

#include <boost/test/unit_test.hpp>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace game_library_add_tests {

using namespace msh;

namespace {

texm::Image pattern(uint32_t w, uint32_t h, bool alpha) {
    texm::Image img(w, h);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            uint8_t* p = img.at(x, y);
            p[0] = uint8_t(x * 255 / std::max(1u, w - 1));
            p[1] = uint8_t(y * 255 / std::max(1u, h - 1));
            p[2] = uint8_t((x ^ y) & 1 ? 200 : 40);
            p[3] = alpha ? uint8_t((x + y) % 2 ? 0 : 255) : 255;
        }
    return img;
}

scene::Material textured(const std::string& name, const std::string& image, const texm::Image& px) {
    scene::Material m;
    m.name = name;
    m.base_color = scene::Image{image, png::encode_rgba(px)};
    return m;
}

Bytes jpeg_of(const texm::Image& img) {
    Bytes out;
    stbi_write_jpg_to_func(
        [](void* context, void* data, int size) {
            auto* bytes = static_cast<Bytes*>(context);
            bytes->insert(bytes->end(), static_cast<uint8_t*>(data),
                          static_cast<uint8_t*>(data) + size);
        },
        &out, int(img.width), int(img.height), 4, img.rgba.data(), 95);
    return out;
}

nres::Archive read_archive(const Bytes& b) {
    return nres::read(b, ReadMode::Strict, "test");
}

const nres::Entry& entry(const nres::Archive& a, const std::string& name) {
    const auto i = a.find(name);
    BOOST_TEST_REQUIRE(i.has_value(), "no entry " << name);
    return a.entries[*i];
}

std::string texture_of(const nres::Archive& materials, const std::string& material) {
    const nres::Entry& e = entry(materials, material);
    BOOST_TEST(e.type == material::kType);
    BOOST_TEST(e.attr2 == 6u);
    const material::Material m = material::read(e.data, e.attr2, ReadMode::Strict, material);
    BOOST_TEST_REQUIRE(m.phases.size() == 1u);
    BOOST_TEST(m.anims.size() == 1u); // every shipped version-6 material has a block
    BOOST_TEST(material::writable_texture_name(m.phases[0].texture_name()));
    return m.phases[0].texture_name();
}

texm::Texture texture(const nres::Archive& textures, const std::string& name) {
    const nres::Entry& e = entry(textures, name);
    BOOST_TEST(e.type == texm::kMagic);
    return texm::read(e.data, ReadMode::Strict, name);
}

// A library with a DEFAULT material and a texture named like one of the new images.
conversion::GameLibraries existing_libraries() {
    conversion::GameLibraries libs;
    nres::Archive materials;
    material::Material def;
    material::Phase phase;
    for (size_t k = 0; k < phase.params.size(); ++k) phase.params[k] = uint8_t(10 + k);
    phase.set_texture_name("DEFAULT.0");
    def.phases.push_back(phase);
    def.anims.push_back({0, {{0, 0, 0}}});
    materials.append(conversion::new_entry_like(nullptr, material::kType, "DEFAULT",
                                                material::write(def), {0, 6, 0}));
    libs.materials = read_archive(nres::write_canonical(materials));
    nres::Archive textures;
    textures.append(conversion::new_entry_like(
        nullptr, texm::kMagic, "BRICK.0",
        texm::write(texm::make_texture(texm::Format::R5G6B5, pattern(8, 8, false))), {7, 8, 9}));
    libs.textures = read_archive(nres::write_canonical(textures));
    return libs;
}

} // namespace

BOOST_AUTO_TEST_SUITE(game_library_add)

BOOST_AUTO_TEST_CASE(materials_and_textures_resolve_through_the_game_chain) {
    scene::Scene s;
    const texm::Image brick = pattern(16, 16, false), leaves = pattern(32, 8, true);
    s.materials.push_back(textured("Brick wall", "brick", brick));
    s.materials.push_back(textured("Leaves", "leaves", leaves));
    scene::Material red;
    red.name = "Red";
    red.base_color_factor = {1, 0, 0, 1};
    s.materials.push_back(red);
    s.materials.push_back(textured("Brick again", "brick", brick)); // the same image: one Texm
    scene::Material unnamed = textured("", "photo", pattern(8, 8, false));
    unnamed.base_color->png = jpeg_of(pattern(8, 8, false));
    s.materials.push_back(unnamed);

    conversion::LibraryAddSettings settings;
    settings.model_stem = "tower";
    settings.where = "tower.glb";
    const conversion::GameLibraries libs = existing_libraries();
    const conversion::LibraryAddition r = conversion::add_to_game_libraries(s, libs, settings);

    // WEAR: one row per scene material, in order (row = the batches' materialIndex).
    const wear::Wear w = wear::read(r.wear, "tower.wea");
    BOOST_TEST(wear::material_names(w) == (std::vector<std::string>{"Brick_wall", "Leaves", "Red",
                                                                    "Brick_again", "TOWER_MAT4"}),
               boost::test_tools::per_element());
    BOOST_TEST(std::string(r.wear.begin(), r.wear.end()).find("\r\n") != std::string::npos);

    BOOST_TEST_REQUIRE(r.materials.has_value());
    BOOST_TEST_REQUIRE(r.textures.has_value());
    const nres::Archive materials = read_archive(*r.materials);
    const nres::Archive textures = read_archive(*r.textures);
    // The libraries keep what they held, byte for byte.
    BOOST_TEST(entry(materials, "DEFAULT").data == libs.materials->entries[0].data);
    BOOST_TEST(entry(textures, "BRICK.0").data == libs.textures->entries[0].data);

    // "brick" is taken by another texture: the new one gets a free name; shared by two materials.
    const std::string brick_name = texture_of(materials, "Brick_wall");
    BOOST_TEST(brick_name == "BRICK_2.0");
    BOOST_TEST(texture_of(materials, "Brick_again") == brick_name);
    const texm::Texture bt = texture(textures, brick_name);
    BOOST_TEST(bt.header.format == uint32_t(texm::Format::R5G6B5)); // no alpha: 565
    BOOST_TEST(bt.header.mip_count == texm::full_mip_count(16, 16));
    BOOST_TEST(bt.header.flags4 == 32u);
    // 565 keeps each channel to its bits: decoding gives the quantised source.
    const texm::Image decoded = texm::decode_level(bt, 0);
    const texm::Image quantised = texm::decode_pixels(
        texm::Format::R5G6B5, 16, 16, texm::encode_pixels(texm::Format::R5G6B5, brick, {}), {});
    BOOST_TEST((decoded == quantised));
    // New Texm entries copy the attributes of the library's existing Texm entries.
    BOOST_TEST(entry(textures, brick_name).attr1 == 7u);

    // Alpha in use: 8888, pixels exact.
    const texm::Texture lt = texture(textures, texture_of(materials, "Leaves"));
    BOOST_TEST(lt.header.format == uint32_t(texm::Format::A8R8G8B8));
    BOOST_TEST((texm::decode_level(lt, 0) == leaves));

    // No image: an 8 x 8 texture of the material's colour (sRGB of the linear factor).
    const texm::Image red_px =
        texm::decode_level(texture(textures, texture_of(materials, "Red")), 0);
    BOOST_TEST(red_px.width == 8u);
    BOOST_TEST((red_px.pixel(3, 3) == std::array<uint8_t, 4>{255, 0, 0, 255}));

    // A JPEG decodes; the phase parameters come from the library's DEFAULT (p17 = 0).
    const std::string photo = texture_of(materials, "TOWER_MAT4");
    BOOST_TEST(photo == "PHOTO.0");
    const material::Material m0 =
        material::read(entry(materials, "Leaves").data, 6, ReadMode::Strict, "Leaves");
    BOOST_TEST(m0.phases[0].params[0] == 10);
    BOOST_TEST(m0.phases[0].params[17] == 0);
    BOOST_TEST(r.kept.empty());
    BOOST_TEST(r.added.size() == 5u + 4u); // five materials, four textures (one shared)
}

BOOST_AUTO_TEST_CASE(existing_materials_are_kept_unless_replaced) {
    scene::Scene s;
    s.materials.push_back(textured("Hull", "hull", pattern(8, 8, false)));
    conversion::LibraryAddSettings settings;
    settings.model_stem = "ship";
    const conversion::LibraryAddition first =
        conversion::add_to_game_libraries(s, existing_libraries(), settings);
    conversion::GameLibraries libs;
    libs.materials = read_archive(*first.materials);
    libs.textures = read_archive(*first.textures);

    // The same model again, repainted: kept, nothing written, a warning.
    s.materials[0] = textured("Hull", "hull", pattern(8, 8, true));
    const conversion::LibraryAddition again = conversion::add_to_game_libraries(s, libs, settings);
    BOOST_TEST(again.kept == std::vector<std::string>{"Material.lib:Hull"},
               boost::test_tools::per_element());
    BOOST_TEST(!again.materials.has_value());
    BOOST_TEST(!again.textures.has_value());
    BOOST_TEST(again.warnings.size() == 1u);

    // --replace: the material and the texture it used are overwritten in place.
    settings.replace = true;
    const conversion::LibraryAddition replaced =
        conversion::add_to_game_libraries(s, libs, settings);
    const nres::Archive textures = read_archive(*replaced.textures);
    BOOST_TEST(textures.entries.size() == libs.textures->entries.size());
    const texm::Texture t = texture(textures, "HULL.0");
    BOOST_TEST(t.header.format == uint32_t(texm::Format::A8R8G8B8));
    BOOST_TEST((texm::decode_level(t, 0) == pattern(8, 8, true)));
    BOOST_TEST(
        (replaced.replaced == std::vector<std::string>{"Textures.lib:HULL.0", "Material.lib:Hull"}),
        boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(sizes_formats_and_empty_libraries) {
    scene::Scene s;
    s.materials.push_back(textured("Wide", "a very long image name", pattern(300, 100, false)));
    conversion::LibraryAddSettings settings;
    settings.model_stem = "w";
    settings.format = texm::Format::A4R4G4B4;
    const conversion::LibraryAddition r = conversion::add_to_game_libraries(s, {}, settings);
    // New libraries: written canonically, readable strictly.
    const nres::Archive textures = read_archive(*r.textures);
    BOOST_TEST(textures.entries.size() == 1u);
    const std::string name = textures.entries[0].name();
    BOOST_TEST(name == "A_VERY_LONG_I.0"); // 13 characters + ".0": the MAT0 field holds 15
    const texm::Texture t = texture(textures, name);
    BOOST_TEST(t.header.width == 256u); // powers of two, at most 256
    BOOST_TEST(t.header.height == 128u);
    BOOST_TEST(t.header.format == uint32_t(texm::Format::A4R4G4B4));
    BOOST_TEST(r.warnings.size() == 1u);
    BOOST_TEST(r.warnings[0].find("resized to 256 x 128") != std::string::npos);

    // No materials at all: the WEAR's one row is the game's DEFAULT, nothing is added.
    const conversion::LibraryAddition none = conversion::add_to_game_libraries({}, {}, settings);
    BOOST_TEST(wear::material_names(wear::read(none.wear, "w.wea")) ==
                   std::vector<std::string>{"DEFAULT"},
               boost::test_tools::per_element());
    BOOST_TEST(!none.materials.has_value());

    // An image no decoder reads is an error naming the material and the image.
    s.materials[0].base_color->png = {'n', 'o', 'p', 'e'};
    try {
        conversion::add_to_game_libraries(s, {}, settings);
        BOOST_FAIL("no error");
    } catch (const FormatError& e) {
        BOOST_TEST(std::string(e.what()).find("material 'Wide'") != std::string::npos);
    }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace game_library_add_tests
