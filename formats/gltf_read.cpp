#define TINYGLTF_IMPLEMENTATION
#include "tinygltf.hpp"

#include "diagnostics.hpp"
#include "file_io.hpp"
#include "gltf.hpp"
#include "gltf_check.hpp"
#include "gltf_identity.hpp"
#include "json_nesting.hpp"
#include "scene/bake_scale.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

namespace msh::gltf {

namespace {

nlohmann::json to_json(const tinygltf::Value& v) {
    switch (v.Type()) {
    case tinygltf::NULL_TYPE:
        return nullptr;
    case tinygltf::BOOL_TYPE:
        return v.Get<bool>();
    case tinygltf::INT_TYPE:
        return v.Get<int>();
    case tinygltf::REAL_TYPE:
        return v.Get<double>();
    case tinygltf::STRING_TYPE:
        return v.Get<std::string>();
    case tinygltf::ARRAY_TYPE: {
        nlohmann::json a = nlohmann::json::array();
        for (size_t i = 0; i < v.ArrayLen(); ++i) a.push_back(to_json(v.Get(int(i))));
        return a;
    }
    case tinygltf::OBJECT_TYPE: {
        nlohmann::json o = nlohmann::json::object();
        for (const std::string& k : v.Keys()) o[k] = to_json(v.Get(k));
        return o;
    }
    default:
        return nullptr;
    }
}

struct Reader {
    const tinygltf::Model& m;
    std::string where;

    // `pointer`: the JSON pointer of the offending element (RFC 6901), e.g. /accessors/3.
    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
        throw FormatError(where, Location::at_pointer(pointer), what);
    }

    // Accessors without a buffer view are all zeros; beyond this many elements they are refused
    // (nothing in the file backs the allocation).
    static constexpr size_t kMaxUnbackedElements = size_t(1) << 24;

    struct Backing {
        const tinygltf::Buffer* buffer;
        size_t start, stride;
    };

    // The buffer bytes of accessor `index` (`elem` bytes per element), checked: the view and
    // buffer exist and `count` elements at the stride fit in both, without overflow.
    Backing backing(int index, const tinygltf::Accessor& a, size_t elem) const {
        const std::string at = "/accessors/" + std::to_string(index);
        if (size_t(a.bufferView) >= m.bufferViews.size())
            fail(at + "/bufferView", "no buffer view " + std::to_string(a.bufferView));
        const tinygltf::BufferView& bv = m.bufferViews[size_t(a.bufferView)];
        if (bv.buffer < 0 || size_t(bv.buffer) >= m.buffers.size())
            fail("/bufferViews/" + std::to_string(a.bufferView) + "/buffer",
                 "no buffer " + std::to_string(bv.buffer));
        const tinygltf::Buffer& buf = m.buffers[size_t(bv.buffer)];
        const size_t stride = bv.byteStride ? bv.byteStride : elem;
        if (stride < elem) fail(at, "byteStride is smaller than an element");
        // Room in the view after the accessor's offset, and in the buffer after the view's.
        const size_t view =
            std::min(bv.byteLength, buf.data.size() - std::min(buf.data.size(), bv.byteOffset));
        if (bv.byteOffset > buf.data.size() || a.byteOffset > view ||
            (a.count > 0 &&
             (view - a.byteOffset < elem || (a.count - 1) > (view - a.byteOffset - elem) / stride)))
            fail(at, "accessor " + std::to_string(index) + " (" + std::to_string(a.count) +
                         " elements) runs past its buffer view");
        return {&buf, bv.byteOffset + a.byteOffset, stride};
    }

    // `bytes` bytes at `offset` in buffer view `view` (a sparse part: tightly packed), checked.
    const uint8_t* view_bytes(int view, size_t offset, size_t bytes, const std::string& at) const {
        if (view < 0 || size_t(view) >= m.bufferViews.size())
            fail(at + "/bufferView", "no buffer view " + std::to_string(view));
        const tinygltf::BufferView& bv = m.bufferViews[size_t(view)];
        if (bv.buffer < 0 || size_t(bv.buffer) >= m.buffers.size())
            fail("/bufferViews/" + std::to_string(view) + "/buffer",
                 "no buffer " + std::to_string(bv.buffer));
        const tinygltf::Buffer& buf = m.buffers[size_t(bv.buffer)];
        const size_t room =
            std::min(bv.byteLength, buf.data.size() - std::min(buf.data.size(), bv.byteOffset));
        if (bv.byteOffset > buf.data.size() || offset > room || bytes > room - offset)
            fail(at, std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                         " run past buffer view " + std::to_string(view));
        return buf.data.data() + bv.byteOffset + offset;
    }

