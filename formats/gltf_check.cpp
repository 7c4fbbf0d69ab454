#include "gltf_check.hpp"

#include "diagnostics.hpp"
#include "file_io.hpp"
#include "json_nesting.hpp"
#include "rapidjson.hpp"

#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace msh::gltf {

namespace {

using json = rapidjson::Value;

// RapidJSON spelled as the checks read: a member or null, a string's text.
const json* member(const json& o, const char* key) {
    if (!o.IsObject()) return nullptr;
    const auto it = o.FindMember(key);
    return it != o.MemberEnd() ? &it->value : nullptr;
}
// o[key] of an object known to hold it.
const json& at(const json& o, const char* key) {
    return *member(o, key);
}
const json kNull;
// o[key], or null when absent.
const json& value_or_null(const json& o, const char* key) {
    const json* v = member(o, key);
    return v ? *v : kNull;
}
std::string str(const json& v) {
    return std::string(v.GetString(), v.GetStringLength());
}

constexpr uint32_t kChunkJson = 0x4E4F534A; // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;  // "BIN\0"

uint32_t u32(ByteView b, size_t at) {
    uint32_t v = 0;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

struct Glb {
    ByteView json;
    std::optional<uint64_t> bin_size; // the first BIN chunk's length
};

// The GLB container (glTF 2.0 §4.4): every fault at its byte offset.
Glb check_container(ByteView b, const std::string& where) {
    auto fail = [&](uint64_t at, const std::string& what) { throw FormatError(where, at, what); };
    if (b.size() < 12) fail(0, "shorter than the 12-byte GLB header");
    if (std::memcmp(b.data(), "glTF", 4) != 0) fail(0, "bad magic (expected 'glTF')");
    if (u32(b, 4) != 2) fail(4, "GLB version " + std::to_string(u32(b, 4)) + " (2 expected)");
    if (u32(b, 8) != b.size())
        fail(8, "header length " + std::to_string(u32(b, 8)) + " differs from the file size " +
                    std::to_string(b.size()));
    if (b.size() < 20) fail(12, "no JSON chunk");
    const uint64_t json_length = u32(b, 12);
    if (20 + json_length > b.size())
        fail(12, "JSON chunk of " + std::to_string(json_length) + " bytes runs past the end");
    if (u32(b, 16) != kChunkJson) fail(16, "the first chunk is not JSON");
    Glb glb{b.subspan(20, size_t(json_length)), std::nullopt};
    for (uint64_t at = 20 + ((json_length + 3) & ~uint64_t(3)); at < b.size();) {
        if (at + 8 > b.size()) fail(at, "chunk header cut off");
        const uint64_t length = u32(b, size_t(at));
        if (at + 8 + length > b.size())
            fail(at, "chunk of " + std::to_string(length) + " bytes runs past the end");
        if (u32(b, size_t(at + 4)) == kChunkBin && !glb.bin_size) glb.bin_size = length;
        at += 8 + ((length + 3) & ~uint64_t(3)); // unknown chunk types are skipped (§4.4.3)
    }
    return glb;
}

class Checker {
  public:
    Checker(const json& doc, const std::string& where, const std::filesystem::path* folder,
            std::optional<uint64_t> bin_size, mshconv::Io* io)
        : doc_(doc), where_(where), folder_(folder), io_(io), bin_size_(bin_size) {}

    void run() {
        if (!doc_.IsObject()) fail("", "not a glTF document (expected a JSON object)");
        check_asset();
        for (const char* key :
             {"accessors", "animations", "buffers", "bufferViews", "cameras", "images", "materials",
              "meshes", "nodes", "samplers", "scenes", "skins", "textures"})
            sizes_.emplace(key, checked_array(key));
        if (const json* scene = member(doc_, "scene")) index(*scene, "/scene", "scenes");
        each("scenes",
             [&](const json& s, const std::string& p) { indices(s, p, "nodes", "nodes"); });
        each("nodes", [&](const json& n, const std::string& p) { check_node(n, p); });
        check_hierarchy();
        each("meshes", [&](const json& m, const std::string& p) { check_mesh(m, p); });
        each("accessors", [&](const json& a, const std::string& p) { check_accessor(a, p); });
        each("buffers", [&](const json& b, const std::string& p) { check_buffer(b, p); });
        each("bufferViews", [&](const json& v, const std::string& p) { check_view(v, p); });
        each("images", [&](const json& i, const std::string& p) { check_image(i, p); });
        each("textures", [&](const json& t, const std::string& p) {
            optional_index(t, p, "source", "images");
            optional_index(t, p, "sampler", "samplers");
        });
        each("skins", [&](const json& s, const std::string& p) {
            indices(s, p, "joints", "nodes");
            optional_index(s, p, "inverseBindMatrices", "accessors");
            optional_index(s, p, "skeleton", "nodes");
        });
        each("animations", [&](const json& a, const std::string& p) { check_animation(a, p); });
    }

  private:
    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
        throw FormatError(where_, Location::at_pointer(pointer), what);
    }

    // The length of top-level array `key` (0 when absent), checked once by run(): every index
    // into an array asks for it (scanning the array on each ask made the check quadratic: a
    // third of importing a 9,695-vertex model).
    size_t count(const char* key) const {
        const auto known = sizes_.find(key);
        return known != sizes_.end() ? known->second : checked_array(key);
    }
    // The same, checked: anything but an array of objects fails.
    size_t checked_array(const char* key) const {
        const json* a = member(doc_, key);
        if (!a) return 0;
        if (!a->IsArray()) fail(std::string("/") + key, "expected an array");
        for (rapidjson::SizeType i = 0; i < a->Size(); ++i)
            if (!(*a)[i].IsObject())
                fail(std::string("/") + key + "/" + std::to_string(i), "expected an object");
        return a->Size();
    }

    template <class F> void each(const char* key, F&& f) const {
        const json* a = member(doc_, key);
        if (!a) return;
        for (rapidjson::SizeType i = 0; i < a->Size(); ++i)
            f((*a)[i], std::string("/") + key + "/" + std::to_string(i));
    }

    // A JSON integer >= 0 (written without fraction or exponent, as glTF's integers are).
    uint64_t uint(const json& v, const std::string& pointer) const {
        if (!v.IsUint64()) fail(pointer, "expected a non-negative integer");
        return v.GetUint64();
    }

    // Member `key` of the object at `pointer` as a string (`fallback` when absent).
    std::string text(const json& o, const std::string& pointer, const char* key,
                     const char* fallback) const {
        if (!o.IsObject()) fail(pointer, "expected an object");
        const json* v = member(o, key);
        if (!v) return fallback;
        if (!v->IsString()) fail(pointer + "/" + key, "expected a string");
        return str(*v);
    }

    uint64_t index(const json& v, const std::string& pointer, const char* target) const {
        const uint64_t i = uint(v, pointer);
        const size_t n = count(target);
        if (i >= n)
            fail(pointer, "names " + std::string(target) + " " + std::to_string(i) + " of " +
                              std::to_string(n));
        return i;
    }

    void optional_index(const json& o, const std::string& p, const char* key,
                        const char* target) const {
        if (const json* v = member(o, key)) index(*v, p + "/" + key, target);
    }

    void indices(const json& o, const std::string& p, const char* key, const char* target) const {
        const json* a = member(o, key);
        if (!a) return;
        if (!a->IsArray()) fail(p + "/" + key, "expected an array");
        for (rapidjson::SizeType i = 0; i < a->Size(); ++i)
            index((*a)[i], p + "/" + key + "/" + std::to_string(i), target);
    }

    void numbers(const json& o, const std::string& p, const char* key, size_t n) const {
        const json* a = member(o, key);
        if (!a) return;
        if (!a->IsArray() || a->Size() != n)
            fail(p + "/" + key, "expected " + std::to_string(n) + " numbers");
        for (rapidjson::SizeType i = 0; i < n; ++i)
            if (!(*a)[i].IsNumber())
                fail(p + "/" + key + "/" + std::to_string(i), "expected a number");
    }

    void check_asset() const {
        const json* a = member(doc_, "asset");
        if (!a || !a->IsObject())
            fail("/asset", "missing (every glTF document has an asset object)");
        const json* version = member(*a, "version");
        if (!version || !version->IsString()) fail("/asset/version", "missing or not a string");
        const std::string v = str(*version);
        if (v.rfind("2.", 0) != 0)
            fail("/asset/version", "glTF " + v + " is not supported (glTF 2.0 only)");
        const json* min_version = member(*a, "minVersion");
        if (min_version && !(min_version->IsString() && str(*min_version) == "2.0"))
            fail("/asset/minVersion", "needs a reader newer than glTF 2.0");
    }

    void check_node(const json& n, const std::string& p) const {
        indices(n, p, "children", "nodes");
        optional_index(n, p, "mesh", "meshes");
        optional_index(n, p, "skin", "skins");
        optional_index(n, p, "camera", "cameras");
        numbers(n, p, "matrix", 16);
        numbers(n, p, "translation", 3);
        numbers(n, p, "rotation", 4);
        numbers(n, p, "scale", 3);
    }

    // One parent per node, no cycles (glTF 2.0 §3.5.1: the nodes form disjoint strict trees).
    void check_hierarchy() const {
        const size_t n = count("nodes");
        std::vector<int64_t> parent(n, -1);
        each("nodes", [&](const json& node, const std::string& p) {
            const json* children = member(node, "children");
            if (!children) return;
            const size_t self = std::stoul(p.substr(7));
            for (rapidjson::SizeType k = 0; k < children->Size(); ++k) {
                const size_t c = size_t((*children)[k].GetUint64()); // checked by check_node
                const std::string pointer = p + "/children/" + std::to_string(k);
                if (c == self) fail(pointer, "node " + std::to_string(c) + " is its own child");
                if (parent[c] >= 0)
                    fail(pointer, "node " + std::to_string(c) + " already has parent " +
                                      std::to_string(parent[c]));
                parent[c] = int64_t(self);
            }
        });
        for (size_t i = 0; i < n; ++i) {
            size_t steps = 0;
            for (int64_t up = parent[i]; up >= 0; up = parent[size_t(up)])
                if (++steps > n)
                    fail("/nodes/" + std::to_string(i), "the node's parents form a cycle");
        }
    }

    void check_mesh(const json& m, const std::string& p) const {
        const json* prims = member(m, "primitives");
        if (!prims || !prims->IsArray() || prims->Empty())
            fail(p + "/primitives", "expected a non-empty array");
        for (rapidjson::SizeType i = 0; i < prims->Size(); ++i) {
            const std::string pp = p + "/primitives/" + std::to_string(i);
            const json& prim = (*prims)[i];
            if (!prim.IsObject()) fail(pp, "expected an object");
            const json* attributes = member(prim, "attributes");
            if (!attributes || !attributes->IsObject())
                fail(pp + "/attributes", "expected an object");
            for (const auto& attribute : attributes->GetObject()) {
                const std::string name = str(attribute.name);
                const uint64_t a = index(attribute.value, pp + "/attributes/" + name, "accessors");
                if (name == "POSITION" &&
                    text(at(doc_, "accessors")[rapidjson::SizeType(a)],
                         "/accessors/" + std::to_string(a), "type", "") != "VEC3")
                    fail(pp + "/attributes/POSITION",
                         "POSITION accessor " + std::to_string(a) + " is not VEC3");
            }
            optional_index(prim, pp, "indices", "accessors");
            optional_index(prim, pp, "material", "materials");
            if (const json* mode = member(prim, "mode"); mode && uint(*mode, pp + "/mode") > 6)
                fail(pp + "/mode", "not a primitive mode 0..6");
            if (const json* targets = member(prim, "targets")) {
                if (!targets->IsArray()) fail(pp + "/targets", "expected an array");
                for (rapidjson::SizeType t = 0; t < targets->Size(); ++t) {
                    const std::string tp = pp + "/targets/" + std::to_string(t);
                    const json& target = (*targets)[t];
                    if (!target.IsObject()) fail(tp, "expected an object");
                    for (const auto& attribute : target.GetObject())
                        index(attribute.value, tp + "/" + str(attribute.name), "accessors");
                }
            }
        }
    }

    void check_accessor(const json& a, const std::string& p) const {
        optional_index(a, p, "bufferView", "bufferViews");
        const json* component = member(a, "componentType");
        static const std::set<uint64_t> components = {5120, 5121, 5122, 5123, 5125, 5126};
        if (!component || !components.count(uint(*component, p + "/componentType")))
            fail(p + "/componentType", "not a glTF component type (5120-5123, 5125, 5126)");
        static const std::set<std::string, std::less<>> types = {"SCALAR", "VEC2", "VEC3", "VEC4",
                                                                 "MAT2",   "MAT3", "MAT4"};
        const json* type = member(a, "type");
        if (!type || !type->IsString() ||
            !types.count(std::string_view(type->GetString(), type->GetStringLength())))
            fail(p + "/type", "not a glTF accessor type (SCALAR, VEC2..4, MAT2..4)");
        const json* n = member(a, "count");
        if (!n || uint(*n, p + "/count") == 0) fail(p + "/count", "expected a count of at least 1");
        if (const json* offset = member(a, "byteOffset")) uint(*offset, p + "/byteOffset");
        if (const json* s = member(a, "sparse")) {
            if (!s->IsObject()) fail(p + "/sparse", "expected an object");
            for (const char* part : {"indices", "values"}) {
                const json* half = member(*s, part);
                if (!half || !half->IsObject()) fail(p + "/sparse/" + part, "expected an object");
                const json* view = member(*half, "bufferView");
                if (!view) fail(p + "/sparse/" + part + "/bufferView", "missing");
                index(*view, p + "/sparse/" + part + "/bufferView", "bufferViews");
            }
        }
    }

    // The byte length a buffer can back: its data: URI, its file or the GLB's BIN chunk.
    void check_buffer(const json& b, const std::string& p) const {
        const json* byte_length = member(b, "byteLength");
        if (!byte_length || uint(*byte_length, p + "/byteLength") == 0)
            fail(p + "/byteLength", "expected a length of at least 1");
        const uint64_t length = byte_length->GetUint64();
        const json* uri_value = member(b, "uri");
        if (!uri_value) {
            if (p != "/buffers/0" || !bin_size_)
                fail(p, "no uri and no GLB BIN chunk to hold the buffer");
            if (*bin_size_ < length)
                fail(p + "/byteLength", std::to_string(length) +
                                            " bytes, but the BIN chunk holds " +
                                            std::to_string(*bin_size_));
            return;
        }
        if (!uri_value->IsString()) fail(p + "/uri", "expected a string");
        const std::string uri = str(*uri_value);
        uint64_t held = 0;
        if (uri.rfind("data:", 0) == 0) {
            held = data_uri_size(uri, p + "/uri");
            if (held > length + 3) // bounded by the declared length (3: base64 padding)
                fail(p + "/uri", "data: URI holds " + std::to_string(held) +
                                     " bytes, more than the byteLength " + std::to_string(length));
        } else {
            const std::filesystem::path file = local_file(uri, p + "/uri");
            if (on_disk(io_)) {
                std::error_code ec;
                held = uint64_t(std::filesystem::file_size(file, ec));
                if (ec) fail(p + "/uri", "'" + uri + "' cannot be read: " + ec.message());
            } else {
                try {
                    held = io_->read(file).bytes.size();
                } catch (const std::exception& e) {
                    fail(p + "/uri", "'" + uri + "' cannot be read: " + e.what());
                }
            }
        }
        if (held < length)
            fail(p + "/byteLength", std::to_string(length) + " bytes, but '" +
                                        (uri.size() > 40 ? uri.substr(0, 40) + "..." : uri) +
                                        "' holds " + std::to_string(held));
    }

    // Bytes a base64 data: URI decodes to; fails on another encoding or a bad character.
    uint64_t data_uri_size(const std::string& uri, const std::string& p) const {
        const size_t comma = uri.find(',');
        if (comma == std::string::npos || uri.rfind(";base64", comma) == std::string::npos)
            fail(p, "a data: URI that is not base64");
        size_t n = 0, pad = 0;
        for (size_t i = comma + 1; i < uri.size(); ++i) {
            const uint8_t c = uint8_t(uri[i]);
            if (c == '=') {
                ++pad;
                continue;
            }
            if (pad || !(std::isalnum(c) || c == '+' || c == '/'))
                fail(p, "data: URI: bad base64 character at " + std::to_string(i));
            ++n;
        }
        if ((n + pad) % 4 != 0 || pad > 2)
            fail(p, "data: URI: base64 length is not a multiple of 4");
        return uint64_t(n) * 3 / 4;
    }

    // An external URI resolved inside the document's folder.
    std::filesystem::path local_file(const std::string& uri, const std::string& p) const {
        if (!folder_) fail(p, "'" + uri + "': a document read from memory holds only data: URIs");
        try {
            return confined_path(io_, *folder_, decode_uri(uri));
        } catch (const std::exception& e) {
            fail(p, e.what());
        }
    }

    void check_view(const json& v, const std::string& p) const {
        const uint64_t buffer = index(value_or_null(v, "buffer"), p + "/buffer", "buffers");
        const json* byte_length = member(v, "byteLength");
        if (!byte_length || uint(*byte_length, p + "/byteLength") == 0)
            fail(p + "/byteLength", "expected a length of at least 1");
        const json* byte_offset = member(v, "byteOffset");
        const uint64_t offset = byte_offset ? uint(*byte_offset, p + "/byteOffset") : 0;
        const uint64_t end = offset + byte_length->GetUint64();
        // Checked by check_buffer, which runs first.
        const uint64_t size =
            at(at(doc_, "buffers")[rapidjson::SizeType(buffer)], "byteLength").GetUint64();
        if (end > size)
            fail(p, "bytes " + std::to_string(offset) + ".." + std::to_string(end) +
                        " run past buffer " + std::to_string(buffer) + " of " +
                        std::to_string(size) + " bytes");
        if (const json* stride = member(v, "byteStride")) {
            const uint64_t s = uint(*stride, p + "/byteStride");
            if (s < 4 || s > 252 || s % 4 != 0)
                fail(p + "/byteStride", "must be a multiple of 4 in 4..252");
        }
    }

    void check_image(const json& i, const std::string& p) const {
        optional_index(i, p, "bufferView", "bufferViews");
        const json* uri_value = member(i, "uri");
        if (!uri_value) return;
        if (!uri_value->IsString()) fail(p + "/uri", "expected a string");
        const std::string uri = str(*uri_value);
        if (uri.rfind("data:", 0) != 0) local_file(uri, p + "/uri"); // confined; may be missing
    }

    void check_animation(const json& a, const std::string& p) const {
        const json* samplers = member(a, "samplers");
        if (!samplers || !samplers->IsArray()) fail(p + "/samplers", "expected an array");
        const json* channels = member(a, "channels");
        if (!channels || !channels->IsArray()) fail(p + "/channels", "expected an array");
        for (rapidjson::SizeType s = 0; s < samplers->Size(); ++s) {
            const std::string sp = p + "/samplers/" + std::to_string(s);
            const json& sampler = (*samplers)[s];
            if (!sampler.IsObject()) fail(sp, "expected an object");
            index(value_or_null(sampler, "input"), sp + "/input", "accessors");
            index(value_or_null(sampler, "output"), sp + "/output", "accessors");
            const std::string interpolation = text(sampler, sp, "interpolation", "LINEAR");
            if (interpolation != "LINEAR" && interpolation != "STEP" &&
                interpolation != "CUBICSPLINE")
                fail(sp + "/interpolation", "not LINEAR, STEP or CUBICSPLINE");
        }
        for (rapidjson::SizeType c = 0; c < channels->Size(); ++c) {
            const std::string cp = p + "/channels/" + std::to_string(c);
            const json& ch = (*channels)[c];
            if (!ch.IsObject()) fail(cp, "expected an object");
            const uint64_t s = uint(value_or_null(ch, "sampler"), cp + "/sampler");
            if (s >= samplers->Size())
                fail(cp + "/sampler", "names sampler " + std::to_string(s) + " of " +
                                          std::to_string(samplers->Size()));
            const json* target = member(ch, "target");
            if (!target || !target->IsObject()) fail(cp + "/target", "expected an object");
            optional_index(*target, cp + "/target", "node", "nodes");
            const std::string path = text(*target, cp + "/target", "path", "");
            if (path != "translation" && path != "rotation" && path != "scale" && path != "weights")
                fail(cp + "/target/path", "not translation, rotation, scale or weights");
        }
    }

    const json& doc_;
    std::map<std::string, size_t, std::less<>> sizes_; // top-level arrays, checked
    const std::string& where_;
    const std::filesystem::path* folder_;
    mshconv::Io* io_ = nullptr;
    std::optional<uint64_t> bin_size_;
};

} // namespace

