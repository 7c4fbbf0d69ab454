// The import of the very file an export wrote (sidecar `export.written`, issue 14): for every
// sample model and map, as .glb and as .gltf + .bin, the shortcut gives what reading the scene
// gives — the same bytes, report, pairing and warnings — and any other file, or settings that ask
// for more than the recorded export, take the full read.
#include "corpus.hpp"
#include "import_fixtures.hpp"
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
#include "formats/gltf.hpp"
#include "formats/nres.hpp"
#include "samples/terrain_gen.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/terrain_sidecar.hpp"
#include "sidecar/texture_sidecar.hpp"
#include "texture_fixtures.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace unchanged_import_tests {

using namespace msh;
namespace fs = std::filesystem;

namespace {

Bytes to_bytes(const std::string& text) {
    return Bytes(text.begin(), text.end());
}

std::string to_string(const Bytes& bytes) {
    return std::string(bytes.begin(), bytes.end());
}

struct CorpusModel {
    std::string name;
    Bytes image;
};

std::vector<CorpusModel> corpus_models() {
    std::vector<CorpusModel> out;
    for (const auto& f : test::corpus()) {
        if (f.relative_path.find(".rlb") == std::string::npos) continue;
        const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries)
            if (nres::looks_like_nres(e.data))
                out.push_back({f.relative_path + ":" + e.name(), e.data.to_bytes()});
    }
    return out;
}

// Exports into `folder` and returns the sidecar as an import reads it (through its text).
sidecar::ModelSidecar export_model_files(const CorpusModel& m, const fs::path& folder,
                                         const std::string& output_name, bool skin) {
    conversion::ModelExportSettings settings;
    settings.format = *conversion::scene_format_of(output_name);
    settings.output_name = output_name;
    settings.skin = skin;
    const conversion::ModelExport x = conversion::encode_model({m.image, m.name}, settings);
    conversion::write_outputs(folder, x.files);
    return sidecar::read_model_sidecar(to_bytes(sidecar::model_sidecar_text(x.sidecar)), m.name);
}

conversion::ModelImportSettings import_settings(const fs::path& file) {
    conversion::ModelImportSettings s;
    s.where = file.string();
    s.sidecar_name = "test.sidecar.json";
    return s;
}

conversion::ModelImport full_model_import(const fs::path& file, const sidecar::ModelSidecar& sc,
                                          const conversion::ModelImportSettings& settings) {
    std::vector<std::string> warnings;
    const scene::Scene scene = conversion::read_scene_file(file, warnings);
    conversion::ModelImport r = conversion::rebuild_model(scene, &sc, settings);
    r.warnings.insert(r.warnings.begin(), warnings.begin(), warnings.end());
    return r;
}

void flip_last_byte(const fs::path& file) {
    Bytes b = read_file(file);
    b.back() ^= 0x20;
    write_file_atomic(file, b);
}

} // namespace

BOOST_AUTO_TEST_SUITE(unchanged_import)

BOOST_AUTO_TEST_CASE(every_sample_model_file_imports_as_reading_it_does) {
    test::TempDir dir;
    size_t checked = 0;
    for (const CorpusModel& m : corpus_models())
        for (const char* name : {"m.glb", "m.gltf"})
            for (const bool skin : {false, true})
                BOOST_TEST_CONTEXT(m.name << " " << name << " skin " << skin) {
                    const sidecar::ModelSidecar sc = export_model_files(m, dir.path, name, skin);
                    BOOST_TEST(sc.record.written.recorded());
                    BOOST_TEST(sc.record.written.buffer.empty() == (name == std::string("m.glb")));
                    const fs::path file = dir.path / name;
                    const auto settings = import_settings(file);
                    const auto fast = conversion::rebuild_unchanged_model(file, sc, settings);
                    BOOST_TEST_REQUIRE(fast.has_value());
                    const conversion::ModelImport full = full_model_import(file, sc, settings);
                    BOOST_TEST((fast->msh == full.msh));
                    BOOST_TEST((fast->msh == m.image));
                    BOOST_TEST(fast->identical == full.identical);
                    BOOST_TEST(conversion::report_json(*fast).dump() ==
                               conversion::report_json(full).dump());
                    BOOST_TEST(fast->warnings == full.warnings, boost::test_tools::per_element());
                    ++checked;
                }
    BOOST_TEST(checked >= 240u);
}

