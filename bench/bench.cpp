// Throughput of the foundation over the generated corpus: strict read + validate + lossless
// write of every archive and nested model, beside a plain copy of the same bytes.
// Usage: mshconv_bench [ROUNDS]   (prints figures; not a test)
#include "formats/file_io.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "samples/generator.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unistd.h>

using namespace msh;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

size_t sink_bytes = 0; // keeps the optimiser from dropping work

// Reads (strict, with validation) and rewrites an archive, nested models put back rewritten.
Bytes round_trip(const Bytes& bytes) {
    nres::Archive ar = nres::read(bytes, ReadMode::Strict, "bench");
    bool model = ar.find_type(1) && ar.find_type(2) && ar.find_type(3);
    if (model) return write_model(read_model(bytes, ReadMode::Strict, "bench"));
    for (nres::Entry& e : ar.entries)
        if (nres::looks_like_nres(e.data)) e.data = round_trip(e.data);
    return nres::write(ar);
}

template <class F> double median_seconds(int rounds, F&& f) {
    std::vector<double> t;
    for (int r = 0; r < rounds; ++r) {
        auto a = Clock::now();
        f();
        t.push_back(std::chrono::duration<double>(Clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
    auto g0 = Clock::now();
    auto files = samples::generate_corpus({});
    double gen = std::chrono::duration<double>(Clock::now() - g0).count();
    size_t total = 0;
    for (const auto& f : files) total += f.bytes.size();
    double mb = double(total) / 1e6;

    fs::path dir = fs::temp_directory_path() / ("mshconv-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir / "in");
    fs::create_directories(dir / "copy");
    fs::create_directories(dir / "out");
    for (const auto& f : files) write_file_atomic(dir / "in" / f.relative_path, f.bytes);

    double mem_ours = median_seconds(rounds, [&] {
        for (const auto& f : files) sink_bytes += round_trip(f.bytes).size();
    });
    double mem_copy = median_seconds(rounds, [&] {
        for (const auto& f : files) {
            Bytes c(f.bytes.size());
            std::memcpy(c.data(), f.bytes.data(), c.size());
            sink_bytes += c[c.size() / 2];
        }
    });
    double file_ours = median_seconds(rounds, [&] {
        for (const auto& f : files) {
            write_file_atomic(dir / "out" / f.relative_path,
                              round_trip(read_file(dir / "in" / f.relative_path)));
        }
    });
    double file_copy = median_seconds(rounds, [&] {
        for (const auto& f : files)
            fs::copy_file(dir / "in" / f.relative_path, dir / "copy" / f.relative_path,
                          fs::copy_options::overwrite_existing);
    });
    fs::remove_all(dir);

    std::printf("corpus: %zu files, %.2f MB (generated in %.3f s), median of %d rounds\n",
                files.size(), mb, gen, rounds);
    std::printf("%-46s %10s %10s\n", "", "seconds", "MB/s");
    std::printf("%-46s %10.4f %10.1f\n", "read+validate+write, in memory (all models)", mem_ours,
                mb / mem_ours);
    std::printf("%-46s %10.4f %10.1f\n", "memcpy of the same bytes", mem_copy, mb / mem_copy);
    std::printf("%-46s %10.4f %10.1f\n", "file -> read+validate+write -> file", file_ours,
                mb / file_ours);
    std::printf("%-46s %10.4f %10.1f\n", "plain file copy (copy_file)", file_copy, mb / file_copy);
    return sink_bytes == 42 ? 1 : 0;
}
