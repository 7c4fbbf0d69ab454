// The reference glTF writer through tinygltf: Scene -> tinygltf::Model ->
// tinygltf's serialisation. Kept as the reference the fast writer in formats/gltf.cpp must match
// (tests/test_gltf_writer.cpp: same JSON once parsed, same buffers) and the bench times.
#include "gltf_legacy_writer.hpp"

#include "formats/gltf_identity.hpp"
#include "formats/tinygltf.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace msh::test::legacy_gltf {

using gltf::Encoded;
using gltf::ImageMode;

namespace {

tinygltf::Value to_value(const nlohmann::json& j) {
    switch (j.type()) {
    case nlohmann::json::value_t::boolean:
        return tinygltf::Value(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned: {
        if (j.is_number_unsigned() ? j.get<uint64_t>() <= uint64_t(std::numeric_limits<int>::max())
                                   : (j.get<int64_t>() >= std::numeric_limits<int>::min() &&
                                      j.get<int64_t>() <= std::numeric_limits<int>::max()))
            return tinygltf::Value(int(j.get<int64_t>()));
        return tinygltf::Value(j.get<double>());
    }
    case nlohmann::json::value_t::number_float:
        return tinygltf::Value(j.get<double>());
    case nlohmann::json::value_t::string:
        return tinygltf::Value(j.get<std::string>());
    case nlohmann::json::value_t::array: {
        tinygltf::Value::Array a;
        for (const auto& e : j) a.push_back(to_value(e));
        return tinygltf::Value(std::move(a));
    }
    case nlohmann::json::value_t::object: {
        tinygltf::Value::Object o;
        for (auto it = j.begin(); it != j.end(); ++it) o[it.key()] = to_value(it.value());
        return tinygltf::Value(std::move(o));
    }
    default:
        return tinygltf::Value();
    }
}

// Appends accessor data to the single buffer, one tightly packed view per accessor.
struct BufferBuilder {
    tinygltf::Model& m;
    Bytes data;

    int view(const void* bytes, size_t size, int target) {
        while (data.size() % 4) data.push_back(0);
        tinygltf::BufferView v;
        v.buffer = 0;
        v.byteOffset = data.size();
        v.byteLength = size;
        v.target = target;
        const auto* p = static_cast<const uint8_t*>(bytes);
        data.insert(data.end(), p, p + size);
        m.bufferViews.push_back(std::move(v));
        return int(m.bufferViews.size() - 1);
    }

    int accessor(int view_index, int component_type, int type, size_t count,
                 std::vector<double> min = {}, std::vector<double> max = {}) {
        tinygltf::Accessor a;
        a.bufferView = view_index;
        a.byteOffset = 0;
        a.componentType = component_type;
        a.type = type;
        a.count = count;
        a.minValues = std::move(min);
        a.maxValues = std::move(max);
        m.accessors.push_back(std::move(a));
        return int(m.accessors.size() - 1);
    }

    // Float accessor with `components` per element; exact per-component min/max when asked.
    int floats(const std::vector<float>& values, int components, int target, bool bounds) {
        const size_t count = values.size() / size_t(components);
        if (count == 0) throw std::invalid_argument("glTF writer: empty float accessor");
        std::vector<double> mn, mx;
        if (bounds) {
            mn.assign(size_t(components), std::numeric_limits<double>::infinity());
            mx.assign(size_t(components), -std::numeric_limits<double>::infinity());
            for (size_t i = 0; i < values.size(); ++i) {
                const size_t c = i % size_t(components);
                mn[c] = std::min(mn[c], double(values[i]));
                mx[c] = std::max(mx[c], double(values[i]));
            }
        }
        const int type = components == 1   ? TINYGLTF_TYPE_SCALAR
                         : components == 2 ? TINYGLTF_TYPE_VEC2
                         : components == 3 ? TINYGLTF_TYPE_VEC3
                                           : TINYGLTF_TYPE_VEC4;
        const int v = view(values.data(), values.size() * sizeof(float), target);
        return accessor(v, TINYGLTF_COMPONENT_TYPE_FLOAT, type, count, std::move(mn),
                        std::move(mx));
    }

    // JOINTS_n: whole numbers as UNSIGNED_BYTE when every value < 256, else UNSIGNED_SHORT.
    int joints(const std::vector<float>& values, int components) {
        const float top = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
        const int type = components == 4 ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_SCALAR;
        const size_t count = values.size() / size_t(components);
        if (top < 256) {
            std::vector<uint8_t> small(values.begin(), values.end());
            return accessor(view(small.data(), small.size(), TINYGLTF_TARGET_ARRAY_BUFFER),
                            TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, type, count);
        }
        std::vector<uint16_t> wide(values.begin(), values.end());
        return accessor(view(wide.data(), wide.size() * 2, TINYGLTF_TARGET_ARRAY_BUFFER),
                        TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, type, count);
    }

    int indices(const std::vector<uint32_t>& idx) {
        const uint32_t top = idx.empty() ? 0 : *std::max_element(idx.begin(), idx.end());
        if (top < 0xFFFF) {
            std::vector<uint16_t> small(idx.begin(), idx.end());
            const int v =
                view(small.data(), small.size() * 2, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
            return accessor(v, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_SCALAR,
                            idx.size());
        }
        const int v = view(idx.data(), idx.size() * 4, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
        return accessor(v, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR, idx.size());
    }
};

Bytes to_bytes(const std::string& s) {
    return Bytes(s.begin(), s.end());
}

} // namespace

void to_tinygltf(const scene::Scene& scene, const std::string& bin_uri, tinygltf::Model& m,
                 const ImageMode& images) {
    m = tinygltf::Model();
    m.asset.version = "2.0";
    m.asset.generator = "mshconv";
    BufferBuilder bb{m, {}};

    // A texture needs its UV set on every primitive that uses the material (else the asset is
    // invalid): such materials stay without it. (Lightmap: the `mat` branch's addition.)
    std::vector<bool> no_uv(scene.materials.size(), false), no_lightmap_uv(no_uv);
    for (const scene::Mesh& mesh : scene.meshes)
        for (const scene::Primitive& p : mesh.primitives) {
            if (p.material < 0 || size_t(p.material) >= no_uv.size()) continue;
            if (!p.attributes.count("TEXCOORD_0")) no_uv[size_t(p.material)] = true;
            const int lt = scene.materials[size_t(p.material)].lightmap_texcoord;
            if (!p.attributes.count("TEXCOORD_" + std::to_string(lt)))
                no_lightmap_uv[size_t(p.material)] = true;
        }
    std::map<std::string, int> texture_of_image; // image name -> texture index
    auto texture_for = [&](const scene::Image& img) {
        auto it = texture_of_image.find(img.name);
        if (it != texture_of_image.end()) return it->second;
        if (m.samplers.empty()) {
            tinygltf::Sampler smp;
            smp.magFilter = TINYGLTF_TEXTURE_FILTER_LINEAR;
            smp.minFilter = TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_LINEAR;
            smp.wrapS = TINYGLTF_TEXTURE_WRAP_REPEAT;
            smp.wrapT = TINYGLTF_TEXTURE_WRAP_REPEAT;
            m.samplers.push_back(std::move(smp));
        }
        tinygltf::Image gi;
        gi.name = img.name;
        if (images.embed) {
            gi.bufferView = bb.view(img.png.data(), img.png.size(), 0);
            gi.mimeType = "image/png";
        } else {
            gi.uri = images.prefix + scene::image_file_stem(img.name) + ".png";
        }
        m.images.push_back(std::move(gi));
        tinygltf::Texture tex;
        tex.source = int(m.images.size() - 1);
        tex.sampler = 0;
        m.textures.push_back(std::move(tex));
        return texture_of_image[img.name] = int(m.textures.size() - 1);
    };
    for (size_t mi = 0; mi < scene.materials.size(); ++mi) {
        const scene::Material& src = scene.materials[mi];
        tinygltf::Material mat;
        mat.name = src.name;
        mat.pbrMetallicRoughness.baseColorFactor = {1, 1, 1, 1};
        mat.pbrMetallicRoughness.metallicFactor = 0;
        mat.pbrMetallicRoughness.roughnessFactor = 1;
        if (src.base_color && !src.base_color->png.empty() && !no_uv[mi]) {
            const int texture = texture_for(*src.base_color);
            mat.pbrMetallicRoughness.baseColorTexture.index = texture;
            mat.pbrMetallicRoughness.baseColorTexture.texCoord = 0;
            if (src.alpha_mode == scene::AlphaMode::Mask) {
                mat.alphaMode = "MASK";
                mat.alphaCutoff = src.alpha_cutoff;
            } else if (src.alpha_mode == scene::AlphaMode::Blend) {
                mat.alphaMode = "BLEND";
            }
        }
        if (src.lightmap && !src.lightmap->png.empty() && !no_lightmap_uv[mi]) {
            mat.occlusionTexture.index = texture_for(*src.lightmap);
            mat.occlusionTexture.texCoord = src.lightmap_texcoord;
        }
        const nlohmann::json mat_extras = gltf::extras_with(src.extras, src.identity);
        if (!mat_extras.is_null()) mat.extras = to_value(mat_extras);
        m.materials.push_back(std::move(mat));
    }

    for (const scene::Mesh& src : scene.meshes) {
        tinygltf::Mesh mesh;
        mesh.name = src.name;
        const nlohmann::json mesh_extras = gltf::extras_with(src.extras, src.identity);
        if (!mesh_extras.is_null()) mesh.extras = to_value(mesh_extras);
        for (const scene::Primitive& p : src.primitives) {
            tinygltf::Primitive prim;
            prim.mode = p.mode == scene::Primitive::Mode::Lines ? TINYGLTF_MODE_LINE
                                                                : TINYGLTF_MODE_TRIANGLES;
            prim.material = p.material;
            for (const auto& [name, attr] : p.attributes)
                prim.attributes[name] =
                    attr.joints ? bb.joints(attr.data, attr.components)
                                : bb.floats(attr.data, attr.components,
                                            TINYGLTF_TARGET_ARRAY_BUFFER, name == "POSITION");
            prim.indices = bb.indices(p.indices);
            mesh.primitives.push_back(std::move(prim));
        }
        m.meshes.push_back(std::move(mesh));
    }

    tinygltf::Scene sc;
    sc.name = "scene";
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const scene::Node& src = scene.nodes[i];
        tinygltf::Node n;
        n.name = src.name;
        n.mesh = src.mesh;
        n.skin = src.skin;
        if (!src.lod_ids.empty()) {
            tinygltf::Value::Array ids;
            for (int id : src.lod_ids) ids.push_back(tinygltf::Value(id));
            n.extensions["MSFT_lod"] =
                tinygltf::Value(tinygltf::Value::Object{{"ids", tinygltf::Value(ids)}});
        }
        if (!src.visible)
            n.extensions["KHR_node_visibility"] =
                tinygltf::Value(tinygltf::Value::Object{{"visible", tinygltf::Value(false)}});
        if (src.translation != std::array<float, 3>{0, 0, 0})
            n.translation.assign(src.translation.begin(), src.translation.end());
        if (src.rotation != std::array<float, 4>{0, 0, 0, 1})
            n.rotation.assign(src.rotation.begin(), src.rotation.end());
        nlohmann::json extras = gltf::extras_with(src.extras, src.identity);
        if (!src.lod_coverage.empty()) extras["MSFT_screencoverage"] = src.lod_coverage;
        if (!extras.is_null()) n.extras = to_value(extras);
        m.nodes.push_back(std::move(n));
        if (src.parent == scene::kNoIndex && src.in_scene) sc.nodes.push_back(int(i));
    }
    for (size_t i = 0; i < scene.nodes.size(); ++i)
        if (scene.nodes[i].parent != scene::kNoIndex)
            m.nodes[size_t(scene.nodes[i].parent)].children.push_back(int(i));
    const nlohmann::json scene_extras = gltf::extras_with(scene.extras, scene.identity);
    if (!scene_extras.is_null()) sc.extras = to_value(scene_extras);
    if (std::any_of(scene.nodes.begin(), scene.nodes.end(),
                    [](const scene::Node& n) { return !n.visible; }))
        m.extensionsUsed.push_back("KHR_node_visibility");
    if (std::any_of(scene.nodes.begin(), scene.nodes.end(),
                    [](const scene::Node& n) { return !n.lod_ids.empty(); }))
        m.extensionsUsed.push_back("MSFT_lod");
    for (const scene::Skin& src : scene.skins) {
        tinygltf::Skin skin;
        skin.name = src.name;
        skin.joints = src.joints;
        const int v = bb.view(src.inverse_bind.data(), src.inverse_bind.size() * sizeof(float), 0);
        skin.inverseBindMatrices =
            bb.accessor(v, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_MAT4, src.joints.size());
        m.skins.push_back(std::move(skin));
    }
    m.scenes.push_back(std::move(sc));
    m.defaultScene = 0;

    for (const scene::Animation& src : scene.animations) {
        tinygltf::Animation an;
        an.name = src.name;
        if (!src.extras.is_null()) an.extras = to_value(src.extras);
        std::map<std::vector<float>, int> inputs; // shared time accessors
        for (const scene::Channel& ch : src.channels) {
            const int comps = ch.path == scene::Path::Rotation ? 4 : 3;
            if (ch.times.empty() || ch.values.size() != ch.times.size() * size_t(comps))
                throw std::invalid_argument("glTF writer: animation channel of node " +
                                            std::to_string(ch.node) +
                                            " has mismatched times and values");
            auto it = inputs.find(ch.times);
            if (it == inputs.end())
                it = inputs.emplace(ch.times, bb.floats(ch.times, 1, 0, true)).first;
            tinygltf::AnimationSampler s;
            s.input = it->second;
            s.output = bb.floats(ch.values, comps, 0, false);
            s.interpolation = "LINEAR";
            an.samplers.push_back(std::move(s));
            tinygltf::AnimationChannel c;
            c.sampler = int(an.samplers.size() - 1);
            c.target_node = ch.node;
            c.target_path = ch.path == scene::Path::Rotation ? "rotation" : "translation";
            an.channels.push_back(std::move(c));
        }
        if (!an.channels.empty()) m.animations.push_back(std::move(an));
    }

    if (!bb.data.empty()) {
        while (bb.data.size() % 4) bb.data.push_back(0);
        tinygltf::Buffer buf;
        buf.data = std::move(bb.data);
        buf.uri = bin_uri;
        m.buffers.push_back(std::move(buf));
    }
}

Encoded encode(const scene::Scene& scene, bool binary, const std::string& out_name) {
    Encoded e;
    std::string stem = std::filesystem::path(out_name).filename().string();
    if (const auto dot = stem.rfind('.'); dot != std::string::npos && dot > 0) stem.resize(dot);
    if (!binary) e.bin_name = stem + ".bin";

    tinygltf::Model m;
    ImageMode images;
    images.embed = binary;
    images.prefix = scene::image_file_stem(stem) + "_";
    to_tinygltf(scene, {}, m, images);
    if (!binary) e.images = scene::image_files(scene, images.prefix, true);
    tinygltf::TinyGLTF writer;
    std::ostringstream os;
    if (binary) {
        if (!writer.WriteGltfSceneToStream(&m, os, false, true))
            throw std::runtime_error(out_name + ": glTF serialisation failed");
        const std::string s = os.str();
        e.document.assign(s.begin(), s.end());
        return e;
    }
    // tinygltf's stream writer embeds buffers as data URIs: serialise without the payload, then
    // point the buffer at the external .bin.
    Bytes payload;
    if (!m.buffers.empty()) payload = std::move(m.buffers[0].data), m.buffers[0].data.clear();
    if (!writer.WriteGltfSceneToStream(&m, os, true, false))
        throw std::runtime_error(out_name + ": glTF serialisation failed");
    nlohmann::json j = nlohmann::json::parse(os.str());
    if (!payload.empty()) {
        j["buffers"][0] = {{"byteLength", payload.size()}, {"uri", e.bin_name}};
        e.bin = std::move(payload);
    } else {
        e.bin_name.clear();
    }
    e.document = to_bytes(j.dump(1) + "\n");
    return e;
}

} // namespace msh::test::legacy_gltf
