// Textured model export (texm-materials.md §12): batch -> WEAR row -> MAT0 -> phase-0 texture ->
// Texm -> PNG in glTF (files beside .gltf, bufferView images in .glb) and OBJ (map_Kd).
#include "corpus.hpp"
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
#include "formats/material.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "formats/tinygltf.hpp"
#include "formats/wear.hpp"
#include "mapping/materials.hpp"
#include "samples/textures_gen.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace textured_export_tests {

using namespace msh;
namespace fs = std::filesystem;

using test::q;
using test::Run;
using test::run;
using test::scratch;

namespace {

nres::Archive open_lib(const char* name) {
    const fs::path p = test::corpus_dir() / name;
    return nres::read(read_file(p), ReadMode::Strict, p.string());
}

// Level 0 of the Textures.lib entry named `name`, decoded.
texm::Image texture_level0(const std::string& name) {
    static const nres::Archive lib = open_lib(samples::kTexturesLib);
    const auto i = lib.find(name);
    BOOST_REQUIRE(i.has_value());
    return texm::decode_level(texm::read(lib.entries[*i].data, ReadMode::Strict, name), 0);
}

bool load_gltf(const fs::path& file, tinygltf::Model& m) {
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(
        [](tinygltf::Image* image, const int, std::string*, std::string*, int, int,
           const unsigned char* bytes, int size, void*) {
            image->image.assign(bytes, bytes + size);
            return true;
        },
        nullptr);
    std::string err, warn;
    return file.extension() == ".glb" ? loader.LoadBinaryFromFile(&m, &err, &warn, file.string())
                                      : loader.LoadASCIIFromFile(&m, &err, &warn, file.string());
}

// Every textured material's image equals level 0 of its texture; returns how many were checked.
size_t check_images(const fs::path& file) {
    tinygltf::Model m;
    BOOST_REQUIRE_MESSAGE(load_gltf(file, m), file);
    size_t checked = 0;
    for (const tinygltf::Material& mat : m.materials) {
        const int ti = mat.pbrMetallicRoughness.baseColorTexture.index;
        if (ti < 0) continue;
        BOOST_TEST(mat.pbrMetallicRoughness.baseColorTexture.texCoord == 0);
        BOOST_TEST(mat.alphaMode == "OPAQUE");
        const tinygltf::Texture& tex = m.textures.at(size_t(ti));
        const tinygltf::Image& img = m.images.at(size_t(tex.source));
        Bytes png;
        if (img.bufferView >= 0) {
            BOOST_TEST(img.mimeType == "image/png");
            png = img.image; // kept raw by the loader above
        } else {
            BOOST_TEST(!img.uri.empty());
            png = read_file(file.parent_path() / img.uri);
        }
        const auto& extras = mat.extras.Get("material").Get("texture");
        const std::string name = extras.Get("name").Get<std::string>();
        BOOST_TEST_CONTEXT(file.filename().string() << " " << mat.name << " " << name) {
            BOOST_TEST((png::decode(png).rgba == texture_level0(name)));
        }
        const tinygltf::Sampler& s = m.samplers.at(size_t(tex.sampler));
        BOOST_TEST(s.minFilter == TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_LINEAR);
        BOOST_TEST(s.magFilter == TINYGLTF_TEXTURE_FILTER_LINEAR);
        BOOST_TEST(s.wrapS == TINYGLTF_TEXTURE_WRAP_REPEAT);
        ++checked;
    }
    return checked;
}

// `archive:entry` -> `out` through the library's front door, as `convert` does it: the model's
// WEAR from the same archive, the libraries from the corpus folder; files and sidecar written.
void export_entry(const fs::path& archive, const std::string& entry, const fs::path& out,
                  conversion::ModelExportSettings settings = {}) {
    const nres::Archive ar = nres::read(read_file(archive), ReadMode::Strict, archive.string());
    const auto i = ar.find(entry);
    BOOST_TEST_REQUIRE(i.has_value(), entry);
    conversion::ModelExportInput in(ar.entries[*i].data, archive.string() + ":" + entry);
    const std::string wear = entry.substr(0, entry.rfind('.')) + ".wea";
    if (const auto w = ar.find(wear))
        in.wear =
            conversion::NamedBytes{archive.string() + ":" + wear, ar.entries[*w].data.to_bytes()};
    in.libraries = [dir = archive.parent_path()](const mapping::LibraryNeeds& needs) {
        std::vector<std::string> warnings; // only what the model needs, as the CLI reads them
        return std::make_shared<const mapping::MaterialLibraries>(
            conversion::open_game_libraries(dir, {}, warnings, &needs));
    };
    settings.format = *conversion::scene_format_of(out.filename().string());
    settings.output_name = out.filename().string();
    const conversion::ModelExport x = conversion::encode_model(in, settings);
    conversion::write_outputs(out.parent_path(), x.files);
    const std::string sidecar = sidecar::model_sidecar_text(x.sidecar);
    write_file_atomic(out.parent_path() / conversion::default_sidecar_name(settings.output_name),
                      Bytes(sidecar.begin(), sidecar.end()));
}

bool have_validator() {
    const fs::path src = MSHCONV_SOURCE_DIR;
    return fs::exists(src / "tools/node/node_modules/gltf-validator") &&
           std::system("command -v node >/dev/null 2>&1") == 0;
}

} // namespace

