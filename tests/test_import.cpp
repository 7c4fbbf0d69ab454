// Import (issue 4): unedited round trips give the original bytes for every corpus model in every
// export variant; each supported edit rebuilds what it defines and keeps the rest.
#include "fixtures.hpp"
#include "import_fixtures.hpp"
#include "sidecar_edits.hpp"
#include "test_util.hpp"

#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/obj.hpp"
#include "formats/rapidjson.hpp"
#include "mapping/model_to_scene.hpp"
#include "mapping/scene_to_model.hpp"
#include "mapping/skin.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/json_at.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/readable_writer.hpp"
#include "sidecar/terrain_sidecar.hpp"
#include "sidecar/texture_sidecar.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <sys/wait.h>
#include <unistd.h>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace import_tests {

using namespace msh;
using namespace msh::test;
namespace fs = std::filesystem;

namespace {

// Exit code of the mshconv binary under test.
int exit_code(const std::string& args) {
    return test::mshconv(args).code;
}

} // namespace

BOOST_AUTO_TEST_SUITE(import)

BOOST_AUTO_TEST_CASE(unedited_round_trips_are_byte_identical_for_the_whole_corpus) {
    TempDir dir;
    size_t models = 0, trips = 0;
    for (const auto& f : test::corpus()) {
        if (f.relative_path.find(".rlb") == std::string::npos) continue;
        nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (!nres::looks_like_nres(e.data)) continue;
            const Model m = read_model(e.data, ReadMode::Strict, e.name());
            ++models;
            for (const Variant& v : kVariants) {
                const Exported x = export_model(m, e.data.to_bytes(), v);
                for (const char* ext : {".gltf", ".glb"}) {
                    const Bytes back =
                        import_gltf(x.scene, x.sidecar, dir.path / (std::string("m") + ext));
                    BOOST_TEST((back == e.data),
                               f.relative_path << ":" << e.name() << " " << v.name << ext);
                    ++trips;
                }
                if (v.skin) continue;
                const obj::Files o = obj::write(x.scene, "m.mtl");
                const Bytes back =
                    mapping::import_scene(obj::read(o.obj, "m.obj"),
                                          obj_sidecar(e.data.to_bytes(), v), true, "m.obj")
                        .image;
                BOOST_TEST((back == e.data),
                           f.relative_path << ":" << e.name() << " " << v.name << ".obj");
                ++trips;
            }
        }
    }
    BOOST_TEST(models >= 60u);
    BOOST_TEST_MESSAGE(models << " models, " << trips << " byte-identical round trips");
}

BOOST_AUTO_TEST_CASE(moved_vertex_updates_positions_bounds_and_face_normals) {
    Picked p = pick(false);
    Exported x = export_model(p.model, p.image, kVariants[0]);
    // Move every copy of the first vertex of the first mesh off every plane through it
    // (glTF (x, y, z) = MSH (x, z, -y)).
    scene::Primitive& prim = x.scene.meshes.at(0).primitives.at(0);
    const uint32_t vid = uint32_t(prim.attributes["TEXCOORD_1"].data[0]);
    const size_t batch = size_t(prim.attributes["TEXCOORD_1"].data[1]);
    for (auto& mesh : x.scene.meshes)
        for (auto& pr : mesh.primitives)
            for (size_t v = 0; v < pr.attributes["POSITION"].count(); ++v)
                if (uint32_t(pr.attributes["TEXCOORD_1"].data[2 * v]) == vid) {
                    pr.attributes["POSITION"].data[3 * v] += 0.3f;
                    pr.attributes["POSITION"].data[3 * v + 1] += 0.5f;
                    pr.attributes["POSITION"].data[3 * v + 2] += 0.2f;
                }
    TempDir dir;
    const Bytes out = import_gltf(x.scene, x.sidecar, dir.path / "moved.glb");
    DiagnosticSink sink(ReadMode::Strict);
    const Model m = read_model(out, sink, "moved");
    BOOST_TEST(!sink.has_errors());
    BOOST_TEST(m.positions[vid].z == p.model.positions[vid].z + 0.5f);
    BOOST_TEST(m.positions[vid].x == p.model.positions[vid].x + 0.3f);
    BOOST_TEST(m.positions[vid].y == p.model.positions[vid].y - 0.2f);
    for (size_t v = 0; v < m.positions.size(); ++v)
        if (v != vid)
            BOOST_TEST((m.positions[v].x == p.model.positions[v].x &&
                        m.positions[v].z == p.model.positions[v].z));
    // The slot holding the batch: AABB contains the moved vertex and matches the rule.
    for (const Slot& s : m.slots)
        if (batch >= s.batch_start && batch < size_t(s.batch_start) + s.batch_count) {
            BOOST_TEST(s.aabb_max[2] >= m.positions[vid].z);
            BOOST_TEST(s.aabb_min[2] <= m.positions[vid].z);
        }
    // Res7 normals of triangles using the vertex are recomputed; untouched resources keep bytes.
    const Batch& b = m.batches[batch];
    size_t changed_normals = 0;
    for (size_t t = 0; t < m.triangles.size(); ++t)
        changed_normals += m.triangles[t].normal != p.model.triangles[t].normal;
    BOOST_TEST(changed_normals > 0u);
    BOOST_TEST((m.indices == p.model.indices));
    BOOST_TEST(m.batches.size() == p.model.batches.size());
    BOOST_TEST(b.index_count == p.model.batches[batch].index_count);
    BOOST_TEST((m.entry(kVertexStream15)->data == p.model.entry(kVertexStream15)->data));
    BOOST_TEST((m.entry(kUv0)->data == p.model.entry(kUv0)->data));
}

