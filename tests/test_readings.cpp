// The contested readings (formats/readings.hpp, docs/formats/README.md): each variant decodes what
// a file written that way means, an export records its readings, and a round trip under any
// variant gives the original bytes.
#include "corpus.hpp"
#include "import_fixtures.hpp"
#include "test_util.hpp"

#include "conversion/game_files.hpp"
#include "conversion/game_library_add.hpp"
#include "conversion/model_export.hpp"
#include "conversion/model_import.hpp"
#include "conversion/outputs.hpp"
#include "conversion/preview_image.hpp"
#include "conversion/terrain.hpp"
#include "conversion/texture.hpp"
#include "formats/anim.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/readings.hpp"
#include "formats/texm.hpp"
#include "formats/wear.hpp"
#include "mapping/model_to_scene.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/terrain_sidecar.hpp"
#include "sidecar/terrain_sidecar_read.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace readings_tests {

using namespace msh;

namespace {

// The first corpus model with an animated node.
Bytes animated_corpus_model(std::string& name) {
    for (const auto& f : test::corpus()) {
        if (f.relative_path.find(".rlb") == std::string::npos) continue;
        const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (!nres::looks_like_nres(e.data)) continue;
            const Model m = read_model(e.data, ReadMode::Strict, e.name());
            if (m.animation.keys.size() > m.nodes.size()) {
                name = f.relative_path + ":" + e.name();
                return e.data.to_bytes();
            }
        }
    }
    return {};
}

// The same model with every key's rotation stored under `order`.
Bytes restored_keys(const Bytes& image, KeyQuaternion order) {
    Model m = read_model(image, ReadMode::Strict, "m");
    for (anim::Key& k : m.animation.keys)
        k.rot = anim::encode_quat(anim::decode_quat(k.rot), order);
    return write_model(m);
}

double max_difference(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size()) return 1e9;
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(double(a[i]) - b[i]));
    return d;
}

} // namespace

BOOST_AUTO_TEST_SUITE(readings)

BOOST_AUTO_TEST_CASE(names_and_variants_parse_and_print) {
    Readings r;
    BOOST_TEST(describe(r) == "batch-material=row, face-material=land1-land2, "
                              "key-quaternion=xyzw, slots=lod-group, texm-rgb=bgr");
    set_reading(r, "key-quaternion=wxyz");
    set_reading(r, "texm-rgb=rgb");
    BOOST_TEST((r.key_quaternion == KeyQuaternion::Wxyz));
    BOOST_TEST((readings_from_map(reading_map(r)) == r));
    BOOST_CHECK_THROW(set_reading(r, "key-quaternion=zyxw"), std::invalid_argument);
    BOOST_CHECK_THROW(set_reading(r, "quaternion=wxyz"), std::invalid_argument);
    BOOST_CHECK_THROW(set_reading(r, "texm-rgb"), std::invalid_argument);
}

// An asymmetric rotation written under each order reads back as itself under that order, and as
// something else under the other.
BOOST_AUTO_TEST_CASE(an_asymmetric_rotation_reads_back_under_its_own_order) {
    const anim::Quat q{0.18257419f, 0.36514837f, 0.54772256f, 0.73029674f}; // (1, 2, 3, 4) / |.|
    for (const KeyQuaternion order : {KeyQuaternion::Xyzw, KeyQuaternion::Wxyz}) {
        const auto stored = anim::encode_quat(q, order);
        const anim::Quat back = anim::decode_quat(stored, order);
        for (size_t i = 0; i < 4; ++i) BOOST_TEST(std::abs(back[i] - q[i]) < 1e-4);
        const KeyQuaternion other =
            order == KeyQuaternion::Xyzw ? KeyQuaternion::Wxyz : KeyQuaternion::Xyzw;
        const anim::Quat wrong = anim::decode_quat(stored, other);
        BOOST_TEST(std::abs(wrong[3] - q[3]) > 0.1);
    }
    // w first: identity is stored (32767, 0, 0, 0).
    BOOST_TEST((anim::encode_quat({0, 0, 0, 1}, KeyQuaternion::Wxyz) ==
                std::array<int16_t, 4>{32767, 0, 0, 0}));
}

