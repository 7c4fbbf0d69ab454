#include "bake_scale.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace msh::scene {

namespace {

using V3 = std::array<double, 3>;

Linear3 mul(const Linear3& a, const Linear3& b) {
    Linear3 r{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k)
                r[size_t(i * 3 + j)] += a[size_t(i * 3 + k)] * b[size_t(k * 3 + j)];
    return r;
}

Linear3 transpose(const Linear3& a) {
    return {a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]};
}

double det(const Linear3& a) {
    return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
           a[2] * (a[3] * a[7] - a[4] * a[6]);
}

// The inverse transpose, up to a positive factor (normals are renormalised): the cofactor matrix.
Linear3 cofactor(const Linear3& a) {
    return {a[4] * a[8] - a[5] * a[7], a[5] * a[6] - a[3] * a[8], a[3] * a[7] - a[4] * a[6],
            a[2] * a[7] - a[1] * a[8], a[0] * a[8] - a[2] * a[6], a[1] * a[6] - a[0] * a[7],
            a[1] * a[5] - a[2] * a[4], a[2] * a[3] - a[0] * a[5], a[0] * a[4] - a[1] * a[3]};
}

V3 apply(const Linear3& m, const V3& v) {
    return {m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
            m[6] * v[0] + m[7] * v[1] + m[8] * v[2]};
}

Linear3 from_quat(const std::array<float, 4>& q4) {
    double x = q4[0], y = q4[1], z = q4[2], w = q4[3];
    const double n = std::sqrt(x * x + y * y + z * z + w * w);
    if (n > 0) x /= n, y /= n, z /= n, w /= n;
    return {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
            2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
            2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
}

std::array<float, 4> to_quat(const Linear3& m) {
    double x, y, z, w;
    const double tr = m[0] + m[4] + m[8];
    if (tr > 0) {
        const double s = std::sqrt(tr + 1) * 2;
        w = s / 4, x = (m[7] - m[5]) / s, y = (m[2] - m[6]) / s, z = (m[3] - m[1]) / s;
    } else if (m[0] > m[4] && m[0] > m[8]) {
        const double s = std::sqrt(1 + m[0] - m[4] - m[8]) * 2;
        w = (m[7] - m[5]) / s, x = s / 4, y = (m[1] + m[3]) / s, z = (m[2] + m[6]) / s;
    } else if (m[4] > m[8]) {
        const double s = std::sqrt(1 + m[4] - m[0] - m[8]) * 2;
        w = (m[2] - m[6]) / s, x = (m[1] + m[3]) / s, y = s / 4, z = (m[5] + m[7]) / s;
    } else {
        const double s = std::sqrt(1 + m[8] - m[0] - m[4]) * 2;
        w = (m[3] - m[1]) / s, x = (m[2] + m[6]) / s, y = (m[5] + m[7]) / s, z = s / 4;
    }
    return {float(x), float(y), float(z), float(w)};
}

// A multiple of the identity commutes with every rotation: rotation keys stay exact under it.
bool is_uniform(const Linear3& m) {
    const double s = m[0];
    return std::abs(m[4] - s) <= 1e-6 * std::max(1.0, std::abs(s)) &&
           std::abs(m[8] - s) <= 1e-6 * std::max(1.0, std::abs(s)) &&
           std::abs(m[1]) + std::abs(m[2]) + std::abs(m[3]) + std::abs(m[5]) + std::abs(m[6]) +
                   std::abs(m[7]) <=
               1e-6 * std::max(1.0, std::abs(s));
}

void bake_mesh(Mesh& mesh, const Linear3& b) {
    const Linear3 nb = cofactor(b);
    const bool mirror = det(b) < 0;
    for (Primitive& p : mesh.primitives) {
        if (auto it = p.attributes.find("POSITION");
            it != p.attributes.end() && it->second.components == 3)
            for (size_t i = 0; i + 2 < it->second.data.size(); i += 3) {
                float* v = &it->second.data[i];
                const V3 o = apply(b, {v[0], v[1], v[2]});
                v[0] = float(o[0]), v[1] = float(o[1]), v[2] = float(o[2]);
            }
        if (auto it = p.attributes.find("NORMAL");
            it != p.attributes.end() && it->second.components == 3)
            for (size_t i = 0; i + 2 < it->second.data.size(); i += 3) {
                float* v = &it->second.data[i];
                V3 o = apply(nb, {v[0], v[1], v[2]});
                const double len = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
                if (len > 0) o = {o[0] / len, o[1] / len, o[2] / len};
                v[0] = float(o[0]), v[1] = float(o[1]), v[2] = float(o[2]);
            }
        if (mirror && p.mode == Primitive::Mode::Triangles)
            for (size_t i = 0; i + 2 < p.indices.size(); i += 3)
                std::swap(p.indices[i + 1], p.indices[i + 2]);
    }
}

} // namespace