    // One component of type `type` at `q` as float (normalised integers scaled as glTF says).
    float component(const uint8_t* q, int type, bool normalized, const std::string& at,
                    size_t element) const {
        float v = 0;
        switch (type) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT:
            std::memcpy(&v, q, 4);
            if (!std::isfinite(v))
                fail(at, "accessor " + at.substr(at.rfind('/') + 1) + " element " +
                             std::to_string(element) + " holds NaN or infinity");
            return v;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
            return normalized ? *q / 255.0f : float(*q);
        case TINYGLTF_COMPONENT_TYPE_BYTE: {
            const float b = float(int8_t(*q));
            return normalized ? std::max(b / 127.0f, -1.0f) : b;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
            uint16_t u;
            std::memcpy(&u, q, 2);
            return normalized ? u / 65535.0f : float(u);
        }
        case TINYGLTF_COMPONENT_TYPE_SHORT: {
            int16_t h;
            std::memcpy(&h, q, 2);
            return normalized ? std::max(float(h) / 32767.0f, -1.0f) : float(h);
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
            uint32_t u;
            std::memcpy(&u, q, 4);
            return float(u);
        }
        default:
            fail(at,
                 "accessor " + at.substr(at.rfind('/') + 1) + " has an unsupported component type");
        }
    }

    // Every component of an accessor as float: its buffer view (or zeros), then its sparse
    // substitutions (glTF 2.0 §3.6.2.3).
    std::vector<float> floats(int index, int& components) const {
        if (index < 0 || size_t(index) >= m.accessors.size())
            fail("/accessors/" + std::to_string(index),
                 "accessor " + std::to_string(index) + " does not exist");
        const tinygltf::Accessor& a = m.accessors[size_t(index)];
        components = tinygltf::GetNumComponentsInType(uint32_t(a.type));
        const int csize = tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType));
        if (components <= 0 || csize <= 0)
            fail("/accessors/" + std::to_string(index),
                 "accessor " + std::to_string(index) + " has an unknown type");
        const std::string at = "/accessors/" + std::to_string(index);
        const size_t comps = size_t(components);
        const size_t elem = comps * size_t(csize);
        std::vector<float> out;
        if (a.bufferView < 0) {
            // All zeros by the glTF rules: nothing backs the count, so bound it.
            if (a.count > kMaxUnbackedElements)
                fail(at, "accessor " + std::to_string(index) + " has no buffer view and " +
                             std::to_string(a.count) + " elements");
            out.assign(a.count * comps, 0.0f);
        } else {
            const auto [buf, start, stride] = backing(index, a, elem);
            // Checked against the bytes that back it before anything is allocated.
            out.assign(a.count * comps, 0.0f);
            if (a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT) {
                // Floats as stored: whole elements copied (the bulk of a big map's GLB).
                const uint8_t* p = buf->data.data() + start;
                if (stride == elem)
                    std::memcpy(out.data(), p, a.count * elem);
                else
                    for (size_t i = 0; i < a.count; ++i)
                        std::memcpy(&out[i * comps], p + i * stride, elem);
                // NaN and infinity refused, as component() does (all exponent bits set).
                bool finite = true;
                for (const float f : out) {
                    uint32_t bits;
                    std::memcpy(&bits, &f, 4);
                    finite &= (bits & 0x7f800000u) != 0x7f800000u;
                }
                if (!finite)
                    for (size_t k = 0; k < out.size(); ++k)
                        if (!std::isfinite(out[k]))
                            fail(at, "accessor " + std::to_string(index) + " element " +
                                         std::to_string(k / comps) + " holds NaN or infinity");
            } else
                for (size_t i = 0; i < a.count; ++i) {
                    const uint8_t* p = buf->data.data() + start + i * stride;
                    for (size_t c = 0; c < comps; ++c)
                        out[i * comps + c] =
                            component(p + c * size_t(csize), a.componentType, a.normalized, at, i);
                }
        }
        if (a.sparse.isSparse) {
            const size_t n = size_t(std::max(0, a.sparse.count));
            if (n == 0 || n > a.count)
                fail(at + "/sparse/count", "sparse count " + std::to_string(a.sparse.count) +
                                               " is not 1.." + std::to_string(a.count));
            const int itype = a.sparse.indices.componentType;
            const size_t isize = itype == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE    ? 1
                                 : itype == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ? 2
                                 : itype == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT   ? 4
                                                                                   : 0;
            if (!isize)
                fail(at + "/sparse/indices/componentType",
                     "sparse indices must be unsigned byte, short or int");
            const uint8_t* idx = view_bytes(a.sparse.indices.bufferView,
                                            size_t(std::max(0, a.sparse.indices.byteOffset)),
                                            n * isize, at + "/sparse/indices");
            const uint8_t* val = view_bytes(a.sparse.values.bufferView,
                                            size_t(std::max(0, a.sparse.values.byteOffset)),
                                            n * elem, at + "/sparse/values");
            size_t previous = 0;
            for (size_t k = 0; k < n; ++k) {
                uint32_t target = 0;
                if (isize == 1) target = idx[k];
                if (isize == 2) {
                    uint16_t u;
                    std::memcpy(&u, idx + 2 * k, 2);
                    target = u;
                }
                if (isize == 4) std::memcpy(&target, idx + 4 * k, 4);
                if (target >= a.count || (k > 0 && target <= previous))
                    fail(at + "/sparse/indices", "sparse index " + std::to_string(target) +
                                                     " is past the accessor or not increasing");
                previous = target;
                for (size_t c = 0; c < comps; ++c)
                    out[target * comps + c] = component(val + k * elem + c * size_t(csize),
                                                        a.componentType, a.normalized, at, target);
            }
        }
        return out;
    }

    std::vector<uint32_t> indices(int index) const {
        const std::string at = "/accessors/" + std::to_string(index);
        if (index < 0 || size_t(index) >= m.accessors.size())
            fail(at, "accessor " + std::to_string(index) + " does not exist");
        const tinygltf::Accessor& a = m.accessors[size_t(index)];
        // glTF indices are unsigned integers, one component (a float would not convert exactly).
        if ((a.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
             a.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
             a.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT) ||
            a.type != TINYGLTF_TYPE_SCALAR)
            fail(at, "index accessor " + std::to_string(index) +
                         " is not SCALAR unsigned byte, short or int");
        if (a.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT && a.bufferView >= 0) {
            // Exact for every u32 (floats are not).
            const auto [buf, start, stride] = backing(index, a, 4);
            std::vector<uint32_t> out(a.count);
            for (size_t i = 0; i < a.count; ++i)
                std::memcpy(&out[i], buf->data.data() + start + i * stride, 4);
            return out;
        }
        int comps = 0;
        std::vector<float> f = floats(index, comps);
        return std::vector<uint32_t>(f.begin(), f.end());
    }
};

} // namespace