BOOST_AUTO_TEST_CASE(renamed_and_reparented_nodes) {
    Picked p = pick(true, 4);
    Exported x = export_model(p.model, p.image, kVariants[0]);
    const size_t child = p.model.nodes.size() - 1;
    BOOST_REQUIRE(child >= 2);
    const uint16_t new_parent = p.model.nodes[child].parent == 0 ? 1 : 0; // an earlier node
    x.scene.nodes[child].name = "Renamed_Part";
    x.scene.nodes[child].parent = new_parent;
    TempDir dir;
    const Bytes out = import_gltf(x.scene, x.sidecar, dir.path / "ren.gltf");
    const Model m = read_model(out, ReadMode::Strict, "renamed");
    BOOST_TEST(m.node_name(child) == "Renamed_Part");
    BOOST_TEST(m.nodes[child].parent == new_parent);
    for (size_t i = 0; i < m.nodes.size(); ++i)
        if (i != child) {
            BOOST_TEST(m.node_name(i) == p.model.node_name(i));
            BOOST_TEST(m.nodes[i].parent == p.model.nodes[i].parent);
        }
    BOOST_TEST((m.positions.size() == p.model.positions.size()));
    BOOST_TEST((m.entry(kKeys)->data == p.model.entry(kKeys)->data)); // animation untouched
}

BOOST_AUTO_TEST_CASE(animation_edit_rebuilds_keys_and_frame_map) {
    Picked p = pick(true);
    Exported x = export_model(p.model, p.image, kVariants[0]);
    scene::Animation& an = x.scene.animations.at(0);
    // Move the second translation key of the first animated node and add a key past the end.
    scene::Channel* tr = nullptr;
    for (auto& c : an.channels)
        if (c.path == scene::Path::Translation && c.times.size() >= 3) {
            tr = &c;
            break;
        }
    BOOST_REQUIRE(tr);
    const int node = tr->node;
    tr->values[3] += 1.0f; // key 1, glTF x = MSH x
    const float last = tr->times.back();
    const float added = last + 10.0f / 24.0f;
    tr->times.push_back(added);
    tr->values.insert(tr->values.end(), {tr->values[0], tr->values[1], tr->values[2]});
    TempDir dir;
    const Bytes out = import_gltf(x.scene, x.sidecar, dir.path / "anim.glb");
    DiagnosticSink sink(ReadMode::Strict);
    const Model m = read_model(out, sink, "anim");
    BOOST_TEST(!sink.has_errors());
    BOOST_TEST(sink.warning_count() == 0u); // canonical Res8/Res19
    std::vector<anim::NodeFields> fields;
    for (const Node& n : m.nodes) fields.push_back({n.map_start, n.fallback_key});
    const auto tracks = anim::decompose(m.animation, fields);
    const auto& keys = tracks[size_t(node)].keys;
    BOOST_TEST(keys.back().time == std::round(added * 24.0f));
    BOOST_TEST(m.animation.frame_count >= uint32_t(keys.back().time) + 1);
    BOOST_TEST(m.entry(kFrameMap)->attr2 == m.animation.frame_count);
    // The engine sampler reproduces the edited key.
    const anim::Key& k1 = keys.at(1);
    const anim::Pose pose = anim::sample(m.animation, fields[size_t(node)], k1.time);
    BOOST_TEST(pose.pos[0] == tr->values[3]);
    // Other nodes' tracks keep their keys.
    std::vector<anim::NodeFields> of;
    for (const Node& n : p.model.nodes) of.push_back({n.map_start, n.fallback_key});
    const auto before = anim::decompose(p.model.animation, of);
    for (size_t i = 0; i < tracks.size(); ++i)
        if (int(i) != node) {
            BOOST_TEST(tracks[i].keys.size() == before[i].keys.size());
            for (size_t k = 0; k < tracks[i].keys.size(); ++k)
                BOOST_TEST((tracks[i].keys[k].rot == before[i].keys[k].rot));
        }
}

