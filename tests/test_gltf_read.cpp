// The glTF reader's JSON (formats/rapidjson.hpp under tinygltf and the glTF check): numbers to
// the nearest double, text checked as UTF-8, a byte order mark skipped, and documents read by
// several threads at once (a batch reads two or more at a time).
#include "corpus.hpp"
#include "test_util.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/gltf.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace gltf_read_tests {

using namespace msh;
using namespace msh::test;
namespace fs = std::filesystem;

namespace {

Bytes bytes_of(const std::string& s) {
    return Bytes(s.begin(), s.end());
}

scene::Scene read_text(const std::string& text) {
    DiagnosticSink warnings(ReadMode::Tolerant);
    return gltf::read_gltf_text(bytes_of(text), "t.gltf", warnings);
}

} // namespace

BOOST_AUTO_TEST_SUITE(gltf_read)

// Decimal numbers whose nearest double a fast, approximate conversion misses (ties, long
// mantissas, the smallest normal, 2^53 + 1): the extras must hold what strtod gives.
BOOST_AUTO_TEST_CASE(numbers_are_read_to_the_nearest_double) {
    const std::vector<std::string> numbers = {
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203126",
        "0.1000000000000000055511151231257827021181583404541015625",
        "2.2250738585072011e-308",
        "2.2250738585072014e-308",
        "9007199254740993.0",
        "0.30000000000000004",
        "7.0e-10",
        "123456789012345678901234567890e-20",
        "4.9406564584124654e-324",
        "1.7976931348623157e308"};
    std::string list;
    for (const std::string& n : numbers) list += (list.empty() ? "" : ",") + n;
    const scene::Scene sc =
        read_text(R"({"asset":{"version":"2.0"},"nodes":[{"name":"n","extras":{"v":[)" + list +
                  R"(]},"translation":[0.1,)" + numbers[1] + R"(,-2.5e-3]}]})");
    BOOST_REQUIRE_EQUAL(sc.nodes.size(), 1u);
    const nlohmann::json& v = sc.nodes[0].extras["v"];
    BOOST_REQUIRE_EQUAL(v.size(), numbers.size());
    for (size_t i = 0; i < numbers.size(); ++i) {
        const double expected = std::strtod(numbers[i].c_str(), nullptr);
        BOOST_TEST(v[i].get<double>() == expected, numbers[i]);
    }
    BOOST_TEST(sc.nodes[0].translation[0] == float(0.1));
    BOOST_TEST(sc.nodes[0].translation[1] == float(std::strtod(numbers[1].c_str(), nullptr)));
    BOOST_TEST(sc.nodes[0].translation[2] == float(-2.5e-3));
}

BOOST_AUTO_TEST_CASE(a_byte_order_mark_is_skipped) {
    const std::string doc = R"({"asset":{"version":"2.0"},"nodes":[{"name":"with BOM"}]})";
    const scene::Scene in_memory = read_text("\xEF\xBB\xBF" + doc);
    BOOST_REQUIRE_EQUAL(in_memory.nodes.size(), 1u);
    BOOST_TEST(in_memory.nodes[0].name == "with BOM");
    const fs::path file = scratch("bom.gltf");
    write_file_atomic(file, bytes_of("\xEF\xBB\xBF" + doc));
    DiagnosticSink warnings(ReadMode::Tolerant);
    const scene::Scene from_file = gltf::read(file, warnings);
    BOOST_REQUIRE_EQUAL(from_file.nodes.size(), 1u);
    BOOST_TEST(from_file.nodes[0].name == "with BOM");
    // A BOM anywhere else is not whitespace.
    BOOST_CHECK_THROW(read_text(" \xEF\xBB\xBF" + doc), FormatError);
}

// RFC 8259 §8.1: JSON text is UTF-8. The error names the byte where the bad sequence starts.
BOOST_AUTO_TEST_CASE(text_that_is_not_utf8_is_refused_at_its_offset) {
    const std::string head = R"({"asset":{"version":"2.0"},"nodes":[{"name":"a)";
    for (const std::string bad : {"\xC3\x28", "\xFF", "\xED\xA0\x80", "\xC0\xAF"}) {
        try {
            read_text(head + bad + R"("}]})");
            BOOST_FAIL("accepted bytes that are not UTF-8");
        } catch (const FormatError& e) {
            BOOST_TEST((e.location().kind == Location::Kind::Offset), e.what());
            BOOST_TEST(e.location().offset >= head.size(), e.what());
            BOOST_TEST(e.location().offset <= head.size() + bad.size(), e.what());
            BOOST_TEST(std::string(e.what()).find("not JSON") != std::string::npos, e.what());
        }
    }
    // Valid multi-byte text (Cyrillic, as the game's names are) reads back as it was.
    const scene::Scene sc = read_text(head + "\xD0\x94\xD0\xBE\xD0\xBC" + R"("}]})");
    BOOST_TEST(sc.nodes.at(0).name == "a\xD0\x94\xD0\xBE\xD0\xBC");
}

// Every thread reads the same GLB; each must see the whole scene (tinygltf's default RapidJSON
// allocator is one global document, which concurrent reads would share).
BOOST_AUTO_TEST_CASE(documents_are_read_by_several_threads_at_once) {
    const fs::path dir = scratch("gltf_read_threads");
    fs::create_directories(dir);
    const Run r = test::mshconv("convert " + q(corpus_dir() / "animals.rlb") + ":A_BIG.msh " +
                                q(dir / "a.glb") + " --quiet");
    BOOST_REQUIRE_MESSAGE(r.code == 0, r.out);
    const Bytes glb = read_file(dir / "a.glb");
    DiagnosticSink warnings(ReadMode::Tolerant);
    const scene::Scene reference = gltf::read_glb(glb, "a.glb", warnings);
    BOOST_REQUIRE(!reference.nodes.empty());
    constexpr int kThreads = 4, kReads = 6;
    std::vector<int> same(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < kReads; ++i) {
                DiagnosticSink sink(ReadMode::Tolerant);
                const scene::Scene sc = gltf::read_glb(glb, "a.glb", sink);
                bool equal = sc.nodes.size() == reference.nodes.size() &&
                             sc.meshes.size() == reference.meshes.size() &&
                             sc.animations.size() == reference.animations.size();
                for (size_t n = 0; equal && n < sc.nodes.size(); ++n)
                    equal = sc.nodes[n].name == reference.nodes[n].name &&
                            sc.nodes[n].translation == reference.nodes[n].translation &&
                            sc.nodes[n].extras == reference.nodes[n].extras &&
                            sc.nodes[n].identity == reference.nodes[n].identity;
                same[size_t(t)] += equal;
            }
        });
    for (std::thread& t : threads) t.join();
    for (int t = 0; t < kThreads; ++t) BOOST_TEST(same[size_t(t)] == kReads, "thread " << t);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace gltf_read_tests
