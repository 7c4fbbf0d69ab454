// Previews: what is drawn for each kind (conversion/preview_draw.cpp draws it) and the facts the
// metadata records.
#include "preview_image.hpp"

#include "enum_names.hpp"
#include "preview_draw.hpp"

#include "formats/anim.hpp"
#include "formats/apng.hpp"
#include "formats/content_hash.hpp"
#include "formats/diagnostics.hpp"
#include "formats/picture.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "mapping/drape.hpp"
#include "mapping/level_to_scene.hpp"
#include "mapping/model_to_scene.hpp"
#include "mapping/terrain_to_scene.hpp"
#include "render/text.hpp"
#include "scene/transform.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/portable_address.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>

namespace msh::conversion {

namespace {

using preview_draw::DrawList;
using preview_draw::Pose;

constexpr std::array<uint8_t, 4> kInk{255, 255, 255, 255};
// The textures travel from the Texm to the rasterizer through the export's material chain as
// decoded pixels, not PNG.
const png::EncodeOptions kDecodedTextures{0, png::RowFilter::None, {0, 0, 0, 0}, {}, {}, true};
// The pictures themselves: ISA-L igzip at level 0 (static Huffman codes), Up filter. Its levels
// 1 to 3 build Huffman codes per picture and, inside mshconv, gave another (valid) stream for
// the same picture about once in 10,000 (never in a standalone program; the cause is not known):
// level 0 never did in 180,000, and the same input must give the same bytes. Its files are 16 %
// larger, and it is the fastest.
const png::EncodeOptions kPicturePng{0, png::RowFilter::Up, {0, 0, 0, 0}, {}, {}, false, true};
constexpr std::array<uint8_t, 4> kLabelBox{32, 32, 32, 200};

std::string hex_colour(const std::array<float, 3>& linear) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", render::linear_to_srgb(linear[0]),
                  render::linear_to_srgb(linear[1]), render::linear_to_srgb(linear[2]));
    return buf;
}

int label_scale(int width) {
    return width >= 384 ? 2 : 1;
}

// One picture of the sheet: a direction to look from and a pose.
struct Cell {
    std::string label;
    std::string view; // the view's name
    render::Orbit orbit;
    bool orthographic = false;
    double frame = 0;
};

// What a sheet shows: a function from a frame to the draw list, and the animation's length.
struct Subject {
    std::function<DrawList(double frame)> draw;
    double frames = 0; // 0: not animated
    bool map = false;
    double rest_frame = -1; // the frame views show; -1: the rest pose
};

struct Sheet {
    Bytes png;
    std::array<uint32_t, 2> size{0, 0}; // of the picture (a turntable: of each frame)
    nlohmann::json views = nlohmann::json::array();
    std::vector<mshconv::PreviewCamera> cameras; // one per view, as `views` records them
    size_t triangles = 0;
    std::optional<std::vector<render::Vec3>> rest_points; // when a view shows the rest pose
};

std::vector<Cell> cells_of(const PreviewSettings& s, const Subject& subject) {
    auto cell = [&](render::View v, double frame) {
        std::string label = render::view_name(v);
        std::transform(label.begin(), label.end(), label.begin(), ::toupper);
        return Cell{label, render::view_name(v), render::orbit_of(v),
                    subject.map && v == render::View::Top, frame};
    };
    const std::string view = s.view.empty() ? (subject.map ? "top" : "iso") : s.view;
    if (s.strip > 0) {
        std::vector<Cell> cells;
        const auto v = render::parse_view(view == "grid" ? "iso" : view).value();
        for (int k = 0; k < s.strip; ++k) {
            const double frame = std::floor(subject.frames * k / s.strip);
            Cell c = cell(v, frame);
            c.label = "F " + std::to_string(int(frame));
            cells.push_back(c);
        }
        return cells;
    }
    if (s.turntable > 0) {
        std::vector<Cell> cells;
        for (int k = 0; k < s.turntable; ++k)
            cells.push_back(
                {"", "turntable", {45.0 + 360.0 * k / s.turntable, 30}, false, subject.rest_frame});
        return cells;
    }
    if (view == "grid")
        return {cell(render::View::Front, subject.rest_frame),
                cell(render::View::Right, subject.rest_frame),
                cell(render::View::Top, subject.rest_frame),
                cell(render::View::Iso, subject.rest_frame)};
    Cell single = cell(render::parse_view(view).value(), subject.rest_frame);
    single.label.clear();
    return {single};
}

