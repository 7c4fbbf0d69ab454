#include "samples/textures_gen.hpp"

#include "formats/material.hpp"
#include "formats/nres.hpp"
#include "samples/rng.hpp"

#include <algorithm>
#include <cstring>
#include <map>

namespace msh::samples {

namespace {

using texm::Format;

// Material names the model corpus (samples/generator.cpp) puts in its WEAR tables, plus DEFAULT.
const char* const kModelMaterials[] = {
    "DEFAULT",    "ARROW_GRN",  "ASPHALT",     "BARK",        "BARREL_DK",  "BEAK",
    "BOMB_OLIVE", "BRICK_02",   "CHECK_BLACK", "CHECK_WHITE", "CHITIN",     "CLAW",
    "CONCRETE",   "CURSOR_YEL", "DISH_WHITE",  "DOOR_STEEL",  "EYE_RED",    "FEATHER",
    "FLAG_RED",   "GLASS_BLUE", "HAZARD",      "HIDE_DARK",   "LAMP_GLOW",  "LASER_LENS",
    "LEAVES_A",   "LIGHT1",     "METAL_01",    "METAL_BURNT", "METAL_RUST", "MOSS",
    "NEEDLES",    "PIPE",       "PLASMA_GLOW", "PLASMA_RING", "ROCKET_FIN", "ROCKET_W",
    "ROCK_GREY",  "ROOF_TILE",  "SAIL_CLOTH",  "SELECT_GRN",  "SKIN_BROWN", "SKIN_GREEN",
    "SKIN_WORM",  "SLIT_DARK",  "SPIKE_BONE",  "TANK_CAMO",   "TEETH",      "TRACKS",
    "TURRET_CAM", "WARHEAD",    "WHEEL",       "WINDOW",      "WING_MEMB",  "WOOD_DARK",
    "WOOD_PLANK",
};
// The sample maps' terrain materials (samples/terrain_gen.cpp: Land1.wea and Land2.wea rows)
// and the colour of their ground textures.
const std::vector<std::pair<std::string, std::array<uint8_t, 3>>>& terrain_texture_colours() {
    static const std::vector<std::pair<std::string, std::array<uint8_t, 3>>> colours = {
        {"GRASS1", {86, 128, 52}},  {"GRASS2", {110, 140, 60}}, {"GRASS3", {70, 110, 45}},
        {"ROCK1", {120, 116, 110}}, {"ROCK2", {96, 92, 88}},    {"SAND1", {200, 180, 120}},
        {"WATER1", {40, 80, 150}},  {"DIRT1", {120, 90, 60}},   {"DIRT2", {100, 72, 48}}};
    return colours;
}

// Lightmaps the model corpus references ("LM_" + model stem).
const char* const kLightmaps[] = {"LM_SILO_L",  "LM_BRIDGE_A", "LM_FACTORY", "LM_POD_BASE",
                                  "LM_DOCK_01", "LM_SPARE_1",  "LM_SPARE_2"};
// Palettised textures: names whose suffix selects an external palette (§9) or none (".0").
struct PalettedName {
    const char* material;
    const char* texture;
};
const PalettedName kPaletted[] = {
    {"FONT_A", "FONT_A.A"}, {"SIGN_B3", "SIGN_B3.B3"}, {"DECAL", "DECAL.0"}, {"ICONS", "ICONS.C"}};
constexpr int kAnimTextures = 12; // "ANIM_00.0" .. used by later phases only

uint8_t scale(uint32_t v, uint32_t range) {
    return range == 0 ? 0 : uint8_t(v * 255 / range);
}

// The 8-bit colour before packing (the generator's intent), per level.
std::array<uint8_t, 4> ideal(const TextureSpec& s, uint32_t level, uint32_t x, uint32_t y) {
    bool alpha = texm::has_alpha(s.format);
    if (x == 0 && y == 0) return {255, 0, 0, 255};
    if (x == 1 && y == 0) return {0, 255, 0, 255};
    if (x == 0 && y == 1) return {0, 0, 255, uint8_t(alpha ? 0 : 255)};
    uint32_t w = texm::level_width(s.width, level), h = texm::level_height(s.height, level);
    if (s.pattern == TexturePattern::Ground) {
        // Clumps of 4 x 4 texels (grass tufts, pebbles) and a faint grain inside them.
        const uint32_t clump =
            ((x >> 2) * 73856093u) ^ ((y >> 2) * 19349663u) ^ (level * 83492791u);
        const uint32_t grain = (x * 2654435761u) ^ (y * 40503u);
        const int noise = int((clump >> 7) % 29) - 14 + int((grain >> 11) % 5) - 2;
        auto channel = [&](uint8_t c) { return uint8_t(std::clamp(int(c) + noise, 0, 255)); };
        return {channel(s.ground[0]), channel(s.ground[1]), channel(s.ground[2]), 255};
    }
    if (s.pattern == TexturePattern::Checker) {
        if (((x >> 2) ^ (y >> 2) ^ level) & 1) return {255, 255, 255, 255};
        return {s.tint, uint8_t(255 - s.tint), uint8_t(s.tint ^ 0x5A), uint8_t(alpha ? 0x88 : 255)};
    }
    return {scale(x, w - 1), scale(y, h - 1), uint8_t(s.tint + level * 40),
            uint8_t(alpha ? 255 - scale(x + y, w + h - 2) : 255)};
}

uint8_t palette_index(const TextureSpec& s, uint32_t level, uint32_t x, uint32_t y) {
    if (x == 0 && y == 0) return 1;
    if (x == 1 && y == 0) return 2;
    if (x == 0 && y == 1) return 3;
    if (s.pattern == TexturePattern::Checker) return ((x >> 2) ^ (y >> 2) ^ level) & 1 ? 4 : 5;
    return uint8_t(5 + (x + y * 7 + level * 11 + s.tint) % 251);
}

std::array<uint8_t, 3> palette_colour(uint32_t k) {
    switch (k) {
    case 0:
        return {0, 0, 0};
    case 1:
        return {255, 0, 0};
    case 2:
        return {0, 255, 0};
    case 3:
        return {0, 0, 255};
    case 4:
        return {255, 255, 255};
    default:
        return {uint8_t(k), uint8_t(k * 37), uint8_t(255 - k)}; // R = k: all distinct
    }
}

// Writes one texel in the texture's format; channel values are truncated to the stored width.
void pack(const TextureSpec& s, uint32_t level, uint32_t x, uint32_t y, ByteWriter& w) {
    if (s.format == Format::Indexed) {
        w.put(palette_index(s, level, x, y));
        return;
    }
    auto [r, g, b, a] = ideal(s, level, x, y);
    switch (s.format) {
    case Format::R5G6B5:
        w.put(uint16_t((r >> 3) << 11 | (g >> 2) << 5 | (b >> 3)));
        break;
    case Format::R5G5B6:
        w.put(uint16_t((r >> 3) << 11 | (g >> 3) << 6 | (b >> 2)));
        break;
    case Format::A4R4G4B4:
        w.put(uint16_t((a >> 4) << 12 | (r >> 4) << 8 | (g >> 4) << 4 | (b >> 4)));
        break;
    case Format::L8A8:
        w.put(uint16_t(r << 8 | a));
        break;
    case Format::X8R8G8B8:
        w.put(b), w.put(g), w.put(r), w.put(uint8_t(0));
        break;
    case Format::A8R8G8B8:
        w.put(b), w.put(g), w.put(r), w.put(a);
        break;
    default:
        break;
    }
}

Bytes texture_payload(const TextureSpec& s) {
    ByteWriter w;
    for (uint32_t v : {texm::kMagic, s.width, s.height, s.mip_count, s.flags4, s.flags5, s.unknown6,
                       uint32_t(s.format)})
        w.put(v);
    if (s.format == Format::Indexed) w.put_bytes(sample_palette());
    for (uint32_t level = 0; level < s.mip_count; ++level) {
        uint32_t lw = texm::level_width(s.width, level), lh = texm::level_height(s.height, level);
        for (uint32_t y = 0; y < lh; ++y)
            for (uint32_t x = 0; x < lw; ++x) pack(s, level, x, y, w);
    }
    if (s.page) {
        w.put(texm::kPageMagic);
        w.put(uint32_t(s.page->size()));
        for (const texm::PageRect& r : *s.page) w.put(r.x), w.put(r.w), w.put(r.y), w.put(r.h);
    }
    return w.take();
}

Format pick_format(Rng& rng) {
    int r = rng.range(0, 99);
    if (r < 45) return Format::A8R8G8B8;
    if (r < 70) return Format::R5G6B5;
    if (r < 85) return Format::A4R4G4B4;
    return Format::X8R8G8B8;
}

uint32_t pick_size(Rng& rng) {
    return 8u << rng.range(0, 5);
} // 8 .. 256

TextureSpec base_spec(Rng& rng, std::string name, Format f, uint32_t w, uint32_t h) {
    TextureSpec s;
    s.name = std::move(name);
    s.library = kTexturesLib;
    s.format = f;
    s.width = w;
    s.height = h;
    uint32_t full = texm::full_mip_count(w, h);
    int kind = rng.range(0, 11);
    s.mip_count = kind == 0 ? 1 : (kind == 1 && full > 3 ? full - 2 : full); // partial chains occur
    s.flags4 = s.mip_count > 1 ? texm::kFlags4Mipmapped : 0;
    s.flags5 = rng.chance(0.2) ? texm::kFlags5Exporter : 0;
    s.unknown6 = rng.chance(0.12) ? uint32_t(rng.next()) : 0;
    s.pattern = rng.chance(0.5) ? TexturePattern::Checker : TexturePattern::Gradient;
    s.tint = uint8_t(rng.range(0, 255));
    if (rng.chance(1.0 / 6)) {
        std::vector<texm::PageRect> rects(size_t(rng.range(1, 6)));
        for (texm::PageRect& r : rects) {
            r.w = uint16_t(rng.range(1, int(w)));
            r.h = uint16_t(rng.range(1, int(h)));
            r.x = uint16_t(rng.range(0, int(w - r.w)));
            r.y = uint16_t(rng.range(0, int(h - r.h)));
        }
        s.page = std::move(rects);
    }
    return s;
}

std::string texture_of(const std::string& material) {
    return material + ".0";
}

nres::Entry make_entry(uint32_t type, const std::string& name, Bytes data, uint32_t a1 = 0,
                       uint32_t a2 = 0, uint32_t a3 = 0) {
    nres::Entry e;
    e.type = type;
    e.set_name(name);
    e.attr1 = a1;
    e.attr2 = a2;
    e.attr3 = a3;
    e.data = std::move(data);
    return e;
}

} // namespace

Bytes sample_palette() {
    Bytes p(texm::kPaletteSize);
    for (uint32_t k = 0; k < texm::kPaletteEntries; ++k) {
        auto [r, g, b] = palette_colour(k);
        p[4 * k + 0] = b, p[4 * k + 1] = g, p[4 * k + 2] = r, p[4 * k + 3] = 0;
    }
    return p;
}

std::vector<TextureSpec> texture_specs(uint64_t seed) {
    Rng rng(seed, "textures");
    std::vector<TextureSpec> specs;
    // Formats that must occur whatever the dice say.
    const std::map<std::string, Format> forced = {
        {"MOSS", Format::R5G5B6},      {"BARK", Format::R5G5B6},     {"LAMP_GLOW", Format::L8A8},
        {"PLASMA_GLOW", Format::L8A8}, {"ASPHALT", Format::R5G6B5},  {"METAL_01", Format::X8R8G8B8},
        {"DEFAULT", Format::A8R8G8B8}, {"HAZARD", Format::A4R4G4B4},
    };
    for (const char* m : kModelMaterials) {
        std::string mat = m;
        auto it = forced.find(mat);
        Format f = it != forced.end() ? it->second : pick_format(rng);
        uint32_t w = pick_size(rng), h = rng.chance(0.7) ? w : pick_size(rng);
        if (mat == "ASPHALT") w = h = 1024; // the one big texture
        if (mat == "DEFAULT") w = h = 64;
        specs.push_back(base_spec(rng, texture_of(mat), f, w, h));
    }
    for (const PalettedName& p : kPaletted) {
        // The dice in a fixed order (C++ leaves the order of arguments to the compiler): height
        // first, as GCC, which recorded the corpus, evaluated them.
        const uint32_t h = pick_size(rng), w = pick_size(rng);
        TextureSpec s = base_spec(rng, p.texture, Format::Indexed, w, h);
        s.flags5 = 0;
        specs.push_back(std::move(s));
    }
    for (int i = 0; i < kAnimTextures; ++i) {
        char name[16];
        std::snprintf(name, sizeof name, "ANIM_%02d.0", i);
        Format f = i % 5 == 0 ? Format::R5G5B6 : (i % 5 == 1 ? Format::L8A8 : pick_format(rng));
        const uint32_t h = 8u << rng.range(0, 3), w = 8u << rng.range(0, 3); // height first
        specs.push_back(base_spec(rng, name, f, w, h));
    }
    // A single-level 8×8 and a non-square strip, for the size extremes.
    specs.push_back(base_spec(rng, "TINY.0", Format::A4R4G4B4, 8, 8));
    specs.back().mip_count = 1, specs.back().flags4 = 0;
    specs.push_back(base_spec(rng, "STRIP.0", Format::A8R8G8B8, 256, 8));

    // The terrain's materials (Land1.wea / Land2.wea rows of the sample maps): 128 x 128 ground
    // textures, 565 as opaque terrain textures are, full mip chains. No dice: adding them leaves
    // every other texture as it was.
    for (const auto& [name, colour] : terrain_texture_colours()) {
        TextureSpec t;
        t.name = texture_of(name);
        t.library = kTexturesLib;
        t.format = Format::R5G6B5;
        t.width = t.height = 128;
        t.mip_count = texm::full_mip_count(128, 128);
        t.flags4 = texm::kFlags4Mipmapped;
        t.pattern = TexturePattern::Ground;
        t.ground = colour;
        specs.push_back(std::move(t));
    }

    int lm = 0;
    for (const char* name : kLightmaps) {
        TextureSpec s;
        s.name = name;
        s.library = kLightMapLib;
        s.format = Format::R5G6B5;
        s.width = 16u << rng.range(0, 3);
        s.height = 16u << rng.range(0, 3);
        s.mip_count = 1;
        s.flags5 = lm++ < 3 ? texm::kFlags5Lightmap : 0;
        s.pattern = TexturePattern::Gradient;
        s.tint = uint8_t(rng.range(0, 255));
        specs.push_back(std::move(s));
    }
    return specs;
}

std::array<uint8_t, 4> expected_texel(const TextureSpec& s, uint32_t level, uint32_t x,
                                      uint32_t y) {
    auto w5 = [](uint32_t v) { return uint8_t((v << 3) | (v >> 2)); };
    auto w6 = [](uint32_t v) { return uint8_t((v << 2) | (v >> 4)); };
    auto w4 = [](uint32_t v) { return uint8_t(v * 17); };
    if (s.format == Format::Indexed) {
        auto c = palette_colour(palette_index(s, level, x, y));
        return {c[0], c[1], c[2], 255};
    }
    auto [r, g, b, a] = ideal(s, level, x, y);
    switch (s.format) {
    case Format::R5G6B5:
        return {w5(r >> 3), w6(g >> 2), w5(b >> 3), 255};
    case Format::R5G5B6:
        return {w5(r >> 3), w5(g >> 3), w6(b >> 2), 255};
    case Format::A4R4G4B4:
        return {w4(r >> 4), w4(g >> 4), w4(b >> 4), w4(a >> 4)};
    case Format::L8A8:
        return {r, r, r, a};
    case Format::X8R8G8B8:
        return {r, g, b, 255};
    default:
        return {r, g, b, a};
    }
}

std::optional<std::array<uint8_t, 4>> expected_texel(uint64_t seed, std::string_view name,
                                                     uint32_t level, uint32_t x, uint32_t y) {
    for (const TextureSpec& s : texture_specs(seed))
        if (nres::compare_names(s.name, name) == 0) {
            if (level >= s.mip_count || x >= texm::level_width(s.width, level) ||
                y >= texm::level_height(s.height, level))
                return std::nullopt;
            return expected_texel(s, level, x, y);
        }
    return std::nullopt;
}

// The shares of a real Textures.lib (real-install evidence: 237 of 8888, 52 of 888, 47 of 565 and
// 42 of 4444 among its 378 unpaletted Texm), for the textures a game-sized corpus adds.
Format pick_game_format(Rng& rng) {
    const int r = rng.range(0, 377);
    if (r < 237) return Format::A8R8G8B8;
    if (r < 237 + 52) return Format::X8R8G8B8;
    if (r < 237 + 52 + 47) return Format::R5G6B5;
    return Format::A4R4G4B4;
}

TextureSpec random_texture_spec(Rng& rng, std::string name) {
    const bool indexed = rng.chance(15.0 / 518); // §13: 15 of Part 1's 518
    const Format f = indexed ? Format::Indexed : pick_game_format(rng);
    const uint32_t w = pick_size(rng), h = rng.chance(0.7) ? w : pick_size(rng);
    TextureSpec s = base_spec(rng, std::move(name), f, w, h);
    if (indexed) s.flags5 = 0;
    return s;
}

std::vector<GeneratedFile> generate_material_libraries(uint64_t seed,
                                                       const std::vector<TextureSpec>& extra) {
    std::vector<TextureSpec> specs = texture_specs(seed);
    nres::Archive textures, lightmaps, materials, palettes;
    std::map<std::string, nres::Archive> more; // extra libraries by file name
    std::map<std::string, const TextureSpec*> by_name;
    for (const TextureSpec& s : specs) {
        by_name[s.name] = &s;
        // Texm entry attributes are undocumented; new entries write 0 (nres.md §4.3).
        nres::Entry e = make_entry(texm::kMagic, s.name, texture_payload(s));
        (s.library == kLightMapLib ? lightmaps : textures).entries.push_back(std::move(e));
    }
    for (const TextureSpec& s : extra) {
        by_name[s.name] = &s;
        nres::Entry e = make_entry(texm::kMagic, s.name, texture_payload(s));
        (s.library == kTexturesLib ? textures : more[s.library]).entries.push_back(std::move(e));
    }

    // Materials: phase 0 is the material's own texture; later phases cycle through the
    // animation textures (some untextured); one animation block per material, a few with more.
    Rng rng(seed, "materials");
    std::vector<std::pair<std::string, std::string>> mats; // material, phase-0 texture
    for (const char* m : kModelMaterials) mats.emplace_back(m, texture_of(m));
    for (const PalettedName& p : kPaletted) mats.emplace_back(p.material, p.texture);
    mats.emplace_back("TINY", "TINY.0");
    mats.emplace_back("STRIP", "STRIP.0");
    for (int v = 0; v < 6; ++v)
        mats.emplace_back("OLD_V" + std::to_string(v), "ANIM_0" + std::to_string(v) + ".0");
    mats.emplace_back("UNTEXTURED", "");
    // A scaled corpus: one material per extra texture of Textures.lib (the game's ~1,000 MAT0
    // reference its textures; UI textures have none).
    for (const TextureSpec& s : extra)
        if (s.library == kTexturesLib)
            mats.emplace_back(s.name.substr(0, s.name.find('.')), s.name);
    // The terrain's materials last: their dice come after everyone else's.
    for (const auto& [name, colour] : terrain_texture_colours())
        mats.emplace_back(name, texture_of(name));

    int anim_cursor = 0;
    for (size_t mi = 0; mi < mats.size(); ++mi) {
        const auto& [name, tex0] = mats[mi];
        material::Material m;
        if (name.rfind("OLD_V", 0) == 0) m.version = uint32_t(name[5] - '0');
        m.meta_a = rng.chance(0.7) ? 255 : uint8_t(rng.range(0, 254));
        m.meta_b = rng.chance(0.7) ? 255 : uint8_t(rng.range(0, 254));
        if (rng.chance(0.3)) {
            float f = float(rng.range(1, 40)) * 0.25f;
            std::memcpy(&m.meta_c, &f, 4);
        }
        m.meta_d = rng.chance(0.8) ? 0 : uint32_t(rng.range(1, 1000));
        int phases = 1;
        if (name == "PLASMA_GLOW")
            phases = 29; // the corpus maximum
        else if (rng.chance(0.45))
            phases = rng.range(2, 8);
        for (int p = 0; p < phases; ++p) {
            material::Phase ph;
            for (uint8_t& b : ph.params) b = uint8_t(rng.range(0, 255));
            ph.params[3] = uint8_t(rng.range(0, 200)); // × 0.01
            std::string tex;
            if (p == 0)
                tex = tex0;
            else if (!rng.chance(0.15)) {
                char buf[16];
                std::snprintf(buf, sizeof buf, "ANIM_%02d.0", anim_cursor++ % kAnimTextures);
                tex = buf;
            }
            const TextureSpec* ts = tex.empty() ? nullptr : by_name.at(tex);
            // p17: atlas cell (candidate field, §5) within the texture's Page rects.
            ph.params[17] = ts && ts->page ? uint8_t(rng.range(0, int(ts->page->size()))) : 0;
            if (!tex.empty() &&
                rng.chance(0.3)) { // lower-case reference: lookups are case-insensitive
                std::transform(tex.begin(), tex.end(), tex.begin(), [](char c) {
                    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
                });
            }
            ph.set_texture_name(tex);
            m.phases.push_back(ph);
        }
        int blocks = mi % 23 == 7 ? 2 : 1;
        if (name == "PLASMA_RING" || name == "LASER_LENS") blocks = 8;
        if (m.version < 6 && mi % 2) blocks = 0;
        for (int b = 0; b < blocks; ++b) {
            material::AnimBlock blk;
            const uint32_t low = uint32_t(rng.range(0, 3)); // the dice in a fixed order
            blk.header = low | uint32_t(rng.range(0, 31)) << 3;
            uint16_t t = 0;
            for (int k = 0; k < phases; ++k) {
                blk.keys.push_back({uint16_t(k), t, uint16_t(rng.range(0, 3))});
                t = uint16_t(t + rng.range(1, 500));
            }
            m.anims.push_back(std::move(blk));
        }
        uint32_t attr1 = uint32_t(rng.range(0, 127));
        materials.entries.push_back(
            make_entry(material::kType, name, material::write(m), attr1, m.version, 0));
    }

    // External palettes referenced by the palettised texture names (raw 256 × B, G, R, X — the
    // spec does not define the .PAL payload; type 0 and zero attributes, an assumption).
    std::vector<std::string> pal_names = {"A.PAL", "Z9.PAL"};
    for (const PalettedName& p : kPaletted) {
        material::PaletteRef ref = material::palette_slot(p.texture);
        if (ref.slot >= 0) pal_names.push_back(material::palette_file_name(ref.slot));
    }
    std::sort(pal_names.begin(), pal_names.end());
    pal_names.erase(std::unique(pal_names.begin(), pal_names.end()), pal_names.end());
    for (const std::string& n : pal_names)
        palettes.entries.push_back(make_entry(0, n, sample_palette()));

    std::vector<GeneratedFile> out;
    out.push_back({kTexturesLib, nres::write_canonical(textures)});
    out.push_back({kMaterialLib, nres::write_canonical(materials)});
    out.push_back({kLightMapLib, nres::write_canonical(lightmaps)});
    out.push_back({kPalettesLib, nres::write_canonical(palettes)});
    for (const auto& [file, archive] : more) out.push_back({file, nres::write_canonical(archive)});
    return out;
}

} // namespace msh::samples
