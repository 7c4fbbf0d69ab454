// The preview rasterizer (render/raster): canvases that reuse a thread's sample buffers start
// blank whatever was drawn before and whatever their layout (also after resolve_and_clear, and
// where a row's prepared pixels grow on either side), shared edges are watertight (every sample
// blended exactly once, also in a jittered mesh), texture coordinates wrap without leaving the
// texture, and a texture's mip levels (the base made on demand) are the box filters of its source.
#include "render/raster.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace render_tests {

using namespace msh;
using namespace msh::render;

namespace {

// An orthographic camera looking down -Z at the square [-1, 1]² filling `size` pixels.
Camera square_camera(int size) {
    Camera c;
    c.eye = {0, 0, 10};
    c.orthographic = true;
    c.focal = size / 2.0;
    c.cx = c.cy = size / 2.0;
    c.width = c.height = size;
    return c;
}

Vertex at(float x, float y, float u = 0, float v = 0) {
    Vertex v_;
    v_.position = {x, y, 0};
    v_.normal = {0, 0, 1};
    v_.u = u;
    v_.v = v;
    return v_;
}

// The square [-half, half]² at height z, facing +Z; quad_triangles() splits it in two.
std::vector<Vertex> quad(float z, float half) {
    std::vector<Vertex> q = {at(-half, -half), at(half, -half), at(half, half), at(-half, half)};
    for (Vertex& v : q) v.position[2] = z;
    return q;
}
std::vector<uint32_t> quad_triangles() {
    return {0, 1, 2, 0, 2, 3};
}

// `triangles` of `vertices` drawn unlit in a half transparent colour on a fresh `size` pixel
// canvas: a sample blended twice comes out darker than alpha 0.5, one missed lighter.
texm::Image draw_half_transparent(const std::vector<Vertex>& vertices,
                                  const std::vector<uint32_t>& triangles, int size, int samples) {
    Canvas canvas(square_camera(size), samples);
    Surface surface;
    surface.factor = {1, 0, 0, 0.5f};
    surface.alpha = AlphaMode::Blend;
    surface.lit = false;
    canvas.draw(vertices, triangles, surface);
    return canvas.resolve(std::nullopt);
}

size_t drawn_pixels(const texm::Image& img) {
    size_t n = 0;
    for (size_t i = 3; i < img.rgba.size(); i += 4) n += img.rgba[i] != 0;
    return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(render_raster)

BOOST_AUTO_TEST_CASE(reused_sample_buffers_start_blank) {
    const std::vector<Vertex> quad = {at(-0.9f, -0.9f), at(0.9f, -0.9f), at(0.9f, 0.9f),
                                      at(-0.9f, 0.9f)};
    const std::vector<uint32_t> triangles = {0, 1, 2, 0, 2, 3};
    {
        Canvas canvas(square_camera(64), 2);
        canvas.draw(quad, triangles, {});
        BOOST_TEST(drawn_pixels(canvas.resolve(std::nullopt)) > 3000u);
    }
    // The same sample grid (128 x 128) in another layout, then the first layout again: both blank.
    {
        Canvas canvas(square_camera(128), 1);
        BOOST_TEST(drawn_pixels(canvas.resolve(std::nullopt)) == 0u);
        BOOST_TEST(canvas.covered_samples() == 0u);
    }
    {
        Canvas canvas(square_camera(64), 2);
        BOOST_TEST(drawn_pixels(canvas.resolve(std::nullopt)) == 0u);
        BOOST_TEST(canvas.covered_samples() == 0u);
    }
}

BOOST_AUTO_TEST_CASE(resolving_and_clearing_leaves_the_next_canvas_blank_and_far) {
    // A near opaque quad and a half-transparent one over it, resolved and cleared; the next canvas
    // of the thread (same layout: no clearing pass of its own) must be blank, and a far quad drawn
    // there must pass the depth test everywhere (the near quad's depth is gone too).
    const std::vector<uint32_t> triangles = quad_triangles();
    Surface glass;
    glass.alpha = AlphaMode::Blend;
    glass.factor = {1, 1, 1, 0.5f};
    size_t near_pixels = 0;
    {
        Canvas canvas(square_camera(64), 2);
        canvas.draw(quad(5, 0.5f), triangles, {});
        canvas.draw(quad(6, 0.9f), triangles, glass);
        near_pixels = drawn_pixels(canvas.resolve_and_clear(std::nullopt));
        BOOST_TEST(near_pixels > 2500u);
        BOOST_TEST(canvas.covered_samples() == 0u);
    }
    {
        Canvas canvas(square_camera(64), 2);
        BOOST_TEST(canvas.covered_samples() == 0u);
        BOOST_TEST(drawn_pixels(canvas.resolve(std::nullopt)) == 0u);
        canvas.draw(quad(-5, 0.5f), triangles, {}); // farther than the cleared near quad
        const texm::Image img = canvas.resolve_and_clear(std::nullopt);
        const size_t far_pixels = drawn_pixels(img);
        BOOST_TEST(far_pixels > 900u);
        BOOST_TEST(far_pixels < near_pixels);
        BOOST_TEST(unsigned(img.pixel(32, 32)[3]) == 255u); // opaque: no glass left over it
    }
}

BOOST_AUTO_TEST_CASE(rows_are_cleared_as_draws_reach_them_on_either_side) {
    // The last canvas of the thread covered everything, near and red. The next one (same layout,
    // nothing cleared up front) draws a small green quad, then a wider blue one behind it: each
    // row's prepared pixels grow on both sides, and what they grow over must be blank and far.
    const std::vector<uint32_t> triangles = quad_triangles();
    auto flat = [](float r, float g, float b) {
        Surface s;
        s.lit = false;
        s.factor = {r, g, b, 1};
        return s;
    };
    {
        Canvas canvas(square_camera(64), 2);
        canvas.draw(quad(5, 1.5f), triangles, flat(1, 0, 0));
        BOOST_TEST(drawn_pixels(canvas.resolve(std::nullopt)) == 64u * 64u);
    }
    Canvas canvas(square_camera(64), 2);
    canvas.draw(quad(0, 0.25f), triangles, flat(0, 1, 0));
    canvas.draw(quad(-5, 0.75f), triangles, flat(0, 0, 1));
    const texm::Image img = canvas.resolve(std::nullopt);
    auto colour = [&](uint32_t x, uint32_t y) { return img.pixel(x, y); };
    BOOST_TEST((colour(32, 32) == std::array<uint8_t, 4>{0, 255, 0, 255}));
    for (const uint32_t x : {10u, 53u}) // left and right of the green quad, same rows
        BOOST_TEST((colour(x, 32) == std::array<uint8_t, 4>{0, 0, 255, 255}), "x " << x);
    BOOST_TEST((colour(32, 10) == std::array<uint8_t, 4>{0, 0, 255, 255}));
    BOOST_TEST(unsigned(colour(2, 2)[3]) == 0u);   // outside both: nothing left of the red
    BOOST_TEST(unsigned(colour(2, 32)[3]) == 0u);  // a prepared row, left of every draw
    BOOST_TEST(unsigned(colour(61, 32)[3]) == 0u); // and right of it
    BOOST_TEST(canvas.covered_samples() == size_t(48 * 2) * size_t(48 * 2));
}

BOOST_AUTO_TEST_CASE(shared_edges_are_blended_exactly_once) {
    // Quads split along a diagonal, half transparent: a sample covered twice would be darker than
    // alpha 0.5, a sample missed lighter. The first diagonal runs through sample centres (the fill
    // rule decides them), the second one between them at odd angles.
    const std::vector<std::vector<Vertex>> quads = {
        {at(-0.9f, -0.9f), at(0.9f, -0.9f), at(0.9f, 0.9f), at(-0.9f, 0.9f)},
        {at(-0.83f, -0.71f), at(0.77f, -0.9f), at(0.91f, 0.87f), at(-0.79f, 0.73f)}};
    const std::vector<uint32_t> triangles = {0, 1, 2, 0, 2, 3};
    for (const auto& quad : quads)
        for (int samples = 1; samples <= 4; ++samples) {
            const texm::Image img = draw_half_transparent(quad, triangles, 97, samples);
            // Pixels two or more from the outline: every pixel within 2 of them is drawn.
            auto interior = [&](int x, int y) {
                for (int dy = -2; dy <= 2; ++dy)
                    for (int dx = -2; dx <= 2; ++dx) {
                        const int xx = x + dx, yy = y + dy;
                        if (xx < 0 || yy < 0 || xx >= int(img.width) || yy >= int(img.height) ||
                            img.at(uint32_t(xx), uint32_t(yy))[3] == 0)
                            return false;
                    }
                return true;
            };
            size_t inner = 0, wrong = 0;
            for (uint32_t y = 0; y < img.height; ++y)
                for (uint32_t x = 0; x < img.width; ++x) {
                    if (!interior(int(x), int(y))) continue;
                    ++inner;
                    wrong += img.at(x, y)[3] != 128;
                }
            BOOST_TEST(inner > 5000u, "samples " << samples);
            BOOST_TEST(wrong == 0u,
                       "samples " << samples << ": " << wrong << " pixels not alpha 0.5");
        }
}

BOOST_AUTO_TEST_CASE(a_jittered_mesh_is_watertight) {
    // A 9 x 7 grid of vertices moved by a fixed pseudo-random amount (every other one exactly onto
    // a sample centre), each cell split along alternating diagonals: many edges at odd angles
    // meet at every interior vertex. Half transparent, every sample inside the outline must be
    // blended exactly once.
    const int nx = 9, ny = 7;
    std::vector<Vertex> grid;
    uint32_t seed = 12345;
    auto jitter = [&seed] { // in [-0.35, 0.35] of a cell
        seed = seed * 1664525u + 1013904223u;
        return (float(seed >> 8) / float(1u << 24) - 0.5f) * 0.7f;
    };
    const int size = 101; // pixels; the square [-1, 1]² fills them
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const bool border = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
            float gx = float(x) / float(nx - 1), gy = float(y) / float(ny - 1);
            if (!border) gx += jitter() / float(nx - 1), gy += jitter() / float(ny - 1);
            float px = -0.9f + 1.8f * gx, py = -0.9f + 1.8f * gy;
            if ((x + y) % 2 == 0 && !border) { // onto a 2 x 2 sample centre (in pixel units)
                const float step = 2.0f / float(size) / 2.0f;
                px = (std::round((px + 1) / step - 0.5f) + 0.5f) * step - 1;
                py = (std::round((py + 1) / step - 0.5f) + 0.5f) * step - 1;
            }
            grid.push_back(at(px, py));
        }
    std::vector<uint32_t> triangles;
    for (uint32_t y = 0; y + 1 < uint32_t(ny); ++y)
        for (uint32_t x = 0; x + 1 < uint32_t(nx); ++x) {
            const uint32_t a = y * nx + x, b = a + 1, c = a + nx, d = c + 1;
            if ((x + y) % 2)
                triangles.insert(triangles.end(), {a, b, d, a, d, c});
            else
                triangles.insert(triangles.end(), {a, b, c, b, d, c});
        }
    for (int samples = 1; samples <= 4; ++samples) {
        const texm::Image img = draw_half_transparent(grid, triangles, size, samples);
        // The outline is the square [-0.9, 0.9]²: pixels 2 or more inside it are whole.
        const double lo = (1 - 0.9) * size / 2 + 2, hi = (1 + 0.9) * size / 2 - 2;
        size_t inner = 0, wrong = 0;
        for (uint32_t y = 0; y < img.height; ++y)
            for (uint32_t x = 0; x < img.width; ++x) {
                if (x < lo || x + 1 > hi || y < lo || y + 1 > hi) continue;
                ++inner;
                wrong += img.at(x, y)[3] != 128;
            }
        BOOST_TEST(inner > 7000u, "samples " << samples);
        BOOST_TEST(wrong == 0u, "samples " << samples << ": " << wrong << " pixels not alpha 0.5");
    }
}

BOOST_AUTO_TEST_CASE(texture_coordinates_wrap_and_stay_in_the_texture) {
    // A 2 x 1 texture, red then blue: u = 0.25 + k is red for every whole k, u = 0.75 + k blue;
    // huge and non-finite coordinates draw without reading outside it.
    auto image = std::make_shared<texm::Image>(2, 1);
    image->rgba = {255, 0, 0, 255, 0, 0, 255, 255};
    const auto texture = make_texture(image);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const float u : {0.25f, 3.25f, -2.75f, 0.75f, -0.25f, 1e30f, -1e30f, nan}) {
        const std::vector<Vertex> quad = {at(-1, -1, u, 0.5f), at(1, -1, u, 0.5f),
                                          at(1, 1, u, 0.5f), at(-1, 1, u, 0.5f)};
        Canvas canvas(square_camera(8), 2);
        Surface surface;
        surface.texture = texture;
        surface.lit = false;
        canvas.draw(quad, {0, 1, 2, 0, 2, 3}, surface);
        const texm::Image picture = canvas.resolve(std::nullopt);
        const uint8_t* p = picture.at(4, 4);
        const float frac = std::isfinite(u) && std::abs(u) < 1e7f ? u - std::floor(u) : 0.0f;
        if (frac == 0.25f) BOOST_TEST((p[0] == 255 && p[2] == 0), "u " << u);
        if (frac == 0.75f) BOOST_TEST((p[0] == 0 && p[2] == 255), "u " << u);
        BOOST_TEST(p[3] == 255, "u " << u);
    }
}