BOOST_AUTO_TEST_SUITE(textured_export)

BOOST_AUTO_TEST_CASE(chain_resolves_rows_to_textures) {
    mapping::MaterialLibraries libs;
    libs.materials = open_lib(samples::kMaterialLib);
    libs.textures = open_lib(samples::kTexturesLib);
    libs.palettes = open_lib(samples::kPalettesLib);
    DiagnosticSink warnings(ReadMode::Tolerant);
    const auto r =
        mapping::resolve_materials({"brick_02", "UNTEXTURED", "NO_SUCH_MATERIAL"}, libs, warnings);
    BOOST_REQUIRE(r.size() == 3u);
    BOOST_TEST(r[0].image.has_value()); // case-insensitive MAT0 lookup
    BOOST_TEST(r[0].extras["mat0"] == "BRICK_02");
    BOOST_TEST(r[0].extras["lookup"] == "exact");
    BOOST_TEST(r[0].extras["phase0"]["params"].size() == material::kPhaseParams);
    BOOST_TEST(!r[1].image.has_value()); // empty phase-0 texture name
    BOOST_TEST(r[2].extras["lookup"] != "exact");
    BOOST_TEST(!warnings.diagnostics().empty()); // the fallback is reported

    // No libraries at all: names only, one warning, no failure.
    warnings = DiagnosticSink(ReadMode::Tolerant);
    const auto none = mapping::resolve_materials({"BRICK_02"}, {}, warnings);
    BOOST_TEST(!none[0].image.has_value());
    BOOST_TEST(warnings.diagnostics().size() == 1u);
}

BOOST_AUTO_TEST_CASE(gltf_glb_and_obj_carry_the_textures) {
    const fs::path archive = test::corpus_dir() / "static.rlb";
    const nres::Archive ar = nres::read(read_file(archive), ReadMode::Strict, archive.string());
    std::vector<fs::path> validate;
    size_t models = 0;
    for (const nres::Entry& e : ar.entries) {
        if (!nres::looks_like_nres(e.data) || models >= 3) continue;
        ++models;
        BOOST_TEST_CONTEXT(e.name()) {
            const fs::path gltf = scratch(fs::path(e.name()).stem().string() + ".gltf");
            const fs::path glb = scratch(fs::path(e.name()).stem().string() + ".glb");
            const fs::path obj = scratch(fs::path(e.name()).stem().string() + ".obj");
            for (const fs::path& out : {gltf, glb, obj}) export_entry(archive, e.name(), out);
            const size_t a = check_images(gltf), b = check_images(glb);
            BOOST_TEST(a > 0u);
            BOOST_TEST(a == b);
            validate.push_back(gltf);
            validate.push_back(glb);
            // OBJ: map_Kd lines whose PNGs exist beside the OBJ.
            const Bytes mtl = read_file(obj.parent_path() / (obj.stem().string() + ".mtl"));
            const std::string text(mtl.begin(), mtl.end());
            size_t maps = 0;
            for (size_t at = text.find("map_Kd "); at != std::string::npos;
                 at = text.find("map_Kd ", at + 1)) {
                const std::string file = text.substr(at + 7, text.find('\n', at) - at - 7);
                BOOST_TEST(fs::exists(obj.parent_path() / file), file);
                ++maps;
            }
            BOOST_TEST(maps == a);
        }
    }
    BOOST_TEST(models == 3u);

    if (!have_validator()) {
        BOOST_TEST_MESSAGE("glTF-Validator not installed (tools/node); skipped");
        return;
    }
    std::string cmd = "node " + q(fs::path(MSHCONV_SOURCE_DIR) / "tools/validate-gltf.mjs");
    for (const fs::path& f : validate) {
        cmd += ' ';
        cmd += q(f);
    }
    const Run v = run(cmd);
    BOOST_TEST(v.code == 0, v.out);
}