bool is_identity(const Linear3& m) {
    for (size_t i = 0; i < 9; ++i)
        if (std::abs(m[i] - kIdentity3[i]) > 1e-6) return false; // float noise of exporters
    return true;
}

bool keeps_rest_scale(const std::vector<float>& keys, const Linear3& residual) {
    for (size_t k = 0; k < keys.size(); ++k) {
        const double rest = residual[(k % 3) * 4];
        if (std::abs(keys[k] - rest) > 1e-5 * std::max(1.0, std::abs(rest))) return false;
    }
    return true;
}

std::string animated_scale_warning(const std::string& animation, const std::string& node) {
    return "animation '" + animation + "': the scale of node '" + node +
           "' is animated; MSH nodes cannot scale, its rest scale is baked and the scale keys "
           "are dropped";
}

Decomposed decompose_matrix(const std::array<double, 16>& c) {
    Decomposed d;
    d.translation = {float(c[12]), float(c[13]), float(c[14])};
    const Linear3 l{c[0], c[4], c[8], c[1], c[5], c[9], c[2], c[6], c[10]};
    // Gram-Schmidt on the columns: L = Q U, Q a rotation (q2 = q0 x q1), U upper triangular.
    const V3 c0{l[0], l[3], l[6]}, c1{l[1], l[4], l[7]};
    auto dot = [](const V3& a, const V3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };
    const double n0 = std::sqrt(dot(c0, c0));
    if (n0 < 1e-12) { // a collapsed axis: no rotation to recover, everything is residual
        d.residual = l;
        return d;
    }
    const V3 q0{c0[0] / n0, c0[1] / n0, c0[2] / n0};
    const double k = dot(q0, c1);
    V3 r1{c1[0] - k * q0[0], c1[1] - k * q0[1], c1[2] - k * q0[2]};
    const double n1 = std::sqrt(dot(r1, r1));
    if (n1 < 1e-12) {
        d.residual = l;
        return d;
    }
    const V3 q1{r1[0] / n1, r1[1] / n1, r1[2] / n1};
    const V3 q2{q0[1] * q1[2] - q0[2] * q1[1], q0[2] * q1[0] - q0[0] * q1[2],
                q0[0] * q1[1] - q0[1] * q1[0]};
    const Linear3 q{q0[0], q1[0], q2[0], q0[1], q1[1], q2[1], q0[2], q1[2], q2[2]};
    d.rotation = to_quat(q);
    d.residual = mul(transpose(q), l);
    return d;
}

