// Identify: which exported vertex, batch and node each part of an incoming scene is. glTF
// carries the identity in TEXCOORD_1 (Res3 index, batch); OBJ carries none, so it is assigned by
// object, group and order, else by position and UV (assign_obj_identity). Used by the import
// with a sidecar (scene_to_model.cpp).
#pragma once

#include "formats/anim.hpp"
#include "scene/scene.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace msh::mapping {

// glTF (Y up) -> MSH (Z up), exact.
using F3 = std::array<float, 3>;

inline F3 from_gltf(const F3& v) {
    return {v[0], -v[2], v[1]};
}
inline anim::Quat from_gltf_quat(const anim::Quat& q) {
    return {q[0], -q[2], q[1], q[3]};
}

inline bool same_bits(const float* a, const float* b, size_t n) {
    return std::memcmp(a, b, n * sizeof(float)) == 0;
}

// One copy of a vertex as a scene holds it.
struct Seen {
    F3 pos{}, nrm{};
    std::array<float, 2> uv{};
    bool has_n = false, has_uv = false;
    int node = -1; // scene node holding the primitive
};

// Every copy of each vertex id, in the order seen, in one array (a vector per vertex cost one
// allocation per vertex, three times per imported model).
class SeenByVertex {
  public:
    SeenByVertex() = default;
    // `seen[i]` is a copy of vertex `vids[i]` (< vertex_count).
    SeenByVertex(const std::vector<uint32_t>& vids, const std::vector<Seen>& seen,
                 size_t vertex_count);
    size_t size() const { return offsets_.empty() ? 0 : offsets_.size() - 1; }
    std::span<const Seen> operator[](size_t vid) const {
        return {copies_.data() + offsets_[vid], copies_.data() + offsets_[vid + 1]};
    }

    // The same, to change (an import marks copies whose original it does not know).
    std::span<Seen> mutable_copies(size_t vid) {
        return {copies_.data() + offsets_[vid], copies_.data() + offsets_[vid + 1]};
    }

  private:
    std::vector<Seen> copies_;
    std::vector<uint32_t> offsets_; // vertex v's copies: [offsets_[v], offsets_[v + 1])
};

struct Observed {
    SeenByVertex by_vid;                                           // every copy of each vertex
    std::map<uint32_t, std::vector<std::array<uint32_t, 3>>> tris; // batch -> vid triples
    bool incomplete = false; // a primitive or vertex without a valid identity (new geometry)
    bool split = false;      // a vertex seen with two positions or UVs (a seam or a split copy)
};

// The (Res3 index, batch) a vertex carries in TEXCOORD_1, if it is a valid identity.
std::optional<std::pair<uint32_t, uint32_t>> identity_of(const scene::Attribute* id, size_t v,
                                                         size_t vertex_count);
const scene::Attribute* find_attribute(const scene::Primitive& p, const char* name);

// Every copy of every identified vertex and, unless only the copies are asked for, the identified
// triangles of each batch.
enum class Observe { copies_and_triangles, copies };
Observed observe(const scene::Scene& s, size_t vertex_count,
                 Observe what = Observe::copies_and_triangles);

// OBJ carries no TEXCOORD_1. Each incoming group takes the identities of the reference
// primitive of the same object and group, vertex by vertex in order, when the vertex counts agree;
// otherwise each vertex takes the identity of the reference vertex of that object with the same
// position and UV (exactly, else within kObjRounding; none when there is no such vertex: new
// geometry). A vertex that is only a rounded copy takes the reference's exact values. Objects that
// are not in the reference stay without identity (new parts). `strict` (the re-read export itself)
// requires the same objects, groups and counts.
void assign_obj_identity(scene::Scene& in, const scene::Scene& ref, bool strict,
                         const std::string& where);

// The angle between two directions in degrees (180 when one is zero).
double angle_deg(const F3& a, const F3& b);

} // namespace msh::mapping