// The legend of the areal classes a map shows: a swatch and the class id per row.
void draw_legend(texm::Image& img, const std::map<uint32_t, size_t>& classes, int scale) {
    int y = int(img.height) - 4 * scale;
    for (auto it = classes.rbegin(); it != classes.rend(); ++it) {
        const std::string text = "CLASS " + std::to_string(it->first);
        const int h = render::text_height(scale) + 2 * scale;
        y -= h + scale;
        const auto& c = mapping::kArealClassColours[it->first % mapping::kArealClassColours.size()];
        render::fill_rect(img, 4 * scale - scale, y - scale,
                          h + 2 * scale + 2 * scale + render::text_width(text, scale) + 2 * scale,
                          h + 2 * scale, kLabelBox);
        render::fill_rect(img, 4 * scale, y, h, h,
                          {render::linear_to_srgb(c[0]), render::linear_to_srgb(c[1]),
                           render::linear_to_srgb(c[2]), 255});
        render::draw_label(img, 4 * scale + h + 2 * scale, y, text, scale, kInk, kLabelBox);
    }
}

Sheet draw_sheet(const Subject& subject, const PreviewSettings& s,
                 const std::map<uint32_t, size_t>& legend) {
    const std::vector<Cell> cells = cells_of(s, subject);
    // One draw list per distinct frame (a grid or a turntable shows one pose from several sides).
    std::map<double, DrawList> by_frame;
    std::vector<const DrawList*> lists;
    std::vector<render::Vec3> all_points;
    for (const Cell& c : cells) {
        auto it = by_frame.find(c.frame);
        const bool fresh = it == by_frame.end();
        if (fresh) it = by_frame.emplace(c.frame, subject.draw(c.frame)).first;
        lists.push_back(&it->second);
        if (it->second.triangles == 0)
            throw PreviewError("nothing to draw: no triangles in the chosen LOD/group");
        if (fresh)
            all_points.insert(all_points.end(), it->second.framed.begin(), it->second.framed.end());
    }
    Sheet sheet;
    sheet.triangles = lists.front()->triangles;
    for (size_t i = 0; i < cells.size() && !sheet.rest_points; ++i)
        if (cells[i].frame < 0) sheet.rest_points = lists[i]->framed;
    // A strip frames every pose alike (the motion shows); a turntable keeps one scale.
    std::optional<double> focal_cap;
    if (s.turntable > 0)
        for (const Cell& c : cells) {
            const double f =
                render::frame_points(c.orbit, lists.front()->framed, s.width, s.height, false)
                    .focal;
            focal_cap = focal_cap ? std::min(*focal_cap, f) : f;
        }
    const int columns = s.strip > 0 ? s.strip : (cells.size() == 4 && s.turntable == 0 ? 2 : 1);
    const int rows =
        s.turntable > 0 ? 1 : int((cells.size() + size_t(columns) - 1) / size_t(columns));
    // Cells pasted into a sheet; one cell is the sheet itself (no blank picture first).
    const bool pasted = s.turntable == 0 && cells.size() > 1;
    texm::Image image = pasted ? texm::Image(uint32_t(s.width * columns), uint32_t(s.height * rows))
                               : texm::Image{};
    std::vector<texm::Image> frames;
    const int scale = label_scale(s.width);
    for (size_t i = 0; i < cells.size(); ++i) {
        const Cell& c = cells[i];
        const auto& framed = s.strip > 0 ? all_points : lists[i]->framed;
        const render::Camera cam = render::frame_points(c.orbit, framed, s.width, s.height,
                                                        c.orthographic, 0.9, focal_cap);
        texm::Image cell = preview_draw::render_view(*lists[i], cam, s);
        if (!legend.empty() && s.overlay != PreviewSettings::Overlay::None)
            draw_legend(cell, legend, scale);
        if (!c.label.empty())
            render::draw_label(cell, 2 * scale, 2 * scale, c.label, scale, kInk, kLabelBox);
        const int x = s.turntable > 0 ? 0 : int(i % size_t(columns)) * s.width;
        const int y = s.turntable > 0 ? 0 : int(i / size_t(columns)) * s.height;
        mshconv::PreviewCamera camera = preview_draw::preview_camera(
            cam, c.label.empty() ? (s.turntable > 0 ? "turntable" : c.view) : c.label,
            {x, y, s.width, s.height});
        nlohmann::json view = preview_draw::camera_json(camera);
        sheet.cameras.push_back(std::move(camera));
        if (c.frame >= 0) view["frame"] = c.frame; // none: the rest pose
        view["orbit"] = {{"azimuth", c.orbit.azimuth_deg}, {"elevation", c.orbit.elevation_deg}};
        sheet.views.push_back(view);
        if (s.turntable > 0)
            frames.push_back(std::move(cell));
        else if (cells.size() == 1)
            image = std::move(cell); // the whole sheet
        else
            preview_draw::paste(image, cell, uint32_t(x), uint32_t(y));
    }
    if (s.turntable > 0)
        sheet.png =
            apng::encode(frames, 1, uint16_t(std::clamp(s.turntable / 3, 1, 1000)), kPicturePng);
    else
        sheet.png = png::encode_rgba(image, kPicturePng);
    sheet.size = {uint32_t(s.width * columns), uint32_t(s.height * rows)};
    return sheet;
}

