// WEAR tables (texm-materials.md §11): exact read -> write on the whole corpus and on hand-made
// files in the styles other tools write (LF, CRLF, mixed, odd whitespace, padding), the spec's
// errors, edits that change only the edited lines, and new tables.
#include "corpus.hpp"
#include "test_util.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "formats/wear.hpp"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace wear_tests {

using namespace msh;

namespace {

Bytes bytes_of(const std::string& s) {
    return Bytes(s.begin(), s.end());
}

std::string text_of(const Bytes& b) {
    return std::string(b.begin(), b.end());
}

// The message of the FormatError reading `text` throws ("" if it does not throw).
std::string read_error(const std::string& text) {
    try {
        wear::read(bytes_of(text), "t.wea");
    } catch (const FormatError& e) {
        return e.what();
    }
    return "";
}

uint64_t read_error_offset(const std::string& text) {
    try {
        wear::read(bytes_of(text), "t.wea");
    } catch (const FormatError& e) {
        return e.offset();
    }
    return UINT64_MAX;
}

} // namespace

BOOST_AUTO_TEST_SUITE(wear_tables)

BOOST_AUTO_TEST_CASE(every_corpus_wear_writes_back_byte_identical) {
    size_t tables = 0, with_lightmaps = 0;
    auto check = [&](const std::string& where, const Bytes& data) {
        BOOST_TEST_CONTEXT(where) {
            const wear::Wear w = wear::read(data, where);
            BOOST_TEST(!w.materials.empty());
            BOOST_TEST((wear::write(w) == data));
            ++tables;
            if (!w.lightmaps.empty()) ++with_lightmaps;
        }
    };
    for (const samples::GeneratedFile& f : test::corpus()) {
        if (f.relative_path.ends_with(".wea")) {
            check(f.relative_path, f.bytes);
        } else if (f.relative_path.ends_with(".rlb")) {
            const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
            for (const nres::Entry& e : ar.entries)
                if (e.type == nres::fourcc("WEAR"))
                    check(f.relative_path + ":" + e.name(), e.data.to_bytes());
        }
    }
    // 64 models + 2 tables per map.
    BOOST_TEST(tables >= 64u + 12u);
    BOOST_TEST(with_lightmaps >= 5u);
}

struct Case {
    const char* label;
    std::string text;
    size_t materials;
    size_t lightmaps;
    wear::LineEnding ending;
};

BOOST_AUTO_TEST_CASE(hand_made_styles_write_back_byte_identical) {
    using wear::LineEnding;
    const Case cases[] = {
        {"CRLF", "2\r\n101 METAL_1\r\n102 GLASS\r\n", 2, 0, LineEnding::Crlf},
        {"LF", "2\n101 METAL_1\n102 GLASS\n", 2, 0, LineEnding::Lf},
        {"CRLF + LIGHTMAPS", "1\r\n7 A\r\n\r\nLIGHTMAPS\r\n1\r\n3 LM_A\r\n", 1, 1,
         LineEnding::Crlf},
        {"LF + LIGHTMAPS, two lightmaps", "1\n7 A\n\nLIGHTMAPS\n2\n3 LM_A\n4 LM_B\n", 1, 2,
         LineEnding::Lf},
        {"mixed line ends", "2\n1 A\r\n2 B\n", 2, 0, LineEnding::Lf},
        {"no final line end", "2\r\n1 A\r\n2 B", 2, 0, LineEnding::Crlf},
        {"no final line end after LIGHTMAPS", "1\n1 A\n\nLIGHTMAPS\n1\n0 LM", 1, 1, LineEnding::Lf},
        {"tabs and runs of spaces", " 2 \t\r\n\t101   METAL_1  \r\n102\tGLASS\t\r\n", 2, 0,
         LineEnding::Crlf},
        {"whitespace on the blank line", "1\r\n1 A\r\n  \r\nLIGHTMAPS  \r\n 1\r\n2 LM\r\n", 1, 1,
         LineEnding::Crlf},
        {"leading zeros and signs", "+02\r\n007 A\r\n-5 B\r\n", 2, 0, LineEnding::Crlf},
        {"trailing blank lines", "1\r\n1 A\r\n\r\n\r\n", 1, 0, LineEnding::Crlf},
        {"trailing NUL padding", std::string("1\r\n1 A\r\n\0\0\0", 11), 1, 0, LineEnding::Crlf},
        {"NUL right after the last row", std::string("1\r\n1 A\0\0", 8), 1, 0, LineEnding::Crlf},
        {"trailing spaces after LIGHTMAPS rows", "1\n1 A\n\nLIGHTMAPS\n1\n2 L\n  \n", 1, 1,
         LineEnding::Lf},
        {"CP1251 name", "1\r\n5 \xC1\xD0\xCE\xCD\xDF\r\n", 1, 0, LineEnding::Crlf},
    };
    for (const Case& c : cases) {
        BOOST_TEST_CONTEXT(c.label) {
            const wear::Wear w = wear::read(bytes_of(c.text), c.label);
            BOOST_TEST(w.materials.size() == c.materials);
            BOOST_TEST(w.lightmaps.size() == c.lightmaps);
            BOOST_TEST((w.line_ending == c.ending));
            BOOST_TEST(text_of(wear::write(w)) == c.text);
        }
    }
}

