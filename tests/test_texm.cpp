#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "samples/textures_gen.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace texm_tests {

using namespace msh;
using msh::texm::Format;

namespace {

constexpr uint64_t kSeed = 1998;

struct Library {
    std::vector<samples::TextureSpec> specs;
    std::vector<samples::GeneratedFile> files;
    std::vector<std::pair<const samples::TextureSpec*, Bytes>> textures; // spec, Texm payload
};

const Library& library() {
    static const Library lib = [] {
        Library l;
        l.specs = samples::texture_specs(kSeed);
        l.files = samples::generate_material_libraries(kSeed);
        for (const auto& f : l.files) {
            if (f.relative_path != samples::kTexturesLib &&
                f.relative_path != samples::kLightMapLib)
                continue;
            nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
            for (const nres::Entry& e : ar.entries) {
                const samples::TextureSpec* spec = nullptr;
                for (const auto& s : l.specs)
                    if (s.name == e.name()) spec = &s;
                BOOST_REQUIRE_MESSAGE(spec, "no spec for " + e.name());
                l.textures.emplace_back(spec, e.data.to_bytes());
            }
        }
        return l;
    }();
    return lib;
}

Bytes header(uint32_t w, uint32_t h, uint32_t mips, uint32_t format, uint32_t flags4 = 0,
             uint32_t flags5 = 0) {
    ByteWriter b;
    for (uint32_t v : {msh::texm::kMagic, w, h, mips, flags4, flags5, 0u, format}) b.put(v);
    return b.take();
}

// A valid 4×2 565 texture with 2 levels (8 + 2 pixels).
Bytes small_texture() {
    Bytes b = header(4, 2, 2, 565, 32);
    for (int i = 0; i < 10; ++i) b.push_back(uint8_t(i * 7)), b.push_back(uint8_t(i * 3));
    return b;
}

Bytes page(uint32_t count, size_t rect_bytes) {
    ByteWriter b;
    b.put(msh::texm::kPageMagic);
    b.put(count);
    for (size_t i = 0; i < rect_bytes; ++i) b.put(uint8_t(i + 1));
    return b.take();
}

std::string first_message(ByteView payload, ReadMode mode) {
    DiagnosticSink sink(mode);
    msh::texm::read(payload, sink, "t");
    for (const Diagnostic& d : sink.diagnostics())
        if (d.severity == Severity::Error || mode == ReadMode::Tolerant) return d.message;
    return "";
}

// Expects a strict error mentioning `what`, and a tolerant read that keeps every byte.
void expect_malformed(const Bytes& payload, const std::string& what) {
    BOOST_TEST_CONTEXT(what) {
        BOOST_CHECK_THROW(msh::texm::read(payload, ReadMode::Strict, "t"), FormatError);
        std::string msg = first_message(payload, ReadMode::Strict);
        BOOST_CHECK_MESSAGE(msg.find(what) != std::string::npos, "message: " + msg);
        DiagnosticSink sink(ReadMode::Tolerant);
        msh::texm::Texture t = msh::texm::read(payload, sink, "t");
        BOOST_CHECK(!sink.has_errors());
        BOOST_CHECK(sink.warning_count() >= 1);
        BOOST_CHECK(msh::texm::write(t) == payload);
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(texm)

BOOST_AUTO_TEST_CASE(sizes_follow_the_spec_examples) {
    msh::texm::Header h;
    h.width = h.height = 256, h.mip_count = 9, h.format = 8888;
    BOOST_TEST(msh::texm::core_size(h) == 349556u);
    h.width = 64, h.height = 16, h.mip_count = 7, h.format = 0;
    BOOST_TEST(msh::texm::core_size(h) == 2423u);
    h.mip_count = 0xFFFFFFFFu; // absurd counts saturate or sum quickly, never loop
    BOOST_TEST(msh::texm::core_size(h) > 0xFFFFFFFFu);
    h.width = h.height = 0xFFFFFFFFu, h.format = 8888;
    BOOST_TEST(msh::texm::core_size(h) == UINT64_MAX);
    BOOST_TEST(msh::texm::full_mip_count(256, 8) == 9u);
    BOOST_TEST(msh::texm::full_mip_count(1, 1) == 1u);
}

BOOST_AUTO_TEST_CASE(corpus_has_every_format_and_feature) {
    const Library& lib = library();
    std::set<uint32_t> formats;
    size_t pages = 0, big = 0, textures_lib = 0, lightmaps = 0;
    for (const auto& [spec, bytes] : lib.textures) {
        formats.insert(uint32_t(spec->format));
        if (spec->page) ++pages;
        if (spec->width == 1024 && spec->height == 1024) ++big;
        (spec->library == samples::kLightMapLib ? lightmaps : textures_lib)++;
        if (spec->library == samples::kLightMapLib) {
            BOOST_TEST(uint32_t(spec->format) == 565u);
            BOOST_TEST(spec->mip_count == 1u);
        }
    }
    BOOST_TEST(formats.size() == 7u);
    BOOST_TEST(big == 1u);
    BOOST_TEST(pages >= textures_lib / 12);
    BOOST_TEST(pages <= textures_lib / 3);
    BOOST_TEST(lightmaps >= 5u);
    // Deterministic: same seed, same bytes; another seed differs.
    auto again = samples::generate_material_libraries(kSeed);
    auto other = samples::generate_material_libraries(kSeed + 1);
    BOOST_REQUIRE(again.size() == lib.files.size());
    for (size_t i = 0; i < again.size(); ++i) BOOST_TEST((again[i].bytes == lib.files[i].bytes));
    BOOST_TEST((other[0].bytes != lib.files[0].bytes));
}

BOOST_AUTO_TEST_CASE(every_texture_reads_writes_decodes_and_reencodes_exactly) {
    for (const auto& [spec, bytes] : library().textures) {
        BOOST_TEST_CONTEXT(spec->name) {
            DiagnosticSink sink(ReadMode::Strict);
            msh::texm::Texture t = msh::texm::read(bytes, sink, spec->name);
            BOOST_REQUIRE(sink.diagnostics().empty());
            BOOST_TEST(!t.raw_only);
            BOOST_TEST((t.raw == bytes));
            BOOST_TEST((msh::texm::write(t) == bytes));
            BOOST_TEST(t.header.flags4 == spec->flags4);
            BOOST_TEST(t.header.flags5 == spec->flags5);
            BOOST_TEST(t.header.unknown6 == spec->unknown6);
            BOOST_TEST(t.page.has_value() == spec->page.has_value());
            if (t.page) BOOST_TEST((*t.page == *spec->page));
            for (uint32_t level = 0; level < t.header.mip_count; ++level) {
                msh::texm::Image img = msh::texm::decode_level(t, level);
                size_t bad = 0;
                for (uint32_t y = 0; y < img.height; ++y)
                    for (uint32_t x = 0; x < img.width; ++x)
                        if (img.pixel(x, y) != samples::expected_texel(*spec, level, x, y)) ++bad;
                BOOST_TEST(bad == 0u, "level " << level << ": " << bad << " texels differ");
                Bytes again = msh::texm::encode_pixels(*t.format(), img, t.palette);
                BOOST_TEST((again == t.levels[level]),
                           "level " << level << " re-encodes differently");
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(a_decode_only_read_skips_the_raw_copy_and_nothing_else) {
    for (const auto& [spec, bytes] : library().textures) {
        BOOST_TEST_CONTEXT(spec->name) {
            DiagnosticSink sink(ReadMode::Strict), lean_sink(ReadMode::Strict);
            const msh::texm::Texture full = msh::texm::read(bytes, sink, spec->name);
            msh::texm::Texture lean = msh::texm::read(bytes, lean_sink, spec->name,
                                                      msh::texm::KeepRaw::OnlyUninterpretable);
            BOOST_TEST(lean.raw.empty());
            BOOST_TEST(lean_sink.diagnostics().size() == sink.diagnostics().size());
            lean.raw = full.raw;
            BOOST_TEST((msh::texm::write(lean) == msh::texm::write(full)));
            BOOST_TEST((lean.levels == full.levels));
        }
    }
    // A payload that cannot be interpreted keeps its bytes either way (write copies them through).
    Bytes broken = library().textures.front().second;
    broken[0] ^= 0xFF; // the magic
    DiagnosticSink tolerant(ReadMode::Tolerant);
    const msh::texm::Texture t =
        msh::texm::read(broken, tolerant, "broken", msh::texm::KeepRaw::OnlyUninterpretable);
    BOOST_TEST(t.raw_only);
    BOOST_TEST((t.raw == broken));
    BOOST_TEST((msh::texm::write(t) == broken));
}

BOOST_AUTO_TEST_CASE(known_colours_at_known_pixels) {
    using C = std::array<uint8_t, 4>;
    const C red{255, 0, 0, 255}, green{0, 255, 0, 255}, white{255, 255, 255, 255};
    std::set<uint32_t> seen;
    for (const auto& [spec, bytes] : library().textures) {
        msh::texm::Texture t = msh::texm::read(bytes, ReadMode::Strict, spec->name);
        for (uint32_t level = 0; level < t.header.mip_count; ++level) {
            msh::texm::Image img = msh::texm::decode_level(t, level);
            bool alpha = spec->format == Format::A4R4G4B4 || spec->format == Format::A8R8G8B8;
            if (spec->format == Format::L8A8) {
                BOOST_TEST((img.pixel(0, 0) == white));
                if (img.width > 1) BOOST_TEST((img.pixel(1, 0) == C{0, 0, 0, 255}));
                if (img.height > 1) BOOST_TEST((img.pixel(0, 1) == C{0, 0, 0, 0}));
            } else {
                BOOST_TEST((img.pixel(0, 0) == red), spec->name);
                if (img.width > 1) BOOST_TEST((img.pixel(1, 0) == green));
                if (img.height > 1)
                    BOOST_TEST((img.pixel(0, 1) == C{0, 0, 255, uint8_t(alpha ? 0 : 255)}));
            }
            if (spec->pattern == samples::TexturePattern::Checker && img.width >= 8 &&
                img.height >= 8) {
                // Cell (1, 0) at level 0 (4..7, 0..3) is white in every format.
                uint32_t x = level % 2 ? 0 : 4;
                BOOST_TEST((img.pixel(x + 1, 2) == white), spec->name << " level " << level);
            }
        }
        seen.insert(uint32_t(spec->format));
    }
    BOOST_TEST(seen.size() == 7u);
}

BOOST_AUTO_TEST_CASE(png_round_trip_is_lossless) {
    size_t pngs = 0;
    for (const auto& [spec, bytes] : library().textures) {
        BOOST_TEST_CONTEXT(spec->name) {
            msh::texm::Texture t = msh::texm::read(bytes, ReadMode::Strict, spec->name);
            std::vector<std::optional<msh::texm::LevelInput>> inputs;
            for (uint32_t level = 0; level < t.header.mip_count; ++level) {
                Bytes file = msh::png::from_texm_level(t, level);
                ++pngs;
                msh::png::Decoded d = msh::png::decode(file);
                BOOST_TEST((d.source_type == msh::png::color_type_for(*t.format())));
                BOOST_TEST((d.rgba == msh::texm::decode_level(t, level)));
                // decode PNG -> encode in the original format: the original level bytes.
                if (d.indices)
                    BOOST_TEST((*d.indices == t.levels[level]));
                else
                    BOOST_TEST((msh::texm::encode_pixels(*t.format(), d.rgba, t.palette) ==
                                t.levels[level]));
                inputs.push_back(msh::png::to_level_input(std::move(d)));
            }
            msh::texm::Texture back = msh::texm::import_levels(t, inputs);
            BOOST_TEST((msh::texm::write(back) == bytes));
            // Only level 0 supplied and unchanged: identical too.
            inputs.resize(1);
            BOOST_TEST((msh::texm::write(msh::texm::import_levels(t, inputs)) == bytes));
        }
    }
    BOOST_TEST(pngs > 100u);
}

BOOST_AUTO_TEST_CASE(png_colour_types_and_chunks) {
    const Library& lib = library();
    for (const auto& [spec, bytes] : lib.textures) {
        msh::texm::Texture t = msh::texm::read(bytes, ReadMode::Strict, spec->name);
        Bytes file = msh::png::from_texm_level(t, 0);
        // IHDR colour type byte at offset 25: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
        uint8_t expected = 0;
        switch (spec->format) {
        case Format::Indexed:
            expected = 3;
            break;
        case Format::R5G6B5:
        case Format::R5G5B6:
        case Format::X8R8G8B8:
            expected = 2;
            break;
        case Format::L8A8:
            expected = 4;
            break;
        default:
            expected = 6;
            break;
        }
        BOOST_TEST(file[25] == expected, spec->name);
        std::string s(file.begin(), file.end());
        bool sbit = spec->format == Format::R5G6B5 || spec->format == Format::R5G5B6 ||
                    spec->format == Format::A4R4G4B4;
        BOOST_TEST((s.find("sBIT") != std::string::npos) == sbit, spec->name);
    }
    // tRNS for index 0 when flags5 has the alpha-key bit.
    msh::texm::Texture t = msh::texm::make_texture(Format::Indexed, msh::texm::Image(4, 4),
                                                   samples::sample_palette(), 1);
    t.header.flags5 = msh::texm::kFlags5AlphaKey;
    Bytes file = msh::png::from_texm_level(t, 0);
    std::string s(file.begin(), file.end());
    BOOST_TEST(s.find("tRNS") != std::string::npos);
    msh::png::Decoded d = msh::png::decode(file);
    BOOST_TEST(d.rgba.pixel(0, 0)[3] == 0); // index 0 -> transparent
    BOOST_TEST((*d.indices == t.levels[0]));
}

// The igzip writer (the default) and libpng (`--png-level`) write the same chunks in the same
// order, byte for byte but the compressed image data, for every colour type with and without
// sBIT, with PLTE and tRNS; and both decode to the same pixels.
BOOST_AUTO_TEST_CASE(igzip_and_libpng_write_the_same_chunks) {
    using msh::png::ColorType;
    const auto chunks = [](const Bytes& file) {
        std::vector<std::pair<std::string, Bytes>> out;
        for (size_t at = 8; at + 12 <= file.size();) {
            const uint32_t n = uint32_t(file[at]) << 24 | uint32_t(file[at + 1]) << 16 |
                               uint32_t(file[at + 2]) << 8 | file[at + 3];
            const std::string type(file.begin() + long(at + 4), file.begin() + long(at + 8));
            Bytes data(file.begin() + long(at + 8), file.begin() + long(at + 8 + n));
            if (type == "IDAT") data.clear(); // compressed differently, maybe split
            if (type != "IDAT" || out.empty() || out.back().first != "IDAT")
                out.emplace_back(type, std::move(data));
            at += 12 + n;
        }
        return out;
    };
    const std::pair<ColorType, size_t> types[] = {{ColorType::Gray, 1},
                                                  {ColorType::GrayAlpha, 2},
                                                  {ColorType::RGB, 3},
                                                  {ColorType::RGBA, 4},
                                                  {ColorType::Indexed, 1}};
    uint32_t noise = 99;
    for (const auto& [type, channels] : types)
        for (const bool sbit : {false, true}) {
            const uint32_t w = 7, h = 5;
            Bytes pixels(w * h * channels);
            for (uint8_t& p : pixels) {
                noise = noise * 1664525u + 1013904223u;
                p = uint8_t(type == ColorType::Indexed ? (noise >> 24) % 4 : noise >> 24);
            }
            msh::png::EncodeOptions o;
            if (sbit) o.significant_bits = {5, 6, 4, 3};
            if (type == ColorType::Indexed) {
                o.palette = {{0, 0, 0}, {255, 0, 0}, {0, 255, 0}, {10, 20, 30}};
                if (sbit) o.palette_alpha = {0, 128};
            }
            BOOST_TEST_REQUIRE(o.igzip); // the default
            const Bytes fast = msh::png::encode(w, h, type, pixels, o);
            o.igzip = false;
            const Bytes zlib = msh::png::encode(w, h, type, pixels, o);
            const auto a = chunks(fast), b = chunks(zlib);
            std::string names;
            for (const auto& [name, data] : a) names += name + " ";
            BOOST_TEST((a == b), "colour type " << int(type) << ", sBIT " << sbit << ": " << names);
            BOOST_TEST((msh::png::decode(fast).rgba == msh::png::decode(zlib).rgba));
            BOOST_TEST(fast != zlib); // two encoders indeed
        }
}

BOOST_AUTO_TEST_CASE(png_decodes_foreign_variants_and_rejects_damage) {
    msh::texm::Image img(3, 2);
    for (size_t i = 0; i < img.rgba.size(); ++i) img.rgba[i] = uint8_t(i * 17);
    for (uint32_t y = 0; y < 2; ++y)
        for (uint32_t x = 0; x < 3; ++x) img.at(x, y)[3] = 255;
    // RGB when opaque, RGBA otherwise.
    Bytes rgb = msh::png::encode_rgba(img);
    BOOST_TEST(rgb[25] == 2);
    BOOST_TEST((msh::png::decode(rgb).rgba == img));
    img.at(2, 1)[3] = 7;
    Bytes rgba = msh::png::encode_rgba(img);
    BOOST_TEST(rgba[25] == 6);
    BOOST_TEST((msh::png::decode(rgba).rgba == img));
    // Grey: expands to (L, L, L, 255).
    Bytes grey = msh::png::encode(2, 1, msh::png::ColorType::Gray, Bytes{10, 200}, {});
    msh::png::Decoded g = msh::png::decode(grey);
    BOOST_TEST((g.rgba.pixel(1, 0) == std::array<uint8_t, 4>{200, 200, 200, 255}));
    // Damage: CRC error in IHDR, truncation, not a PNG.
    Bytes bad = rgb;
    bad[20] ^= 0xFF;
    BOOST_CHECK_THROW(msh::png::decode(bad), FormatError);
    BOOST_CHECK_THROW(msh::png::decode(ByteView(rgb).first(rgb.size() - 20)), FormatError);
    BOOST_CHECK_THROW(msh::png::decode(Bytes{1, 2, 3}), FormatError);
}

BOOST_AUTO_TEST_CASE(pngcheck_accepts_our_files) {
    if (std::system("command -v pngcheck >/dev/null 2>&1") != 0) {
        BOOST_TEST_MESSAGE("pngcheck not installed (scripts/install-deps.sh installs it); skipped");
        return;
    }
    auto dir = std::filesystem::temp_directory_path() / "mshconv_test_pngcheck";
    std::filesystem::create_directories(dir);
    std::set<uint32_t> done;
    for (const auto& [spec, bytes] : library().textures) {
        if (!done.insert(uint32_t(spec->format)).second) continue;
        msh::texm::Texture t = msh::texm::read(bytes, ReadMode::Strict, spec->name);
        auto path = dir / (std::to_string(uint32_t(spec->format)) + ".png");
        Bytes file = msh::png::from_texm_level(t, 0);
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(file.data()), std::streamsize(file.size()));
        std::string cmd = "pngcheck -q '" + path.string() + "' >/dev/null 2>&1";
        BOOST_TEST(std::system(cmd.c_str()) == 0, "pngcheck rejects the PNG of " << spec->name);
    }
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(narrowing_rounds_and_inverts_widening) {
    // Every stored value survives decode -> encode, for every 16-bit word.
    for (Format f : {Format::R5G6B5, Format::R5G5B6, Format::A4R4G4B4, Format::L8A8}) {
        Bytes words(65536 * 2);
        for (uint32_t v = 0; v < 65536; ++v) store(words.data() + 2 * v, uint16_t(v));
        msh::texm::Image img = msh::texm::decode_pixels(f, 256, 256, words, {});
        BOOST_TEST((msh::texm::encode_pixels(f, img, {}) == words), "format " << uint32_t(f));
    }
    // Rounding, not truncation: 0xFF/0x00 ends, mid values to the nearest step.
    msh::texm::Image px(1, 1);
    px.rgba = {200, 100, 50, 255};
    Bytes b = msh::texm::encode_pixels(Format::R5G6B5, px, {});
    uint16_t v = load<uint16_t>(b.data());
    BOOST_TEST((v >> 11) ==
               (200u * 31 + 127) / 255); // 24 (truncation would also give 25 >> ... = 25)
    BOOST_TEST(((v >> 5) & 63) == (100u * 63 + 127) / 255);
    BOOST_TEST((v & 31) == (50u * 31 + 127) / 255);
    px.rgba = {4, 4, 4, 255}; // 4·31/255 = 0.49 -> 0; 4·63/255 = 0.99 -> 1 (truncation gives 0)
    v = load<uint16_t>(msh::texm::encode_pixels(Format::R5G6B5, px, {}).data());
    BOOST_TEST(((v >> 5) & 63) == 1u);
    px.rgba = {0x12, 0x34, 0x56, 0x78};
    Bytes argb = msh::texm::encode_pixels(Format::A8R8G8B8, px, {});
    BOOST_TEST((argb == Bytes{0x56, 0x34, 0x12, 0x78})); // memory B, G, R, A
    Bytes xrgb = msh::texm::encode_pixels(Format::X8R8G8B8, px, {});
    BOOST_TEST((xrgb == Bytes{0x56, 0x34, 0x12, 0x00}));
    Bytes la = msh::texm::encode_pixels(Format::L8A8, px, {});
    BOOST_TEST(la[0] == 0x78); // low byte alpha
}

BOOST_AUTO_TEST_CASE(format0_needs_a_palette_and_matches_nearest) {
    Bytes pal = samples::sample_palette();
    msh::texm::Image img(2, 1);
    img.rgba = {255, 0, 0, 255, 250, 5, 3, 255};
    BOOST_CHECK_THROW(msh::texm::encode_pixels(Format::Indexed, img, {}), FormatError);
    Bytes idx = msh::texm::encode_pixels(Format::Indexed, img, pal);
    BOOST_TEST(idx[0] == 1); // exact red
    BOOST_TEST(idx[1] == 1); // nearest to red
    BOOST_CHECK_THROW(
        msh::texm::encode_pixels(Format::Indexed, img, pal, msh::texm::PaletteMatch::Exact),
        FormatError);
}

BOOST_AUTO_TEST_CASE(mip_chain_builder_box_filters_with_rounding) {
    msh::texm::Image base(4, 2);
    for (uint32_t x = 0; x < 4; ++x) {
        base.at(x, 0)[0] = uint8_t(x == 0 ? 1 : 0); // 1,0 / 1,1 -> (1+0+1+1+2)/4 = 1 (rounded 0.75)
        base.at(x, 1)[0] = 1;
        base.at(x, 0)[3] = base.at(x, 1)[3] = 255;
    }
    auto chain = msh::texm::build_mip_chain(base, 3);
    BOOST_REQUIRE(chain.size() == 3u);
    BOOST_TEST(chain[1].width == 2u);
    BOOST_TEST(chain[1].height == 1u);
    BOOST_TEST(chain[2].width == 1u);
    BOOST_TEST(chain[1].at(0, 0)[0] == 1); // (1+0+1+1+2)/4
    BOOST_TEST(chain[1].at(1, 0)[0] == 1); // (0+0+1+1+2)/4 = 1
    BOOST_TEST(chain[1].at(0, 0)[3] == 255);
    msh::texm::Texture t = msh::texm::make_texture(Format::A8R8G8B8, base);
    BOOST_TEST(t.header.mip_count == 3u);
    BOOST_TEST(t.header.flags4 == 32u);
    BOOST_TEST((msh::texm::write(msh::texm::read(t.raw, ReadMode::Strict, "new")) == t.raw));
}

BOOST_AUTO_TEST_CASE(import_rebuilds_lower_levels_after_an_edit) {
    for (const auto& [spec, bytes] : library().textures) {
        if (spec->mip_count < 3 || spec->format == Format::Indexed || spec->width > 64) continue;
        msh::texm::Texture t = msh::texm::read(bytes, ReadMode::Strict, spec->name);
        msh::texm::LevelInput in{msh::texm::decode_level(t, 0), std::nullopt};
        uint8_t* px = in.rgba.at(2, 2); // grey 0 or 255: representable in every format
        px[0] = px[1] = px[2] = px[0] >= 128 ? 0 : 255;
        msh::texm::Texture edited = msh::texm::import_levels(t, {in});
        BOOST_TEST((msh::texm::decode_level(edited, 0) == in.rgba), spec->name);
        auto chain = msh::texm::build_mip_chain(in.rgba, t.header.mip_count);
        for (uint32_t level = 1; level < t.header.mip_count; ++level)
            BOOST_TEST(
                (edited.levels[level] == msh::texm::encode_pixels(*t.format(), chain[level], {})));
        BOOST_TEST(edited.header.flags5 == t.header.flags5);
        BOOST_TEST(edited.page.has_value() == t.page.has_value());
        // A supplied lower level that differs wins over the rebuild.
        msh::texm::LevelInput low{msh::texm::decode_level(t, 1), std::nullopt};
        low.rgba.at(0, 0)[0] = low.rgba.at(0, 0)[1] = low.rgba.at(0, 0)[2] =
            0; // red/white -> black
        msh::texm::Texture both = msh::texm::import_levels(t, {in, low});
        BOOST_TEST((msh::texm::decode_level(both, 1) == low.rgba),
                   spec->name << " " << spec->width << "x" << spec->height);
        BOOST_TEST((both.levels[2] == t.levels[2]));
        // Wrong size is an error.
        BOOST_CHECK_THROW(msh::texm::import_levels(
                              t, {msh::texm::LevelInput{msh::texm::Image(1, 1), std::nullopt}}),
                          FormatError);
    }
}

BOOST_AUTO_TEST_CASE(page_chunk_is_x_w_y_h) {
    Bytes b = small_texture();
    ByteWriter p;
    p.put(msh::texm::kPageMagic);
    p.put(uint32_t(1));
    for (int v : {1, 2, 3, 4}) p.put(uint16_t(v));
    b.insert(b.end(), p.bytes().begin(), p.bytes().end());
    msh::texm::Texture t = msh::texm::read(b, ReadMode::Strict, "t");
    BOOST_REQUIRE(t.page && t.page->size() == 1u);
    BOOST_TEST((t.page->at(0) == msh::texm::PageRect{1, 2, 3, 4}));
    BOOST_TEST((msh::texm::write(t) == b));
    // An empty Page (n = 0) is valid too.
    Bytes e = small_texture();
    Bytes pg = page(0, 0);
    e.insert(e.end(), pg.begin(), pg.end());
    BOOST_TEST((msh::texm::write(msh::texm::read(e, ReadMode::Strict, "t")) == e));
}

BOOST_AUTO_TEST_CASE(malformed_inputs_each_have_their_own_error) {
    Bytes ok = small_texture();
    BOOST_TEST((msh::texm::write(msh::texm::read(ok, ReadMode::Strict, "t")) == ok));

    expect_malformed(Bytes(ok.begin(), ok.begin() + 20), "shorter than the 32-byte header");
    Bytes m = ok;
    m[0] = 'X';
    expect_malformed(m, "bad Texm magic");
    m = ok;
    store<uint32_t>(m.data() + 4, 0);
    expect_malformed(m, "zero dimension");
    m = ok;
    store<uint32_t>(m.data() + 12, 0);
    expect_malformed(m, "mipCount is 0");
    m = ok;
    store<uint32_t>(m.data() + 28, 5650);
    expect_malformed(m, "unknown pixel format 5650");
    expect_malformed(Bytes(ok.begin(), ok.end() - 1),
                     "truncated palette or mip level"); // truncated mip
    m = ok;
    store<uint32_t>(m.data() + 12, 3); // a third 1×1 level that is missing
    expect_malformed(m, "truncated palette or mip level");
    Bytes pal = header(2, 2, 1, 0);
    pal.resize(pal.size() + 1000); // palette cut short
    expect_malformed(pal, "truncated palette or mip level");
    m = ok;
    m.push_back(0); // one trailing byte
    expect_malformed(m, "trailing bytes after the mip chain are not a Page chunk");
    m = ok;
    for (char c : std::string("JUNKJUNK")) m.push_back(uint8_t(c));
    expect_malformed(m, "not a Page chunk");
    m = ok;
    Bytes pg = page(2, 8); // says 2 rects, holds 1
    m.insert(m.end(), pg.begin(), pg.end());
    expect_malformed(m, "does not match its 2 rectangles");
    m = ok;
    pg = page(1, 12); // 4 bytes too many
    m.insert(m.end(), pg.begin(), pg.end());
    expect_malformed(m, "does not match its 1 rectangles");
    m = ok;
    store<uint32_t>(m.data() + 4, 0xFFFFFFFFu); // enormous size: no overflow, no huge allocation
    store<uint32_t>(m.data() + 8, 0xFFFFFFFFu);
    expect_malformed(m, "truncated palette or mip level");
    // Format 88 stored with 4 bytes per pixel (seed 001's reading): copied through raw.
    Bytes f88 = header(2, 2, 1, 88);
    f88.resize(32 + 16, 0x42);
    expect_malformed(f88, "only fits 4 bytes per pixel");
    BOOST_TEST(msh::texm::read(f88, ReadMode::Tolerant, "t").raw_only);
}

BOOST_AUTO_TEST_CASE(writer_rejects_inconsistent_fields) {
    msh::texm::Texture t = msh::texm::read(small_texture(), ReadMode::Strict, "t");
    msh::texm::Texture bad = t;
    bad.levels[1].pop_back();
    BOOST_CHECK_THROW(msh::texm::write(bad), FormatError);
    bad = t;
    bad.header.mip_count = 3;
    BOOST_CHECK_THROW(msh::texm::write(bad), FormatError);
    bad = t;
    bad.header.width = bad.header.height = 0xFFFFFFFFu; // no huge allocation either
    BOOST_CHECK_THROW(msh::texm::write(bad), FormatError);
    bad = t;
    bad.palette.assign(1024, 0); // a palette on a 565 texture
    BOOST_CHECK_THROW(msh::texm::write(bad), FormatError);
    bad = t;
    bad.header.format = 1234;
    BOOST_CHECK_THROW(msh::texm::write(bad), FormatError);
}

BOOST_AUTO_TEST_CASE(unusual_flags_only_warn) {
    Bytes b = small_texture();
    store<uint32_t>(b.data() + 16, 7);
    store<uint32_t>(b.data() + 20, 0x12345678);
    store<uint32_t>(b.data() + 24, 0xDEADBEEF);
    DiagnosticSink sink(ReadMode::Strict);
    msh::texm::Texture t = msh::texm::read(b, sink, "t");
    BOOST_TEST(!sink.has_errors());
    BOOST_TEST(sink.warning_count() == 2u);
    BOOST_TEST(t.header.unknown6 == 0xDEADBEEFu);
    BOOST_TEST((msh::texm::write(t) == b));
}

BOOST_AUTO_TEST_CASE(tolerant_reader_survives_every_truncation_and_bit_flip) {
    // Every prefix and single-byte corruption of a small texture with a Page: no crash, and the
    // tolerant view writes the input back.
    Bytes b = header(3, 5, 3, 0, 32);
    Bytes pal = samples::sample_palette();
    b.insert(b.end(), pal.begin(), pal.end());
    for (int i = 0; i < 15 + 2 + 1; ++i) b.push_back(uint8_t(i));
    Bytes pg = page(1, 8);
    b.insert(b.end(), pg.begin(), pg.end());
    BOOST_TEST((msh::texm::write(msh::texm::read(b, ReadMode::Strict, "t")) == b));
    for (size_t n = 0; n <= b.size(); ++n) {
        ByteView prefix = ByteView(b).first(n);
        msh::texm::Texture t = msh::texm::read(prefix, ReadMode::Tolerant, "t");
        BOOST_TEST((msh::texm::write(t) == Bytes(prefix.begin(), prefix.end())));
    }
    for (size_t at : {0, 4, 8, 12, 28, 1060, 1075, 1080, 1084}) {
        Bytes c = b;
        if (at >= c.size()) continue;
        c[at] ^= 0xA5;
        BOOST_TEST((msh::texm::write(msh::texm::read(c, ReadMode::Tolerant, "t")) == c));
    }
}

BOOST_AUTO_TEST_CASE(throughput) {
    // Not a benchmark gate: reports Texm -> PNG and PNG -> Texm rates (all levels) for the
    // 1024×1024 texture and for the whole generated set.
    double all_mp = 0, all_a = 0, all_b = 0;
    for (const auto& [spec, bytes] : library().textures) {
        msh::texm::Texture t = msh::texm::read(bytes, ReadMode::Strict, spec->name);
        double mp =
            double(msh::texm::chain_pixels(t.header.width, t.header.height, t.header.mip_count)) /
            1e6;
        auto t0 = std::chrono::steady_clock::now();
        std::vector<Bytes> files;
        for (uint32_t l = 0; l < t.header.mip_count; ++l)
            files.push_back(msh::png::from_texm_level(t, l));
        auto t1 = std::chrono::steady_clock::now();
        std::vector<std::optional<msh::texm::LevelInput>> in;
        for (const Bytes& f : files) in.push_back(msh::png::to_level_input(msh::png::decode(f)));
        Bytes back = msh::texm::write(msh::texm::import_levels(t, in));
        auto t2 = std::chrono::steady_clock::now();
        BOOST_TEST((back == bytes));
        double a = std::chrono::duration<double>(t1 - t0).count(),
               b = std::chrono::duration<double>(t2 - t1).count();
        all_mp += mp, all_a += a, all_b += b;
        if (spec->width == 1024)
            BOOST_TEST_MESSAGE("throughput " << spec->name << " (" << uint32_t(spec->format) << ", "
                                             << mp << " MP): Texm->PNG " << mp / a
                                             << " MP/s, PNG->Texm " << mp / b << " MP/s");
    }
    BOOST_TEST_MESSAGE("throughput all (" << all_mp << " MP): Texm->PNG " << all_mp / all_a
                                          << " MP/s, PNG->Texm " << all_mp / all_b << " MP/s");
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace texm_tests
