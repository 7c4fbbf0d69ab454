#include "scene_identity.hpp"

#include "formats/obj.hpp"
#include "scene_to_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace msh::mapping {

namespace {

std::array<uint32_t, 3> rotate_min_first(std::array<uint32_t, 3> t) {
    while (!(t[0] <= t[1] && t[0] <= t[2])) t = {t[1], t[2], t[0]};
    return t;
}

} // namespace

std::optional<std::pair<uint32_t, uint32_t>> identity_of(const scene::Attribute* id, size_t v,
                                                         size_t vertex_count) {
    if (!id || id->components != 2 || 2 * v + 1 >= id->data.size()) return std::nullopt;
    const float a = id->data[2 * v], b = id->data[2 * v + 1];
    if (!(a >= 0 && a < float(vertex_count) && a == std::floor(a) && b >= 0 && b < 65536.0f &&
          b == std::floor(b)))
        return std::nullopt;
    return std::pair{uint32_t(a), uint32_t(b)};
}

const scene::Attribute* find_attribute(const scene::Primitive& p, const char* name) {
    const auto it = p.attributes.find(name);
    return it == p.attributes.end() ? nullptr : &it->second;
}

SeenByVertex::SeenByVertex(const std::vector<uint32_t>& vids, const std::vector<Seen>& seen,
                           size_t vertex_count)
    : copies_(seen.size()), offsets_(vertex_count + 1, 0) {
    for (uint32_t v : vids) ++offsets_[v + 1];
    for (size_t v = 0; v < vertex_count; ++v) offsets_[v + 1] += offsets_[v];
    std::vector<uint32_t> next(offsets_.begin(), offsets_.end() - 1);
    for (size_t i = 0; i < seen.size(); ++i) copies_[next[vids[i]]++] = seen[i]; // stable
}

Observed observe(const scene::Scene& s, size_t vertex_count, Observe what) {
    Observed o;
    std::vector<uint32_t> vids;
    std::vector<Seen> seen_copies;
    for (size_t n = 0; n < s.nodes.size(); ++n) {
        if (s.nodes[n].mesh < 0) continue;
        const scene::Mesh& mesh = s.meshes.at(size_t(s.nodes[n].mesh));
        for (const scene::Primitive& p : mesh.primitives) {
            const scene::Attribute* id = find_attribute(p, "TEXCOORD_1");
            const auto& pos = p.attributes.at("POSITION").data;
            const scene::Attribute* nrm = find_attribute(p, "NORMAL");
            const scene::Attribute* uv = find_attribute(p, "TEXCOORD_0");
            const size_t count = pos.size() / 3;
            std::vector<std::optional<std::pair<uint32_t, uint32_t>>> ident(count);
            for (size_t v = 0; v < count; ++v) {
                ident[v] = identity_of(id, v, vertex_count);
                if (!ident[v]) {
                    o.incomplete = true;
                    continue;
                }
                Seen seen;
                seen.pos = {pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]};
                if (nrm)
                    seen.has_n = true,
                    seen.nrm = {nrm->data[3 * v], nrm->data[3 * v + 1], nrm->data[3 * v + 2]};
                if (uv) seen.has_uv = true, seen.uv = {uv->data[2 * v], uv->data[2 * v + 1]};
                seen.node = int(n);
                vids.push_back(ident[v]->first);
                seen_copies.push_back(seen);
            }
            if (what == Observe::copies) continue;
            for (size_t t = 0; t + 2 < p.indices.size(); t += 3) {
                const auto &a = ident[p.indices[t]], &b = ident[p.indices[t + 1]],
                           &c = ident[p.indices[t + 2]];
                if (!a || !b || !c) continue;
                o.tris[a->second].push_back(rotate_min_first({a->first, b->first, c->first}));
            }
        }
    }
    for (auto& [b, list] : o.tris) std::sort(list.begin(), list.end());
    o.by_vid = SeenByVertex(vids, seen_copies, vertex_count);
    for (size_t v = 0; v < o.by_vid.size(); ++v)
        for (const std::span<const Seen> copies = o.by_vid[v]; const Seen& c : copies)
            o.split = o.split || !same_bits(c.pos.data(), copies.front().pos.data(), 3) ||
                      (c.has_uv && copies.front().has_uv &&
                       !same_bits(c.uv.data(), copies.front().uv.data(), 2));
    return o;
}

