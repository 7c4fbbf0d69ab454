#include "model_sidecar.hpp"

#include "base64.hpp"
#include "binding_fields.hpp"
#include "json_at.hpp"
#include "pairing.hpp"
#include "readable_writer.hpp"

#include "formats/cp1251.hpp"
#include "formats/diagnostics.hpp"

#include <stdexcept>

// The pairing token hashes its facts as nlohmann's compact text: a fixed form, so that the
// tokens in sidecars already written are computed again the same.
#include <nlohmann/json.hpp>

namespace msh::sidecar {

using nlohmann::json;

namespace {

json choice_json(int v) {
    return v == kAllChoice ? json("all") : json(v);
}

ModelDescription describe(const Model& m) {
    ModelDescription d;
    for (const nres::Entry& e : m.container.entries)
        d.entries.push_back({e.type, e.display_name(), Bytes(e.raw_name.begin(), e.raw_name.end()),
                             e.attr1, e.attr2, e.attr3, e.sort_index, e.data.size(),
                             e.type < 32 && m.has(ResType(e.type))});
    d.legacy_node_table = m.legacy_nodes;
    // Names are CP1251 in the game; JSON holds them as UTF-8.
    for (size_t i = 0; i < m.nodes.size(); ++i)
        d.nodes.push_back({cp1251_to_utf8(m.node_name(i)), m.nodes[i]});
    for (const NodeString& s : m.node_strings)
        d.node_strings.push_back(s.present ? std::optional<std::string>(cp1251_to_utf8(s.text))
                                           : std::nullopt);
    d.header = m.header;
    d.slots = m.slots;
    d.batches = m.batches;
    d.animation = {m.animation.frame_count, m.animation.keys.size(), m.animation.words.size()};
    return d;
}

// ---- reading: every field typed, every problem at its JSON pointer ----------------------------

template <class T, size_t N> void read_array(const JsonAt& at, std::array<T, N>& out) {
    if (at.size() != N) at.fail("expected " + std::to_string(N) + " values");
    for (size_t i = 0; i < N; ++i) {
        if constexpr (std::is_same_v<T, float>)
            out[i] = at[i].as_float_or_nan();
        else
            out[i] = at[i].as<T>();
    }
}

// "all" or 0..count-1 (LODs, groups).
int read_choice(const JsonAt& at, int count) {
    if (at.is_string()) {
        if (at.as<std::string>() != "all") at.fail("expected \"all\" or a number");
        return kAllChoice;
    }
    const int v = at.as<int>();
    if (v < 0 || v >= count)
        at.fail("expected \"all\" or 0.." + std::to_string(count - 1) + ", found " +
                std::to_string(v));
    return v;
}

std::vector<std::string> read_strings(const JsonAt& at) {
    std::vector<std::string> out(at.size());
    for (size_t i = 0; i < out.size(); ++i) out[i] = at[i].as<std::string>();
    return out;
}

// The WEAR's bytes (`wear.image`: base64, size and hash, checked like the model image).
Bytes read_wear_image(const JsonAt& at) {
    return read_hashed_bytes(at, "the WEAR image", "edited or damaged sidecar");
}

ExportRecord read_record(const JsonAt& doc) {
    ExportRecord r;
    r.source = doc["source"]["address"].as<std::string>();
    const JsonAt ex = doc["export"];
    r.output = ex["output"].as<std::string>();
    r.format = ex["format"].as<std::string>();
    r.fps = ex["fps"].as<double>();
    const JsonAt o = ex["options"];
    // Options a tool may leave out keep the export's defaults.
    if (o.has("lod")) r.options.lod = read_choice(o["lod"], kLods);
    if (o.has("group")) r.options.group = read_choice(o["group"], kGroups);
    if (o.has("skin")) r.options.skin = o["skin"].as<bool>();
    if (o.has("msft_lod")) r.options.msft_lod = o["msft_lod"].as<bool>();
    if (ex.has("pair")) r.pair = ex["pair"].as<std::string>(); // absent before pairing existed
    if (ex.has("readings")) r.readings = read_readings(ex["readings"]);  // absent: the defaults
    if (ex.has("written")) r.written = read_written_file(ex["written"]); // not in older sidecars
    if (doc.has("wear")) {
        const JsonAt w = doc["wear"];
        if (!w["source"].is_null()) r.wear_source = w["source"].as<std::string>();
        r.wear_rows = read_strings(w["rows"]);
        if (w.has("lightmaps")) r.wear_lightmaps = read_strings(w["lightmaps"]);
        if (w.has("image")) r.wear_image = read_wear_image(w["image"]); // not in older sidecars
    }
    return r;
}

ModelDescription read_description(const JsonAt& doc) {
    ModelDescription d;
    const JsonAt entries = doc["container"]["entries"];
    for (size_t i = 0; i < entries.size(); ++i) {
        const JsonAt e = entries[i];
        ContainerEntry c;
        c.type = e["type"].as<uint32_t>();
        c.name = e["name"].as<std::string>();
        try {
            c.raw_name = from_hex(e["raw_name"].as<std::string>());
        } catch (const std::invalid_argument& x) {
            e["raw_name"].fail(x.what());
        }
        c.attr1 = e["attr1"].as<uint32_t>();
        c.attr2 = e["attr2"].as<uint32_t>();
        c.attr3 = e["attr3"].as<uint32_t>();
        c.sort_index = e["sort_index"].as<uint32_t>();
        c.size = e["size"].as<uint64_t>();
        c.decoded = e["decoded"].as<bool>();
        d.entries.push_back(std::move(c));
    }
    d.legacy_node_table = doc["legacy_node_table"].as<bool>();
    const JsonAt nodes = doc["nodes"];
    for (size_t i = 0; i < nodes.size(); ++i) {
        const JsonAt n = nodes[i];
        NamedNode node;
        node.name = n["name"].as<std::string>();
        node.node.flags = n["flags"].as<uint16_t>();
        node.node.parent = n["parent"].as<uint16_t>();
        node.node.map_start = n["map_start"].as<uint16_t>();
        node.node.fallback_key = n["fallback_key"].as<uint16_t>();
        read_array(n["slots"], node.node.slots);
        d.nodes.push_back(std::move(node));
    }
    const JsonAt strings = doc["node_strings"];
    for (size_t i = 0; i < strings.size(); ++i)
        d.node_strings.push_back(strings[i].is_null()
                                     ? std::nullopt
                                     : std::optional<std::string>(strings[i].as<std::string>()));
    const JsonAt header = doc["header"];
    read_array(header["hull"], d.header.hull);
    read_array(header["sphere"], d.header.sphere);
    read_array(header["capsule"], d.header.capsule);
    const JsonAt slots = doc["slots"];
    for (size_t i = 0; i < slots.size(); ++i) {
        const JsonAt s = slots[i];
        Slot slot;
        slot.tri_start = s["tri_start"].as<uint16_t>();
        slot.tri_count = s["tri_count"].as<uint16_t>();
        slot.batch_start = s["batch_start"].as<uint16_t>();
        slot.batch_count = s["batch_count"].as<uint16_t>();
        read_array(s["aabb_min"], slot.aabb_min);
        read_array(s["aabb_max"], slot.aabb_max);
        read_array(s["sphere"], slot.sphere);
        read_array(s["tail"], slot.tail);
        d.slots.push_back(slot);
    }
    const JsonAt batches = doc["batches"];
    for (size_t i = 0; i < batches.size(); ++i) {
        const JsonAt b = batches[i];
        Batch batch;
        batch.flags = b["flags"].as<uint16_t>();
        batch.material = b["material"].as<uint16_t>();
        batch.opaque4 = b["opaque4"].as<uint16_t>();
        batch.opaque6 = b["opaque6"].as<uint16_t>();
        batch.opaque14 = b["opaque14"].as<uint16_t>();
        batch.index_start = b["index_start"].as<uint32_t>();
        batch.index_count = b["index_count"].as<uint16_t>();
        batch.base_vertex = b["base_vertex"].as<uint32_t>();
        d.batches.push_back(batch);
    }
    const JsonAt anim = doc["animation"];
    d.animation.frame_count = anim["frame_count"].as<uint32_t>();
    d.animation.key_count = anim["key_count"].as<uint64_t>();
    d.animation.frame_map_words = anim["frame_map_words"].as<uint64_t>();
    return d;
}

} // namespace

Readings read_readings(const JsonAt& at) {
    std::map<std::string, std::string> m;
    for (const ReadingInfo& info : reading_infos())
        if (at.has(info.name)) m[info.name] = at[info.name].as<std::string>();
    try {
        return readings_from_map(m);
    } catch (const std::invalid_argument& x) {
        at.fail(x.what());
    }
}

std::string model_pairing_token(uint64_t original_hash, const ExportRecord& r) {
    // Content only, never an address: the same model exported in any folder gets the same token.
    // Not the output name or format: exports to .glb and .obj of one model with one set of
    // options share a sidecar (it means the same for both).
    json facts = {r.fps,           choice_json(r.options.lod), choice_json(r.options.group),
                  r.options.skin,  r.options.msft_lod,         r.wear_rows,
                  r.wear_lightmaps};
    if (r.readings != Readings{}) facts.push_back(describe(r.readings)); // defaults: as before
    return pairing_token_of_hash(original_hash, facts.dump());
}

namespace {

// How an export of this version lays out its file: fixed, so a changed text is not read.
constexpr std::string_view kAxes = "msh (x, y, z) -> glTF (x, z, -y)";
constexpr std::string_view kVertexIdentity = "TEXCOORD_1 = (Res3 vertex index, Res13 batch index)";

void note_unread_layout(const JsonAt& at, std::vector<std::string>& unread) {
    const JsonAt ex = at["export"];
    for (const auto& [key, text] : {std::pair{"axes", kAxes}, {"vertex_identity", kVertexIdentity}})
        if (ex.has(key) && !ex[key].is_text(text))
            unread.push_back(unread_layout_warning(at.where(), ex[key].pointer(), text));
}

// The recorded facts of the export (fps, options, readings, the WEAR's rows and lightmaps, the
// source's hash) give the pairing token `export.pair`; a sidecar whose facts no longer give it
// was edited where an import must not be steered.
void check_record_token(const JsonAt& at, const ExportRecord& r, uint64_t original_hash) {
    if (r.pair.empty() || model_pairing_token(original_hash, r) == r.pair) return;
    at["export"]["pair"].fail(
        "the export's record was edited: its fps, options, readings, WEAR rows and lightmaps "
        "and the source's hash no longer give this pairing token. They say how the file was "
        "written, not what to import: restore them (to import with another frame rate, pass "
        "--fps)");
}

} // namespace

ModelSidecar make_model_sidecar(const Model& model, ByteView original, ExportRecord record,
                                uint64_t original_hash) {
    ModelSidecar s;
    s.record = std::move(record);
    s.model = describe(model);
    s.original_image.assign(original.begin(), original.end());
    s.original_size = original.size();
    s.original_hash = original_hash;
    return s;
}

ModelSidecar make_binding_sidecar(const Model& model, size_t original_size, ExportRecord record,
                                  uint64_t original_hash, const std::vector<bool>& held,
                                  const DerivedRules& rules, const RuleNormals& rule_normals) {
    ModelSidecar s;
    s.record = std::move(record);
    s.binding = bind_model(model, held, rules, rule_normals);
    s.original_size = original_size;
    s.original_hash = original_hash;
    return s;
}

namespace {

// A first-layout sidecar: the record and the original image (decoded from the text as parsed);
// with `description` the readable description of the model too.
ModelSidecar parse_with_image(const JsonAt& at, bool description = true) {
    if (!at.is_object()) at.fail(std::string("not a ") + kSchema + " document");
    if (!at.has("schema") || !at["schema"].is_text(kSchema))
        at["schema"].fail(std::string("not a ") + kSchema + " document");
    if (!at.has("kind") || !at["kind"].is_text("msh-model"))
        at["kind"].fail("sidecar is not for an MSH model");
    ModelSidecar s;
    const JsonAt image = at["original_image"];
    try {
        s.original_image = from_base64(image.as_string_view());
    } catch (const std::invalid_argument& e) {
        image.fail(std::string("original_image: ") + e.what());
    }
    const JsonAt source = at["source"];
    if (source["size"].as<uint64_t>() != s.original_image.size())
        source["size"].fail("original_image is " + std::to_string(s.original_image.size()) +
                            " bytes, the sidecar says " +
                            std::to_string(source["size"].as<uint64_t>()));
    const PayloadHashCheck hash = check_payload_hash(source, s.original_image);
    if (!hash.matches) // a missing member fails as missing
        source[hash.key].fail(
            "original_image does not match its recorded hash (edited or damaged sidecar)");
    s.original_hash = hash.xxh3;
    s.original_size = s.original_image.size();
    s.record = read_record(at);
    if (!(s.record.fps > 0)) at["export"]["fps"].fail("fps must be a positive number");
    // A sidecar that records the older FNV-1a hash made its token from that one.
    if (hash.key == kPayloadHashKey) check_record_token(at, s.record, s.original_hash);
    note_unread_layout(at, s.unread);
    if (description) s.model = read_description(at);
    return s;
}

// A binding sidecar: the record and the binding; the image is rebuilt by the import.
ModelSidecar parse_binding(const JsonAt& at) {
    if (!at.has("kind") || !at["kind"].is_text("msh-model"))
        at["kind"].fail("sidecar is not for an MSH model");
    ModelSidecar s;
    const JsonAt source = at["source"];
    s.original_size = source["size"].as<uint64_t>();
    const std::string hash = source[kPayloadHashKey].as<std::string>();
    if (hash.size() != 16 || hash.find_first_not_of("0123456789abcdef") != std::string::npos)
        source[kPayloadHashKey].fail("expected 16 lower-case hex digits");
    s.original_hash = std::stoull(hash, nullptr, 16);
    s.record = read_record(at);
    if (!(s.record.fps > 0)) at["export"]["fps"].fail("fps must be a positive number");
    check_record_token(at, s.record, s.original_hash);
    note_unread_layout(at, s.unread);
    s.binding = read_binding(at);
    return s;
}

bool is_binding(const JsonAt& at) {
    return at.is_object() && at.has("schema") && at["schema"].is_text(kBindingSchema);
}

} // namespace

namespace {

// The record's objects, the same in both layouts.
void write_export(ReadableJson& w, const ExportRecord& r) {
    w.begin_object();
    w.member("axes", kAxes);
    w.member("format", r.format);
    w.member("fps", r.fps);
    w.key("options");
    w.begin_object();
    for (const auto& [name, v] :
         {std::pair<const char*, int>{"group", r.options.group}, {"lod", r.options.lod}}) {
        w.key(name);
        if (v == kAllChoice)
            w.value("all");
        else
            w.value(v);
    }
    w.member("msft_lod", r.options.msft_lod);
    w.member("skin", r.options.skin);
    w.end_object();
    w.member("output", r.output);
    w.member("pair", r.pair);
    w.key("readings");
    w.begin_object();
    for (const auto& [name, variant] : reading_map(r.readings)) w.member(name, variant);
    w.end_object();
    w.member("vertex_identity", kVertexIdentity);
    if (r.written.recorded()) {
        w.key("written");
        w.begin_object();
        if (!r.written.buffer.empty()) {
            w.member("buffer", r.written.buffer);
            w.member("buffer_xxh3_64", r.written.buffer_xxh3_64);
        }
        w.member("xxh3_64", r.written.xxh3_64);
        w.end_object();
    }
    w.end_object();
}

void write_wear(ReadableJson& w, const ExportRecord& r) {
    w.begin_object();
    if (!r.wear_image.empty()) {
        w.key("image");
        w.begin_object();
        w.member("base64", to_base64(r.wear_image)); // not verbatim: short, may fit a line
        w.member("size", uint64_t(r.wear_image.size()));
        w.member(kPayloadHashKey, hex64(payload_hash(r.wear_image)));
        w.end_object();
    }
    w.member("lightmaps", r.wear_lightmaps);
    w.member("rows", r.wear_rows);
    w.key("source");
    if (r.wear_source.empty())
        w.null();
    else
        w.value(r.wear_source);
    w.end_object();
}

} // namespace

// A binding sidecar written without a DOM (every table one row per line, the blocks' base64
// appended straight into the text): a fifth of the work of building one first.
static std::string binding_text(const ModelSidecar& s) {
    const ExportRecord& r = s.record;
    std::string text;
    text.reserve(8192 + base64_size(s.original_size));
    ReadableJson w(text, kReadableWidth);
    // The record's members, in key order between the binding's (write_binding_json).
    const char* const record_keys[] = {"export", "kind", "schema", "source", "wear"};
    size_t next = 0;
    const auto record_member = [&](const char* key) {
        w.key(key);
        const std::string_view k(key);
        if (k == "export") {
            write_export(w, r);
        } else if (k == "kind") {
            w.value("msh-model");
        } else if (k == "schema") {
            w.value(kBindingSchema);
        } else if (k == "source") {
            write_source(w, r.source, s.original_size, s.original_hash);
        } else { // wear
            write_wear(w, r);
        }
    };
    w.begin_object();
    write_binding_json(*s.binding, w, [&](std::string_view before) {
        while (next < std::size(record_keys) &&
               (before.empty() || std::string_view(record_keys[next]) < before))
            record_member(record_keys[next++]);
    });
    w.end_object();
    text += '\n';
    return text;
}

// Floats as doubles (the first layout's form: a float read back from it is the same float).
template <size_t N>
static void put_doubles(ReadableJson& w, std::string_view name,
                        const std::array<float, N>& values) {
    w.key(name);
    w.begin_array();
    for (const float f : values) w.value(double(f));
    w.end_array();
}

// The first layout, for the sidecars of that layout read back (tests, the fuzzer's round trip):
// the image's base64 appended straight into the text.
std::string model_sidecar_text(const ModelSidecar& s) {
    if (s.binding) return binding_text(s);
    const ExportRecord& r = s.record;
    const ModelDescription& d = s.model;
    std::string text;
    // Generous (capacity never touched costs no memory): a slot is about 450 characters, a
    // batch 250, a node 300, a container entry 250; the rest is the image's base64.
    text.reserve(8192 + 512 * (d.slots.size() + d.batches.size() + d.nodes.size()) +
                 300 * (d.entries.size() + d.node_strings.size()) +
                 base64_size(s.original_image.size()));
    ReadableJson w(text, kReadableWidth);
    w.begin_object();
    w.key("animation");
    w.begin_object();
    w.member("frame_count", d.animation.frame_count);
    w.member("frame_map_words", d.animation.frame_map_words);
    w.member("key_count", d.animation.key_count);
    w.end_object();
    w.key("batches");
    w.begin_array();
    for (const Batch& b : d.batches) {
        w.begin_object();
        w.member("base_vertex", b.base_vertex);
        w.member("flags", b.flags);
        w.member("index_count", b.index_count);
        w.member("index_start", b.index_start);
        w.member("material", b.material);
        w.member("opaque14", b.opaque14);
        w.member("opaque4", b.opaque4);
        w.member("opaque6", b.opaque6);
        w.end_object();
    }
    w.end_array();
    w.key("container");
    w.begin_object();
    w.key("entries");
    w.begin_array();
    for (const ContainerEntry& e : d.entries) {
        w.begin_object();
        w.member("attr1", e.attr1);
        w.member("attr2", e.attr2);
        w.member("attr3", e.attr3);
        w.member("decoded", e.decoded);
        w.member("name", e.name);
        w.member("raw_name", to_hex(e.raw_name));
        w.member("size", e.size);
        w.member("sort_index", e.sort_index);
        w.member("type", e.type);
        w.end_object();
    }
    w.end_array();
    w.end_object();
    w.key("export");
    write_export(w, r);
    w.key("header");
    w.begin_object();
    put_doubles(w, "capsule", d.header.capsule);
    put_doubles(w, "hull", d.header.hull);
    put_doubles(w, "sphere", d.header.sphere);
    w.end_object();
    w.member("kind", "msh-model");
    w.member("legacy_node_table", d.legacy_node_table);
    w.key("node_strings");
    w.begin_array();
    for (const auto& str : d.node_strings)
        if (str)
            w.value(*str);
        else
            w.null();
    w.end_array();
    w.key("nodes");
    w.begin_array();
    for (size_t i = 0; i < d.nodes.size(); ++i) {
        const Node& n = d.nodes[i].node;
        w.begin_object();
        w.member("fallback_key", n.fallback_key);
        w.member("flags", n.flags);
        w.member("index", uint64_t(i));
        w.member("map_start", n.map_start);
        w.member("name", d.nodes[i].name);
        w.member("parent", n.parent);
        w.member("slots", n.slots);
        w.end_object();
    }
    w.end_array();
    w.key("original_image");
    w.plain_string_with([&](std::string& out) { append_base64(out, s.original_image); });
    w.member("schema", kSchema);
    w.key("slots");
    w.begin_array();
    for (const Slot& slot : d.slots) {
        w.begin_object();
        put_doubles(w, "aabb_max", slot.aabb_max);
        put_doubles(w, "aabb_min", slot.aabb_min);
        w.member("batch_count", slot.batch_count);
        w.member("batch_start", slot.batch_start);
        put_doubles(w, "sphere", slot.sphere);
        w.member("tail", slot.tail);
        w.member("tri_count", slot.tri_count);
        w.member("tri_start", slot.tri_start);
        w.end_object();
    }
    w.end_array();
    w.key("source");
    write_source(w, r.source, s.original_image.size(), s.original_hash);
    w.key("wear");
    write_wear(w, r);
    w.end_object();
    text += '\n';
    return text;
}

namespace {

// The sidecar read from the document RapidJSON parsed in place (the image's base64 decoded from the
// text, never copied).
ModelSidecar read_text(ByteView bytes, const std::string& where, bool description) {
    ParsedJson parsed;
    parsed.parse(bytes, where);
    const JsonAt at(parsed.root(), "", where);
    if (is_binding(at)) return parse_binding(at);
    return parse_with_image(at, description);
}

} // namespace

ModelSidecar read_model_sidecar(ByteView bytes, const std::string& where) {
    return read_text(bytes, where, true);
}

ModelSidecar read_model_sidecar_for_import(ByteView bytes, const std::string& where) {
    return read_text(bytes, where, false);
}

} // namespace msh::sidecar