std::string decode_uri(const std::string& uri) {
    std::string out;
    for (size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(uint8_t(uri[i + 1])) &&
            std::isxdigit(uint8_t(uri[i + 2]))) {
            out += char(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += uri[i];
        }
    }
    return out;
}

ByteView skip_utf8_bom(ByteView text) {
    return text.size() >= 3 && std::memcmp(text.data(), "\xEF\xBB\xBF", 3) == 0 ? text.subspan(3)
                                                                                : text;
}

void check_document(ByteView bytes, const std::string& where, const std::filesystem::path* folder,
                    mshconv::Io* io) {
    const bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    const Glb glb =
        binary ? check_container(bytes, where) : Glb{skip_utf8_bom(bytes), std::nullopt};
    const uint64_t json_at = binary ? 20 : bytes.size() - glb.json.size(); // the text's offset
    check_json_nesting(glb.json, where);
    rapidjson::Document doc; // parsed as tinygltf parses it (formats/rapidjson.hpp)
    doc.Parse(reinterpret_cast<const char*>(glb.json.data()), glb.json.size());
    if (doc.HasParseError())
        throw FormatError(where, json_at + doc.GetErrorOffset(),
                          std::string("not JSON: ") +
                              rapidjson::GetParseError_En(doc.GetParseError()));
    Checker(doc, where, folder, glb.bin_size, io).run();
}

} // namespace msh::gltf