// A model whose keys are stored w first poses as the original under --reading key-quaternion=wxyz
// (the glTF animation is the same), and round-trips byte for byte under that reading.
BOOST_AUTO_TEST_CASE(the_key_reading_poses_and_round_trips) {
    std::string name;
    const Bytes original = animated_corpus_model(name);
    BOOST_TEST_REQUIRE(!original.empty());
    const Bytes w_first = restored_keys(original, KeyQuaternion::Wxyz);
    BOOST_TEST_REQUIRE((w_first != original));

    conversion::ModelExportSettings xyzw, wxyz;
    wxyz.readings.key_quaternion = KeyQuaternion::Wxyz;
    const conversion::ModelScene a = conversion::model_scene({original, name}, xyzw);
    const conversion::ModelScene b = conversion::model_scene({w_first, name}, wxyz);
    const conversion::ModelScene wrong = conversion::model_scene({w_first, name}, xyzw);
    BOOST_TEST_REQUIRE(!a.scene.animations.empty());
    const auto& ca = a.scene.animations.front().channels;
    const auto& cb = b.scene.animations.front().channels;
    const auto& cw = wrong.scene.animations.front().channels;
    BOOST_TEST_REQUIRE(ca.size() == cb.size());
    double worst = 0, wrong_worst = 0;
    for (size_t i = 0; i < ca.size(); ++i) {
        if (ca[i].path != scene::Path::Rotation) continue;
        // q and -q are the same rotation: compare up to sign.
        std::vector<float> flipped = cb[i].values;
        for (float& v : flipped) v = -v;
        worst = std::max(worst, std::min(max_difference(ca[i].values, cb[i].values),
                                         max_difference(ca[i].values, flipped)));
        wrong_worst = std::max(wrong_worst, max_difference(ca[i].values, cw[i].values));
    }
    BOOST_TEST(worst < 2e-4);
    BOOST_TEST(wrong_worst > 0.05); // the default reading misreads such a file

    // Round trip: the export records its reading, and the import uses it.
    test::TempDir dir;
    wxyz.format = conversion::SceneFormat::Glb;
    wxyz.output_name = "m.glb";
    const conversion::ModelExport x = conversion::encode_model({w_first, name}, wxyz);
    conversion::write_outputs(dir.path, x.files);
    const std::string text = sidecar::model_sidecar_text(x.sidecar);
    BOOST_TEST(nlohmann::json::parse(text)["export"]["readings"]["key-quaternion"] == "wxyz");
    const sidecar::ModelSidecar sc =
        sidecar::read_model_sidecar(Bytes(text.begin(), text.end()), name);
    BOOST_TEST((sc.record.readings.key_quaternion == KeyQuaternion::Wxyz));
    std::vector<std::string> warnings;
    const scene::Scene scene = conversion::read_scene_file(dir.path / "m.glb", warnings);
    conversion::ModelImportSettings is;
    is.where = "m.glb";
    const conversion::ModelImport r = conversion::rebuild_model(scene, &sc, is);
    BOOST_TEST((r.msh == w_first));
}

