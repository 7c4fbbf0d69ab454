// Every file of the generated corpus: archives and every nested model read strictly with no
// diagnostic at all, and write back byte for byte.
#include "corpus.hpp"
#include "test_paths.hpp"

#include "formats/file_io.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"

#include <boost/test/unit_test.hpp>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace corpus_tests {

using namespace msh;

namespace {

struct Visit {
    size_t archives = 0, models = 0, legacy = 0, animated = 0;
};

void check_image(const Bytes& bytes, const std::string& where, Visit& v) {
    nres::Archive ar = nres::read(bytes, ReadMode::Strict, where);
    bool is_model = ar.find_type(1) && ar.find_type(2) && ar.find_type(3);
    if (!is_model) {
        ++v.archives;
        DiagnosticSink sink(ReadMode::Strict);
        nres::read(bytes, sink, where);
        for (const Diagnostic& d : sink.diagnostics()) BOOST_ERROR(d.to_string());
        BOOST_TEST((nres::write(ar) == bytes), where << ": archive did not round-trip");
        BOOST_TEST((nres::write_canonical(ar) == bytes), where << ": archive is not canonical");
        for (const nres::Entry& e : ar.entries)
            if (nres::looks_like_nres(e.data))
                check_image(e.data.to_bytes(), where + ":" + e.name(), v);
        return;
    }
    ++v.models;
    DiagnosticSink sink(ReadMode::Strict);
    Model m = read_model(bytes, sink, where);
    for (const Diagnostic& d : sink.diagnostics()) BOOST_ERROR(d.to_string());
    v.legacy += m.legacy_nodes;
    v.animated += m.animation.frame_count > 1;
    BOOST_TEST((write_model(m) == bytes), where << ": model did not round-trip");
    // The typed views re-encode to the same payloads (not only the untouched container).
    Model copy = m;
    sync_container(copy);
    for (size_t i = 0; i < m.container.entries.size(); ++i)
        BOOST_TEST((copy.container.entries[i].data == m.container.entries[i].data),
                   where << ": entry " << i);
}

} // namespace

BOOST_AUTO_TEST_SUITE(corpus)

BOOST_AUTO_TEST_CASE(every_file_and_nested_model_round_trips_byte_for_byte) {
    Visit v;
    for (const auto& f : test::corpus())
        if (nres::looks_like_nres(f.bytes) &&
            f.relative_path.find("DATA/MAPS") == std::string::npos)
            check_image(f.bytes, f.relative_path, v); // terrain has its own suites
    BOOST_TEST(v.models >= 60u);
    BOOST_TEST(v.legacy == 1u);
    BOOST_TEST(v.animated >= 10u);
    BOOST_TEST_MESSAGE("corpus: " << v.archives << " archives, " << v.models << " models");
}

BOOST_AUTO_TEST_CASE(edited_model_re_reads_to_the_same_views) {
    // Writer output re-reads to the same IR after an edit that changes sizes.
    for (const auto& f : test::corpus()) {
        if (f.relative_path.find(".rlb") == std::string::npos) continue;
        nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (!nres::looks_like_nres(e.data)) continue;
            Model m = read_model(e.data, ReadMode::Strict, e.name());
            if (m.legacy_nodes || m.node_strings.empty()) continue;
            std::string renamed = "renamed_" + m.node_name(0);
            m.node_strings[0] = {true, renamed};
            Bytes out = write_model(m);
            Model back = read_model(out, ReadMode::Strict, e.name());
            BOOST_TEST(back.node_name(0) == renamed);
            BOOST_TEST(back.positions.size() == m.positions.size());
            BOOST_TEST((back.container.entries.size() == m.container.entries.size()));
            for (size_t i = 0; i < m.container.entries.size(); ++i) {
                BOOST_TEST(back.container.entries[i].type == m.container.entries[i].type);
                if (m.container.entries[i].type != kNodeStrings)
                    BOOST_TEST((back.container.entries[i].data == m.container.entries[i].data));
            }
            return; // one model is enough for this property; the round trip covers all
        }
    }
    BOOST_FAIL("no model with node strings in the corpus");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(committed_samples)

// samples/data holds a few generated files for quick tries; they must stay what the generator
// writes today (regenerate with `mshconv samples` and copy them when the generator changes).
BOOST_AUTO_TEST_CASE(committed_samples_match_the_generator) {
    const std::filesystem::path dir =
        std::filesystem::path(MSHCONV_SOURCE_DIR) / "samples" / "data";
    size_t checked = 0, bytes = 0;
    for (const auto& f : test::corpus()) {
        const std::filesystem::path p = dir / f.relative_path;
        if (!std::filesystem::exists(p)) continue;
        const Bytes committed = read_file(p);
        BOOST_TEST((committed == f.bytes), p << " differs from the generator's output");
        ++checked;
        bytes += committed.size();
    }
    BOOST_TEST(checked >= 5u);
    BOOST_TEST(bytes < 1024u * 1024u);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace corpus_tests
