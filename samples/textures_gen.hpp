// Synthetic material libraries (texm-materials.md §13): Textures.lib, LightMap.lib, Material.lib
// and palettes.lib at the corpus root. Texels are procedural (marker pixels, checkerboards,
// gradients) and packed here bit by bit, independently of formats/texm, so tests can compare
// decoded pixels with expected_texel(). Deterministic for a given seed.
#pragma once

#include "formats/texm.hpp"
#include "samples/generator.hpp"
#include "samples/rng.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msh::samples {

constexpr const char* kTexturesLib = "Textures.lib";
constexpr const char* kLightMapLib = "LightMap.lib";
constexpr const char* kMaterialLib = "Material.lib";
constexpr const char* kPalettesLib = "palettes.lib";

// Ground: terrain textures (grass, rock, sand, ...): the colour `ground` with hash noise in 4 x 4
// clumps (+-14) and a faint grain (+-2), so a map renders as terrain (the markers stay).
enum class TexturePattern { Gradient, Checker, Ground };

struct TextureSpec {
    std::string name;    // entry name, e.g. "BRICK_02.0" or "LM_SILO_L"
    std::string library; // kTexturesLib or kLightMapLib
    texm::Format format = texm::Format::A8R8G8B8;
    uint32_t width = 0, height = 0, mip_count = 1;
    uint32_t flags4 = 0, flags5 = 0, unknown6 = 0;
    TexturePattern pattern = TexturePattern::Gradient;
    uint8_t tint = 0;
    std::optional<std::vector<texm::PageRect>> page;
    std::array<uint8_t, 3> ground{}; // TexturePattern::Ground's colour
};

// Every texture of Textures.lib and LightMap.lib, in directory order.
std::vector<TextureSpec> texture_specs(uint64_t seed);

// The decoded RGBA8 colour the texel must have (bit replication of the packed channel values).
// Markers on every level: (0,0) red (255,0,0,255); (1,0) green (0,255,0,255); (0,1) blue with
// A = 0 in alpha formats. Checker textures: 4×4 cells of white (255,255,255,255) and a tint.
// Format 88 stores L = the red channel: red -> (255,255,255,255), green -> (0,0,0,255).
std::array<uint8_t, 4> expected_texel(const TextureSpec& spec, uint32_t level, uint32_t x,
                                      uint32_t y);
std::optional<std::array<uint8_t, 4>> expected_texel(uint64_t seed, std::string_view name,
                                                     uint32_t level, uint32_t x, uint32_t y);
// The embedded palette of a format-0 texture (1024 bytes B, G, R, X): entry 1 red, 2 green,
// 3 blue, 4 white, all 256 colours distinct.
Bytes sample_palette();

// A texture of Textures.lib drawn from the §13 mix (format, size 8..256, mips, flags, Page).
TextureSpec random_texture_spec(Rng& rng, std::string name);

// Textures.lib, Material.lib, LightMap.lib, palettes.lib (outer archives, canonical layout), and
// `extra` textures (game_scale.hpp) in the libraries they name (Textures.lib or more).
std::vector<GeneratedFile> generate_material_libraries(uint64_t seed,
                                                       const std::vector<TextureSpec>& extra = {});

} // namespace msh::samples