// slots: the same slot index, named by what its two numbers mean; the names parse back only under
// their own reading, and a round trip of every slot is byte-identical under either.
BOOST_AUTO_TEST_CASE(the_slot_reading_names_the_slot_nodes) {
    using mapping::parse_slot_name;
    using mapping::slot_suffix;
    BOOST_TEST(slot_suffix(1, 4) == "@lod1g4");
    BOOST_TEST(slot_suffix(1, 4, SlotNames::StateLod) == "@state1lod4");
    BOOST_TEST(slot_suffix(0, 3, SlotNames::StateLod) == "@lod3");
    std::string base;
    const auto p = parse_slot_name("tank@state2lod4", &base, SlotNames::StateLod);
    BOOST_TEST_REQUIRE(p.has_value());
    BOOST_TEST(base == "tank");
    BOOST_TEST((*p == std::pair{2, 4}));
    BOOST_TEST((parse_slot_name("tank@lod3", nullptr, SlotNames::StateLod) == std::pair{0, 3}));
    BOOST_TEST((parse_slot_name("tank@lod2", nullptr) == std::pair{2, 0}));
    BOOST_TEST(!parse_slot_name("tank@lod1g4", nullptr, SlotNames::StateLod));
    BOOST_TEST(!parse_slot_name("tank@state1", nullptr));
    BOOST_TEST(!parse_slot_name("tank@lod3", nullptr)); // LOD 0..2 under lod-group

    std::string name;
    const Bytes image = animated_corpus_model(name);
    conversion::ModelExportSettings settings;
    settings.lod = settings.group = mapping::kAll;
    settings.readings.slots = SlotNames::StateLod;
    settings.output_name = "m.glb";
    const conversion::ModelExport x = conversion::encode_model({image, name}, settings);
    test::TempDir dir;
    conversion::write_outputs(dir.path, x.files);
    std::vector<std::string> warnings;
    const scene::Scene scene = conversion::read_scene_file(dir.path / "m.glb", warnings);
    size_t state_named = 0;
    for (const scene::Node& n : scene.nodes) {
        BOOST_TEST(n.name.find("@lod1g") == std::string::npos, n.name);
        state_named += n.name.find("@state") != std::string::npos;
    }
    BOOST_TEST(state_named > 0u);
    const std::string text = sidecar::model_sidecar_text(x.sidecar);
    const sidecar::ModelSidecar sc =
        sidecar::read_model_sidecar(Bytes(text.begin(), text.end()), name);
    conversion::ModelImportSettings is;
    is.where = "m.glb";
    BOOST_TEST((conversion::rebuild_model(scene, &sc, is).msh == image));
}

// Res20 names nodes (msh.md §7): a node added by an edit goes after the others, so a lit model's
// Res20 stays as it was and every node index in it is still in range.
BOOST_AUTO_TEST_CASE(a_node_edit_keeps_res20_node_indices_valid) {
    std::string name;
    Bytes image;
    for (const auto& f : test::corpus()) {
        if (!f.relative_path.ends_with(".rlb") || !image.empty()) continue;
        const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries)
            if (nres::looks_like_nres(e.data) &&
                read_model(e.data, ReadMode::Strict, e.name()).entry(kTable20)) {
                name = f.relative_path + ":" + e.name();
                image = e.data.to_bytes();
                break;
            }
    }
    BOOST_TEST_REQUIRE(!image.empty());
    const Model original = read_model(image, ReadMode::Strict, name);
    conversion::ModelExportSettings settings;
    settings.output_name = "m.glb";
    const conversion::ModelExport x = conversion::encode_model({image, name}, settings);
    std::vector<std::string> warnings;
    scene::Scene scene = conversion::read_scene(x.files.back().bytes, conversion::SceneFormat::Glb,
                                                "m.glb", warnings);
    // A new part: the first node's mesh again, moved, without the vertex identity (new geometry).
    int source = scene::kNoIndex;
    for (const scene::Node& n : scene.nodes)
        if (n.mesh >= 0 && source < 0) source = n.mesh;
    BOOST_TEST_REQUIRE(source >= 0);
    scene::Mesh part = scene.meshes[size_t(source)];
    part.name = "NewPart";
    for (scene::Primitive& p : part.primitives) {
        p.attributes.erase("TEXCOORD_1");
        p.attributes.erase("TEXCOORD_2");
    }
    scene.meshes.push_back(part);
    scene::Node node;
    node.name = "NewPart";
    node.parent = 0;
    node.translation = {0, 5, 0};
    node.mesh = int(scene.meshes.size() - 1);
    scene.nodes.push_back(node);

    const std::string text = sidecar::model_sidecar_text(x.sidecar);
    const sidecar::ModelSidecar sc =
        sidecar::read_model_sidecar(Bytes(text.begin(), text.end()), name);
    conversion::ModelImportSettings is;
    is.where = "m.glb";
    const conversion::ModelImport r = conversion::rebuild_model(scene, &sc, is);
    const Model edited = read_model(r.msh, ReadMode::Strict, "edited");
    BOOST_TEST(edited.nodes.size() == original.nodes.size() + 1);
    BOOST_TEST_REQUIRE(edited.entry(kTable20));
    BOOST_TEST(
        (edited.entry(kTable20)->data.to_bytes() == original.entry(kTable20)->data.to_bytes()));
    DiagnosticSink sink(ReadMode::Strict);
    validate_res20(edited, sink, "edited");
    BOOST_TEST(sink.diagnostics().empty());
}