// An export's GLB read for its vertices only (gltf::read_written_vertices, the shortcut's read):
// the same nodes' meshes and the same POSITION, TEXCOORD_0 and TEXCOORD_1 as the full read, for
// every sample model. A file in another shape declines, and a damaged copy (every byte of the JSON
// chunk changed in turn, every length of the file) declines or reads within its bounds.
BOOST_AUTO_TEST_CASE(an_exports_vertices_are_read_straight_from_its_glb) {
    test::TempDir dir;
    Bytes smallest;
    size_t checked = 0;
    for (const CorpusModel& m : corpus_models()) {
        export_model_files(m, dir.path, "m.glb", false);
        const Bytes glb = read_file(dir.path / "m.glb");
        if (smallest.empty() || glb.size() < smallest.size()) smallest = glb;
        const std::optional<scene::Scene> fast = gltf::read_written_vertices(glb);
        BOOST_TEST_REQUIRE(fast.has_value(), m.name);
        DiagnosticSink sink(ReadMode::Tolerant);
        const scene::Scene full = gltf::read_glb(glb, "m.glb", sink);
        BOOST_TEST_REQUIRE(fast->nodes.size() == full.nodes.size());
        for (size_t n = 0; n < full.nodes.size(); ++n)
            BOOST_TEST(fast->nodes[n].mesh == full.nodes[n].mesh);
        BOOST_TEST_REQUIRE(fast->meshes.size() == full.meshes.size());
        for (size_t k = 0; k < full.meshes.size(); ++k) {
            const auto& want = full.meshes[k].primitives;
            const auto& got = fast->meshes[k].primitives;
            BOOST_TEST_REQUIRE(got.size() == want.size());
            for (size_t p = 0; p < want.size(); ++p)
                for (const char* name : {"POSITION", "TEXCOORD_0", "TEXCOORD_1"}) {
                    BOOST_TEST(got[p].attributes.count(name) == want[p].attributes.count(name));
                    if (want[p].attributes.count(name) && got[p].attributes.count(name))
                        BOOST_TEST(
                            (got[p].attributes.at(name).data == want[p].attributes.at(name).data),
                            m.name << " mesh " << k << " " << name);
                }
        }
        ++checked;
    }
    BOOST_TEST(checked > 50u);

    // Every occurrence of `from` replaced.
    const auto with = [&](const std::string& from, const std::string& to) {
        std::string text(smallest.begin(), smallest.end());
        size_t at = text.find(from);
        BOOST_TEST_REQUIRE(at != std::string::npos);
        for (; at != std::string::npos; at = text.find(from, at))
            text.replace(at, from.size(), to); // the same length: the chunk sizes still hold
        return Bytes(text.begin(), text.end());
    };
    BOOST_TEST(
        !gltf::read_written_vertices(with("\"componentType\":5126", "\"componentType\":5123")));
    BOOST_TEST(!gltf::read_written_vertices(with("\"VEC3\"", "\"VEC4\"")));
    BOOST_TEST(!gltf::read_written_vertices(with("\"mode\":4", "\"mode\":1")));
    BOOST_TEST(!gltf::read_written_vertices(with("\"buffer\":0", "\"buffer\":1")));

    uint32_t json_size = 0;
    std::memcpy(&json_size, smallest.data() + 12, 4);
    size_t read = 0;
    for (size_t i = 20; i < 20 + json_size; ++i)
        for (const uint8_t c : {uint8_t('9'), uint8_t('"'), uint8_t(0xC3)}) {
            Bytes damaged = smallest;
            damaged[i] = c;
            read += gltf::read_written_vertices(damaged).has_value();
        }
    for (size_t n = 0; n < smallest.size(); ++n) {
        Bytes cut(smallest.begin(), smallest.begin() + std::ptrdiff_t(n));
        if (n >= 12) std::memcpy(cut.data() + 8, &n, 4); // the header's length agrees
        BOOST_TEST(!gltf::read_written_vertices(cut));
    }
    BOOST_TEST(read > 0u); // some changes leave a readable file (a digit of a name, a float)
}

