// formats/sniff: every kind of the corpus recognised by content, the name used only where content
// cannot decide, and near-misses refused.
#include "corpus.hpp"

#include "conversion/game_files.hpp"
#include "conversion/game_library_add.hpp"
#include "conversion/model_export.hpp"
#include "conversion/model_import.hpp"
#include "conversion/outputs.hpp"
#include "conversion/preview_image.hpp"
#include "conversion/terrain.hpp"
#include "conversion/texture.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/sniff.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <string>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace msh::sniff_tests {

namespace {

Bytes text(const std::string& s) {
    return Bytes(s.begin(), s.end());
}

const Bytes& corpus_file(const std::string& suffix) {
    for (const auto& f : test::corpus())
        if (f.relative_path.ends_with(suffix)) return f.bytes;
    throw std::runtime_error("no corpus file " + suffix);
}

} // namespace

BOOST_AUTO_TEST_SUITE(sniff_content)

BOOST_AUTO_TEST_CASE(every_corpus_entry_by_content) {
    std::map<ContentKind, size_t> seen;
    for (const auto& f : test::corpus()) {
        const ContentKind file_kind = sniff(f.bytes);
        ++seen[file_kind];
        if (f.relative_path.ends_with("Land.msh")) BOOST_TEST((file_kind == ContentKind::Terrain));
        if (f.relative_path.ends_with("Land.map")) BOOST_TEST((file_kind == ContentKind::ArealMap));
        if (f.relative_path.ends_with(".wea"))
            BOOST_TEST((file_kind == ContentKind::Wear), f.relative_path);
        if (f.relative_path.ends_with(".rlb") || f.relative_path.ends_with(".lib"))
            BOOST_TEST((file_kind == ContentKind::NResArchive), f.relative_path);
        if (file_kind != ContentKind::NResArchive) continue;
        const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            const ContentKind bare = sniff(e.data); // no name, no entry type
            const ContentKind hinted = sniff(e.data, {e.name(), e.type});
            if (e.type == nres::fourcc("Texm")) BOOST_TEST((bare == ContentKind::Texm), e.name());
            if (e.type == nres::fourcc("WEAR")) BOOST_TEST((bare == ContentKind::Wear), e.name());
            if (e.type == nres::fourcc("MAT0"))
                BOOST_TEST((hinted == ContentKind::Material), e.name());
            if (e.name().ends_with(".msh")) BOOST_TEST((bare == ContentKind::Model), e.name());
            ++seen[hinted];
        }
    }
    for (ContentKind k :
         {ContentKind::Model, ContentKind::Terrain, ContentKind::ArealMap, ContentKind::Texm,
          ContentKind::Wear, ContentKind::Material, ContentKind::NResArchive})
        BOOST_TEST(seen[k] > 0u, to_string(k));
}

BOOST_AUTO_TEST_CASE(interchange_files) {
    const nres::Archive ar = nres::read(corpus_file("static.rlb"), ReadMode::Strict, "static");
    const nres::Entry& model = ar.entries.at(0);
    conversion::ModelExportSettings glb;
    const conversion::ModelExport g = conversion::encode_model({model.data, "m"}, glb);
    BOOST_TEST((sniff(g.files.back().bytes) == ContentKind::Glb));
    conversion::ModelExportSettings gltf;
    gltf.format = conversion::SceneFormat::Gltf;
    gltf.output_name = "m.gltf";
    const conversion::ModelExport t = conversion::encode_model({model.data, "m"}, gltf);
    BOOST_TEST((sniff(t.files.back().bytes) == ContentKind::Gltf));
    conversion::ModelExportSettings obj;
    obj.format = conversion::SceneFormat::Obj;
    obj.output_name = "m.obj";
    const conversion::ModelExport o = conversion::encode_model({model.data, "m"}, obj);
    // OBJ is free text: known by its name only.
    BOOST_TEST((sniff(o.files.back().bytes, {"m.obj", {}}) == ContentKind::Obj));
    BOOST_TEST((sniff(o.files.back().bytes) == ContentKind::Unknown));
    const uint8_t pixel[4] = {1, 2, 3, 4};
    BOOST_TEST((sniff(png::encode(1, 1, png::ColorType::RGBA, pixel, {})) == ContentKind::Png));
}

BOOST_AUTO_TEST_CASE(near_misses) {
    BOOST_TEST((sniff({}) == ContentKind::Unknown));
    BOOST_TEST((sniff(text("NRes")) == ContentKind::DamagedNRes));
    Bytes nres = corpus_file("static.rlb");
    nres.resize(40); // the header promises a directory that is not there
    BOOST_TEST((sniff(nres) == ContentKind::DamagedNRes));
    BOOST_TEST((sniff(text("Texm and too short")) == ContentKind::Unknown));
    Bytes glb_v1 = text("glTF\x01");
    glb_v1.resize(12, 0);
    BOOST_TEST((sniff(glb_v1) == ContentKind::Unknown));
    BOOST_TEST((sniff(text("{\"nodes\": []}")) == ContentKind::Unknown)); // JSON, not glTF
    BOOST_TEST((sniff(text("0\r\n")) == ContentKind::Unknown));           // no WEAR rows
    BOOST_TEST((sniff(text("2\r\n0 GRASS\r\n1 ROCK\r\n")) == ContentKind::Wear));
    BOOST_TEST((sniff(text("\x89PNG\r\n")) == ContentKind::Unknown)); // a cut signature
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace msh::sniff_tests