// face-material: the base layer's materials are named from the WEAR the face's byte 4 indexes,
// Land1.wea by default and Land2.wea under land2-land1; the record keeps each file's own rows.
BOOST_AUTO_TEST_CASE(the_face_reading_picks_the_wear_table_of_each_byte) {
    const samples::GeneratedFile* land = nullptr;
    const samples::GeneratedFile *wear1 = nullptr, *wear2 = nullptr;
    for (const auto& f : test::corpus()) {
        if (f.relative_path.find("SynAuto/") == std::string::npos) continue;
        if (f.relative_path.ends_with("Land.msh")) land = &f;
        if (f.relative_path.ends_with("Land1.wea")) wear1 = &f;
        if (f.relative_path.ends_with("Land2.wea")) wear2 = &f;
    }
    BOOST_TEST_REQUIRE((land && wear1 && wear2));
    auto materials = [&](FaceMaterial reading) {
        conversion::TerrainExportInput in(land->bytes, land->relative_path);
        in.wear1 = conversion::NamedBytes{"Land1.wea", wear1->bytes};
        in.wear2 = conversion::NamedBytes{"Land2.wea", wear2->bytes};
        in.readings.face_material = reading;
        const conversion::TerrainScene ts = conversion::terrain_scene(in, false);
        std::map<std::string, std::string> wear_of; // material name -> its table
        for (const scene::Material& m : ts.scene.materials)
            if (m.identity.wear_row) wear_of[m.name] = m.identity.wear.value();
        return wear_of;
    };
    const auto land1 = wear::material_names(wear::read(wear1->bytes, "Land1.wea"));
    const auto land2 = wear::material_names(wear::read(wear2->bytes, "Land2.wea"));
    const auto by_default = materials(FaceMaterial::Land1First);
    const auto swapped = materials(FaceMaterial::Land2First);
    BOOST_TEST_REQUIRE(!by_default.empty());
    for (const auto& [name, table] : by_default) {
        BOOST_TEST(table == "Land1.wea");
        BOOST_TEST(std::count(land1.begin(), land1.end(), name) == 1, name);
    }
    // The corpus is written under the default: some byte-4 values index past Land2.wea's rows
    // (what survey counts to decide the reading) and keep a row name.
    size_t named = 0;
    for (const auto& [name, table] : swapped) {
        BOOST_TEST(table == "Land2.wea");
        const bool listed = std::count(land2.begin(), land2.end(), name) == 1;
        BOOST_TEST((listed || name.starts_with("land1_row_")), name);
        named += listed;
    }
    BOOST_TEST(named > 0u);
}

// batch-material: the +4 byte matched against the WEAR rows' legacy ids; with ids that are not
// row positions the two readings give different materials.
BOOST_AUTO_TEST_CASE(the_batch_reading_resolves_through_the_wear_ids) {
    std::string name;
    const Bytes image = animated_corpus_model(name);
    BOOST_TEST_REQUIRE(!image.empty());
    Model m = read_model(image, ReadMode::Strict, name);
    uint16_t rows = 0;
    for (const Batch& b : m.batches) rows = std::max<uint16_t>(rows, uint16_t(b.material + 1));
    BOOST_TEST_REQUIRE(rows >= 2);
    // WEAR ids 50 + r; +4 names row (r + 1) % rows through its id, +2 row r.
    std::string wear = std::to_string(rows) + "\r\n";
    for (uint16_t r = 0; r < rows; ++r)
        wear += std::to_string(50 + r) + " MAT" + std::to_string(r) + "\r\n";
    for (Batch& b : m.batches)
        b.opaque4 = uint16_t((b.opaque4 & 0xFF00) | (50 + (b.material + 1) % rows));
    const Bytes edited = write_model(m);
    auto names = [&](BatchMaterial reading) {
        conversion::ModelExportInput in(edited, name);
        in.wear = conversion::NamedBytes{"m.wea", Bytes(wear.begin(), wear.end())};
        conversion::ModelExportSettings settings;
        settings.readings.batch_material = reading;
        const conversion::ModelScene ms = conversion::model_scene(in, settings);
        std::vector<std::string> out; // per primitive, in order
        for (const scene::Mesh& mesh : ms.scene.meshes)
            for (const scene::Primitive& p : mesh.primitives)
                out.push_back(ms.scene.materials[size_t(p.material)].name);
        return out;
    };
    const auto by_row = names(BatchMaterial::Row), by_id = names(BatchMaterial::WearId);
    BOOST_TEST_REQUIRE(by_row.size() == by_id.size());
    size_t differ = 0;
    for (size_t i = 0; i < by_row.size(); ++i) {
        const int r = std::stoi(by_row[i].substr(3)), d = std::stoi(by_id[i].substr(3));
        BOOST_TEST(d == (r + 1) % rows);
        differ += r != d;
    }
    BOOST_TEST(differ > 0u);
}