BOOST_AUTO_TEST_CASE(values_are_parsed) {
    const wear::Wear w = wear::read(
        bytes_of(" 2\r\n\t007  METAL_1 \r\n-5 GLASS\r\n\r\nLIGHTMAPS\r\n1\r\n+3 LM_A\r\n"),
        "t.wea");
    BOOST_TEST_REQUIRE(w.materials.size() == 2u);
    BOOST_TEST(w.materials[0].legacy_id == 7);
    BOOST_TEST(w.materials[0].name == "METAL_1");
    BOOST_TEST(w.materials[1].legacy_id == -5);
    BOOST_TEST(w.materials[1].name == "GLASS");
    BOOST_TEST_REQUIRE(w.lightmaps.size() == 1u);
    BOOST_TEST(w.lightmaps[0].legacy_id == 3);
    BOOST_TEST(wear::lightmap_names(w) == std::vector<std::string>{"LM_A"});
    BOOST_TEST(wear::material_names(w) == (std::vector<std::string>{"METAL_1", "GLASS"}));
}

BOOST_AUTO_TEST_CASE(malformed_tables_give_the_spec_errors) {
    struct Bad {
        const char* label;
        std::string text;
        const char* message; // a part of the error message
    };
    const Bad cases[] = {
        {"empty", "", "expected the material count"},
        {"count 0", "0\r\n", "Illegal wear length."},
        {"negative count", "-3\r\n1 A\r\n", "Illegal wear length."},
        {"count not a number", "two\r\n1 A\r\n2 B\r\n", "expected the material count"},
        {"count with a second token", "2 3\r\n1 A\r\n2 B\r\n", "expected the material count"},
        {"short list", "3\r\n1 A\r\n2 B\r\n", "says 3 rows, found 2"},
        {"row without a name", "1\r\n17\r\n", "does not start '<legacyId> <name>'"},
        {"id not a number", "1\r\nx1 A\r\n", "does not start '<legacyId> <name>'"},
        {"id beyond 32 bits", "1\r\n4294967296 A\r\n", "does not start '<legacyId> <name>'"},
        {"blank row", "2\r\n1 A\r\n\r\n2 B\r\n", "does not start '<legacyId> <name>'"},
        {"more rows than counted", "1\r\n1 A\r\n2 B\r\n", "unexpected text '2 B'"},
        {"LIGHTMAPS without the blank line", "1\r\n1 A\r\nLIGHTMAPS\r\n1\r\n2 L\r\n",
         "exactly one empty line"},
        {"LIGHTMAPS after two blank lines", "1\r\n1 A\r\n\r\n\r\nLIGHTMAPS\r\n1\r\n2 L\r\n",
         "exactly one empty line"},
        {"negative lightmap count", "1\r\n1 A\r\n\r\nLIGHTMAPS\r\n-1\r\n",
         "Illegal lightmaps length."},
        {"lightmap count missing", "1\r\n1 A\r\n\r\nLIGHTMAPS\r\n", "expected the lightmap count"},
        {"short lightmap list", "1\r\n1 A\r\n\r\nLIGHTMAPS\r\n2\r\n1 L\r\n",
         "says 2 rows, found 1"},
        {"text after the lightmap rows", "1\r\n1 A\r\n\r\nLIGHTMAPS\r\n1\r\n1 L\r\nX\r\n",
         "after the lightmap rows"},
        {"lower-case keyword", "1\r\n1 A\r\n\r\nlightmaps\r\n1\r\n1 L\r\n", "unexpected text"},
        {"stray CR", "1\r\n1 A\rB\r\n", "stray carriage return"},
        {"control byte", "1\r\n1 A\x01\r\n", "control byte 0x01"},
        {"UTF-8 BOM",
         "\xEF\xBB\xBF"
         "1\r\n1 A\r\n",
         "expected the material count"},
    };
    for (const Bad& c : cases) {
        BOOST_TEST_CONTEXT(c.label) {
            const std::string message = read_error(c.text);
            BOOST_TEST(message.find(c.message) != std::string::npos, "got: " << message);
            BOOST_TEST(message.find("t.wea") != std::string::npos, "got: " << message);
        }
    }
    // Offsets name the offending line.
    BOOST_TEST(read_error_offset("1\r\n1 A\r\nLIGHTMAPS\r\n1\r\n2 L\r\n") == 8u);
    BOOST_TEST(read_error_offset("3\r\n1 A\r\n2 B\r\n") == 13u);
    BOOST_TEST(read_error_offset("2\r\n1 A\r\nBAD\r\n") == 8u);
}

