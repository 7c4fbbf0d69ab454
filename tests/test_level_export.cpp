// A whole level in one scene (conversion/level.hpp) over the corpus in memory: every generated
// mission to GLB and glTF and back byte for byte; each distinct model stored once; objects where
// their records put them (housed units at their host's hall-way vertex); one moved object changes
// exactly its floats; and what the game cannot express is refused, naming the object, with
// nothing written.
#include "corpus.hpp"

#include "formats/mission.hpp"
#include "formats/sniff.hpp"
#include "formats/terrain.hpp"
#include "mapping/level_to_scene.hpp"

#include <mshconv/convert.hpp>
#include <mshconv/error.hpp>
#include <mshconv/inspect.hpp>
#include <mshconv/io.hpp>
#include <mshconv/preview.hpp>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace level_export_tests {

using namespace msh;
using nlohmann::json;

namespace {

mshconv::MemoryIo corpus_in_memory() {
    mshconv::MemoryIo io;
    for (const auto& f : test::corpus()) io.put(f.relative_path, f.bytes);
    return io;
}

std::vector<std::string> missions() {
    std::vector<std::string> out;
    for (const auto& f : test::corpus())
        if (f.relative_path.ends_with("data.tma")) out.push_back(f.relative_path);
    return out;
}

std::string slug(std::string s) {
    for (char& c : s)
        if (c == '/' || c == '.') c = '_';
    return s;
}

json glb_json(const std::vector<uint8_t>& glb) {
    const uint32_t length = load<uint32_t>(glb, 12);
    return json::parse(glb.begin() + 20, glb.begin() + 20 + length);
}

std::vector<uint8_t> with_json(const std::vector<uint8_t>& glb, const json& doc) {
    std::string text = doc.dump();
    while (text.size() % 4) text.push_back(' ');
    const uint32_t old_length = load<uint32_t>(glb, 12);
    std::vector<uint8_t> out(glb.begin(), glb.begin() + 12);
    out.resize(20);
    store<uint32_t>(out.data() + 12, uint32_t(text.size()));
    store<uint32_t>(out.data() + 16, 0x4E4F534A);
    out.insert(out.end(), text.begin(), text.end());
    out.insert(out.end(), glb.begin() + 20 + old_length, glb.end());
    store<uint32_t>(out.data() + 8, uint32_t(out.size()));
    return out;
}

const json* level_extras(const json& node) {
    if (!node.contains("extras") || !node["extras"].contains(mapping::kLevelExtras)) return nullptr;
    return &node["extras"][mapping::kLevelExtras];
}

// The object nodes by record.
std::map<size_t, size_t> object_nodes(const json& doc) {
    std::map<size_t, size_t> out;
    for (size_t i = 0; i < doc["nodes"].size(); ++i)
        if (const json* e = level_extras(doc["nodes"][i]);
            e && e->contains("record") && e->contains("kind"))
            out[(*e)["record"].get<size_t>()] = i;
    return out;
}

// Every mesh index below node `i`.
void meshes_below(const json& doc, size_t i, std::set<int>& out) {
    const json& n = doc["nodes"][i];
    if (n.contains("mesh")) out.insert(n["mesh"].get<int>());
    for (const json& c : n.value("children", json::array()))
        meshes_below(doc, c.get<size_t>(), out);
}

std::string convert_error(mshconv::MemoryIo& io, const std::string& in, const std::string& out) {
    try {
        mshconv::convert({in, out}, io);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

} // namespace

BOOST_AUTO_TEST_SUITE(level_export)

BOOST_AUTO_TEST_CASE(every_mission_round_trips_through_glb_and_gltf) {
    const std::vector<std::string> all = missions();
    BOOST_TEST_REQUIRE(all.size() >= 4u);
    for (const std::string& m : all) {
        mshconv::MemoryIo io = corpus_in_memory();
        for (const char* ext : {".glb", ".gltf", ".obj"}) {
            const std::string out = "level-out/" + slug(m) + ext;
            const mshconv::ConvertResult r = mshconv::convert({m, out}, io);
            BOOST_TEST((r.kind == mshconv::AssetKind::Level), m);
            const std::string back = "level-back/" + slug(m) + ext + ".tma";
            const mshconv::ConvertResult b = mshconv::convert({out, back}, io);
            BOOST_TEST((b.kind == mshconv::AssetKind::Level), m);
            BOOST_TEST(io.at(back) == io.at(m), m << " back from " << ext);
        }
    }
}

BOOST_AUTO_TEST_CASE(each_distinct_model_is_stored_once) {
    mshconv::MemoryIo io = corpus_in_memory();
    size_t with_repeats = 0;
    for (const std::string& m : missions()) {
        const std::string out = "level-out/" + slug(m) + ".glb";
        mshconv::convert({m, out}, io);
        const json doc = glb_json(io.at(out));
        // The objects that name one reference hang the same meshes, and no mesh appears under two
        // references' objects unless they lead to one model.
        std::map<std::string, std::set<int>> by_reference;
        size_t placements = 0;
        for (const auto& [record, node] : object_nodes(doc)) {
            std::set<int> meshes;
            meshes_below(doc, node, meshes);
            const std::string ref = (*level_extras(doc["nodes"][node]))["reference"];
            const auto [it, fresh] = by_reference.emplace(ref, meshes);
            BOOST_TEST((it->second == meshes), m << ": " << ref << " placed with other meshes");
            placements += !meshes.empty();
        }
        std::set<int> object_meshes;
        size_t per_reference = 0;
        for (const auto& [ref, meshes] : by_reference) {
            object_meshes.insert(meshes.begin(), meshes.end());
            per_reference += !meshes.empty();
        }
        // The repeats are instances, not copies.
        BOOST_TEST(per_reference <= placements,
                   m << ": " << per_reference << " models for " << placements);
        with_repeats += per_reference < placements;
        BOOST_TEST(object_meshes.size() < doc["meshes"].size(),
                   m << ": " << object_meshes.size() << " of " << doc["meshes"].size());
        size_t mesh_nodes = 0;
        for (const json& n : doc["nodes"]) mesh_nodes += n.contains("mesh");
        BOOST_TEST(doc["meshes"].size() < mesh_nodes,
                   m << ": " << doc["meshes"].size() << " meshes, " << mesh_nodes << " nodes");
    }
    BOOST_TEST(with_repeats >= 3u);
}

BOOST_AUTO_TEST_CASE(objects_stand_where_their_records_put_them) {
    mshconv::MemoryIo io = corpus_in_memory();
    size_t housed = 0;
    for (const std::string& m : missions()) {
        const mission::Mission tma = mission::read(io.at(m), ReadMode::Strict, m);
        const std::string out = "level-out/" + slug(m) + ".glb";
        mshconv::convert({m, out}, io);
        const json doc = glb_json(io.at(out));
        const std::map<size_t, size_t> nodes = object_nodes(doc);
        BOOST_TEST_REQUIRE(nodes.size() == tma.objects.size(), m);
        std::map<int32_t, size_t> by_id;
        for (size_t i = 0; i < tma.objects.size(); ++i)
            if (tma.objects[i].kind == 0) by_id[tma.objects[i].logical_id] = i;
        for (size_t i = 0; i < tma.objects.size(); ++i) {
            const mission::PlacedObject& o = tma.objects[i];
            const json& n = doc["nodes"][nodes.at(i)];
            const json t = n.value("translation", json::array({0, 0, 0}));
            if (o.host != -1) {
                // At the host's hall-way vertex: not at its own (zero) position.
                ++housed;
                const json& h = doc["nodes"][nodes.at(by_id.at(o.host))];
                const json ht = h.value("translation", json::array({0, 0, 0}));
                const double d = std::hypot(t[0].get<double>() - ht[0].get<double>(),
                                            t[2].get<double>() - ht[2].get<double>());
                BOOST_TEST(d > 0.1, m << ": housed unit " << i << " at its host's origin");
                BOOST_TEST(d < 100.0, m << ": housed unit " << i << " far from its host");
                continue;
            }
            // Game (x, y, z) is glTF (x, z, -y), exactly.
            BOOST_TEST(t[0].get<float>() == o.position.x, m << " record " << i);
            BOOST_TEST(t[1].get<float>() == o.position.z, m << " record " << i);
            BOOST_TEST(t[2].get<float>() == -o.position.y, m << " record " << i);
            // A heading θ is +θ about glTF +Y.
            const json r = n.value("rotation", json::array({0, 0, 0, 1}));
            const double angle = 2 * std::atan2(r[1].get<double>(), r[3].get<double>());
            BOOST_TEST(std::abs(std::remainder(angle - o.rotation.z, 2 * M_PI)) < 1e-5,
                       m << " record " << i);
            // Scenery keeps its scale; buildings and units are never scaled.
            const json s = n.value("scale", json::array({1, 1, 1}));
            BOOST_TEST(s[0].get<float>() == (mission::is_scenery(o.kind) ? o.scale.x : 1.f),
                       m << " record " << i);
        }
    }
    BOOST_TEST(housed > 0u);
}

BOOST_AUTO_TEST_CASE(one_moved_object_changes_exactly_its_floats) {
    mshconv::MemoryIo io = corpus_in_memory();
    const std::string m = missions().front();
    const mission::Mission tma = mission::read(io.at(m), ReadMode::Strict, m);
    mshconv::convert({m, "level-out/moved.glb"}, io);
    json doc = glb_json(io.at("level-out/moved.glb"));
    // The first piece of scenery: it may move, turn and scale.
    size_t record = 0;
    while (!mission::is_scenery(tma.objects[record].kind)) ++record;
    json& node = doc["nodes"][object_nodes(doc).at(record)];
    node["translation"][0] = node["translation"][0].get<double>() + 7.5;
    node["rotation"] = {0, std::sin(0.35), 0, std::cos(0.35)};
    node["scale"] = {1.75, 1.75, 1.75};
    io.put("level-out/moved.glb", with_json(io.at("level-out/moved.glb"), doc));
    mshconv::convert({"level-out/moved.glb", "level-back/moved.tma"}, io);
    const std::vector<uint8_t>& before = io.at(m);
    const std::vector<uint8_t>& after = io.at("level-back/moved.tma");
    BOOST_TEST_REQUIRE(before.size() == after.size());
    const uint64_t at = tma.objects[record].transform_offset;
    for (size_t i = 0; i < before.size(); ++i)
        if (before[i] != after[i])
            BOOST_TEST((i >= at && i < at + 36), "byte " << i << " outside the record's transform");
    const mission::Mission moved = mission::read(after, ReadMode::Strict, "moved.tma");
    const mission::PlacedObject& o = moved.objects[record];
    BOOST_TEST(o.position.x == tma.objects[record].position.x + 7.5f);
    BOOST_TEST(o.position.y == tma.objects[record].position.y);
    BOOST_TEST(std::abs(std::remainder(double(o.rotation.z) - 0.7, 2 * M_PI)) < 1e-6);
    BOOST_TEST(o.scale.x == 1.75f);
    BOOST_TEST(o.scale.z == 1.75f);
}

BOOST_AUTO_TEST_CASE(an_object_moved_in_the_obj_changes_its_position) {
    mshconv::MemoryIo io = corpus_in_memory();
    const std::string m = missions().front();
    const mission::Mission tma = mission::read(io.at(m), ReadMode::Strict, m);
    mshconv::convert({m, "level-out/moved.obj"}, io);
    const std::vector<uint8_t>& bytes = io.at("level-out/moved.obj");
    std::string text(bytes.begin(), bytes.end());
    size_t record = 0;
    while (!mission::is_scenery(tma.objects[record].kind)) ++record;
    // Every vertex of the object's OBJ object moves 7.5 along x (the game's x too).
    const std::string name = mapping::object_node_name(tma.objects[record], record);
    size_t at = text.find("\no " + name + "\n");
    BOOST_TEST_REQUIRE(at != std::string::npos, name);
    at += 4 + name.size();
    const size_t end = text.find("\no ", at);
    std::string moved = text.substr(0, at);
    size_t shifted = 0;
    for (size_t line = at; line < end;) {
        const size_t nl = text.find('\n', line);
        std::string l = text.substr(line, nl + 1 - line);
        if (l.starts_with("v ")) {
            float x = 0, y = 0, z = 0;
            BOOST_TEST_REQUIRE(std::sscanf(l.c_str(), "v %f %f %f", &x, &y, &z) == 3);
            char buf[96];
            std::snprintf(buf, sizeof buf, "v %.9g %.9g %.9g\n", double(x + 7.5f), double(y),
                          double(z));
            l = buf;
            ++shifted;
        }
        moved += l;
        line = nl + 1;
    }
    moved += text.substr(end);
    BOOST_TEST(shifted >= 3u);
    io.put("level-out/moved.obj", std::vector<uint8_t>(moved.begin(), moved.end()));
    mshconv::convert({"level-out/moved.obj", "level-back/moved_obj.tma"}, io);
    const std::vector<uint8_t>& after = io.at("level-back/moved_obj.tma");
    const mission::Mission back = mission::read(after, ReadMode::Strict, "moved_obj.tma");
    BOOST_TEST(std::abs(back.objects[record].position.x - tma.objects[record].position.x - 7.5f) <
               1e-3f);
    BOOST_TEST(back.objects[record].rotation.z == tma.objects[record].rotation.z);
    const std::vector<uint8_t>& before = io.at(m);
    const uint64_t t = tma.objects[record].transform_offset;
    for (size_t i = 0; i < before.size(); ++i)
        if (before[i] != after[i])
            BOOST_TEST((i >= t && i < t + 12), "byte " << i << " outside the record's position");
}

// A damaged level OBJ: refused at the line at fault as an mshconv::Error, nothing written.
BOOST_AUTO_TEST_CASE(a_damaged_level_obj_is_refused_at_its_line) {
    mshconv::MemoryIo io = corpus_in_memory();
    const std::string m = missions().front();
    const mission::Mission tma = mission::read(io.at(m), ReadMode::Strict, m);
    mshconv::convert({m, "level-out/edit.obj"}, io);
    const std::vector<uint8_t>& bytes = io.at("level-out/edit.obj");
    const std::string text(bytes.begin(), bytes.end());
    const std::string name = mapping::object_node_name(tma.objects[0], 0);
    const size_t object_at = text.find("\no " + name + "\n") + 1;
    BOOST_TEST_REQUIRE(object_at != 0u, name);
    const auto line_of = [&](size_t offset) {
        return uint64_t(std::count(text.begin(), text.begin() + std::ptrdiff_t(offset), '\n')) + 1;
    };
    const size_t vertex_at = text.find("\nv ", object_at) + 1;

    auto refused_at = [&](uint64_t line, const std::string& what, size_t from, size_t to,
                          const std::string& with) {
        std::string edited = text;
        edited.replace(from, to - from, with);
        io.put("level-out/edit.obj", std::vector<uint8_t>(edited.begin(), edited.end()));
        std::optional<uint64_t> found;
        std::string message;
        try {
            mshconv::convert({"level-out/edit.obj", "level-back/edit.tma"}, io);
        } catch (const mshconv::Error& e) {
            found = e.place().line;
            message = e.what();
        }
        BOOST_TEST(found.value_or(0) == line, what << ": " << message);
        BOOST_TEST(message.find(what) != std::string::npos, message);
        BOOST_TEST(!io.is_file("level-back/edit.tma"), what << ": an output was written");
    };
    // A vertex that is no number (it was read as 0 before).
    refused_at(line_of(vertex_at), "'abc' is not a number", vertex_at,
               text.find(' ', vertex_at + 2), "v abc");
    // A record number past any record: an added object, at its `o` line.
    refused_at(line_of(object_at), "an added object", object_at, text.find('\n', object_at),
               "o " + name.substr(0, name.rfind('#')) + "#99999999999999999999999");
}

BOOST_AUTO_TEST_CASE(what_the_game_cannot_express_is_refused) {
    mshconv::MemoryIo io = corpus_in_memory();
    const std::string m = missions().front();
    const mission::Mission tma = mission::read(io.at(m), ReadMode::Strict, m);
    mshconv::convert({m, "level-out/edit.glb"}, io);
    const std::vector<uint8_t> glb = io.at("level-out/edit.glb");
    const json original = glb_json(glb);
    const std::map<size_t, size_t> nodes = object_nodes(original);
    size_t scenery = 0, building = 0;
    while (!mission::is_scenery(tma.objects[scenery].kind)) ++scenery;
    while (tma.objects[building].kind != 0) ++building;

    auto refused = [&](const std::string& what, const std::function<void(json&)>& edit) {
        json doc = original;
        edit(doc);
        io.put("level-out/edit.glb", with_json(glb, doc));
        const std::string error = convert_error(io, "level-out/edit.glb", "level-back/edit.tma");
        BOOST_TEST(error.find(what) != std::string::npos, what << ": " << error);
        BOOST_TEST(!io.is_file("level-back/edit.tma"), what << ": an output was written");
    };
    refused("a tilt about x or y", [&](json& d) {
        d["nodes"][nodes.at(scenery)]["rotation"] = {std::sin(0.2), 0, 0, std::cos(0.2)};
    });
    refused("a non-uniform scale", [&](json& d) {
        d["nodes"][nodes.at(scenery)]["scale"] = {1, 2, 1};
    });
    refused("a scale on a building", [&](json& d) {
        d["nodes"][nodes.at(building)]["scale"] = {2, 2, 2};
    });
    refused("an added object", [&](json& d) {
        json copy = d["nodes"][nodes.at(scenery)];
        copy.erase("children");
        copy["name"] = "copy";
        d["nodes"].push_back(copy);
        for (json& n : d["nodes"])
            if (n.value("name", "") == "Objects") n["children"].push_back(d["nodes"].size() - 1);
    });
    refused("was deleted", [&](json& d) {
        for (json& n : d["nodes"])
            if (n.value("name", "") == "Objects") {
                json kept = json::array();
                for (const json& c : n["children"])
                    if (c.get<size_t>() != nodes.at(scenery)) kept.push_back(c);
                n["children"] = kept;
            }
        d["nodes"][nodes.at(scenery)]["extras"].erase(mapping::kLevelExtras);
    });
}

// A level document another tool damaged: every value the import reads is refused at its JSON
// pointer as an mshconv::Error, with nothing written; a parent chain as long as the file is read
// without recursion.
BOOST_AUTO_TEST_CASE(a_damaged_level_document_is_refused_at_its_pointer) {
    mshconv::MemoryIo io = corpus_in_memory();
    const std::string m = missions().front();
    mshconv::convert({m, "level-out/edit.glb"}, io);
    const std::vector<uint8_t> glb = io.at("level-out/edit.glb");
    const json original = glb_json(glb);
    const size_t object = object_nodes(original).begin()->second;
    const std::string at = "/nodes/" + std::to_string(object);

    auto refused_at = [&](const std::string& pointer, const std::function<void(json&)>& edit) {
        json doc = original;
        edit(doc);
        io.put("level-out/edit.glb", with_json(glb, doc));
        std::optional<std::string> found;
        try {
            mshconv::convert({"level-out/edit.glb", "level-back/edit.tma"}, io);
        } catch (const mshconv::Error& e) {
            found = e.place().pointer.value_or("(no pointer) " + std::string(e.what()));
        }
        BOOST_TEST(found.value_or("(accepted)") == pointer);
        BOOST_TEST(!io.is_file("level-back/edit.tma"), pointer << ": an output was written");
    };
    refused_at(at, [&](json& d) { d["nodes"][object] = 5; });
    refused_at(at + "/name", [&](json& d) { d["nodes"][object]["name"] = 7; });
    refused_at(at + "/translation/1", [&](json& d) {
        d["nodes"][object]["translation"] = {0, "x", 0};
    });
    refused_at(at + "/rotation", [&](json& d) { d["nodes"][object]["rotation"] = {0, 0, 1}; });
    refused_at(at + "/matrix", [&](json& d) { d["nodes"][object]["matrix"] = json::array(); });
    refused_at(at + "/extras/" + std::string(mapping::kLevelExtras) + "/record", [&](json& d) {
        d["nodes"][object]["extras"][mapping::kLevelExtras]["record"] = "1";
    });
    refused_at("/nodes", [&](json& d) { d["nodes"] = json::object(); });

    // `Objects` 100,000 groups down (each object's chain of parents that long): unchanged.
    json doc = original;
    size_t objects_root = 0;
    while (doc["nodes"][objects_root].value("name", "") != "Objects") ++objects_root;
    for (size_t k = 0; k < 100000; ++k) {
        const size_t next = k + 1 < 100000 ? doc["nodes"].size() + 1 : objects_root;
        doc["nodes"].push_back({{"name", "group"}, {"children", {next}}});
    }
    io.put("level-out/edit.glb", with_json(glb, doc));
    mshconv::convert({"level-out/edit.glb", "level-back/edit.tma"}, io);
    BOOST_TEST((io.at("level-back/edit.tma") == io.at(m)));
}

// The level sidecar: the text an earlier release wrote (nlohmann's two-space dump in the record's
// own order) still imports byte for byte, and a damaged one is refused at its JSON pointer with
// nothing written.
BOOST_AUTO_TEST_CASE(level_sidecars_are_checked_and_older_text_still_imports) {
    mshconv::MemoryIo io = corpus_in_memory();
    const std::string m = missions().front();
    mshconv::convert({m, "level-out/s.glb"}, io);
    const std::vector<uint8_t> written = io.at("level-out/s.sidecar.json");
    const json doc = json::parse(written.begin(), written.end());
    BOOST_TEST(doc["kind"] == "level");
    auto put = [&](const std::string& text) {
        io.put("level-out/s.sidecar.json", std::vector<uint8_t>(text.begin(), text.end()));
    };
    nlohmann::ordered_json older;
    older["schema"] = doc["schema"];
    older["kind"] = doc["kind"];
    older["export"] = {{"source", doc["export"]["source"]},
                       {"output", doc["export"]["output"]},
                       {"format", doc["export"]["format"]},
                       {"pair", doc["export"]["pair"]},
                       {"readings", doc["export"]["readings"]}};
    older["data_tma"] = {{"size", doc["data_tma"]["size"]},
                         {"xxh3_64", doc["data_tma"]["xxh3_64"]},
                         {"base64", doc["data_tma"]["base64"]}};
    put(older.dump(2) + "\n");
    mshconv::convert({"level-out/s.glb", "level-back/older.tma"}, io);
    BOOST_TEST(io.at("level-back/older.tma") == io.at(m));

    auto refused = [&](const std::string& pointer, const std::function<void(json&)>& edit) {
        json d = doc;
        edit(d);
        put(d.dump(1));
        const std::string error = convert_error(io, "level-out/s.glb", "level-back/bad.tma");
        BOOST_TEST(error.find("at " + pointer) != std::string::npos, pointer << ": " << error);
        BOOST_TEST(!io.is_file("level-back/bad.tma"), pointer << ": an output was written");
    };
    refused("/schema", [](json& d) { d["schema"] = "mshconv-sidecar/9"; });
    refused("/export/pair", [](json& d) { d["export"].erase("pair"); });
    refused("/data_tma/size", [](json& d) { d["data_tma"]["size"] = 1; });
    refused("/data_tma/xxh3_64", [](json& d) {
        std::string b64 = d["data_tma"]["base64"];
        b64[8] = b64[8] == 'A' ? 'B' : 'A';
        d["data_tma"]["base64"] = b64;
    });
    refused("/data_tma/base64", [](json& d) { d["data_tma"]["base64"] = "not base64!"; });
    // Cut short: where the text breaks.
    const std::string text(written.begin(), written.end());
    put(text.substr(0, text.size() / 2));
    const std::string error = convert_error(io, "level-out/s.glb", "level-back/bad.tma");
    BOOST_TEST(error.find("s.sidecar.json") != std::string::npos, error);
    BOOST_TEST(error.find("line") != std::string::npos, error);
    BOOST_TEST(!io.is_file("level-back/bad.tma"));
    // Another kind of sidecar, or none: a data.tma comes only from a level export.
    put(R"({"kind": "terrain", "schema": "mshconv-sidecar/2"})");
    const std::string other = convert_error(io, "level-out/s.glb", "level-back/bad.tma");
    BOOST_TEST(other.find("not a level sidecar") != std::string::npos, other);
    mshconv::MemoryIo lone;
    lone.put("lone/s.glb", io.at("level-out/s.glb"));
    const std::string none = convert_error(lone, "lone/s.glb", "lone/bad.tma");
    BOOST_TEST(none.find("found none") != std::string::npos, none);
    BOOST_TEST(!lone.is_file("lone/bad.tma"));
}

BOOST_AUTO_TEST_CASE(info_and_validate_know_the_level_files) {
    mshconv::MemoryIo io = corpus_in_memory();
    size_t checked = 0;
    for (const auto& f : test::corpus()) {
        const ContentKind kind = sniff(f.bytes, {f.relative_path, std::nullopt});
        if (kind != ContentKind::Mission && kind != ContentKind::Assembly &&
            !f.relative_path.ends_with("objects.rlb"))
            continue;
        ++checked;
        const mshconv::Info info = mshconv::info(f.relative_path, io);
        if (kind == ContentKind::Mission) {
            BOOST_TEST_REQUIRE(info.mission.has_value(), f.relative_path);
            const mission::Mission m = mission::read(f.bytes, ReadMode::Strict, f.relative_path);
            BOOST_TEST(info.mission->objects == m.objects.size());
        }
        if (kind == ContentKind::Assembly) BOOST_TEST(info.assembly.has_value(), f.relative_path);
        if (f.relative_path.ends_with("objects.rlb")) BOOST_TEST(info.registry.has_value());
        const mshconv::Validation v = mshconv::validate({f.relative_path, true}, io);
        BOOST_TEST(v.valid, f.relative_path << ": " << mshconv::to_json(v));
        if (kind == ContentKind::Mission) BOOST_TEST(v.counts.at("references") > 1u);
    }
    BOOST_TEST(checked >= 6u);

    // A reference that does not resolve is a finding naming the object.
    const std::string m = missions().front();
    mission::Mission broken = mission::read(io.at(m), ReadMode::Strict, m);
    size_t scenery = 0;
    while (!mission::is_scenery(broken.objects[scenery].kind)) ++scenery;
    broken.objects[scenery].path = "no_such_key";
    io.put("MISSIONS/Broken.01/data.tma", mission::write(broken));
    const mshconv::Validation v = mshconv::validate({"MISSIONS/Broken.01/data.tma", false}, io);
    BOOST_TEST(!v.valid);
    BOOST_TEST(mshconv::to_json(v).find("no_such_key") != std::string::npos, mshconv::to_json(v));
}

BOOST_AUTO_TEST_CASE(a_level_previews_and_views) {
    mshconv::MemoryIo io = corpus_in_memory();
    const std::string m = missions().front();
    const mission::Mission tma = mission::read(io.at(m), ReadMode::Strict, m);
    mshconv::PreviewRequest request{m};
    request.options.width = request.options.height = 128;
    const mshconv::Preview top = mshconv::preview(request, io);
    BOOST_TEST((top.kind == mshconv::PreviewKind::Level));
    BOOST_TEST(top.png.size() > 1000u);
    const json meta = json::parse(top.metadata_json);
    BOOST_TEST(meta["facts"]["objects"].get<size_t>() == tma.objects.size(), top.metadata_json);
    BOOST_TEST(meta["facts"]["unresolved"].get<size_t>() == 0u);
    request.options.view = mshconv::PreviewView::Iso;
    BOOST_TEST((mshconv::preview(request, io).png != top.png));
    if (mshconv::viewer_built()) {
        const mshconv::ViewPage page = mshconv::view_page(request, io);
        BOOST_TEST((page.kind == mshconv::PreviewKind::Level));
        BOOST_TEST(page.html.find("\"kind\":\"level\"") != std::string::npos);
    }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace level_export_tests