BOOST_AUTO_TEST_CASE(any_other_file_or_setting_reads_the_scene) {
    test::TempDir dir;
    const std::vector<CorpusModel> models = corpus_models();
    BOOST_TEST_REQUIRE(!models.empty());
    const CorpusModel& m = models.front();

    sidecar::ModelSidecar glb = export_model_files(m, dir.path, "m.glb", false);
    const fs::path file = dir.path / "m.glb";
    auto settings = import_settings(file);
    BOOST_TEST(conversion::rebuild_unchanged_model(file, glb, settings).has_value());
    // The export's own fps is the recorded export; another, or one animation picked, is not.
    settings.fps = glb.record.fps;
    BOOST_TEST(conversion::rebuild_unchanged_model(file, glb, settings).has_value());
    settings.fps = glb.record.fps * 2;
    BOOST_TEST(!conversion::rebuild_unchanged_model(file, glb, settings).has_value());
    settings = import_settings(file);
    settings.animation = "0";
    BOOST_TEST(!conversion::rebuild_unchanged_model(file, glb, settings).has_value());
    settings = import_settings(file);
    // A copy under another extension is not the file the export wrote.
    fs::copy_file(file, dir.path / "copy.gltf");
    BOOST_TEST(!conversion::rebuild_unchanged_model(dir.path / "copy.gltf", glb, settings));
    // A sidecar from before the record, or without a pairing token.
    sidecar::ModelSidecar old = glb;
    old.record.written = {};
    BOOST_TEST(!conversion::rebuild_unchanged_model(file, old, settings).has_value());
    old = glb;
    old.record.pair.clear();
    BOOST_TEST(!conversion::rebuild_unchanged_model(file, old, settings).has_value());
    // One byte of the file.
    flip_last_byte(file);
    BOOST_TEST(!conversion::rebuild_unchanged_model(file, glb, settings).has_value());

    // .gltf: its buffer counts too.
    const sidecar::ModelSidecar gltf = export_model_files(m, dir.path, "m.gltf", false);
    const fs::path text = dir.path / "m.gltf";
    BOOST_TEST_REQUIRE(conversion::rebuild_unchanged_model(text, gltf, settings).has_value());
    const fs::path bin = dir.path / gltf.record.written.buffer;
    BOOST_TEST_REQUIRE(fs::exists(bin));
    flip_last_byte(bin);
    BOOST_TEST(!conversion::rebuild_unchanged_model(text, gltf, settings).has_value());
    fs::remove(bin);
    BOOST_TEST(!conversion::rebuild_unchanged_model(text, gltf, settings).has_value());
    // A recorded buffer name that leads out of the folder is not followed.
    sidecar::ModelSidecar outside = gltf;
    outside.record.written.buffer = "../m.bin";
    BOOST_TEST(!conversion::rebuild_unchanged_model(text, outside, settings).has_value());

    // OBJ exports record nothing.
    const sidecar::ModelSidecar obj = export_model_files(m, dir.path, "m.obj", false);
    BOOST_TEST(!obj.record.written.recorded());
}

BOOST_AUTO_TEST_CASE(a_damaged_written_record_is_named) {
    const std::vector<CorpusModel> models = corpus_models();
    BOOST_TEST_REQUIRE(!models.empty());
    conversion::ModelExportSettings settings;
    settings.output_name = "m.gltf";
    settings.format = conversion::SceneFormat::Gltf;
    const conversion::ModelExport x =
        conversion::encode_model({models.front().image, models.front().name}, settings);
    const std::string text = sidecar::model_sidecar_text(x.sidecar);
    auto refused = [&](const std::string& from, const std::string& to, const std::string& at) {
        std::string edited = text;
        const size_t p = edited.find(from);
        BOOST_TEST_REQUIRE(p != std::string::npos, from);
        edited.replace(p, from.size(), to);
        try {
            sidecar::read_model_sidecar(to_bytes(edited), "m.sidecar.json");
            BOOST_ERROR("accepted: " << to);
        } catch (const FormatError& e) {
            BOOST_TEST(std::string(e.what()).find(at) != std::string::npos, e.what());
        }
    };
    const sidecar::WrittenFile& w = x.sidecar.record.written;
    refused("\"" + w.xxh3_64 + "\"", "\"" + w.xxh3_64.substr(1) + "x\"", "/export/written/xxh3_64");
    refused("\"" + w.buffer + "\"", "\"sub/m.bin\"", "/export/written/buffer");
    refused("\"" + w.buffer_xxh3_64 + "\"", "7", "/export/written/buffer_xxh3_64");
}