size_t bake_residuals(Scene& s, const std::vector<Linear3>& residual,
                      const std::function<void(int, const std::string&)>& warn) {
    const size_t n = s.nodes.size();
    bool any = false;
    for (size_t i = 0; i < n && i < residual.size(); ++i) any = any || !is_identity(residual[i]);
    if (!any) return 0;
    // B per node, parents first (gltf_check guarantees a forest).
    std::vector<Linear3> bake(n, kIdentity3);
    std::vector<char> done(n, 0);
    std::vector<size_t> order;
    for (size_t i = 0; i < n; ++i) {
        std::vector<size_t> chain;
        for (int k = int(i); k != kNoIndex && !done[size_t(k)] && chain.size() <= n;
             k = s.nodes[size_t(k)].parent)
            chain.push_back(size_t(k));
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            done[*it] = 1;
            order.push_back(*it);
        }
    }
    std::vector<Linear3> parent_bake(n, kIdentity3);
    for (size_t i : order) {
        const Node& node = s.nodes[i];
        const Linear3 bp = node.parent == kNoIndex ? kIdentity3 : bake[size_t(node.parent)];
        parent_bake[i] = bp;
        const Linear3 q = from_quat(node.rotation);
        const Linear3 u = i < residual.size() ? residual[i] : kIdentity3;
        bake[i] = mul(mul(mul(transpose(q), bp), q), u);
    }
    size_t changed = 0;
    std::map<int, int> mesh_users;
    for (const Node& node : s.nodes)
        if (node.mesh >= 0) ++mesh_users[node.mesh];
    for (size_t i = 0; i < n; ++i) {
        Node& node = s.nodes[i];
        bool touched = false;
        if (!is_identity(parent_bake[i])) {
            const V3 t = apply(parent_bake[i],
                               {node.translation[0], node.translation[1], node.translation[2]});
            node.translation = {float(t[0]), float(t[1]), float(t[2])};
            touched = true;
        }
        // A skinned mesh is placed by its joints, not by its node (glTF 2.0 §3.7.3).
        if (node.mesh >= 0 && size_t(node.mesh) < s.meshes.size() && node.skin == kNoIndex &&
            !is_identity(bake[i])) {
            if (mesh_users[node.mesh] > 1) { // shared with another node: bake a copy
                --mesh_users[node.mesh];
                s.meshes.push_back(s.meshes[size_t(node.mesh)]);
                node.mesh = int(s.meshes.size() - 1);
                mesh_users[node.mesh] = 1;
            }
            bake_mesh(s.meshes[size_t(node.mesh)], bake[i]);
            touched = true;
        }
        changed += touched;
    }
    std::vector<char> warned(n, 0);
    for (Animation& an : s.animations)
        for (Channel& ch : an.channels) {
            if (ch.node < 0 || size_t(ch.node) >= n) continue;
            const Linear3& bp = parent_bake[size_t(ch.node)];
            if (is_identity(bp)) continue;
            if (ch.path == Path::Translation) {
                for (size_t k = 0; k + 2 < ch.values.size(); k += 3) {
                    const V3 t = apply(bp, {ch.values[k], ch.values[k + 1], ch.values[k + 2]});
                    ch.values[k] = float(t[0]), ch.values[k + 1] = float(t[1]),
                    ch.values[k + 2] = float(t[2]);
                }
            } else if (!is_uniform(bp) && !warned[size_t(ch.node)]) {
                warned[size_t(ch.node)] = 1;
                warn(ch.node, "node '" + s.nodes[size_t(ch.node)].name +
                                  "' rotates under a non-uniform scale of its parents: the "
                                  "rest pose is exact, the animated rotations turn the baked "
                                  "shape rigidly (MSH nodes cannot shear)");
            }
        }
    for (Skin& skin : s.skins) {
        if (skin.inverse_bind.size() < 16 * skin.joints.size()) { // absent ones are identity
            const size_t have = skin.inverse_bind.size() / 16;
            skin.inverse_bind.resize(16 * skin.joints.size(), 0);
            for (size_t j = have; j < skin.joints.size(); ++j)
                for (size_t k : {0, 5, 10, 15}) skin.inverse_bind[16 * j + k] = 1;
        }
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            const int jn = skin.joints[j];
            if (jn < 0 || size_t(jn) >= n || is_identity(bake[size_t(jn)])) continue;
            float* m = &skin.inverse_bind[16 * j];
            const Linear3& b = bake[size_t(jn)];
            // Column-major: column c is m[4c..4c+3]; B applies to the upper three rows.
            for (int c = 0; c < 4; ++c) {
                const V3 o = apply(b, {m[4 * c], m[4 * c + 1], m[4 * c + 2]});
                m[4 * c] = float(o[0]), m[4 * c + 1] = float(o[1]), m[4 * c + 2] = float(o[2]);
            }
        }
    }
    return changed;
}

} // namespace msh::scene