// The points' box in MSH axes; none for no point.
std::optional<std::array<std::array<float, 3>, 2>>
bounds_of(const std::vector<render::Vec3>& gltf_points) {
    if (gltf_points.empty()) return std::nullopt;
    std::array<float, 3> lo{}, hi{};
    bool first = true;
    for (const auto& p : gltf_points) {
        const std::array<float, 3> m{p[0], -p[2], p[1]}; // back to MSH axes
        for (int k = 0; k < 3; ++k) {
            lo[size_t(k)] = first ? m[size_t(k)] : std::min(lo[size_t(k)], m[size_t(k)]);
            hi[size_t(k)] = first ? m[size_t(k)] : std::max(hi[size_t(k)], m[size_t(k)]);
        }
        first = false;
    }
    return std::array<std::array<float, 3>, 2>{lo, hi};
}

// The materials of a scene and the textures they name (phase 0), for the facts: each material
// with its texture (none: untextured) in the scene's order, and the textures used.
void material_facts(const scene::Scene& sc, mshconv::PreviewFacts& facts) {
    std::set<std::string> textures;
    for (const scene::Material& m : sc.materials) {
        if (m.name.rfind("areal_", 0) == 0) continue;
        const auto& mat = m.extras.is_object() && m.extras.contains("material")
                              ? m.extras["material"]
                              : nlohmann::json();
        std::optional<std::string> texture;
        if (mat.is_object() && mat.contains("phase0") && mat["phase0"].contains("texture") &&
            mat["phase0"]["texture"].is_string() && m.base_color)
            texture = mat["phase0"]["texture"].get<std::string>();
        else if (m.base_color)
            texture = m.base_color->name;
        if (texture) textures.insert(*texture);
        facts.materials.push_back({m.name, texture});
    }
    facts.textures.assign(textures.begin(), textures.end());
}

