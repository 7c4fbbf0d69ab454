#include "game_library_add.hpp"

#include "formats/diagnostics.hpp"
#include "formats/material.hpp"
#include "formats/picture.hpp"
#include "formats/wear.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace msh::conversion {

namespace {

constexpr size_t kMaterialNameMax = 31;
constexpr size_t kTextureStemMax = 13;   // + ".0" = 15 bytes, the MAT0 texture field's limit
constexpr uint32_t kPlainColourSize = 8; // the game's smallest textures

std::string upper(std::string s) {
    for (char& c : s)
        if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    return s;
}

// One token of [A-Za-z0-9_.-]: WEAR names are single tokens, and game names are ASCII in practice.
std::string token(const std::string& name, size_t max) {
    std::string s;
    for (char c : name) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
        s += ok ? c : '_';
    }
    if (s.size() > max) s.resize(max);
    return s;
}

// A power of two near `v` (in log scale), at most `max`.
uint32_t game_side(uint32_t v, uint32_t max) {
    uint32_t p = 1;
    while (p < v && p < max) p <<= 1;
    if (p > v && p / 2 >= 1 && double(v) / double(p / 2) < double(p) / double(v)) p /= 2;
    return std::min(p, max);
}

uint8_t scaled(uint8_t c, float factor) {
    const float f = std::clamp(factor, 0.0f, 1.0f);
    return uint8_t(std::lround(float(c) * f));
}

// sRGB 8-bit of a linear factor (glTF factors are linear; textures are sRGB).
uint8_t srgb8(float linear) {
    const float l = std::clamp(linear, 0.0f, 1.0f);
    const float s = l <= 0.0031308f ? l * 12.92f : 1.055f * std::pow(l, 1 / 2.4f) - 0.055f;
    return uint8_t(std::lround(s * 255));
}

// The pixels the game should show for a material (see the header).
texm::Image material_pixels(const scene::Material& mat, const std::string& where) {
    const std::array<float, 4>& f = mat.base_color_factor;
    if (!mat.base_color || mat.base_color->png.empty()) {
        texm::Image img(kPlainColourSize, kPlainColourSize);
        for (size_t i = 0; i < img.rgba.size(); i += 4) {
            img.rgba[i] = srgb8(f[0]), img.rgba[i + 1] = srgb8(f[1]), img.rgba[i + 2] = srgb8(f[2]);
            img.rgba[i + 3] = uint8_t(std::lround(std::clamp(f[3], 0.0f, 1.0f) * 255));
        }
        return img;
    }
    texm::Image img =
        picture::decode(mat.base_color->png, where + ": material '" + mat.name + "', image '" +
                                                 mat.base_color->name + "'");
    if (f != std::array<float, 4>{1, 1, 1, 1}) {
        // glTF multiplies the texture by the factor; the game has no factor: bake it.
        for (size_t i = 0; i < img.rgba.size(); i += 4)
            for (size_t k = 0; k < 4; ++k) img.rgba[i + k] = scaled(img.rgba[i + k], f[k]);
    }
    return img;
}

bool uses_alpha(const texm::Image& img) {
    for (size_t i = 3; i < img.rgba.size(); i += 4)
        if (img.rgba[i] != 255) return true;
    return false;
}

// Phase parameters for new materials without a DEFAULT to copy: every colour byte 255 (x / 255 =
// 1.0 in the runtime record), p3 = 0, p16 = p17 = 0 (no atlas cell).
material::Phase neutral_phase() {
    material::Phase p;
    p.params.fill(255);
    p.params[3] = 0;
    p.params[16] = 0;
    p.params[17] = 0;
    return p;
}

