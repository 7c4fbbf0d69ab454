// The direct glTF writer (formats/gltf.cpp) against the tinygltf writer it replaced
// (bench/gltf_legacy_writer.cpp): over every corpus model in every export variant (default,
// --lod all, --group all, both, --skin, --skin with all slots, --msft-lod, textured with the
// corpus libraries) and every generated level (terrain with the ArealMap overlay, with and without
// its filled polygons), as .glb and as .gltf + .bin, the documents parse to the same JSON, the
// binary buffers are byte-identical and the image files are the same. Also the JSON writer on its
// own: escaping, UTF-8 checks, number forms, layout.
#include "bench/gltf_legacy_writer.hpp"
#include "corpus.hpp"

#include "formats/arealmap.hpp"
#include "formats/gltf.hpp"
#include "formats/gltf_json.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "formats/terrain.hpp"
#include "formats/wear.hpp"
#include "mapping/materials.hpp"
#include "mapping/model_to_scene.hpp"
#include "mapping/skin.hpp"
#include "mapping/terrain_to_scene.hpp"
#include "samples/terrain_gen.hpp"
#include "samples/textures_gen.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace gltf_writer_tests {

using namespace msh;

namespace {

struct Glb {
    nlohmann::json json;
    Bytes bin;
    bool has_bin = false;
};

// Splits a GLB, checking the header and chunk framing on the way.
Glb split_glb(const Bytes& b) {
    Glb g;
    BOOST_REQUIRE(b.size() >= 20);
    BOOST_REQUIRE(std::memcmp(b.data(), "glTF", 4) == 0);
    BOOST_TEST(load<uint32_t>(b.data() + 4) == 2u);
    BOOST_TEST(load<uint32_t>(b.data() + 8) == b.size());
    const uint32_t json_len = load<uint32_t>(b.data() + 12);
    BOOST_TEST(json_len % 4 == 0u);
    BOOST_REQUIRE(std::memcmp(b.data() + 16, "JSON", 4) == 0);
    BOOST_REQUIRE(20 + size_t(json_len) <= b.size());
    g.json = nlohmann::json::parse(b.begin() + 20, b.begin() + 20 + json_len);
    size_t at = 20 + json_len;
    if (at < b.size()) {
        BOOST_REQUIRE(at + 8 <= b.size());
        const uint32_t bin_len = load<uint32_t>(b.data() + at);
        BOOST_TEST(bin_len % 4 == 0u);
        BOOST_REQUIRE(std::memcmp(b.data() + at + 4, "BIN\0", 4) == 0);
        BOOST_REQUIRE(at + 8 + bin_len == b.size());
        g.bin.assign(b.begin() + long(at) + 8, b.end());
        g.has_bin = true;
    }
    return g;
}

// What tinygltf's Value -> JSON step (its RapidJSON backend, formats/tinygltf.hpp) does to
// extras, its only deviation from the scene: null members and elements vanish. The direct writer
// keeps extras as they are; the comparison applies that rule to its extras first.
std::optional<nlohmann::json> tinygltf_value(const nlohmann::json& v) {
    if (v.is_null()) return std::nullopt;
    if (!v.is_structured()) return v;
    nlohmann::json out = v.is_array() ? nlohmann::json::array() : nlohmann::json::object();
    for (auto it = v.begin(); it != v.end(); ++it)
        if (auto e = tinygltf_value(it.value())) {
            if (v.is_array())
                out.push_back(std::move(*e));
            else
                out[it.key()] = std::move(*e);
        }
    return out;
}

size_t normalised = 0; // extras the rule above changed

void normalise_extras(nlohmann::json& doc) {
    if (doc.is_array())
        for (nlohmann::json& e : doc) normalise_extras(e);
    if (!doc.is_object()) return;
    for (auto it = doc.begin(); it != doc.end();) {
        if (it.key() != "extras") {
            normalise_extras(it.value());
            ++it;
            continue;
        }
        std::optional<nlohmann::json> v = tinygltf_value(it.value());
        if (v != std::optional<nlohmann::json>(it.value())) ++normalised;
        if (!v) {
            it = doc.erase(it);
            continue;
        }
        it.value() = std::move(*v);
        ++it;
    }
}

void same_json(nlohmann::json ours, const nlohmann::json& reference) {
    normalise_extras(ours);
    BOOST_TEST((ours == reference),
               "JSON differs from the tinygltf writer: "
                   << nlohmann::json::diff(reference, ours).dump().substr(0, 2000));
}

size_t compared = 0;

// Both writers, both containers; everything must agree.
void check_scene(const scene::Scene& sc, const std::string& what) {
    BOOST_TEST_CONTEXT(what) {
        {
            const gltf::Encoded ours = gltf::encode(sc, true, "out.glb");
            const gltf::Encoded ref = test::legacy_gltf::encode(sc, true, "out.glb");
            BOOST_TEST(ours.bin.empty());
            BOOST_TEST(ours.bin_name.empty());
            BOOST_TEST(ours.images.empty());
            const Glb a = split_glb(ours.document), b = split_glb(ref.document);
            same_json(a.json, b.json);
            BOOST_TEST(a.has_bin == b.has_bin);
            BOOST_TEST((a.bin == b.bin), "GLB BIN chunks differ");
            BOOST_TEST(ours.document.size() <= ref.document.size() + 64);
            // Encoded in pieces (the binary chunk left in the scene's arrays): the same file.
            const gltf::Encoded pieces = gltf::encode(sc, true, "out.glb", gltf::Assembly::Pieces);
            Bytes joined = pieces.document;
            for (const ByteView p : pieces.tail) joined.insert(joined.end(), p.begin(), p.end());
            BOOST_TEST((joined == ours.document), "GLB in pieces differs from the whole GLB");
            BOOST_TEST(pieces.tail.empty() == !a.has_bin);
        }
        {
            const gltf::Encoded ours = gltf::encode(sc, false, "dir/out.gltf");
            const gltf::Encoded ref = test::legacy_gltf::encode(sc, false, "dir/out.gltf");
            same_json(nlohmann::json::parse(ours.document), nlohmann::json::parse(ref.document));
            BOOST_TEST(ours.document.back() == '\n');
            BOOST_TEST(ours.bin_name == ref.bin_name);
            BOOST_TEST((ours.bin == ref.bin), ".bin buffers differ");
            BOOST_REQUIRE(ours.images.size() == ref.images.size());
            for (size_t i = 0; i < ours.images.size(); ++i) {
                BOOST_TEST(ours.images[i].name == ref.images[i].name);
                BOOST_TEST((ours.images[i].png == ref.images[i].png));
            }
        }
        ++compared;
    }
}

const nres::Archive* corpus_archive(const std::string& relative_path) {
    static std::map<std::string, nres::Archive> cache;
    if (auto it = cache.find(relative_path); it != cache.end()) return &it->second;
    for (const auto& f : test::corpus())
        if (f.relative_path == relative_path)
            return &cache
                        .emplace(relative_path,
                                 nres::read(f.bytes, ReadMode::Strict, f.relative_path))
                        .first->second;
    return nullptr;
}

const Bytes* corpus_file(const std::string& relative_path) {
    for (const auto& f : test::corpus())
        if (f.relative_path == relative_path) return &f.bytes;
    return nullptr;
}

std::string stem(const std::string& name) {
    const auto dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

std::vector<std::string> wear_rows(const nres::Archive& ar, const std::string& model_name) {
    if (auto i = ar.find(stem(model_name) + ".wea"))
        return wear::material_names(wear::read(ar.entries[*i].data, model_name));
    return {};
}

} // namespace

BOOST_AUTO_TEST_SUITE(gltf_writer)

BOOST_AUTO_TEST_CASE(json_writer_strings_and_layout) {
    Bytes out;
    gltf::JsonWriter j(out, false);
    j.begin_object()
        .escaped_key("q\"b\\")
        .string(std::string("a\x01\n\t\x1f\x7f/\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 16))
        .key("e")
        .begin_array()
        .end_array()
        .key("o")
        .begin_object()
        .end_object()
        .end_object();
    j.finish();
    const std::string text(out.begin(), out.end());
    BOOST_TEST(text == "{\"q\\\"b\\\\\":\"a\\u0001\\n\\t\\u001f\x7f/\xc3\xa9\xe2\x82\xac\xf0\x9f"
                       "\x98\x80\",\"e\":[],\"o\":{}}");
    const nlohmann::json back = nlohmann::json::parse(text);
    BOOST_TEST(back["q\"b\\"].get<std::string>() ==
               std::string("a\x01\n\t\x1f\x7f/\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 16));

    // Invalid UTF-8 throws (as nlohmann's dump does): lone continuation, overlong, surrogate,
    // truncated sequence, beyond U+10FFFF.
    for (const std::string bad :
         {"\x80", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x82", "\xf4\x90\x80\x80", "\xff"}) {
        Bytes o;
        gltf::JsonWriter w(o, false);
        BOOST_CHECK_THROW(w.string(bad), std::invalid_argument);
    }

    // Without floating-point numbers, the indented layout is exactly nlohmann's dump(1).
    const nlohmann::json sample = {{"name", "x"},
                                   {"list", {1, -2, 3000000000u, "s", true, nullptr}},
                                   {"empty", nlohmann::json::array()},
                                   {"obj", {{"a", {{"b", nlohmann::json::object()}}}}}};
    Bytes pretty;
    gltf::JsonWriter(pretty, true).value(sample);
    BOOST_TEST(std::string(pretty.begin(), pretty.end()) == sample.dump(1));
    Bytes compact;
    gltf::JsonWriter(compact, false).value(sample);
    BOOST_TEST(std::string(compact.begin(), compact.end()) == sample.dump());
}

BOOST_AUTO_TEST_CASE(json_writer_numbers_read_back_exactly) {
    const double values[] = {0.0,
                             -0.0,
                             1.0,
                             24.0,
                             -3.0,
                             double(0.1f),
                             double(0.2f),
                             double(-1.5e-7f),
                             double(3.4028235e38f),
                             double(1.17549435e-38f),
                             double(1e-45f),
                             1e21,
                             123456789012345678.0,
                             0.1,
                             1.0 / 3.0,
                             std::numeric_limits<double>::max(),
                             std::numeric_limits<double>::denorm_min()};
    for (const double v : values) {
        Bytes out;
        gltf::JsonWriter(out, false).number(v);
        const std::string text(out.begin(), out.end());
        BOOST_TEST_CONTEXT(text) {
            const nlohmann::json back = nlohmann::json::parse(text);
            BOOST_TEST(back.is_number_float()); // never read back as an integer
            BOOST_TEST(back.get<double>() == v);
            BOOST_TEST(std::signbit(back.get<double>()) == std::signbit(v));
            BOOST_TEST(text.size() <= nlohmann::json(v).dump().size());
        }
    }
    for (const double v : {std::nan(""), std::numeric_limits<double>::infinity()}) {
        Bytes out;
        gltf::JsonWriter(out, false).number(v);
        BOOST_TEST(std::string(out.begin(), out.end()) == "null");
    }
    Bytes out;
    gltf::JsonWriter(out, false)
        .begin_array()
        .integer(std::numeric_limits<int64_t>::min())
        .unsigned_integer(std::numeric_limits<uint64_t>::max())
        .end_array();
    BOOST_TEST(std::string(out.begin(), out.end()) ==
               "[-9223372036854775808,18446744073709551615]");
}

BOOST_AUTO_TEST_CASE(every_model_and_variant_matches_the_tinygltf_writer) {
    compared = 0;
    mapping::MaterialLibraries libs;
    libs.materials = *corpus_archive(samples::kMaterialLib);
    libs.textures = *corpus_archive(samples::kTexturesLib);
    size_t models = 0, textured = 0;
    for (const auto& f : test::corpus()) {
        if (!f.relative_path.ends_with(".rlb")) continue;
        const nres::Archive& ar = *corpus_archive(f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (!nres::looks_like_nres(e.data)) continue;
            const Model model = read_model(e.data, ReadMode::Strict, e.name());
            const std::string where = f.relative_path + ":" + e.name();
            const size_t joints = model.legacy_nodes ? 1 : model.nodes.size();
            ++models;
            mapping::ExportOptions opt;
            opt.material_names = wear_rows(ar, e.name());
            check_scene(mapping::model_to_scene(model, opt), where + " default");
            check_scene(mapping::skin_scene(mapping::model_to_scene(model, opt), joints),
                        where + " --skin");
            mapping::ExportOptions all = opt;
            all.lod = all.group = mapping::kAll;
            check_scene(mapping::model_to_scene(model, all), where + " --lod all --group all");
            check_scene(mapping::skin_scene(mapping::model_to_scene(model, all), joints),
                        where + " --skin --lod all --group all");
            mapping::ExportOptions lods = opt;
            lods.lod = mapping::kAll;
            check_scene(mapping::model_to_scene(model, lods), where + " --lod all");
            mapping::ExportOptions groups = opt;
            groups.group = mapping::kAll;
            check_scene(mapping::model_to_scene(model, groups), where + " --group all");
            lods.msft_lod = true;
            check_scene(mapping::model_to_scene(model, lods), where + " --lod all --msft-lod");
            if (opt.material_names.empty()) continue;
            DiagnosticSink warnings(ReadMode::Tolerant);
            const auto resolved = mapping::resolve_materials(opt.material_names, libs, warnings);
            scene::Scene sc = mapping::model_to_scene(model, all);
            if (mapping::apply_materials(sc, resolved) == 0) continue;
            sc.extras["mshconv"]["libraries"] = {{"materials", "Material.lib"},
                                                 {"textures", "Textures.lib"}};
            check_scene(sc, where + " textured");
            ++textured;
        }
    }
    BOOST_TEST(models >= 60u);
    BOOST_TEST(textured >= 10u);
    BOOST_TEST(compared == models * 7 + textured);
}

BOOST_AUTO_TEST_CASE(every_level_matches_the_tinygltf_writer) {
    size_t levels = 0;
    for (const auto& f : test::corpus()) {
        if (!f.relative_path.ends_with("/Land.msh")) continue;
        const std::string dir = f.relative_path.substr(0, f.relative_path.size() - 8);
        const terrain::Terrain t = terrain::read(f.bytes, ReadMode::Strict, f.relative_path);
        const Bytes* map_bytes = corpus_file(dir + "Land.map");
        BOOST_REQUIRE(map_bytes);
        const arealmap::ArealMap areal = arealmap::read(*map_bytes, ReadMode::Strict, dir);
        mapping::TerrainSceneOptions opt;
        for (const auto& [wea, rows] :
             {std::pair{"Land1.wea", &opt.layer1_names}, std::pair{"Land2.wea", &opt.layer2_names}})
            if (const Bytes* w = corpus_file(dir + wea))
                *rows = wear::material_names(wear::read(*w, dir + wea));
        check_scene(mapping::terrain_to_scene(t, &areal, opt), f.relative_path + " with ArealMap");
        opt.areal_faces = false;
        check_scene(mapping::terrain_to_scene(t, &areal, opt), f.relative_path + " outlines only");
        check_scene(mapping::terrain_to_scene(t, nullptr, opt), f.relative_path + " no map");
        ++levels;
    }
    BOOST_TEST(levels >= 6u);
    // The map at the u16 limits (UNSIGNED_INT indices).
    const samples::GeneratedMap g = samples::build_map(samples::map_specs(true).back(), 1998);
    mapping::TerrainSceneOptions opt;
    opt.layer1_names = g.layer1;
    check_scene(mapping::terrain_to_scene(g.terrain, &g.areal_map, opt), "stress map");
}

// Hand-made scenes for what the corpus does not reach: an empty scene (no buffer at all), a mesh
// with 32-bit indices and 16-bit joints, MASK/BLEND materials, shared animation inputs, names
// with characters JSON must escape, extras of every JSON type and identity written into them.
BOOST_AUTO_TEST_CASE(edge_scenes_match_the_tinygltf_writer) {
    scene::Scene empty;
    check_scene(empty, "empty scene");

    scene::Scene s;
    s.extras = {{"text", "tab\there \"quoted\" \\ \xc3\xa9"},
                {"n", -5},
                {"big", 4000000000u},
                {"f", 0.25},
                {"list", {1, 2.5, "x", false}},
                {"nested", {{"k", {{"deep", true}}}}},
                {"empty_list", nlohmann::json::array()},
                {"with_null", {{"a", nullptr}}}};
    scene::Node root;
    root.name = "root \"1\"\n";
    root.translation = {1.5f, -0.1f, 3e-8f};
    root.rotation = {0, 0.70710677f, 0, 0.70710677f};
    root.mesh = 0;
    root.identity.index = 0;
    s.nodes.push_back(root);
    scene::Node child;
    child.name = "child";
    child.parent = 0;
    child.mesh = 1;
    child.skin = 0;
    s.nodes.push_back(child);
    scene::Node lod;
    lod.name = "lod";
    lod.in_scene = false;
    lod.mesh = 1;
    s.nodes.push_back(lod);
    s.nodes[0].lod_ids = {2};
    s.nodes[0].lod_coverage = {0.5f, 0.2f};

    scene::Mesh big;
    big.name = "big";
    big.identity.slot = 3;
    scene::Primitive bp;
    const uint32_t n = 70000;
    bp.attributes["POSITION"].components = 3;
    bp.attributes["TEXCOORD_0"].components = 2;
    for (uint32_t i = 0; i < n; ++i) {
        bp.attributes["POSITION"].data.insert(bp.attributes["POSITION"].data.end(),
                                              {float(i) * 0.5f, -float(i % 7), 0.1f});
        bp.attributes["TEXCOORD_0"].data.insert(bp.attributes["TEXCOORD_0"].data.end(),
                                                {float(i % 3) * 0.3f, 1});
    }
    for (uint32_t i = 0; i + 2 < n; i += 3) bp.indices.insert(bp.indices.end(), {i, i + 1, i + 2});
    bp.material = 0;
    big.primitives.push_back(bp);
    scene::Primitive lines;
    lines.mode = scene::Primitive::Mode::Lines;
    lines.attributes["POSITION"] = {3, {0, 0, 0, 1, 1, 1}};
    lines.indices = {0, 1};
    big.primitives.push_back(lines);
    s.meshes.push_back(big);

    scene::Mesh skinned;
    skinned.name = "skinned";
    scene::Primitive sp;
    sp.attributes["POSITION"] = {3, {0, 0, 0, 1, 0, 0, 0, 1, 0}};
    sp.attributes["JOINTS_0"] = {4, {300, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0}, true};
    sp.attributes["WEIGHTS_0"] = {4, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}};
    sp.indices = {0, 1, 2};
    sp.material = 1;
    skinned.primitives.push_back(sp);
    s.meshes.push_back(skinned);

    scene::Image img{"tex one", {0x89, 'P', 'N', 'G', 1, 2, 3}};
    scene::Material m0;
    m0.name = "masked";
    m0.base_color = img;
    m0.alpha_mode = scene::AlphaMode::Mask;
    m0.alpha_cutoff = 0.25f;
    m0.identity.wear_row = 0;
    s.materials.push_back(m0);
    scene::Material m1 = m0; // no TEXCOORD_0 on its primitive: stays untextured
    m1.name = "";
    s.materials.push_back(m1);
    scene::Material m2 = m0;
    m2.name = "blend";
    m2.alpha_mode = scene::AlphaMode::Blend;
    m2.base_color = scene::Image{"second", {1, 2, 3, 4, 5}};
    s.materials.push_back(m2);
    scene::Material m3 = m0;
    m3.name = "mask default cutoff";
    m3.alpha_cutoff = 0.5f;
    s.materials.push_back(m3);

    scene::Skin skin;
    skin.name = "skin";
    skin.joints = {0, 1};
    skin.inverse_bind.assign(32, 0.0f);
    for (int k = 0; k < 2; ++k)
        for (int d = 0; d < 4; ++d) skin.inverse_bind[size_t(16 * k + 5 * d)] = 1;
    s.skins.push_back(skin);

    scene::Animation an;
    an.name = "timeline";
    an.extras = {{"fps", 24.0}};
    scene::Channel tr{0, scene::Path::Translation, {0, 0.5f, 1}, {0, 0, 0, 1, 2, 3, -1, -2, -3}};
    scene::Channel rot{0, scene::Path::Rotation, {0, 0.5f, 1}, std::vector<float>(12, 0.5f)};
    scene::Channel other{1, scene::Path::Translation, {0, 2}, {0, 0, 0, 1, 1, 1}};
    an.channels = {tr, rot, other};
    s.animations.push_back(an);
    s.animations.push_back(scene::Animation{"empty", {}, nullptr}); // not written
    normalised = 0;
    check_scene(s, "edge scene");
    BOOST_TEST(normalised == 2u); // scene extras, .glb and .gltf: tinygltf dropped the null
    const nlohmann::json doc = split_glb(gltf::encode(s, true, "x.glb").document).json;
    BOOST_TEST(doc["scenes"][0]["extras"] == s.extras); // extras exactly as given

    s.nodes[0].name = "bad \xc0 name";
    BOOST_CHECK_THROW(gltf::encode(s, true, "x.glb"), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace gltf_writer_tests