// The facts of a preview of `kind` as the metadata writes them: each kind its own members.
nlohmann::json facts_json(mshconv::PreviewKind kind, const mshconv::PreviewFacts& f) {
    using mshconv::PreviewKind;
    nlohmann::json j;
    if (kind == PreviewKind::Texture) {
        j["format"] = f.format == 0 ? "indexed" : std::to_string(f.format);
        j["width"] = f.width;
        j["height"] = f.height;
        j["mips"] = f.mips;
        j["palette"] = f.palette;
        j["pages"] = f.pages;
        return j;
    }
    j["bounds"] = f.bounds ? nlohmann::json(*f.bounds) : nlohmann::json(nullptr);
    std::vector<std::string> names;
    nlohmann::json material_textures = nlohmann::json::array();
    for (const mshconv::PreviewMaterial& m : f.materials) {
        names.push_back(m.name);
        material_textures.push_back(
            {{"material", m.name},
             {"texture", m.texture ? nlohmann::json(*m.texture) : nlohmann::json(nullptr)}});
    }
    j["materials"] = names;
    j["textures"] = f.textures;
    j["material_textures"] = std::move(material_textures);
    if (kind == PreviewKind::Map) {
        j["faces"] = f.faces;
        j["vertices"] = f.vertices;
        j["areals"] = f.areals;
        nlohmann::json classes = nlohmann::json::array();
        for (const mshconv::PreviewArealClass& c : f.areal_classes)
            classes.push_back({{"class", c.id},
                               {"areals", c.areals},
                               {"colour", c.colour},
                               {"fill_alpha", c.fill_alpha}});
        j["areal_classes"] = std::move(classes);
        return j;
    }
    j["nodes"] = f.nodes;
    j["triangles"] = f.triangles;
    if (kind == PreviewKind::Model) {
        j["vertices"] = f.vertices;
        j["lods"] = f.lods;
        j["groups"] = f.groups;
        j["shown"] = {
            {"lod", f.shown_lod}, {"group", f.shown_group}, {"triangles", f.shown_triangles}};
        if (f.animated) j["animation"] = {{"frames", uint64_t(f.frames)}, {"keys", f.keys}};
        return j;
    }
    j["meshes"] = f.meshes; // a scene, or a level's
    if (f.animated) j["animation"] = {{"seconds", f.seconds}, {"frames", f.frames}};
    if (kind == PreviewKind::Level) {
        j["objects"] = f.objects;
        j["unresolved"] = f.unresolved;
        j["distinct_models"] = f.distinct_models;
    }
    return j;
}

Preview finish(Sheet sheet, mshconv::PreviewKind kind, const std::string& address, uint64_t hash,
               mshconv::PreviewFacts facts, std::vector<std::string> warnings) {
    Preview p;
    p.png = std::move(sheet.png);
    p.kind = kind;
    // The metadata names files without the input's folders, in its warnings too.
    const std::string source = sidecar::portable_address(address);
    const std::string folder = address.substr(0, address.size() - source.size());
    std::vector<std::string> recorded = warnings;
    if (!folder.empty())
        for (std::string& w : recorded)
            for (size_t at = w.find(folder); at != std::string::npos; at = w.find(folder, at))
                w.erase(at, folder.size());
    p.source = source;
    p.width = int(sheet.size[0]);
    p.height = int(sheet.size[1]);
    p.metadata = {{"kind", name_of(kPreviewKindNames, kind)},
                  {"source", source},
                  {"hash", sidecar::hex64(hash)},
                  {"size", sheet.size},
                  {"facts", facts_json(kind, facts)},
                  {"views", std::move(sheet.views)}};
    if (!recorded.empty()) p.metadata["warnings"] = std::move(recorded);
    p.cameras = std::move(sheet.cameras);
    p.facts = std::move(facts);
    p.warnings = std::move(warnings);
    return p;
}

// How a model or scene is drawn: the inner sides of closed shells left out unless asked for.
preview_draw::DrawOptions drawn_as(const PreviewSettings& s) {
    preview_draw::DrawOptions options;
    options.cull_hidden = !s.both_sides;
    return options;
}
// For the bounds alone (the metadata): no shells to find.
const preview_draw::DrawOptions kBoundsOnly{.cull_hidden = false};

PreviewTextureCache& cache_or(PreviewTextureCache* cache, PreviewTextureCache& local) {
    return cache ? *cache : local;
}

