// The binding texture sidecar (sidecar/texture_binding.hpp, docs/sidecar.md): the header words,
// Page rectangles, palette X bytes and tail are read, so an edit of one changes exactly that in
// the Texm; levels no PNG carries travel in the sidecar; a malformed edit is one error at its JSON
// pointer and nothing written; first-layout texture sidecars still import byte for byte.

#include "corpus.hpp"
#include "test_paths.hpp"
#include "test_util.hpp"

#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/payload_hash.hpp"
#include "sidecar/texture_sidecar.hpp"
#include "texture_fixtures.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace texture_binding_tests {

using namespace msh;
namespace fs = std::filesystem;
using nlohmann::json;
using test::q;

namespace {

Bytes texture(const std::string& archive, const std::string& name) {
    const Bytes bytes = read_file(test::corpus_dir() / archive);
    const nres::Archive ar = nres::read(bytes, ReadMode::Strict, archive);
    const auto i = ar.find(name);
    BOOST_REQUIRE(i);
    return ar.entries[*i].data.to_bytes();
}

struct Exported {
    test::TextureFiles x;
    json doc; // the sidecar as written
};

Exported export_of(ByteView payload, bool mips = false) {
    Exported e{test::texture_files(payload, "Textures.lib:T.0", "t.png", mips), {}};
    const std::string text = sidecar::texture_sidecar_text(e.x.sidecar);
    e.doc = json::parse(text);
    return e;
}

// The import of the exported PNGs with `doc` as their sidecar (read from its text, as on disk).
conversion::TextureImport import_with(const Exported& e, const json& doc) {
    conversion::TextureImportInput in;
    conversion::TextureImportSettings ts;
    in.png = e.x.png;
    for (const Bytes& m : e.x.mips) in.mips.push_back(m);
    const std::string text = doc.dump(1);
    in.sidecar = sidecar::read_texture_sidecar(Bytes(text.begin(), text.end()), "t.sidecar.json");
    ts.where = "t.png";
    return conversion::rebuild_texture(in, ts);
}

// The error of importing with `doc`, or "" when it imports.
std::string import_error(const Exported& e, const json& doc) {
    try {
        import_with(e, doc);
    } catch (const FormatError& err) {
        return err.what();
    }
    return "";
}

// Indices at which two equally long payloads differ.
std::vector<size_t> differences(const Bytes& a, const Bytes& b) {
    BOOST_REQUIRE_EQUAL(a.size(), b.size());
    std::vector<size_t> out;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) out.push_back(i);
    return out;
}

void set_block(json& block, const Bytes& bytes) {
    block["base64"] = sidecar::to_base64(bytes);
    block["size"] = bytes.size();
    block["xxh3_64"] = sidecar::hex64(sidecar::payload_hash(bytes));
}

// An 888 texture with X bytes other than 0 and a raw tail after its levels: what no PNG holds.
Bytes unusual_888() {
    texm::Image img(8, 4);
    for (size_t i = 0; i < img.rgba.size(); ++i) img.rgba[i] = uint8_t(i * 7 + 3);
    for (size_t i = 3; i < img.rgba.size(); i += 4) img.rgba[i] = 255;
    texm::Texture t = texm::make_texture(texm::Format::X8R8G8B8, img);
    for (Bytes& level : t.levels)
        for (size_t i = 3; i < level.size(); i += 4) level[i] = uint8_t(i);
    t.tail = {1, 2, 3, 4, 5};
    return texm::write(t);
}

} // namespace

BOOST_AUTO_TEST_SUITE(binding_sidecar)