BOOST_AUTO_TEST_CASE(cli_explicit_libraries_and_game_dir) {
    const fs::path archive = test::corpus_dir() / "static.rlb";
    // A model copied away from the libraries: untextured (with a warning), still exported.
    const fs::path lonely = scratch("lonely/static.rlb");
    fs::copy_file(archive, lonely, fs::copy_options::overwrite_existing);
    const nres::Archive ar = nres::read(read_file(archive), ReadMode::Strict, archive.string());
    std::string model;
    for (const nres::Entry& e : ar.entries)
        if (nres::looks_like_nres(e.data)) {
            model = e.name();
            break;
        }
    const fs::path out = scratch("lonely/out.gltf");
    Run r = run(std::string(MSHCONV_BINARY) + " convert " + q(lonely.string() + ":" + model) + " " +
                q(out));
    BOOST_TEST(r.code == 0, r.out);
    BOOST_TEST(check_images(out) == 0u);
    // --game-dir finds them.
    r = run(std::string(MSHCONV_BINARY) + " convert " + q(lonely.string() + ":" + model) + " " +
            q(out) + " --game-dir " + q(test::corpus_dir()));
    BOOST_TEST(r.code == 0, r.out);
    BOOST_TEST(check_images(out) > 0u);
    // Explicit files.
    r = run(std::string(MSHCONV_BINARY) + " convert " + q(lonely.string() + ":" + model) + " " +
            q(out) + " --materials " + q(test::corpus_dir() / samples::kMaterialLib) +
            " --textures " + q(test::corpus_dir() / samples::kTexturesLib));
    BOOST_TEST(r.code == 0, r.out);
    BOOST_TEST(check_images(out) > 0u);
    // A wrong explicit path is a usage error.
    r = run(std::string(MSHCONV_BINARY) + " convert " + q(lonely.string() + ":" + model) + " " +
            q(out) + " --materials /nonexistent/Material.lib");
    BOOST_TEST(r.code == 2, r.out);
}