// `v` as a nlohmann value (of a repeated key the last, as nlohmann keeps it).
nlohmann::json to_nlohmann(const rapidjson::Value& v) {
    if (v.IsNull()) return nullptr;
    if (v.IsBool()) return v.GetBool();
    if (v.IsUint64()) return v.GetUint64();
    if (v.IsInt64()) return v.GetInt64();
    if (v.IsNumber()) return v.GetDouble();
    if (v.IsString()) return std::string(v.GetString(), v.GetStringLength());
    nlohmann::json out = v.IsArray() ? nlohmann::json::array() : nlohmann::json::object();
    if (v.IsArray())
        for (const rapidjson::Value& e : v.GetArray()) out.push_back(to_nlohmann(e));
    else
        for (const auto& m : v.GetObject())
            out[std::string(m.name.GetString(), m.name.GetStringLength())] = to_nlohmann(m.value);
    return out;
}

// The writer on random documents: nested objects and arrays of every size around the line width,
// tables and verbatim strings (which put every level around them on several lines) at any depth
// and position, doubles of every magnitude (the forms the writer's and nlohmann's number printers
// differ in: 1e-8 against 1e-08, 1e20 written out) and strings that need escapes. The text reads
// back to the document, through nlohmann and through the sidecar readers' parse.
BOOST_AUTO_TEST_CASE(readable_writer_writes_random_documents_that_read_back) {
    std::mt19937 rng(46);
    auto below = [&rng](size_t n) { return size_t(rng() % n); };
    for (int round = 0; round < 400; ++round) {
        nlohmann::json doc;
        std::string text;
        sidecar::ReadableJson w(text, sidecar::kReadableWidth);
        // Writes a random value to both, its DOM into `into`.
        std::function<void(nlohmann::json&, int, bool)> value = [&](nlohmann::json& into, int depth,
                                                                    bool in_row) {
            const size_t kind = depth > 4 ? below(3) : below(in_row ? 5 : 8);
            if (kind == 0 && below(2)) {
                const int64_t v = int64_t(rng() % 2000000) - 1000000;
                into = v, w.value(v);
            } else if (kind == 0) { // a double: mantissa and exponent at random, or a special one
                const double specials[] = {0.0,  -0.0,  1e-5, 1e20,   1e21,
                                           1e-7, 100.0, 0.1,  5e-324, 1.7976931348623157e308};
                const double v = below(4) ? double(int64_t(rng() % 2000001) - 1000000) *
                                                std::pow(10.0, double(int(below(80)) - 40)) / 7.0
                                          : specials[below(std::size(specials))];
                into = v, w.value(v);
            } else if (kind == 1 && below(3)) {
                const std::string v(below(40), char('a' + below(26)));
                into = v, w.value(v);
            } else if (kind == 1) { // escapes: quotes, backslashes, control characters, UTF-8
                const std::string pieces[] = {"\"",
                                              "\\",
                                              "\n",
                                              "\t",
                                              "\x01",
                                              "\x1f",
                                              "\x7f",
                                              "/",
                                              "\xc3\xa9",
                                              "\xe2\x82\xac",
                                              "\xf0\x9f\x98\x80",
                                              "a"};
                std::string v;
                for (size_t k = below(12); k > 0; --k) v += pieces[below(std::size(pieces))];
                into = v, w.value(v);
            } else if (kind == 2) {
                into = nullptr, w.null();
            } else if (kind == 3 || kind == 4) { // an array or an object of 0..30 members
                const bool object = kind == 4;
                const size_t n = below(31);
                into = object ? nlohmann::json::object() : nlohmann::json::array();
                if (!object) // sized first: elements that deferred names must not move
                    into.get_ref<nlohmann::json::array_t&>().resize(n);
                object ? w.begin_object() : w.begin_array();
                for (size_t i = 0; i < n; ++i) {
                    if (object) {
                        char key[8];
                        std::snprintf(key, sizeof key, "k%03zu", i);
                        w.key(key);
                        value(into[key], depth + 1, in_row);
                    } else {
                        value(into[i], depth + 1, in_row);
                    }
                }
                object ? w.end_object() : w.end_array();
            } else if (kind == 5 || kind == 6) { // a table: one compact row per line
                const size_t n = 1 + below(6);
                into = nlohmann::json::array();
                into.get_ref<nlohmann::json::array_t&>().resize(n);
                w.begin_rows();
                for (size_t i = 0; i < n; ++i) value(into[i], depth + 1, true);
                w.end_rows();
            } else { // a verbatim string (base64), short or long
                const std::string v(below(2) ? 3 + below(20) : 300 + below(3000), 'Q');
                into = v;
                w.plain_string(v);
            }
        };
        // The top level is an object; the DOM's addresses must not move once deferred names them,
        // so members are built in place (nlohmann's object is a std::map).
        doc = nlohmann::json::object();
        w.begin_object();
        const size_t n = 1 + below(8);
        for (size_t i = 0; i < n; ++i) {
            char key[8];
            std::snprintf(key, sizeof key, "m%03zu", i);
            w.key(key);
            value(doc[key], 1, false);
        }
        w.end_object();
        BOOST_TEST_REQUIRE((nlohmann::json::parse(text) == doc), "round " << round);
        sidecar::ParsedJson parsed;
        parsed.parse(Bytes(text.begin(), text.end()), "random");
        BOOST_TEST_REQUIRE((to_nlohmann(parsed.root()) == doc), "round " << round);
    }
}