// The first layout's sidecar (older releases: the whole image and a readable view the import never
// used): the import's reader (read_model_sidecar_for_import) reads what the import uses as the
// whole reader does, and leaves the readable view: a damaged field there does not stop an import,
// a text that is not JSON still does.
sidecar::ModelSidecar first_layout_sidecar(const CorpusModel& m) {
    const conversion::ModelExport x = conversion::encode_model({m.image, m.name}, {});
    return sidecar::make_model_sidecar(read_model(m.image, ReadMode::Tolerant, m.name), m.image,
                                       x.sidecar.record, x.sidecar.original_hash);
}

BOOST_AUTO_TEST_CASE(the_import_reads_only_the_sidecar_members_it_uses) {
    size_t checked = 0;
    for (const CorpusModel& m : corpus_models()) BOOST_TEST_CONTEXT(m.name) {
            struct {
                sidecar::ModelSidecar sidecar;
            } x{first_layout_sidecar(m)};
            const Bytes text = to_bytes(sidecar::model_sidecar_text(x.sidecar));
            const sidecar::ModelSidecar whole = sidecar::read_model_sidecar(text, "s");
            const sidecar::ModelSidecar part = sidecar::read_model_sidecar_for_import(text, "s");
            BOOST_TEST((part.original_image == whole.original_image));
            BOOST_TEST(part.original_hash == whole.original_hash);
            BOOST_TEST(nlohmann::json(test::sidecar_json(part)["export"]).dump() ==
                       nlohmann::json(test::sidecar_json(whole)["export"]).dump());
            BOOST_TEST(test::sidecar_json(part)["wear"].dump() ==
                       test::sidecar_json(whole)["wear"].dump());
            BOOST_TEST(test::sidecar_json(part)["source"].dump() ==
                       test::sidecar_json(whole)["source"].dump());
            BOOST_TEST(part.model.entries.empty());
            BOOST_TEST(!whole.model.entries.empty());
            ++checked;
        }
    BOOST_TEST(checked >= 60u);

    const std::vector<CorpusModel> models = corpus_models();
    const struct { sidecar::ModelSidecar sidecar; } x{first_layout_sidecar(models[0])};
    nlohmann::json doc = test::sidecar_json(x.sidecar);
    doc["nodes"][0]["flags"] = "text";
    const Bytes damaged_view = to_bytes(doc.dump());
    BOOST_CHECK_THROW(sidecar::read_model_sidecar(damaged_view, "s"), FormatError);
    BOOST_TEST((sidecar::read_model_sidecar_for_import(damaged_view, "s").original_image ==
                models[0].image));
    doc = test::sidecar_json(x.sidecar);
    doc["export"]["fps"] = "text";
    BOOST_CHECK_THROW(sidecar::read_model_sidecar_for_import(to_bytes(doc.dump()), "s"),
                      FormatError);
    std::string not_json = sidecar::model_sidecar_text(x.sidecar);
    not_json.insert(not_json.find("\"nodes\"") + 9, "[");
    BOOST_CHECK_THROW(sidecar::read_model_sidecar_for_import(to_bytes(not_json), "s"), FormatError);
}

