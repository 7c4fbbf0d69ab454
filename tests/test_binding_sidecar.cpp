// The binding model sidecar (sidecar/model_binding.hpp, docs/sidecar.md): its fields are read, so
// an edit of one changes exactly that in the MSH; a malformed edit is one error at its JSON
// pointer and nothing written; the sidecars stay small beside the models; and sidecars of the
// first layout (older releases, tests/fixtures/sidecar_v1) still import byte for byte.

#include "corpus.hpp"
#include "sidecar_edits.hpp"
#include "test_paths.hpp"
#include "test_util.hpp"

#include "conversion/game_files.hpp"
#include "conversion/game_library_add.hpp"
#include "conversion/model_export.hpp"
#include "conversion/model_import.hpp"
#include "conversion/outputs.hpp"
#include "conversion/preview_image.hpp"
#include "conversion/terrain.hpp"
#include "conversion/texture.hpp"
#include "formats/file_io.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/payload_hash.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace binding_sidecar_tests {

using namespace msh;
namespace fs = std::filesystem;
using nlohmann::json;
using test::q;

using test::edit_block;
using test::read_json;
using test::write_json;

namespace {

Bytes corpus_entry(const std::string& archive, const std::string& name) {
    const Bytes bytes = read_file(test::corpus_dir() / archive);
    const nres::Archive ar = nres::read(bytes, ReadMode::Strict, archive);
    const auto i = ar.find(name);
    BOOST_REQUIRE(i);
    return ar.entries[*i].data.to_bytes();
}

fs::path fresh(const std::string& name) {
    const fs::path dir = test::scratch("binding/" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

} // namespace

BOOST_AUTO_TEST_SUITE(binding_sidecar)

BOOST_AUTO_TEST_CASE(an_edited_field_changes_exactly_that_in_the_msh) {
    const fs::path dir = fresh("edit");
    const Bytes original = corpus_entry("static.rlb", "House_01.msh");
    const Model before = read_model(original, ReadMode::Strict, "House_01");
    test::Run r = test::mshconv("convert " + q(test::corpus_dir() / "static.rlb") +
                                ":House_01.msh " + q(dir / "h.glb"));
    BOOST_REQUIRE_EQUAL(r.code, 0);
    json doc = read_json(dir / "h.sidecar.json");
    BOOST_REQUIRE(doc["schema"] == "mshconv-sidecar/2");

    // A node's flags, a batch's unknown word and a byte of an uninterpreted resource (Res15).
    const uint16_t flags = uint16_t(before.nodes[0].flags ^ 0x0102);
    const uint16_t opaque6 = uint16_t(before.batches[1].opaque6 + 7);
    doc["nodes"]["rows"][0][1] = flags;
    doc["batches"]["rows"][1][3] = opaque6;
    size_t block = 0;
    while (doc["blocks"][block]["type"] != 15) ++block;
    const size_t res15 = *before.container.find_type(15);
    const uint8_t byte = uint8_t(before.container.entries[res15].data[5] ^ 0x5A);
    edit_block(doc["blocks"][block], 5, byte);
    write_json(dir / "h.sidecar.json", doc);

    r = test::mshconv("convert " + q(dir / "h.glb") + " " + q(dir / "h.msh") + " --report " +
                      q(dir / "report.json"));
    BOOST_REQUIRE_MESSAGE(r.code == 0, r.out);
    const Model after = read_model(read_file(dir / "h.msh"), ReadMode::Strict, "edited");
    // Exactly those three values changed; every other resource and field is the original's.
    BOOST_TEST(after.nodes[0].flags == flags);
    BOOST_TEST(after.batches[1].opaque6 == opaque6);
    BOOST_TEST(after.container.entries[res15].data[5] == byte);
    Model expected = before;
    expected.nodes[0].flags = flags;
    expected.batches[1].opaque6 = opaque6;
    Bytes stream = before.container.entries[res15].data.to_bytes();
    stream[5] = byte;
    expected.container.entries[res15].data = stream;
    BOOST_TEST((write_model(expected) == read_file(dir / "h.msh")));
    // The change report names the edited rows.
    const json report = read_json(dir / "report.json");
    const std::vector<std::string> edits = report.at("sidecar_edits");
    BOOST_TEST(
        (edits == std::vector<std::string>{"/batches/rows/1", "/blocks/" + std::to_string(block),
                                           "/nodes/rows/0"}),
        report.dump());
    BOOST_TEST(report["identical"] == false);
    BOOST_TEST(r.out.find("sidecar field edited: /nodes/rows/0") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(a_malformed_edit_is_one_error_at_its_pointer_and_nothing_is_written) {
    const fs::path dir = fresh("malformed");
    test::Run r = test::mshconv("convert " + q(test::corpus_dir() / "static.rlb") +
                                ":House_01.msh " + q(dir / "h.glb"));
    BOOST_REQUIRE_EQUAL(r.code, 0);
    const json good = read_json(dir / "h.sidecar.json");
    size_t block = 0;
    while (good["blocks"][block]["type"] != 15) ++block;
    struct Case {
        const char* what;
        std::string pointer;
        std::function<void(json&)> edit;
    };
    const std::vector<Case> cases = {
        {"a string for a number", "/nodes/rows/0/1",
         [](json& d) { d["nodes"]["rows"][0][1] = "7"; }},
        {"out of range", "/batches/rows/0/3", [](json& d) { d["batches"]["rows"][0][3] = 65536; }},
        {"a block without its new hash", "/blocks/" + std::to_string(block) + "/xxh3_64",
         [block](json& d) {
             Bytes b = sidecar::from_base64(d["blocks"][block]["base64"].get<std::string>());
             b[0] ^= 1;
             d["blocks"][block]["base64"] = sidecar::to_base64(b);
         }},
        {"a slot row cut short", "/slots/rows/0", [](json& d) { d["slots"]["rows"][0].erase(7); }},
    };
    for (const Case& c : cases) {
        json doc = good;
        c.edit(doc);
        write_json(dir / "h.sidecar.json", doc);
        r = test::mshconv("convert " + q(dir / "h.glb") + " " + q(dir / "h.msh"));
        BOOST_TEST(r.code == 1, c.what);
        BOOST_TEST(r.out.find("h.sidecar.json: at " + c.pointer + ": ") != std::string::npos,
                   c.what << ": " << r.out);
        size_t errors = 0;
        for (size_t at = r.out.find("error:"); at != std::string::npos;
             at = r.out.find("error:", at + 1))
            ++errors;
        BOOST_TEST(errors == 1u, c.what << ": " << r.out);
        BOOST_TEST(!fs::exists(dir / "h.msh"), c.what);
    }
}

// The corpus's GLB sidecars hold what a GLB cannot: at most 1.2x the models' bytes.
BOOST_AUTO_TEST_CASE(glb_sidecars_total_at_most_1_2x_the_models) {
    uint64_t models = 0, sidecars = 0;
    for (const auto& f : test::corpus()) {
        if (f.relative_path.find(".rlb") == std::string::npos) continue;
        const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (!nres::looks_like_nres(e.data)) continue;
            conversion::ModelExportSettings settings;
            settings.output_name = "m.glb";
            const conversion::ModelExport x =
                conversion::encode_model({e.data.to_bytes(), e.name()}, settings);
            models += e.data.size();
            sidecars += sidecar::model_sidecar_text(x.sidecar).size();
        }
    }
    BOOST_TEST_MESSAGE("GLB sidecars " << sidecars << " bytes for " << models << " model bytes");
    BOOST_TEST(models > 1000000u);
    BOOST_TEST(double(sidecars) <= 1.2 * double(models));
}

// Sidecars an older release wrote (the whole image, `mshconv-sidecar/1`) beside their exports.
BOOST_AUTO_TEST_CASE(first_layout_sidecars_still_import_byte_for_byte) {
    const fs::path kept = fs::path(MSHCONV_SOURCE_DIR) / "tests" / "fixtures" / "sidecar_v1";
    struct Kept {
        const char* file;
        const char* archive;
        const char* entry;
    };
    const fs::path dir = fresh("first-layout");
    for (const Kept& k : {Kept{"rock_a.glb", "static.rlb", "Rock_A.msh"},
                          Kept{"rock_a_skin.glb", "static.rlb", "Rock_A.msh"},
                          Kept{"a_f_01.gltf", "animals.rlb", "A_F_01.msh"},
                          Kept{"arrow.obj", "system.rlb", "ARROW.MSH"}}) {
        BOOST_TEST(read_json(kept / (fs::path(k.file).stem().string() +
                                     ".sidecar.json"))["schema"] == "mshconv-sidecar/1");
        const fs::path out = dir / (std::string(k.file) + ".msh");
        const test::Run r = test::mshconv("convert " + q(kept / k.file) + " " + q(out));
        BOOST_TEST_REQUIRE(r.code == 0, k.file << ": " << r.out);
        BOOST_TEST(r.out.find("unchanged, original bytes kept") != std::string::npos, r.out);
        BOOST_TEST((read_file(out) == corpus_entry(k.archive, k.entry)), k.file);
    }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace binding_sidecar_tests