// Every corpus model's sidecar, in every export variant, reads back to a sidecar that writes the
// same text; the values a JSON writer must get right (escapes, NaN, infinities, -0, tiny and
// huge floats, "all", nulls, bytes that are not UTF-8) read back as they were written, in both
// layouts.
BOOST_AUTO_TEST_CASE(sidecar_text_reads_back_to_the_same_sidecar) {
    const auto read_back = [](const std::string& text) {
        return sidecar::read_model_sidecar(Bytes(text.begin(), text.end()), "s");
    };
    size_t compared = 0;
    for (const auto& f : test::corpus()) {
        if (f.relative_path.find(".rlb") == std::string::npos) continue;
        const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (!nres::looks_like_nres(e.data)) continue;
            const Model m = read_model(e.data, ReadMode::Strict, e.name());
            for (const Variant& v : kVariants) {
                const Exported x = export_model(m, e.data.to_bytes(), v);
                BOOST_REQUIRE(x.sidecar.binding);
                const std::string text = sidecar::model_sidecar_text(x.sidecar);
                BOOST_TEST((sidecar::model_sidecar_text(read_back(text)) == text),
                           f.relative_path << ":" << e.name() << " " << v.name);
                ++compared;
            }
        }
    }
    BOOST_TEST(compared > 100u);
    Picked p = pick(false);
    const sidecar::ModelSidecar bound = export_model(p.model, p.image, kVariants[0]).sidecar;
    std::string every_ascii; // the writer's unescaped fast path
    for (int c = 1; c < 0x80; ++c) every_ascii += char(c);
    const std::vector<std::string> rows = {"r\\1", "", every_ascii, "plain \x7f", "\"", "\\"};
    const std::string wear_source = "a \"quoted\"\tname\x01 \xd0\x96";
    { // a binding sidecar
        sidecar::ModelSidecar b = bound;
        b.record.options.lod = sidecar::kAllChoice;
        b.record.wear_source = wear_source;
        b.record.wear_rows = rows;
        b.record.wear_image = Bytes(40, 7); // short: its object fits one line
        b.record.fps = 12.5;
        b.record.written = {"0123456789abcdef", "m.bin", "fedcba9876543210"};
        sidecar::ModelBinding& mb = *b.binding;
        mb.header.sphere = {std::numeric_limits<float>::quiet_NaN(), 0.1f, -1e-30f, -0.0f};
        mb.header.hull[0] = 1e20f;
        mb.header.hull[1] = 123456789.0f;
        mb.header.hull[2] = std::numeric_limits<float>::infinity();
        mb.node_strings = {{}, {true, "x"}, {true, std::string("\xff\x98", 2)}, {true, ""}};
        mb.batches.clear();
        mb.rules.header.posed = true;
        mb.rules.header.hull_max.emplace();
        mb.rules.triangle_normals.assign(200, false); // a list longer than a line
        mb.checks["blocks"].clear();
        b.record.pair = sidecar::model_pairing_token(b.original_hash, b.record);
        const std::string text = sidecar::model_sidecar_text(b);
        const sidecar::ModelSidecar back = read_back(text);
        BOOST_TEST(sidecar::model_sidecar_text(back) == text);
        BOOST_TEST(back.record.options.lod == sidecar::kAllChoice);
        BOOST_TEST(back.record.wear_source == wear_source);
        BOOST_TEST((back.record.wear_rows == rows));
        BOOST_TEST((back.record.wear_image == b.record.wear_image));
        BOOST_TEST(back.record.fps == 12.5);
        BOOST_TEST(back.record.written.xxh3_64 == b.record.written.xxh3_64);
        const auto& sphere = back.binding->header.sphere;
        BOOST_TEST(std::isnan(sphere[0]));
        BOOST_TEST(sphere[1] == 0.1f);
        BOOST_TEST(sphere[2] == -1e-30f);
        BOOST_TEST((sphere[3] == 0.0f && std::signbit(sphere[3])));
        BOOST_TEST(back.binding->header.hull[0] == 1e20f);
        BOOST_TEST(back.binding->header.hull[1] == 123456789.0f);
        BOOST_TEST(std::isinf(back.binding->header.hull[2]));
        BOOST_TEST(back.binding->node_strings.size() == 4u);
        BOOST_TEST(back.binding->node_strings[2].text == std::string("\xff\x98", 2));
        BOOST_TEST(back.binding->rules.triangle_normals.size() == 200u);
        mb.rules.header.hull_max.reset();
        mb.rules.triangle_normals.assign(3, false);
        mb.rules.slots.assign(mb.slots.size(), {true, false, true, true, true});
        mb.directory.layout.push_back({nres::Segment::Kind::Gap, 0, 0, Bytes(3, 1)});
        mb.directory.layout.push_back({nres::Segment::Kind::Pad, 0, 0, {}});
        b.record.wear_image = Bytes(400, 9); // too long for one line
        b.record.pair = sidecar::model_pairing_token(b.original_hash, b.record);
        const std::string longer = sidecar::model_sidecar_text(b);
        BOOST_TEST(sidecar::model_sidecar_text(read_back(longer)) == longer);
        BOOST_TEST((read_back(longer).record.wear_image == b.record.wear_image));
    }
    // The first layout.
    sidecar::ModelSidecar s =
        sidecar::make_model_sidecar(p.model, p.image, bound.record, bound.original_hash);
    s.record.options.lod = sidecar::kAllChoice;
    s.record.wear_source = wear_source;
    s.record.wear_rows = rows;
    s.record.wear_lightmaps.clear();
    s.record.fps = 12.5;
    s.model.node_strings = {std::nullopt, std::string("x"), std::nullopt};
    s.model.header.sphere[0] = std::numeric_limits<float>::quiet_NaN();
    s.model.header.sphere[1] = 0.1f;
    s.model.header.sphere[2] = -1e-30f;
    s.model.batches.clear();
    s.record.pair = sidecar::model_pairing_token(s.original_hash, s.record);
    const std::string text = sidecar::model_sidecar_text(s);
    const sidecar::ModelSidecar back = read_back(text);
    BOOST_TEST(sidecar::model_sidecar_text(back) == text);
    BOOST_TEST((back.original_image == p.image));
    BOOST_TEST(back.record.wear_source == wear_source);
    BOOST_TEST((back.record.wear_rows == rows));
    BOOST_TEST((back.model.node_strings == s.model.node_strings));
    BOOST_TEST(std::isnan(back.model.header.sphere[0]));
    BOOST_TEST(back.model.header.sphere[1] == 0.1f);
    BOOST_TEST(back.model.header.sphere[2] == -1e-30f);
}

