// mshconv::preview: the thumbnail of one asset (conversion/preview_image.hpp) read through an Io,
// as `mshconv preview` and the examples draw it.
#include "preview.hpp"
#include "enum_names.hpp"

#include "formats/assimp_read.hpp"
#include "formats/diagnostics.hpp"
#include "formats/nres.hpp"
#include "formats/sniff.hpp"
#include "formats/texm.hpp"
#include "model_import.hpp"
#include "preview_view.hpp"
#include "render/camera.hpp"
#include "view_page.hpp"
#include "viewer_bundle.hpp"

#include <mshconv/preview.hpp>

namespace msh::conversion {

namespace fs = std::filesystem;

PreviewSettings preview_settings(const mshconv::PreviewOptions& o, const Readings& readings) {
    PreviewSettings s;
    s.readings = readings;
    s.width = o.width;
    s.height = o.height;
    s.view = o.view == mshconv::PreviewView::Default ? std::string() : mshconv::to_string(o.view);
    s.lod = o.lod;
    s.group = o.group;
    if (s.lod < 0 || s.lod >= kLods) throw UsageError("--lod must be 0..2 (one LOD is shown)");
    if (s.group < 0 || s.group >= kGroups)
        throw UsageError("--group must be 0..4 (one group is shown)");
    s.frame = o.frame;
    s.fps = o.fps;
    s.strip = o.strip;
    s.turntable = o.turntable;
    if (o.strip < 0 || o.turntable < 0) throw UsageError("--strip and --turntable need at least 1");
    s.background = o.background;
    using Overlay = PreviewSettings::Overlay;
    s.overlay = o.overlay == mshconv::OverlayStyle::None      ? Overlay::None
                : o.overlay == mshconv::OverlayStyle::Outline ? Overlay::Outline
                                                              : Overlay::Fill;
    s.samples_per_side = o.samples_per_side;
    s.both_sides = o.both_sides;
    if (const std::string problem = preview_settings_problem(s); !problem.empty())
        throw UsageError(problem);
    return s;
}

Preview preview_loaded(const Job& job, const Loaded& in, const PreviewSettings& settings,
                       PreviewTextureCache* cache, const ModelExportContext* context,
                       nlohmann::json* view) {
    const std::string leaf = in.address.entries.empty() ? in.address.file.filename().string()
                                                        : in.address.entries.back();
    const std::string ext = lower_ascii(fs::path(leaf).extension().string());
    ContentKind kind = sniff(in.bytes, {leaf, std::nullopt});
    // A model or map too damaged to show its resources: its reader says why.
    if (kind == ContentKind::NResArchive || kind == ContentKind::DamagedNRes) {
        if (lower_ascii(leaf) == "land.msh")
            kind = ContentKind::Terrain;
        else if (ext == ".msh")
            kind = ContentKind::Model;
    }
    switch (kind) {
    case ContentKind::Model: {
        const ModelExportInput input = model_export_input(job, in, context);
        Preview p = preview_model(input, settings, cache);
        if (view) *view = model_view(input, settings, p.metadata);
        return p;
    }
    case ContentKind::Terrain: {
        std::optional<mapping::MaterialLibraries> own;
        const TerrainExportInput input =
            terrain_export_input(job, in, context ? context->libraries : nullptr, own);
        Preview p = preview_terrain(input, settings, cache);
        if (view) *view = terrain_view(input, settings, p.metadata);
        return p;
    }
    case ContentKind::Mission: {
        const std::unique_ptr<LevelSources> sources = read_level_sources(job, in);
        Preview p = preview_level(sources->input, settings, cache);
        if (view) *view = level_view(sources->input, p.metadata);
        return p;
    }
    case ContentKind::Texm: {
        Preview p = preview_texture(in.bytes, in.address.display(), settings);
        if (view) *view = texture_view(in.bytes, in.address.display(), settings, p.metadata);
        return p;
    }
    case ContentKind::DamagedNRes:
        nres::read(in.bytes, ReadMode::Tolerant, in.address.display(), in.bytes.keeper());
        break;
    default:
        if (ext == ".texm") texm::read(in.bytes, ReadMode::Strict, in.address.display());
        break;
    }
    throw FormatError(in.address.display(), Location::whole(),
                      std::string("cannot preview this input (") + to_string(kind) +
                          "): expected an MSH model, a Land.msh, a Texm texture, a mission's "
                          "data.tma or a .gltf/.glb/.obj");
}

Preview preview_of(const Job& job, const std::string& input, const PreviewSettings& settings,
                   nlohmann::json* view) {
    const Address in = parse_address(job.io, input);
    const std::string ext = lower_ascii(in.file.extension().string());
    if (in.entries.empty() && (ext == ".gltf" || ext == ".glb" || ext == ".obj" ||
                               assimp_read::handles(in.file.filename().string()))) {
        std::vector<std::string> warnings;
        const scene::Scene sc = read_scene_file(in.file, warnings, false, true, {}, job.io);
        for (const std::string& w : warnings) job.warn(w);
        Preview p = preview_scene(sc, read_payload(job.io, in.file), in.file.string(), settings);
        if (view) *view = scene_view(sc, p.metadata);
        return p;
    }
    return preview_loaded(job, load(job.io, in), settings, nullptr, nullptr, view);
}

} // namespace msh::conversion

