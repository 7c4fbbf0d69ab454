#include "raster.hpp"

#ifdef _WIN32
#include <malloc.h>
#else
#include <sys/mman.h>
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>

namespace msh::render {

namespace {

struct LinearTable {
    std::array<float, 256> to_linear{};
    std::array<uint8_t, 4096> to_srgb{};
    // to_linear in 1/65535 units (texels: exact enough for 8-bit sources, box filters in
    // integers).
    std::array<uint16_t, 256> to_linear16{};
    LinearTable() {
        for (int i = 0; i < 256; ++i) {
            const double c = i / 255.0;
            to_linear[size_t(i)] =
                float(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
        }
        for (int i = 0; i < 4096; ++i) {
            const double l = i / 4095.0;
            const double c = l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1 / 2.4) - 0.055;
            to_srgb[size_t(i)] = uint8_t(std::lround(std::clamp(c, 0.0, 1.0) * 255));
        }
        for (size_t i = 0; i < 256; ++i)
            to_linear16[i] = uint16_t(std::lround(double(to_linear[i]) * 65535.0));
    }
};
// Built on first use (commands that draw nothing do not pay for it); hot loops take the
// reference once.
const LinearTable& table() {
    static const LinearTable t;
    return t;
}

float to_linear(const LinearTable& t, uint8_t v) {
    return t.to_linear[v];
}

uint8_t to_srgb(const LinearTable& t, float v) {
    // Clamped to [0, 1] (not a number: 0) without a branch.
    return t.to_srgb[size_t(std::min(v > 0 ? v : 0.0f, 1.0f) * 4095.0f + 0.5f)];
}

// The world direction of a camera-space light.
Vec3 world_dir(const Camera& c, const Vec3& l) {
    Vec3 d{};
    for (int k = 0; k < 3; ++k)
        d[k] = float(l[0] * c.right[k] + l[1] * c.up[k] - l[2] * c.forward[k]);
    const double n = std::sqrt(dot(d, d));
    for (float& x : d) x = float(x / n);
    return d;
}

// Four lanes of floats and ints (the vector extensions of GCC and clang: SSE2 on x86-64, NEON on
// ARM, plain code elsewhere): the waiting pixels of a row are interpolated four at a time.
using F4 = float __attribute__((vector_size(16)));
using I4 = int32_t __attribute__((vector_size(16)));

F4 splat(float v) {
    return F4{} + v;
}
F4 load4(const float* p) {
    F4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class V, class T> void store4(T* p, V v) {
    static_assert(sizeof(V) == 4 * sizeof(T));
    std::memcpy(p, &v, sizeof v);
}

// u - floor(u) per lane without a library call; 0 for values too large to have a fraction and
// for infinities and NaN (whose comparisons are false).
F4 fraction4(F4 u) {
    const I4 small = (u < 8388608.0f) & (u > -8388608.0f);
    const F4 safe = small ? u : F4{}; // in int range before the conversion
    F4 whole = __builtin_convertvector(__builtin_convertvector(safe, I4), F4);
    whole -= whole > safe ? splat(1) : F4{}; // truncation rounded up a negative value
    return small ? safe - whole : F4{};
}

// Where four texture coordinates fall in a level (repeat wrapping, texel centres at half
// steps): the left/right columns, top/bottom rows and the fractions between them.
struct TexelSpots {
    I4 x0, x1, y0, y1;
    F4 ax, ay;
};
[[gnu::always_inline]] inline TexelSpots texel_spots(const Texture::Level& t, F4 u, F4 v) {
    // Into [0, 1) first, so that any coordinate (huge, or not a number from a foreign file)
    // keeps the texel arithmetic within int.
    const F4 x = fraction4(u) * float(t.width) - 0.5f, y = fraction4(v) * float(t.height) - 0.5f;
    // x, y in [-0.5, size - 0.5]: floor by truncating the value moved up by one, and the two
    // neighbours wrapped by comparison.
    const I4 ix = __builtin_convertvector(x + 1.0f, I4) - 1;
    const I4 iy = __builtin_convertvector(y + 1.0f, I4) - 1;
    const I4 zero{}, width = zero + t.width, height = zero + t.height;
    TexelSpots s;
    s.ax = x - __builtin_convertvector(ix, F4);
    s.ay = y - __builtin_convertvector(iy, F4);
    s.x0 = ix < zero ? width - 1 : ix;
    s.x1 = ix + 1 >= width ? zero : ix + 1;
    s.y0 = iy < zero ? height - 1 : iy;
    s.y1 = iy + 1 >= height ? zero : iy + 1;
    return s;
}

F4 texel4(const std::array<uint16_t, 4>& p) {
#if defined(__SSE2__)
    const __m128i bits = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p.data()));
    return F4(_mm_cvtepi32_ps(_mm_unpacklo_epi16(bits, _mm_setzero_si128())));
#else
    return F4{float(p[0]), float(p[1]), float(p[2]), float(p[3])};
#endif
}

// The bilinear weights of the four texels around texture spots (four at a time).
struct TexelWeights {
    F4 a, b, c, d; // top-left, top-right, bottom-left, bottom-right
};
TexelWeights texel_weights(F4 ax, F4 ay) {
    return {(1 - ax) * (1 - ay), ax * (1 - ay), (1 - ax) * ay, ax * ay};
}

// The bilinear filter of four texels with their weights, linear RGBA in [0, 1].
[[gnu::always_inline]] inline F4 bilinear(const Texture::Level& t, int x0, int x1, int y0, int y1,
                                          float wa, float wb, float wc, float wd) {
    const size_t row0 = size_t(y0) * size_t(t.width), row1 = size_t(y1) * size_t(t.width);
    const F4 a = texel4(t.texels[row0 + size_t(x0)]), b = texel4(t.texels[row0 + size_t(x1)]);
    const F4 c = texel4(t.texels[row1 + size_t(x0)]), d = texel4(t.texels[row1 + size_t(x1)]);
    return ((a * wa + b * wb) + (c * wc + d * wd)) * (1.0f / 65535.0f);
}

// Vertices this far off the picture (in samples) are not drawn: the pixel arithmetic stays within
// int (a framed model lies in the picture; this is a damaged one).
constexpr double kGuardBand = 1e8;

// Twice the signed area of a triangle in samples (y down: negative = counter-clockwise). One
// function for the culling test and the drawing, so that both see the same sign.
double triangle_area(double x0, double y0, double x1, double y1, double x2, double y2) {
    return (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
}

// Is a projected point usable at `s` samples per side? Not when behind the camera (framing keeps
// what is shown in front), non-finite or absurdly far (a tolerant read of a damaged model): the
// triangles of such a vertex are not drawn.
bool drawable(const Camera& camera, const Projected& p, int s) {
    const double near = 1e-6;
    const double q = camera.orthographic ? -p.z : 1.0 / p.z;
    return (camera.orthographic || p.z > near) && std::abs(p.x * s) < kGuardBand &&
           std::abs(p.y * s) < kGuardBand && std::isfinite(q);
}

struct ScreenVertex {
    double x, y;  // samples
    double q;     // closeness, affine in screen space: 1 / z (perspective) or -z
    double inv_w; // 1 / z (perspective) or 1: perspective-correct interpolation
    float u, v;
    float light; // < 0: the vertex has no normal, lit by the face's
    std::array<float, 4> colour;
    bool drawable; // in front of the camera, finite, within the guard band
};

// Is the edge a -> b a top or left edge (counter-clockwise in y-down samples)? Samples exactly on
// an edge belong to the triangle for which it is one.
bool top_left(const ScreenVertex& a, const ScreenVertex& b) {
    const double dx = b.x - a.x, dy = b.y - a.y;
    return (dy == 0 && dx < 0) || dy > 0;
}

} // namespace

float srgb_to_linear(uint8_t v) {
    return to_linear(table(), v);
}

uint8_t linear_to_srgb(float v) {
    return to_srgb(table(), v);
}

namespace {

// The level below a width x height one whose rows `row(y, slot)` gives (a row stays valid until
// the next call with the same slot: 0 or 1): the 2 x 2 box filter (rounded), fewer texels at an
// odd edge (clamped and counted once).
template <class RowAt> Texture::Level half_level(int width, int height, RowAt&& row) {
    Texture::Level down;
    down.width = std::max(1, width / 2);
    down.height = std::max(1, height / 2);
    down.texels.resize(size_t(down.width) * size_t(down.height));
    if (width % 2 == 0 && height % 2 == 0) {
        // The usual case (game textures are powers of two): four texels each.
        for (int y = 0; y < down.height; ++y) {
            const auto* row0 = row(2 * y, 0);
            const auto* row1 = row(2 * y + 1, 1);
            auto* out = &down.texels[size_t(y) * size_t(down.width)];
            for (int x = 0; x < down.width; ++x)
                for (size_t k = 0; k < 4; ++k)
                    out[x][k] = uint16_t((unsigned(row0[2 * x][k]) + row0[2 * x + 1][k] +
                                          row1[2 * x][k] + row1[2 * x + 1][k] + 2) /
                                         4);
        }
        return down;
    }
    for (int y = 0; y < down.height; ++y) {
        const int ys[2] = {2 * y, std::min(height - 1, 2 * y + 1)};
        const unsigned ny = ys[1] != ys[0] ? 2 : 1;
        const std::array<uint16_t, 4>* rows[2] = {row(ys[0], 0), row(ys[1], 1)};
        for (int x = 0; x < down.width; ++x) {
            const int xs[2] = {2 * x, std::min(width - 1, 2 * x + 1)};
            const unsigned nx = xs[1] != xs[0] ? 2 : 1;
            std::array<unsigned, 4> sum{0, 0, 0, 0};
            for (unsigned dy = 0; dy < ny; ++dy)
                for (unsigned dx = 0; dx < nx; ++dx) {
                    const auto& c = rows[dy][xs[dx]];
                    for (size_t k = 0; k < 4; ++k) sum[k] += c[k];
                }
            const unsigned n = nx * ny;
            auto& out = down.texels[size_t(y) * size_t(down.width) + size_t(x)];
            for (size_t k = 0; k < 4; ++k) out[k] = uint16_t((sum[k] + n / 2) / n);
        }
    }
    return down;
}

// Source pixels (8-bit sRGB, alpha linear) to texels in linear 16-bit units.
void linear_texels(const uint8_t* rgba, size_t count, std::array<uint16_t, 4>* out) {
    const LinearTable& t = table();
    for (size_t i = 0; i < count; ++i, rgba += 4) {
        if constexpr (std::endian::native == std::endian::little) {
            // One 8-byte store per texel: written channel by channel, GCC split the loop into
            // four passes of 2-byte stores, 5x slower.
            const uint64_t texel =
                uint64_t(t.to_linear16[rgba[0]]) | uint64_t(t.to_linear16[rgba[1]]) << 16 |
                uint64_t(t.to_linear16[rgba[2]]) << 32 | uint64_t(rgba[3] * 257u) << 48;
            std::memcpy(&out[i], &texel, sizeof texel);
        } else {
            out[i] = {t.to_linear16[rgba[0]], t.to_linear16[rgba[1]], t.to_linear16[rgba[2]],
                      uint16_t(rgba[3] * 257)};
        }
    }
}

} // namespace

Texture::Texture(std::shared_ptr<const texm::Image> srgb) {
    Level base;
    if (!srgb || srgb->rgba.empty() ||
        srgb->rgba.size() != size_t(srgb->width) * srgb->height * 4) {
        base.width = base.height = 1; // no pixels: white
        base.texels.push_back({65535, 65535, 65535, 65535});
        levels_.push_back(std::move(base));
        std::call_once(base_made_, [] {});
    } else {
        base.width = int(srgb->width);
        base.height = int(srgb->height);
        source_ = std::move(srgb);
        levels_.push_back(std::move(base)); // its texels are made by level(0)
        const int w = levels_[0].width, h = levels_[0].height;
        if (w > 1 || h > 1) {
            // The level below the base from the source, two rows converted at a time.
            std::vector<std::array<uint16_t, 4>> rows(2 * size_t(w));
            const uint8_t* rgba = source_->rgba.data();
            levels_.push_back(half_level(w, h, [&](int y, int slot) {
                std::array<uint16_t, 4>* out = rows.data() + size_t(slot) * size_t(w);
                linear_texels(rgba + 4 * size_t(y) * size_t(w), size_t(w), out);
                return out;
            }));
        }
    }
    while (levels_.back().width > 1 || levels_.back().height > 1) {
        const Level& up = levels_.back();
        Level down = half_level(up.width, up.height, [&](int y, int) {
            return &up.texels[size_t(y) * size_t(up.width)];
        });
        levels_.push_back(std::move(down));
    }
}

const Texture::Level& Texture::level(size_t k) const {
    if (k == 0)
        std::call_once(base_made_, [this] {
            Level& base = const_cast<Level&>(levels_[0]);
            base.texels.resize(size_t(base.width) * size_t(base.height));
            linear_texels(source_->rgba.data(), base.texels.size(), base.texels.data());
            source_.reset();
        });
    return levels_[k];
}

std::shared_ptr<const Texture> make_texture(std::shared_ptr<const texm::Image> srgb) {
    return std::make_shared<Texture>(std::move(srgb));
}

namespace {

// The sample buffers of the last canvas of this thread, with the size they were laid out for: a
// batch draws thousands of pictures of one size, and fresh buffers would cost their page faults
// each time.
struct SampleBuffers {
    std::vector<ColourSample, SampleAllocator<ColourSample>> colour;
    std::vector<float, SampleAllocator<float>> depth;
    int width = 0, height = 0, samples_per_side = 0; // the layout: samples pixel by pixel
};
thread_local SampleBuffers spare_buffers;

constexpr ColourSample kClear{0, 0, 0, 0};

// A colour sample's channel: [0, 1] (not a number: 0) in 1/65535 steps, and back.
uint16_t to_unit(float v) {
    return uint16_t(std::min(v > 0 ? v : 0.0f, 1.0f) * 65535.0f + 0.5f); // minss/maxss, no branch
}
float from_unit(uint16_t v) {
    return float(v) * (1.0f / 65535.0f);
}
// `colour` (straight linear RGBA) composited over the premultiplied sample `dst`.
void blend_over(ColourSample& dst, const std::array<float, 4>& colour) {
    const float a = colour[3];
    for (size_t k = 0; k < 3; ++k) dst[k] = to_unit(colour[k] * a + from_unit(dst[k]) * (1 - a));
    dst[3] = to_unit(a + from_unit(dst[3]) * (1 - a));
}

// Four lanes of four vectors swapped: v[i][j] becomes v[j][i].
void transpose4(I4 (&v)[4]) {
#if defined(__SSE2__)
    const __m128i t0 = _mm_unpacklo_epi32(__m128i(v[0]), __m128i(v[1]));
    const __m128i t1 = _mm_unpacklo_epi32(__m128i(v[2]), __m128i(v[3]));
    const __m128i t2 = _mm_unpackhi_epi32(__m128i(v[0]), __m128i(v[1]));
    const __m128i t3 = _mm_unpackhi_epi32(__m128i(v[2]), __m128i(v[3]));
    v[0] = I4(_mm_unpacklo_epi64(t0, t1));
    v[1] = I4(_mm_unpackhi_epi64(t0, t1));
    v[2] = I4(_mm_unpacklo_epi64(t2, t3));
    v[3] = I4(_mm_unpackhi_epi64(t2, t3));
#else
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) {
            const int32_t held = v[i][j];
            v[i][j] = v[j][i];
            v[j][i] = held;
        }
#endif
}

// The lanes of a comparison's result that are set, as bits 0..3.
unsigned lanes_set(I4 mask) {
#if defined(__SSE2__)
    return unsigned(_mm_movemask_ps(std::bit_cast<__m128>(mask)));
#else
    return unsigned((mask[0] & 1) | (mask[1] & 2) | (mask[2] & 4) | (mask[3] & 8));
#endif
}

// An opaque colour sample: RGB as to_unit() does, lane by lane; alpha 1.
ColourSample to_units(F4 v) {
    v = v > 0 ? v : F4{}; // not a number: 0
    v = v < 1 ? v : splat(1);
    I4 u = __builtin_convertvector(v * 65535.0f + 0.5f, I4);
    u = (u & I4{-1, -1, -1, 0}) | I4{0, 0, 0, 65535};
    ColourSample out;
#if defined(__SSE2__)
    // 0..65535 to 16 bits in one pack: SSE2 packs with signed saturation, so biased by 32768
    // and back (exact: nothing saturates).
    const __m128i biased = _mm_sub_epi32(__m128i(u), _mm_set1_epi32(32768));
    const __m128i packed =
        _mm_xor_si128(_mm_packs_epi32(biased, biased), _mm_set1_epi16(int16_t(0x8000)));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out.data()), packed);
