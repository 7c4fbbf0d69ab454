// Texm <-> PNG conversion (texm-materials.md §8) through the functions `mshconv convert` uses
// (conversion/texture.hpp) and through the CLI itself: unchanged PNGs give the original bytes,
// edited PNGs give a valid Texm in the same format with the new pixel and rebuilt mips.
#include "corpus.hpp"
#include "test_paths.hpp"
#include "test_util.hpp"

#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "samples/textures_gen.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/payload_hash.hpp"
#include "sidecar/texture_sidecar.hpp"
#include "sidecar_edits.hpp"
#include "texture_fixtures.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace texture_convert_tests {

using namespace msh;
namespace fs = std::filesystem;

using test::q;
using test::Run;
using test::run;
using test::scratch;

namespace {

const Bytes& corpus_file(const std::string& name) {
    for (const auto& f : test::corpus())
        if (f.relative_path == name) return f.bytes;
    throw std::runtime_error("corpus has no " + name);
}

nres::Archive library(const char* name) {
    return nres::read(corpus_file(name), ReadMode::Strict, name);
}

// Export then import through the library functions (mips written and read back as the CLI does).
conversion::TextureImport round_trip(const Bytes& payload, const std::string& name, bool mips) {
    test::TextureFiles e = test::texture_files(payload, name, name + ".png", mips);
    // The sidecar goes through its text form, as on disk.
    conversion::TextureImportInput in;
    conversion::TextureImportSettings ts;
    in.png = e.png;
    for (const Bytes& m : e.mips) in.mips.push_back(m);
    const std::string text = sidecar::texture_sidecar_text(e.sidecar);
    in.sidecar = sidecar::read_texture_sidecar(
        ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()),
        name + ".sidecar.json");
    ts.where = name + ".png";
    return conversion::rebuild_texture(in, ts);
}

// A colour the format stores exactly (widening of its narrow channels).
std::array<uint8_t, 4> representable(texm::Format f) {
    switch (f) {
    case texm::Format::R5G6B5:
    case texm::Format::R5G5B6:
        return {255, 0, 255, 255};
    case texm::Format::A4R4G4B4:
        return {17, 34, 51, 68};
    case texm::Format::X8R8G8B8:
        return {10, 20, 30, 255};
    case texm::Format::L8A8:
        return {50, 50, 50, 40};
    default:
        return {10, 20, 30, 40};
    }
}

bool have_pngcheck() {
    return std::system("command -v pngcheck >/dev/null 2>&1") == 0;
}

} // namespace

namespace {

// Leaves `value` in every 16-bit word of the stack below the caller, where the next call's locals
// will lie (small values: a window size a compressor could take for its own).
[[gnu::noinline]] void dirty_stack(uint16_t value) {
    volatile uint16_t junk[256 * 1024];
    for (size_t i = 0; i < std::size(junk); ++i) junk[i] = value;
}

[[gnu::noinline]] Bytes igzip_png_after(uint16_t value, const texm::Image& img) {
    dirty_stack(value);
    png::EncodeOptions o;
    o.igzip = true;
    return png::encode_rgba(img, o);
}

} // namespace

BOOST_AUTO_TEST_SUITE(texture_convert)

// The same picture compresses to the same bytes whatever the memory around the compressor held
// before (a stack leftover in igzip's stream once changed the output by a byte between runs).
BOOST_AUTO_TEST_CASE(igzip_png_bytes_do_not_depend_on_leftover_memory) {
    texm::Image img(256, 256);
    uint32_t noise = 12345;
    for (uint32_t y = 0; y < img.height; ++y)
        for (uint32_t x = 0; x < img.width; ++x) {
            noise = noise * 1664525u + 1013904223u;
            uint8_t* p = img.at(x, y);
            p[0] = uint8_t(x), p[1] = uint8_t(y), p[2] = uint8_t((noise >> 24) & 0x0F);
            p[3] = uint8_t((x / 16 + y / 16) % 3 ? 255 : 128);
        }
    const Bytes reference = igzip_png_after(0, img);
    for (const int value : {8, 9, 10, 12, 15, 0xFFFF})
        BOOST_TEST((igzip_png_after(uint16_t(value), img) == reference),
                   "after stack words " << value);
    const png::Decoded back = png::decode(reference);
    BOOST_TEST((back.rgba.rgba == img.rgba));
}