namespace {

tinygltf::TinyGLTF make_loader() {
    tinygltf::TinyGLTF loader;
    // Images are not decoded (textures go through their own PNG route); embedded (bufferView)
    // images would otherwise fail the load for want of a decoder. Keep their bytes as they are.
    loader.SetImageLoader(
        [](tinygltf::Image* image, const int, std::string*, std::string*, int, int,
           const unsigned char* bytes, int size, void*) {
            image->image.assign(bytes, bytes + size);
            return true;
        },
        nullptr);
    return loader;
}

void check_load(bool ok, const std::string& where, const std::string& err, const std::string& warn,
                DiagnosticSink& diagnostics) {
    if (!ok) {
        std::string why = err.empty() ? warn : err;
        while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
        throw FormatError(where, Location::whole(), "not a readable glTF: " + why);
    }
    if (!warn.empty()) diagnostics.warn(where, Location::whole(), warn);
}

// `folder`: where external image URIs are read from (empty: nowhere).
scene::Scene to_scene(const tinygltf::Model& m, const std::string& where,
                      DiagnosticSink& diagnostics, const ReadOptions& options,
                      const std::filesystem::path& folder = {});

} // namespace

namespace {

// Whether `path` (a buffer or image URI joined to the document's folder) really leads inside
// `folder`, symlinks resolved: a URI never reads a file outside the glTF's own folder.
bool leads_inside(const std::filesystem::path& folder, const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path base = fs::weakly_canonical(folder.empty() ? fs::path(".") : folder, ec);
    if (ec) return false;
    const fs::path real = fs::weakly_canonical(path, ec);
    if (ec) return false;
    return std::mismatch(base.begin(), base.end(), real.begin(), real.end()).first == base.end();
}

// The document's folder and the Io its files are read through (null: the disk).
struct DocumentFolder {
    std::filesystem::path folder;
    mshconv::Io* io = nullptr;
};

// File access for tinygltf confined to the document's folder (user_data: a DocumentFolder); no
// `~`/variable expansion, no writes.
tinygltf::FsCallbacks confined_fs(const DocumentFolder* document) {
    tinygltf::FsCallbacks fs{};
    // Found wherever it is, so that the read below refuses it with a clear message.
    fs.FileExists = [](const std::string& path, void* user) {
        const auto& doc = *static_cast<const DocumentFolder*>(user);
        if (!on_disk(doc.io)) return doc.io->is_file(path);
        std::error_code ec;
        return std::filesystem::exists(path, ec);
    };
    fs.ExpandFilePath = [](const std::string& path, void*) { return path; };
    fs.ReadWholeFile = [](std::vector<unsigned char>* out, std::string* err,
                          const std::string& path, void* user) {
        const auto& doc = *static_cast<const DocumentFolder*>(user);
        if (!on_disk(doc.io)) {
            try {
                const std::filesystem::path p(path);
                *out = read_confined(doc.io, doc.folder, p.lexically_relative(doc.folder).string());
                return true;
            } catch (const std::exception& e) {
                if (err) *err += std::string(e.what()) + " (not read)\n";
                return false;
            }
        }
        if (!leads_inside(doc.folder, path)) {
            if (err) *err += "'" + path + "' leads outside the glTF's folder (not read)\n";
            return false;
        }
        return tinygltf::ReadWholeFile(out, err, path, nullptr);
    };
    fs.WriteWholeFile = [](std::string*, const std::string&, const std::vector<unsigned char>&,
                           void*) { return false; };
    fs.user_data = const_cast<DocumentFolder*>(document);
    return fs;
}

} // namespace

