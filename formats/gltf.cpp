// Scene -> glTF 2.0 written directly: a layout pass lays out every buffer view and accessor (with
// its min/max) without copying any data, the JSON is streamed from the scene and the layout, and
// the binary buffer is filled once, straight into its final place (the GLB's BIN chunk or the
// .bin). The layout, accessor and view order and all values are those of the former tinygltf
// writer (bench/gltf_legacy_writer.cpp; tests/test_gltf_writer.cpp holds the two together).
#include "gltf.hpp"

#include "file_io.hpp"
#include "gltf_identity.hpp"
#include "gltf_json.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <limits>
#include <map>
#include <stdexcept>
#include <string_view>

namespace msh::gltf {

namespace {

constexpr int kArrayBuffer = 34962;
constexpr int kElementArrayBuffer = 34963;
constexpr int kUnsignedByte = 5121;
constexpr int kUnsignedShort = 5123;
constexpr int kUnsignedInt = 5125;
constexpr int kFloat = 5126;

// How a view's bytes come from the scene.
enum class Copy : uint8_t { Raw, FloatToU8, FloatToU16, U32ToU16 };

struct View {
    size_t offset = 0;
    size_t length = 0;
    int target = 0; // 0: none
    const void* source = nullptr;
    size_t count = 0; // source elements (Raw: bytes)
    Copy copy = Copy::Raw;
};

struct Accessor {
    int view = 0;
    int component_type = kFloat;
    const char* type = "SCALAR";
    size_t count = 0;
    int bounds = 0; // components with min/max (0: none)
    std::array<double, 4> min{}, max{};
};

const char* type_name(int components) {
    switch (components) {
    case 1:
        return "SCALAR";
    case 2:
        return "VEC2";
    case 3:
        return "VEC3";
    case 16:
        return "MAT4";
    default:
        return "VEC4";
    }
}

// The single binary buffer: views in order, each 4-byte aligned, tightly packed.
struct Layout {
    std::vector<View> views;
    std::vector<Accessor> accessors;
    size_t size = 0;

    int view(const void* source, size_t count, size_t length, Copy copy, int target) {
        size = (size + 3) & ~size_t(3);
        views.push_back({size, length, target, source, count, copy});
        size += length;
        return int(views.size() - 1);
    }
    int raw_view(const void* bytes, size_t length, int target) {
        return view(bytes, length, length, Copy::Raw, target);
    }

    int accessor(int view_index, int component_type, const char* type, size_t count) {
        Accessor a;
        a.view = view_index;
        a.component_type = component_type;
        a.type = type;
        a.count = count;
        accessors.push_back(a);
        return int(accessors.size() - 1);
    }

    // Float accessor with `components` per element; exact per-component min/max when asked.
    int floats(const std::vector<float>& values, int components, int target, bool bounds) {
        const size_t n = size_t(components);
        const size_t count = values.size() / n;
        if (count == 0) throw std::invalid_argument("glTF writer: empty float accessor");
        const int v = raw_view(values.data(), values.size() * sizeof(float), target);
        const int a = accessor(v, kFloat, type_name(components), count);
        if (bounds) {
            // Component-wise min/max (NaN ignored, as std::min/max would).
            std::array<float, 4> mn, mx;
            mn.fill(std::numeric_limits<float>::infinity());
            mx.fill(-std::numeric_limits<float>::infinity());
            const float* p = values.data();
            for (size_t i = 0; i < count; ++i, p += n)
                for (size_t c = 0; c < n; ++c) {
                    if (p[c] < mn[c]) mn[c] = p[c];
                    if (p[c] > mx[c]) mx[c] = p[c];
                }
            Accessor& acc = accessors[size_t(a)];
            acc.bounds = components;
            for (size_t c = 0; c < n; ++c) acc.min[c] = mn[c], acc.max[c] = mx[c];
        }
        return a;
    }