// texm-rgb through the texture pipeline: the export under rgb shows R and B exchanged against
// the default, records the reading, and the import gives the original bytes back, also when the
// unchanged PNG is read pixel by pixel; an edited pixel is stored in the recorded order.
BOOST_AUTO_TEST_CASE(the_channel_reading_round_trips_888_textures) {
    const samples::GeneratedFile* lib = nullptr;
    for (const auto& f : test::corpus())
        if (f.relative_path == "Textures.lib") lib = &f;
    BOOST_TEST_REQUIRE(lib);
    const nres::Archive ar = nres::read(lib->bytes, ReadMode::Strict, "Textures.lib");
    size_t checked = 0;
    for (const nres::Entry& e : ar.entries) {
        const texm::Texture t = texm::read(e.data, ReadMode::Strict, e.name());
        if (t.format() != texm::Format::X8R8G8B8 && t.format() != texm::Format::Indexed) continue;
        BOOST_TEST_CONTEXT(e.name()) {
            conversion::TextureExportSettings bgr, rgb;
            rgb.readings.texm_rgb = ChannelOrder::Rgb;
            const auto a = conversion::encode_texture(e.data, e.name(), bgr);
            const auto b = conversion::encode_texture(e.data, e.name(), rgb);
            const texm::Image pa = png::decode(a.files.back().bytes).rgba;
            const texm::Image pb = png::decode(b.files.back().bytes).rgba;
            BOOST_TEST_REQUIRE(pa.rgba.size() == pb.rgba.size());
            bool swapped = true;
            for (size_t i = 0; i < pa.rgba.size(); i += 4)
                swapped = swapped && pa.rgba[i] == pb.rgba[i + 2] && pa.rgba[i + 2] == pb.rgba[i];
            BOOST_TEST(swapped);
            BOOST_TEST((b.sidecar.channel_order == ChannelOrder::Rgb));

            conversion::TextureImportSettings full;
            full.full_read = true;
            conversion::TextureImportInput in;
            in.png = b.files.back().bytes;
            in.sidecar = b.sidecar;
            BOOST_TEST((conversion::rebuild_texture(in, full).texm == e.data.to_bytes()));
            if (t.format() == texm::Format::X8R8G8B8) {
                texm::Image edited = pb;
                edited.rgba[0] = 200, edited.rgba[1] = 100, edited.rgba[2] = 50; // pixel (0, 0)
                in.png = png::encode_rgba(edited);
                in.mips.clear();
                const Bytes back = conversion::rebuild_texture(in, full).texm;
                const texm::Texture tb = texm::read(back, ReadMode::Strict, "back");
                BOOST_TEST((tb.levels[0][0] == 200 && tb.levels[0][2] == 50)); // R, G, B, X
            }
            ++checked;
        }
    }
    BOOST_TEST(checked >= 2u);
}