BOOST_AUTO_TEST_CASE(every_corpus_texture_round_trips_byte_identical) {
    size_t count = 0;
    for (const char* lib : {samples::kTexturesLib, samples::kLightMapLib}) {
        const nres::Archive ar = library(lib);
        for (const nres::Entry& e : ar.entries) {
            if (e.type != texm::kMagic) continue;
            BOOST_TEST_CONTEXT(lib << ":" << e.name()) {
                for (bool mips : {false, true}) {
                    const conversion::TextureImport r =
                        round_trip(e.data.to_bytes(), e.name(), mips);
                    BOOST_TEST(r.identical);
                    BOOST_TEST((r.texm == e.data));
                }
                ++count;
            }
        }
    }
    BOOST_TEST(count > 20u);
}

BOOST_AUTO_TEST_CASE(png_holds_level_zero_pixels_and_sidecar_the_header) {
    const nres::Archive ar = library(samples::kTexturesLib);
    std::map<uint32_t, int> seen_formats;
    for (const nres::Entry& e : ar.entries) {
        const texm::Texture t = texm::read(e.data, ReadMode::Strict, e.name());
        if (seen_formats[t.header.format]++) continue; // one per format is enough
        BOOST_TEST_CONTEXT(e.name()) {
            const test::TextureFiles x = test::texture_files(e.data, e.name(), "a.png", true);
            const png::Decoded d = png::decode(x.png);
            BOOST_TEST((d.rgba == texm::decode_level(t, 0)));
            BOOST_TEST((d.source_type == png::color_type_for(*t.format())));
            BOOST_TEST(x.mips.size() == size_t(t.header.mip_count - 1));
            for (size_t k = 0; k < x.mips.size(); ++k)
                BOOST_TEST((png::decode(x.mips[k]).rgba == texm::decode_level(t, uint32_t(k + 1))));
            const nlohmann::json doc =
                nlohmann::json::parse(sidecar::texture_sidecar_text(x.sidecar));
            BOOST_TEST(doc["schema"] == "mshconv-sidecar/2");
            BOOST_TEST(doc["kind"] == "texm");
            BOOST_TEST(doc["header"]["flags5"].get<uint32_t>() == t.header.flags5);
            BOOST_TEST(doc["header"]["unknown6"].get<uint32_t>() == t.header.unknown6);
            BOOST_TEST(doc["header"]["format"].get<uint32_t>() == t.header.format);
            BOOST_TEST(doc["page"].is_null() == !t.page.has_value());
            BOOST_TEST(doc.contains("palette_x") == !t.palette.empty());
            BOOST_TEST(doc["mips"].size() == x.mips.size());
            // Every level but level 0 is a mip PNG (--mips): no level bytes in the sidecar.
            BOOST_TEST(doc["levels"]["rows"].size() == t.levels.size());
            for (const nlohmann::json& row : doc["levels"]["rows"])
                BOOST_TEST(!row.contains("base64"));
            // The typed form reads back from its JSON unchanged.
            const sidecar::TextureSidecar back = test::read_texture_doc(doc, "a.json");
            BOOST_TEST(nlohmann::json::parse(sidecar::texture_sidecar_text(back)) == doc);
        }
    }
    BOOST_TEST(seen_formats.count(0) == 1u);
    BOOST_TEST(seen_formats.count(8888) == 1u);
}