scene::Scene read(const std::filesystem::path& file, DiagnosticSink& diagnostics,
                  const ReadOptions& options) {
    std::optional<MappedFile> mapped;
    mshconv::FileBytes from_io;
    if (on_disk(options.io))
        mapped.emplace(file, Reading::Whole); // every page entered at once
    else
        from_io = options.io->read(file);
    const ByteView bytes = mapped ? mapped->bytes() : ByteView(from_io.bytes);
    const std::string where = file.string();
    const std::filesystem::path folder = file.parent_path();
    check_document(bytes, where, &folder, options.io); // container, nesting, structure first
    if (bytes.size() > std::numeric_limits<unsigned int>::max())
        throw FormatError(where, 0, "glTF larger than 4 GiB");
    tinygltf::TinyGLTF loader = make_loader();
    const DocumentFolder document{folder, options.io};
    loader.SetFsCallbacks(confined_fs(&document));
    tinygltf::Model m;
    std::string err, warn;
    const std::string base = folder.empty() ? std::string(".") : folder.string();
    const bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    const ByteView text = skip_utf8_bom(bytes); // RapidJSON does not skip one itself
    const bool ok = binary
                        ? loader.LoadBinaryFromMemory(&m, &err, &warn, bytes.data(),
                                                      static_cast<unsigned int>(bytes.size()), base)
                        : loader.LoadASCIIFromString(&m, &err, &warn,
                                                     reinterpret_cast<const char*>(text.data()),
                                                     static_cast<unsigned int>(text.size()), base);
    check_load(ok, where, err, warn, diagnostics);
    return to_scene(m, where, diagnostics, options, folder.empty() ? "." : folder);
}

scene::Scene read_glb(ByteView glb, const std::string& where, DiagnosticSink& diagnostics,
                      const ReadOptions& options) {
    if (glb.size() > std::numeric_limits<unsigned int>::max())
        throw FormatError(where, 0, "GLB larger than 4 GiB");
    check_document(glb, where, nullptr); // only the BIN chunk and data: URIs
    tinygltf::TinyGLTF loader = make_loader();
    loader.SetFsCallbacks(tinygltf::FsCallbacks{}); // from memory: no file is read
    tinygltf::Model m;
    std::string err, warn;
    const bool ok = loader.LoadBinaryFromMemory(&m, &err, &warn, glb.data(),
                                                static_cast<unsigned int>(glb.size()));
    check_load(ok, where, err, warn, diagnostics);
    return to_scene(m, where, diagnostics, options);
}

scene::Scene read_gltf_text(ByteView json, const std::string& where, DiagnosticSink& diagnostics,
                            const ReadOptions& options) {
    if (json.size() > std::numeric_limits<unsigned int>::max())
        throw FormatError(where, 0, "glTF document larger than 4 GiB");
    check_document(json, where, nullptr);
    tinygltf::TinyGLTF loader = make_loader();
    // No base folder: only data: URIs resolve; a file URI is not read from anywhere.
    loader.SetFsCallbacks(tinygltf::FsCallbacks{});
    tinygltf::Model m;
    std::string err, warn;
    const ByteView text = skip_utf8_bom(json);
    const bool ok =
        loader.LoadASCIIFromString(&m, &err, &warn, reinterpret_cast<const char*>(text.data()),
                                   static_cast<unsigned int>(text.size()), "");
    check_load(ok, where, err, warn, diagnostics);
    return to_scene(m, where, diagnostics, options);
}

namespace {

// TRIANGLE_STRIP / TRIANGLE_FAN indices -> a triangle list with the winding glTF 2.0 §3.7.2.1
// defines; triangles that repeat an index (the degenerate joins of strips) are dropped.
std::vector<uint32_t> triangle_list(const std::vector<uint32_t>& v, bool strip) {
    std::vector<uint32_t> out;
    for (size_t i = 0; i + 2 < v.size(); ++i) {
        std::array<uint32_t, 3> t =
            strip ? std::array<uint32_t, 3>{v[i], v[i + 1 + i % 2], v[i + 2 - i % 2]}
                  : std::array<uint32_t, 3>{v[i + 1], v[i + 2], v[0]};
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) continue;
        out.insert(out.end(), t.begin(), t.end());
    }
    return out;
}

// Extensions a file may require that change nothing the import reads (materials are taken by
// name) or that it decodes itself.
bool import_understands(const std::string& ext) {
    return ext == "KHR_mesh_quantization" || ext == "KHR_texture_transform" ||
           ext.rfind("KHR_materials_", 0) == 0 || ext == "KHR_lights_punctual" ||
           ext == "KHR_texture_basisu" || ext == "EXT_texture_webp";
}