// Under the non-default face and batch readings an unedited round trip still gives the original
// bytes, and the sidecars say which reading made them.
BOOST_AUTO_TEST_CASE(round_trips_stay_byte_identical_under_the_face_and_batch_readings) {
    test::TempDir dir;
    // A map under face-material=land2-land1, through its GLB read back.
    const samples::GeneratedFile *land = nullptr, *land_map = nullptr;
    for (const auto& f : test::corpus()) {
        if (f.relative_path.find("SynAuto/") == std::string::npos) continue;
        if (f.relative_path.ends_with("Land.msh")) land = &f;
        if (f.relative_path.ends_with("Land.map")) land_map = &f;
    }
    BOOST_TEST_REQUIRE((land && land_map));
    conversion::TerrainExportInput in(land->bytes, "Land.msh",
                                      conversion::NamedBytes{"Land.map", land_map->bytes});
    in.readings.face_material = FaceMaterial::Land2First;
    conversion::TerrainExportSettings ts;
    ts.output_name = "Land.glb";
    const conversion::TerrainExport tx = conversion::encode_terrain(in, ts);
    conversion::write_outputs(dir.path, tx.files);
    const std::string ttext = sidecar::terrain_sidecar_text(tx.sidecar);
    BOOST_TEST(ttext.find("land2-land1") != std::string::npos);
    const sidecar::TerrainSidecar tsc = *sidecar::read_terrain_sidecar(
        ByteView(reinterpret_cast<const uint8_t*>(ttext.data()), ttext.size()),
        "Land.sidecar.json");
    BOOST_TEST((tsc.record.readings.face_material == FaceMaterial::Land2First));
    std::vector<std::string> warnings;
    const scene::Scene ms = conversion::read_terrain_scene_file(dir.path / "Land.glb", warnings);
    conversion::TerrainImportSettings tis;
    tis.where = "Land.glb";
    const auto tr = conversion::rebuild_terrain(ms, tsc, tis);
    BOOST_TEST((tr.land_msh == land->bytes));
    BOOST_TEST((tr.land_map == land_map->bytes));

    // A model under batch-material=wear-id.
    std::string name;
    const Bytes image = animated_corpus_model(name);
    conversion::ModelExportSettings settings;
    settings.output_name = "m.glb";
    settings.readings.batch_material = BatchMaterial::WearId;
    const conversion::ModelExport x = conversion::encode_model({image, name}, settings);
    conversion::write_outputs(dir.path, x.files);
    const std::string text = sidecar::model_sidecar_text(x.sidecar);
    const sidecar::ModelSidecar sc =
        sidecar::read_model_sidecar(Bytes(text.begin(), text.end()), name);
    BOOST_TEST((sc.record.readings.batch_material == BatchMaterial::WearId));
    const scene::Scene scene = conversion::read_scene_file(dir.path / "m.glb", warnings);
    conversion::ModelImportSettings is;
    is.where = "m.glb";
    BOOST_TEST((conversion::rebuild_model(scene, &sc, is).msh == image));
}

// 888 pixels and palette entries: B, G, R by default, R, G, B under texm-rgb=rgb; 8888 is B, G,
// R, A under either; encoding under a reading inverts its decoding.
BOOST_AUTO_TEST_CASE(the_channel_reading_swaps_red_and_blue_of_888_and_palettes) {
    const Bytes px = {10, 20, 30, 0};
    const texm::Image bgr = texm::decode_pixels(texm::Format::X8R8G8B8, 1, 1, px, {});
    const texm::Image rgb =
        texm::decode_pixels(texm::Format::X8R8G8B8, 1, 1, px, {}, ChannelOrder::Rgb);
    BOOST_TEST((bgr.pixel(0, 0) == std::array<uint8_t, 4>{30, 20, 10, 255}));
    BOOST_TEST((rgb.pixel(0, 0) == std::array<uint8_t, 4>{10, 20, 30, 255}));
    BOOST_TEST((texm::encode_pixels(texm::Format::X8R8G8B8, rgb, {}, texm::PaletteMatch::Nearest,
                                    ChannelOrder::Rgb) == px));
    const Bytes argb = {10, 20, 30, 40};
    BOOST_TEST((texm::decode_pixels(texm::Format::A8R8G8B8, 1, 1, argb, {}, ChannelOrder::Rgb)
                    .pixel(0, 0) == std::array<uint8_t, 4>{30, 20, 10, 40}));
    Bytes palette(texm::kPaletteSize, 0);
    palette[4] = 200, palette[5] = 100, palette[6] = 50; // entry 1
    const Bytes index = {1};
    BOOST_TEST((texm::decode_pixels(texm::Format::Indexed, 1, 1, index, palette, ChannelOrder::Rgb)
                    .pixel(0, 0) == std::array<uint8_t, 4>{200, 100, 50, 255}));
    BOOST_TEST((texm::decode_pixels(texm::Format::Indexed, 1, 1, index, palette).pixel(0, 0) ==
                std::array<uint8_t, 4>{50, 100, 200, 255}));
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace readings_tests