// Header words, a Page rectangle and a palette X byte, each edited on its own: the Texm differs
// from the original in exactly those bytes, and the import names the member.
BOOST_AUTO_TEST_CASE(an_edited_texture_field_changes_exactly_that_in_the_texm) {
    const Bytes barrel = texture("Textures.lib", "BARREL_DK.0"); // 4444, 8 levels, 6 rects
    const Exported e = export_of(barrel);
    BOOST_TEST(e.doc["schema"] == "mshconv-sidecar/2");
    BOOST_TEST(!e.doc.contains("original"), "a binding sidecar holds no copy of the texture");
    BOOST_TEST((import_with(e, e.doc).texm == barrel));

    json doc = e.doc;
    doc["header"]["flags5"] = 0x04000000;
    doc["header"]["unknown6"] = 7;
    conversion::TextureImport r = import_with(e, doc);
    BOOST_TEST((differences(r.texm, barrel) == std::vector<size_t>{23, 24}));
    BOOST_TEST((r.sidecar_edits == std::vector<std::string>{"/header"}));
    BOOST_TEST(r.texm[23] == 0x04);
    BOOST_TEST(r.texm[24] == 7);

    doc = e.doc;
    doc["page"][1][2] = 0x1234; // rect 1's y
    r = import_with(e, doc);
    const texm::Texture t = texm::read(barrel, ReadMode::Strict, "barrel");
    const size_t rect1_y = barrel.size() - (t.page->size() - 1) * 8 + 4;
    BOOST_TEST((differences(r.texm, barrel) == std::vector<size_t>{rect1_y, rect1_y + 1}));
    BOOST_TEST((r.sidecar_edits == std::vector<std::string>{"/page"}));

    const Bytes decal = texture("Textures.lib", "DECAL.0"); // format 0
    const Exported p = export_of(decal);
    doc = p.doc;
    std::string x = doc["palette_x"].get<std::string>();
    x.replace(2 * 9, 2, "5a"); // entry 9's X byte
    doc["palette_x"] = x;
    r = import_with(p, doc);
    BOOST_TEST((differences(r.texm, decal) == std::vector<size_t>{32 + 4 * 9 + 3}));
    BOOST_TEST(r.texm[32 + 4 * 9 + 3] == 0x5a);
    BOOST_TEST((r.sidecar_edits == std::vector<std::string>{"/palette_x"}));
}

// A level no PNG carries is in the sidecar: an edited block with its new size and hash lands in
// the Texm; fewer levels keep the first ones; another format re-encodes from the PNG.
BOOST_AUTO_TEST_CASE(levels_in_the_sidecar_are_read) {
    const Bytes barrel = texture("Textures.lib", "BARREL_DK.0");
    const texm::Texture orig = texm::read(barrel, ReadMode::Strict, "barrel");
    const Exported e = export_of(barrel);
    json doc = e.doc;
    BOOST_TEST(doc["levels"]["rows"][2]["in"] == "sidecar");
    Bytes level2 = orig.levels[2];
    level2[0] ^= 0xff;
    set_block(doc["levels"]["rows"][2], level2);
    conversion::TextureImport r = import_with(e, doc);
    const texm::Texture edited = texm::read(r.texm, ReadMode::Strict, "edited");
    BOOST_TEST((edited.levels[2] == level2));
    for (uint32_t k : {0u, 1u, 3u, 7u}) BOOST_TEST((edited.levels[k] == orig.levels[k]), k);

    doc = e.doc;
    doc["header"]["mip_count"] = 3;
    r = import_with(e, doc);
    const texm::Texture fewer = texm::read(r.texm, ReadMode::Strict, "fewer");
    BOOST_TEST(fewer.header.mip_count == 3u);
    for (uint32_t k = 0; k < 3; ++k) BOOST_TEST((fewer.levels[k] == orig.levels[k]), k);
    BOOST_TEST((fewer.page == orig.page));

    doc = e.doc;
    doc["header"]["format"] = 8888;
    r = import_with(e, doc);
    const texm::Texture wider = texm::read(r.texm, ReadMode::Strict, "8888");
    BOOST_TEST(wider.header.format == 8888u);
    BOOST_TEST((texm::decode_level(wider, 0) == texm::decode_level(orig, 0)));
    BOOST_TEST(wider.header.flags4 == orig.header.flags4);
}