#else
    for (size_t k = 0; k < 4; ++k) out[k] = uint16_t(u[k]);
#endif
    return out;
}

constexpr float kFar = -std::numeric_limits<float>::infinity();

} // namespace

#ifdef _WIN32
// Windows has no aligned_alloc (its aligned blocks need their own free) and no huge-page hint.
void* allocate_samples(size_t bytes) {
    void* p = _aligned_malloc(std::max<size_t>(bytes, 1), 64);
    if (!p) throw std::bad_alloc();
    return p;
}

void free_samples(void* p) {
    _aligned_free(p);
}
#else
void* allocate_samples(size_t bytes) {
    constexpr size_t kHugePage = size_t(2) << 20;
    void* p = nullptr;
    if (bytes >= kHugePage / 2) { // from 1 MB: one fault instead of 256
        const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        p = std::aligned_alloc(kHugePage, rounded);
        if (p) ::madvise(p, rounded, MADV_HUGEPAGE); // a hint: without it, 4 KB pages
    } else {
        p = std::malloc(std::max<size_t>(bytes, 1));
    }
    if (!p) throw std::bad_alloc();
    return p;
}

void free_samples(void* p) {
    std::free(p);
}
#endif

Canvas::Canvas(const Camera& camera, int samples_per_side)
    : camera_(camera), s_(std::clamp(samples_per_side, 1, 4)), w_(camera.width * s_),
      h_(camera.height * s_), spans_(size_t(std::max(camera.height, 0))) {
    SampleBuffers& spare = spare_buffers;
    colour_.swap(spare.colour);
    depth_.swap(spare.depth);
    // Not cleared here: prepare() clears the pixels a draw reaches.
    const size_t samples = size_t(w_) * size_t(h_);
    if (colour_.size() != samples) {
        colour_.clear();
        depth_.clear();
        colour_.resize(samples);
        depth_.resize(samples);
    }
    spare.width = spare.height = 0; // the buffers are this canvas's until it ends
}

