// `mshconv_bench json FILE [ROUNDS]`: the sidecar readers' parse (sidecar::ParsedJson: RapidJSON's
// DOM built in place, numbers converted, nesting bounded) against RapidJSON's SAX reader (numbers
// left unconverted, no DOM) and simdjson's DOM parser (when built with it) on one JSON file (a
// sidecar). All three check UTF-8 and the same nesting bound. The figures say what a reader on
// simdjson would gain.
#include "formats/file_io.hpp"
#include "formats/json_nesting.hpp"
#include "formats/rapidjson.hpp"
#include "sidecar/json_at.hpp"

#include <rapidjson/reader.h>
#ifdef MSHCONV_BENCH_SIMDJSON
#include <simdjson.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

using namespace msh;

namespace {

// Accepts every event; refuses a container nested deeper than the scanner allows.
struct ValidateOnly : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, ValidateOnly> {
    size_t depth = 0;
    bool Default() { return true; }
    bool StartObject() { return ++depth <= kMaxJsonNesting; }
    bool EndObject(rapidjson::SizeType) { return --depth, true; }
    bool StartArray() { return ++depth <= kMaxJsonNesting; }
    bool EndArray(rapidjson::SizeType) { return --depth, true; }
};

bool rapidjson_accepts(const std::string& text) {
    constexpr unsigned kFlags = rapidjson::kParseValidateEncodingFlag |
                                rapidjson::kParseNumbersAsStringsFlag |
                                rapidjson::kParseIterativeFlag;
    rapidjson::Reader reader;
    ValidateOnly handler;
    rapidjson::StringStream stream(text.c_str());
    return !reader.Parse<kFlags>(stream, handler).IsError();
}

#ifdef MSHCONV_BENCH_SIMDJSON
// One parser for every round (its buffers allocated once, as a reader of many sidecars keeps it).
bool simdjson_accepts(simdjson::dom::parser& parser, const simdjson::padded_string& text) {
    return parser.parse(text).error() == simdjson::SUCCESS;
}
#endif

bool readers_accept(const std::string& text) {
    sidecar::ParsedJson parsed;
    return parsed.try_parse(ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

double median_ms(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int run_json_bench(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: mshconv_bench json FILE [ROUNDS]\n");
        return 2;
    }
    const Bytes bytes = read_file(argv[2]);
    const std::string text(bytes.begin(), bytes.end());
    const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 9;
    using Clock = std::chrono::steady_clock;
    std::vector<double> ours, theirs, simd;
    bool ours_ok = true, theirs_ok = true, simd_ok = true;
#ifdef MSHCONV_BENCH_SIMDJSON
    const simdjson::padded_string padded(text);
    simdjson::dom::parser parser;
    simd_ok = parser.allocate(padded.size(), kMaxJsonNesting) == simdjson::SUCCESS;
#endif
    for (int r = 0; r < rounds; ++r) { // alternated, so that all see the same minutes
        const auto t0 = Clock::now();
        ours_ok &= readers_accept(text);
        const auto t1 = Clock::now();
        theirs_ok &= rapidjson_accepts(text);
        const auto t2 = Clock::now();
        ours.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        theirs.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
#ifdef MSHCONV_BENCH_SIMDJSON
        const auto t3 = Clock::now();
        simd_ok &= simdjson_accepts(parser, padded);
        simd.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t3).count());
#endif
    }
    const double mb = double(text.size()) / 1e6;
    std::printf("%s: %.2f MB, median of %d alternated rounds\n", argv[2], mb, rounds);
    std::printf("  readers' ParsedJson   %8.2f ms  %7.0f MB/s  %s\n", median_ms(ours),
                mb / median_ms(ours) * 1000, ours_ok ? "accepted" : "REFUSED");
    std::printf("  RapidJSON SAX reader  %8.2f ms  %7.0f MB/s  %s\n", median_ms(theirs),
                mb / median_ms(theirs) * 1000, theirs_ok ? "accepted" : "REFUSED");
    if (!simd.empty())
        std::printf("  simdjson DOM parser   %8.2f ms  %7.0f MB/s  %s\n", median_ms(simd),
                    mb / median_ms(simd) * 1000, simd_ok ? "accepted" : "REFUSED");
    else
        std::printf("  simdjson              not built in (scripts/install-deps.sh --bench)\n");
    const bool agree = ours_ok == theirs_ok && (simd.empty() || simd_ok == ours_ok);
    return agree ? 0 : 1; // a disagreement on the verdict is worth a look
}
