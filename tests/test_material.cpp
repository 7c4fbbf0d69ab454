#include "formats/material.hpp"
#include "formats/nres.hpp"
#include "formats/texm.hpp"
#include "samples/textures_gen.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <set>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace material_tests {

using namespace msh;

namespace {

constexpr uint64_t kSeed = 1998;

std::map<std::string, nres::Archive> libraries() {
    std::map<std::string, nres::Archive> out;
    for (const auto& f : samples::generate_material_libraries(kSeed))
        out[f.relative_path] = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
    return out;
}

// A version-6 material: 2 phases, 1 block of 2 keys.
Bytes sample_material() {
    msh::material::Material m;
    for (int i = 0; i < 2; ++i) {
        msh::material::Phase p;
        for (size_t k = 0; k < p.params.size(); ++k) p.params[k] = uint8_t(k + i);
        p.set_texture_name(i ? "B.0" : "A.0");
        m.phases.push_back(p);
    }
    m.anims.push_back({0x19, {{0, 0, 1}, {1, 100, 2}}});
    return msh::material::write(m);
}

void expect_malformed(const Bytes& payload, uint32_t version, const std::string& what) {
    BOOST_TEST_CONTEXT(what) {
        BOOST_CHECK_THROW(msh::material::read(payload, version, ReadMode::Strict, "m"),
                          FormatError);
        DiagnosticSink strict(ReadMode::Strict);
        msh::material::read(payload, version, strict, "m");
        BOOST_REQUIRE(!strict.diagnostics().empty());
        BOOST_CHECK_MESSAGE(strict.diagnostics()[0].message.find(what) != std::string::npos,
                            "message: " + strict.diagnostics()[0].message);
        DiagnosticSink sink(ReadMode::Tolerant);
        msh::material::Material m = msh::material::read(payload, version, sink, "m");
        BOOST_TEST(!sink.has_errors());
        BOOST_TEST(m.raw_only);
        BOOST_TEST((msh::material::write(m) == payload));
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(material)

BOOST_AUTO_TEST_CASE(header_sizes_per_version) {
    const size_t expected[] = {4, 4, 6, 10, 14, 14, 14};
    for (uint32_t v = 0; v <= 6; ++v) {
        BOOST_TEST(msh::material::header_size(v) == expected[v]);
        msh::material::Material m;
        m.version = v;
        m.phases.resize(1);
        Bytes b = msh::material::write(m);
        BOOST_TEST(b.size() == expected[v] + 34);
        msh::material::Material r = msh::material::read(b, v, ReadMode::Strict, "m");
        BOOST_TEST(r.meta_a == 255);
        BOOST_TEST(r.meta_c == 0x3F800000u);
        BOOST_TEST((msh::material::write(r) == b));
    }
}

BOOST_AUTO_TEST_CASE(every_generated_material_round_trips_and_resolves) {
    auto libs = libraries();
    const nres::Archive& mats = libs.at(samples::kMaterialLib);
    const nres::Archive& tex = libs.at(samples::kTexturesLib);
    const nres::Archive& pals = libs.at(samples::kPalettesLib);
    size_t max_phases = 0, multi_block = 0, old_versions = 0, textured_phases = 0;
    std::set<std::string> referenced;
    for (const nres::Entry& e : mats.entries) {
        BOOST_TEST_CONTEXT(e.name()) {
            BOOST_TEST(e.type == msh::material::kType);
            BOOST_TEST(e.attr3 == 0u);
            DiagnosticSink sink(ReadMode::Strict);
            msh::material::Material m = msh::material::read(e.data, e.attr2, sink, e.name());
            BOOST_TEST(sink.diagnostics().empty());
            BOOST_TEST((msh::material::write(m) == e.data));
            BOOST_TEST((m.raw == e.data));
            BOOST_TEST(m.phases.size() >= 1u);
            BOOST_TEST(m.phases.size() <= 29u);
            max_phases = std::max(max_phases, m.phases.size());
            if (m.anims.size() > 1) ++multi_block;
            if (e.attr2 != 6) ++old_versions;
            BOOST_TEST(msh::material::encode_attr1(msh::material::decode_attr1(e.attr1)) ==
                       e.attr1);
            for (const msh::material::Phase& p : m.phases) {
                std::string name = p.texture_name();
                if (name.empty()) continue;
                ++textured_phases;
                BOOST_TEST(msh::material::writable_texture_name(name), name);
                auto i = msh::material::find_resource(tex, msh::texm::kMagic, name);
                BOOST_TEST(i.has_value(), "texture " << name << " missing");
                if (i) referenced.insert(tex.entries[*i].name());
                msh::material::PaletteRef ref = msh::material::palette_slot(name);
                if (ref.slot >= 0)
                    BOOST_TEST(pals.find(msh::material::palette_file_name(ref.slot)).has_value(),
                               name);
            }
        }
    }
    BOOST_TEST(max_phases == 29u);
    BOOST_TEST(multi_block >= 3u);
    BOOST_TEST(old_versions >= 5u);
    BOOST_TEST(textured_phases > mats.entries.size());
    BOOST_TEST(referenced.size() == tex.entries.size()); // every texture is used by some phase
}

BOOST_AUTO_TEST_CASE(model_corpus_names_resolve) {
    auto libs = libraries();
    const nres::Archive& mats = libs.at(samples::kMaterialLib);
    for (const char* name :
         {"BRICK_02", "brick_02", "Concrete", "LIGHT1", "PLASMA_GLOW", "WOOD_PLANK"}) {
        msh::material::Lookup l = msh::material::find_material(mats, name);
        BOOST_TEST((l.rule == msh::material::LookupRule::Exact), name);
    }
    const nres::Archive& lm = libs.at(samples::kLightMapLib);
    for (const char* name : {"LM_SILO_L", "LM_BRIDGE_A", "LM_FACTORY", "LM_POD_BASE", "LM_DOCK_01"})
        BOOST_TEST(msh::material::find_resource(lm, msh::texm::kMagic, name).has_value(), name);
    BOOST_TEST(!msh::material::find_resource(lm, msh::texm::kMagic, "LM_NOPE").has_value());
}

BOOST_AUTO_TEST_CASE(lookup_falls_back_to_default_then_entry_0) {
    nres::Archive ar;
    for (const char* n : {"FIRST", "DEFAULT", "OTHER"}) {
        nres::Entry e;
        e.type = msh::material::kType;
        e.set_name(n);
        ar.entries.push_back(e);
    }
    auto l = msh::material::find_material(ar, "other");
    BOOST_TEST((l.rule == msh::material::LookupRule::Exact && l.index == 2u));
    l = msh::material::find_material(ar, "MISSING");
    BOOST_TEST((l.rule == msh::material::LookupRule::Default && l.index == 1u));
    ar.entries.erase(ar.entries.begin() + 1);
    l = msh::material::find_material(ar, "MISSING");
    BOOST_TEST((l.rule == msh::material::LookupRule::FirstEntry && l.index == 0u));
    ar.entries.clear();
    l = msh::material::find_material(ar, "MISSING");
    BOOST_TEST((l.rule == msh::material::LookupRule::NotFound && !l.index));
}

BOOST_AUTO_TEST_CASE(palette_slots_from_texture_names) {
    using msh::material::palette_slot;
    BOOST_TEST(palette_slot("MTP_01.0").valid_name);
    BOOST_TEST(palette_slot("MTP_01.0").slot == -1);
    BOOST_TEST(palette_slot("DEFAULT.0").slot == -1);
    BOOST_TEST(palette_slot("FONT.a").slot == 0);
    BOOST_TEST(palette_slot("SIGN.B3").slot == 15);
    BOOST_TEST(palette_slot("X.Z9").slot == 285);
    BOOST_TEST(palette_slot("NAME.").slot == -1);
    BOOST_TEST(!palette_slot("NO_DOT_HERE").valid_name);
    BOOST_TEST(palette_slot("ABCDEFGHIJKLMNOP.A").valid_name);   // dot at position 16
    BOOST_TEST(!palette_slot("ABCDEFGHIJKLMNOPQ.A").valid_name); // dot at position 17
    BOOST_TEST(msh::material::palette_file_name(0) == "A.PAL");
    BOOST_TEST(msh::material::palette_file_name(1) == "A0.PAL");
    BOOST_TEST(msh::material::palette_file_name(15) == "B3.PAL");
    BOOST_TEST(msh::material::palette_file_name(285) == "Z9.PAL");
    BOOST_CHECK_THROW(msh::material::palette_file_name(286), FormatError);
    BOOST_TEST(!msh::material::writable_texture_name("X.ZA")); // slot 293
    BOOST_TEST(!msh::material::writable_texture_name("NODOT"));
    BOOST_TEST(!msh::material::writable_texture_name("SIXTEEN_CHARS.AB"));
    BOOST_TEST(msh::material::writable_texture_name("OK.0"));
}

BOOST_AUTO_TEST_CASE(attr1_bits) {
    msh::material::Attr1 a = msh::material::decode_attr1(0x1F3);
    BOOST_TEST(a.texture_load_flag);
    BOOST_TEST(a.opaque_upload);
    BOOST_TEST(a.mode == 0xCu);
    BOOST_TEST(a.flag_b);
    BOOST_TEST(a.other_bits == 0x180u);
    BOOST_TEST(msh::material::encode_attr1(a) == 0x1F3u);
}

BOOST_AUTO_TEST_CASE(names_after_the_nul_and_anim_words_are_kept) {
    Bytes b = sample_material();
    b[14 + 18 + 5] = 'Z'; // after "A.0\0": junk in the name field
    msh::material::Material m = msh::material::read(b, 6, ReadMode::Strict, "m");
    BOOST_TEST(m.phases[0].texture_name() == "A.0");
    BOOST_TEST(m.anims[0].mode() == 1u);
    BOOST_TEST(m.anims[0].interp_mask() == 3u);
    BOOST_TEST(m.anims[0].keys[1].k1 == 100);
    BOOST_TEST((msh::material::write(m) == b));
    BOOST_CHECK_THROW(msh::material::Phase().set_texture_name("SIXTEEN_CHARS.AB"), FormatError);
}

BOOST_AUTO_TEST_CASE(malformed_materials_each_have_their_own_error) {
    Bytes ok = sample_material();
    BOOST_TEST((msh::material::write(msh::material::read(ok, 6, ReadMode::Strict, "m")) == ok));
    expect_malformed(ok, 7, "unsupported MAT0 version 7");
    expect_malformed(Bytes(ok.begin(), ok.begin() + 12), 6, "shorter than the 14-byte header");
    Bytes m = ok;
    store<uint16_t>(m.data() + 2, 20);
    expect_malformed(m, 6, "Too many animations for material.");
    expect_malformed(Bytes(ok.begin(), ok.begin() + 14 + 40), 6, "phases of 34 bytes do not fit");
    expect_malformed(Bytes(ok.begin(), ok.begin() + 14 + 68 + 3), 6, "block 0 header is truncated");
    expect_malformed(Bytes(ok.begin(), ok.end() - 1), 6, "keys do not fit");
    m = ok;
    m.push_back(0);
    expect_malformed(m, 6, "1 trailing bytes after the last animation block");
    // Read with the wrong (older) version: the header is shorter, so the tail no longer fits.
    expect_malformed(ok, 3, "do not fit");
    // Writers refuse what the reader would reject.
    msh::material::Material big;
    big.anims.resize(20);
    BOOST_CHECK_THROW(msh::material::write(big), FormatError);
    big.anims.clear();
    big.version = 9;
    BOOST_CHECK_THROW(msh::material::write(big), FormatError);
}

BOOST_AUTO_TEST_CASE(tolerant_reader_survives_every_truncation) {
    Bytes ok = sample_material();
    for (size_t n = 0; n <= ok.size(); ++n) {
        Bytes prefix(ok.begin(), ok.begin() + std::ptrdiff_t(n));
        for (uint32_t v : {0u, 2u, 3u, 6u, 8u}) {
            msh::material::Material m = msh::material::read(prefix, v, ReadMode::Tolerant, "m");
            BOOST_TEST((msh::material::write(m) == prefix));
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace material_tests