    // JOINTS_n: whole numbers as UNSIGNED_BYTE when every value < 256, else UNSIGNED_SHORT.
    int joints(const std::vector<float>& values, int components) {
        const float top = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
        const char* type = components == 4 ? "VEC4" : "SCALAR";
        const size_t count = values.size() / size_t(components);
        if (top < 256)
            return accessor(
                view(values.data(), values.size(), values.size(), Copy::FloatToU8, kArrayBuffer),
                kUnsignedByte, type, count);
        return accessor(
            view(values.data(), values.size(), values.size() * 2, Copy::FloatToU16, kArrayBuffer),
            kUnsignedShort, type, count);
    }

    // UNSIGNED_SHORT when every index < 65535 (65535 is the primitive-restart value).
    int indices(const std::vector<uint32_t>& idx) {
        const uint32_t top = idx.empty() ? 0 : *std::max_element(idx.begin(), idx.end());
        if (top < 0xFFFF)
            return accessor(
                view(idx.data(), idx.size(), idx.size() * 2, Copy::U32ToU16, kElementArrayBuffer),
                kUnsignedShort, "SCALAR", idx.size());
        return accessor(raw_view(idx.data(), idx.size() * 4, kElementArrayBuffer), kUnsignedInt,
                        "SCALAR", idx.size());
    }

    // A view stored in another type than its source's, into `d` (v.length bytes).
    static void convert(const View& v, uint8_t* d) {
        switch (v.copy) {
        case Copy::Raw:
            std::memcpy(d, v.source, v.length);
            break;
        case Copy::FloatToU8: {
            const float* s = static_cast<const float*>(v.source);
            for (size_t i = 0; i < v.count; ++i) d[i] = uint8_t(s[i]);
            break;
        }
        case Copy::FloatToU16: {
            const float* s = static_cast<const float*>(v.source);
            for (size_t i = 0; i < v.count; ++i) store(d + 2 * i, uint16_t(s[i]));
            break;
        }
        case Copy::U32ToU16: {
            const uint32_t* s = static_cast<const uint32_t*>(v.source);
            for (size_t i = 0; i < v.count; ++i) store(d + 2 * i, uint16_t(s[i]));
            break;
        }
        }
    }

    // Appends the buffer (size bytes: every view, zero padding between and after) to `out`.
    void append_to(Bytes& out) const {
        const size_t base = out.size();
        out.reserve(base + size);
        for (const View& v : views) {
            out.resize(base + v.offset); // alignment padding
            if (v.copy == Copy::Raw) {
                const auto* s = static_cast<const uint8_t*>(v.source);
                out.insert(out.end(), s, s + v.length);
            } else {
                out.resize(base + v.offset + v.length);
                convert(v, out.data() + base + v.offset);
            }
        }
        out.resize(base + size);
    }

    // The buffer as pieces in order, for writing without assembling it: each raw view is its
    // source (the scene's array), the others are stored into `converted`; padding is zeros.
    void pieces(std::vector<ByteView>& out, std::vector<Bytes>& converted) const {
        static constexpr uint8_t kZeros[4] = {};
        size_t at = 0;
        for (const View& v : views) {
            if (v.offset > at) out.push_back(ByteView(kZeros, v.offset - at)); // < 4 bytes
            if (v.copy == Copy::Raw) {
                out.push_back(ByteView(static_cast<const uint8_t*>(v.source), v.length));
            } else {
                Bytes& b = converted.emplace_back(v.length);
                convert(v, b.data());
                out.push_back(b);
            }
            at = v.offset + v.length;
        }
        if (size > at) out.push_back(ByteView(kZeros, size - at));
    }
};

// Textures, images and the one sampler, deduplicated by image name.
struct Textures {
    struct Entry {
        const scene::Image* image;
        int view; // embedded: the PNG's buffer view; else -1 (uri)
    };
    std::vector<Entry> images; // texture i uses image i
    std::map<std::string, int, std::less<>> by_name;

