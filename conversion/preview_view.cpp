#include "preview_view.hpp"

#include "formats/diagnostics.hpp"
#include "formats/gltf.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "sidecar/base64.hpp"

namespace msh::conversion {

namespace {

nlohmann::json common(const std::string& kind, const nlohmann::json& preview) {
    nlohmann::json view = {{"kind", kind},
                           {"source", preview.value("source", "")},
                           {"size", preview.value("size", nlohmann::json::array())}};
    if (preview.contains("views") && !preview["views"].empty())
        view["camera"] = preview["views"][0];
    return view;
}

nlohmann::json with_glb(nlohmann::json view, const Bytes& glb) {
    view["glb_bytes"] = glb.size();
    view["glb"] = sidecar::to_base64(glb);
    return view;
}

Bytes only_glb(const OutputFiles& files) {
    for (const OutputFile& f : files)
        if (f.name.ends_with(".glb")) return f.bytes;
    throw std::logic_error("the export wrote no GLB");
}

} // namespace

nlohmann::json model_view(const ModelExportInput& input, const PreviewSettings& s,
                          const nlohmann::json& preview) {
    ModelExportSettings es;
    es.format = SceneFormat::Glb;
    es.output_name = "view.glb";
    es.lod = mapping::kAll; // the view switches between them
    es.group = mapping::kAll;
    es.fps = s.fps;
    es.readings = s.readings;
    nlohmann::json view = common("model", preview);
    view["lod"] = s.lod;
    view["group"] = s.group;
    return with_glb(std::move(view), only_glb(encode_model(input, es).files));
}

nlohmann::json terrain_view(const TerrainExportInput& input, const PreviewSettings&,
                            const nlohmann::json& preview) {
    TerrainExportSettings ts;
    ts.format = SceneFormat::Glb;
    ts.output_name = "view.glb";
    ts.overlay = TerrainExportSettings::Overlay::Both; // the draped layer is what the view toggles
    nlohmann::json view = common("map", preview);
    if (preview.contains("facts") && preview["facts"].contains("areal_classes"))
        view["classes"] = preview["facts"]["areal_classes"];
    return with_glb(std::move(view), only_glb(encode_terrain(input, ts).files));
}

nlohmann::json scene_view(const scene::Scene& scene, const nlohmann::json& preview) {
    nlohmann::json view = common("model", preview);
    return with_glb(std::move(view), gltf::encode(scene, true, "view.glb").document);
}

nlohmann::json level_view(const LevelExportInput& input, const nlohmann::json& preview) {
    const LevelScene built = level_scene(input, LevelExportSettings{});
    nlohmann::json view = common("level", preview);
    return with_glb(std::move(view), gltf::encode(built.scene, true, "view.glb").document);
}

nlohmann::json texture_view(ByteView bytes, const std::string& address, const PreviewSettings& s,
                            const nlohmann::json& preview) {
    DiagnosticSink sink(ReadMode::Strict);
    texm::Texture t = texm::read(bytes, sink, address, texm::KeepRaw::OnlyUninterpretable);
    sink.throw_if_errors();
    t.channel_order = s.readings.texm_rgb;
    nlohmann::json view = common("texture", preview);
    nlohmann::json levels = nlohmann::json::array();
    for (uint32_t level = 0; level < t.levels.size(); ++level) {
        const texm::Image image = texm::decode_level(t, level);
        levels.push_back({{"width", image.width},
                          {"height", image.height},
                          {"png", sidecar::to_base64(png::encode_rgba(image))}});
    }
    view["levels"] = std::move(levels);
    nlohmann::json pages = nlohmann::json::array();
    if (t.page)
        for (const texm::PageRect& r : *t.page) pages.push_back({r.x, r.y, r.w, r.h});
    view["pages"] = std::move(pages);
    return view;
}

std::string script_safe_json(const nlohmann::json& value) {
    const std::string dumped = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(dumped.size() + dumped.size() / 16);
    for (char c : dumped) {
        switch (c) {
        case '<':
            out += "\\u003c";
            break;
        case '>':
            out += "\\u003e";
            break;
        case '&':
            out += "\\u0026";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string view_script(const std::string& key, const nlohmann::json& view) {
    return "(window.mshconvViews = window.mshconvViews || {})[" +
           script_safe_json(nlohmann::json(key)) + "] = " + script_safe_json(view) + ";\n";
}

} // namespace msh::conversion
