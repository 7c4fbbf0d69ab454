#include "raster.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>

namespace msh::render {

namespace {

struct LinearTable {
    std::array<float, 256> to_linear{};
    std::array<uint8_t, 4096> to_srgb{};
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
    }
};
const LinearTable& table() {
    static const LinearTable t;
    return t;
}

double dot(const Vec3& a, const Vec3& b) {
    return double(a[0]) * b[0] + double(a[1]) * b[1] + double(a[2]) * b[2];
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

std::array<float, 4> sample(const Texture::Level& t, float u, float v) {
    // Repeat: into [0, 1) first, so that any coordinate (huge, or not a number from a foreign
    // file) keeps the texel arithmetic within int.
    u = std::isfinite(u) ? u - std::floor(u) : 0;
    v = std::isfinite(v) ? v - std::floor(v) : 0;
    const float x = u * float(t.width) - 0.5f, y = v * float(t.height) - 0.5f;
    const float fx = std::floor(x), fy = std::floor(y);
    const float ax = x - fx, ay = y - fy;
    // Game textures are powers of two: a mask; anything else: a modulo.
    auto wrap = [](long i, int n) {
        return (n & (n - 1)) == 0 ? int(i & long(n - 1)) : int(((i % n) + n) % n);
    };
    const long ix = long(fx), iy = long(fy);
    const int x0 = wrap(ix, t.width), x1 = wrap(ix + 1, t.width);
    const int y0 = wrap(iy, t.height), y1 = wrap(iy + 1, t.height);
    const auto& a = t.texels[size_t(y0) * size_t(t.width) + size_t(x0)];
    const auto& b = t.texels[size_t(y0) * size_t(t.width) + size_t(x1)];
    const auto& c = t.texels[size_t(y1) * size_t(t.width) + size_t(x0)];
    const auto& d = t.texels[size_t(y1) * size_t(t.width) + size_t(x1)];
    std::array<float, 4> out{};
    for (int k = 0; k < 4; ++k)
        out[size_t(k)] = (a[size_t(k)] * (1 - ax) + b[size_t(k)] * ax) * (1 - ay) +
                         (c[size_t(k)] * (1 - ax) + d[size_t(k)] * ax) * ay;
    return out;
}

struct ScreenVertex {
    double x, y;  // samples
    double q;     // closeness, affine in screen space: 1 / z (perspective) or -z
    double inv_w; // 1 / z (perspective) or 1: perspective-correct interpolation
    float u, v;
    float light;
    std::array<float, 4> colour;
};

// Is an edge a top or left edge (counter-clockwise in y-down samples)? Shared edges of adjacent
// triangles then cover each sample exactly once.
bool top_left(const ScreenVertex& a, const ScreenVertex& b) {
    const double dx = b.x - a.x, dy = b.y - a.y;
    return (dy == 0 && dx < 0) || dy > 0;
}

} // namespace

float srgb_to_linear(uint8_t v) {
    return table().to_linear[v];
}

uint8_t linear_to_srgb(float v) {
    const float c = std::clamp(v, 0.0f, 1.0f);
    return table().to_srgb[size_t(c * 4095.0f + 0.5f)];
}

std::shared_ptr<const Texture> make_texture(const texm::Image& img) {
    auto t = std::make_shared<Texture>();
    Texture::Level base;
    base.width = int(img.width);
    base.height = int(img.height);
    base.texels.resize(size_t(img.width) * img.height);
    for (size_t i = 0; i < base.texels.size(); ++i) {
        const uint8_t* p = img.rgba.data() + 4 * i;
        base.texels[i] = {srgb_to_linear(p[0]), srgb_to_linear(p[1]), srgb_to_linear(p[2]),
                          p[3] / 255.0f};
    }
    if (base.texels.empty()) base.width = base.height = 1, base.texels.push_back({1, 1, 1, 1});
    t->levels.push_back(std::move(base));
    while (t->levels.back().width > 1 || t->levels.back().height > 1) {
        const Texture::Level& up = t->levels.back();
        Texture::Level down;
        down.width = std::max(1, up.width / 2);
        down.height = std::max(1, up.height / 2);
        down.texels.resize(size_t(down.width) * size_t(down.height));
        for (int y = 0; y < down.height; ++y)
            for (int x = 0; x < down.width; ++x) {
                std::array<float, 4> sum{0, 0, 0, 0};
                int n = 0;
                for (int dy = 0; dy < 2; ++dy)
                    for (int dx = 0; dx < 2; ++dx) {
                        const int sx = std::min(up.width - 1, 2 * x + dx);
                        const int sy = std::min(up.height - 1, 2 * y + dy);
                        const auto& c = up.texels[size_t(sy) * size_t(up.width) + size_t(sx)];
                        for (int k = 0; k < 4; ++k) sum[size_t(k)] += c[size_t(k)];
                        ++n;
                    }
                for (float& c : sum) c /= float(n);
                down.texels[size_t(y) * size_t(down.width) + size_t(x)] = sum;
            }
        t->levels.push_back(std::move(down));
    }
    return t;
}

namespace {

// The sample buffers of the last canvas of this thread: a batch draws thousands of pictures of
// one size, and fresh buffers would cost their page faults each time.
struct SampleBuffers {
    std::vector<std::array<float, 4>, SampleAllocator<std::array<float, 4>>> colour;
    std::vector<float, SampleAllocator<float>> depth;
};
thread_local SampleBuffers spare_buffers;

} // namespace

void* allocate_samples(size_t bytes) {
    constexpr size_t kHugePage = size_t(2) << 20;
    void* p = nullptr;
    if (bytes >= kHugePage) {
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

Canvas::Canvas(const Camera& camera, int samples_per_side)
    : camera_(camera), s_(std::max(1, samples_per_side)), w_(camera.width * s_),
      h_(camera.height * s_) {
    colour_.swap(spare_buffers.colour);
    depth_.swap(spare_buffers.depth);
    colour_.assign(size_t(w_) * size_t(h_), {0, 0, 0, 0});
    depth_.assign(size_t(w_) * size_t(h_), -std::numeric_limits<float>::infinity());
}

Canvas::~Canvas() {
    spare_buffers.colour.swap(colour_);
    spare_buffers.depth.swap(depth_);
}

size_t Canvas::covered_samples() const {
    size_t n = 0;
    for (const auto& c : colour_) n += c[3] > 0;
    return n;
}

void Canvas::draw(const std::vector<Vertex>& vertices, const std::vector<uint32_t>& triangles,
                  const Surface& surface, const Lighting& lighting) {
    const Vec3 key = world_dir(camera_, lighting.key), fill = world_dir(camera_, lighting.fill);
    auto light = [&](const Vec3& n) {
        return std::min(1.0, lighting.ambient +
                                 lighting.key_intensity * std::max(0.0, dot(n, key)) +
                                 lighting.fill_intensity * std::max(0.0, dot(n, fill)));
    };
    const double near = 1e-6;
    const bool blend = surface.alpha == AlphaMode::Blend;
    const Texture* tex = surface.texture.get();
    // Opaque triangles nearest first, so that hidden ones mostly fail the depth test before any
    // shading; blended ones farthest first, as compositing needs. Ties keep the file order.
    std::vector<std::pair<float, uint32_t>> order;
    order.reserve(triangles.size() / 3);
    for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
        double z = 0;
        for (int k = 0; k < 3; ++k) {
            const uint32_t idx = triangles[t + size_t(k)];
            if (idx >= vertices.size()) return;
            const Vec3& p = vertices[idx].position;
            z += dot({p[0] - camera_.eye[0], p[1] - camera_.eye[1], p[2] - camera_.eye[2]},
                     camera_.forward);
        }
        order.emplace_back(float(blend ? -z : z), uint32_t(t));
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [distance, t] : order) {
        ScreenVertex sv[3];
        const Vertex* src[3];
        bool behind = false;
        for (int k = 0; k < 3; ++k) {
            src[k] = &vertices[triangles[t + size_t(k)]];
            const Projected p = project(camera_, src[k]->position);
            if (!camera_.orthographic && p.z <= near) behind = true;
            sv[k].x = p.x * s_;
            sv[k].y = p.y * s_;
            sv[k].inv_w = camera_.orthographic ? 1.0 : 1.0 / p.z;
            sv[k].q = camera_.orthographic ? -p.z : 1.0 / p.z;
            sv[k].u = src[k]->u;
            sv[k].v = src[k]->v;
            sv[k].colour = src[k]->colour;
        }
        if (behind) continue; // framing keeps what is shown in front; anything else is skipped
        // Non-finite or absurdly far positions (a tolerant read of a damaged model) are not drawn:
        // pixel arithmetic stays within int.
        bool wild = false;
        for (const ScreenVertex& v : sv)
            wild = wild || !(std::abs(v.x) < 1e8) || !(std::abs(v.y) < 1e8) || !std::isfinite(v.q);
        if (wild) continue;
        double area =
            (sv[1].x - sv[0].x) * (sv[2].y - sv[0].y) - (sv[2].x - sv[0].x) * (sv[1].y - sv[0].y);
        if (!(std::abs(area) > 0)) continue;
        // Face normal (world) for vertices without one, and the facing for two-sided lighting.
        const Vec3& p0 = src[0]->position;
        const Vec3 e1{src[1]->position[0] - p0[0], src[1]->position[1] - p0[1],
                      src[1]->position[2] - p0[2]};
        const Vec3 e2{src[2]->position[0] - p0[0], src[2]->position[1] - p0[1],
                      src[2]->position[2] - p0[2]};
        Vec3 face{e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                  e1[0] * e2[1] - e1[1] * e2[0]};
        const double fl = std::sqrt(dot(face, face));
        if (fl > 0)
            for (float& c : face) c = float(c / fl);
        // Two-sided: each normal is turned towards the viewer (the game's winding is not a
        // promise of facing; its normals are).
        for (int k = 0; k < 3; ++k) {
            Vec3 n = dot(src[k]->normal, src[k]->normal) > 0 ? src[k]->normal : face;
            Vec3 to_eye{-camera_.forward[0], -camera_.forward[1], -camera_.forward[2]};
            if (!camera_.orthographic)
                for (int i = 0; i < 3; ++i) to_eye[i] = camera_.eye[i] - src[k]->position[i];
            if (dot(n, to_eye) < 0) n = {-n[0], -n[1], -n[2]};
            sv[k].light = float(light(n));
        }
        if (area < 0) std::swap(sv[1], sv[2]), area = -area;
        const std::array<float, 4> one{1, 1, 1, 1};
        const bool white = sv[0].colour == one && sv[1].colour == one && sv[2].colour == one;
        const double inv_area = 1.0 / area;
        // The mip level whose texels are about the size of this triangle's pixels.
        const Texture::Level* level = nullptr;
        if (tex) {
            const Texture::Level& base = tex->levels.front();
            const double uv_area = std::abs(double(sv[1].u - sv[0].u) * (sv[2].v - sv[0].v) -
                                            double(sv[2].u - sv[0].u) * (sv[1].v - sv[0].v)) *
                                   double(base.width) * double(base.height);
            const double pixel_area = area / (s_ * s_);
            double lod = uv_area > 0 ? 0.5 * std::log2(uv_area / pixel_area) : 0;
            if (!std::isfinite(lod)) lod = 0;
            const int k = std::clamp(int(std::floor(lod + 0.5)), 0, int(tex->levels.size()) - 1);
            level = &tex->levels[size_t(k)];
        }
        const int x0 = std::max(0, int(std::floor(std::min({sv[0].x, sv[1].x, sv[2].x}))));
        const int x1 = std::min(w_ - 1, int(std::ceil(std::max({sv[0].x, sv[1].x, sv[2].x}))));
        const int y0 = std::max(0, int(std::floor(std::min({sv[0].y, sv[1].y, sv[2].y}))));
        const int y1 = std::min(h_ - 1, int(std::ceil(std::max({sv[0].y, sv[1].y, sv[2].y}))));
        if (x0 > x1 || y0 > y1) continue;
        const bool tl[3] = {top_left(sv[1], sv[2]), top_left(sv[2], sv[0]), top_left(sv[0], sv[1])};
        // Edge k (opposite vertex k): w_k = ea[k] * x + eb[k] * y + ec[k] at a sample position.
        // Each edge is evaluated from its endpoints in one canonical order (negated for the other
        // direction), so the two triangles sharing an edge get exactly opposite values there and
        // the fill rule gives every sample on it to exactly one of them: no cracks.
        double ea[3], eb[3], ec[3];
        for (int k = 0; k < 3; ++k) {
            const ScreenVertex* a = &sv[(k + 1) % 3];
            const ScreenVertex* b = &sv[(k + 2) % 3];
            const bool flip = b->x < a->x || (b->x == a->x && b->y < a->y);
            if (flip) std::swap(a, b);
            ea[k] = -(b->y - a->y);
            eb[k] = b->x - a->x;
            ec[k] = -ea[k] * a->x - eb[k] * a->y;
            if (flip) ea[k] = -ea[k], eb[k] = -eb[k], ec[k] = -ec[k];
        }
        // Coverage and depth per sample, the colour once per pixel (at its first covered sample),
        // as multisampling does: 4 samples per pixel at the cost of about one shade.
        for (int py = y0 / s_; py <= y1 / s_; ++py) {
            // The row's span from the edges (a sample beyond it on either side fails an edge),
            // widened by a sample; the exact test below decides.
            double lo = x0, hi = x1 + 1;
            bool empty = false;
            for (int k = 0; k < 3; ++k) {
                double row_lo = std::numeric_limits<double>::infinity(), row_hi = -row_lo;
                for (int sy = 0; sy < s_; ++sy) {
                    const double Y = py * s_ + sy + 0.5;
                    if (ea[k] == 0) {
                        if (eb[k] * Y + ec[k] >= 0) row_lo = -1e300, row_hi = 1e300;
                        continue;
                    }
                    const double root = -(eb[k] * Y + ec[k]) / ea[k];
                    if (ea[k] > 0)
                        row_lo = std::min(row_lo, root), row_hi = 1e300;
                    else
                        row_lo = -1e300, row_hi = std::max(row_hi, root);
                }
                if (row_lo > row_hi) empty = true;
                lo = std::max(lo, row_lo - 1);
                hi = std::min(hi, row_hi + 1);
            }
            if (empty || lo > hi) continue;
            const int px_lo = std::max(x0 / s_, int(std::floor(lo)) / s_);
            const int px_hi = std::min(x1 / s_, int(std::floor(hi)) / s_);
            for (int px = px_lo; px <= px_hi; ++px) {
                unsigned covered = 0;
                double qs[16];
                double first[3] = {0, 0, 0};
                for (int sy = 0; sy < s_; ++sy)
                    for (int sx = 0; sx < s_; ++sx) {
                        const double X = px * s_ + sx + 0.5, Y = py * s_ + sy + 0.5;
                        double w[3];
                        bool inside = true;
                        for (int k = 0; k < 3 && inside; ++k) {
                            w[k] = ea[k] * X + eb[k] * Y + ec[k];
                            inside = w[k] > 0 || (w[k] == 0 && tl[k]);
                        }
                        if (!inside) continue;
                        const int i = sy * s_ + sx;
                        const double q =
                            (w[0] * sv[0].q + w[1] * sv[1].q + w[2] * sv[2].q) * inv_area;
                        const size_t at = size_t(py * s_ + sy) * size_t(w_) + size_t(px * s_ + sx);
                        if (!(q > depth_[at])) continue;
                        if (!covered) std::copy(w, w + 3, first);
                        covered |= 1u << i;
                        qs[i] = q;
                    }
                if (!covered) continue;
                const double b0 = first[0] * inv_area, b1 = first[1] * inv_area,
                             b2 = first[2] * inv_area;
                const double w = 1 / (b0 * sv[0].inv_w + b1 * sv[1].inv_w + b2 * sv[2].inv_w);
                const double c0 = b0 * sv[0].inv_w * w, c1 = b1 * sv[1].inv_w * w,
                             c2 = b2 * sv[2].inv_w * w;
                std::array<float, 4> colour = surface.factor;
                if (tex) {
                    const float u = float(c0 * sv[0].u + c1 * sv[1].u + c2 * sv[2].u);
                    const float v = float(c0 * sv[0].v + c1 * sv[1].v + c2 * sv[2].v);
                    const auto texel = sample(*level, u, v);
                    for (int k = 0; k < 4; ++k) colour[size_t(k)] *= texel[size_t(k)];
                }
                if (!white)
                    for (size_t k = 0; k < 4; ++k)
                        colour[k] *= float(c0 * sv[0].colour[k] + c1 * sv[1].colour[k] +
                                           c2 * sv[2].colour[k]);
                if (surface.alpha == AlphaMode::Mask) {
                    if (colour[3] < surface.cutoff) continue;
                    colour[3] = 1;
                } else if (surface.alpha == AlphaMode::Opaque) {
                    colour[3] = 1;
                }
                if (surface.lit) {
                    const float l = float(c0 * sv[0].light + c1 * sv[1].light + c2 * sv[2].light);
                    for (int k = 0; k < 3; ++k) colour[size_t(k)] *= l;
                }
                for (int i = 0; i < s_ * s_; ++i) {
                    if (!(covered & (1u << i))) continue;
                    const size_t at =
                        size_t(py * s_ + i / s_) * size_t(w_) + size_t(px * s_ + i % s_);
                    auto& dst = colour_[at];
                    if (blend) {
                        const float a = colour[3];
                        for (int k = 0; k < 3; ++k)
                            dst[size_t(k)] = colour[size_t(k)] * a + dst[size_t(k)] * (1 - a);
                        dst[3] = a + dst[3] * (1 - a);
                    } else {
                        dst = {colour[0], colour[1], colour[2], 1};
                        depth_[at] = float(qs[i]);
                    }
                }
            }
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
            for (int sy = ya; sy <= yb; ++sy)
                for (int sx = xa; sx <= xb; ++sx) {
                    const size_t at = size_t(sy) * size_t(w_) + size_t(sx);
                    if (stamped[at] == mark) continue;
                    stamped[at] = mark;
                    auto& dst = colour_[at];
                    const float al = colour[3];
                    for (int c = 0; c < 3; ++c)
                        dst[size_t(c)] = colour[size_t(c)] * al + dst[size_t(c)] * (1 - al);
                    dst[3] = al + dst[3] * (1 - al);
                }
        }
    }
}

texm::Image Canvas::resolve(const std::optional<std::array<uint8_t, 3>>& background) const {
    texm::Image out(uint32_t(camera_.width), uint32_t(camera_.height));
    const float n = float(s_ * s_);
    std::array<float, 3> bg{0, 0, 0};
    if (background)
        for (int k = 0; k < 3; ++k) bg[size_t(k)] = srgb_to_linear((*background)[size_t(k)]);
    for (int y = 0; y < camera_.height; ++y)
        for (int x = 0; x < camera_.width; ++x) {
            std::array<float, 4> sum{0, 0, 0, 0};
            for (int sy = 0; sy < s_; ++sy)
                for (int sx = 0; sx < s_; ++sx) {
                    const auto& c = colour_[size_t(y * s_ + sy) * size_t(w_) + size_t(x * s_ + sx)];
                    for (int k = 0; k < 4; ++k) sum[size_t(k)] += c[size_t(k)];
                }
            uint8_t* p = out.at(uint32_t(x), uint32_t(y));
            const float a = sum[3] / n;
            if (background) {
                for (int k = 0; k < 3; ++k)
                    p[k] = linear_to_srgb(sum[size_t(k)] / n + bg[size_t(k)] * (1 - a));
                p[3] = 255;
            } else if (a > 0) {
                for (int k = 0; k < 3; ++k) p[k] = linear_to_srgb(sum[size_t(k)] / sum[3]);
                p[3] = uint8_t(std::lround(std::clamp(a, 0.0f, 1.0f) * 255));
            }
        }
    return out;
}

} // namespace msh::render
