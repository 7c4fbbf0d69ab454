#include "gltf_check.hpp"

#include "diagnostics.hpp"
#include "file_io.hpp"
#include "json_nesting.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <set>

namespace msh::gltf {

namespace {

using nlohmann::json;

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
            std::optional<uint64_t> bin_size)
        : doc_(doc), where_(where), folder_(folder), bin_size_(bin_size) {}

    void run() {
        if (!doc_.is_object()) fail("", "not a glTF document (expected a JSON object)");
        check_asset();
        for (const char* key :
             {"accessors", "animations", "buffers", "bufferViews", "cameras", "images", "materials",
              "meshes", "nodes", "samplers", "scenes", "skins", "textures"})
            sizes_.emplace(key, checked_array(key));
        if (doc_.contains("scene")) index(doc_["scene"], "/scene", "scenes");
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
        if (!doc_.contains(key)) return 0;
        const json& a = doc_[key];
        if (!a.is_array()) fail(std::string("/") + key, "expected an array");
        for (size_t i = 0; i < a.size(); ++i)
            if (!a[i].is_object())
                fail(std::string("/") + key + "/" + std::to_string(i), "expected an object");
        return a.size();
    }

    template <class F> void each(const char* key, F&& f) const {
        if (!doc_.contains(key)) return;
        const json& a = doc_[key];
        for (size_t i = 0; i < a.size(); ++i)
            f(a[i], std::string("/") + key + "/" + std::to_string(i));
    }

    uint64_t uint(const json& v, const std::string& pointer) const {
        if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
            fail(pointer, "expected a non-negative integer");
        return v.get<uint64_t>();
    }

    // Member `key` of the object at `pointer` as a string (`fallback` when absent).
    std::string text(const json& o, const std::string& pointer, const char* key,
                     const char* fallback) const {
        if (!o.is_object()) fail(pointer, "expected an object");
        if (!o.contains(key)) return fallback;
        if (!o[key].is_string()) fail(pointer + "/" + key, "expected a string");
        return o[key].get<std::string>();
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
        if (o.contains(key)) index(o[key], p + "/" + key, target);
    }

    void indices(const json& o, const std::string& p, const char* key, const char* target) const {
        if (!o.contains(key)) return;
        const json& a = o[key];
        if (!a.is_array()) fail(p + "/" + key, "expected an array");
        for (size_t i = 0; i < a.size(); ++i)
            index(a[i], p + "/" + key + "/" + std::to_string(i), target);
    }

    void numbers(const json& o, const std::string& p, const char* key, size_t n) const {
        if (!o.contains(key)) return;
        const json& a = o[key];
        if (!a.is_array() || a.size() != n)
            fail(p + "/" + key, "expected " + std::to_string(n) + " numbers");
        for (size_t i = 0; i < n; ++i)
            if (!a[i].is_number())
                fail(p + "/" + key + "/" + std::to_string(i), "expected a number");
    }