// KHR_texture_transform of the base colour texture, baked into the UV set it applies to:
// uv' = T(offset) * R(rotation) * S(scale) * uv (the extension's matrix).
void bake_texture_transform(const tinygltf::Material& mat, scene::Primitive& prim) {
    const tinygltf::TextureInfo& info = mat.pbrMetallicRoughness.baseColorTexture;
    const auto it = info.extensions.find("KHR_texture_transform");
    if (info.index < 0 || it == info.extensions.end() || !it->second.IsObject()) return;
    const tinygltf::Value& t = it->second;
    auto number = [&](const char* key, int k, double fallback) {
        const tinygltf::Value& v = t.Get(key);
        if (v.IsArray() && int(v.ArrayLen()) > k && v.Get(k).IsNumber())
            return v.Get(k).GetNumberAsDouble();
        return v.IsNumber() && k < 0 ? v.GetNumberAsDouble() : fallback;
    };
    const double ox = number("offset", 0, 0), oy = number("offset", 1, 0);
    const double sx = number("scale", 0, 1), sy = number("scale", 1, 1);
    const double rot = number("rotation", -1, 0);
    int set = info.texCoord;
    if (t.Get("texCoord").IsInt()) set = t.Get("texCoord").GetNumberAsInt();
    const auto uv = prim.attributes.find("TEXCOORD_" + std::to_string(set));
    if (uv == prim.attributes.end() || uv->second.components != 2) return;
    const double c = std::cos(rot), sn = std::sin(rot);
    std::vector<float>& d = uv->second.data;
    for (size_t i = 0; i + 1 < d.size(); i += 2) {
        const double u = d[i] * sx, v = d[i + 1] * sy;
        d[i] = float(c * u + sn * v + ox);
        d[i + 1] = float(-sn * u + c * v + oy);
    }
}

// The base colour texture's image as the file holds it (encoded bytes, decoded later by whoever
// needs pixels), named after the image, else its URI's file stem, else `image<index>`.
std::optional<scene::Image> base_color_image(const tinygltf::Model& m,
                                             const tinygltf::Material& mat,
                                             const std::string& where,
                                             const std::filesystem::path& folder, mshconv::Io* io,
                                             DiagnosticSink& diagnostics) {
    const int t = mat.pbrMetallicRoughness.baseColorTexture.index;
    if (t < 0 || size_t(t) >= m.textures.size()) return std::nullopt;
    const int source = m.textures[size_t(t)].source;
    if (source < 0 || size_t(source) >= m.images.size()) return std::nullopt;
    const tinygltf::Image& img = m.images[size_t(source)];
    const bool external = !img.uri.empty() && img.uri.rfind("data:", 0) != 0;
    scene::Image out;
    out.name = img.name;
    if (out.name.empty() && external)
        out.name = std::filesystem::path(decode_uri(img.uri)).stem().string();
    if (out.name.empty()) out.name = "image" + std::to_string(source);
    if (!img.image.empty()) {
        out.png = img.image;
        return out;
    }
    if (!external || folder.empty()) return std::nullopt;
    const std::string pointer = "/images/" + std::to_string(source) + "/uri";
    try {
        out.png = read_confined(io, folder, decode_uri(img.uri));
    } catch (const std::exception& e) {
        diagnostics.warn(where, Location::at_pointer(pointer),
                         "image '" + img.uri + "' not read (" + e.what() + "); material '" +
                             mat.name + "' comes in untextured");
        return std::nullopt;
    }
    return out;
}

// Several scenes: the default one (scene, else the first) is the model; nodes only the others
// show are dropped, with the animation channels that drive them.
void keep_default_scene(scene::Scene& s, const tinygltf::Model& m, const std::string& where,
                        DiagnosticSink& diagnostics) {
    const size_t chosen = size_t(std::max(0, m.defaultScene));
    if (chosen >= m.scenes.size()) return;
    std::vector<char> keep(s.nodes.size(), 0);
    std::vector<int> todo(m.scenes[chosen].nodes.begin(), m.scenes[chosen].nodes.end());
    while (!todo.empty()) {
        const int n = todo.back();
        todo.pop_back();
        if (n < 0 || size_t(n) >= keep.size() || keep[size_t(n)]) continue;
        keep[size_t(n)] = 1;
        todo.insert(todo.end(), m.nodes[size_t(n)].children.begin(),
                    m.nodes[size_t(n)].children.end());
    }
    std::vector<int> renumber(s.nodes.size(), scene::kNoIndex);
    std::vector<scene::Node> kept;
    for (size_t i = 0; i < s.nodes.size(); ++i)
        if (keep[i]) {
            renumber[i] = int(kept.size());
            kept.push_back(std::move(s.nodes[i]));
        }
    if (kept.size() == s.nodes.size()) return;
    diagnostics.warn(where, Location::at_pointer("/scenes"),
                     std::to_string(m.scenes.size()) + " scenes: scene " + std::to_string(chosen) +
                         " is imported, " + std::to_string(s.nodes.size() - kept.size()) +
                         " node(s) only the others show are not");
    auto map = [&](int i) {
        return i < 0 || size_t(i) >= renumber.size() ? i : renumber[size_t(i)];
    };
    for (scene::Node& n : kept) n.parent = map(n.parent);
    for (scene::Animation& an : s.animations) {
        std::vector<scene::Channel> channels;
        for (scene::Channel& c : an.channels)
            if (c.node < 0 || map(c.node) >= 0) {
                channels.push_back(std::move(c));
                channels.back().node = map(channels.back().node);
            }
        an.channels = std::move(channels);
    }
    for (scene::Skin& sk : s.skins)
        for (int& j : sk.joints) j = map(j);
    s.nodes = std::move(kept);
}

