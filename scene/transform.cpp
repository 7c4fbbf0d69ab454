#include "transform.hpp"

#include <cmath>

namespace msh::scene {

namespace {

std::array<double, 4> mul(const std::array<double, 4>& a, const std::array<double, 4>& b) {
    return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
            a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
            a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
            a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}

} // namespace

std::array<double, 3> rotate(const std::array<double, 4>& q, const std::array<double, 3>& v) {
    // v' = v + 2w (u x v) + 2 u x (u x v), u = q.xyz
    const std::array<double, 3> u{q[0], q[1], q[2]};
    auto cross = [](const std::array<double, 3>& a, const std::array<double, 3>& b) {
        return std::array<double, 3>{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                                     a[0] * b[1] - a[1] * b[0]};
    };
    const auto uv = cross(u, v);
    const auto uuv = cross(u, uv);
    return {v[0] + 2 * (q[3] * uv[0] + uuv[0]), v[1] + 2 * (q[3] * uv[1] + uuv[1]),
            v[2] + 2 * (q[3] * uv[2] + uuv[2])};
}

Rigid compose(const Rigid& p, const Rigid& c) {
    Rigid r;
    r.q = mul(p.q, c.q);
    const auto t = rotate(p.q, c.t);
    r.t = {t[0] + p.t[0], t[1] + p.t[1], t[2] + p.t[2]};
    return r;
}

Rigid inverse(const Rigid& x) {
    Rigid r;
    r.q = {-x.q[0], -x.q[1], -x.q[2], x.q[3]};
    const auto t = rotate(r.q, x.t);
    r.t = {-t[0], -t[1], -t[2]};
    return r;
}

std::array<float, 3> apply_rotation(const Rigid& r, const std::array<float, 3>& v) {
    const auto o = rotate(r.q, {v[0], v[1], v[2]});
    return {float(o[0]), float(o[1]), float(o[2])};
}

std::array<float, 16> to_matrix(const Rigid& r) {
    const auto x = rotate(r.q, {1, 0, 0}), y = rotate(r.q, {0, 1, 0}), z = rotate(r.q, {0, 0, 1});
    return {
        float(x[0]), float(x[1]), float(x[2]), 0, float(y[0]),   float(y[1]),   float(y[2]),   0,
        float(z[0]), float(z[1]), float(z[2]), 0, float(r.t[0]), float(r.t[1]), float(r.t[2]), 1};
}

std::vector<Rigid> world_transforms(const Scene& scene) {
    const size_t n = scene.nodes.size();
    std::vector<Rigid> world(n);
    std::vector<char> done(n, 0);
    for (size_t i = 0; i < n; ++i) {
        // Walk up to the first resolved ancestor, then resolve down the chain.
        std::vector<size_t> chain;
        for (int k = int(i); k != scene::kNoIndex && !done[size_t(k)] && chain.size() <= n;
             k = scene.nodes[size_t(k)].parent)
            chain.push_back(size_t(k));
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const scene::Node& node = scene.nodes[*it];
            Rigid local;
            double len = 0;
            for (float c : node.rotation) len += double(c) * c;
            len = std::sqrt(len);
            if (len > 0)
                for (int c = 0; c < 4; ++c) local.q[size_t(c)] = node.rotation[size_t(c)] / len;
            local.t = {node.translation[0], node.translation[1], node.translation[2]};
            world[*it] =
                node.parent == scene::kNoIndex ? local : compose(world[size_t(node.parent)], local);
            done[*it] = 1;
        }
    }
    return world;
}

Matrix4 scaled_matrix(const std::array<double, 3>& t, std::array<double, 4> q,
                      const std::array<double, 3>& s) {
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (n > 0)
        for (double& c : q) c /= n;
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                            {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                            {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    Matrix4 m{};
    for (int c = 0; c < 3; ++c)
        for (int row = 0; row < 3; ++row) m[size_t(c * 4 + row)] = r[row][c] * s[size_t(c)];
    m[12] = t[0], m[13] = t[1], m[14] = t[2], m[15] = 1;
    return m;
}

Matrix4 multiply(const Matrix4& a, const Matrix4& b) {
    Matrix4 r{};
    for (int c = 0; c < 4; ++c)
        for (int row = 0; row < 4; ++row)
            for (int k = 0; k < 4; ++k)
                r[size_t(c * 4 + row)] += a[size_t(k * 4 + row)] * b[size_t(c * 4 + k)];
    return r;
}

} // namespace msh::scene