BOOST_AUTO_TEST_CASE(edited_png_reencodes_in_the_same_format_and_rebuilds_mips) {
    const nres::Archive ar = library(samples::kTexturesLib);
    std::map<uint32_t, int> done;
    for (const nres::Entry& e : ar.entries) {
        const texm::Texture orig = texm::read(e.data, ReadMode::Strict, e.name());
        if (orig.header.mip_count < 3 || done[orig.header.format]++) continue;
        BOOST_TEST_CONTEXT(e.name() << " format " << orig.header.format) {
            const texm::Format f = *orig.format();
            test::TextureFiles x = test::texture_files(e.data, e.name(), "a.png", false);
            png::Decoded d = png::decode(x.png);
            conversion::TextureImportInput in;
            conversion::TextureImportSettings ts;
            std::array<uint8_t, 4> colour = representable(f);
            if (f == texm::Format::Indexed) {
                // An editor keeps the palette: index 4 (white in the sample palette) at (0, 0).
                BOOST_REQUIRE(d.indices.has_value());
                (*d.indices)[0] = 4;
                png::EncodeOptions o;
                o.palette = d.palette;
                in.png = png::encode(d.rgba.width, d.rgba.height, png::ColorType::Indexed,
                                     *d.indices, o);
                colour = {d.palette[4][0], d.palette[4][1], d.palette[4][2], 255};
            } else {
                std::copy(colour.begin(), colour.end(), d.rgba.at(0, 0));
                in.png = png::encode_rgba(d.rgba);
            }
            in.sidecar = x.sidecar;
            ts.where = "edited.png";
            const conversion::TextureImport r = conversion::rebuild_texture(in, ts);
            BOOST_TEST(!r.identical);
            const texm::Texture t = texm::read(r.texm, ReadMode::Strict, "edited");
            BOOST_TEST(t.header.format == orig.header.format);
            BOOST_TEST(t.header.mip_count == orig.header.mip_count);
            BOOST_TEST(t.header.flags4 == orig.header.flags4);
            BOOST_TEST(t.header.flags5 == orig.header.flags5);
            BOOST_TEST(t.header.unknown6 == orig.header.unknown6);
            BOOST_TEST((t.page == orig.page));
            BOOST_TEST((t.palette == orig.palette));
            const texm::Image l0 = texm::decode_level(t, 0);
            BOOST_TEST((l0.pixel(0, 0) == colour));
            BOOST_TEST((l0.pixel(1, 1) == texm::decode_level(orig, 0).pixel(1, 1)));
            // Mips: the box-filtered chain of the new level 0, encoded in the format.
            const auto chain = texm::build_mip_chain(l0, t.header.mip_count);
            for (uint32_t i = 1; i < t.header.mip_count; ++i)
                BOOST_TEST((t.levels[i] == texm::encode_pixels(f, chain[i], t.palette)),
                           "level " << i);
            BOOST_TEST((t.levels[1] != orig.levels[1]));
        }
    }
    for (uint32_t f : {0u, 565u, 4444u, 888u, 8888u}) BOOST_TEST(done.count(f) == 1u, f);
}