Canvas::~Canvas() {
    SampleBuffers& spare = spare_buffers;
    spare.colour.swap(colour_);
    spare.depth.swap(depth_);
    spare.width = w_;
    spare.height = h_;
    spare.samples_per_side = s_;
}

size_t Canvas::sample_index(int sx, int sy) const {
    return (size_t(sy / s_) * size_t(camera_.width) + size_t(sx / s_)) * size_t(s_ * s_) +
           size_t((sy % s_) * s_ + sx % s_);
}

void Canvas::clear_pixels(int py, int px0, int px1) {
    const size_t per_pixel = size_t(s_ * s_);
    const size_t from = (size_t(py) * size_t(camera_.width) + size_t(px0)) * per_pixel;
    const size_t to = (size_t(py) * size_t(camera_.width) + size_t(px1) + 1) * per_pixel;
    // kClear is all zero bits: memset's wide stores (std::fill stored 8 bytes at a time).
    static_assert(kClear == ColourSample{0, 0, 0, 0});
    std::memset(static_cast<void*>(colour_.data() + from), 0, (to - from) * sizeof(ColourSample));
    std::fill(depth_.begin() + ptrdiff_t(from), depth_.begin() + ptrdiff_t(to), kFar);
}

void Canvas::prepare(int py, int px0, int px1) {
    Span& span = spans_[size_t(py)];
    if (span.lo <= px0 && px1 <= span.hi) return;
    if (span.lo > span.hi) {
        clear_pixels(py, px0, px1);
        span = {px0, px1};
        return;
    }
    // The span stays one run: the pixels between it and the new ones are cleared too.
    if (px0 < span.lo) clear_pixels(py, px0, span.lo - 1), span.lo = px0;
    if (px1 > span.hi) clear_pixels(py, span.hi + 1, px1), span.hi = px1;
}

size_t Canvas::covered_samples() const {
    size_t n = 0;
    const size_t per_pixel = size_t(s_ * s_);
    for (int py = 0; py < camera_.height; ++py) {
        const Span& span = spans_[size_t(py)];
        for (int px = span.lo; px <= span.hi; ++px)
            for (size_t i = 0; i < per_pixel; ++i)
                n += colour_[(size_t(py) * size_t(camera_.width) + size_t(px)) * per_pixel + i][3] >
                     0;
    }
    return n;
}

void Canvas::draw(const std::vector<Vertex>& vertices, const std::vector<uint32_t>& triangles,
                  const Surface& surface, const Lighting& lighting, std::span<const Cull> cull) {
    if (!cull.empty() && cull.size() != triangles.size() / 3) cull = {};
    switch (s_) {
    case 1:
        return draw_with<1>(vertices, triangles, surface, lighting, cull);
    case 2:
        return draw_with<2>(vertices, triangles, surface, lighting, cull);
    case 3:
        return draw_with<3>(vertices, triangles, surface, lighting, cull);
    default:
        return draw_with<4>(vertices, triangles, surface, lighting, cull);
    }
}

bool Canvas::sees_from_outside(const Vec3& lo, const Vec3& hi) const {
    if (!camera_.orthographic) {
        bool inside = true;
        for (int i = 0; i < 3; ++i)
            inside = inside && camera_.eye[i] >= lo[i] && camera_.eye[i] <= hi[i];
        if (inside) return false;
    }
    for (int corner = 0; corner < 8; ++corner) {
        const Vec3 p{(corner & 1 ? hi : lo)[0], (corner & 2 ? hi : lo)[1],
                     (corner & 4 ? hi : lo)[2]};
        if (!drawable(camera_, project(camera_, p), s_)) return false;
    }
    return true;
}