// 888 X bytes and a raw tail have no place in a PNG: the sidecar carries them, an unedited import
// gives the original, and an edited tail (new size and hash) changes exactly the tail.
BOOST_AUTO_TEST_CASE(what_no_png_holds_travels_in_the_sidecar) {
    const Bytes original = unusual_888();
    for (const bool mips : {false, true}) {
        BOOST_TEST_CONTEXT("mips " << mips) {
            const Exported e = export_of(original, mips);
            BOOST_TEST(e.doc["levels"]["rows"][0].contains("base64"));
            BOOST_TEST(e.doc["tail"]["size"] == 5);
            const conversion::TextureImport r = import_with(e, e.doc);
            BOOST_TEST(r.identical);
            BOOST_TEST((r.texm == original));
        }
    }
    const Exported e = export_of(original);
    json doc = e.doc;
    set_block(doc["tail"], {1, 2, 3, 4, 5, 6});
    Bytes expected = original;
    expected.push_back(6);
    const conversion::TextureImport r = import_with(e, doc);
    BOOST_TEST((r.texm == expected));
    BOOST_TEST((r.sidecar_edits == std::vector<std::string>{"/tail"}));
}

// Each malformed edit is one FormatError naming the sidecar and the JSON pointer.
BOOST_AUTO_TEST_CASE(a_malformed_texture_edit_is_one_error_at_its_pointer) {
    const Exported e = export_of(texture("Textures.lib", "BARREL_DK.0"));
    struct Case {
        std::string pointer;
        std::function<void(json&)> edit;
    };
    const std::vector<Case> cases = {
        {"/header/flags5", [](json& d) { d["header"]["flags5"] = "0x04000000"; }},
        {"/header/mip_count", [](json& d) { d["header"]["mip_count"] = 4294967296LL; }},
        {"/header/mip_count", [](json& d) { d["header"]["mip_count"] = 9; }}, // 8x128 has 8
        {"/header/format", [](json& d) { d["header"]["format"] = 5551; }},
        {"/page/0",
         [](json& d) {
             d["page"][0] = {1, 2, 3};
         }},
        {"/page/2/1", [](json& d) { d["page"][2][1] = 70000; }},
        {"/levels/rows/1/xxh3_64",
         [](json& d) {
             Bytes b = sidecar::from_base64(d["levels"]["rows"][1]["base64"].get<std::string>());
             b[0] ^= 1;
             d["levels"]["rows"][1]["base64"] = sidecar::to_base64(b);
         }},
        {"/levels/rows/3/in", [](json& d) { d["levels"]["rows"][3]["in"] = "disk"; }},
        {"/tail/size", [](json& d) { d["tail"]["size"] = 3; }},
        {"/checks/page", [](json& d) { d["checks"].erase("page"); }},
        {"/source/xxh3_64", [](json& d) { d["source"]["xxh3_64"] = "0000000000000000"; }},
    };
    for (const Case& c : cases) {
        json doc = e.doc;
        c.edit(doc);
        const std::string error = import_error(e, doc);
        BOOST_TEST(error.find("t.sidecar.json") != std::string::npos, c.pointer << ": " << error);
        BOOST_TEST(error.find("at " + c.pointer + ":") != std::string::npos,
                   c.pointer << ": " << error);
    }
}