    void check_asset() const {
        if (!doc_.contains("asset") || !doc_["asset"].is_object())
            fail("/asset", "missing (every glTF document has an asset object)");
        const json& a = doc_["asset"];
        if (!a.contains("version") || !a["version"].is_string())
            fail("/asset/version", "missing or not a string");
        const std::string v = a["version"].get<std::string>();
        if (v.rfind("2.", 0) != 0)
            fail("/asset/version", "glTF " + v + " is not supported (glTF 2.0 only)");
        if (a.contains("minVersion") && a["minVersion"] != "2.0")
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
            if (!node.contains("children")) return;
            const size_t self = std::stoul(p.substr(7));
            for (size_t k = 0; k < node["children"].size(); ++k) {
                const size_t c = node["children"][k].get<size_t>();
                const std::string at = p + "/children/" + std::to_string(k);
                if (c == self) fail(at, "node " + std::to_string(c) + " is its own child");
                if (parent[c] >= 0)
                    fail(at, "node " + std::to_string(c) + " already has parent " +
                                 std::to_string(parent[c]));
                parent[c] = int64_t(self);
            }
        });
        for (size_t i = 0; i < n; ++i) {
            size_t steps = 0;
            for (int64_t at = parent[i]; at >= 0; at = parent[size_t(at)])
                if (++steps > n)
                    fail("/nodes/" + std::to_string(i), "the node's parents form a cycle");
        }
    }

    void check_mesh(const json& m, const std::string& p) const {
        if (!m.contains("primitives") || !m["primitives"].is_array() || m["primitives"].empty())
            fail(p + "/primitives", "expected a non-empty array");
        const json& prims = m["primitives"];
        for (size_t i = 0; i < prims.size(); ++i) {
            const std::string pp = p + "/primitives/" + std::to_string(i);
            const json& prim = prims[i];
            if (!prim.is_object()) fail(pp, "expected an object");
            if (!prim.contains("attributes") || !prim["attributes"].is_object())
                fail(pp + "/attributes", "expected an object");
            for (const auto& [name, v] : prim["attributes"].items()) {
                const uint64_t a = index(v, pp + "/attributes/" + name, "accessors");
                if (name == "POSITION" &&
                    text(doc_["accessors"][a], "/accessors/" + std::to_string(a), "type", "") !=
                        "VEC3")
                    fail(pp + "/attributes/POSITION",
                         "POSITION accessor " + std::to_string(a) + " is not VEC3");
            }
            optional_index(prim, pp, "indices", "accessors");
            optional_index(prim, pp, "material", "materials");
            if (prim.contains("mode") && uint(prim["mode"], pp + "/mode") > 6)
                fail(pp + "/mode", "not a primitive mode 0..6");
            if (prim.contains("targets")) {
                if (!prim["targets"].is_array()) fail(pp + "/targets", "expected an array");
                for (size_t t = 0; t < prim["targets"].size(); ++t) {
                    const std::string tp = pp + "/targets/" + std::to_string(t);
                    if (!prim["targets"][t].is_object()) fail(tp, "expected an object");
                    for (const auto& [name, v] : prim["targets"][t].items())
                        index(v, tp + "/" + name, "accessors");
                }
            }
        }
    }

    void check_accessor(const json& a, const std::string& p) const {
        optional_index(a, p, "bufferView", "bufferViews");
        static const std::set<uint64_t> components = {5120, 5121, 5122, 5123, 5125, 5126};
        if (!a.contains("componentType") ||
            !components.count(uint(a["componentType"], p + "/componentType")))
            fail(p + "/componentType", "not a glTF component type (5120-5123, 5125, 5126)");
        static const std::set<std::string> types = {"SCALAR", "VEC2", "VEC3", "VEC4",
                                                    "MAT2",   "MAT3", "MAT4"};
        if (!a.contains("type") || !a["type"].is_string() ||
            !types.count(a["type"].get<std::string>()))
            fail(p + "/type", "not a glTF accessor type (SCALAR, VEC2..4, MAT2..4)");
        if (!a.contains("count") || uint(a["count"], p + "/count") == 0)
            fail(p + "/count", "expected a count of at least 1");
        if (a.contains("byteOffset")) uint(a["byteOffset"], p + "/byteOffset");
        if (a.contains("sparse")) {
            const json& s = a["sparse"];
            if (!s.is_object()) fail(p + "/sparse", "expected an object");
            for (const char* part : {"indices", "values"}) {
                if (!s.contains(part) || !s[part].is_object())
                    fail(p + "/sparse/" + part, "expected an object");
                if (!s[part].contains("bufferView"))
                    fail(p + "/sparse/" + part + "/bufferView", "missing");
                index(s[part]["bufferView"], p + "/sparse/" + part + "/bufferView", "bufferViews");
            }
        }
    }

    // The byte length a buffer can back: its data: URI, its file or the GLB's BIN chunk.
    void check_buffer(const json& b, const std::string& p) const {
        if (!b.contains("byteLength") || uint(b["byteLength"], p + "/byteLength") == 0)
            fail(p + "/byteLength", "expected a length of at least 1");
        const uint64_t length = b["byteLength"].get<uint64_t>();
        if (!b.contains("uri")) {
            if (p != "/buffers/0" || !bin_size_)
                fail(p, "no uri and no GLB BIN chunk to hold the buffer");
            if (*bin_size_ < length)
                fail(p + "/byteLength", std::to_string(length) +
                                            " bytes, but the BIN chunk holds " +
                                            std::to_string(*bin_size_));
            return;
        }
        if (!b["uri"].is_string()) fail(p + "/uri", "expected a string");
        const std::string uri = b["uri"].get<std::string>();
        uint64_t held = 0;
        if (uri.rfind("data:", 0) == 0) {
            held = data_uri_size(uri, p + "/uri");
            if (held > length + 3) // bounded by the declared length (3: base64 padding)
                fail(p + "/uri", "data: URI holds " + std::to_string(held) +
                                     " bytes, more than the byteLength " + std::to_string(length));
        } else {
            std::error_code ec;
            held = uint64_t(std::filesystem::file_size(local_file(uri, p + "/uri"), ec));
            if (ec) fail(p + "/uri", "'" + uri + "' cannot be read: " + ec.message());
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
            return confined_path(*folder_, decode_uri(uri));
        } catch (const std::exception& e) {
            fail(p, e.what());
        }
    }

    void check_view(const json& v, const std::string& p) const {
        const uint64_t buffer = index(v.value("buffer", json()), p + "/buffer", "buffers");
        if (!v.contains("byteLength") || uint(v["byteLength"], p + "/byteLength") == 0)
            fail(p + "/byteLength", "expected a length of at least 1");
        const uint64_t offset =
            v.contains("byteOffset") ? uint(v["byteOffset"], p + "/byteOffset") : 0;
        const uint64_t end = offset + v["byteLength"].get<uint64_t>();
        const uint64_t size = doc_["buffers"][buffer]["byteLength"].get<uint64_t>();
        if (end > size)
            fail(p, "bytes " + std::to_string(offset) + ".." + std::to_string(end) +
                        " run past buffer " + std::to_string(buffer) + " of " +
                        std::to_string(size) + " bytes");
        if (v.contains("byteStride")) {
            const uint64_t s = uint(v["byteStride"], p + "/byteStride");
            if (s < 4 || s > 252 || s % 4 != 0)
                fail(p + "/byteStride", "must be a multiple of 4 in 4..252");
        }
    }

    void check_image(const json& i, const std::string& p) const {
        optional_index(i, p, "bufferView", "bufferViews");
        if (!i.contains("uri")) return;
        if (!i["uri"].is_string()) fail(p + "/uri", "expected a string");
        const std::string uri = i["uri"].get<std::string>();
        if (uri.rfind("data:", 0) != 0) local_file(uri, p + "/uri"); // confined; may be missing
    }

    void check_animation(const json& a, const std::string& p) const {
        if (!a.contains("samplers") || !a["samplers"].is_array())
            fail(p + "/samplers", "expected an array");
        if (!a.contains("channels") || !a["channels"].is_array())
            fail(p + "/channels", "expected an array");
        const json& samplers = a["samplers"];
        for (size_t s = 0; s < samplers.size(); ++s) {
            const std::string sp = p + "/samplers/" + std::to_string(s);
            if (!samplers[s].is_object()) fail(sp, "expected an object");
            index(samplers[s].value("input", json()), sp + "/input", "accessors");
            index(samplers[s].value("output", json()), sp + "/output", "accessors");
            const std::string interpolation = text(samplers[s], sp, "interpolation", "LINEAR");
            if (interpolation != "LINEAR" && interpolation != "STEP" &&
                interpolation != "CUBICSPLINE")
                fail(sp + "/interpolation", "not LINEAR, STEP or CUBICSPLINE");
        }
        const json& channels = a["channels"];
        for (size_t c = 0; c < channels.size(); ++c) {
            const std::string cp = p + "/channels/" + std::to_string(c);
            const json& ch = channels[c];
            if (!ch.is_object()) fail(cp, "expected an object");
            const uint64_t s = uint(ch.value("sampler", json()), cp + "/sampler");
            if (s >= samplers.size())
                fail(cp + "/sampler", "names sampler " + std::to_string(s) + " of " +
                                          std::to_string(samplers.size()));
            if (!ch.contains("target") || !ch["target"].is_object())
                fail(cp + "/target", "expected an object");
            optional_index(ch["target"], cp + "/target", "node", "nodes");
            const std::string path = text(ch["target"], cp + "/target", "path", "");
            if (path != "translation" && path != "rotation" && path != "scale" && path != "weights")
                fail(cp + "/target/path", "not translation, rotation, scale or weights");
        }
    }

    const json& doc_;
    std::map<std::string, size_t, std::less<>> sizes_; // top-level arrays, checked
    const std::string& where_;
    const std::filesystem::path* folder_;
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

void check_document(ByteView bytes, const std::string& where, const std::filesystem::path* folder) {
    const bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    Glb glb{bytes, std::nullopt};
    if (binary) glb = check_container(bytes, where);
    check_json_nesting(glb.json, where);
    json doc;
    try {
        doc = json::parse(glb.json.begin(), glb.json.end());
    } catch (const json::parse_error& e) {
        const uint64_t at = (binary ? 20 : 0) + (e.byte > 0 ? e.byte - 1 : 0);
        throw FormatError(where, at, std::string("not JSON: ") + e.what());
    } catch (const json::exception& e) { // a number past the double range: no byte position
        const uint64_t at = (binary ? 20 : 0) + refused_token_offset(glb.json, e.what());
        throw FormatError(where, at, std::string("not JSON: ") + e.what());
    }
    Checker(doc, where, folder, glb.bin_size).run();
}

} // namespace msh::gltf