BOOST_AUTO_TEST_CASE(every_sample_map_file_imports_as_reading_it_does) {
    test::TempDir dir;
    size_t checked = 0;
    for (const auto& f : samples::generate_maps(1998, false)) {
        const fs::path p = dir.path / "in" / f.relative_path;
        fs::create_directories(p.parent_path());
        write_file_atomic(p, f.bytes);
    }
    for (const auto& e : fs::recursive_directory_iterator(dir.path / "in")) {
        if (e.path().filename() != "Land.msh") continue;
        const conversion::LevelFiles level = conversion::read_level_files(e.path());
        for (const char* name : {"t.glb", "t.gltf"}) BOOST_TEST_CONTEXT(e.path() << " " << name) {
                conversion::TerrainExportSettings settings;
                settings.format = *conversion::scene_format_of(name);
                settings.output_name = name;
                const conversion::TerrainExport x =
                    conversion::encode_terrain(level.export_input(), settings);
                conversion::write_outputs(dir.path, x.files);
                const auto sc = sidecar::read_terrain_sidecar(
                    to_bytes(sidecar::terrain_sidecar_text(x.sidecar)), "t.sidecar.json");
                BOOST_TEST_REQUIRE(sc.has_value());
                BOOST_TEST(sc->record.written.recorded());
                const fs::path file = dir.path / name;
                const conversion::TerrainImportSettings is{file.string(), "t.sidecar.json", false};
                const auto fast = conversion::rebuild_unchanged_terrain(file, *sc, is);
                BOOST_TEST_REQUIRE(fast.has_value());
                std::vector<std::string> warnings;
                const mapping::TerrainImportResult full = conversion::rebuild_terrain(
                    conversion::read_terrain_scene_file(file, warnings), *sc, is);
                BOOST_TEST(warnings.empty());
                BOOST_TEST((fast->land_msh == full.land_msh));
                BOOST_TEST((fast->land_map == full.land_map));
                BOOST_TEST((fast->land_msh == level.land_msh.bytes));
                BOOST_TEST(fast->msh_identical == full.msh_identical);
                BOOST_TEST(fast->map_identical == full.map_identical);
                BOOST_TEST(fast->pairing == full.pairing);
                BOOST_TEST(mapping::to_json(fast->report).dump() ==
                           mapping::to_json(full.report).dump());
                // The front door takes the shortcut only for this file.
                std::vector<std::string> none;
                BOOST_TEST((conversion::rebuild_terrain_from_file(file, *sc, is, none).land_msh ==
                            full.land_msh));
                flip_last_byte(file);
                BOOST_TEST(!conversion::rebuild_unchanged_terrain(file, *sc, is).has_value());
                ++checked;
            }
    }
    BOOST_TEST(checked >= 6u);
}

// A first-layout texture sidecar's PNG as its export wrote it gives what decoding it gives (the
// kept sidecars of tests/fixtures/sidecar_v1; a binding sidecar always decodes); with mips,
// another format, a smaller pixel limit or one byte changed the PNG is decoded.
BOOST_AUTO_TEST_CASE(every_sample_texture_png_imports_as_decoding_it_does) {
    const fs::path kept = fs::path(MSHCONV_SOURCE_DIR) / "tests" / "fixtures" / "sidecar_v1";
    size_t checked = 0;
    for (const char* name : {"barrel_dk", "decal", "beak"}) BOOST_TEST_CONTEXT(name) {
            const auto sc = sidecar::read_texture_sidecar(
                read_file(kept / (std::string(name) + ".sidecar.json")), "a.sidecar.json");
            BOOST_TEST_REQUIRE(sc.written.recorded());
            conversion::TextureImportInput in;
            conversion::TextureImportSettings ts;
            in.png = read_file(kept / (std::string(name) + ".png"));
            in.sidecar = sc;
            ts.where = "a.png";
            const conversion::TextureImport fast = conversion::rebuild_texture(in, ts);
            in.sidecar->written = {}; // as a sidecar from before the record: decoded
            const conversion::TextureImport full = conversion::rebuild_texture(in, ts);
            BOOST_TEST((fast.texm == full.texm));
            BOOST_TEST((fast.texm == sc.original));
            BOOST_TEST(fast.identical == full.identical);
            BOOST_TEST(fast.notes == full.notes, boost::test_tools::per_element());
            ++checked;
        }
    BOOST_TEST(checked == 3u);

    // The cases the shortcut leaves to the decode, seen by their outcome.
    const nres::Archive ar = [] {
        for (const auto& f : test::corpus())
            if (fs::path(f.relative_path).filename() == "Textures.lib")
                return nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        throw std::runtime_error("no Textures.lib in the corpus");
    }();
    const nres::Entry& e = ar.entries.front();
    const test::TextureFiles x = test::texture_files(e.data, e.name(), "a.png", false);
    conversion::TextureImportInput in;
    conversion::TextureImportSettings ts;
    in.png = x.png;
    in.sidecar = x.sidecar;
    ts.where = "a.png";
    ts.max_pixels = 1; // the decode refuses the PNG; so must the import
    BOOST_CHECK_THROW(conversion::rebuild_texture(in, ts), FormatError);
    ts.max_pixels = png::kDefaultMaxPixels;
    in.png.back() ^= 0x20; // the IEND chunk's CRC: the decode refuses it
    BOOST_CHECK_THROW(conversion::rebuild_texture(in, ts), FormatError);
    in.png = x.png;
    BOOST_TEST(conversion::rebuild_texture(in, ts).identical);
    const test::TextureFiles with_mips = test::texture_files(e.data, e.name(), "a.png", true);
    BOOST_TEST_REQUIRE(!with_mips.sidecar.mips.empty());
    in.sidecar = with_mips.sidecar;
    in.mips.assign(with_mips.mips.begin(), with_mips.mips.end());
    in.mips.front() = Bytes(9, 1); // an edited mip is read (and this one is no PNG)
    BOOST_CHECK_THROW(conversion::rebuild_texture(in, ts), FormatError);
}