namespace {

// The stages of Canvas::draw_with, in drawing order: per draw the vertices projected and lit and
// the triangles culled and ordered; per triangle its corners, shading constants, bounding box
// and edge functions; per pixel row its span, the coverage and depth test of its samples, the
// interpolation at the covered pixels, and their shading written into the canvas.

// Per-vertex light from the key and fill lights (Lighting), on either side of a surface.
class VertexLight {
  public:
    VertexLight(const Camera& camera, const Lighting& lighting)
        : camera_(camera), lighting_(lighting), key_(world_dir(camera, lighting.key)),
          fill_(world_dir(camera, lighting.fill)) {}
    // The light at `position` on a surface of unit normal `n`.
    float operator()(const Vec3& n, const Vec3& position) const {
        return float(light(towards_eye(n, position)));
    }

  private:
    double light(const Vec3& n) const {
        return std::min(1.0, lighting_.ambient +
                                 lighting_.key_intensity * std::max(0.0, dot(n, key_)) +
                                 lighting_.fill_intensity * std::max(0.0, dot(n, fill_)));
    }
    // Two-sided: a normal is turned towards the viewer (the game's winding is not a promise of
    // facing; its normals are).
    Vec3 towards_eye(Vec3 n, const Vec3& position) const {
        Vec3 to_eye{-camera_.forward[0], -camera_.forward[1], -camera_.forward[2]};
        if (!camera_.orthographic)
            for (int i = 0; i < 3; ++i) to_eye[i] = camera_.eye[i] - position[i];
        if (dot(n, to_eye) < 0) n = {-n[0], -n[1], -n[2]};
        return n;
    }