namespace {

// OBJ writers round: Blender prints 6 decimals. A value within this of the exported one is the
// exported value (positions and UVs; a smaller edit is not seen).
constexpr double kObjRounding = 1e-5;

// 2: the same position and UV bits; 1: the same within kObjRounding; 0: different.
int match(const scene::Primitive& a, size_t v, const scene::Primitive& b, size_t w) {
    const auto &pa = a.attributes.at("POSITION").data, &pb = b.attributes.at("POSITION").data;
    const scene::Attribute *ua = find_attribute(a, "TEXCOORD_0"),
                           *ub = find_attribute(b, "TEXCOORD_0");
    bool exact = true;
    for (size_t k = 0; k < 3; ++k) {
        if (std::abs(double(pa[3 * v + k]) - pb[3 * w + k]) > kObjRounding) return 0;
        exact = exact && same_bits(&pa[3 * v + k], &pb[3 * w + k], 1);
    }
    if (ua && ub)
        for (size_t k = 0; k < 2; ++k) {
            if (std::abs(double(ua->data[2 * v + k]) - ub->data[2 * w + k]) > kObjRounding)
                return 0;
            exact = exact && same_bits(&ua->data[2 * v + k], &ub->data[2 * w + k], 1);
        }
    return exact ? 2 : 1;
}

// Vertex v of `dst` takes the position and UV of vertex w of `ref` when it is only a rounded copy.
void snap_if_rounded(scene::Primitive& dst, size_t v, const scene::Primitive& ref, size_t w) {
    if (match(dst, v, ref, w) != 1) return;
    auto& p = dst.attributes.at("POSITION").data;
    const auto& q = ref.attributes.at("POSITION").data;
    std::copy(q.begin() + long(3 * w), q.begin() + long(3 * w + 3), p.begin() + long(3 * v));
    const scene::Attribute* ru = find_attribute(ref, "TEXCOORD_0");
    if (auto it = dst.attributes.find("TEXCOORD_0"); it != dst.attributes.end() && ru)
        std::copy(ru->data.begin() + long(2 * w), ru->data.begin() + long(2 * w + 2),
                  it->second.data.begin() + long(2 * v));
}

// The normals of the two vertices agree within the import tolerance (or one has none).
bool normal_close(const scene::Primitive& a, size_t v, const scene::Primitive& b, size_t w) {
    const scene::Attribute *na = find_attribute(a, "NORMAL"), *nb = find_attribute(b, "NORMAL");
    if (!na || !nb) return true;
    const F3 x{na->data[3 * v], na->data[3 * v + 1], na->data[3 * v + 2]};
    const F3 y{nb->data[3 * w], nb->data[3 * w + 1], nb->data[3 * w + 2]};
    return angle_deg(x, y) <= kNormalToleranceDegrees;
}

std::string material_name(const scene::Scene& s, int material) {
    return material >= 0 && size_t(material) < s.materials.size()
               ? s.materials[size_t(material)].name
               : std::string();
}

} // namespace