// A first-layout sidecar's text is read without a DOM for the original's base64: it reads the
// same as the DOM route, also when a writer escaped the base64's slashes, and a damaged payload
// is named.
BOOST_AUTO_TEST_CASE(first_layout_text_reads_as_its_json) {
    const fs::path kept = fs::path(MSHCONV_SOURCE_DIR) / "tests" / "fixtures" / "sidecar_v1";
    for (const char* name : {"barrel_dk", "decal", "beak", "anim_01"}) {
        const Bytes bytes = read_file(kept / (std::string(name) + ".sidecar.json"));
        const std::string text(bytes.begin(), bytes.end());
        const nlohmann::json doc = nlohmann::json::parse(text);
        auto same = [&](const sidecar::TextureSidecar& a) {
            const sidecar::TextureSidecar b = test::read_texture_doc(doc, "b");
            return a.original == b.original && a.source == b.source && a.png == b.png &&
                   a.mips == b.mips && a.palette == b.palette && a.tail_bytes == b.tail_bytes &&
                   a.header.width == b.header.width && a.header.format == b.header.format &&
                   a.page.has_value() == b.page.has_value();
        };
        BOOST_TEST_CONTEXT(name) {
            const sidecar::TextureSidecar fast =
                sidecar::read_texture_sidecar(Bytes(text.begin(), text.end()), "a");
            BOOST_TEST(fast.layout == 1);
            BOOST_TEST(fast.original.size() == doc["original"]["size"].get<size_t>());
            BOOST_TEST(same(fast));
            // A read first-layout sidecar writes back to the same document.
            BOOST_TEST(nlohmann::json::parse(sidecar::texture_sidecar_text(fast)) == doc);
            // Every '/' of the base64 written as "\/" (valid JSON, not a plain string).
            std::string escaped;
            const size_t b64 = text.find("\"base64\"");
            BOOST_TEST_REQUIRE(b64 != std::string::npos);
            for (size_t k = 0; k < text.size(); ++k)
                escaped +=
                    (k > b64 + 9 && text[k] == '/') ? std::string("\\/") : std::string(1, text[k]);
            BOOST_TEST(
                same(sidecar::read_texture_sidecar(Bytes(escaped.begin(), escaped.end()), "a")));
            // One base64 character damaged: the error names the field.
            std::string damaged = text;
            damaged[text.find('"', b64 + 9) + 5] = '!';
            try {
                sidecar::read_texture_sidecar(Bytes(damaged.begin(), damaged.end()), "d.json");
                BOOST_TEST(false, "a damaged base64 was read");
            } catch (const FormatError& err) {
                BOOST_TEST(std::string(err.what()).find("/original/base64") != std::string::npos,
                           err.what());
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(import_errors_are_clear) {
    const nres::Archive ar = library(samples::kTexturesLib);
    const nres::Entry& e = ar.entries.at(0);
    test::TextureFiles x = test::texture_files(e.data, e.name(), "a.png", false);
    // Wrong size.
    conversion::TextureImportInput in;
    conversion::TextureImportSettings ts;
    in.png = png::encode_rgba(texm::Image(3, 5));
    in.sidecar = x.sidecar;
    ts.where = "small.png";
    BOOST_CHECK_THROW(conversion::rebuild_texture(in, ts), FormatError);
    // A damaged first-layout sidecar's payload; an older one (FNV-1a 64 under "fnv1a64"): read,
    // and checked.
    const Bytes kept = read_file(fs::path(MSHCONV_SOURCE_DIR) / "tests" / "fixtures" /
                                 "sidecar_v1" / "barrel_dk.sidecar.json");
    const nlohmann::json first = nlohmann::json::parse(kept.begin(), kept.end());
    const sidecar::TextureSidecar v1 = test::read_texture_doc(first, "a.sidecar.json");
    nlohmann::json damaged = first;
    damaged["original"]["xxh3_64"] = "0000000000000000";
    BOOST_CHECK_THROW(test::read_texture_doc(damaged, "a.sidecar.json"), FormatError);
    nlohmann::json older = first;
    older["original"].erase("xxh3_64");
    older["original"]["fnv1a64"] = sidecar::hex64(sidecar::fnv1a64(v1.original));
    BOOST_TEST((test::read_texture_doc(older, "older.sidecar.json").original == v1.original));
    older["original"]["fnv1a64"] = "0000000000000000";
    BOOST_CHECK_THROW(test::read_texture_doc(older, "older.sidecar.json"), FormatError);
    // A mip name that would leave the PNG's folder, in either layout.
    for (nlohmann::json doc :
         {first, nlohmann::json::parse(sidecar::texture_sidecar_text(x.sidecar))}) {
        doc["mips"] = {"../../etc/passwd"};
        BOOST_CHECK_THROW(test::read_texture_doc(doc, "a.sidecar.json"), FormatError);
    }
    // Not a PNG.
    in.sidecar = x.sidecar;
    in.png = {1, 2, 3};
    BOOST_CHECK_THROW(conversion::rebuild_texture(in, ts), FormatError);
    // Not a texture.
    BOOST_CHECK_THROW(test::texture_files(Bytes(40, 7), "x", "x.png", false), FormatError);
}

BOOST_AUTO_TEST_CASE(new_texture_without_sidecar) {
    texm::Image img(16, 8);
    for (uint32_t y = 0; y < 8; ++y)
        for (uint32_t x = 0; x < 16; ++x) {
            uint8_t* p = img.at(x, y);
            p[0] = uint8_t(x * 16), p[1] = uint8_t(y * 32), p[2] = 0, p[3] = 255;
        }
    conversion::TextureImportInput in;
    conversion::TextureImportSettings ts;
    in.png = png::encode_rgba(img);
    ts.where = "new.png";
    const texm::Texture t =
        texm::read(conversion::rebuild_texture(in, ts).texm, ReadMode::Strict, "new");
    BOOST_TEST(t.header.format == 565u);
    BOOST_TEST(t.header.mip_count == texm::full_mip_count(16, 8));
    BOOST_TEST(t.header.flags4 == texm::kFlags4Mipmapped);
    ts.format = texm::Format::A8R8G8B8;
    const texm::Texture t2 =
        texm::read(conversion::rebuild_texture(in, ts).texm, ReadMode::Strict, "new");
    BOOST_TEST(t2.header.format == 8888u);
    BOOST_TEST((texm::decode_level(t2, 0) == img));
}

// The same textures give the same files in every process: each run a new address layout (ISA-L's
// levels 1 and 2 once made another stream for a 2x4 mip level in about 3 runs of 100). Every
// level of every texture of the corpus's Textures.lib, 16 batches, two at once.
BOOST_AUTO_TEST_CASE(textures_export_to_the_same_bytes_in_every_process) {
    const fs::path lib = test::corpus_dir() / samples::kTexturesLib;
    const fs::path dir = scratch("same-bytes");
    constexpr int kRuns = 16;
    const auto batch = [&](int r) {
        return std::string(MSHCONV_BINARY) + " batch " + q(lib) + " --to png --mips --quiet -o " +
               q(dir / std::to_string(r));
    };
    for (int r = 0; r < kRuns; r += 2) // two at once, as a batch's threads and the tests run
        test::run(batch(r) + " & " + batch(r + 1) + "; wait");
    std::map<std::string, Bytes> first;
    for (const auto& e : fs::recursive_directory_iterator(dir / "0"))
        if (e.is_regular_file() && e.path().extension() == ".png")
            first[fs::relative(e.path(), dir / "0").string()] = read_file(e.path());
    BOOST_TEST_REQUIRE(first.size() > 300u); // level 0 and the mips of every texture
    for (int r = 1; r < kRuns; ++r)
        for (const auto& [name, bytes] : first) {
            const fs::path other = dir / std::to_string(r) / name;
            BOOST_TEST_REQUIRE(fs::exists(other), other);
            BOOST_TEST((read_file(other) == bytes), name << " differs in run " << r);
        }
}

BOOST_AUTO_TEST_CASE(cli_round_trip_into_a_copy_of_textures_lib) {
    const fs::path lib = test::corpus_dir() / samples::kTexturesLib;
    const fs::path copy = scratch("Textures.lib");
    fs::copy_file(lib, copy, fs::copy_options::overwrite_existing);
    const nres::Archive ar = library(samples::kTexturesLib);
    // A few entries of different formats, one with --mips.
    std::map<uint32_t, std::string> picks;
    for (const nres::Entry& e : ar.entries)
        picks.emplace(load<uint32_t>(e.data.data() + 28), e.name());
    BOOST_REQUIRE(picks.size() >= 4u);
    std::vector<fs::path> written;
    bool first = true;
    for (const auto& [format, name] : picks) {
        BOOST_TEST_CONTEXT(name) {
            const fs::path png = scratch("cli/" + name + ".png");
            Run r = test::mshconv("convert " + q(lib.string() + ":" + name) + " " + q(png) +
                                  (first ? " --mips" : ""));
            BOOST_TEST(r.code == 0, r.out);
            BOOST_TEST(fs::exists(png));
            BOOST_TEST(fs::exists(png.parent_path() / (name + ".sidecar.json")));
            if (first) BOOST_TEST(fs::exists(png.parent_path() / (name + ".mip1.png")));
            first = false;
            written.push_back(png);
            r = test::mshconv("convert " + q(png) + " " + q(copy.string() + ":" + name));
            BOOST_TEST(r.code == 0, r.out);
            // Standalone .texm: the payload itself.
            const fs::path texm_file = scratch("cli/" + name + ".texm");
            r = test::mshconv("convert " + q(png) + " " + q(texm_file));
            BOOST_TEST(r.code == 0, r.out);
            BOOST_TEST((read_file(texm_file) == ar.entries[*ar.find(name)].data));
        }
    }
    BOOST_TEST((read_file(copy) == read_file(lib)));

    // An edited PNG goes into the archive; a broken one fails with exit 1 and no change.
    const std::string name = picks.at(8888);
    const fs::path png = scratch("cli/" + name + ".png");
    png::Decoded d = png::decode(read_file(png));
    d.rgba.at(2, 2)[0] ^= 0x55;
    write_file_atomic(png, png::encode_rgba(d.rgba));
    Run r = test::mshconv("convert " + q(png) + " " + q(copy.string() + ":" + name));
    BOOST_TEST(r.code == 0, r.out);
    const nres::Archive edited = nres::read(read_file(copy), ReadMode::Strict, "copy");
    const texm::Texture t =
        texm::read(edited.entries[*edited.find(name)].data, ReadMode::Strict, name);
    BOOST_TEST((texm::decode_level(t, 0).pixel(2, 2) == d.rgba.pixel(2, 2)));
    const Bytes before = read_file(copy);
    write_file_atomic(png, Bytes{'n', 'o', 't'});
    r = test::mshconv("convert " + q(png) + " " + q(copy.string() + ":" + name));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST((read_file(copy) == before));

    if (have_pngcheck()) {
        for (size_t i = 0; i < written.size() && i < 3; ++i) {
            if (written[i] == png) continue;
            const Run c = [&] {
                Run k;
                FILE* p = popen(("pngcheck -q " + q(written[i]) + " 2>&1").c_str(), "r");
                char buf[512];
                size_t n;
                while ((n = fread(buf, 1, sizeof buf, p)) > 0) k.out.append(buf, n);
                const int st = pclose(p);
                k.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
                return k;
            }();
            BOOST_TEST(c.code == 0, written[i] << ": " << c.out);
        }
    } else {
        BOOST_FAIL("pngcheck is not installed (scripts/install-deps.sh installs it)");
    }
}

BOOST_AUTO_TEST_CASE(cli_lightmap_round_trip) {
    const fs::path lib = test::corpus_dir() / samples::kLightMapLib;
    const nres::Archive ar = library(samples::kLightMapLib);
    const std::string name = ar.entries.at(0).name();
    const fs::path png = scratch("lm/" + name + ".png");
    Run r = test::mshconv("convert " + q(lib.string() + ":" + name) + " " + q(png));
    BOOST_TEST(r.code == 0, r.out);
    const fs::path out = scratch("lm/" + name + ".texm");
    r = test::mshconv("convert " + q(png) + " " + q(out));
    BOOST_TEST(r.code == 0, r.out);
    BOOST_TEST((read_file(out) == ar.entries[0].data));
}

BOOST_AUTO_TEST_CASE(info_describes_texm_files_and_entries) {
    const nres::Archive lib = library(samples::kTexturesLib);
    // Entries of every kind the corpus has: Page atlases, palettes, single levels, mip chains.
    std::set<std::string> seen;
    size_t checked = 0;
    for (const nres::Entry& e : lib.entries) {
        const texm::Texture t = texm::read(e.data, ReadMode::Strict, e.name());
        const std::string kind = std::to_string(t.header.format) + (t.page ? "p" : "") +
                                 (t.header.mip_count > 1 ? "m" : "");
        if (!seen.insert(kind).second) continue;
        ++checked;
        BOOST_TEST_CONTEXT(e.name()) {
            // A Texm entry, as JSON: every header field as read.
            Run r = test::mshconv("info --json " + q(test::corpus_dir() / samples::kTexturesLib) +
                                  ":" + e.name());
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            const auto j = nlohmann::json::parse(r.out);
            BOOST_TEST(j["kind"] == "texture");
            const auto& tj = j["texture"];
            BOOST_TEST(tj["width"] == t.header.width);
            BOOST_TEST(tj["height"] == t.header.height);
            BOOST_TEST(tj["format"] == t.header.format);
            BOOST_TEST(tj["mip_count"] == t.header.mip_count);
            BOOST_TEST(tj["flags4"] == t.header.flags4);
            BOOST_TEST(tj["flags5"] == t.header.flags5);
            BOOST_TEST(tj["unknown6"] == t.header.unknown6);
            BOOST_TEST(tj["embedded_palette"] == !t.palette.empty());
            BOOST_TEST(tj["page"].is_null() == !t.page.has_value());
            if (t.page) {
                BOOST_TEST_REQUIRE(tj["page"].size() == t.page->size());
                for (size_t k = 0; k < t.page->size(); ++k) {
                    BOOST_TEST(tj["page"][k]["x"] == (*t.page)[k].x);
                    BOOST_TEST(tj["page"][k]["w"] == (*t.page)[k].w);
                    BOOST_TEST(tj["page"][k]["y"] == (*t.page)[k].y);
                    BOOST_TEST(tj["page"][k]["h"] == (*t.page)[k].h);
                }
            }
            // A standalone Texm file, as text: size, format, mips, Page, flags.
            const fs::path file = scratch("info-texm") / e.name();
            write_file_atomic(file, e.data);
            r = test::mshconv("info " + q(file));
            BOOST_TEST_REQUIRE(r.code == 0, r.out);
            BOOST_TEST(r.out.find("Texm texture, " + std::to_string(e.data.size()) + " bytes") !=
                           std::string::npos,
                       r.out);
            BOOST_TEST(r.out.find(std::to_string(t.header.width) + " x " +
                                  std::to_string(t.header.height) + ", format " +
                                  std::to_string(t.header.format)) != std::string::npos,
                       r.out);
            BOOST_TEST(r.out.find(std::to_string(t.header.mip_count) + " mip level") !=
                           std::string::npos,
                       r.out);
            BOOST_TEST(r.out.find(t.page ? "Page: " + std::to_string(t.page->size()) + " rects"
                                         : std::string("Page: none")) != std::string::npos,
                       r.out);
            char flags5[16];
            std::snprintf(flags5, sizeof flags5, "0x%08X", t.header.flags5);
            BOOST_TEST(r.out.find("flags4 " + std::to_string(t.header.flags4) + ", flags5 " +
                                  flags5) != std::string::npos,
                       r.out);
        }
    }
    BOOST_TEST(checked >= 6u);
    BOOST_TEST(seen.count("0m") + seen.count("0") >= 1u); // palettised textures were among them

    // The archive listing summarises every Texm entry the same way.
    Run r = test::mshconv("info --json " + q(test::corpus_dir() / samples::kTexturesLib));
    BOOST_TEST_REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    BOOST_TEST_REQUIRE(j["entries"].size() == lib.entries.size());
    for (size_t i = 0; i < lib.entries.size(); ++i)
        BOOST_TEST(j["entries"][i]["texture"]["mip_count"] ==
                   texm::read(lib.entries[i].data, ReadMode::Strict, "t").header.mip_count);

    // A damaged Texm is still described (tolerant), with its diagnostics.
    Bytes cut = lib.entries[0].data.to_bytes();
    cut.resize(cut.size() / 2);
    const fs::path damaged = scratch("info-texm") / "CUT.0";
    write_file_atomic(damaged, cut);
    r = test::mshconv("info --json " + q(damaged));
    BOOST_TEST_REQUIRE(r.code == 0, r.out);
    const auto d = nlohmann::json::parse(r.out);
    BOOST_TEST(d["texture"]["interpretable"] == false);
    BOOST_TEST(!d["texture"]["diagnostics"].empty());
}

// --png-level changes the bytes, never the pixels: every corpus texture level decodes the same at
// the fast default, at zlib 0 (stored) and at 9, and 9 is smaller over the corpus (a tiny level
// can come out a few bytes larger: libpng's adaptive filter guess is per row).
BOOST_AUTO_TEST_CASE(png_levels_keep_the_pixels) {
    size_t levels = 0, fast_bytes = 0, small_bytes = 0;
    for (const auto& f : test::corpus()) {
        if (!f.relative_path.ends_with(".lib")) continue;
        for (const nres::Entry& e :
             nres::read(f.bytes, ReadMode::Strict, f.relative_path).entries) {
            if (e.type != texm::kMagic) continue;
            const texm::Texture t = texm::read(e.data, ReadMode::Strict, e.name());
            for (uint32_t level = 0; level < t.levels.size(); ++level) {
                const Bytes fast = png::from_texm_level(t, level);
                const Bytes stored = png::from_texm_level(t, level, png::options_for_level(0));
                const Bytes small = png::from_texm_level(t, level, png::options_for_level(9));
                const texm::Image pixels = png::decode(fast).rgba;
                BOOST_TEST((png::decode(stored).rgba.rgba == pixels.rgba), e.name());
                BOOST_TEST((png::decode(small).rgba.rgba == pixels.rgba), e.name());
                fast_bytes += fast.size();
                small_bytes += small.size();
                ++levels;
            }
        }
    }
    BOOST_TEST(levels > 100u);
    BOOST_TEST(small_bytes < fast_bytes);
    BOOST_CHECK_THROW(png::options_for_level(10), std::invalid_argument);
}

// The switch on the command line: a texture at --png-level 9 is smaller and reads back the same.
BOOST_AUTO_TEST_CASE(png_level_switch) {
    const fs::path dir = test::scratch("png-level/x").parent_path();
    const std::string tex = q(test::corpus_dir() / "Textures.lib") + ":ASPHALT.0";
    BOOST_TEST_REQUIRE(
        test::mshconv("convert " + tex + " " + q(dir / "fast.png") + " --quiet").code == 0);
    BOOST_TEST_REQUIRE(
        test::mshconv("convert " + tex + " " + q(dir / "small.png") + " --png-level 9 --quiet")
            .code == 0);
    BOOST_TEST(fs::file_size(dir / "small.png") < fs::file_size(dir / "fast.png"));
    BOOST_TEST((png::decode(read_file(dir / "small.png")).rgba.rgba ==
                png::decode(read_file(dir / "fast.png")).rgba.rgba));
    const Run bad = test::mshconv("convert " + tex + " " + q(dir / "bad.png") + " --png-level 12");
    BOOST_TEST(bad.code == 2);
    BOOST_TEST(!fs::exists(dir / "bad.png"));
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace texture_convert_tests
