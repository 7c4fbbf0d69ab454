#include "materials.hpp"

#include "formats/diagnostics.hpp"
#include "formats/material.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "mapping/model_to_scene.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace msh::mapping {

using nlohmann::json;

namespace {

std::string upper(std::string s) {
    for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// Level 0 as PNG, or as decoded pixels when only those are asked for.
scene::Image image_of_level(const std::string& name, const texm::Texture& t,
                            const png::EncodeOptions& png) {
    if (png.pixels_only)
        return scene::Image{
            name, {}, std::make_shared<const texm::Image>(png::texm_level_pixels(t, 0))};
    return scene::Image{name, png::from_texm_level(t, 0, png), nullptr};
}

struct TextureResult {
    std::optional<scene::Image> image;
    scene::AlphaMode alpha = scene::AlphaMode::Opaque;
    json info = json::object();
};

// Texture name -> PNG of level 0 (cached per upper-cased name by the caller).
TextureResult load_texture(const std::string& name, const MaterialLibraries& libs,
                           DiagnosticSink& diagnostics, const png::EncodeOptions& png) {
    TextureResult r;
    r.info["name"] = name;
    const material::PaletteRef pal = material::palette_slot(name);
    if (!pal.valid_name) {
        diagnostics.warn({}, Location::whole(),
                         "texture '" + name +
                             "': Bad texture name. (no '.' in the first 17 "
                             "characters); untextured");
        return r;
    }
    if (pal.slot >= 0 && pal.slot < material::kPaletteSlots) {
        // §9: how the external palette combines with the embedded one is undocumented; the
        // embedded palette decodes, the external one is recorded.
        const std::string pal_name = material::palette_file_name(pal.slot);
        r.info["external_palette"] = pal_name;
        r.info["external_palette_found"] =
            libs.palettes && libs.palettes->find(pal_name).has_value();
    }
    if (!libs.textures) {
        diagnostics.warn({}, Location::whole(),
                         "texture '" + name + "': no " + libs.textures_name + "; untextured");
        return r;
    }
    const auto index = material::find_resource(*libs.textures, texm::kMagic, name);
    if (!index) {
        diagnostics.warn({}, Location::whole(),
                         "texture '" + name + "' not found in " + libs.textures_name +
                             "; untextured");
        return r;
    }
    const nres::Entry& e = libs.textures->entries[*index];
    const std::string where = libs.textures_name + ":" + e.name();
    const TextureCache::Key key{*index, png.compression_level, int(png.filter), png.pixels_only};
    if (libs.texture_cache) {
        std::shared_ptr<const TextureCache::Texture> hit;
        {
            const std::lock_guard<std::mutex> lock(libs.texture_cache->mutex);
            const auto it = libs.texture_cache->textures.find(key);
            if (it != libs.texture_cache->textures.end()) hit = it->second;
        }
        if (hit) {
            r.image = hit->image;
            r.alpha = hit->alpha;
            r.info.update(hit->info);
            return r;
        }
    }
    try {
        DiagnosticSink sink(ReadMode::Tolerant);
        texm::Texture t = texm::read(e.data, sink, where, texm::KeepRaw::OnlyUninterpretable);
        t.channel_order = libs.channel_order;
        if (t.raw_only || !t.format()) {
            diagnostics.warn(where, Location::whole(), "not an interpretable Texm; untextured");
            return r;
        }
        r.image = image_of_level(e.name(), t, png);
        r.info["name"] = e.name();
        r.info["format"] = t.header.format;
        r.info["width"] = t.header.width;
        r.info["height"] = t.header.height;
        r.info["mip_count"] = t.header.mip_count;
        if (t.page) r.info["page_rects"] = t.page->size();
        // §7: palettised textures with the alpha-key flag are real cut-outs (index 0
        // transparent). Every other alpha channel is mostly gloss/bump data: OPAQUE.
        if (*t.format() == texm::Format::Indexed && (t.header.flags5 & texm::kFlags5AlphaKey))
            r.alpha = scene::AlphaMode::Mask;
        if (libs.texture_cache) { // only what decoded cleanly: a failure warns every time
            auto kept = std::make_shared<TextureCache::Texture>();
            kept->image = *r.image;
            kept->alpha = r.alpha;
            kept->info = r.info;
            const std::lock_guard<std::mutex> lock(libs.texture_cache->mutex);
            libs.texture_cache->textures.emplace(key, std::move(kept));
        }
    } catch (const FormatError& ex) {
        diagnostics.warn({}, Location::whole(), std::string(ex.what()) + "; untextured");
        r.image.reset();
    }
    return r;
}

} // namespace

std::vector<std::string> phase0_textures(const std::vector<std::string>& rows,
                                         const nres::Archive& materials) {
    std::vector<std::string> out;
    for (const std::string& row : rows) {
        const material::Lookup lookup = material::find_material(materials, row);
        if (!lookup.index) continue;
        const nres::Entry& e = materials.entries[*lookup.index];
        try {
            DiagnosticSink quiet(ReadMode::Tolerant); // resolve_materials reports the problems
            const material::Material mat = material::read(e.data, e.attr2, quiet, e.name());
            if (!mat.raw_only && !mat.phases.empty() && !mat.phases[0].texture_name().empty())
                out.push_back(mat.phases[0].texture_name());
        } catch (const FormatError&) {
        }
    }
    return out;
}

std::vector<ResolvedMaterial> resolve_materials(const std::vector<std::string>& rows,
                                                const MaterialLibraries& libs,
                                                DiagnosticSink& diagnostics,
                                                const png::EncodeOptions& png) {
    std::vector<ResolvedMaterial> out;
    std::map<std::string, TextureResult> textures; // upper-cased texture name -> result
    if (!libs.materials && !rows.empty())
        diagnostics.warn({}, Location::whole(),
                         "no " + libs.materials_name +
                             " found; materials are untextured "
                             "(give --game-dir DIR or --materials/--textures)");
    for (size_t r = 0; r < rows.size(); ++r) {
        ResolvedMaterial m;
        m.name = rows[r];
        if (!libs.materials) {
            out.push_back(std::move(m));
            continue;
        }
        const material::Lookup lookup = material::find_material(*libs.materials, m.name);
        if (!lookup.index) {
            diagnostics.warn({}, Location::whole(),
                             "material '" + m.name + "' not found in " + libs.materials_name +
                                 " (no DEFAULT, no MAT0 entry); untextured");
            out.push_back(std::move(m));
            continue;
        }
        const nres::Entry& e = libs.materials->entries[*lookup.index];
        const std::string mat_name = e.name();
        if (lookup.rule == material::LookupRule::Default)
            diagnostics.warn({}, Location::whole(),
                             "Material " + m.name + " not found; using DEFAULT");
        else if (lookup.rule == material::LookupRule::FirstEntry)
            diagnostics.warn({}, Location::whole(),
                             "Material " + m.name + " not found and no DEFAULT; using entry 0 (" +
                                 mat_name + ")");
        m.extras["mat0"] = mat_name;
        m.extras["lookup"] = lookup.rule == material::LookupRule::Exact     ? "exact"
                             : lookup.rule == material::LookupRule::Default ? "default"
                                                                            : "first_entry";
        m.extras["attr1"] = e.attr1;
        m.extras["version"] = e.attr2;
        const std::string where = libs.materials_name + ":" + mat_name;
        material::Material mat;
        try {
            DiagnosticSink sink(ReadMode::Tolerant);
            mat = material::read(e.data, e.attr2, sink, where);
        } catch (const FormatError& ex) {
            diagnostics.warn({}, Location::whole(), std::string(ex.what()) + "; untextured");
            out.push_back(std::move(m));
            continue;
        }
        if (mat.raw_only || mat.phases.empty()) {
            diagnostics.warn(where, Location::whole(), "no usable phase; untextured");
            out.push_back(std::move(m));
            continue;
        }
        const material::Phase& p0 = mat.phases[0];
        m.extras["phase_count"] = mat.phases.size();
        m.extras["phase0"] = {
            {"params", json(std::vector<int>(p0.params.begin(), p0.params.end()))},
            {"texture", p0.texture_name()}};
        const std::string tex = p0.texture_name();
        if (!tex.empty()) {
            auto it = textures.find(upper(tex));
            if (it == textures.end())
                it = textures.emplace(upper(tex), load_texture(tex, libs, diagnostics, png)).first;
            m.image = it->second.image;
            m.alpha_mode = it->second.alpha;
            m.extras["texture"] = it->second.info;
        }
        out.push_back(std::move(m));
    }
    return out;
}

size_t apply_materials(scene::Scene& scene, const std::vector<ResolvedMaterial>& resolved) {
    size_t textured = 0;
    for (scene::Material& mat : scene.materials) {
        if (!mat.identity.wear_row) continue;
        const int row = *mat.identity.wear_row;
        if (row < 0 || size_t(row) >= resolved.size()) continue;
        const ResolvedMaterial& r = resolved[size_t(row)];
        mat.base_color = r.image;
        mat.alpha_mode = r.image ? r.alpha_mode : scene::AlphaMode::Opaque;
        if (!r.extras.empty()) mat.extras["material"] = r.extras;
        textured += r.image.has_value();
    }
    return textured;
}

std::vector<ResolvedLightmap> resolve_lightmaps(const std::vector<std::string>& rows,
                                                const MaterialLibraries& libs,
                                                DiagnosticSink& diagnostics,
                                                const png::EncodeOptions& png) {
    std::vector<ResolvedLightmap> out;
    for (const std::string& name : rows) {
        ResolvedLightmap r;
        r.name = name;
        r.info["name"] = name;
        if (!libs.lightmaps) {
            diagnostics.warn({}, Location::whole(),
                             "lightmap '" + name + "': no " + libs.lightmaps_name +
                                 "; no lightmap");
            out.push_back(std::move(r));
            continue;
        }
        const auto index = material::find_resource(*libs.lightmaps, texm::kMagic, name);
        if (!index) {
            diagnostics.warn({}, Location::whole(),
                             "lightmap '" + name + "' not found in " + libs.lightmaps_name +
                                 "; no lightmap");
            out.push_back(std::move(r));
            continue;
        }
        const nres::Entry& e = libs.lightmaps->entries[*index];
        const std::string where = libs.lightmaps_name + ":" + e.name();
        try {
            DiagnosticSink sink(ReadMode::Tolerant);
            texm::Texture t = texm::read(e.data, sink, where, texm::KeepRaw::OnlyUninterpretable);
            t.channel_order = libs.channel_order;
            if (t.raw_only || !t.format()) {
                diagnostics.warn(where, Location::whole(),
                                 "not an interpretable Texm; no lightmap");
            } else {
                r.image = image_of_level(e.name(), t, png);
                r.info = {{"name", e.name()},
                          {"format", t.header.format},
                          {"width", t.header.width},
                          {"height", t.header.height}};
            }
        } catch (const FormatError& ex) {
            diagnostics.warn({}, Location::whole(), std::string(ex.what()) + "; no lightmap");
        }
        out.push_back(std::move(r));
    }
    return out;
}

size_t apply_lightmaps(scene::Scene& scene, const std::vector<ResolvedLightmap>& resolved) {
    size_t lit = 0;
    for (scene::Material& mat : scene.materials) {
        if (!mat.identity.lightmap_row) continue;
        const int row = *mat.identity.lightmap_row;
        if (row < 0 || size_t(row) >= resolved.size()) continue;
        const ResolvedLightmap& r = resolved[size_t(row)];
        mat.extras["lightmap"] = r.info;
        if (!r.image) continue;
        mat.lightmap = r.image;
        mat.lightmap_texcoord = kLightmapTexcoord;
        ++lit;
    }
    return lit;
}

} // namespace msh::mapping
