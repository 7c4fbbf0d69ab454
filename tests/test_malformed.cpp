// Bad input: every corruption gives its own clear error (strict), the tolerant reader never
// crashes or reads out of bounds, and no count is trusted before it is checked.
#include "fixtures.hpp"

#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <functional>
#include <random>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace malformed_tests {

using namespace msh;
using namespace msh::test;

namespace {

using ImageEdit = std::function<void(Bytes&)>;
using ModelEdit = std::function<void(Model&)>;

struct Case {
    const char* name;
    std::function<Bytes()> make;
    const char* expect; // substring of the strict error
};

Bytes edit_image(const ImageEdit& f) {
    Bytes b = make_minimal_model_bytes();
    f(b);
    return b;
}

// Edits the container of the fixture (payloads, attributes) and writes it canonically.
Bytes edit_container(const std::function<void(nres::Archive&)>& f) {
    Model m = make_minimal_model();
    f(m.container);
    return nres::write_canonical(m.container);
}

nres::Entry& entry(nres::Archive& a, uint32_t type) {
    return a.entries.at(*a.find_type(type));
}

Bytes edit_payload(uint32_t type, size_t off, uint16_t value) {
    return edit_image([=](Bytes& b) { poke<uint16_t>(b, payload_offset(b, type) + off, value); });
}

const std::vector<Case>& cases() {
    static const std::vector<Case> list = {
        {"empty file", [] { return Bytes{}; }, "shorter than the 16-byte"},
        {"truncated header", [] { return Bytes(10, 'N'); }, "shorter than the 16-byte"},
        {"wrong magic", [] { return edit_image([](Bytes& b) { b[3] = 'z'; }); }, "bad magic"},
        {"wrong version", [] { return edit_image([](Bytes& b) { poke<uint32_t>(b, 4, 0x101); }); },
         "unsupported NRes version"},
        {"negative entry count",
         [] { return edit_image([](Bytes& b) { poke<int32_t>(b, 8, -1); }); },
         "negative entry count"},
        {"directory larger than the file",
         [] { return edit_image([](Bytes& b) { poke<int32_t>(b, 8, 1000000); }); }, "does not fit"},
        {"truncated file", [] { return edit_image([](Bytes& b) { b.pop_back(); }); },
         "truncated: the file has"},
        {"payload before the data region",
         [] {
             return edit_image([](Bytes& b) { poke<uint32_t>(b, directory_offset(b, 3) + 56, 8); });
         },
         "outside the data region"},
        {"payload past the directory",
         [] {
             return edit_image(
                 [](Bytes& b) { poke<uint32_t>(b, directory_offset(b, 3) + 12, 1u << 30); });
         },
         "outside the data region"},
        {"overlapping payloads",
         [] {
             return edit_image([](Bytes& b) {
                 poke<uint32_t>(b, directory_offset(b, 4) + 56, uint32_t(payload_offset(b, 3)));
             });
         },
         "overlaps"},
        {"name without NUL",
         [] {
             return edit_image([](Bytes& b) {
                 std::fill_n(b.begin() + long(directory_offset(b, 3) + 20), 36, 'A');
             });
         },
         "no NUL"},
        {"sort index not a permutation",
         [] {
             return edit_image([](Bytes& b) {
                 poke<uint32_t>(b, directory_offset(b, 2) + 60,
                                load<uint32_t>(b, directory_offset(b, 1) + 60));
             });
         },
         "not a permutation"},
        {"two resources of one type",
         [] { return edit_container([](nres::Archive& a) { entry(a, 17).type = 9; }); },
         "second resource of type 9"},
        {"missing Res3",
         [] { return edit_container([](nres::Archive& a) { entry(a, 3).type = 99; }); },
         "required resource Res3 is missing"},
        {"Res3 size not a multiple of 12",
         [] {
             return edit_container([](nres::Archive& a) { entry(a, 3).data.edit().pop_back(); });
         },
         "record size 12"},
        {"Res3 attr1 wrong",
         [] { return edit_container([](nres::Archive& a) { entry(a, 3).attr1 = 9; }); },
         "attr1 = 9 but the payload holds 8"},
        {"Res1 unknown stride",
         [] { return edit_container([](nres::Archive& a) { entry(a, 1).attr3 = 30; }); },
         "expected 38 (or 24)"},
        {"Res1 size not a multiple of 38",
         [] {
             return edit_container([](nres::Archive& a) { entry(a, 1).data.edit().push_back(0); });
         },
         "record size 38"},
        {"legacy Res1 size mismatch",
         [] {
             return edit_container([](nres::Archive& a) {
                 entry(a, 1).attr3 = 24;
                 entry(a, 1).attr1 = 5;
             });
         },
         "legacy stride-24"},
        {"Res2 size not 0x8C + 68n",
         [] {
             return edit_container([](nres::Archive& a) { entry(a, 2).data.edit().pop_back(); });
         },
         "0x8C + 68"},
        {"Res2 attr1 not the slot count",
         [] { return edit_container([](nres::Archive& a) { entry(a, 2).attr1 = 3; }); },
         "payload holds 2 slots"},
        {"Res4 count differs from Res3",
         [] {
             return edit_container([](nres::Archive& a) {
                 entry(a, 4).data.edit().resize(28);
                 entry(a, 4).attr1 = 7;
             });
         },
         "7 normals for 8 positions"},
        {"Res8 size not a multiple of 24",
         [] {
             return edit_container([](nres::Archive& a) { entry(a, 8).data.edit().push_back(0); });
         },
         "record size 24"},
        {"Res19 without Res8",
         [] { return edit_container([](nres::Archive& a) { entry(a, 8).type = 98; }); },
         "present together"},
        {"slot word out of range", [] { return edit_payload(1, 38 + 8, 2); },
         "exceeds the 2 slots"},
        {"slot batch range out of range", [] { return edit_payload(2, 0x8C + 68 + 6, 5); },
         "batch range"},
        {"slot triangle range out of range", [] { return edit_payload(2, 0x8C + 68 + 2, 100); },
         "triangle range"},
        {"batch index range past Res6",
         [] {
             return edit_image(
                 [](Bytes& b) { poke<uint32_t>(b, payload_offset(b, 13) + 20 + 10, 100); });
         },
         "exceeds Res6"},
        {"batch index count not a multiple of 3", [] { return edit_payload(13, 8, 11); },
         "not a multiple of 3"},
        {"batch base vertex past the vertices",
         [] {
             return edit_image(
                 [](Bytes& b) { poke<uint32_t>(b, payload_offset(b, 13) + 20 + 16, 100); });
         },
         "exceeds the 8 vertices"},
        {"triangle link out of range", [] { return edit_payload(7, 16 * 3 + 4, 50); },
         "linkTri1 = 50"},
        {"Res10 trailing bytes",
         [] {
             return edit_container([](nres::Archive& a) { entry(a, 10).data.edit().push_back(0); });
         },
         "trailing bytes"},
        {"Res10 record runs past the end", [] { return edit_payload(10, 0, 100); },
         "runs past the end"},
        {"Res10 record cut off",
         [] {
             return edit_container([](nres::Archive& a) { entry(a, 10).data.edit().resize(10); });
         },
         "cut off"},
        {"Res10 record not NUL-terminated", [] { return edit_payload(10, 8, 0x5858); },
         "not NUL-terminated"},
        {"Res10 attr1 not the node count",
         [] { return edit_container([](nres::Archive& a) { entry(a, 10).attr1 = 3; }); },
         "expected nodeCount 2"},
        {"parent out of range", [] { return edit_payload(1, 38 + 2, 7); }, "exceeds the 2 nodes"},
        {"parent cycle",
         [] {
             return edit_image([](Bytes& b) {
                 poke<uint16_t>(b, payload_offset(b, 1) + 2, 1);
                 poke<uint16_t>(b, payload_offset(b, 1) + 38 + 2, 0);
             });
         },
         "cycle"},
        {"fallback key past the key pool", [] { return edit_payload(1, 38 + 6, 9); }, "Res"},
        {"frame map block past Res19", [] { return edit_payload(1, 38 + 4, 3); }, "Res"},
        {"frame count zero",
         [] { return edit_container([](nres::Archive& a) { entry(a, 19).attr2 = 0; }); }, "Res19"},
        {"Res5 attr3 not the stride",
         [] { return edit_container([](nres::Archive& a) { entry(a, 5).attr3 = 5; }); },
         "attr3 = 5, expected 4"},
    };
    return list;
}

} // namespace

