// The terrain sidecar's fast paths (part of the terrain_export suite): the table-driven base64
// against RFC 4648 and round trips, the sidecar readers' parse against nlohmann's verdict on
// valid and broken texts, the quick look for a sidecar's kind, a first-layout sidecar read back
// whole, and the text writer (face rows, one line per areal) against the decoded level.
#include "sidecar_edits.hpp"

#include "formats/arealmap.hpp"
#include "formats/diagnostics.hpp"
#include "formats/json_nesting.hpp"
#include "formats/rapidjson.hpp"
#include "formats/terrain.hpp"
#include "samples/terrain_gen.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/json_at.hpp"
#include "sidecar/json_peek.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/payload_hash.hpp"
#include "sidecar/terrain_sidecar.hpp"
#include "sidecar/terrain_sidecar_read.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstring>
#include <random>
#include <string>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace terrain_sidecar_tests {

using namespace msh;
using nlohmann::json;

namespace {

const samples::GeneratedMap& small_map() {
    static const samples::GeneratedMap m = samples::build_map(samples::map_specs(false)[0], 1998);
    return m;
}

std::string sidecar_text_of(const samples::GeneratedMap& m) {
    sidecar::TerrainExportRecord r;
    r.source = "Land.msh";
    r.output = "x.glb";
    r.format = "glb";
    r.map_source = "Land.map";
    r.wear1_rows = m.layer1;
    r.wear2_rows = m.layer2;
    r.lift = 0.5f;
    r.areal_faces = true;
    sidecar::TerrainSidecar s;
    s.record = r;
    s.land_msh = m.land_msh;
    s.land_map = m.land_map;
    s.terrain = std::shared_ptr<const terrain::Terrain>(&m.terrain, [](const terrain::Terrain*) {});
    s.map =
        std::shared_ptr<const arealmap::ArealMap>(&m.areal_map, [](const arealmap::ArealMap*) {});
    return sidecar::terrain_sidecar_text(s);
}

// Whether the sidecar readers' parse takes `text`.
bool reader_accepts(const std::string& text) {
    sidecar::ParsedJson parsed;
    return parsed.try_parse(ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

} // namespace

BOOST_AUTO_TEST_SUITE(terrain_export)

BOOST_AUTO_TEST_CASE(base64_follows_rfc_4648) {
    const std::pair<std::string, std::string> vectors[] = {{"", ""},
                                                           {"f", "Zg=="},
                                                           {"fo", "Zm8="},
                                                           {"foo", "Zm9v"},
                                                           {"foob", "Zm9vYg=="},
                                                           {"fooba", "Zm9vYmE="},
                                                           {"foobar", "Zm9vYmFy"}};
    for (const auto& [plain, encoded] : vectors) {
        const Bytes b(plain.begin(), plain.end());
        BOOST_TEST(sidecar::to_base64(b) == encoded);
        BOOST_TEST((sidecar::from_base64(encoded) == b));
    }
    // Every byte value, every length remainder, random content; the text against RFC 4648 done
    // bit by bit (the encoder takes six bytes at a time: every position in a step is covered).
    auto reference = [](const Bytes& b) {
        static const char* const alphabet =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        std::string t;
        for (size_t bit = 0; bit < 8 * b.size(); bit += 6) {
            uint32_t v = 0;
            for (size_t k = bit; k < bit + 6; ++k)
                v = v << 1 | (k < 8 * b.size() ? (b[k / 8] >> (7 - k % 8)) & 1u : 0u);
            t += alphabet[v];
        }
        while (t.size() % 4) t += '=';
        return t;
    };
    std::mt19937 rng(7);
    for (size_t n = 0; n < 300; ++n) {
        Bytes b(n);
        for (size_t i = 0; i < n; ++i) b[i] = uint8_t(n < 256 && i == 0 ? n : rng());
        const std::string t = sidecar::to_base64(b);
        BOOST_TEST(t == reference(b), "length " << n);
        BOOST_TEST(t.size() == (n + 2) / 3 * 4);
        BOOST_TEST((sidecar::from_base64(t) == b), "length " << n);
    }
    for (const char* bad :
         {"Zg=", "Z===", "====", "Zm9v!A==", "=Zg=", "Zg==Zg==", "Zm 9", "Zm=v", "Zm9v Zg=="})
        BOOST_CHECK_THROW(sidecar::from_base64(bad), std::invalid_argument);
    // Long texts are checked in blocks: a bad character anywhere is found and placed.
    Bytes big(30000);
    for (uint8_t& c : big) c = uint8_t(rng());
    const std::string good = sidecar::to_base64(big);
    BOOST_TEST((sidecar::from_base64(good) == big));
    // Every position of a quad (each has its own decoding table), any byte outside the alphabet
    // (high bytes, NUL, a '=' before the padding) is refused at its offset.
    const std::string short_text = good.substr(0, 40);
    for (size_t at = 0; at < short_text.size(); ++at)
        for (const char outside : {'*', '\x80', '\xff', '\0', '=', '-', '_'}) {
            if (outside == '=' && at + 2 >= short_text.size()) continue; // padding there
            std::string bad = short_text;
            bad[at] = outside;
            try {
                sidecar::from_base64(bad);
                BOOST_TEST(false, "byte " << int(uint8_t(outside)) << " at " << at << " passed");
            } catch (const std::invalid_argument& e) {
                BOOST_TEST(std::string(e.what()) ==
                           "invalid base64 character at " + std::to_string(at));
            }
        }
    for (const size_t at :
         {size_t(0), size_t(4095), size_t(4096), size_t(17001), good.size() - 1}) {
        std::string bad = good;
        bad[at] = '*';
        try {
            sidecar::from_base64(bad);
            BOOST_TEST(false, "a bad character at " << at << " was not found");
        } catch (const std::invalid_argument& e) {
            BOOST_TEST(std::string(e.what()) ==
                       "invalid base64 character at " + std::to_string(at));
        }
    }
}

// FNV-1a 64 (the payload hash of older sidecars, still checked on read)
// against its published test vectors, and continued over a second part as over the concatenation.
BOOST_AUTO_TEST_CASE(fnv1a64_continues_over_parts) {
    auto bytes = [](std::string_view t) { return Bytes(t.begin(), t.end()); };
    BOOST_TEST(sidecar::fnv1a64(Bytes{}) == 0xcbf29ce484222325ull);
    BOOST_TEST(sidecar::fnv1a64(bytes("a")) == 0xaf63dc4c8601ec8cull);
    BOOST_TEST(sidecar::fnv1a64(bytes("foobar")) == 0x85944171f73967e8ull);
    for (size_t cut = 0; cut <= 6; ++cut)
        BOOST_TEST(
            sidecar::fnv1a64(bytes(std::string_view("foobar").substr(cut)),
                             sidecar::fnv1a64(bytes(std::string_view("foobar").substr(0, cut)))) ==
            0x85944171f73967e8ull);
}

BOOST_AUTO_TEST_CASE(sidecar_parser_agrees_with_nlohmann) {
    const std::vector<std::string> texts = {
        "{}", "[]", "0", "-0", "1.5e+3", "-12.25E-2", "\"\"", "true", "false", "null",
        " { \"a\" : [1, 2, {\"b\": null}], \"c\": \"x\\\"y\\\\z\\/\\b\\f\\n\\r\\t\\u00e9\" } ",
        "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", "[[[[[]]]]]", "{\"a\":{\"a\":{}}}",
        // broken
        "", " ", "{", "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{a:1}", "01", "1.", ".5", "-",
        "1e", "1e+", "+1", "tru", "nul", "\"abc", "\"a\\x\"", "\"a\\u12g4\"",
        std::string("\"a\x01\""), "\"\xc3\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"",
        "\"\xf5\x80\x80\x80\"", "\"\xe2\x82\"", "1 2", "{} x", "[1]]", "{\"a\":[}"};
    for (const std::string& t : texts)
        BOOST_TEST(reader_accepts(t) == json::accept(t), "text: " << t.substr(0, 40));
    // The same values as array elements and member values.
    for (const std::string& t : texts)
        for (const std::string& inside : {"[" + t + "]", "[1, " + t + " ]", "{\"k\":" + t + "}",
                                          "{\"j\": 2, \"k\": " + t + "}"})
            BOOST_TEST(reader_accepts(inside) == json::accept(inside),
                       "text: " << inside.substr(0, 40));
    // Long strings (their encoding is checked 16 bytes at a time): one special byte or
    // sequence at every position of a 40-byte run, valid or not.
    for (const std::string special :
         {"\x01", "\x1f", "\xc3\xa9", "\xff", "\xc0\xaf", "\\n", "\\q", "\"", "\x7f", " "})
        for (size_t at = 0; at <= 40; ++at) {
            const std::string t =
                "[\"" + std::string(at, 'a') + special + std::string(40 - at, 'b') + "\"]";
            BOOST_TEST(reader_accepts(t) == json::accept(t), "special at " << at << ": " << t);
        }
    // Nesting: the bound of check_json_nesting, kMaxJsonNesting levels of arrays or objects, one
    // more refused (an empty one too): what the readers take, a recursive parser's DOM could
    // hold too (nlohmann's parser and destructors recurse).
    const auto arrays = [](size_t levels) {
        return std::string(levels, '[') + std::string(levels, ']');
    };
    const auto objects = [](size_t levels) {
        std::string t;
        for (size_t k = 0; k < levels; ++k) t += "{\"k\": ";
        return t + "1" + std::string(levels, '}');
    };
    const auto nesting_accepts = [](const std::string& t) {
        try {
            check_json_nesting(ByteView(reinterpret_cast<const uint8_t*>(t.data()), t.size()), "t");
            return true;
        } catch (const FormatError&) {
            return false;
        }
    };
    for (const std::string& t :
         {arrays(kMaxJsonNesting), objects(kMaxJsonNesting), "[" + arrays(kMaxJsonNesting) + "]",
          "{\"a\": " + objects(kMaxJsonNesting) + "}", arrays(kMaxJsonNesting + 1), arrays(100000),
          std::string(kMaxJsonNesting, '[') + "{}" + std::string(kMaxJsonNesting, ']')})
        BOOST_TEST(reader_accepts(t) == nesting_accepts(t), t.size() << " characters");
    BOOST_TEST(reader_accepts(arrays(kMaxJsonNesting)));
    BOOST_TEST(!reader_accepts(arrays(kMaxJsonNesting + 1)));
    BOOST_TEST(!reader_accepts(objects(kMaxJsonNesting + 1)));
}

// The quick look for a sidecar's "kind": where it answers, it answers what the parse reads (the
// first member of that name: the look stops there).
BOOST_AUTO_TEST_CASE(peek_of_a_plain_member_agrees_with_the_parse) {
    using sidecar::peek_plain_member;
    std::vector<std::string> answered = {
        R"({"kind":"terrain"})", R"( { "a" : [1, "]}\"", {"kind": "inner"}], "kind" : "model" } )",
        R"({"s":"x\\","t":"\"kind\": \"no\"","kind":"model","kind":"second"})",
        R"({"n": -1.5e3, "b": true, "z": null, "o": {"k": [[], {}]}, "kind": "texture"})",
        R"({"blocks":[{"base64":"QUJD","size":3}],"kind":"terrain","schema":"mshconv-sidecar/2"})"};
    // Rows of numbers (skipped 16 bytes at a time) with brackets and quotes at every offset.
    std::string rows = R"({"faces": [)";
    for (int r = 0; r < 40; ++r)
        rows += (r ? "," : "") + std::string("[") + std::to_string(r * 37) + ",12345,-6,[7]," +
                std::string(size_t(r % 17), ' ') + "{\"x\":\"]}\\\\\"}]";
    rows += R"(], "kind": "terrain"})";
    answered.push_back(rows);
    for (const std::string& t : answered) {
        const auto kind = peek_plain_member(t, "kind");
        BOOST_TEST_REQUIRE(kind.has_value(), t);
        sidecar::ParsedJson parsed;
        BOOST_TEST_REQUIRE(
            parsed.try_parse(ByteView(reinterpret_cast<const uint8_t*>(t.data()), t.size())), t);
        std::string first;
        for (const auto& m : parsed.root().GetObject())
            if (std::string_view(m.name.GetString()) == "kind" && first.empty())
                first = m.value.GetString();
        BOOST_TEST(std::string(*kind) == first, t);
    }
    // No answer (the validating reader decides): no such member, an escaped value or key, text
    // that is not an object, or text the look does not expect.
    for (const std::string& t :
         {std::string(R"({"a": {"kind": "inner"}})"), std::string(R"({"kind": "te\u0072rain"})"),
          std::string(R"({"ki\u006ed": "model"})"), std::string(R"(["kind", "model"])"),
          std::string(R"({"kind": 3})"), std::string(R"({"a" 1, "kind": "model"})"),
          std::string(R"({"a": "unterminated)"), std::string(""), std::string("{")})
        BOOST_TEST(!peek_plain_member(t, "kind").has_value(), t);
}

BOOST_AUTO_TEST_CASE(first_layout_sidecar_reads_back_whole) {
    const samples::GeneratedMap& m = small_map();
    const std::string text = sidecar_text_of(m);
    auto bytes = [](const std::string& t) {
        return ByteView(reinterpret_cast<const uint8_t*>(t.data()), t.size());
    };
    const std::optional<sidecar::TerrainSidecar> read =
        sidecar::read_terrain_sidecar(bytes(text), "kept");
    BOOST_TEST_REQUIRE(read.has_value());
    const sidecar::TerrainSidecar& sc = *read;
    BOOST_TEST((sc.land_msh == m.land_msh));
    BOOST_TEST_REQUIRE(sc.land_map.has_value());
    BOOST_TEST((*sc.land_map == m.land_map));
    // The typed record comes back whole: writing the sidecar read back gives the same text.
    BOOST_TEST(sc.record.format == "glb");
    BOOST_TEST((sc.record.wear1_rows == m.layer1));
    BOOST_TEST((sc.record.wear2_rows == m.layer2));
    BOOST_TEST(sc.record.map_source == "Land.map");
    BOOST_TEST(sidecar::terrain_sidecar_text(sc) == text);
    // A broken text is refused even where the import would not look (the readable face rows).
    std::string broken = text;
    const size_t rows = broken.find("\"rows\"");
    BOOST_TEST_REQUIRE(rows != std::string::npos);
    broken.insert(broken.find('[', rows) + 1, "01,");
    BOOST_TEST(!sidecar::read_terrain_sidecar(bytes(broken), "broken").has_value());
}

// Land.msh / Land.map payloads of an older sidecar carry "fnv1a64" instead of
// "xxh3_64": read and checked the same way.
BOOST_AUTO_TEST_CASE(payload_hashes_of_older_sidecars_still_check) {
    const samples::GeneratedMap& m = small_map();
    json kept = json::parse(sidecar_text_of(m));
    BOOST_TEST(kept["land_msh"]["xxh3_64"] == sidecar::hex64(sidecar::payload_hash(m.land_msh)));
    for (const char* field : {"land_msh", "land_map"}) {
        const Bytes& bytes = std::string_view(field) == "land_msh" ? m.land_msh : m.land_map;
        kept[field].erase("xxh3_64");
        kept[field]["fnv1a64"] = sidecar::hex64(sidecar::fnv1a64(bytes));
    }
    const sidecar::TerrainSidecar sc = test::read_terrain_doc(kept, "older");
    BOOST_TEST((sc.land_msh == m.land_msh));
    BOOST_TEST_REQUIRE(sc.land_map.has_value());
    BOOST_TEST((*sc.land_map == m.land_map));
    kept["land_map"]["fnv1a64"] = "0000000000000000";
    try {
        test::read_terrain_doc(kept, "damaged");
        BOOST_ERROR("a wrong FNV-1a hash was accepted");
    } catch (const FormatError& e) {
        BOOST_TEST(e.location().pointer == "/land_map/fnv1a64");
    }
    kept["land_map"].erase("fnv1a64");
    kept["land_map"]["xxh3_64"] = "0000000000000000";
    BOOST_CHECK_THROW(test::read_terrain_doc(kept, "damaged"), FormatError);
    kept["land_map"].erase("xxh3_64"); // no hash at all: refused too, as for models and textures
    try {
        test::read_terrain_doc(kept, "damaged");
        BOOST_ERROR("a payload without a hash was accepted");
    } catch (const FormatError& e) {
        BOOST_TEST(e.location().pointer == "/land_map/xxh3_64");
    }
}

BOOST_AUTO_TEST_CASE(sidecar_text_lists_every_face_and_areal) {
    const samples::GeneratedMap& m = small_map();
    const json doc = json::parse(sidecar_text_of(m));
    const auto& rows = doc["terrain"]["faces"]["rows"];
    BOOST_TEST_REQUIRE(rows.size() == m.terrain.faces.size());
    BOOST_TEST(doc["terrain"]["faces"]["columns"].size() == 15u);
    size_t bad = 0;
    for (size_t f = 0; f < rows.size(); ++f) {
        const terrain::Face& face = m.terrain.faces[f];
        const std::vector<int> want = {
            face.material,  face.aux,       face.unk06,      face.v[0], face.v[1],
            face.v[2],      face.n[0],      face.n[1],       face.n[2], face.normal[0],
            face.normal[1], face.normal[2], face.edge_class, face.unk27};
        char hex[11];
        std::snprintf(hex, sizeof hex, "0x%08x", face.flags);
        if (rows[f][0] != hex) ++bad;
        for (size_t k = 0; k < want.size(); ++k)
            if (rows[f][k + 1] != want[k]) ++bad;
    }
    BOOST_TEST(bad == 0u);
    const auto& areals = doc["areal_map"]["areals"];
    BOOST_TEST_REQUIRE(areals.size() == m.areal_map.areals.size());
    for (size_t i = 0; i < areals.size(); ++i) {
        const arealmap::Areal& a = m.areal_map.areals[i];
        const json& j = areals[i];
        // Floats print in shortest round-trip form: they read back bit for bit.
        if (j["index"] != i || j["anchor"][0].get<float>() != a.anchor.x ||
            j["anchor"][1].get<float>() != a.anchor.y || j["area"].get<float>() != a.area ||
            j["normal"][2].get<float>() != a.normal.z || j["class_id"] != a.class_id ||
            j["logic_flag"] != a.logic_flag || j["vertices"] != a.vertices.size() ||
            j["links"].size() != a.links.size() || j["links"][0][0] != a.links[0].area_ref)
            ++bad;
    }
    BOOST_TEST(bad == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace terrain_sidecar_tests
