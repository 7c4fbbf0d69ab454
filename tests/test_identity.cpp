// Identity as typed fields (scene/identity.hpp) and its glTF form at the edge
// (formats/gltf_identity.hpp): written into extras and read back out of them; a foreign file's key
// of another type stays in its extras, and an unreadable LOD fails where it is used; STEP
// samplers mark their channels.
#include "fixtures.hpp"

#include "formats/diagnostics.hpp"
#include "formats/gltf.hpp"
#include "mapping/model_to_scene.hpp"
#include "scene/merge_animations.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/portable_address.hpp"

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <string>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace identity_tests {

using namespace msh;

namespace {

scene::Scene read_text(const std::string& text) {
    DiagnosticSink warnings(ReadMode::Tolerant);
    return gltf::read_gltf_text(Bytes(text.begin(), text.end()), "t.gltf", warnings);
}

// The JSON chunk of a GLB.
nlohmann::json glb_json(const Bytes& glb) {
    uint32_t length = 0;
    std::memcpy(&length, glb.data() + 12, 4);
    return nlohmann::json::parse(glb.begin() + 20, glb.begin() + 20 + length);
}

} // namespace

BOOST_AUTO_TEST_SUITE(identity)

BOOST_AUTO_TEST_CASE(identity_goes_into_the_extras_and_back) {
    Model m = test::make_minimal_model();
    m.slots.push_back(m.slots[1]); // a lod 1 / group 4 slot for node 1
    m.nodes[1].slots[size_t(1 * kGroups + 4)] = uint16_t(m.slots.size() - 1);
    mapping::ExportOptions opt;
    opt.lod = mapping::kAll;
    opt.group = mapping::kAll;
    scene::Scene sc = mapping::model_to_scene(m, opt);
    sc.identity.pair = "0123456789abcdef";
    sc.nodes[0].extras = {{"note", "kept"}};
    BOOST_TEST_REQUIRE(sc.nodes.size() == 3u);

    const Bytes glb = gltf::encode(sc, true, "x.glb").document;
    const nlohmann::json doc = glb_json(glb);
    BOOST_TEST(doc["nodes"][0]["extras"] == (nlohmann::json{{"index", 0},
                                                            {"flags", m.nodes[0].flags},
                                                            {"parent", m.nodes[0].parent},
                                                            {"map_start", m.nodes[0].map_start},
                                                            {"fallback_key", 0},
                                                            {"note", "kept"}}));
    BOOST_TEST(doc["nodes"][2]["extras"] ==
               (nlohmann::json{{"lod", 1}, {"group", 4}, {"slot", m.slots.size() - 1}}));
    BOOST_TEST(doc["materials"][0]["extras"] == (nlohmann::json{{"wear_row", 0}}));
    BOOST_TEST(doc["scenes"][0]["extras"]["mshconv"]["pair"] == "0123456789abcdef");

    DiagnosticSink warnings(ReadMode::Tolerant);
    const scene::Scene back = gltf::read_glb(glb, "x.glb", warnings);
    BOOST_TEST_REQUIRE(back.nodes.size() == sc.nodes.size());
    for (size_t i = 0; i < sc.nodes.size(); ++i) {
        BOOST_TEST((back.nodes[i].identity == sc.nodes[i].identity), "node " << i);
        BOOST_TEST(back.nodes[i].extras == sc.nodes[i].extras, "node " << i);
    }
    BOOST_TEST_REQUIRE(back.meshes.size() == sc.meshes.size());
    for (size_t i = 0; i < sc.meshes.size(); ++i) {
        BOOST_TEST((back.meshes[i].identity == sc.meshes[i].identity), "mesh " << i);
        BOOST_TEST(back.meshes[i].extras.is_null());
    }
    BOOST_TEST_REQUIRE(back.materials.size() == sc.materials.size());
    for (size_t i = 0; i < sc.materials.size(); ++i)
        BOOST_TEST((back.materials[i].identity == sc.materials[i].identity), "material " << i);
    BOOST_TEST((back.identity == sc.identity));
    BOOST_TEST(back.extras == sc.extras); // the rest of `mshconv` stays free-form
}

// A foreign file's identity keys of other types: what the importers accept is taken, the rest
// stays in the extras; a LOD of no number type fails as a JSON conversion fails, where it is used.
BOOST_AUTO_TEST_CASE(identity_keys_of_other_types_stay_in_the_extras) {
    const scene::Scene sc = read_text(R"({"asset":{"version":"2.0"},"scene":0,
        "scenes":[{"nodes":[0, 1],"extras":{"mshconv":{"pair":7}}}],
        "nodes":[{"name":"a","extras":{"index":2.5,"lod":"1","group":true,"note":"x"}},
                 {"name":"b","extras":{"index":3,"lod":1.5}}],
        "materials":[{"name":"m","extras":{"wear_row":1.5,"lightmap_row":2}}]})");
    BOOST_TEST_REQUIRE(sc.nodes.size() == 2u);
    const scene::NodeIdentity& a = sc.nodes[0].identity;
    BOOST_TEST(!a.index);
    BOOST_TEST(sc.nodes[0].extras == (nlohmann::json{{"index", 2.5}, {"note", "x"}}));
    BOOST_TEST_REQUIRE(a.lod.has_value());
    BOOST_CHECK_EXCEPTION(a.lod->get(), nlohmann::json::type_error,
                          [](const nlohmann::json::type_error& e) {
                              return std::string(e.what()) == "[json.exception.type_error.302] "
                                                              "type must be number, but is string";
                          });
    BOOST_TEST(a.group.value().get() == 1);
    const scene::NodeIdentity& b = sc.nodes[1].identity;
    BOOST_TEST(b.index.value_or(-1) == 3);
    BOOST_TEST(b.lod.value().get() == 1);
    BOOST_TEST(sc.nodes[1].extras.is_null());
    BOOST_TEST(!sc.materials.at(0).identity.wear_row);
    BOOST_TEST(sc.materials[0].identity.lightmap_row.value_or(-1) == 2);
    BOOST_TEST(sc.materials[0].extras == (nlohmann::json{{"wear_row", 1.5}}));
    BOOST_TEST(!sc.identity.pair);
    BOOST_TEST(sc.extras == (nlohmann::json{{"mshconv", {{"pair", 7}}}}));
}