// The extensions the file requires, each one the import understands; cameras are dropped.
void check_document_needs(const Reader& r, DiagnosticSink& diagnostics) {
    const tinygltf::Model& m = r.m;
    for (size_t i = 0; i < m.extensionsRequired.size(); ++i)
        if (!import_understands(m.extensionsRequired[i]))
            r.fail("/extensionsRequired/" + std::to_string(i),
                   "the file requires " + m.extensionsRequired[i] +
                       ", which mshconv cannot decode (export without it, e.g. without "
                       "compression)");
    if (!m.cameras.empty())
        diagnostics.warn(r.where, Location::at_pointer("/cameras"),
                         std::to_string(m.cameras.size()) +
                             " camera(s) ignored (MSH models hold no cameras)");
}

// Materials with their base colour images (read from `folder` when external).
std::vector<scene::Material> read_materials(const Reader& r, DiagnosticSink& diagnostics,
                                            const ReadOptions& options,
                                            const std::filesystem::path& folder) {
    std::vector<scene::Material> out;
    for (const tinygltf::Material& mat : r.m.materials) {
        scene::Material sm;
        sm.name = mat.name;
        sm.extras = to_json(mat.extras);
        const std::vector<double>& f = mat.pbrMetallicRoughness.baseColorFactor;
        for (size_t k = 0; k < 4 && k < f.size(); ++k) sm.base_color_factor[k] = float(f[k]);
        if (options.images)
            sm.base_color = base_color_image(r.m, mat, r.where, folder, options.io, diagnostics);
        if (mat.alphaMode == "MASK") sm.alpha_mode = scene::AlphaMode::Mask;
        if (mat.alphaMode == "BLEND") sm.alpha_mode = scene::AlphaMode::Blend;
        sm.alpha_cutoff = float(mat.alphaCutoff);
        out.push_back(std::move(sm));
    }
    return out;
}

// Which meshes get their primitives decoded: every one, or those of the nodes the options name.
std::vector<bool> meshes_to_decode(const tinygltf::Model& m, const ReadOptions& options) {
    std::vector<bool> decode(m.meshes.size(), options.meshes_of_nodes.empty());
    for (const tinygltf::Node& n : m.nodes)
        if (n.mesh >= 0 && size_t(n.mesh) < decode.size() &&
            std::find(options.meshes_of_nodes.begin(), options.meshes_of_nodes.end(), n.name) !=
                options.meshes_of_nodes.end())
            decode[size_t(n.mesh)] = true;
    return decode;
}

// One primitive as a triangle list (or line pairs), checked; none for a mode the import skips.
std::optional<scene::Primitive> read_primitive(const Reader& r, const tinygltf::Mesh& mesh,
                                               const tinygltf::Primitive& p,
                                               const std::string& primitive,
                                               DiagnosticSink& diagnostics,
                                               const ReadOptions& options) {
    const tinygltf::Model& m = r.m;
    const bool lines = p.mode == TINYGLTF_MODE_LINE || p.mode == TINYGLTF_MODE_LINE_LOOP ||
                       p.mode == TINYGLTF_MODE_LINE_STRIP;
    const bool strip = p.mode == TINYGLTF_MODE_TRIANGLE_STRIP;
    const bool fan = p.mode == TINYGLTF_MODE_TRIANGLE_FAN;
    const bool triangles = p.mode == TINYGLTF_MODE_TRIANGLES || p.mode == -1;
    if (!triangles && !strip && !fan && !(lines && options.lines)) {
        diagnostics.warn(r.where, Location::at_pointer(primitive + "/mode"),
                         "mesh '" + mesh.name + "': a " +
                             (lines ? std::string("line") : std::string("point")) +
                             " primitive was skipped (MSH models hold triangles)");
        return std::nullopt;
    }
    scene::Primitive prim;
    if (lines) prim.mode = scene::Primitive::Mode::Lines;
    prim.material = p.material;
    for (const auto& [name, index] : p.attributes) {
        scene::Attribute a;
        a.data = r.floats(index, a.components);
        a.joints = name.rfind("JOINTS_", 0) == 0;
        prim.attributes[name] = std::move(a);
    }
    if (!prim.attributes.count("POSITION"))
        r.fail(primitive, "mesh '" + mesh.name + "' has a primitive without POSITION");
    if (p.indices >= 0) {
        prim.indices = r.indices(p.indices);
    } else {
        prim.indices.resize(prim.attributes["POSITION"].count());
        for (size_t i = 0; i < prim.indices.size(); ++i) prim.indices[i] = uint32_t(i);
    }
    if (lines && p.mode != TINYGLTF_MODE_LINE) {
        // LINE_STRIP / LINE_LOOP -> segment pairs, as Mode::Lines expects.
        std::vector<uint32_t> pairs;
        const std::vector<uint32_t>& v = prim.indices;
        for (size_t i = 0; i + 1 < v.size(); ++i) pairs.insert(pairs.end(), {v[i], v[i + 1]});
        if (p.mode == TINYGLTF_MODE_LINE_LOOP && v.size() > 2)
            pairs.insert(pairs.end(), {v.back(), v.front()});
        prim.indices = std::move(pairs);
    }
    if (strip || fan) prim.indices = triangle_list(prim.indices, strip);
    if (p.material >= 0 && size_t(p.material) < m.materials.size())
        bake_texture_transform(m.materials[size_t(p.material)], prim);
    if (!p.targets.empty())
        diagnostics.warn(r.where, Location::at_pointer(primitive + "/targets"),
                         "mesh '" + mesh.name + "': " + std::to_string(p.targets.size()) +
                             " morph target(s) ignored; the base shape is imported");
    if (lines && prim.indices.size() % 2)
        r.fail(primitive, "mesh '" + mesh.name + "': a LINES primitive with an odd index count");
    const size_t vcount = prim.attributes["POSITION"].count();
    for (uint32_t i : prim.indices)
        if (i >= vcount)
            r.fail(primitive, "mesh '" + mesh.name + "': index " + std::to_string(i) + " past " +
                                  std::to_string(vcount) + " vertices");
    return prim;
}