// Every sidecar kept from earlier releases (model, texture and terrain, both layouts), read and
// written again by this version's writer, reads back to the same values as the kept text: the
// writer's numbers and escapes (RapidJSON's) mean what the earlier ones (nlohmann's) meant.
BOOST_AUTO_TEST_CASE(kept_sidecars_write_back_to_the_same_values) {
    const fs::path kept = fs::path(MSHCONV_SOURCE_DIR) / "tests" / "fixtures";
    size_t checked = 0;
    for (const auto& entry : fs::recursive_directory_iterator(kept)) {
        const std::string name = entry.path().filename().string();
        if (name.size() < 13 || name.substr(name.size() - 13) != ".sidecar.json") continue;
        const Bytes bytes = read_file(entry.path());
        const nlohmann::json before = nlohmann::json::parse(bytes.begin(), bytes.end());
        const std::string kind = before["kind"];
        const std::string where = entry.path().string();
        std::string text;
        if (kind == "msh-model")
            text = sidecar::model_sidecar_text(sidecar::read_model_sidecar(bytes, where));
        else if (kind == "texm")
            text = sidecar::texture_sidecar_text(sidecar::read_texture_sidecar(bytes, where));
        else
            text = sidecar::terrain_sidecar_text(read_terrain_text(bytes, where));
        BOOST_TEST((nlohmann::json::parse(text) == before), where);
        ++checked;
    }
    BOOST_TEST(checked == 16u);
}