// A level's objects are small beside its map: a thumbnail marks each with an upright diamond in
// its kind's colour (building red, unit blue, vegetation yellow, rock white), 1.2 % of the map's
// side wide, standing on the object's origin.
void add_object_markers(scene::Scene& sc) {
    const std::vector<scene::Rigid> world = scene::world_transforms(sc);
    float lo = 0, hi = 0;
    bool any = false;
    for (size_t i = 0; i < sc.nodes.size(); ++i) {
        if (sc.nodes[i].mesh < 0 || sc.nodes[i].name != mapping::kTerrainNode) continue;
        for (const scene::Primitive& p : sc.meshes[size_t(sc.nodes[i].mesh)].primitives) {
            const auto pos = p.attributes.find("POSITION");
            if (pos == p.attributes.end()) continue;
            for (size_t k = 0; k + 2 < pos->second.data.size(); k += 3)
                for (const float v : {pos->second.data[k], pos->second.data[k + 2]}) {
                    lo = any ? std::min(lo, v) : v;
                    hi = any ? std::max(hi, v) : v;
                    any = true;
                }
        }
    }
    const float w = any ? 0.012f * (hi - lo) : 1.f, h = 2.5f * w;
    const std::array<std::pair<const char*, std::array<float, 4>>, 4> kinds{{
        {"building", {0.85f, 0.22f, 0.18f, 1}},
        {"unit", {0.2f, 0.4f, 0.95f, 1}},
        {"vegetation", {0.95f, 0.85f, 0.15f, 1}},
        {"rock", {0.92f, 0.92f, 0.92f, 1}},
    }};
    std::array<int, 4> mesh{-1, -1, -1, -1};
    const size_t nodes = sc.nodes.size();
    for (size_t i = 0; i < nodes; ++i) {
        const auto level = sc.nodes[i].extras.find(mapping::kLevelExtras);
        if (level == sc.nodes[i].extras.end() || !level->contains("record")) continue;
        const std::string kind = level->value("kind", "");
        size_t k = 0;
        while (k < kinds.size() && kind != kinds[k].first) ++k;
        if (k == kinds.size()) continue;
        if (mesh[k] < 0) {
            scene::Material m;
            m.name = std::string("marker_") + kinds[k].first;
            m.base_color_factor = kinds[k].second;
            sc.materials.push_back(m);
            scene::Primitive p;
            p.material = int(sc.materials.size()) - 1;
            p.attributes["POSITION"].data = {0,  0,     0, w, h / 2, 0,  0, h / 2, w,
                                             -w, h / 2, 0, 0, h / 2, -w, 0, h,     0};
            p.indices = {0, 2, 1, 0, 3, 2, 0, 4, 3, 0, 1, 4, 5, 1, 2, 5, 2, 3, 5, 3, 4, 5, 4, 1};
            scene::Mesh m2;
            m2.name = m.name;
            m2.primitives.push_back(std::move(p));
            sc.meshes.push_back(std::move(m2));
            mesh[k] = int(sc.meshes.size()) - 1;
        }
        scene::Node marker;
        marker.name = sc.nodes[i].name + "/marker";
        marker.mesh = mesh[k];
        marker.translation = {float(world[i].t[0]), float(world[i].t[1]), float(world[i].t[2])};
        sc.nodes.push_back(std::move(marker));
    }
}

} // namespace

std::string preview_settings_problem(const PreviewSettings& s) {
    if (s.width < 16 || s.height < 16 || s.width > 4096 || s.height > 4096)
        return "size must be between 16 and 4096 pixels a side";
    if (!s.view.empty() && s.view != "grid" && !render::parse_view(s.view))
        return "view must be iso, front, back, left, right, top or grid";
    if (s.strip < 0 || s.strip > 64) return "strip must be 1..64 frames";
    if (s.turntable < 0 || s.turntable > 360) return "turntable must be 1..360 views";
    if (s.strip > 0 && s.turntable > 0) return "strip and turntable do not go together";
    if (s.frame && (!std::isfinite(*s.frame) || *s.frame < 0)) return "frame must be a number >= 0";
    if (!(s.fps > 0) || !std::isfinite(s.fps)) return "fps must be a positive number";
    if (s.samples_per_side < 1 || s.samples_per_side > 4) return "samples must be 1..4 a side";
    const uint64_t cells = s.strip > 0        ? uint64_t(s.strip)
                           : s.turntable > 0  ? uint64_t(s.turntable)
                           : s.view == "grid" ? 4
                                              : 1;
    if (uint64_t(s.width) * uint64_t(s.height) * cells > (uint64_t(1) << 26))
        return "the sheet (size x views) is over 64 million pixels";
    // 20 bytes per sample: at most 16 Mi samples (320 MB) for one view.
    if (uint64_t(s.width) * uint64_t(s.height) * uint64_t(s.samples_per_side * s.samples_per_side) >
        (uint64_t(1) << 24))
        return "size x samples is over 16 million samples a view (e.g. 2048 x 2048 at 2 x 2)";
    return {};
}