// Meshes: name and extras of each, the primitives of those `decode` marks.
std::vector<scene::Mesh> read_meshes(const Reader& r, const std::vector<bool>& decode,
                                     DiagnosticSink& diagnostics, const ReadOptions& options) {
    const tinygltf::Model& m = r.m;
    std::vector<scene::Mesh> out;
    for (const tinygltf::Mesh& mesh : m.meshes) {
        const size_t index = size_t(&mesh - m.meshes.data());
        scene::Mesh sm;
        sm.name = mesh.name;
        sm.extras = to_json(mesh.extras);
        if (decode[index])
            for (const tinygltf::Primitive& p : mesh.primitives) {
                const std::string primitive = "/meshes/" + std::to_string(index) + "/primitives/" +
                                              std::to_string(&p - mesh.primitives.data());
                if (auto prim = read_primitive(r, mesh, p, primitive, diagnostics, options))
                    sm.primitives.push_back(std::move(*prim));
            }
        out.push_back(std::move(sm));
    }
    return out;
}

// The node tree, and each node's scale and shear beyond its rotation (MSH nodes are rigid: baked
// once the animations are read).
struct Nodes {
    std::vector<scene::Node> nodes;
    std::vector<scene::Linear3> residual;
};

Nodes read_nodes(const Reader& r) {
    const tinygltf::Model& m = r.m;
    Nodes out{std::vector<scene::Node>(m.nodes.size()),
              std::vector<scene::Linear3>(m.nodes.size(), scene::kIdentity3)};
    for (size_t i = 0; i < m.nodes.size(); ++i) {
        const tinygltf::Node& n = m.nodes[i];
        scene::Node& sn = out.nodes[i];
        sn.name = n.name;
        sn.mesh = n.mesh;
        sn.skin = n.skin;
        sn.extras = to_json(n.extras);
        if (const auto v = n.extensions.find("KHR_node_visibility"); v != n.extensions.end())
            if (v->second.IsObject() && v->second.Has("visible") &&
                v->second.Get("visible").IsBool())
                sn.visible = v->second.Get("visible").Get<bool>();
        if (n.translation.size() == 3)
            sn.translation = {float(n.translation[0]), float(n.translation[1]),
                              float(n.translation[2])};
        if (n.rotation.size() == 4)
            sn.rotation = {float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]),
                           float(n.rotation[3])};
        if (n.scale.size() == 3) {
            out.residual[i] = {n.scale[0], 0, 0, 0, n.scale[1], 0, 0, 0, n.scale[2]};
        }
        if (n.matrix.size() == 16) {
            std::array<double, 16> mat;
            std::copy(n.matrix.begin(), n.matrix.end(), mat.begin());
            const scene::Decomposed d = scene::decompose_matrix(mat);
            sn.translation = d.translation;
            sn.rotation = d.rotation;
            out.residual[i] = d.residual;
        }
        for (int c : n.children) {
            if (c < 0 || size_t(c) >= m.nodes.size())
                r.fail("/nodes/" + std::to_string(i) + "/children",
                       "node '" + n.name + "' has a bad child index");
            out.nodes[size_t(c)].parent = int(i);
        }
    }
    return out;
}