void assign_obj_identity(scene::Scene& in, const scene::Scene& ref, bool strict,
                         const std::string& where) {
    std::map<std::string, size_t> node_by_name;
    for (size_t i = 0; i < ref.nodes.size(); ++i)
        if (ref.nodes[i].mesh >= 0) node_by_name[obj::name_token(ref.nodes[i].name)] = i;
    for (scene::Node& node : in.nodes) {
        if (node.mesh < 0) continue;
        const auto it = node_by_name.find(node.name);
        if (it == node_by_name.end()) {
            if (strict)
                throw FormatError(where, Location::whole(), "OBJ object '" + node.name + "' lost");
            continue;
        }
        const scene::Mesh& src = ref.meshes.at(size_t(ref.nodes[it->second].mesh));
        scene::Mesh& dst = in.meshes.at(size_t(node.mesh));
        bool by_order = dst.primitives.size() == src.primitives.size();
        for (size_t p = 0; by_order && p < dst.primitives.size(); ++p)
            by_order = dst.primitives[p].attributes.at("POSITION").count() ==
                       src.primitives[p].attributes.at("TEXCOORD_1").count();
        if (by_order) {
            for (size_t p = 0; p < dst.primitives.size(); ++p) {
                dst.primitives[p].attributes["TEXCOORD_1"] =
                    src.primitives[p].attributes.at("TEXCOORD_1");
                if (!strict)
                    for (size_t v = 0; v < dst.primitives[p].attributes.at("POSITION").count(); ++v)
                        snap_if_rounded(dst.primitives[p], v, src.primitives[p], v);
            }
            continue;
        }
        if (strict)
            throw FormatError(where, Location::whole(), "OBJ object '" + node.name + "' changed");
        // Reference vertices on a grid of kObjRounding-sized cells (a rounded value lies in a
        // neighbouring cell at most).
        using Cell = std::array<int64_t, 3>;
        auto cell_of = [](const float* p, int dx, int dy, int dz) {
            const int d[3] = {dx, dy, dz};
            Cell c{};
            for (int k = 0; k < 3; ++k)
                // Clamped: a huge coordinate must not overflow the cast (all such share a cell).
                c[size_t(k)] = int64_t(std::clamp(std::floor(double(p[k]) / (4 * kObjRounding)),
                                                  -4e18, 4e18)) +
                               d[k];
            return c;
        };
        std::map<Cell, std::vector<std::pair<size_t, size_t>>> grid; // cell -> (primitive, vertex)
        for (size_t p = 0; p < src.primitives.size(); ++p) {
            const auto& pos = src.primitives[p].attributes.at("POSITION").data;
            for (size_t v = 0; v < pos.size() / 3; ++v)
                grid[cell_of(&pos[3 * v], 0, 0, 0)].push_back({p, v});
        }
        for (scene::Primitive& p : dst.primitives) {
            scene::Attribute id{2, {}};
            for (size_t v = 0; v < p.attributes.at("POSITION").count(); ++v) {
                // The best reference vertex: exact before rounded, the same material (usemtl)
                // before another (vertices of different batches may share position and UV).
                std::optional<std::pair<size_t, size_t>> best;
                int best_rank = 0;
                const float* at = &p.attributes.at("POSITION").data[3 * v];
                for (int dx = -1; dx <= 1; ++dx)
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dz = -1; dz <= 1; ++dz) {
                            const auto cell = grid.find(cell_of(at, dx, dy, dz));
                            if (cell == grid.end()) continue;
                            for (const auto& [sp, sv] : cell->second) {
                                const int m = match(p, v, src.primitives[sp], sv);
                                if (!m) continue;
                                const int rank =
                                    100 * m +
                                    10 * (material_name(in, p.material) ==
                                          material_name(ref, src.primitives[sp].material)) +
                                    normal_close(p, v, src.primitives[sp], sv);
                                if (rank > best_rank) best_rank = rank, best = std::pair{sp, sv};
                            }
                        }
                const auto& hit = best;
                if (hit) snap_if_rounded(p, v, src.primitives[hit->first], hit->second);
                const scene::Attribute* sid =
                    hit ? &src.primitives[hit->first].attributes.at("TEXCOORD_1") : nullptr;
                id.data.push_back(sid ? sid->data[2 * hit->second] : -1.0f);
                id.data.push_back(sid ? sid->data[2 * hit->second + 1] : -1.0f);
            }
            p.attributes["TEXCOORD_1"] = std::move(id);
        }
    }
}

double angle_deg(const F3& a, const F3& b) {
    const double la = std::sqrt(double(a[0]) * a[0] + double(a[1]) * a[1] + double(a[2]) * a[2]);
    const double lb = std::sqrt(double(b[0]) * b[0] + double(b[1]) * b[1] + double(b[2]) * b[2]);
    if (!(la > 0) || !(lb > 0)) return 180;
    const double c = std::clamp(
        (double(a[0]) * b[0] + double(a[1]) * b[1] + double(a[2]) * b[2]) / (la * lb), -1.0, 1.0);
    return std::acos(c) * 180 / 3.14159265358979323846;
}

} // namespace msh::mapping