    const Camera& camera_;
    const Lighting& lighting_;
    Vec3 key_, fill_; // world directions
};

// Each vertex projected (`s` samples per pixel side) and lit once: a vertex is shared by about
// six triangles.
std::vector<ScreenVertex> project_vertices(const std::vector<Vertex>& vertices,
                                           const Camera& camera, int s, const VertexLight& light) {
    std::vector<ScreenVertex> screen(vertices.size());
    for (size_t i = 0; i < vertices.size(); ++i) {
        const Vertex& src = vertices[i];
        ScreenVertex& sv = screen[i];
        const Projected p = project(camera, src.position);
        sv.x = p.x * s;
        sv.y = p.y * s;
        sv.inv_w = camera.orthographic ? 1.0 : 1.0 / p.z;
        sv.q = camera.orthographic ? -p.z : 1.0 / p.z;
        sv.u = src.u;
        sv.v = src.v;
        sv.colour = src.colour;
        sv.drawable = drawable(camera, p, s);
        sv.light = dot(src.normal, src.normal) > 0 ? light(src.normal, src.position) : -1.0f;
    }
    return screen;
}

// The triangles that `cull` leaves, as (distance, offset of the first index) in drawing order:
// opaque ones nearest first, so that hidden ones mostly fail the depth test before any shading;
// blended ones farthest first, as compositing needs. Ties keep the file order.
std::vector<std::pair<float, uint32_t>> draw_order(const std::vector<Vertex>& vertices,
                                                   const std::vector<uint32_t>& triangles,
                                                   const std::vector<ScreenVertex>& screen,
                                                   const Camera& camera, std::span<const Cull> cull,
                                                   bool blend) {
    std::vector<std::pair<float, uint32_t>> order;
    order.reserve(triangles.size() / 3);
    for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
        if (!cull.empty() && cull[t / 3] != Cull::None) {
            // As the drawing computes it: negative = counter-clockwise on screen (y down).
            const ScreenVertex *a = &screen[triangles[t]], *b = &screen[triangles[t + 1]],
                               *c = &screen[triangles[t + 2]];
            const double area = triangle_area(a->x, a->y, b->x, b->y, c->x, c->y);
            if (cull[t / 3] == (area < 0 ? Cull::Front : Cull::Back)) continue;
        }
        double z = 0;
        for (int k = 0; k < 3; ++k) {
            const Vec3& p = vertices[triangles[t + size_t(k)]].position;
            z += dot({p[0] - camera.eye[0], p[1] - camera.eye[1], p[2] - camera.eye[2]},
                     camera.forward);
        }
        order.emplace_back(float(blend ? -z : z), uint32_t(t));
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    return order;
}

// A covered pixel of the current row, waiting for its shading.
template <int S> struct Pending {
    size_t pixel_at;
    unsigned covered;
    float qs[S * S]; // the closeness of the covered samples
};

// What the waiting pixels of a row are shaded from, lane by lane (four at a time; `lanes` per
// array, the picture's width padded to whole groups of four): barycentric weights at each one's
// first covered sample, then the texels and the interpolated light and vertex colour.
template <int S> struct RowLanes {
    size_t lanes;
    Pending<S>* pending;
    float* bary[3];
    float* texel_weight[4];
    float* lights;
    float* tints; // 4 x lanes: vertex colour, channel by channel
    int32_t *tex_x0, *tex_x1, *tex_y0, *tex_y1;
};

// The row lanes for a picture `width` pixels wide. Kept from draw to draw on this thread and
// zeroed only when they grow (no allocation per draw): a lane past a row's last waiting pixel
// holds what this or an earlier draw wrote there.
template <int S> RowLanes<S> row_lanes(int picture_width) {
    const size_t width = size_t(std::max(picture_width, 1));
    const size_t lanes = (width + 3) / 4 * 4;
    thread_local std::vector<Pending<S>> pending_store;
    thread_local std::vector<float> lane_floats;
    thread_local std::vector<int32_t> lane_ints;
    if (pending_store.size() < width) pending_store.resize(width);
    if (lane_floats.size() < 12 * lanes) lane_floats.resize(12 * lanes);
    if (lane_ints.size() < 4 * lanes) lane_ints.resize(4 * lanes);
    RowLanes<S> r;
    r.lanes = lanes;
    r.pending = pending_store.data();
    for (size_t k = 0; k < 3; ++k) r.bary[k] = lane_floats.data() + k * lanes;
    for (size_t k = 0; k < 4; ++k) r.texel_weight[k] = r.bary[2] + (k + 1) * lanes;
    r.lights = r.texel_weight[3] + lanes;
    r.tints = r.lights + lanes;
    r.tex_x0 = lane_ints.data();
    r.tex_x1 = r.tex_x0 + lanes;
    r.tex_y0 = r.tex_x1 + lanes;
    r.tex_y1 = r.tex_y0 + lanes;
    return r;
}

// A triangle on screen, ready to draw.
struct Corners {
    ScreenVertex v[3]; // every one lit; ordered so that `area` is positive
    double area;       // twice the area, in samples
};

// The unit normal (world) of the triangle p0 p1 p2; zero when it has no area.
Vec3 face_normal(const Vec3& p0, const Vec3& p1, const Vec3& p2) {
    const Vec3 e1{p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
    const Vec3 e2{p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]};
    Vec3 face{e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
              e1[0] * e2[1] - e1[1] * e2[0]};
    const double fl = std::sqrt(dot(face, face));
    if (fl > 0)
        for (float& c : face) c = float(c / fl);
    return face;
}

// The corners of the triangle of indices index[0..2], or nothing when it is not drawn (a vertex
// not drawable, or no area on screen). Vertices without a normal are lit by the face's.
std::optional<Corners> triangle_corners(const std::vector<ScreenVertex>& screen,
                                        const std::vector<Vertex>& vertices, const uint32_t* index,
                                        const VertexLight& light) {
    Corners c;
    ScreenVertex(&sv)[3] = c.v;
    for (int k = 0; k < 3; ++k) sv[k] = screen[index[k]];
    if (!sv[0].drawable || !sv[1].drawable || !sv[2].drawable) return std::nullopt;
    c.area = triangle_area(sv[0].x, sv[0].y, sv[1].x, sv[1].y, sv[2].x, sv[2].y);
    if (!(std::abs(c.area) > 0)) return std::nullopt;
    if (sv[0].light < 0 || sv[1].light < 0 || sv[2].light < 0) {
        const Vec3 face = face_normal(vertices[index[0]].position, vertices[index[1]].position,
                                      vertices[index[2]].position);
        for (int k = 0; k < 3; ++k)
            if (sv[k].light < 0) sv[k].light = light(face, vertices[index[k]].position);
    }
    if (c.area < 0) std::swap(sv[1], sv[2]), c.area = -c.area;
    return c;
}

// The mip level of `tex` whose texels are about the size of the triangle's pixels (`s` samples
// per side).
const Texture::Level& mip_level(const Texture& tex, const Corners& c, int s) {
    const ScreenVertex(&sv)[3] = c.v;
    const double uv_area = std::abs(double(sv[1].u - sv[0].u) * (sv[2].v - sv[0].v) -
                                    double(sv[2].u - sv[0].u) * (sv[1].v - sv[0].v)) *
                           double(tex.width()) * double(tex.height());
    const double pixel_area = c.area / (s * s);
    double lod = uv_area > 0 ? 0.5 * std::log2(uv_area / pixel_area) : 0;
    if (!std::isfinite(lod)) lod = 0;
    const int k = std::clamp(int(std::floor(lod + 0.5)), 0, int(tex.level_count()) - 1);
    return tex.level(size_t(k));
}

// What the pixels of one triangle are shaded from besides its corners.
struct TriangleShading {
    const Texture::Level* level; // null: untextured
    bool white;                  // every vertex colour is 1: no tint
    float iw[3];                 // the corners' 1 / w
    double inv_area;             // 1 / Corners::area
};

TriangleShading triangle_shading(const Corners& c, const Texture* tex, int s) {
    const ScreenVertex(&sv)[3] = c.v;
    const std::array<float, 4> one{1, 1, 1, 1};
    TriangleShading t;
    t.white = sv[0].colour == one && sv[1].colour == one && sv[2].colour == one;
    for (int k = 0; k < 3; ++k) t.iw[k] = float(sv[k].inv_w);
    t.inv_area = 1.0 / c.area;
    t.level = tex ? &mip_level(*tex, c, s) : nullptr;
    return t;
}

// Samples [x0, x1] x [y0, y1] of the canvas: a triangle's bounding box.
struct SampleBox {
    int x0, x1, y0, y1;
    bool empty() const { return x0 > x1 || y0 > y1; }
};

// The bounding box of the corners within a canvas of w x h samples.
SampleBox sample_box(const Corners& c, int w, int h) {
    const ScreenVertex(&sv)[3] = c.v;
    return {std::max(0, int(std::floor(std::min({sv[0].x, sv[1].x, sv[2].x})))),
            std::min(w - 1, int(std::ceil(std::max({sv[0].x, sv[1].x, sv[2].x})))),
            std::max(0, int(std::floor(std::min({sv[0].y, sv[1].y, sv[2].y})))),
            std::min(h - 1, int(std::ceil(std::max({sv[0].y, sv[1].y, sv[2].y}))))};
}

// Edge k (opposite vertex k): w_k = a[k] * X + b[k] * Y + c[k] at sample (X, Y).
struct Edges {
    double a[3], b[3], c[3];
    bool top_left[3];
};

// Each edge is set up from its endpoints in one canonical order (negated for the other
// direction) and evaluated the same way at the same points, so the two triangles sharing an edge
// get exactly opposite values there and the fill rule gives every sample on it to exactly one of
// them: no cracks, no double blending.
Edges edge_functions(const Corners& c) {
    Edges e;
    for (int k = 0; k < 3; ++k) {
        const ScreenVertex* a = &c.v[(k + 1) % 3];
        const ScreenVertex* b = &c.v[(k + 2) % 3];
        e.top_left[k] = top_left(*a, *b);
        const bool flip = b->x < a->x || (b->x == a->x && b->y < a->y);
        if (flip) std::swap(a, b);
        e.a[k] = -(b->y - a->y);
        e.b[k] = b->x - a->x;
        e.c[k] = -e.a[k] * a->x - e.b[k] * a->y;
        if (flip) e.a[k] = -e.a[k], e.b[k] = -e.b[k], e.c[k] = -e.c[k];
    }
    return e;
}

// w_k at a pixel's sample i = w_k at its first sample + edge[k][i] (both computed the same way
// by every triangle: the exact opposition of Edges holds); likewise the closeness, q[i].
template <int S> struct SampleOffsets {
    double edge[3][S * S], q[S * S];
    double max[3], min[3]; // of edge[k]
};

template <int S>
SampleOffsets<S> sample_offsets(const Edges& e, const Corners& c, double inv_area) {
    SampleOffsets<S> o;
    for (int k = 0; k < 3; ++k) {
        o.max[k] = -std::numeric_limits<double>::infinity();
        o.min[k] = std::numeric_limits<double>::infinity();
        for (int i = 0; i < S * S; ++i) {
            o.edge[k][i] = e.a[k] * (i % S) + e.b[k] * (i / S);
            o.max[k] = std::max(o.max[k], o.edge[k][i]);
            o.min[k] = std::min(o.min[k], o.edge[k][i]);
        }
    }
    for (int i = 0; i < S * S; ++i)
        o.q[i] = (o.edge[0][i] * c.v[0].q + o.edge[1][i] * c.v[1].q + o.edge[2][i] * c.v[2].q) *
                 inv_area;
    return o;
}

// 2 x 2 samples (the default): the four samples of a pixel are the lanes of one float vector per
// edge, and the closeness a plane in the samples' coordinates.
struct QuadLanes {
    F4 ea[3], q_offset;
    I4 threshold[3];
    double q_dx = 0, q_dy = 0, q_at_0 = 0;
};

QuadLanes quad_lanes(const Edges& e, const SampleOffsets<2>& o, const Corners& c, double inv_area) {
    QuadLanes l;
    for (int k = 0; k < 3; ++k) {
        l.ea[k] = splat(float(e.a[k]));
        // Inside: w > 0, or w >= 0 on a top or left edge. Compared as the bits of w read as int32
        // (the order of finite floats, +0 = 0 where two triangles meet exactly): > 0 or > -1; no
        // float compare, so a process in denormals-are-zero mode (a -ffast-math program using
        // this library) gets the same answer.
        l.threshold[k] = I4{} - int32_t(e.top_left[k]);
    }
    for (int i = 0; i < 4; ++i) l.q_offset[i] = float(o.q[i]);
    for (int k = 0; k < 3; ++k) {
        l.q_dx += e.a[k] * c.v[k].q;
        l.q_dy += e.b[k] * c.v[k].q;
        l.q_at_0 += e.c[k] * c.v[k].q;
    }
    l.q_dx *= inv_area, l.q_dy *= inv_area, l.q_at_0 *= inv_area;
    return l;
}

// Where each (not horizontal) edge crosses a sample row Y: X = slope[k] * Y + at_0[k].
struct EdgeRoots {
    double slope[3] = {0, 0, 0}, at_0[3] = {0, 0, 0};
};

EdgeRoots edge_roots(const Edges& e) {
    EdgeRoots r;
    for (int k = 0; k < 3; ++k)
        if (e.a[k] != 0) r.slope[k] = -e.b[k] / e.a[k], r.at_0[k] = -e.c[k] / e.a[k];
    return r;
}

// Which samples of the canvas a triangle covers, and how near it is at each.
template <int S> struct Coverage {
    SampleBox box;
    Edges edges;
    SampleOffsets<S> offsets;
    QuadLanes quad; // S == 2 only
    EdgeRoots roots;
};

template <int S>
Coverage<S> triangle_coverage(const Corners& c, const SampleBox& box, double inv_area) {
    Coverage<S> cov;
    cov.box = box;
    cov.edges = edge_functions(c);
    cov.offsets = sample_offsets<S>(cov.edges, c, inv_area);
    if constexpr (S == 2) cov.quad = quad_lanes(cov.edges, cov.offsets, c, inv_area);
    cov.roots = edge_roots(cov.edges);
    return cov;
}

// Pixels [lo, hi] of a row (empty when lo > hi).
struct PixelRun {
    int lo, hi;
};

// The pixels of row `py` that the triangle may cover: per sample row, the samples between the
// edges (widened by a sample on each side; the exact test decides), joined over the pixel's
// sample rows.
template <int S> [[gnu::always_inline]] inline PixelRun row_pixels(const Coverage<S>& cov, int py) {
    const Edges& e = cov.edges;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int sy = 0; sy < S; ++sy) {
        const double Y = py * S + sy + 0.5;
        double row_lo = cov.box.x0, row_hi = cov.box.x1 + 1;
        for (int k = 0; k < 3; ++k) {
            if (e.a[k] == 0) {
                if (e.b[k] * Y + e.c[k] < 0) row_lo = 1, row_hi = 0; // the row is outside
                continue;
            }
            const double root = cov.roots.slope[k] * Y + cov.roots.at_0[k];
            if (e.a[k] > 0)
                row_lo = std::max(row_lo, root - 1);
            else
                row_hi = std::min(row_hi, root + 1);
        }
        if (row_lo > row_hi) continue;
        lo = std::min(lo, row_lo);
        hi = std::max(hi, row_hi);
    }
    if (lo > hi) return {1, 0};
    return {std::max(cov.box.x0 / S, int(std::floor(lo)) / S),
            std::min(cov.box.x1 / S, int(std::floor(hi)) / S)};
}

