// Land.msh (terrain) and Land.map (areal map): the tolerant and strict readers; and every areal
// map the tolerant reader decodes, draped over a fixed hilly ground (convex parts, clipping,
// outlines: polygons of any shape, NaN or huge corners must neither crash nor hang it), on one
// thread and on three, which must give the same bits.
#include "harness.hpp"

#include "formats/arealmap.hpp"
#include "formats/terrain.hpp"
#include "mapping/drape.hpp"

#include <cmath>
#include <cstring>
#include <vector>

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

template <class T> bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool same_meshes(const msh::scene::Scene& a, const msh::scene::Scene& b) {
    if (a.meshes.size() != b.meshes.size() || a.materials.size() != b.materials.size())
        return false;
    for (size_t m = 0; m < a.meshes.size(); ++m) {
        const auto &pa = a.meshes[m].primitives, &pb = b.meshes[m].primitives;
        if (pa.size() != pb.size()) return false;
        for (size_t k = 0; k < pa.size(); ++k)
            if (pa[k].material != pb[k].material || pa[k].mode != pb[k].mode ||
                !same_bits(pa[k].indices, pb[k].indices) ||
                !same_bits(pa[k].attributes.at("POSITION").data,
                           pb[k].attributes.at("POSITION").data))
                return false;
    }
    return true;
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
        scene::Scene one, three;
        mapping::add_draped_overlay(one, ground(), map);
        mapping::DrapeOptions options;
        options.threads = 3;
        mapping::add_draped_overlay(three, ground(), map, options);
        // The runs of areals joined in order: the same bits as one thread (NaN corners too).
        if (!same_meshes(one, three)) __builtin_trap();
    });
    return 0;
}