BOOST_AUTO_TEST_CASE(mip_levels_are_box_filters_of_a_base_made_on_demand) {
    // Even and odd sizes, one row, one column, one texel. The base level is made when first
    // asked for (here by four threads at once) and the level below it straight from the source:
    // both must hold what converting the source and filtering level by level gives.
    for (const auto& [w, h] : std::vector<std::pair<uint32_t, uint32_t>>{
             {8, 4}, {7, 5}, {6, 3}, {1, 9}, {9, 1}, {1, 1}, {16, 16}}) {
        auto image = std::make_shared<texm::Image>(w, h);
        for (size_t i = 0; i < image->rgba.size(); ++i) image->rgba[i] = uint8_t(i * 37 + 11);
        const auto texture = make_texture(image);
        std::array<const Texture::Level*, 4> seen{};
        {
            std::vector<std::thread> threads;
            for (size_t k = 0; k < seen.size(); ++k)
                threads.emplace_back([&, k] { seen[k] = &texture->level(0); });
            for (std::thread& t : threads) t.join();
        }
        using Texel = std::array<uint16_t, 4>;
        std::vector<Texel> expected(size_t(w) * h);
        for (size_t i = 0; i < expected.size(); ++i)
            for (size_t k = 0; k < 4; ++k) {
                const uint8_t v = image->rgba[4 * i + k];
                expected[i][k] = k < 3 ? uint16_t(std::lround(double(srgb_to_linear(v)) * 65535.0))
                                       : uint16_t(v * 257);
            }
        int lw = int(w), lh = int(h);
        for (size_t level = 0; level < texture->level_count(); ++level) {
            const Texture::Level& got = level == 0 ? *seen[0] : texture->level(level);
            BOOST_TEST_REQUIRE((got.width == lw && got.height == lh),
                               w << "x" << h << " level " << level);
            BOOST_TEST_REQUIRE(got.texels.size() == expected.size());
            size_t wrong = 0;
            for (size_t i = 0; i < expected.size(); ++i) wrong += got.texels[i] != expected[i];
            BOOST_TEST(wrong == 0u, w << "x" << h << " level " << level << ": " << wrong);
            if (level == 0)
                for (const Texture::Level* other : seen) BOOST_TEST(other == seen[0]);
            // The next level: 2 x 2 texels averaged (rounded), 1 or 2 at an odd edge.
            const int nw = std::max(1, lw / 2), nh = std::max(1, lh / 2);
            std::vector<Texel> next(size_t(nw) * size_t(nh));
            for (int y = 0; y < nh; ++y)
                for (int x = 0; x < nw; ++x) {
                    unsigned sum[4] = {0, 0, 0, 0}, n = 0;
                    for (int dy = 0; dy < 2; ++dy)
                        for (int dx = 0; dx < 2; ++dx) {
                            const int sx = 2 * x + dx, sy = 2 * y + dy;
                            if (sx >= lw || sy >= lh) continue;
                            ++n;
                            for (size_t k = 0; k < 4; ++k)
                                sum[k] += expected[size_t(sy) * size_t(lw) + size_t(sx)][k];
                        }
                    for (size_t k = 0; k < 4; ++k)
                        next[size_t(y) * size_t(nw) + size_t(x)][k] =
                            uint16_t((sum[k] + n / 2) / n);
                }
            if (lw == 1 && lh == 1) {
                BOOST_TEST(level + 1 == texture->level_count(), w << "x" << h);
                break;
            }
            expected = std::move(next);
            lw = nw, lh = nh;
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace render_tests