Preview preview_model(const ModelExportInput& input, const PreviewSettings& s,
                      PreviewTextureCache* cache) {
    if (const std::string problem = preview_settings_problem(s); !problem.empty())
        throw std::invalid_argument(problem);
    ModelExportSettings es;
    es.lod = s.lod;
    es.group = s.group;
    es.fps = s.fps;
    es.png = kDecodedTextures;
    es.readings = s.readings;
    ModelScene ms = model_scene(input, es);
    const Model& model = ms.model;
    PreviewTextureCache local;
    PreviewTextureCache& textures = cache_or(cache, local);
    std::vector<std::string> warnings = ms.warnings;
    std::vector<anim::NodeFields> fields;
    for (const Node& n : model.nodes) fields.push_back({n.map_start, n.fallback_key});
    const bool animated = !model.legacy_nodes && !model.animation.keys.empty() &&
                          std::any_of(model.nodes.begin(), model.nodes.end(),
                                      [](const Node& n) { return n.map_start != kNone; });
    Subject subject;
    subject.frames = animated ? double(model.animation.frame_count) : 0;
    subject.rest_frame = s.frame.value_or(-1);
    subject.draw = [&](double frame) {
        Pose pose;
        if (animated && frame >= 0) {
            // The engine's sampler (animation.md §7), the pose the game shows at this frame.
            pose.resize(ms.scene.nodes.size());
            for (size_t i = 0; i < model.nodes.size() && i < pose.size(); ++i) {
                const anim::Pose p = anim::sample(model.animation, fields[i], float(frame));
                pose[i] =
                    preview_draw::LocalPose{mapping::to_gltf(p.pos), mapping::to_gltf_quat(p.rot)};
            }
        }
        return preview_draw::draw_list(ms.scene, pose, drawn_as(s), textures, warnings);
    };
    if (s.strip > 0 && !animated) throw PreviewError("the model has no animation to strip");
    Sheet sheet = draw_sheet(subject, s, {});

    mshconv::PreviewFacts facts;
    facts.nodes = model.node_count();
    facts.vertices = model.vertex_count();
    facts.triangles = model.triangles.size();
    std::set<int> lods, groups;
    for (const Node& n : model.nodes)
        for (int l = 0; l < kLods; ++l)
            for (int g = 0; g < kGroups; ++g)
                if (n.slot(l, g) != kNone) lods.insert(l), groups.insert(g);
    facts.lods.assign(lods.begin(), lods.end());
    facts.groups.assign(groups.begin(), groups.end());
    facts.shown_lod = s.lod;
    facts.shown_group = s.group;
    facts.shown_triangles = sheet.triangles;
    facts.animated = animated;
    if (animated) {
        facts.frames = model.animation.frame_count;
        facts.keys = model.animation.keys.size();
    }
    material_facts(ms.scene, facts);
    facts.bounds = bounds_of(
        sheet.rest_points
            ? *sheet.rest_points
            : preview_draw::draw_list(ms.scene, {}, kBoundsOnly, textures, warnings).framed);
    uint64_t hash = content_hash(input.model);
    if (input.wear) hash ^= content_hash(input.wear->bytes) * 0x100000001b3ULL;
    return finish(std::move(sheet), mshconv::PreviewKind::Model, input.address, hash,
                  std::move(facts), std::move(warnings));
}