std::vector<scene::Skin> read_skins(const Reader& r) {
    std::vector<scene::Skin> out;
    for (const tinygltf::Skin& sk : r.m.skins) {
        scene::Skin s;
        s.name = sk.name;
        s.joints = sk.joints;
        if (sk.inverseBindMatrices >= 0) {
            int comps = 0;
            s.inverse_bind = r.floats(sk.inverseBindMatrices, comps);
        }
        out.push_back(std::move(s));
    }
    return out;
}

// Translation and rotation channels; a constant scale is checked against the node's rest scale
// (`residual`), weights are dropped.
std::vector<scene::Animation> read_animations(const Reader& r,
                                              const std::vector<scene::Linear3>& residual,
                                              DiagnosticSink& diagnostics) {
    const tinygltf::Model& m = r.m;
    std::vector<scene::Animation> out;
    for (const tinygltf::Animation& an : m.animations) {
        scene::Animation sa;
        sa.name = an.name;
        sa.extras = to_json(an.extras);
        for (const tinygltf::AnimationChannel& ch : an.channels) {
            const std::string channel = "/animations/" + std::to_string(&an - m.animations.data()) +
                                        "/channels/" + std::to_string(&ch - an.channels.data());
            if (ch.sampler < 0 || size_t(ch.sampler) >= an.samplers.size())
                r.fail(channel + "/sampler", "animation '" + an.name + "': no such sampler");
            const tinygltf::AnimationSampler& smp = an.samplers[size_t(ch.sampler)];
            if (ch.target_path == "scale") {
                // Exporters sample a constant scale with every animated object: that one is the
                // rest scale, baked with the node. A changing scale cannot be carried.
                if (ch.target_node < 0) continue; // no node: nothing moves
                int comps = 0;
                const std::vector<float> v = r.floats(smp.output, comps);
                if (!scene::keeps_rest_scale(v, residual[size_t(ch.target_node)]))
                    diagnostics.warn(r.where, Location::at_pointer(channel),
                                     scene::animated_scale_warning(
                                         an.name, m.nodes[size_t(ch.target_node)].name));
                continue;
            }
            if (ch.target_path == "weights") {
                diagnostics.warn(r.where, Location::at_pointer(channel),
                                 "animation '" + an.name +
                                     "': morph target weights ignored (MSH keys have no weights)");
                continue;
            }
            if (smp.interpolation == "CUBICSPLINE")
                r.fail(channel, "animation '" + an.name +
                                    "': CUBICSPLINE samplers are not supported yet; export LINEAR");
            scene::Channel c;
            c.node = ch.target_node;
            c.path =
                ch.target_path == "rotation" ? scene::Path::Rotation : scene::Path::Translation;
            int comps = 0;
            c.times = r.floats(smp.input, comps);
            c.values = r.floats(smp.output, comps);
            c.step = smp.interpolation == "STEP";
            sa.channels.push_back(std::move(c));
        }
        out.push_back(std::move(sa));
    }
    return out;
}

// The identity keys of every element's extras into its typed identity (gltf_identity.hpp).
void take_identities(scene::Scene& s) {
    for (scene::Node& n : s.nodes) n.identity = take_node_identity(n.extras);
    for (scene::Mesh& mesh : s.meshes) mesh.identity = take_mesh_identity(mesh.extras);
    for (scene::Material& mat : s.materials) mat.identity = take_material_identity(mat.extras);
    s.identity = take_scene_identity(s.extras);
}

scene::Scene to_scene(const tinygltf::Model& m, const std::string& where,
                      DiagnosticSink& diagnostics, const ReadOptions& options,
                      const std::filesystem::path& folder) {
    const Reader r{m, where};
    check_document_needs(r, diagnostics);
    scene::Scene s;
    s.materials = read_materials(r, diagnostics, options, folder);
    s.meshes = read_meshes(r, meshes_to_decode(m, options), diagnostics, options);
    Nodes nodes = read_nodes(r);
    s.nodes = std::move(nodes.nodes);
    s.skins = read_skins(r);
    s.animations = read_animations(r, nodes.residual, diagnostics);
    scene::bake_residuals(s, nodes.residual, [&](int node, const std::string& text) {
        diagnostics.warn(where, Location::at_pointer("/nodes/" + std::to_string(node)), text);
    });
    if (m.scenes.size() > 1) keep_default_scene(s, m, where, diagnostics); // after: by node index
    if (!m.scenes.empty()) s.extras = to_json(m.scenes[size_t(std::max(0, m.defaultScene))].extras);
    take_identities(s);
    return s;
}

} // namespace

std::optional<std::string_view> json_text(ByteView bytes, bool binary) {
    if (!binary) return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    constexpr uint32_t kJsonChunk = 0x4E4F534A; // "JSON"
    if (bytes.size() < 20 || load<uint32_t>(bytes, 0) != 0x46546C67 ||
        load<uint32_t>(bytes, 16) != kJsonChunk)
        return std::nullopt;
    const uint32_t length = load<uint32_t>(bytes, 12);
    if (!in_range(20, length, bytes.size())) return std::nullopt;
    return std::string_view(reinterpret_cast<const char*>(bytes.data()) + 20, length);
}

} // namespace msh::gltf