// The command line: `convert` takes the shortcut (seen in --verbose), `--full-read` reads the
// file; the model and the report are the same either way.
BOOST_AUTO_TEST_CASE(convert_takes_the_shortcut_unless_told_to_read) {
    const fs::path dir = test::scratch("unchanged_cli");
    fs::create_directories(dir);
    const std::string model = test::q(test::corpus_dir() / "animals.rlb") + ":A_BIG.msh";
    BOOST_TEST_REQUIRE(test::mshconv("convert " + model + " " + test::q(dir / "a.glb")).code == 0);
    const test::Run fast =
        test::mshconv("convert --verbose " + test::q(dir / "a.glb") + " " +
                      test::q(dir / "fast.msh") + " --report " + test::q(dir / "fast.json"));
    BOOST_TEST_REQUIRE(fast.code == 0, fast.out);
    const test::Run full =
        test::mshconv("convert --verbose --full-read " + test::q(dir / "a.glb") + " " +
                      test::q(dir / "full.msh") + " --report " + test::q(dir / "full.json"));
    BOOST_TEST_REQUIRE(full.code == 0, full.out);
    const std::string said = "the scene not read";
    BOOST_TEST(fast.out.find(said) != std::string::npos, fast.out);
    BOOST_TEST(full.out.find(said) == std::string::npos, full.out);
    BOOST_TEST((read_file(dir / "fast.msh") == read_file(dir / "full.msh")));
    auto report = [&](const char* name) {
        nlohmann::json r = nlohmann::json::parse(to_string(read_file(dir / name)));
        r.erase("output");
        // The warnings name OUT too.
        std::string text = r.dump();
        const std::string out = std::string(name).substr(0, std::string(name).find('.')) + ".msh";
        for (size_t at; (at = text.find(out)) != std::string::npos;)
            text.replace(at, out.size(), "OUT.msh");
        return text;
    };
    BOOST_TEST(report("fast.json") == report("full.json"));
}

// `batch --to nres` takes the shortcut for every model the forward batch wrote and `--full-read`
// for none; both give the same tree back.
BOOST_AUTO_TEST_CASE(batch_takes_the_shortcut_unless_told_to_read) {
    const fs::path dir = test::scratch("unchanged_batch");
    fs::remove_all(dir);
    const std::string out = test::q(dir / "out");
    test::Run r = test::mshconv("batch " + test::q(test::corpus_dir()) + " --to glb,png -o " + out);
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const test::Run fast =
        test::mshconv("batch " + out + " --to nres --verbose -o " + test::q(dir / "fast"));
    BOOST_TEST_REQUIRE(fast.code == 0, fast.out);
    const test::Run full = test::mshconv("batch " + out + " --to nres --verbose --full-read -o " +
                                         test::q(dir / "full"));
    BOOST_TEST_REQUIRE(full.code == 0, full.out);
    const auto count = [](const std::string& text) {
        size_t n = 0;
        for (size_t at = 0; (at = text.find("the scene not read", at)) != std::string::npos; ++at)
            ++n;
        return n;
    };
    BOOST_TEST(count(fast.out) >= 60u);
    BOOST_TEST(count(full.out) == 0u);
    size_t files = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir / "fast")) {
        if (!e.is_regular_file()) continue;
        const fs::path rel = fs::relative(e.path(), dir / "fast");
        BOOST_TEST((read_file(e.path()) == read_file(dir / "full" / rel)), rel);
        BOOST_TEST((read_file(e.path()) == read_file(test::corpus_dir() / rel)), rel);
        ++files;
    }
    BOOST_TEST(files > 10u);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace unchanged_import_tests