Preview preview_scene(const scene::Scene& sc, ByteView bytes, const std::string& address,
                      const PreviewSettings& s, PreviewTextureCache* cache) {
    if (const std::string problem = preview_settings_problem(s); !problem.empty())
        throw std::invalid_argument(problem);
    PreviewTextureCache local;
    PreviewTextureCache& textures = cache_or(cache, local);
    std::vector<std::string> warnings;
    const double seconds = preview_draw::scene_animation_seconds(sc);
    Subject subject;
    subject.frames = seconds > 0 ? std::floor(seconds * s.fps) + 1 : 0;
    subject.rest_frame = s.frame.value_or(-1);
    subject.draw = [&](double frame) {
        const Pose pose =
            frame >= 0 ? preview_draw::sample_scene_animation(sc, frame / s.fps) : Pose{};
        return preview_draw::draw_list(sc, pose, drawn_as(s), textures, warnings);
    };
    if (s.strip > 0 && seconds <= 0) throw PreviewError("the scene has no animation to strip");
    Sheet sheet = draw_sheet(subject, s, {});
    mshconv::PreviewFacts facts;
    facts.nodes = sc.nodes.size();
    facts.meshes = sc.meshes.size();
    facts.triangles = sheet.triangles;
    facts.animated = seconds > 0;
    if (facts.animated) facts.seconds = seconds, facts.frames = subject.frames;
    material_facts(sc, facts);
    facts.bounds =
        bounds_of(sheet.rest_points
                      ? *sheet.rest_points
                      : preview_draw::draw_list(sc, {}, kBoundsOnly, textures, warnings).framed);
    return finish(std::move(sheet), mshconv::PreviewKind::Scene, address, content_hash(bytes),
                  std::move(facts), std::move(warnings));
}

Preview preview_level(const LevelExportInput& input, const PreviewSettings& s,
                      PreviewTextureCache* cache) {
    LevelExportSettings level;
    level.png = kDecodedTextures;
    LevelScene built = level_scene(input, level);
    add_object_markers(built.scene);
    PreviewSettings settings = s;
    if (settings.view.empty()) settings.view = "top"; // as a map
    Preview p =
        preview_scene(built.scene, input.mission.bytes, input.mission.address, settings, cache);
    p.kind = mshconv::PreviewKind::Level;
    p.metadata["kind"] = name_of(kPreviewKindNames, p.kind);
    p.facts.objects = built.summary.objects;
    p.facts.unresolved = built.summary.unresolved;
    p.facts.distinct_models = built.summary.models;
    p.metadata["facts"] = facts_json(p.kind, p.facts);
    for (std::string& w : built.warnings) p.warnings.push_back(std::move(w));
    return p;
}

Preview preview_terrain(const TerrainExportInput& input, const PreviewSettings& s,
                        PreviewTextureCache* cache) {
    if (const std::string problem = preview_settings_problem(s); !problem.empty())
        throw std::invalid_argument(problem);
    if (s.strip > 0) throw PreviewError("a map has no animation to strip");
    TerrainScene ts =
        terrain_scene(input, s.overlay != PreviewSettings::Overlay::None, kDecodedTextures);
    PreviewTextureCache local;
    PreviewTextureCache& textures = cache_or(cache, local);
    std::vector<std::string> warnings = ts.warnings;
    preview_draw::DrawOptions options;
    options.terrain = true;
    options.overlay = s.overlay;
    Subject subject;
    subject.map = true;
    subject.draw = [&](double) {
        return preview_draw::draw_list(ts.scene, {}, options, textures, warnings);
    };
    std::map<uint32_t, size_t> classes;
    if (ts.map)
        for (const auto& a : ts.map->areals) ++classes[a.class_id];
    Sheet sheet = draw_sheet(subject, s, classes);

    mshconv::PreviewFacts facts;
    facts.faces = ts.terrain->faces.size();
    facts.vertices = ts.terrain->positions.size();
    facts.areals = ts.map ? ts.map->areals.size() : 0;
    for (const auto& [id, count] : classes)
        facts.areal_classes.push_back(
            {id, count,
             hex_colour(mapping::kArealClassColours[id % mapping::kArealClassColours.size()]),
             preview_draw::kFillAlpha});
    material_facts(ts.scene, facts);
    facts.bounds = bounds_of(sheet.rest_points ? *sheet.rest_points : subject.draw(0).framed);
    uint64_t hash = content_hash(input.land_msh);
    if (input.land_map) hash ^= content_hash(input.land_map->bytes) * 0x100000001b3ULL;
    return finish(std::move(sheet), mshconv::PreviewKind::Map, input.address, hash,
                  std::move(facts), std::move(warnings));
}