// Coverage and depth test of row `py`'s pixels `run` (2 x 2 samples, four lanes at a time): the
// pixels with a sample inside the triangle and nearer than `depth` are queued in `lanes` with
// their barycentric weights; returns how many.
[[gnu::always_inline]] inline size_t cover_row_quad(const Coverage<2>& cov, double inv_area, int py,
                                                    PixelRun run, size_t row_at, const float* depth,
                                                    const RowLanes<2>& lanes) {
    constexpr int s = 2;
    const Edges& e = cov.edges;
    const QuadLanes& quad = cov.quad;
    const double Y = py * s + 0.5;
    size_t waiting = 0;
    // In float: every triangle evaluates an edge from the same (negated) coefficients at the same
    // points, so the fill rule stays exact. Lanes: the pixel's samples (x + 0, 1, 0, 1;
    // y + 0, 0, 1, 1).
    auto edge_at = [&](int k, int i) { return float(e.b[k] * (Y + i / 2) + e.c[k]); };
    F4 lane_row[3];
    for (int k = 0; k < 3; ++k)
        lane_row[k] = F4{edge_at(k, 0), edge_at(k, 1), edge_at(k, 2), edge_at(k, 3)};
    const double q_row = quad.q_dy * Y + quad.q_at_0;
    const float inv_area_f = float(inv_area);
    F4 xs = F4{0, 1, 0, 1} + float(run.lo * s + 0.5); // exact: small halves
    for (int px = run.lo; px <= run.hi; ++px, xs += 2.0f) {
        F4 w[3];
        I4 inside = I4{} - 1;
        for (int k = 0; k < 3; ++k) {
            w[k] = quad.ea[k] * xs + lane_row[k];
            inside &= std::bit_cast<I4>(w[k]) > quad.threshold[k];
        }
        if (!lanes_set(inside)) continue;
        const size_t pixel_at = row_at + size_t(px) * 4;
        const F4 q = float(quad.q_dx * (px * s + 0.5) + q_row) + quad.q_offset;
        const unsigned covered = lanes_set(inside & (q > load4(&depth[pixel_at])));
        if (!covered) continue;
        const int first = __builtin_ctz(covered);
        Pending<2>& p = lanes.pending[waiting];
        store4(p.qs, q);
        p.pixel_at = pixel_at;
        p.covered = covered;
        for (int k = 0; k < 3; ++k) lanes.bary[k][waiting] = w[k][first] * inv_area_f;
        ++waiting;
    }
    return waiting;
}

// cover_row_quad() for S x S samples, sample by sample in double.
template <int S>
[[gnu::always_inline]] inline size_t
cover_row_samples(const Coverage<S>& cov, const Corners& c, double inv_area, int py, PixelRun run,
                  size_t row_at, const float* depth, const RowLanes<S>& lanes) {
    constexpr int s = S;
    const Edges& e = cov.edges;
    const SampleOffsets<S>& o = cov.offsets;
    const bool(&tl)[3] = e.top_left;
    const double Y = py * s + 0.5;
    double row[3];
    for (int k = 0; k < 3; ++k) row[k] = e.b[k] * Y + e.c[k];
    size_t waiting = 0;
    for (int px = run.lo; px <= run.hi; ++px) {
        const double X = px * s + 0.5;
        double base[3];
        for (int k = 0; k < 3; ++k) base[k] = e.a[k] * X + row[k];
        // No sample of the pixel can be inside an edge that even its largest offset leaves
        // negative.
        if (base[0] + o.max[0] < 0 || base[1] + o.max[1] < 0 || base[2] + o.max[2] < 0) continue;
        const double q_base =
            (base[0] * c.v[0].q + base[1] * c.v[1].q + base[2] * c.v[2].q) * inv_area;
        const size_t pixel_at = row_at + size_t(px) * size_t(s * s);
        // Inside the triangle by the smallest offset too: every sample is (no tests).
        const bool all_inside =
            base[0] + o.min[0] > 0 && base[1] + o.min[1] > 0 && base[2] + o.min[2] > 0;
        unsigned covered = 0;
        float* qs = lanes.pending[waiting].qs;
        for (int i = 0; i < s * s; ++i) {
            if (!all_inside) {
                const double wi[3] = {base[0] + o.edge[0][i], base[1] + o.edge[1][i],
                                      base[2] + o.edge[2][i]};
                // w > 0, or w == 0 on a top or left edge (without branches).
                const bool inside = ((wi[0] > 0) | ((wi[0] == 0) & tl[0])) &
                                    ((wi[1] > 0) | ((wi[1] == 0) & tl[1])) &
                                    ((wi[2] > 0) | ((wi[2] == 0) & tl[2]));
                if (!inside) continue;
            }
            const float q = float(q_base + o.q[i]);
            if (!(q > depth[pixel_at + size_t(i)])) continue;
            covered |= 1u << i;
            qs[i] = q;
        }
        if (!covered) continue;
        const int first = __builtin_ctz(covered);
        Pending<S>& p = lanes.pending[waiting];
        p.pixel_at = pixel_at;
        p.covered = covered;
        for (int k = 0; k < 3; ++k)
            lanes.bary[k][waiting] = float((base[k] + o.edge[k][first]) * inv_area);
        ++waiting;
    }
    return waiting;
}

