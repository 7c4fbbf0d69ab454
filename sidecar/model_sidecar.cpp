#include "model_sidecar.hpp"

#include "base64.hpp"

#include "formats/diagnostics.hpp"

#include <cstdio>
#include <stdexcept>

namespace msh::sidecar {

using nlohmann::json;

namespace {

template <size_t N> json floats(const std::array<float, N>& a) {
    json j = json::array();
    for (float f : a) j.push_back(f); // NaN/inf print as null; the original image is the authority
    return j;
}

} // namespace

uint64_t fnv1a64(ByteView bytes) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
    return h;
}

json make_model_sidecar(const Model& m, ByteView original, const ExportRecord& r) {
    json entries = json::array();
    for (const nres::Entry& e : m.container.entries) {
        entries.push_back({{"type", e.type},
                           {"name", e.name()},
                           {"raw_name", to_hex(e.raw_name)},
                           {"attr1", e.attr1},
                           {"attr2", e.attr2},
                           {"attr3", e.attr3},
                           {"sort_index", e.sort_index},
                           {"size", e.data.size()},
                           {"decoded", e.type < 32 && m.has(ResType(e.type))}});
    }
    json nodes = json::array();
    for (size_t i = 0; i < m.nodes.size(); ++i) {
        const Node& n = m.nodes[i];
        nodes.push_back({{"index", i},
                         {"name", m.node_name(i)},
                         {"flags", n.flags},
                         {"parent", n.parent},
                         {"map_start", n.map_start},
                         {"fallback_key", n.fallback_key},
                         {"slots", n.slots}});
    }
    json strings = json::array();
    for (const NodeString& s : m.node_strings)
        strings.push_back(s.present ? json(s.text) : json(nullptr));
    json slots = json::array();
    for (const Slot& s : m.slots)
        slots.push_back({{"tri_start", s.tri_start},
                         {"tri_count", s.tri_count},
                         {"batch_start", s.batch_start},
                         {"batch_count", s.batch_count},
                         {"aabb_min", floats(s.aabb_min)},
                         {"aabb_max", floats(s.aabb_max)},
                         {"sphere", floats(s.sphere)},
                         {"tail", s.tail}});
    json batches = json::array();
    for (const Batch& b : m.batches)
        batches.push_back({{"flags", b.flags},
                           {"material", b.material},
                           {"opaque4", b.opaque4},
                           {"opaque6", b.opaque6},
                           {"opaque14", b.opaque14},
                           {"index_start", b.index_start},
                           {"index_count", b.index_count},
                           {"base_vertex", b.base_vertex}});
    return {
        {"schema", kSchema},
        {"kind", "msh-model"},
        {"source",
         {{"address", r.source}, {"size", original.size()}, {"fnv1a64", hex64(fnv1a64(original))}}},
        {"export",
         {{"output", r.output},
          {"format", r.format},
          {"fps", r.fps},
          {"options", r.options},
          {"axes", "msh (x, y, z) -> glTF (x, z, -y)"},
          {"vertex_identity", "TEXCOORD_1 = (Res3 vertex index, Res13 batch index)"}}},
        {"wear",
         {{"source", r.wear_source.empty() ? json(nullptr) : json(r.wear_source)},
          {"rows", r.wear_rows},
          {"lightmaps", r.wear_lightmaps}}},
        {"container", {{"entries", entries}}},
        {"legacy_node_table", m.legacy_nodes},
        {"nodes", nodes},
        {"node_strings", strings},
        {"header",
         {{"hull", floats(m.header.hull)},
          {"sphere", floats(m.header.sphere)},
          {"capsule", floats(m.header.capsule)}}},
        {"slots", slots},
        {"batches", batches},
        {"animation",
         {{"frame_count", m.animation.frame_count},
          {"key_count", m.animation.keys.size()},
          {"frame_map_words", m.animation.words.size()}}},
        {"original_image", to_base64(original)}};
}

ModelSidecar parse_model_sidecar(const json& doc, const std::string& where) {
    // Every problem names the JSON pointer of the field it is about.
    auto fail = [&](const std::string& pointer, const std::string& what) {
        throw FormatError(where, Location::at_pointer(pointer), what);
    };
    if (!doc.is_object() || doc.value("schema", "") != kSchema)
        fail("/schema", std::string("not a ") + kSchema + " document");
    if (doc.value("kind", "") != "msh-model") fail("/kind", "sidecar is not for an MSH model");
    ModelSidecar s;
    s.doc = doc;
    std::string at = "/original_image";
    try {
        s.original_image = from_base64(doc.at("original_image").get<std::string>());
        at = "/source/size";
        const json& src = doc.at("source");
        if (src.at("size").get<size_t>() != s.original_image.size())
            fail(at, "original_image is " + std::to_string(s.original_image.size()) +
                         " bytes, the sidecar says " +
                         std::to_string(src.at("size").get<size_t>()));
        at = "/source/fnv1a64";
        if (src.at("fnv1a64").get<std::string>() != hex64(fnv1a64(s.original_image)))
            fail(at, "original_image does not match its recorded hash (edited or damaged sidecar)");
        at = "/export/fps";
        s.fps = doc.at("export").at("fps").get<double>();
    } catch (const json::exception& e) {
        fail(at, std::string("malformed sidecar: ") + e.what());
    } catch (const std::invalid_argument& e) {
        fail(at, std::string("original_image: ") + e.what());
    }
    return s;
}

std::string model_sidecar_text(const ModelSidecar& sidecar) {
    return sidecar.doc.dump(1) + "\n";
}

ModelSidecar read_model_sidecar(ByteView text, const std::string& where) {
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::exception& e) {
        throw FormatError(where, 0, std::string("not JSON: ") + e.what());
    }
    return parse_model_sidecar(doc, where);
}

} // namespace msh::sidecar