// Lightmaps (texm-materials.md §11-§12; the Res18 UV and opaque4 lit-flag readings are
// unverified): TEXCOORD_2 = Res18 / 1024 for the vertex TEXCOORD_1 names, lit batches use a
// `_lit` material whose occlusionTexture (texCoord 2) is level 0 of the WEAR's lightmap.
BOOST_AUTO_TEST_CASE(lightmapped_models_carry_the_lightmap_on_texcoord_2) {
    const nres::Archive lightmaps = open_lib(samples::kLightMapLib);
    size_t lightmapped = 0, plain = 0, lit_primitives = 0, unlit_primitives = 0;
    for (const auto& f : test::corpus()) {
        if (!f.relative_path.ends_with(".rlb")) continue;
        const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (e.type != nres::fourcc("MESH")) continue;
            const auto w = ar.find(e.name().substr(0, e.name().rfind('.')) + ".wea");
            BOOST_TEST_REQUIRE(w.has_value());
            const wear::Wear table = wear::read(ar.entries[*w].data, e.name());
            const bool has_lightmap = !table.lightmaps.empty();
            if (!has_lightmap && plain >= 3) continue; // a few plain models suffice
            BOOST_TEST_CONTEXT(f.relative_path << ":" << e.name()) {
                const Model model = read_model(e.data, ReadMode::Strict, e.name());
                const fs::path glb = scratch("lm_" + e.name() + ".glb");
                conversion::ModelExportSettings all;
                all.lod = all.group = mapping::kAll;
                export_entry(test::corpus_dir() / f.relative_path, e.name(), glb, all);
                DiagnosticSink warnings(ReadMode::Tolerant);
                const scene::Scene sc = gltf::read(glb, warnings);
                tinygltf::Model m;
                BOOST_TEST_REQUIRE(load_gltf(glb, m));
                if (!has_lightmap) {
                    ++plain;
                    for (const scene::Mesh& mesh : sc.meshes)
                        for (const scene::Primitive& p : mesh.primitives)
                            BOOST_TEST(!p.attributes.count("TEXCOORD_2"));
                    for (const tinygltf::Material& mat : m.materials)
                        BOOST_TEST(mat.occlusionTexture.index == -1);
                    continue;
                }
                ++lightmapped;
                const nres::Entry* res18 = model.entry(kVertexStream18);
                BOOST_TEST_REQUIRE(res18 != nullptr);
                const auto li = lightmaps.find(table.lightmaps[0].name);
                BOOST_TEST_REQUIRE(li.has_value());
                const texm::Image want = texm::decode_level(
                    texm::read(lightmaps.entries[*li].data, ReadMode::Strict, "lm"), 0);
                for (const scene::Mesh& mesh : sc.meshes)
                    for (const scene::Primitive& p : mesh.primitives) {
                        const auto& id = p.attributes.at("TEXCOORD_1").data;
                        const auto uv2 = p.attributes.find("TEXCOORD_2");
                        BOOST_TEST_REQUIRE((uv2 != p.attributes.end()));
                        BOOST_TEST_REQUIRE(uv2->second.data.size() == id.size());
                        for (size_t k = 0; k + 1 < id.size(); k += 2) {
                            const size_t v = size_t(id[k]);
                            BOOST_TEST(uv2->second.data[k] ==
                                       float(load<uint16_t>(res18->data, v * 4)) / 1024.0f);
                            BOOST_TEST(uv2->second.data[k + 1] ==
                                       float(load<uint16_t>(res18->data, v * 4 + 2)) / 1024.0f);
                        }
                        const Batch& b = model.batches.at(size_t(id[1]));
                        const bool lit = (b.opaque4 >> 8) == 0;
                        (lit ? lit_primitives : unlit_primitives)++;
                        const tinygltf::Material& mat = m.materials.at(size_t(p.material));
                        BOOST_TEST(mat.name.ends_with("_lit") == lit, mat.name);
                        BOOST_TEST((mat.occlusionTexture.index >= 0) == lit, mat.name);
                        if (!lit) continue;
                        BOOST_TEST(mat.occlusionTexture.texCoord == 2);
                        const tinygltf::Image& img = m.images.at(
                            size_t(m.textures.at(size_t(mat.occlusionTexture.index)).source));
                        BOOST_TEST(img.name == lightmaps.entries[*li].name());
                        BOOST_TEST((png::decode(img.image).rgba == want));
                    }
                // OBJ has no slot for it: no lit variants, no lightmap file.
                const fs::path obj = scratch("lm_" + e.name() + ".obj");
                export_entry(test::corpus_dir() / f.relative_path, e.name(), obj);
                const Bytes mtl = read_file(obj.parent_path() / (obj.stem().string() + ".mtl"));
                BOOST_TEST(std::string(mtl.begin(), mtl.end()).find("_lit") == std::string::npos);
                BOOST_TEST(!fs::exists(obj.parent_path() / (obj.stem().string() + "_" +
                                                            table.lightmaps[0].name + ".png")));
            }
        }
    }
    BOOST_TEST(lightmapped >= 5u);
    BOOST_TEST(plain == 3u);
    BOOST_TEST(lit_primitives > 0u);
    BOOST_TEST(unlit_primitives > 0u);
}

BOOST_AUTO_TEST_CASE(cli_missing_lightmap_is_a_warning) {
    // The libraries without LightMap.lib: the lit materials keep their base colour, no lightmap.
    const fs::path dir = scratch("no-lightmaps");
    fs::create_directories(dir);
    for (const char* f : {"static.rlb", "Material.lib", "Textures.lib"})
        fs::copy_file(test::corpus_dir() / f, dir / f, fs::copy_options::overwrite_existing);
    const fs::path glb = dir / "silo.glb";
    const Run r = test::mshconv("convert " + q(dir / "static.rlb") + ":Silo_L.msh " + q(glb));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    BOOST_TEST(r.out.find("no LightMap.lib") != std::string::npos, r.out);
    tinygltf::Model m;
    BOOST_TEST_REQUIRE(load_gltf(glb, m));
    size_t textured = 0;
    for (const tinygltf::Material& mat : m.materials) {
        BOOST_TEST(mat.occlusionTexture.index == -1);
        textured += mat.pbrMetallicRoughness.baseColorTexture.index >= 0;
    }
    BOOST_TEST(textured > 0u);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace textured_export_tests
