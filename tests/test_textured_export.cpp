// Textured model export (texm-materials.md §12): batch -> WEAR row -> MAT0 -> phase-0 texture ->
// Texm -> PNG in glTF (files beside .gltf, bufferView images in .glb) and OBJ (map_Kd).
#include "corpus.hpp"
#include "test_util.hpp"

#include "formats/file_io.hpp"
#include "formats/material.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "formats/tinygltf.hpp"
#include "mapping/materials.hpp"
#include "samples/textures_gen.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

using namespace msh;
namespace fs = std::filesystem;

using test::mshconv;
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
    std::vector<std::string> warnings;
    const auto r =
        mapping::resolve_materials({"brick_02", "UNTEXTURED", "NO_SUCH_MATERIAL"}, libs, warnings);
    BOOST_REQUIRE(r.size() == 3u);
    BOOST_TEST(r[0].image.has_value()); // case-insensitive MAT0 lookup
    BOOST_TEST(r[0].extras["mat0"] == "BRICK_02");
    BOOST_TEST(r[0].extras["lookup"] == "exact");
    BOOST_TEST(r[0].extras["phase0"]["params"].size() == material::kPhaseParams);
    BOOST_TEST(!r[1].image.has_value()); // empty phase-0 texture name
    BOOST_TEST(r[2].extras["lookup"] != "exact");
    BOOST_TEST(!warnings.empty()); // the fallback is reported

    // No libraries at all: names only, one warning, no failure.
    warnings.clear();
    const auto none = mapping::resolve_materials({"BRICK_02"}, {}, warnings);
    BOOST_TEST(!none[0].image.has_value());
    BOOST_TEST(warnings.size() == 1u);
}

BOOST_AUTO_TEST_CASE(gltf_glb_and_obj_carry_the_textures) {
    const fs::path archive = test::corpus_dir() / "static.rlb";
    const nres::Archive ar = nres::read(read_file(archive), ReadMode::Strict, archive.string());
    std::vector<fs::path> validate;
    size_t models = 0;
    for (const nres::Entry& e : ar.entries) {
        if (!nres::looks_like_nres(e.data) || models >= 3) continue;
        ++models;
        const std::string in = q(archive.string() + ":" + e.name());
        BOOST_TEST_CONTEXT(e.name()) {
            const fs::path gltf = scratch(fs::path(e.name()).stem().string() + ".gltf");
            const fs::path glb = scratch(fs::path(e.name()).stem().string() + ".glb");
            const fs::path obj = scratch(fs::path(e.name()).stem().string() + ".obj");
            for (const fs::path& out : {gltf, glb, obj}) {
                const Run r = run(std::string(MSHCONV_BINARY) + " convert " + in + " " + q(out));
                BOOST_TEST(r.code == 0, r.out);
            }
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

BOOST_AUTO_TEST_CASE(explicit_libraries_and_game_dir) {
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

BOOST_AUTO_TEST_SUITE_END()