BOOST_AUTO_TEST_SUITE(malformed)

BOOST_AUTO_TEST_CASE(fixture_is_valid_and_round_trips) {
    Bytes b = make_minimal_model_bytes();
    DiagnosticSink sink(ReadMode::Strict);
    Model m = read_model(b, sink, "fixture");
    BOOST_TEST(sink.diagnostics().empty());
    BOOST_TEST((write_model(m) == b));
}

BOOST_AUTO_TEST_CASE(at_least_thirty_distinct_cases) {
    BOOST_TEST(cases().size() >= 30u);
}

BOOST_DATA_TEST_CASE(each_corruption_has_its_own_error,
                     boost::unit_test::data::xrange(cases().size()), i) {
    const Case& c = cases()[i];
    BOOST_TEST_CONTEXT(c.name) {
        Bytes b = c.make();
        std::string message;
        try {
            read_model(b, ReadMode::Strict, "bad.msh");
        } catch (const FormatError& e) {
            message = e.what();
        }
        BOOST_TEST(!message.empty(), "strict read accepted it");
        BOOST_TEST(message.find(c.expect) != std::string::npos, message);
        BOOST_TEST(message.find("bad.msh") != std::string::npos, message);
        // The tolerant reader either refuses the header outright or reads and reports.
        try {
            DiagnosticSink sink(ReadMode::Tolerant);
            Model m = read_model(b, sink, "bad.msh");
            BOOST_TEST(!sink.diagnostics().empty());
            write_model(m); // must not crash; may re-emit verbatim
        } catch (const FormatError&) {
        }
    }
}

