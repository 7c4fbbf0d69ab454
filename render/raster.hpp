// A compact software rasterizer for previews: triangles with a depth buffer, perspective-correct
// texture coordinates, bilinear texturing in linear light, per-vertex lighting from a fixed key
// and fill light (two-sided), alpha test and alpha blending, and 4 samples per pixel (2 x 2
// supersampling) resolved to 8-bit sRGB. Single-threaded and free of any global state: the same
// input gives the same pixels on every run.
#pragma once

#include "camera.hpp"

#include "formats/texm.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace msh::render {

// Sample buffers (and texture levels) in transparent huge pages where the kernel offers them
// (madvise): one page fault per 2 MB instead of one per 4 KB, which was a third of a thumbnail's
// time.
void* allocate_samples(size_t bytes);
void free_samples(void* p);
template <class T> struct SampleAllocator {
    using value_type = T;
    SampleAllocator() = default;
    template <class U> SampleAllocator(const SampleAllocator<U>&) {}
    T* allocate(size_t n) { return static_cast<T*>(allocate_samples(n * sizeof(T))); }
    void deallocate(T* p, size_t) { free_samples(p); }
    template <class U> bool operator==(const SampleAllocator<U>&) const { return true; }
    // Sized without being filled: samples are cleared when a draw first reaches them, texels are
    // written when a texture is made.
    template <class U> void construct(U* p) noexcept { ::new (static_cast<void*>(p)) U; }
    template <class U, class... A> void construct(U* p, A&&... a) {
        ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
    }
};

// A texture with its mip chain: per texel linear RGB and alpha in 16-bit units (1 = 65535:
// exact enough for 8-bit sources, half the memory of floats), converted from sRGB once; each mip
// level is the 2 x 2 box filter of the level above, down to 1 x 1. Sampled with repeat wrapping,
// texture coordinate (0, 0) at the top-left corner (glTF). Each triangle picks the level whose
// texels match its pixels: no shimmering patterns on minified textures.
class Texture {
  public:
    struct Level {
        int width = 0, height = 0;
        // linear RGBA, rows top first (sized without being filled: every texel is written)
        std::vector<std::array<uint16_t, 4>, SampleAllocator<std::array<uint16_t, 4>>> texels;
    };
    explicit Texture(std::shared_ptr<const texm::Image> srgb);
    size_t level_count() const { return levels_.size(); }
    int width() const { return levels_.front().width; }
    int height() const { return levels_.front().height; }
    // Level k (0: the base). The base level's texels are made when it is first asked for (safe
    // from several threads): a thumbnail seldom magnifies a texture, and the base holds three
    // quarters of the chain. The levels below it are made at once, the first straight from the
    // source with the same arithmetic.
    const Level& level(size_t k) const;

  private:
    std::vector<Level> levels_;
    mutable std::shared_ptr<const texm::Image> source_; // until the base level is made
    mutable std::once_flag base_made_;
};
std::shared_ptr<const Texture> make_texture(std::shared_ptr<const texm::Image> srgb);

float srgb_to_linear(uint8_t v);
uint8_t linear_to_srgb(float v);

enum class AlphaMode { Opaque, Mask, Blend };

struct Surface {
    std::shared_ptr<const Texture> texture;  // null: the factor alone
    std::array<float, 4> factor{1, 1, 1, 1}; // linear RGBA multiplier
    AlphaMode alpha = AlphaMode::Opaque;
    float cutoff = 0.5f;
    bool lit = true; // false: the colour as is (overlays)
};

struct Vertex {
    Vec3 position; // world, glTF axes
    Vec3 normal;   // world, unit (zero: the face normal)
    float u = 0, v = 0;
    std::array<float, 4> colour{1, 1, 1, 1}; // linear RGBA multiplier (glTF COLOR_0)
};

// Lights in camera space (x right, y up, z towards the viewer), linear intensities.
struct Lighting {
    Vec3 key{-0.45f, 0.6f, 0.66f};
    float key_intensity = 0.75f;
    Vec3 fill{0.6f, -0.25f, 0.76f};
    float fill_intensity = 0.3f;
    float ambient = 0.22f;
};

using ColourSample = std::array<uint16_t, 4>;

// Which side of a triangle a draw may skip. Front = counter-clockwise as the camera sees it
// (glTF's front face).
enum class Cull : uint8_t { None, Back, Front };

class Canvas {
  public:
    // `camera` in final-image pixels; the canvas works at `samples_per_side`² samples per pixel.
    Canvas(const Camera& camera, int samples_per_side = 2);
    ~Canvas();
    Canvas(const Canvas&) = delete;
    Canvas& operator=(const Canvas&) = delete;

    // Draws a triangle list, both sides of each triangle unless `cull` (one per triangle, or
    // empty) says which side is never seen (render/shells.hpp). Opaque and Mask surfaces write
    // depth; Blend surfaces are composited over what is drawn (draw them last) and do not write
    // depth.
    void draw(const std::vector<Vertex>& vertices, const std::vector<uint32_t>& triangles,
              const Surface& surface, const Lighting& lighting = {},
              std::span<const Cull> cull = {});

    // Does the camera see the box [lo, hi] (world) wholly from outside: the eye outside it (or
    // orthographic), and every point of it drawable (in front of the camera, in range)?
    bool sees_from_outside(const Vec3& lo, const Vec3& hi) const;

    // Screen-space lines `width` pixels wide between the projected points, blended over what is
    // drawn (no depth test): outlines that must stay visible.
    void draw_lines(const std::vector<Vec3>& points, const std::vector<uint32_t>& segments,
                    const std::array<float, 4>& colour, double width);

    // Box filter of the samples; RGBA8 straight alpha (transparent background) or composited
    // over `background` (sRGB), alpha 255.
    texm::Image resolve(const std::optional<std::array<uint8_t, 3>>& background) const;
    // resolve(), then the canvas is blank again.
    texm::Image resolve_and_clear(const std::optional<std::array<uint8_t, 3>>& background);

    // Fraction of samples drawn (for messages about empty views).
    size_t covered_samples() const;

  private:
    // The pixels of each row whose samples hold data, [lo, hi] (empty when lo > hi): a canvas
    // starts with no row prepared, and a row's samples are cleared as a draw first reaches them
    // (a fresh canvas costs nothing to clear, and samples no triangle reaches are never
    // touched); the rest of the picture is background. Clearing the canvas empties the spans.
    struct Span {
        int lo = 1, hi = 0;
    };
    // Makes pixels [px0, px1] of row py ready for drawing (clearing what was not yet).
    void prepare(int py, int px0, int px1);
    void clear_pixels(int py, int px0, int px1);
    // Samples are stored pixel by pixel (a pixel's samples side by side, row by row within it):
    // drawing and resolving a pixel touch one run of memory.
    size_t sample_index(int sx, int sy) const;
    // draw() with S x S samples per pixel known to the compiler.
    template <int S>
    texm::Image resolve_with(const std::optional<std::array<uint8_t, 3>>& background) const;
    template <int S>
    void draw_with(const std::vector<Vertex>& vertices, const std::vector<uint32_t>& triangles,
                   const Surface& surface, const Lighting& lighting, std::span<const Cull> cull);

    Camera camera_;
    int s_;
    int w_, h_; // sample grid
    // premultiplied linear RGBA in 16-bit units (1 = 65535: finer than any 8-bit sRGB step, half
    // the memory of floats); closeness (larger is nearer)
    std::vector<ColourSample, SampleAllocator<ColourSample>> colour_;
    std::vector<float, SampleAllocator<float>> depth_;
    std::vector<Span> spans_; // per pixel row
};

} // namespace msh::render
