#include "preview_draw.hpp"

#include "formats/anim.hpp"
#include "formats/content_hash.hpp"
#include "formats/diagnostics.hpp"
#include "formats/picture.hpp"
#include "mapping/drape.hpp"
#include "mapping/terrain_to_scene.hpp"
#include "scene/transform.hpp"

#include <algorithm>
#include <cmath>

namespace msh::conversion::preview_draw {

namespace {

std::shared_ptr<const render::Texture> texture_of(const scene::Image& image,
                                                  PreviewTextureCache& cache,
                                                  std::vector<std::string>& warnings) {
    if (image.pixels) {
        {
            std::lock_guard<std::mutex> lock(cache.mutex);
            if (const auto it = cache.by_pixels.find(image.pixels.get());
                it != cache.by_pixels.end())
                return it->second.second;
        }
        auto tex = render::make_texture(image.pixels);
        std::lock_guard<std::mutex> lock(cache.mutex);
        return cache.by_pixels.emplace(image.pixels.get(), std::make_pair(image.pixels, tex))
            .first->second.second;
    }
    const auto key = std::make_pair(content_hash(image.png), image.png.size());
    {
        std::lock_guard<std::mutex> lock(cache.mutex);
        if (const auto it = cache.textures.find(key); it != cache.textures.end()) return it->second;
    }
    std::shared_ptr<const render::Texture> tex;
    try {
        tex = render::make_texture(
            std::make_shared<const texm::Image>(picture::decode(image.png, image.name)));
    } catch (const FormatError& e) {
        warnings.push_back(std::string(e.what()) + " (drawn untextured)");
    }
    std::lock_guard<std::mutex> lock(cache.mutex);
    return cache.textures.emplace(key, tex).first->second;
}

render::AlphaMode alpha_of(scene::AlphaMode m) {
    switch (m) {
    case scene::AlphaMode::Mask:
        return render::AlphaMode::Mask;
    case scene::AlphaMode::Blend:
        return render::AlphaMode::Blend;
    case scene::AlphaMode::Opaque:
        break;
    }
    return render::AlphaMode::Opaque;
}

bool starts_with(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

// Is every ancestor of node i (and i) part of the drawn scene? Maps draw only the terrain and
// the draped overlay; glTF MSFT_lod levels outside the scene are not drawn.
std::vector<bool> shown_nodes(const scene::Scene& sc, const DrawOptions& options) {
    std::vector<bool> shown(sc.nodes.size(), true);
    for (size_t i = 0; i < sc.nodes.size(); ++i) {
        int n = int(i);
        for (size_t guard = 0; n >= 0 && size_t(n) < sc.nodes.size() && guard <= sc.nodes.size();
             ++guard) {
            const scene::Node& node = sc.nodes[size_t(n)];
            const bool raw_overlay = options.terrain && node.name == mapping::kArealNode;
            if (raw_overlay || !node.visible ||
                (node.parent == scene::kNoIndex && !node.in_scene)) {
                shown[i] = false;
                break;
            }
            n = node.parent;
        }
    }
    return shown;
}

// The items as closed_shells takes them: only opaque surfaces hide what is behind them.
std::vector<render::MeshRef> opaque_meshes(const std::vector<Item>& items) {
    static const std::vector<uint32_t> kNoTriangles;
    std::vector<render::MeshRef> meshes;
    for (const Item& item : items)
        meshes.push_back({&item.vertices, item.surface.alpha == render::AlphaMode::Opaque
                                              ? &item.triangles
                                              : &kNoTriangles});
    return meshes;
}

} // namespace

DrawList draw_list(const scene::Scene& sc, const Pose& pose, const DrawOptions& options,
                   PreviewTextureCache& cache, std::vector<std::string>& warnings) {
    scene::Scene posed_nodes;
    posed_nodes.nodes = sc.nodes;
    for (size_t i = 0; i < pose.size() && i < sc.nodes.size(); ++i)
        if (pose[i]) {
            posed_nodes.nodes[i].translation = pose[i]->translation;
            posed_nodes.nodes[i].rotation = pose[i]->rotation;
        }
    const std::vector<scene::Rigid> world = scene::world_transforms(posed_nodes);
    const std::vector<bool> shown = shown_nodes(sc, options);
    DrawList list;
    std::vector<Item> blended;
    std::vector<std::pair<bool, std::shared_ptr<const render::Texture>>> material_textures(
        sc.materials.size());
    for (size_t n = 0; n < sc.nodes.size(); ++n) {
        const scene::Node& node = sc.nodes[n];
        if (!shown[n] || node.mesh == scene::kNoIndex || size_t(node.mesh) >= sc.meshes.size())
            continue;
        const bool draped = options.terrain && node.name == mapping::kArealDrapedNode;
        const bool is_terrain = options.terrain && node.name == mapping::kTerrainNode;
        if (draped && options.overlay == PreviewSettings::Overlay::None) continue;
        for (const scene::Primitive& prim : sc.meshes[size_t(node.mesh)].primitives) {
            const auto pos_it = prim.attributes.find("POSITION");
            if (pos_it == prim.attributes.end() || pos_it->second.components != 3) continue;
            const scene::Attribute& pos = pos_it->second;
            const scene::Material* mat =
                prim.material >= 0 && size_t(prim.material) < sc.materials.size()
                    ? &sc.materials[size_t(prim.material)]
                    : nullptr;
            if (prim.mode == scene::Primitive::Mode::Lines) {
                if (!draped) continue;
                Lines lines;
                for (size_t v = 0; v < pos.count(); ++v)
                    lines.points.push_back(scene::apply(
                        world[n], {pos.data[3 * v], pos.data[3 * v + 1], pos.data[3 * v + 2]}));
                lines.segments = prim.indices;
                lines.colour = {0.01f, 0.01f, 0.01f, 0.6f};
                list.lines.push_back(std::move(lines));
                continue;
            }
            if (draped && (options.overlay != PreviewSettings::Overlay::Fill || !mat ||
                           !starts_with(mat->name, "areal_class_")))
                continue; // the ribbons: the preview draws the outlines as lines
            Item item;
            const auto nrm_it = prim.attributes.find("NORMAL");
            const auto uv_it = prim.attributes.find("TEXCOORD_0");
            const scene::Attribute* nrm = nrm_it != prim.attributes.end() &&
                                                  nrm_it->second.components == 3 &&
                                                  nrm_it->second.count() == pos.count()
                                              ? &nrm_it->second
                                              : nullptr;
            const scene::Attribute* uv = uv_it != prim.attributes.end() &&
                                                 uv_it->second.components == 2 &&
                                                 uv_it->second.count() == pos.count()
                                             ? &uv_it->second
                                             : nullptr;
            const auto colour_it = prim.attributes.find("COLOR_0");
            const scene::Attribute* colour = colour_it != prim.attributes.end() &&
                                                     colour_it->second.components >= 3 &&
                                                     colour_it->second.count() == pos.count()
                                                 ? &colour_it->second
                                                 : nullptr;
            item.vertices.resize(pos.count());
            for (size_t v = 0; v < pos.count(); ++v) {
                render::Vertex& out = item.vertices[v];
                out.position = scene::apply(
                    world[n], {pos.data[3 * v], pos.data[3 * v + 1], pos.data[3 * v + 2]});
                if (nrm)
                    out.normal = scene::apply_rotation(
                        world[n], {nrm->data[3 * v], nrm->data[3 * v + 1], nrm->data[3 * v + 2]});
                else
                    out.normal = {0, 0, 0};
                if (uv) out.u = uv->data[2 * v], out.v = uv->data[2 * v + 1];
                if (colour)
                    for (size_t k = 0; k < size_t(colour->components); ++k)
                        out.colour[k] = colour->data[size_t(colour->components) * v + k];
            }
            if (prim.indices.empty()) {
                for (uint32_t v = 0; v + 2 < uint32_t(pos.count()); v += 3)
                    item.triangles.insert(item.triangles.end(), {v, v + 1, v + 2});
            } else {
                item.triangles = prim.indices;
                item.triangles.resize(item.triangles.size() / 3 * 3);
            }
            if (std::any_of(item.triangles.begin(), item.triangles.end(),
                            [&](uint32_t i) { return i >= pos.count(); }))
                continue; // the readers check indices; a broken primitive is not drawn
            if (mat) {
                item.surface.factor = mat->base_color_factor;
                item.surface.alpha = alpha_of(mat->alpha_mode);
                item.surface.cutoff = mat->alpha_cutoff;
                if (mat->base_color && (mat->base_color->pixels || !mat->base_color->png.empty())) {
                    // Once per material and list: the cache's key hashes the image's bytes.
                    auto& known = material_textures[size_t(prim.material)];
                    if (!known.first) known = {true, texture_of(*mat->base_color, cache, warnings)};
                    item.surface.texture = known.second;
                }
            }
            if (draped) {
                item.surface.factor[3] = kFillAlpha;
                item.surface.alpha = render::AlphaMode::Blend;
                item.surface.lit = false;
            }
            if (!draped && (!options.terrain || is_terrain))
                for (const render::Vertex& v : item.vertices) list.framed.push_back(v.position);
            list.triangles += item.triangles.size() / 3;
            (item.surface.alpha == render::AlphaMode::Blend ? blended : list.items)
                .push_back(std::move(item));
        }
    }
    for (Item& item : blended) list.items.push_back(std::move(item));
    if (options.cull_hidden && !options.terrain)
        list.shells = render::closed_shells(opaque_meshes(list.items));
    return list;
}

double scene_animation_seconds(const scene::Scene& sc) {
    double end = 0;
    for (const scene::Animation& a : sc.animations)
        for (const scene::Channel& c : a.channels)
            if (!c.times.empty()) end = std::max(end, double(c.times.back()));
    return end;
}

Pose sample_scene_animation(const scene::Scene& sc, double seconds) {
    Pose pose(sc.nodes.size());
    if (sc.animations.empty()) return pose;
    for (const scene::Channel& c : sc.animations.front().channels) {
        if (c.node < 0 || size_t(c.node) >= sc.nodes.size() || c.times.empty()) continue;
        const size_t width = c.path == scene::Path::Translation ? 3 : 4;
        if (c.values.size() < c.times.size() * width) continue;
        size_t k = 0;
        while (k + 1 < c.times.size() && double(c.times[k + 1]) <= seconds) ++k;
        const size_t next = std::min(k + 1, c.times.size() - 1);
        float t = 0;
        if (next != k && c.times[next] > c.times[k] && seconds > c.times[k])
            t = float((seconds - c.times[k]) / (c.times[next] - c.times[k]));
        auto& slot = pose[size_t(c.node)];
        if (!slot)
            slot =
                LocalPose{sc.nodes[size_t(c.node)].translation, sc.nodes[size_t(c.node)].rotation};
        const float* a = &c.values[k * width];
        const float* b = &c.values[next * width];
        if (c.path == scene::Path::Translation) {
            for (size_t i = 0; i < 3; ++i) slot->translation[i] = a[i] + (b[i] - a[i]) * t;
        } else {
            slot->rotation = anim::slerp({a[0], a[1], a[2], a[3]}, {b[0], b[1], b[2], b[3]}, t);
        }
    }
    return pose;
}

texm::Image render_view(const DrawList& list, const render::Camera& camera,
                        const PreviewSettings& settings) {
    render::Canvas canvas(camera, settings.samples_per_side);
    const std::vector<std::vector<render::Cull>> cull =
        list.shells.shells.empty() ? std::vector<std::vector<render::Cull>>(list.items.size())
                                   : render::culling(list.shells, list.items.size(), canvas);
    for (size_t i = 0; i < list.items.size(); ++i) {
        const Item& item = list.items[i];
        canvas.draw(item.vertices, item.triangles, item.surface, {}, cull[i]);
    }
    for (const Lines& l : list.lines) canvas.draw_lines(l.points, l.segments, l.colour, 1.0);
    return canvas.resolve_and_clear(settings.background);
}

void paste(texm::Image& sheet, const texm::Image& cell, uint32_t x, uint32_t y) {
    for (uint32_t j = 0; j < cell.height && y + j < sheet.height; ++j)
        for (uint32_t i = 0; i < cell.width && x + i < sheet.width; ++i)
            std::copy_n(cell.at(i, j), 4, sheet.at(x + i, y + j));
}

mshconv::PreviewCamera preview_camera(const render::Camera& c, const std::string& view,
                                      std::array<int, 4> viewport) {
    mshconv::PreviewCamera out;
    out.view = view;
    out.orthographic = c.orthographic;
    const auto doubles = [](const render::Vec3& v) {
        return std::array<double, 3>{v[0], v[1], v[2]};
    };
    out.eye = doubles(c.eye);
    out.right = doubles(c.right);
    out.up = doubles(c.up);
    out.forward = doubles(c.forward);
    out.focal = c.focal;
    out.principal = {c.cx, c.cy};
    out.viewport = viewport;
    return out;
}

nlohmann::json camera_json(const mshconv::PreviewCamera& c) {
    if (c.flat) return {{"view", c.view}, {"viewport", c.viewport}, {"level", c.level}};
    return {{"view", c.view},
            {"viewport", c.viewport},
            {"projection", c.orthographic ? "orthographic" : "perspective"},
            {"axes", "glTF (Y up; MSH (x, y, z) = (x, z, -y))"},
            {"eye", c.eye},
            {"right", c.right},
            {"up", c.up},
            {"forward", c.forward},
            {"focal", c.focal},
            {"principal", c.principal},
            {"size", {c.viewport[2], c.viewport[3]}}};
}

} // namespace msh::conversion::preview_draw