// Through the CLI: a malformed edit exits 1 and writes nothing; a good one writes the Texm.
BOOST_AUTO_TEST_CASE(a_malformed_texture_edit_writes_nothing) {
    const fs::path dir = test::scratch("texture-binding");
    fs::create_directories(dir);
    const std::string lib = (test::corpus_dir() / "Textures.lib").string();
    BOOST_REQUIRE_EQUAL(
        test::mshconv("convert " + q(lib + ":ANIM_01.0") + " " + q(dir / "a.png")).code, 0);
    const Bytes text = read_file(dir / "a.sidecar.json");
    json doc = json::parse(text.begin(), text.end());
    doc["header"]["flags4"] = -1;
    const std::string bad = doc.dump(1);
    write_file_atomic(dir / "a.sidecar.json", Bytes(bad.begin(), bad.end()));
    test::Run r = test::mshconv("convert " + q(dir / "a.png") + " " + q(dir / "a.texm"));
    BOOST_TEST(r.code == 1);
    BOOST_TEST(r.out.find("at /header/flags4") != std::string::npos, r.out);
    BOOST_TEST(!fs::exists(dir / "a.texm"));
    doc["header"]["flags4"] = 0;
    const std::string good = doc.dump(1);
    write_file_atomic(dir / "a.sidecar.json", Bytes(good.begin(), good.end()));
    r = test::mshconv("convert " + q(dir / "a.png") + " " + q(dir / "a.texm"));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST(r.out.find("sidecar field edited: /header") != std::string::npos, r.out);
    const Bytes written = read_file(dir / "a.texm");
    const Bytes original = texture("Textures.lib", "ANIM_01.0");
    BOOST_TEST((differences(written, original) == std::vector<size_t>{16}));
}

// Texture sidecars an older release wrote (the whole payload, `mshconv-sidecar/1`).
BOOST_AUTO_TEST_CASE(first_layout_texture_sidecars_still_import_byte_for_byte) {
    const fs::path kept = fs::path(MSHCONV_SOURCE_DIR) / "tests" / "fixtures" / "sidecar_v1";
    const fs::path dir = test::scratch("texture-v1");
    fs::create_directories(dir);
    // 4444 with a Page chunk, format 0, 888, and 88 with its mip PNGs.
    for (const auto& [png, entry] :
         std::vector<std::pair<std::string, std::string>>{{"barrel_dk.png", "BARREL_DK.0"},
                                                          {"decal.png", "DECAL.0"},
                                                          {"beak.png", "BEAK.0"},
                                                          {"anim_01.png", "ANIM_01.0"}}) {
        const Bytes text = read_file(kept / (fs::path(png).stem().string() + ".sidecar.json"));
        BOOST_TEST(json::parse(text.begin(), text.end())["schema"] == "mshconv-sidecar/1");
        const fs::path out = dir / (entry + ".texm");
        const test::Run r = test::mshconv("convert " + q(kept / png) + " " + q(out));
        BOOST_TEST_REQUIRE(r.code == 0, png << ": " << r.out);
        BOOST_TEST((read_file(out) == texture("Textures.lib", entry)), png);
    }
}

// The sidecars hold what the PNGs cannot: for the corpus textures exported without their mip
// PNGs (the batch default), at most half the Texm bytes (a copy in base64 was 4/3 of them).
BOOST_AUTO_TEST_CASE(texture_sidecars_stay_small) {
    uint64_t texm_bytes = 0, sidecar_bytes = 0;
    for (const char* lib : {"Textures.lib", "LightMap.lib"}) {
        const Bytes bytes = read_file(test::corpus_dir() / lib);
        const nres::Archive ar = nres::read(bytes, ReadMode::Strict, lib);
        for (const nres::Entry& entry : ar.entries) {
            if (entry.type != texm::kMagic) continue;
            const Bytes payload = entry.data.to_bytes();
            const test::TextureFiles x = test::texture_files(payload, entry.name(), "t.png", false);
            texm_bytes += payload.size();
            sidecar_bytes += sidecar::texture_sidecar_text(x.sidecar).size();
        }
    }
    BOOST_TEST_MESSAGE("texture sidecars " << sidecar_bytes << " bytes for " << texm_bytes
                                           << " Texm bytes");
    BOOST_TEST(sidecar_bytes * 2 <= texm_bytes);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace texture_binding_tests