    // The texture of `img`, added (with its image and view) on first use.
    int texture(const scene::Image& img, const ImageMode& mode, Layout& layout) {
        if (auto it = by_name.find(img.name); it != by_name.end()) return it->second;
        const int view = mode.embed ? layout.raw_view(img.png.data(), img.png.size(), 0) : -1;
        images.push_back({&img, view});
        const int t = int(images.size() - 1);
        by_name.emplace(img.name, t);
        return t;
    }
};

// ---- Materials (kept together here: planning, then writing).

// The textures a material uses (indices into the document's textures; -1 = none).
struct MaterialTextures {
    int base_color = -1;
    int lightmap = -1; // occlusionTexture on the material's lightmap_texcoord
};

// Per material, its textures; first use of an image adds it (its view comes before any mesh
// data, in material order).
std::vector<MaterialTextures> plan_materials(const scene::Scene& scene, const ImageMode& images,
                                             Textures& textures, Layout& layout) {
    // A texture needs TEXCOORD_0 on every primitive that uses the material (else the asset is
    // invalid): such materials stay untextured.
    // The same for the lightmap's UV set.
    std::vector<bool> no_uv(scene.materials.size(), false), no_lightmap_uv(no_uv);
    for (const scene::Mesh& mesh : scene.meshes)
        for (const scene::Primitive& prim : mesh.primitives) {
            if (prim.material < 0 || size_t(prim.material) >= no_uv.size()) continue;
            const scene::Material& m = scene.materials[size_t(prim.material)];
            if (!prim.attributes.count("TEXCOORD_0")) no_uv[size_t(prim.material)] = true;
            if (!prim.attributes.count("TEXCOORD_" + std::to_string(m.lightmap_texcoord)))
                no_lightmap_uv[size_t(prim.material)] = true;
        }
    std::vector<MaterialTextures> out(scene.materials.size());
    for (size_t mi = 0; mi < scene.materials.size(); ++mi) {
        const scene::Material& m = scene.materials[mi];
        if (m.base_color && !m.base_color->png.empty() && !no_uv[mi])
            out[mi].base_color = textures.texture(*m.base_color, images, layout);
        if (m.lightmap && !m.lightmap->png.empty() && !no_lightmap_uv[mi])
            out[mi].lightmap = textures.texture(*m.lightmap, images, layout);
    }
    return out;
}

void write_extras(JsonWriter& j, const nlohmann::json& extras) {
    if (!extras.is_null()) j.key("extras").value(extras);
}

// One material: PBR metallic-roughness, not metallic, base colour factor when not white, base
// colour texture (TEXCOORD_0) when it has one; the alpha mode for textured or translucent ones.
void write_material(JsonWriter& j, const scene::Material& m, const MaterialTextures& t) {
    j.begin_object();
    if (!m.name.empty()) j.key("name").string(m.name);
    j.key("pbrMetallicRoughness").begin_object();
    if (m.base_color_factor != std::array<float, 4>{1, 1, 1, 1}) {
        j.key("baseColorFactor").numbers(m.base_color_factor);
    }
    if (t.base_color >= 0)
        j.key("baseColorTexture").begin_object().key("index").integer(t.base_color).end_object();
    j.key("metallicFactor").number(0.0);
    j.end_object();
    // A baked multiplicative lightmap: occlusionTexture is the closest glTF slot.
    if (t.lightmap >= 0)
        j.key("occlusionTexture")
            .begin_object()
            .key("index")
            .integer(t.lightmap)
            .key("texCoord")
            .integer(m.lightmap_texcoord)
            .end_object();
    if (t.base_color >= 0 || m.base_color_factor[3] < 1) {
        if (m.alpha_mode == scene::AlphaMode::Mask) {
            j.key("alphaMode").plain_string("MASK");
            if (double(m.alpha_cutoff) != 0.5) j.key("alphaCutoff").number(m.alpha_cutoff);
        } else if (m.alpha_mode == scene::AlphaMode::Blend) {
            j.key("alphaMode").plain_string("BLEND");
        }
    }
    write_extras(j, extras_with(m.extras, m.identity));
    j.end_object();
}

// ---- The document.

// What the JSON needs beyond the scene: accessor indices of every primitive, skin and channel.
struct Plan {
    Layout layout;
    Textures textures;
    std::vector<MaterialTextures> materials;
    struct Prim {
        std::vector<std::pair<std::string_view, int>> attributes; // in name order
        int indices = -1;
    };
    std::vector<std::vector<Prim>> meshes;
    std::vector<int> inverse_bind; // per skin
    struct Sampler {
        int input, output;
    };
    std::vector<std::vector<Sampler>> animations; // per animation, one sampler per channel
};

Plan plan(const scene::Scene& scene, const ImageMode& images) {
    Plan p;
    p.materials = plan_materials(scene, images, p.textures, p.layout);

    Layout& l = p.layout;
    p.meshes.resize(scene.meshes.size());
    for (size_t mi = 0; mi < scene.meshes.size(); ++mi) {
        for (const scene::Primitive& prim : scene.meshes[mi].primitives) {
            Plan::Prim out;
            out.attributes.reserve(prim.attributes.size());
            for (const auto& [name, attr] : prim.attributes)
                out.attributes.emplace_back(name, attr.joints
                                                      ? l.joints(attr.data, attr.components)
                                                      : l.floats(attr.data, attr.components,
                                                                 kArrayBuffer, name == "POSITION"));
            out.indices = l.indices(prim.indices);
            p.meshes[mi].push_back(std::move(out));
        }
    }
    for (const scene::Skin& skin : scene.skins) {
        const int v =
            l.raw_view(skin.inverse_bind.data(), skin.inverse_bind.size() * sizeof(float), 0);
        p.inverse_bind.push_back(l.accessor(v, kFloat, "MAT4", skin.joints.size()));
    }
    for (const scene::Animation& an : scene.animations) {
        std::vector<Plan::Sampler> samplers;
        std::vector<std::pair<const std::vector<float>*, int>> inputs; // shared time accessors
        for (const scene::Channel& ch : an.channels) {
            const int comps = ch.path == scene::Path::Rotation ? 4 : 3;
            if (ch.times.empty() || ch.values.size() != ch.times.size() * size_t(comps))
                throw std::invalid_argument("glTF writer: animation channel of node " +
                                            std::to_string(ch.node) +
                                            " has mismatched times and values");
            int input = -1;
            for (const auto& [times, accessor] : inputs)
                if (*times == ch.times) input = accessor;
            if (input < 0) {
                input = l.floats(ch.times, 1, 0, true);
                inputs.emplace_back(&ch.times, input);
            }
            samplers.push_back({input, l.floats(ch.values, comps, 0, false)});
        }
        p.animations.push_back(std::move(samplers));
    }
    l.size = (l.size + 3) & ~size_t(3);
    return p;
}

void write_node(JsonWriter& j, const scene::Node& n, const std::vector<int>& children) {
    j.begin_object();
    if (!n.name.empty()) j.key("name").string(n.name);
    if (n.translation != std::array<float, 3>{0, 0, 0}) j.key("translation").numbers(n.translation);
    if (n.rotation != std::array<float, 4>{0, 0, 0, 1}) j.key("rotation").numbers(n.rotation);
    if (n.scale != std::array<float, 3>{1, 1, 1}) j.key("scale").numbers(n.scale);
    if (n.mesh != scene::kNoIndex) j.key("mesh").integer(n.mesh);
    if (n.skin != scene::kNoIndex) j.key("skin").integer(n.skin);
    if (!children.empty()) j.key("children").integers(children);
    if (!n.lod_ids.empty() || !n.visible) {
        j.key("extensions").begin_object();
        if (!n.visible)
            j.key("KHR_node_visibility").begin_object().key("visible").boolean(false).end_object();
        if (!n.lod_ids.empty())
            j.key("MSFT_lod").begin_object().key("ids").integers(n.lod_ids).end_object();
        j.end_object();
    }
    nlohmann::json extras = extras_with(n.extras, n.identity);
    if (!n.lod_coverage.empty()) extras["MSFT_screencoverage"] = n.lod_coverage;
    write_extras(j, extras);
    j.end_object();
}

void write_accessor(JsonWriter& j, const Accessor& a) {
    j.begin_object();
    j.key("bufferView").integer(a.view);
    j.key("componentType").integer(a.component_type);
    j.key("count").unsigned_integer(a.count);
    j.key("type").plain_string(a.type);
    if (a.bounds) {
        j.key("min").begin_array();
        for (int c = 0; c < a.bounds; ++c) j.number(a.min[size_t(c)]);
        j.end_array();
        j.key("max").begin_array();
        for (int c = 0; c < a.bounds; ++c) j.number(a.max[size_t(c)]);
        j.end_array();
    }
    j.end_object();
}

// The whole JSON document. `bin_uri` names the external buffer (empty: the GLB's BIN chunk).
// `asset` and the extensions the nodes use.
void write_asset(JsonWriter& j, const scene::Scene& scene) {
    j.key("asset").begin_object().key("generator").plain_string("mshconv");
    j.key("version").plain_string("2.0").end_object();
    const bool hidden = std::any_of(scene.nodes.begin(), scene.nodes.end(),
                                    [](const scene::Node& n) { return !n.visible; });
    const bool lods = std::any_of(scene.nodes.begin(), scene.nodes.end(),
                                  [](const scene::Node& n) { return !n.lod_ids.empty(); });
    if (hidden || lods) {
        j.key("extensionsUsed").begin_array();
        if (hidden) j.plain_string("KHR_node_visibility");
        if (lods) j.plain_string("MSFT_lod");
        j.end_array();
    }
}

// The one scene with its root nodes and extras, and the node tree.
void write_scene_and_nodes(JsonWriter& j, const scene::Scene& scene) {
    j.key("scene").integer(0);
    j.key("scenes").begin_array().begin_object();
    j.key("name").plain_string("scene");
    std::vector<int> roots;
    for (size_t i = 0; i < scene.nodes.size(); ++i)
        if (scene.nodes[i].parent == scene::kNoIndex && scene.nodes[i].in_scene)
            roots.push_back(int(i));
    if (!roots.empty()) j.key("nodes").integers(roots);
    write_extras(j, extras_with(scene.extras, scene.identity));
    j.end_object().end_array();

    if (!scene.nodes.empty()) {
        std::vector<std::vector<int>> children(scene.nodes.size());
        for (size_t i = 0; i < scene.nodes.size(); ++i)
            if (scene.nodes[i].parent != scene::kNoIndex)
                children.at(size_t(scene.nodes[i].parent)).push_back(int(i));
        j.key("nodes").begin_array();
        for (size_t i = 0; i < scene.nodes.size(); ++i) write_node(j, scene.nodes[i], children[i]);
        j.end_array();
    }
}

// Meshes: each primitive's attributes, indices, material and mode.
void write_meshes(JsonWriter& j, const scene::Scene& scene, const Plan& p) {
    if (!scene.meshes.empty()) {
        j.key("meshes").begin_array();
        for (size_t mi = 0; mi < scene.meshes.size(); ++mi) {
            const scene::Mesh& mesh = scene.meshes[mi];
            j.begin_object();
            if (!mesh.name.empty()) j.key("name").string(mesh.name);
            j.key("primitives").begin_array();
            for (size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
                const scene::Primitive& prim = mesh.primitives[pi];
                const Plan::Prim& pp = p.meshes[mi][pi];
                j.begin_object().key("attributes").begin_object();
                for (const auto& [name, accessor] : pp.attributes)
                    j.escaped_key(name).integer(accessor);
                j.end_object();
                j.key("indices").integer(pp.indices);
                if (prim.material >= 0) j.key("material").integer(prim.material);
                j.key("mode").integer(prim.mode == scene::Primitive::Mode::Lines ? 1 : 4);
                j.end_object();
            }
            j.end_array();
            write_extras(j, extras_with(mesh.extras, mesh.identity));
            j.end_object();
        }
        j.end_array();
    }
}

// Materials, and the textures, images and the one sampler they use.
void write_materials_and_images(JsonWriter& j, const scene::Scene& scene, const Plan& p,
                                const ImageMode& images) {
    if (!scene.materials.empty()) {
        j.key("materials").begin_array();
        for (size_t mi = 0; mi < scene.materials.size(); ++mi)
            write_material(j, scene.materials[mi], p.materials[mi]);
        j.end_array();
    }
    if (!p.textures.images.empty()) {
        j.key("textures").begin_array();
        for (size_t t = 0; t < p.textures.images.size(); ++t)
            j.begin_object().key("sampler").integer(0).key("source").integer(int(t)).end_object();
        j.end_array();
        j.key("images").begin_array();
        for (const Textures::Entry& e : p.textures.images) {
            j.begin_object();
            if (!e.image->name.empty()) j.key("name").string(e.image->name);
            if (e.view >= 0)
                j.key("bufferView").integer(e.view).key("mimeType").plain_string("image/png");
            else
                j.key("uri").string(images.prefix + scene::image_file_stem(e.image->name) + ".png");
            j.end_object();
        }
        j.end_array();
        // LINEAR_MIPMAP_LINEAR / LINEAR, REPEAT
        j.key("samplers").begin_array().begin_object();
        j.key("magFilter").integer(9729).key("minFilter").integer(9987);
        j.key("wrapS").integer(10497).key("wrapT").integer(10497);
        j.end_object().end_array();
    }
}

// Skins: joints and inverse bind matrices.
void write_skins(JsonWriter& j, const scene::Scene& scene, const Plan& p) {
    if (!scene.skins.empty()) {
        j.key("skins").begin_array();
        for (size_t s = 0; s < scene.skins.size(); ++s) {
            const scene::Skin& skin = scene.skins[s];
            j.begin_object();
            if (!skin.name.empty()) j.key("name").string(skin.name);
            if (!skin.joints.empty()) j.key("joints").integers(skin.joints);
            j.key("inverseBindMatrices").integer(p.inverse_bind[s]);
            j.end_object();
        }
        j.end_array();
    }
}

// Animations with channels; each channel has its own LINEAR sampler.
void write_animations(JsonWriter& j, const scene::Scene& scene, const Plan& p) {
    bool animated = false;
    for (const scene::Animation& an : scene.animations) animated = animated || !an.channels.empty();
    if (animated) {
        j.key("animations").begin_array();
        for (size_t ai = 0; ai < scene.animations.size(); ++ai) {
            const scene::Animation& an = scene.animations[ai];
            if (an.channels.empty()) continue;
            j.begin_object();
            if (!an.name.empty()) j.key("name").string(an.name);
            j.key("channels").begin_array();
            for (size_t c = 0; c < an.channels.size(); ++c) {
                const scene::Channel& ch = an.channels[c];
                j.begin_object().key("sampler").integer(int64_t(c));
                j.key("target").begin_object().key("node").integer(ch.node);
                j.key("path").plain_string(ch.path == scene::Path::Rotation ? "rotation"
                                                                            : "translation");
                j.end_object().end_object();
            }
            j.end_array();
            j.key("samplers").begin_array();
            for (const Plan::Sampler& s : p.animations[ai])
                j.begin_object()
                    .key("input")
                    .integer(s.input)
                    .key("output")
                    .integer(s.output)
                    .key("interpolation")
                    .plain_string("LINEAR")
                    .end_object();
            j.end_array();
            write_extras(j, an.extras);
            j.end_object();
        }
        j.end_array();
    }
}

// Accessors, buffer views and the one buffer.
void write_buffers(JsonWriter& j, const Plan& p, const std::string& bin_uri) {
    const Layout& l = p.layout;
    if (!l.accessors.empty()) {
        j.key("accessors").begin_array();
        for (const Accessor& a : l.accessors) write_accessor(j, a);
        j.end_array();
    }
    if (!l.views.empty()) {
        j.key("bufferViews").begin_array();
        for (const View& v : l.views) {
            j.begin_object().key("buffer").integer(0);
            if (v.offset) j.key("byteOffset").unsigned_integer(v.offset);
            j.key("byteLength").unsigned_integer(v.length);
            if (v.target) j.key("target").integer(v.target);
            j.end_object();
        }
        j.end_array();
    }
    if (l.size) {
        j.key("buffers").begin_array().begin_object();
        j.key("byteLength").unsigned_integer(l.size);
        if (!bin_uri.empty()) j.key("uri").string(bin_uri);
        j.end_object().end_array();
    }
}

void write_document(JsonWriter& j, const scene::Scene& scene, const Plan& p,
                    const ImageMode& images, const std::string& bin_uri) {
    j.begin_object();
    write_asset(j, scene);
    write_scene_and_nodes(j, scene);
    write_meshes(j, scene, p);
    write_materials_and_images(j, scene, p, images);
    write_skins(j, scene, p);
    write_animations(j, scene, p);
    write_buffers(j, p, bin_uri);
    j.end_object();
}

// About the compact JSON's size (a reservation: more is fine, it grows).
size_t json_estimate(const scene::Scene& scene, const Plan& p) {
    size_t primitives = 0;
    for (const scene::Mesh& m : scene.meshes) primitives += m.primitives.size();
    return 1024 + 96 * p.layout.accessors.size() + 64 * p.layout.views.size() +
           160 * scene.nodes.size() + 96 * scene.meshes.size() + 96 * primitives +
           192 * scene.materials.size() + 128 * p.textures.images.size();
}

void put_u32(Bytes& out, size_t at, uint32_t v) {
    store(out.data() + at, v);
}

bool ends_with_ci(const std::string& s, const std::string& suffix) {
    if (s.size() < suffix.size()) return false;
    for (size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i])
            return false;
    return true;
}

} // namespace