// Shipped tables hold rows with tokens after the name and LIGHTMAPS sections with a count of 0
// (texm-materials.md §11): read strict-clean, the name is the second token, written back byte for
// byte, and an edit of another row keeps the extra tokens.
BOOST_AUTO_TEST_CASE(real_install_rows_with_extra_tokens_and_zero_lightmaps) {
    const std::string text = "3\r\n101 METAL 1 ; shiny\r\n102 GLASS\r\n103\tWOOD\t7\r\n"
                             "\r\nLIGHTMAPS\r\n0\r\n";
    DiagnosticSink sink(ReadMode::Strict);
    const auto w = wear::read(bytes_of(text), sink, "t.wea");
    BOOST_REQUIRE(w.has_value());
    BOOST_TEST(sink.diagnostics().empty());
    BOOST_TEST(wear::material_names(*w) == (std::vector<std::string>{"METAL", "GLASS", "WOOD"}),
               boost::test_tools::per_element());
    BOOST_TEST(w->materials[0].extra == (std::vector<std::string>{"1", ";", "shiny"}),
               boost::test_tools::per_element());
    BOOST_TEST(w->materials[2].extra == std::vector<std::string>{"7"},
               boost::test_tools::per_element());
    BOOST_TEST(w->lightmaps.empty());
    BOOST_TEST(w->layout.lightmaps_section);
    BOOST_TEST(text_of(wear::write(*w)) == text);

    wear::Wear edited = *w;
    edited.materials[1].name = "STONE";
    BOOST_TEST(text_of(wear::write(edited)) ==
               "3\r\n101 METAL 1 ; shiny\r\n102 STONE\r\n103\tWOOD\t7\r\n\r\nLIGHTMAPS\r\n0\r\n");
    edited.materials[0].extra = {"2"}; // an edited row is formatted with its extra tokens
    BOOST_TEST(text_of(wear::write(edited)).find("101 METAL 2\r\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(edits_rewrite_only_the_edited_lines) {
    // Odd whitespace and LF: an edited name is formatted, its neighbours keep their bytes.
    wear::Wear w = wear::read(bytes_of(" 2 \n\t101   METAL_1  \n102\tGLASS\t\n"), "t.wea");
    w.materials[1].name = "STEEL";
    BOOST_TEST(text_of(wear::write(w)) == " 2 \n\t101   METAL_1  \n102 STEEL\n");

    // An appended row: new count, the new row in the file's style (LF).
    w = wear::read(bytes_of("1\n1 A\n"), "t.wea");
    w.materials.push_back({2, "B"});
    BOOST_TEST(text_of(wear::write(w)) == "2\n1 A\n2 B\n");

    // The last line had no line end: it gets one when a row follows it.
    w = wear::read(bytes_of("1\r\n1 A"), "t.wea");
    w.materials.push_back({2, "B"});
    BOOST_TEST(text_of(wear::write(w)) == "2\r\n1 A\r\n2 B\r\n");

    // A new LIGHTMAPS section: one blank line before it, the file's style.
    w = wear::read(bytes_of("1\n1 A\n"), "t.wea");
    w.lightmaps.push_back({9, "LM_A"});
    BOOST_TEST(text_of(wear::write(w)) == "1\n1 A\n\nLIGHTMAPS\n1\n9 LM_A\n");

    // Removing the section drops its lines, keeps the rest.
    w = wear::read(bytes_of("1\r\n1 A\r\n\r\nLIGHTMAPS\r\n1\r\n9 LM_A\r\n"), "t.wea");
    w.lightmaps.clear();
    BOOST_TEST(text_of(wear::write(w)) == "1\r\n1 A\r\n");

    // A changed legacy id with the same name, and a lightmap renamed in place.
    w = wear::read(bytes_of("1\r\n007 A\r\n \r\nLIGHTMAPS\r\n1\r\n9 LM_A\r\n"), "t.wea");
    w.materials[0].legacy_id = 8;
    w.lightmaps[0].name = "LM_B";
    BOOST_TEST(text_of(wear::write(w)) == "1\r\n8 A\r\n \r\nLIGHTMAPS\r\n1\r\n9 LM_B\r\n");

    // Removing a row rewrites the count; the leading-zero count of the original was a value.
    w = wear::read(bytes_of("02\r\n1 A\r\n2 B\r\n"), "t.wea");
    w.materials.pop_back();
    BOOST_TEST(text_of(wear::write(w)) == "1\r\n1 A\r\n");
}

BOOST_AUTO_TEST_CASE(new_tables_are_crlf_with_a_blank_line_before_lightmaps) {
    wear::Wear w;
    w.materials = {{101, "METAL_1"}, {102, "GLASS"}};
    w.lightmaps = {{7, "LM_TANK"}};
    const std::string text = text_of(wear::write(w));
    BOOST_TEST(text == "2\r\n101 METAL_1\r\n102 GLASS\r\n\r\nLIGHTMAPS\r\n1\r\n7 LM_TANK\r\n");
    const wear::Wear back = wear::read(bytes_of(text), "new.wea");
    BOOST_TEST((back.materials == w.materials));
    BOOST_TEST((back.lightmaps == w.lightmaps));

    w.line_ending = wear::LineEnding::Lf;
    w.lightmaps.clear();
    BOOST_TEST(text_of(wear::write(w)) == "2\n101 METAL_1\n102 GLASS\n");
}

BOOST_AUTO_TEST_CASE(the_writer_refuses_what_the_game_cannot_read) {
    wear::Wear w;
    BOOST_CHECK_THROW(wear::write(w), FormatError); // no rows: "Illegal wear length."
    w.materials = {{1, "METAL 1"}};
    BOOST_CHECK_THROW(wear::write(w), FormatError);
    w.materials = {{1, ""}};
    BOOST_CHECK_THROW(wear::write(w), FormatError);
    w.materials = {{1, "A"}};
    w.lightmaps = {{1, "LM\tB"}};
    BOOST_CHECK_THROW(wear::write(w), FormatError);
    w.lightmaps = {{1, "LM_B"}};
    BOOST_CHECK_NO_THROW(wear::write(w));
}

BOOST_AUTO_TEST_CASE(validate_reports_wear_errors_in_archives_and_loose_files) {
    const auto dir = test::scratch("wear-validate");
    std::filesystem::create_directories(dir);
    const auto bad = dir / "Land1.wea";
    const std::string text = "1\r\n1 A\r\nLIGHTMAPS\r\n1\r\n1 L\r\n";
    write_file_atomic(bad, bytes_of(text));
    test::Run r = test::mshconv("validate " + test::q(bad));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("offset 8") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("exactly one empty line") != std::string::npos, r.out);

    // Every WEAR entry of a model archive is read; a damaged one makes the archive invalid.
    const auto archive = test::corpus_dir() / "system.rlb";
    r = test::mshconv("validate " + test::q(archive));
    BOOST_TEST(r.code == 0, r.out);
    nres::Archive ar = nres::read(read_file(archive), ReadMode::Strict, "system.rlb");
    size_t wears = 0;
    std::optional<size_t> first;
    for (size_t i = 0; i < ar.entries.size(); ++i)
        if (ar.entries[i].type == nres::fourcc("WEAR")) {
            ++wears;
            if (!first) first = i;
        }
    BOOST_TEST_REQUIRE(wears > 0u);
    BOOST_TEST(r.out.find(std::to_string(wears) + " WEAR table") != std::string::npos, r.out);
    ar.entries[*first].data = bytes_of("0\r\n");
    const auto damaged = dir / "system.rlb";
    write_file_atomic(damaged, nres::write(ar));
    r = test::mshconv("validate " + test::q(damaged));
    BOOST_TEST(r.code == 1, r.out);
    BOOST_TEST(r.out.find("Illegal wear length.") != std::string::npos, r.out);
    BOOST_TEST(r.out.find(ar.entries[*first].name()) != std::string::npos, r.out);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace wear_tests
