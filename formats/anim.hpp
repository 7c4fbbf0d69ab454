// MSH animation (spec animation.md): Res8 key pool + Res19 frame map, decomposed into per-node
// tracks, rebuilt by the canonical writer, and sampled exactly as the engine does.
#pragma once

#include "diagnostics.hpp"
#include "readings.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace msh::anim {

constexpr uint16_t kNoMap = 0xFFFF;

using Quat = std::array<float, 4>; // x, y, z, w
using Vec3f = std::array<float, 3>;

struct Key {
    Vec3f pos{};
    float time = 0;                             // frames
    std::array<int16_t, 4> rot{0, 0, 0, 32767}; // as stored; value / 32767 (order: key_order)
};

struct Animation {
    std::vector<Key> keys;       // Res8
    std::vector<uint16_t> words; // Res19
    uint32_t frame_count = 1;    // Res19.attr2
    // How a key's four rotation words are read (a contested reading, readings.hpp); set by the
    // caller that chose the readings, never by the binary reader.
    KeyQuaternion key_order = KeyQuaternion::Xyzw;
};

// The animation fields of one Res1 node.
struct NodeFields {
    uint16_t map_start = kNoMap; // hdr2
    uint16_t fallback_key = 0;   // hdr3
};

struct Track {
    std::vector<Key> keys; // one key = static node; >= 2 keys = mapped node
};

struct Pose {
    Quat rot{0, 0, 0, 1};
    Vec3f pos{};
};

// The stored words as (x, y, z, w) / 32767 under `order` (Wxyz: w, x, y, z stored, conjugated).
Quat decode_quat(const std::array<int16_t, 4>& q, KeyQuaternion order = KeyQuaternion::Xyzw);
// Normalises, then clamp(round(q * 32767), -32767, 32767) stored in `order`; an all-zero input
// gives identity.
std::array<int16_t, 4> encode_quat(Quat q, KeyQuaternion order = KeyQuaternion::Xyzw);

// Per-node key ranges [start_i, hdr3_i] with start_0 = 0, start_i = hdr3_(i-1) + 1.
// Throws FormatError when a range is empty or out of the key pool.
std::vector<Track> decompose(const Animation& a, const std::vector<NodeFields>& nodes);

struct Composed {
    Animation animation;
    std::vector<NodeFields> nodes;
};
// Canonical writer (animation.md §9). Throws FormatError naming the limit when keys exceed
// 65,535 or a map start would exceed 0xFFFE, or a track is empty / has non-increasing times.
Composed compose(const std::vector<Track>& tracks);

// Reader/validation checks of animation.md §8 (errors and non-canonical warnings).
void validate(const Animation& a, const std::vector<NodeFields>& nodes, DiagnosticSink& sink,
              const std::string& where);

// frame = low 32 bits of FISTP(t - 0.5) under round-to-nearest-even.
uint32_t frame_index(float t);

// The engine sampler (sub_10012880). Throws FormatError when the data would make the engine read
// out of bounds (map word, fallback or k + 1 outside the pools).
Pose sample(const Animation& a, const NodeFields& node, float t);

// Quaternion interpolation used by the sampler (slerp, no shortest-arc flip).
Quat slerp(const Quat& a, const Quat& b, float t);

// Two-pose blend (sub_10012560): row-major 4x4 with translation in elements 3, 7, 11.
std::array<float, 16> blend(const Pose& a, float time_a, const Pose& b, float time_b, float w);
std::array<float, 16> rotation_matrix(const Quat& q); // row-major 4x4, no translation

} // namespace msh::anim