Encoded encode(const scene::Scene& scene, bool binary, const std::string& out_name,
               Assembly assembly) {
    Encoded e;
    std::string stem = std::filesystem::path(out_name).filename().string();
    if (const auto dot = stem.rfind('.'); dot != std::string::npos && dot > 0) stem.resize(dot);

    ImageMode images;
    images.embed = binary;
    images.prefix = scene::image_file_stem(stem) + "_";
    const Plan p = plan(scene, images);
    const size_t bin_size = p.layout.size;

    if (!binary) {
        if (bin_size) e.bin_name = stem + ".bin";
        e.document.reserve(json_estimate(scene, p) * 3 / 2); // indented
        JsonWriter j(e.document, true);
        write_document(j, scene, p, images, e.bin_name);
        j.finish();
        e.document.push_back('\n');
        p.layout.append_to(e.bin);
        e.images = scene::image_files(scene, images.prefix, true);
        return e;
    }

    // GLB: header, JSON chunk (space padded), BIN chunk (zero padded; none without data). The
    // JSON goes straight after the header; the buffer is filled in place.
    Bytes& out = e.document;
    out.reserve(20 + json_estimate(scene, p) + 8 + (assembly == Assembly::Whole ? bin_size : 0));
    out.resize(20);
    JsonWriter j(out, false);
    write_document(j, scene, p, images, {});
    j.finish();
    while (out.size() % 4) out.push_back(' ');
    const size_t json_size = out.size() - 20;
    const size_t total = out.size() + (bin_size ? 8 + bin_size : 0);
    if (total > std::numeric_limits<uint32_t>::max())
        throw std::invalid_argument(out_name + ": GLB larger than 4 GiB");
    std::memcpy(out.data(), "glTF", 4);
    put_u32(out, 4, 2);
    put_u32(out, 8, uint32_t(total));
    put_u32(out, 12, uint32_t(json_size));
    std::memcpy(out.data() + 16, "JSON", 4);
    if (bin_size) {
        const size_t at = out.size();
        out.resize(at + 8);
        put_u32(out, at, uint32_t(bin_size));
        std::memcpy(out.data() + at + 4, "BIN\0", 4);
        if (assembly == Assembly::Pieces)
            p.layout.pieces(e.tail, e.converted);
        else
            p.layout.append_to(out);
    }
    return e;
}

void write(const scene::Scene& scene, const std::filesystem::path& out) {
    const std::string name = out.string();
    bool binary = false;
    if (ends_with_ci(name, ".glb"))
        binary = true;
    else if (!ends_with_ci(name, ".gltf"))
        throw std::invalid_argument(name + ": output must end in .gltf or .glb");
    Encoded e = encode(scene, binary, name);
    for (const scene::ImageFile& f : e.images) write_file_atomic(out.parent_path() / f.name, f.png);
    if (!e.bin_name.empty()) write_file_atomic(out.parent_path() / e.bin_name, e.bin);
    write_file_atomic(out, e.document);
}

} // namespace msh::gltf
