// Land.msh (terrain) and Land.map (areal map): the tolerant and strict readers; and every areal
// map the tolerant reader decodes, draped over a fixed hilly ground (convex parts, clipping,
// outlines: polygons of any shape, NaN or huge corners must neither crash nor hang it).
#include "harness.hpp"

#include "formats/arealmap.hpp"
#include "formats/terrain.hpp"
#include "mapping/drape.hpp"

#include <cmath>

namespace {

// A 16 x 16 grid of quads, two triangles each, over 0..2,400 (a shipped map's extent).
const msh::terrain::Terrain& ground() {
    static const msh::terrain::Terrain t = [] {
        msh::terrain::Terrain g;
        constexpr int kCells = 16;
        constexpr float kStep = 150.0f;
        for (int y = 0; y <= kCells; ++y)
            for (int x = 0; x <= kCells; ++x)
                g.positions.push_back({float(x) * kStep, float(y) * kStep,
                                       40.0f * std::sin(float(x) * 0.7f) * std::cos(float(y))});
        for (int y = 0; y < kCells; ++y)
            for (int x = 0; x < kCells; ++x) {
                const auto at = [](int i, int j) { return uint16_t(j * (kCells + 1) + i); };
                msh::terrain::Face a, b;
                a.v = {at(x, y), at(x + 1, y), at(x + 1, y + 1)};
                b.v = {at(x, y), at(x + 1, y + 1), at(x, y + 1)};
                g.faces.push_back(a);
                g.faces.push_back(b);
            }
        return g;
    }();
    return t;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    const ByteView bytes = fuzz::view(data, size);
    for (ReadMode mode : {ReadMode::Tolerant, ReadMode::Strict}) {
        fuzz::expect_format_errors([&] { terrain::read(bytes, mode, "fuzz"); });
        fuzz::expect_format_errors([&] { arealmap::read(bytes, mode, "fuzz"); });
    }
    fuzz::expect_format_errors([&] {
        const arealmap::ArealMap map = arealmap::read(bytes, ReadMode::Tolerant, "fuzz");
        scene::Scene sc;
        mapping::add_draped_overlay(sc, ground(), map);
    });
    return 0;
}
