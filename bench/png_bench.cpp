// `mshconv_bench png [ROUNDS]`: PNG encoding settings side by side on the level-0 images of every
// texture of a corpus (the export's work): encode MB/s of pixels, output size, and a decode check
// that every setting gives the same pixels. Figures choose the default and the --png-level range.
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/texm.hpp"
#include "samples/generator.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace msh;

namespace {

struct Setting {
    const char* name;
    int level;
    png::RowFilter filter;
    bool igzip = false;
};

} // namespace

int run_png_bench(int argc, char** argv) {
    const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    std::vector<texm::Texture> textures;
    size_t pixels = 0;
    for (const samples::GeneratedFile& f : samples::generate_corpus({})) {
        if (!f.relative_path.ends_with(".lib")) continue;
        for (const nres::Entry& e :
             nres::read(f.bytes, ReadMode::Strict, f.relative_path).entries) {
            if (e.type != texm::kMagic) continue;
            DiagnosticSink sink(ReadMode::Tolerant);
            texm::Texture t = texm::read(e.data, sink, e.name());
            if (t.raw_only || !t.format()) continue;
            pixels += size_t(t.header.width) * t.header.height;
            textures.push_back(std::move(t));
        }
    }
    const Setting settings[] = {
        {"zlib 6, adaptive filters (before)", 6, png::RowFilter::Adaptive},
        {"zlib 9, adaptive filters", 9, png::RowFilter::Adaptive},
        {"zlib 3, adaptive filters", 3, png::RowFilter::Adaptive},
        {"zlib 1, adaptive filters", 1, png::RowFilter::Adaptive},
        {"zlib 1, sub filter", 1, png::RowFilter::Sub},
        {"zlib 1, up filter", 1, png::RowFilter::Up},
        {"zlib 1, no filter", 1, png::RowFilter::None},
        {"zlib 0 (stored), no filter", 0, png::RowFilter::None},
        {"igzip (level 0), up filter", 0, png::RowFilter::Up, true},
    };
    std::printf("%zu textures, %.2f Mpixel (level 0), median of %d rounds\n", textures.size(),
                double(pixels) / 1e6, rounds);
    std::vector<texm::Image> reference;
    for (const Setting& s : settings) {
        png::EncodeOptions o;
        o.compression_level = s.level;
        o.filter = s.filter;
        o.igzip = s.igzip;
        std::vector<double> times;
        size_t bytes = 0;
        std::vector<Bytes> encoded;
        for (int r = 0; r < rounds; ++r) {
            encoded.clear();
            const auto t0 = std::chrono::steady_clock::now();
            for (const texm::Texture& t : textures)
                encoded.push_back(png::from_texm_level(t, 0, o));
            times.push_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(times.begin(), times.end());
        bool same = true;
        for (size_t i = 0; i < encoded.size(); ++i) {
            bytes += encoded[i].size();
            texm::Image img = png::decode(encoded[i]).rgba;
            if (reference.size() < encoded.size())
                reference.push_back(std::move(img));
            else
                same = same && img.rgba == reference[i].rgba;
        }
        const double s_med = times[times.size() / 2];
        std::printf("%-36s %8.1f ms %8.1f Mpixel/s %10zu bytes  pixels %s\n", s.name, s_med * 1e3,
                    double(pixels) / s_med / 1e6, bytes, same ? "identical" : "DIFFER");
        if (!same) return 1;
    }
    return 0;
}