material::Phase template_phase(const std::optional<nres::Archive>& library) {
    if (!library) return neutral_phase();
    const material::Lookup l = material::find_material(*library, "DEFAULT");
    if (l.rule != material::LookupRule::Exact || !l.index) return neutral_phase();
    const nres::Entry& e = library->entries[*l.index];
    try {
        const material::Material m =
            material::read(e.data, e.attr2, ReadMode::Strict, "Material.lib:DEFAULT");
        if (m.phases.empty()) return neutral_phase();
        material::Phase p = m.phases[0];
        p.params[17] = 0; // the atlas cell: our textures have no Page rects
        return p;
    } catch (const std::exception&) {
        return neutral_phase();
    }
}

Bytes new_material(const material::Phase& phase_template, const std::string& texture) {
    material::Material m;
    material::Phase p = phase_template;
    p.set_texture_name(texture);
    m.phases.push_back(p);
    material::AnimBlock block;
    block.keys.push_back({0, 0, 0});
    m.anims.push_back(block);
    return material::write(m);
}

std::set<std::string> texture_names_of(const nres::Archive& library, size_t index) {
    std::set<std::string> names;
    const nres::Entry& e = library.entries[index];
    try {
        const material::Material m = material::read(e.data, e.attr2, ReadMode::Tolerant, "");
        for (const material::Phase& p : m.phases)
            if (!p.texture_name().empty()) names.insert(upper(p.texture_name()));
    } catch (const std::exception&) {
    }
    return names;
}

// Adds `e` to `archive`, or replaces the payload and version (attr2) of the entry of its name;
// the other attributes of a replaced entry stay as they were.
void put(nres::Archive& archive, nres::Entry e) {
    if (const auto i = archive.find(e.name())) {
        archive.entries[*i].data = std::move(e.data);
        archive.entries[*i].attr2 = e.attr2;
        return;
    }
    archive.append(std::move(e));
}

} // namespace

nres::Entry new_entry_like(const nres::Archive* archive, uint32_t type, const std::string& name,
                           Bytes data, const std::array<uint32_t, 3>& fallback) {
    nres::Entry e;
    e.type = type;
    e.attr1 = fallback[0], e.attr2 = fallback[1], e.attr3 = fallback[2];
    if (archive)
        if (const auto i = archive->find_type(type)) {
            const nres::Entry& like = archive->entries[*i];
            e.attr1 = like.attr1, e.attr2 = like.attr2, e.attr3 = like.attr3;
        }
    e.set_name(name);
    e.data = std::move(data);
    return e;
}