// Perspective-correct interpolation at the `waiting` pixels queued in `lanes`, four at a time
// (the lanes past the last one compute what nobody reads): texel spots and weights when
// textured, the light when lit, the vertex colour unless white.
template <int S>
[[gnu::always_inline]] inline void interpolate_row(const Corners& c, const TriangleShading& t,
                                                   bool lit, size_t waiting,
                                                   const RowLanes<S>& lanes) {
    const ScreenVertex(&sv)[3] = c.v;
    for (size_t j = 0; j < waiting; j += 4) {
        const F4 t0 = load4(lanes.bary[0] + j) * t.iw[0], t1 = load4(lanes.bary[1] + j) * t.iw[1],
                 t2 = load4(lanes.bary[2] + j) * t.iw[2];
        const F4 w = 1.0f / (t0 + t1 + t2);
        const F4 c0 = t0 * w, c1 = t1 * w, c2 = t2 * w;
        auto mix = [&](float a, float b, float d) { return c0 * a + c1 * b + c2 * d; };
        if (t.level) {
            const TexelSpots at = texel_spots(*t.level, mix(sv[0].u, sv[1].u, sv[2].u),
                                              mix(sv[0].v, sv[1].v, sv[2].v));
            store4(lanes.tex_x0 + j, at.x0);
            store4(lanes.tex_x1 + j, at.x1);
            store4(lanes.tex_y0 + j, at.y0);
            store4(lanes.tex_y1 + j, at.y1);
            const TexelWeights tw = texel_weights(at.ax, at.ay);
            store4(lanes.texel_weight[0] + j, tw.a);
            store4(lanes.texel_weight[1] + j, tw.b);
            store4(lanes.texel_weight[2] + j, tw.c);
            store4(lanes.texel_weight[3] + j, tw.d);
        }
        if (lit) store4(lanes.lights + j, mix(sv[0].light, sv[1].light, sv[2].light));
        if (!t.white)
            for (size_t k = 0; k < 4; ++k)
                store4(lanes.tints + k * lanes.lanes + j,
                       mix(sv[0].colour[k], sv[1].colour[k], sv[2].colour[k]));
    }
}

// What every pixel of a draw is shaded with (Surface, the factor in lanes).
struct SurfaceShading {
    F4 factor;
    AlphaMode alpha;
    float cutoff;
    bool lit;
};

// The `waiting` pixels queued in `lanes` shaded (texel, tint, alpha test, light) and written into
// the samples `colour` and `depth` of the canvas: blended over what is there (no depth), or
// opaque with their closeness.
template <int S>
[[gnu::always_inline]] inline void
shade_row(const SurfaceShading& surface, const TriangleShading& t, size_t waiting,
          const RowLanes<S>& lanes, ColourSample* colour_out, float* depth) {
    constexpr int s = S;
    const size_t n = lanes.lanes;
    const float* const tints = lanes.tints;
    const float* const lights = lanes.lights;
    for (size_t j = 0; j < waiting; ++j) {
        const Pending<S>& p = lanes.pending[j];
        const size_t pixel_at = p.pixel_at;
        const unsigned covered = p.covered;
        const float* qs = p.qs;
        F4 colour = surface.factor;
        if (t.level)
            colour *= bilinear(*t.level, lanes.tex_x0[j], lanes.tex_x1[j], lanes.tex_y0[j],
                               lanes.tex_y1[j], lanes.texel_weight[0][j], lanes.texel_weight[1][j],
                               lanes.texel_weight[2][j], lanes.texel_weight[3][j]);
        if (!t.white) colour *= F4{tints[j], tints[n + j], tints[2 * n + j], tints[3 * n + j]};
        if (surface.alpha == AlphaMode::Mask) {
            if (colour[3] < surface.cutoff) continue;
            colour[3] = 1;
        } else if (surface.alpha == AlphaMode::Opaque) {
            colour[3] = 1;
        }
        if (surface.lit) colour *= F4{lights[j], lights[j], lights[j], 1};
        if (surface.alpha == AlphaMode::Blend) {
            for (int i = 0; i < s * s; ++i)
                if (covered & (1u << i))
                    blend_over(colour_out[pixel_at + size_t(i)],
                               {colour[0], colour[1], colour[2], colour[3]});
            continue;
        }
        const ColourSample opaque = to_units(colour);
        if (covered == (1u << (s * s)) - 1) { // the usual case: every sample
            std::fill_n(&colour_out[pixel_at], s * s, opaque);
            std::copy_n(qs, s * s, &depth[pixel_at]);
            continue;
        }
        for (int i = 0; i < s * s; ++i) {
            if (!(covered & (1u << i))) continue;
            colour_out[pixel_at + size_t(i)] = opaque;
            depth[pixel_at + size_t(i)] = qs[i];
        }
    }
}

} // namespace

template <int S>
void Canvas::draw_with(const std::vector<Vertex>& vertices, const std::vector<uint32_t>& triangles,
                       const Surface& surface, const Lighting& lighting,
                       std::span<const Cull> cull) {
    for (const uint32_t idx : triangles)
        if (idx >= vertices.size()) return;
    const VertexLight light(camera_, lighting);
    const std::vector<ScreenVertex> screen = project_vertices(vertices, camera_, S, light);
    const bool blend = surface.alpha == AlphaMode::Blend;
    const std::vector<std::pair<float, uint32_t>> order =
        draw_order(vertices, triangles, screen, camera_, cull, blend);
    const RowLanes<S> lanes = row_lanes<S>(camera_.width);
    const SurfaceShading shading{
        {surface.factor[0], surface.factor[1], surface.factor[2], surface.factor[3]},
        surface.alpha,
        surface.cutoff,
        surface.lit};
    for (const auto& [distance, t] : order) {
        const std::optional<Corners> corners =
            triangle_corners(screen, vertices, &triangles[t], light);
        if (!corners) continue;
        const TriangleShading look = triangle_shading(*corners, surface.texture.get(), S);
        const SampleBox box = sample_box(*corners, w_, h_);
        if (box.empty()) continue;
        const Coverage<S> coverage = triangle_coverage<S>(*corners, box, look.inv_area);
        // Coverage and depth per sample, the colour once per pixel (at its first covered sample),
        // as multisampling does: S x S samples per pixel at the cost of about one shade. A row is
        // shaded once its coverage is known: the coverage tests branch unpredictably at a
        // triangle's edges, and the shading's long chain of dependent arithmetic (division,
        // texture fetch) overlaps from pixel to pixel when its loop holds nothing else. Each
        // pixel is covered once per triangle and row, so the later writes change no test in
        // between.
        for (int py = box.y0 / S; py <= box.y1 / S; ++py) {
            const PixelRun run = row_pixels(coverage, py);
            if (run.lo > run.hi) continue;
            prepare(py, run.lo, run.hi);
            const size_t row_at = size_t(py) * size_t(camera_.width) * size_t(S * S);
            size_t waiting;
            if constexpr (S == 2)
                waiting =
                    cover_row_quad(coverage, look.inv_area, py, run, row_at, depth_.data(), lanes);
            else
                waiting = cover_row_samples(coverage, *corners, look.inv_area, py, run, row_at,
                                            depth_.data(), lanes);
            interpolate_row(*corners, look, shading.lit, waiting, lanes);
            shade_row(shading, look, waiting, lanes, colour_.data(), depth_.data());
        }
    }
}