// A STEP sampler marks its channel; the mark stays with the channel when another scene's nodes
// are dropped and when animations are merged.
BOOST_AUTO_TEST_CASE(step_samplers_mark_their_channels) {
    scene::Scene s;
    for (const char* name : {"gone", "kept"}) {
        scene::Node n;
        n.name = name;
        s.nodes.push_back(n);
    }
    scene::Animation an;
    an.name = "a";
    for (int node : {0, 1})
        an.channels.push_back({node, scene::Path::Translation, {0, 1}, {0, 0, 0, 1, 2, 3}});
    s.animations.push_back(an);
    const gltf::Encoded e = gltf::encode(s, false, "x.gltf");
    nlohmann::json doc = nlohmann::json::parse(e.document.begin(), e.document.end());
    doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + sidecar::to_base64(e.bin);
    const int sampler = doc["animations"][0]["channels"][1]["sampler"];
    doc["animations"][0]["samplers"][size_t(sampler)]["interpolation"] = "STEP";
    BOOST_TEST_REQUIRE(doc["animations"][0]["channels"][1]["target"]["node"] == 1);

    const scene::Scene one = read_text(doc.dump());
    BOOST_TEST_REQUIRE(one.animations.at(0).channels.size() == 2u);
    BOOST_TEST(!one.animations[0].channels[0].step);
    BOOST_TEST(one.animations[0].channels[1].step);

    // Scene 0 shows node 1 only: node 0 and its channel go, the STEP channel becomes channel 0.
    doc["scenes"] = nlohmann::json::array({{{"nodes", {1}}}, {{"nodes", {0}}}});
    doc["scene"] = 0;
    scene::Scene two = read_text(doc.dump());
    BOOST_TEST_REQUIRE(two.nodes.size() == 1u);
    BOOST_TEST_REQUIRE(two.animations.at(0).channels.size() == 1u);
    BOOST_TEST(two.animations[0].channels[0].node == 0);
    BOOST_TEST(two.animations[0].channels[0].step);

    scene::Scene merged = one;
    merged.animations.push_back(scene::Animation{"b", {}, nullptr});
    scene::merge_animations(merged);
    BOOST_TEST_REQUIRE(merged.animations.size() == 1u);
    BOOST_TEST(!merged.animations[0].channels.at(0).step);
    BOOST_TEST(merged.animations[0].channels.at(1).step);
}

// Outputs record addresses without the folders of their file, so that they do not depend on where
// the input lies.
BOOST_AUTO_TEST_CASE(recorded_addresses_hold_no_folders) {
    using sidecar::portable_address;
    BOOST_TEST(portable_address("/home/x/game/static.rlb:TANK.msh") == "static.rlb:TANK.msh");
    BOOST_TEST(portable_address("game/DATA/MAPS/SynTut1/Land.msh") == "Land.msh");
    BOOST_TEST(portable_address("C:\\Games\\Parkan\\static.rlb:TANK.msh") == "static.rlb:TANK.msh");
    BOOST_TEST(portable_address("C:/Games/Land.map") == "Land.map");
    BOOST_TEST(portable_address("/g/a.rlb:inner.rlb:TANK.msh") == "a.rlb:inner.rlb:TANK.msh");
    // Entry names may hold separators; a bare name stays as it is.
    BOOST_TEST(portable_address("/g/static.rlb:dir\\TANK.msh") == "static.rlb:dir\\TANK.msh");
    BOOST_TEST(portable_address("static.rlb:a/b.msh") == "static.rlb:a/b.msh");
    BOOST_TEST(portable_address("Textures.lib") == "Textures.lib");
    BOOST_TEST(portable_address("") == "");
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace identity_tests