LibraryAddition add_to_game_libraries(const scene::Scene& scene, const GameLibraries& libraries,
                                      const LibraryAddSettings& settings) {
    LibraryAddition out;
    if (settings.format && *settings.format == texm::Format::Indexed)
        throw std::invalid_argument("--format 0 (palette) needs a palette; new textures are 565, "
                                    "4444, 888, 8888, 556 or 88");
    nres::Archive materials = libraries.materials ? *libraries.materials : nres::Archive{};
    nres::Archive textures = libraries.textures ? *libraries.textures : nres::Archive{};
    const material::Phase phase = template_phase(libraries.materials);
    const std::string stem = upper(token(settings.model_stem, kMaterialNameMax - 8));

    wear::Wear wear;
    std::vector<std::pair<Bytes, std::string>> texture_by_payload; // shared when equal
    std::set<std::string> taken; // texture names this import wrote
    bool materials_changed = false, textures_changed = false;
    std::set<std::string> row_names;
    for (size_t i = 0; i < std::max<size_t>(scene.materials.size(), 1); ++i) {
        if (scene.materials.empty()) { // batches without material are row 0: the game's default
            wear.materials.push_back({0, "DEFAULT"});
            break;
        }
        const scene::Material& mat = scene.materials[i];
        std::string name = token(mat.name, kMaterialNameMax);
        if (name.empty()) name = stem + "_MAT" + std::to_string(i);
        wear.materials.push_back({int32_t(i), name});
        if (!row_names.insert(upper(name)).second) continue; // the same material twice

        const auto existing = materials.find(name);
        const std::string material_address = libraries.materials_name + ":" + name;
        if (existing && materials.entries[*existing].type == material::kType && !settings.replace) {
            out.kept.push_back(material_address);
            out.warnings.push_back(material_address + " already exists and is kept (its look, not "
                                                      "this model's; --replace overwrites it)");
            continue;
        }
        const std::set<std::string> replaceable =
            existing ? texture_names_of(materials, *existing) : std::set<std::string>{};

        texm::Image pixels = material_pixels(mat, settings.where);
        const uint32_t w = game_side(pixels.width, settings.max_size);
        const uint32_t h = game_side(pixels.height, settings.max_size);
        if (w != pixels.width || h != pixels.height) {
            if (pixels.width > settings.max_size || pixels.height > settings.max_size ||
                (pixels.width & (pixels.width - 1)) || (pixels.height & (pixels.height - 1)))
                out.warnings.push_back(settings.where + ": material '" + mat.name + "': image " +
                                       std::to_string(pixels.width) + " x " +
                                       std::to_string(pixels.height) + " resized to " +
                                       std::to_string(w) + " x " + std::to_string(h) +
                                       " (the game's textures are powers of two up to " +
                                       std::to_string(settings.max_size) + ")");
            pixels = picture::resize(pixels, w, h);
        }
        const texm::Format format = settings.format      ? *settings.format
                                    : uses_alpha(pixels) ? texm::Format::A8R8G8B8
                                                         : texm::Format::R5G6B5;
        Bytes payload = texm::write(texm::make_texture(format, pixels));
        const Bytes key = payload;

        std::string texture;
        const auto same = std::find_if(texture_by_payload.begin(), texture_by_payload.end(),
                                       [&](const auto& known) { return known.first == payload; });
        if (same != texture_by_payload.end()) {
            texture = same->second;
        } else {
            const std::string image_name =
                mat.base_color && !mat.base_color->name.empty() ? mat.base_color->name : name;
            std::string base = upper(token(image_name, kTextureStemMax));
            for (char& c : base)
                if (c == '.') c = '_'; // the first '.' starts the palette suffix
            for (int n = 1;; ++n) {
                const std::string suffix = n == 1 ? "" : "_" + std::to_string(n);
                std::string candidate =
                    base.substr(0, std::min(base.size(), kTextureStemMax - suffix.size())) +
                    suffix + ".0";
                if (taken.count(candidate)) continue;
                const auto there = textures.find(candidate);
                if (there && textures.entries[*there].data != payload &&
                    !replaceable.count(candidate))
                    continue; // another texture's name: never overwritten
                texture = candidate;
                const std::string address = libraries.textures_name + ":" + candidate;
                if (!there) {
                    textures.append(
                        new_entry_like(libraries.textures ? &*libraries.textures : nullptr,
                                       texm::kMagic, candidate, std::move(payload)));
                    out.added.push_back(address);
                    textures_changed = true;
                } else if (textures.entries[*there].data != payload) {
                    textures.entries[*there].data = std::move(payload);
                    out.replaced.push_back(address);
                    textures_changed = true;
                }
                break;
            }
            taken.insert(texture);
            texture_by_payload.emplace_back(key, texture);
        }
        nres::Entry entry =
            new_entry_like(nullptr, material::kType, name, new_material(phase, texture),
                           {0, material::kShippedVersion, 0});
        (existing ? out.replaced : out.added).push_back(material_address);
        put(materials, std::move(entry));
        materials_changed = true;
    }
    out.wear = wear::write(wear);
    // An existing library keeps every byte and gains entries (lossless writer); a new one is
    // written canonically.
    if (materials_changed)
        out.materials =
            libraries.materials ? nres::write(materials) : nres::write_canonical(materials);
    if (textures_changed)
        out.textures = libraries.textures ? nres::write(textures) : nres::write_canonical(textures);
    return out;
}

} // namespace msh::conversion