Preview preview_texture(ByteView bytes, const std::string& address, const PreviewSettings& s) {
    if (const std::string problem = preview_settings_problem(s); !problem.empty())
        throw std::invalid_argument(problem);
    DiagnosticSink sink(ReadMode::Strict);
    texm::Texture t = texm::read(bytes, sink, address, texm::KeepRaw::OnlyUninterpretable);
    sink.throw_if_errors();
    t.channel_order = s.readings.texm_rgb;
    const texm::Image base = texm::decode_level(t, 0);
    // Fitted: texels enlarged by a whole factor stay crisp; larger textures are filtered down.
    const double scale = std::min(double(s.width) / base.width, double(s.height) / base.height);
    texm::Image fitted;
    if (scale >= 1) {
        const uint32_t k = uint32_t(std::floor(scale));
        fitted = texm::Image(base.width * k, base.height * k);
        for (uint32_t y = 0; y < fitted.height; ++y)
            for (uint32_t x = 0; x < fitted.width; ++x)
                std::copy_n(base.at(x / k, y / k), 4, fitted.at(x, y));
    } else {
        fitted = picture::resize(base, std::max(1u, uint32_t(base.width * scale)),
                                 std::max(1u, uint32_t(base.height * scale)));
    }
    texm::Image image(uint32_t(s.width), uint32_t(s.height));
    if (s.background)
        for (uint32_t i = 0; i < image.width * image.height; ++i)
            std::copy_n(std::array<uint8_t, 4>{(*s.background)[0], (*s.background)[1],
                                               (*s.background)[2], 255}
                            .data(),
                        4, image.rgba.data() + 4 * i);
    const uint32_t ox = (image.width - fitted.width) / 2, oy = (image.height - fitted.height) / 2;
    for (uint32_t y = 0; y < fitted.height; ++y)
        for (uint32_t x = 0; x < fitted.width; ++x) {
            const bool light = ((x / 8) + (y / 8)) % 2 == 0;
            const float check = render::srgb_to_linear(light ? 204 : 153);
            const uint8_t* src = fitted.at(x, y);
            uint8_t* dst = image.at(ox + x, oy + y);
            const float a = src[3] / 255.0f;
            for (int c = 0; c < 3; ++c)
                dst[c] =
                    render::linear_to_srgb(render::srgb_to_linear(src[c]) * a + check * (1 - a));
            dst[3] = 255;
        }
    Sheet sheet;
    sheet.png = png::encode_rgba(image, kPicturePng);
    sheet.size = {image.width, image.height};
    mshconv::PreviewCamera flat;
    flat.view = "texture";
    flat.flat = true;
    flat.viewport = {int(ox), int(oy), int(fitted.width), int(fitted.height)};
    sheet.views.push_back(preview_draw::camera_json(flat));
    sheet.cameras.push_back(std::move(flat));
    mshconv::PreviewFacts facts;
    facts.format = t.header.format;
    facts.width = int(base.width);
    facts.height = int(base.height);
    facts.mips = t.levels.size();
    facts.palette = !t.palette.empty();
    facts.pages = t.page ? t.page->size() : 0;
    return finish(std::move(sheet), mshconv::PreviewKind::Texture, address, content_hash(bytes),
                  std::move(facts), {});
}

} // namespace msh::conversion