// The sidecar readers' parse (their own UTF-8 and control character check, then RapidJSON in
// place) reads what nlohmann reads: the same document, or a refusal that names the line and
// column. Text that is not UTF-8 (overlong, a surrogate, past U+10FFFF, cut short), holds a NUL
// or another control character, or starts with a BOM (read: editors on Windows write one).
BOOST_AUTO_TEST_CASE(fast_json_parse_reads_as_the_strict_parser) {
    const auto outcome = [](const std::string& text, bool fast) {
        const Bytes bytes(text.begin(), text.end());
        try {
            if (!fast) return nlohmann::json::parse(text).dump();
            sidecar::ParsedJson parsed;
            parsed.parse(bytes, "s");
            return to_nlohmann(parsed.root()).dump();
        } catch (const nlohmann::json::exception&) {
            return std::string("refused");
        } catch (const FormatError& e) {
            const std::string what = e.what();
            BOOST_TEST(what.find("s: line ") == 0, what);
            BOOST_TEST(what.find("not JSON: ") != std::string::npos, what);
            return std::string("refused");
        }
    };
    std::string long_ascii(300, 'a'); // past the eight-byte steps
    const std::vector<std::string> texts = {std::string(R"({"a":"x\u00e9","b":[1,2.5,-3e400]})"),
                                            "{\"a\":\"\xc3\xa9\xe2\x82\xac\"}",
                                            "{\"a\":\"" + long_ascii + "\xf0\x9f\x98\x80" +
                                                long_ascii + "\"}",
                                            std::string("{\"a\":\"\xc0\xaf\"}"),
                                            std::string("{\"a\":\"\xed\xa0\x80\"}"),
                                            std::string("{\"a\":\"\xf4\x90\x80\x80\"}"),
                                            std::string("{\"a\":\"\xe2\x82\"}"),
                                            std::string("{\"a\":\"\xe2\x82"),
                                            std::string("{\"a\":\"\x80\"}"),
                                            std::string("{\"a\":1}\0 ", 9),
                                            std::string("{\"a\":\"\0\"}", 9),
                                            "\xef\xbb\xbf{\"a\":1}",
                                            std::string("{\"a\":1} x"),
                                            "{\"a\":\"" + long_ascii + "\x1f\"}",
                                            "{\"a\":\"" + long_ascii + "\t\"}",
                                            "{\"a\":\t\"" + long_ascii + "\x01\"}",
                                            std::string("[1,]")};
    for (const std::string& text : texts)
        if (text.find('\0') == std::string::npos)
            BOOST_TEST(outcome(text, true) == outcome(text, false), text);
        else // nlohmann ends its input at a NUL; JSON has no place for one
            BOOST_TEST(outcome(text, true) == "refused", text);
}