BOOST_AUTO_TEST_CASE(error_names_resource_and_offset) {
    Bytes b = edit_payload(7, 16 * 3 + 4, 50);
    try {
        read_model(b, ReadMode::Strict, "bad.msh");
        BOOST_FAIL("accepted");
    } catch (const FormatError& e) {
        BOOST_TEST(e.resource() == "bad.msh: Res7 triangle 3");
        BOOST_TEST(e.offset() == payload_offset(b, 7) + 16 * 3 + 4);
    }
}

BOOST_AUTO_TEST_CASE(strict_read_lists_every_error) {
    Bytes b = edit_image([](Bytes& x) {
        poke<uint16_t>(x, payload_offset(x, 7) + 2, 50);
        poke<uint16_t>(x, payload_offset(x, 13) + 8, 11);
    });
    DiagnosticSink sink(ReadMode::Strict);
    read_model(b, sink, "bad.msh");
    size_t errors = 0;
    for (const Diagnostic& d : sink.diagnostics()) errors += d.severity == Severity::Error;
    BOOST_TEST(errors >= 2u);
}

// Deterministic random corruption: thousands of images with a few bytes changed or cut.
BOOST_AUTO_TEST_CASE(random_corruption_never_crashes) {
    const Bytes good = make_minimal_model_bytes();
    std::mt19937_64 rng(7);
    size_t rejected = 0, accepted = 0;
    for (int round = 0; round < 4000; ++round) {
        Bytes b = good;
        int edits = 1 + int(rng() % 4);
        for (int k = 0; k < edits; ++k) {
            size_t at = rng() % b.size();
            b[at] = uint8_t(rng() % 3 == 0 ? 0xFF : rng());
        }
        if (rng() % 8 == 0) b.resize(rng() % b.size());
        for (ReadMode mode : {ReadMode::Strict, ReadMode::Tolerant}) {
            try {
                DiagnosticSink sink(mode);
                Model m = read_model(b, sink, "fuzz");
                Bytes out = write_model(m);
                (sink.has_errors() ? rejected : accepted)++;
                if (mode == ReadMode::Strict && !sink.has_errors())
                    BOOST_TEST((out == b),
                               "strictly valid image did not round-trip, round " << round);
            } catch (const FormatError&) {
                ++rejected;
            }
        }
    }
    BOOST_TEST(rejected > 0u);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace malformed_tests