void Canvas::draw_lines(const std::vector<Vec3>& points, const std::vector<uint32_t>& segments,
                        const std::array<float, 4>& colour, double width) {
    // Each segment is stamped as squares of `width` pixels every half sample along it; a sample
    // is blended once per segment at most.
    const double half = width * s_ / 2;
    std::vector<uint32_t> stamped(colour_.size(), 0);
    uint32_t mark = 0;
    for (size_t i = 0; i + 1 < segments.size(); i += 2) {
        if (segments[i] >= points.size() || segments[i + 1] >= points.size()) return;
        const Projected a = project(camera_, points[segments[i]]);
        const Projected b = project(camera_, points[segments[i + 1]]);
        if (!camera_.orthographic && (a.z <= 0 || b.z <= 0)) continue;
        const double ax = a.x * s_, ay = a.y * s_, bx = b.x * s_, by = b.y * s_;
        if (!(std::abs(ax) < 1e6 && std::abs(ay) < 1e6 && std::abs(bx) < 1e6 && std::abs(by) < 1e6))
            continue; // off the picture by far, or not a number
        const double len = std::hypot(bx - ax, by - ay);
        const int steps = std::max(1, int(std::ceil(len * 2)));
        ++mark;
        for (int k = 0; k <= steps; ++k) {
            const double t = double(k) / steps;
            const double x = ax + (bx - ax) * t, y = ay + (by - ay) * t;
            const int xa = std::max(0, int(std::floor(x - half + 0.5)));
            const int xb = std::min(w_ - 1, int(std::floor(x + half - 0.5)));
            const int ya = std::max(0, int(std::floor(y - half + 0.5)));
            const int yb = std::min(h_ - 1, int(std::floor(y + half - 0.5)));
            if (xa > xb) continue;
            for (int py = ya / s_; py <= yb / s_; ++py) prepare(py, xa / s_, xb / s_);
            for (int sy = ya; sy <= yb; ++sy)
                for (int sx = xa; sx <= xb; ++sx) {
                    const size_t at = sample_index(sx, sy);
                    if (stamped[at] == mark) continue;
                    stamped[at] = mark;
                    blend_over(colour_[at], colour);
                }
        }
    }
}

texm::Image Canvas::resolve(const std::optional<std::array<uint8_t, 3>>& background) const {
    switch (s_) {
    case 1:
        return resolve_with<1>(background);
    case 2:
        return resolve_with<2>(background);
    case 3:
        return resolve_with<3>(background);
    default:
        return resolve_with<4>(background);
    }
}

texm::Image Canvas::resolve_and_clear(const std::optional<std::array<uint8_t, 3>>& background) {
    texm::Image out = resolve(background);
    std::fill(spans_.begin(), spans_.end(), Span{}); // nothing prepared: every sample is blank
    return out;
}

template <int S>
texm::Image Canvas::resolve_with(const std::optional<std::array<uint8_t, 3>>& background) const {
    texm::Image out(uint32_t(camera_.width), uint32_t(camera_.height));
    constexpr float n = float(S * S);
    std::array<float, 3> bg{0, 0, 0};
    if (background) {
        for (int k = 0; k < 3; ++k) bg[size_t(k)] = srgb_to_linear((*background)[size_t(k)]);
        for (uint32_t y = 0; y < out.height; ++y)
            for (uint32_t x = 0; x < out.width; ++x) {
                uint8_t* p = out.at(x, y);
                std::copy_n(background->begin(), 3, p);
                p[3] = 255;
            }
    }
    const F4 bg4{bg[0], bg[1], bg[2], 0};
    const LinearTable& t = table();
    // A pixel's samples added channel by channel (RGB and alpha: at most 16 x 65535, well within
    // int32).
    auto sums_at = [&](size_t row_at, int x) {
        const ColourSample* samples = &colour_[(row_at + size_t(x)) * size_t(S * S)];
        I4 sum_units{};
#if defined(__SSE2__)
        if constexpr (S == 2) {
            // The four samples (32 bytes) widened to 32 bits and added channel by channel.
            const __m128i zero = _mm_setzero_si128();
            const __m128i s01 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(samples));
            const __m128i s23 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(samples + 2));
            return std::bit_cast<I4>(_mm_add_epi32(
                _mm_add_epi32(_mm_unpacklo_epi16(s01, zero), _mm_unpackhi_epi16(s01, zero)),
                _mm_add_epi32(_mm_unpacklo_epi16(s23, zero), _mm_unpackhi_epi16(s23, zero))));
        }
#endif
        for (int i = 0; i < S * S; ++i)
            sum_units += I4{samples[i][0], samples[i][1], samples[i][2], samples[i][3]};
        return sum_units;
    };
    // Pixels outside the prepared spans keep the background (transparent: all zero).
    for (int y = 0; y < camera_.height; ++y) {
        const Span span = spans_[size_t(y)];
        if (span.lo > span.hi) continue;
        uint8_t* const row = out.at(0, uint32_t(y));
        const size_t row_at = size_t(y) * size_t(camera_.width);
        // Four pixels at a time, channel by channel in the lanes (exact: the sums are below
        // 2^24). A row's last group repeats its last pixel in the lanes past the span, which
        // are not written.
        for (int x = span.lo; x <= span.hi; x += 4) {
            const int last = span.hi - x; // lanes 0..last are this row's pixels
            // channel[k]: channel k of the four pixels
            I4 channel[4];
            for (int j = 0; j < 4; ++j) channel[j] = sums_at(row_at, x + std::min(j, last));
            transpose4(channel);
            const I4 alpha_units = channel[3];
            if (!lanes_set(alpha_units != 0)) continue; // nothing drawn here: the background
            const F4 alpha = __builtin_convertvector(alpha_units, F4);
            const F4 a = alpha * (1.0f / 65535.0f) / n;
            const F4 inverse = 1.0f / alpha; // infinite where nothing is drawn: not written
            I4 index[3];
            for (size_t k = 0; k < 3; ++k) {
                const F4 sums = __builtin_convertvector(channel[k], F4);
                F4 linear =
                    background ? sums * (1.0f / 65535.0f) / n + bg4[k] * (1 - a) : sums * inverse;
                linear = linear > 0 ? linear : F4{};
                linear = linear < 1 ? linear : splat(1);
                index[k] = __builtin_convertvector(linear * 4095.0f + 0.5f, I4);
            }
            F4 clamped = a > 0 ? a : F4{};
            clamped = clamped < 1 ? clamped : splat(1);
            const I4 alpha_byte = __builtin_convertvector(clamped * 255 + 0.5f, I4);
            for (int j = 0; j <= std::min(3, last); ++j) {
                if (alpha_units[j] == 0) continue;
                uint8_t* q = row + 4 * size_t(x + j);
                for (size_t k = 0; k < 3; ++k) q[k] = t.to_srgb[size_t(index[k][j])];
                q[3] = background ? 255 : uint8_t(alpha_byte[j]);
            }
        }
    }
    return out;
}

} // namespace msh::render
