// read_written_vertices (gltf.hpp): the vertices of a GLB in the shape gltf::encode writes, read
// straight from its JSON chunk and BIN. Whatever is not in that shape declines (the caller reads
// the file in full); every index and offset is checked before it is used.
#include "gltf.hpp"
#include "json_in_place.hpp"

#include <cmath>
#include <cstring>

namespace msh::gltf {

namespace {

using Value = rapidjson::Value;

constexpr uint32_t kChunkJson = 0x4E4F534A; // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;  // "BIN\0"
constexpr int kFloat = 5126;

uint32_t u32(ByteView b, size_t at) {
    uint32_t v = 0;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

const Value* member(const Value& o, const char* key) {
    if (!o.IsObject()) return nullptr;
    const auto it = o.FindMember(key);
    return it != o.MemberEnd() ? &it->value : nullptr;
}

// o[key] as an unsigned integer: `fallback` when absent, nullopt when not one.
std::optional<uint64_t> unsigned_member(const Value& o, const char* key,
                                        std::optional<uint64_t> fallback = std::nullopt) {
    const Value* v = member(o, key);
    if (!v) return fallback;
    if (!v->IsUint64()) return std::nullopt;
    return v->GetUint64();
}

// o[key] as the array of `array`: an element of it, or null.
const Value* element_of(const Value& o, const char* key, const Value& array) {
    const std::optional<uint64_t> i = unsigned_member(o, key);
    if (!i || !array.IsArray() || *i >= array.Size()) return nullptr;
    return &array[rapidjson::SizeType(*i)];
}

struct Document {
    const Value& accessors;
    const Value& views;
    ByteView bin;

    // The floats of accessor `index`, `components` per element, tightly packed or strided in the
    // BIN: false for anything else (another component type, sparse, normalized, out of bounds,
    // NaN or infinity, which the full read refuses by name).
    bool floats(const Value& index, int components, scene::Attribute& out) const {
        if (!index.IsUint64() || !accessors.IsArray() || index.GetUint64() >= accessors.Size())
            return false;
        const Value& a = accessors[rapidjson::SizeType(index.GetUint64())];
        const Value* type = member(a, "type");
        const char* expected = components == 3 ? "VEC3" : "VEC2";
        if (member(a, "sparse") || !type || !type->IsString() ||
            std::strcmp(type->GetString(), expected) != 0 ||
            unsigned_member(a, "componentType") != uint64_t(kFloat))
            return false;
        if (const Value* n = member(a, "normalized"); n && !n->IsFalse()) return false;
        const Value* view = element_of(a, "bufferView", views);
        const std::optional<uint64_t> count = unsigned_member(a, "count");
        const std::optional<uint64_t> offset = unsigned_member(a, "byteOffset", 0);
        if (!view || !count || !offset || unsigned_member(*view, "buffer") != uint64_t(0))
            return false;
        const std::optional<uint64_t> view_offset = unsigned_member(*view, "byteOffset", 0);
        const std::optional<uint64_t> view_length = unsigned_member(*view, "byteLength");
        const uint64_t elem = 4 * uint64_t(components);
        const std::optional<uint64_t> stride = unsigned_member(*view, "byteStride", elem);
        if (!view_offset || !view_length || !stride || *stride < elem ||
            *view_offset > bin.size() || *view_length > bin.size() - *view_offset)
            return false;
        // `count` elements at the stride from the accessor's offset, inside the view.
        if (*count > 0 && (*offset > *view_length || *view_length - *offset < elem ||
                           (*count - 1) > (*view_length - *offset - elem) / *stride))
            return false;
        const uint8_t* p = bin.data() + *view_offset + *offset;
        out.components = components;
        out.data.resize(size_t(*count) * size_t(components));
        if (*stride == elem)
            std::memcpy(out.data.data(), p, out.data.size() * 4);
        else
            for (size_t i = 0; i < *count; ++i)
                std::memcpy(&out.data[i * size_t(components)], p + i * *stride, elem);
        for (const float f : out.data)
            if (!std::isfinite(f)) return false;
        return true;
    }
};

} // namespace

std::optional<scene::Scene> read_written_vertices(ByteView b) {
    // The GLB container: header, JSON chunk, BIN chunk.
    if (b.size() < 20 || std::memcmp(b.data(), "glTF", 4) != 0 || u32(b, 4) != 2 ||
        u32(b, 8) != b.size() || u32(b, 16) != kChunkJson || u32(b, 12) > b.size() - 20)
        return std::nullopt;
    const size_t json_size = u32(b, 12);
    const size_t bin_at = 20 + json_size;
    if (b.size() - bin_at < 8 || u32(b, bin_at + 4) != kChunkBin ||
        u32(b, bin_at) > b.size() - bin_at - 8)
        return std::nullopt;
    std::string text;
    rapidjson::Document doc;
    // Only integers are read (indices, counts, offsets): decimals need not be exact.
    if (!parse_in_place(ByteView(b.data() + 20, json_size), text, doc, Precision::Integers) ||
        !doc.IsObject())
        return std::nullopt;
    // One buffer, the BIN chunk (no URI), which holds all of it.
    const Value* buffers = member(doc, "buffers");
    if (!buffers || !buffers->IsArray() || buffers->Size() != 1 || member((*buffers)[0], "uri"))
        return std::nullopt;
    const std::optional<uint64_t> buffer_length = unsigned_member((*buffers)[0], "byteLength");
    if (!buffer_length || *buffer_length > u32(b, bin_at)) return std::nullopt;
    const Value* nodes = member(doc, "nodes");
    const Value* meshes = member(doc, "meshes");
    const Value* accessors = member(doc, "accessors");
    const Value* views = member(doc, "bufferViews");
    if (!nodes || !nodes->IsArray() || !meshes || !meshes->IsArray() || !accessors || !views)
        return std::nullopt;
    const Document d{*accessors, *views, ByteView(b.data() + bin_at + 8, size_t(*buffer_length))};

    scene::Scene s;
    for (const Value& m : meshes->GetArray()) {
        const Value* primitives = member(m, "primitives");
        if (!primitives || !primitives->IsArray()) return std::nullopt;
        scene::Mesh mesh;
        for (const Value& p : primitives->GetArray()) {
            const Value* attributes = member(p, "attributes");
            if (!attributes || !attributes->IsObject() ||
                unsigned_member(p, "mode", 4) != uint64_t(4)) // triangles, as the writer writes
                return std::nullopt;
            scene::Primitive prim;
            for (const auto& [name, components] : {std::pair<const char*, int>{"POSITION", 3},
                                                   {"TEXCOORD_0", 2},
                                                   {"TEXCOORD_1", 2}}) {
                const Value* index = member(*attributes, name);
                if (!index) {
                    if (components == 3) return std::nullopt; // a primitive has its positions
                    continue;
                }
                if (!d.floats(*index, components, prim.attributes[name])) return std::nullopt;
            }
            mesh.primitives.push_back(std::move(prim));
        }
        s.meshes.push_back(std::move(mesh));
    }
    for (const Value& n : nodes->GetArray()) {
        scene::Node node;
        if (member(n, "mesh")) {
            const std::optional<uint64_t> mesh = unsigned_member(n, "mesh");
            if (!mesh || *mesh >= s.meshes.size()) return std::nullopt;
            node.mesh = int(*mesh);
        }
        s.nodes.push_back(std::move(node));
    }
    return s;
}

} // namespace msh::gltf