namespace mshconv {

const char* to_string(PreviewView view) {
    return msh::conversion::name_of(msh::conversion::kPreviewViewNames, view);
}

std::optional<PreviewView> parse_preview_view(const std::string& name) {
    const auto view = msh::conversion::named(msh::conversion::kPreviewViewNames, name);
    if (view == PreviewView::Default) return std::nullopt; // no name the command takes
    return view;
}

std::optional<OverlayStyle> parse_overlay_style(const std::string& name) {
    return msh::conversion::named(msh::conversion::kOverlayStyleNames, name);
}

const char* to_string(OverlayStyle style) {
    return msh::conversion::name_of(msh::conversion::kOverlayStyleNames, style);
}

const char* to_string(PreviewKind kind) {
    return msh::conversion::name_of(msh::conversion::kPreviewKindNames, kind);
}

namespace {

// The request's preview (and with `view`, its interactive view), its warnings given to
// `on_message` and its errors located in the request's input.
msh::conversion::Preview requested_preview(const PreviewRequest& request, Io& io,
                                           const OnMessage& on_message, nlohmann::json* view) {
    const msh::conversion::Job job{request.sources, io, on_message};
    const msh::conversion::PreviewSettings settings = msh::conversion::preview_settings(
        request.options, msh::conversion::readings_of(request.sources));
    msh::conversion::Preview p = msh::conversion::locating_errors(io, {request.input}, [&] {
        return msh::conversion::preview_of(job, request.input, settings, view);
    });
    for (const std::string& w : p.warnings) job.warn(w);
    return p;
}

} // namespace

std::optional<std::array<double, 2>> project(const PreviewCamera& camera,
                                             const std::array<double, 3>& point) {
    if (camera.flat) return std::nullopt;
    // The renderer's own projection, in its floats: the very pixels the picture was drawn at.
    const auto floats = [](const std::array<double, 3>& v) {
        return msh::render::Vec3{float(v[0]), float(v[1]), float(v[2])};
    };
    msh::render::Camera c;
    c.eye = floats(camera.eye);
    c.right = floats(camera.right);
    c.up = floats(camera.up);
    c.forward = floats(camera.forward);
    c.orthographic = camera.orthographic;
    c.focal = camera.focal;
    c.cx = camera.principal[0];
    c.cy = camera.principal[1];
    const msh::render::Projected q = msh::render::project(c, floats(point));
    if (!camera.orthographic && !(q.z > 0)) return std::nullopt;
    return std::array<double, 2>{camera.viewport[0] + q.x, camera.viewport[1] + q.y};
}

Preview preview(const PreviewRequest& request, Io& io, const OnMessage& on_message) {
    msh::conversion::Preview p = requested_preview(request, io, on_message, nullptr);
    Preview out;
    out.png = std::move(p.png);
    out.kind = p.kind;
    out.source = std::move(p.source);
    out.width = p.width;
    out.height = p.height;
    out.views = std::move(p.cameras);
    out.facts = std::move(p.facts);
    out.metadata_json = p.metadata.dump(2) + "\n";
    return out;
}

bool viewer_built() {
    return msh::conversion::viewer_built();
}

ViewPage view_page(const PreviewRequest& request, Io& io, const OnMessage& on_message) {
    msh::conversion::require_viewer(); // before the input is read
    nlohmann::json view;
    requested_preview(request, io, on_message, &view);
    ViewPage page;
    // The page names the input without its folders: the same page from any folder.
    page.name = msh::conversion::parse_address(io, request.input).portable();
    view["name"] = page.name;
    page.kind = msh::conversion::named(msh::conversion::kPreviewKindNames, view.value("kind", ""))
                    .value_or(PreviewKind::Model);
    page.html = msh::conversion::view_page_html(page.name, view);
    return page;
}

} // namespace mshconv