BOOST_AUTO_TEST_CASE(edited_sidecar_is_detected) {
    Picked p = pick(false);
    Exported x = export_model(p.model, p.image, kVariants[0]);
    nlohmann::json doc = nlohmann::json::parse(sidecar::model_sidecar_text(x.sidecar));
    std::string block = doc["blocks"][0]["base64"];
    block[10] = block[10] == 'A' ? 'B' : 'A';
    doc["blocks"][0]["base64"] = block;
    try {
        test::read_model_doc(doc, "bad");
        BOOST_FAIL("an edited block without its new hash was read");
    } catch (const FormatError& e) {
        BOOST_TEST(std::string(e.what()).find("at /blocks/0/xxh3_64") != std::string::npos,
                   e.what());
    }
}

BOOST_AUTO_TEST_CASE(cli_replaces_one_archive_entry_losslessly) {
    TempDir dir;
    const fs::path archive = dir.path / "static.rlb";
    const Bytes original = read_file(test::corpus_dir() / "static.rlb");
    write_file_atomic(archive, original);
    nres::Archive ar = nres::read(original, ReadMode::Strict, "static.rlb");
    std::string name;
    for (const nres::Entry& e : ar.entries)
        if (nres::looks_like_nres(e.data)) name = e.name();
    const std::string q = "'" + archive.string() + "'";
    const fs::path glb = dir.path / "m.glb";
    BOOST_REQUIRE_EQUAL(exit_code("convert " + q + ":" + name + " '" + glb.string() + "'"), 0);
    // Unedited: the archive is unchanged to the byte.
    BOOST_REQUIRE_EQUAL(exit_code("convert '" + glb.string() + "' " + q + ":" + name), 0);
    BOOST_TEST((read_file(archive) == original));
    // Into a standalone file, and with a report.
    BOOST_REQUIRE_EQUAL(exit_code("convert '" + glb.string() + "' '" +
                                  (dir.path / "alone.msh").string() + "' --report '" +
                                  (dir.path / "r.json").string() + "'"),
                        0);
    BOOST_TEST((read_file(dir.path / "alone.msh") == ar.entries[*ar.find(name)].data));
    const Bytes report = read_file(dir.path / "r.json");
    BOOST_TEST(nlohmann::json::parse(report.begin(), report.end()).at("identical") == true);
    // Refusals: a --sidecar that does not exist; output = input. (Without any sidecar the input
    // is imported as a new model: tests/test_new_model.cpp.)
    fs::remove(dir.path / "m.sidecar.json");
    BOOST_TEST(exit_code("convert '" + glb.string() + "' '" + (dir.path / "x.msh").string() +
                         "' --sidecar '" + (dir.path / "m.sidecar.json").string() + "'") == 1);
    BOOST_TEST(!fs::exists(dir.path / "x.msh"));
    BOOST_TEST(exit_code("convert '" + glb.string() + "' '" + glb.string() + "'") == 2);
}

// The change report lists every warning the import printed: here the game's libraries missing
// beside the model written.
BOOST_AUTO_TEST_CASE(the_report_carries_the_warnings_printed) {
    const fs::path dir = test::scratch("report-warnings/x").parent_path();
    fs::remove_all(dir);
    fs::create_directories(dir / "out");
    const fs::path glb = dir / "House_01.glb", report = dir / "r.json";
    Run r = test::mshconv("convert " + q(test::corpus_dir() / "static.rlb") + ":House_01.msh " +
                          q(glb));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    r = test::mshconv("convert " + q(glb) + " " + q(dir / "out" / "House_01.msh") + " --report " +
                      q(report));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const Bytes text = read_file(report);
    const nlohmann::json warnings = nlohmann::json::parse(text.begin(), text.end()).at("warnings");
    BOOST_TEST_REQUIRE(warnings.size() == 1u, r.out);
    const std::string warning = warnings[0].get<std::string>();
    BOOST_TEST(warning.find("no Material.lib") != std::string::npos, warning);
    BOOST_TEST(r.out.find("warning: " + warning) != std::string::npos, r.out);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace import_tests
