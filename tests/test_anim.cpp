// Unit tests for formats/anim (animation.md): hand-computed expectations only.
#include "formats/anim.hpp"

#include <boost/test/unit_test.hpp>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace anim_tests {

using namespace msh;
using namespace msh::anim;

namespace {

constexpr int16_t kS45 = 23170; // round(32767 * sin 45°)

Key key(float time, Vec3f pos, std::array<int16_t, 4> rot = {0, 0, 0, 32767}) {
    Key k;
    k.time = time;
    k.pos = pos;
    k.rot = rot;
    return k;
}

bool same_key(const Key& a, const Key& b) {
    return a.pos == b.pos && a.time == b.time && a.rot == b.rot;
}

// Node 0: static, one key. Node 1: mapped, keys at 0, 4, 10; frameCount 11.
struct TwoNode {
    Animation anim;
    std::vector<NodeFields> nodes;
};

TwoNode two_node() {
    TwoNode t;
    t.anim.keys = {
        key(0, {1, 2, 3}),                      // 0: node 0 (static)
        key(0, {0, 0, 0}),                      // 1: node 1, identity
        key(4, {4, 8, -2}, {0, 0, kS45, kS45}), // 2: 90° about Z
        key(10, {10, 8, 4}, {0, 0, 32767, 0}),  // 3: 180° about Z (fallback)
    };
    //            f: 0  1  2  3  4  5  6  7  8  9  10
    t.anim.words = {1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3};
    t.anim.frame_count = 11;
    t.nodes = {NodeFields{kNoMap, 0}, NodeFields{0, 3}};
    return t;
}

void check_pose_is_key(const Pose& p, const Key& k) {
    BOOST_TEST(p.pos[0] == k.pos[0]);
    BOOST_TEST(p.pos[1] == k.pos[1]);
    BOOST_TEST(p.pos[2] == k.pos[2]);
    const Quat q = decode_quat(k.rot);
    for (size_t i = 0; i < 4; ++i) BOOST_TEST(p.rot[i] == q[i]);
}

bool has_diag(const DiagnosticSink& sink, Severity sev, const std::string& resource,
              const std::string& fragment) {
    for (const Diagnostic& d : sink.diagnostics())
        if (d.severity == sev && d.resource == resource &&
            d.message.find(fragment) != std::string::npos)
            return true;
    return false;
}

size_t count_sev(const DiagnosticSink& sink, Severity sev) {
    size_t n = 0;
    for (const Diagnostic& d : sink.diagnostics()) n += d.severity == sev;
    return n;
}

std::string dump(const DiagnosticSink& sink) {
    std::string s;
    for (const Diagnostic& d : sink.diagnostics()) s += d.to_string() + "\n";
    return s;
}

} // namespace

BOOST_AUTO_TEST_SUITE(anim)

// ---- frame index (animation.md §5 examples) ----

BOOST_AUTO_TEST_CASE(frame_index_examples) {
    BOOST_REQUIRE(std::fegetround() == FE_TONEAREST); // the default the spec assumes
    BOOST_TEST(frame_index(0.0f) == 0u);
    BOOST_TEST(frame_index(0.5f) == 0u);
    BOOST_TEST(frame_index(1.0f) == 0u); // 0.5 ties to even
    BOOST_TEST(frame_index(1.5f) == 1u);
    BOOST_TEST(frame_index(2.0f) == 2u); // 1.5 ties to even
    BOOST_TEST(frame_index(2.5f) == 2u);
    BOOST_TEST(frame_index(3.0f) == 2u); // 2.5 ties to even
    BOOST_TEST(frame_index(-0.25f) == 0xFFFFFFFFu);
    BOOST_TEST(frame_index(-0.5f) == 0xFFFFFFFFu);
    BOOST_TEST(frame_index(1e9f) == 1000000000u);
    BOOST_TEST(frame_index(9.5f) == 9u);
    BOOST_TEST(frame_index(10.0f) == 10u); // 9.5 ties to even
    BOOST_TEST(frame_index(2.7f) == 2u);
}

BOOST_AUTO_TEST_CASE(frame_index_ignores_changed_rounding_mode) {
    const int saved = std::fegetround();
    BOOST_REQUIRE(std::fesetround(FE_UPWARD) == 0);
    const uint32_t f0 = frame_index(0.5f), f1 = frame_index(1.0f), f2 = frame_index(3.0f),
                   f3 = frame_index(-0.25f), f4 = frame_index(1.75f);
    BOOST_REQUIRE(std::fesetround(FE_DOWNWARD) == 0);
    const uint32_t f5 = frame_index(2.0f), f6 = frame_index(2.25f);
    std::fesetround(saved);
    BOOST_TEST(f0 == 0u);
    BOOST_TEST(f1 == 0u);
    BOOST_TEST(f2 == 2u);
    BOOST_TEST(f3 == 0xFFFFFFFFu);
    BOOST_TEST(f4 == 1u);
    BOOST_TEST(f5 == 2u);
    BOOST_TEST(f6 == 2u);
}

// ---- quaternion quantisation ----

BOOST_AUTO_TEST_CASE(quat_decode_encode) {
    const Quat id = decode_quat({0, 0, 0, 32767});
    BOOST_TEST(id[3] == 1.0f);
    BOOST_TEST(id[0] == 0.0f);
    const Quat m = decode_quat({-32768, 0, 0, 0});
    BOOST_TEST(m[0] == -32768.0f * (1.0f / 32767.0f));
    BOOST_TEST(m[0] < -1.0f);
    // -32768 is never written: the normalised value encodes to -32767.
    BOOST_TEST((encode_quat(m) == std::array<int16_t, 4>{-32767, 0, 0, 0}));
    // Zero -> identity; scale does not matter.
    BOOST_TEST((encode_quat({0, 0, 0, 0}) == std::array<int16_t, 4>{0, 0, 0, 32767}));
    BOOST_TEST((encode_quat({0, 0, 2, 0}) == std::array<int16_t, 4>{0, 0, 32767, 0}));
    BOOST_TEST((encode_quat({0, 0, 3, 3}) == std::array<int16_t, 4>{0, 0, kS45, kS45}));
    BOOST_TEST((encode_quat({0, 0, -3, 3}) == std::array<int16_t, 4>{0, 0, -kS45, kS45}));
    // Round trip of canonical raw values.
    const std::vector<std::array<int16_t, 4>> raws = {{0, 0, kS45, kS45},
                                                      {0, 0, 0, 32767},
                                                      {16384, 16384, 16384, 16383},
                                                      {-12000, 5000, 30000, -3000}};
    for (const auto& r : raws) {
        const Quat q = decode_quat(r);
        double n2 = 0;
        for (float c : q) n2 += double(c) * c;
        if (std::abs(std::sqrt(n2) - 1) < 1e-4) {
            const auto back = encode_quat(q);
            for (size_t i = 0; i < 4; ++i) BOOST_TEST(std::abs(back[i] - r[i]) <= 1);
        }
    }
    // Float round trip within one quantum.
    const Quat q{0.1f, -0.7f, 0.5f, 0.5f}; // unit length
    const Quat d = decode_quat(encode_quat(q));
    for (size_t i = 0; i < 4; ++i) BOOST_TEST(std::abs(d[i] - q[i]) < 1.0f / 32767.0f);
}

// ---- sampler on a hand-built animation ----

BOOST_AUTO_TEST_CASE(sample_static_node) {
    const TwoNode t = two_node();
    for (float time : {0.0f, 0.3f, 4.0f, 7.5f, 100.0f, -1.0f}) {
        const Pose p = sample(t.anim, t.nodes[0], time);
        check_pose_is_key(p, t.anim.keys[0]);
    }
}

BOOST_AUTO_TEST_CASE(sample_key_times) {
    const TwoNode t = two_node();
    check_pose_is_key(sample(t.anim, t.nodes[1], 0.0f), t.anim.keys[1]);
    check_pose_is_key(sample(t.anim, t.nodes[1], 4.0f), t.anim.keys[2]);  // frame 4, equal to k
    check_pose_is_key(sample(t.anim, t.nodes[1], 10.0f), t.anim.keys[3]); // frame 10 -> fallback
}

BOOST_AUTO_TEST_CASE(sample_between_keys) {
    const TwoNode t = two_node();
    // t = 2: frame 2 -> word 1 -> segment [1, 2], a = 2/4 = 0.5.
    Pose p = sample(t.anim, t.nodes[1], 2.0f);
    BOOST_TEST(p.pos[0] == 2.0f);
    BOOST_TEST(p.pos[1] == 4.0f);
    BOOST_TEST(p.pos[2] == -1.0f);
    // Halfway between identity and 90° about Z: 45° about Z = (0, 0, sin 22.5°, cos 22.5°).
    BOOST_TEST(p.rot[0] == 0.0f);
    BOOST_TEST(p.rot[1] == 0.0f);
    BOOST_TEST(std::abs(p.rot[2] - 0.3826834f) < 2e-5f);
    BOOST_TEST(std::abs(p.rot[3] - 0.9238795f) < 2e-5f);

    // t = 3: frame 2 (2.5 ties to even), segment [1, 2], a = 0.75.
    p = sample(t.anim, t.nodes[1], 3.0f);
    BOOST_TEST(p.pos[0] == 3.0f);
    BOOST_TEST(p.pos[1] == 6.0f);
    BOOST_TEST(p.pos[2] == -1.5f);
}

BOOST_AUTO_TEST_CASE(sample_half_frames) {
    const TwoNode t = two_node();
    // t = 3.5: frame 3 -> word 1 -> a = 3.5 / 4 = 0.875.
    Pose p = sample(t.anim, t.nodes[1], 3.5f);
    BOOST_TEST(p.pos[0] == 3.5f);
    BOOST_TEST(p.pos[1] == 7.0f);
    BOOST_TEST(p.pos[2] == -1.75f);
    // 0.875 of the way to 90° = 78.75° about Z.
    BOOST_TEST(std::abs(p.rot[2] - float(std::sin(78.75 / 2 * std::numbers::pi / 180))) < 2e-5f);
    BOOST_TEST(std::abs(p.rot[3] - float(std::cos(78.75 / 2 * std::numbers::pi / 180))) < 2e-5f);

    // t = 4.5: frame 4 -> word 2 -> segment [2, 3], a = 0.5 / 6 computed in float.
    p = sample(t.anim, t.nodes[1], 4.5f);
    const float a = (4.5f - 4.0f) / (10.0f - 4.0f);
    BOOST_TEST(p.pos[0] == 4.0f + a * (10.0f - 4.0f));
    BOOST_TEST(p.pos[1] == 8.0f);
    BOOST_TEST(p.pos[2] == -2.0f + a * (4.0f - -2.0f));
    BOOST_TEST(std::abs(p.pos[0] - 4.5f) < 1e-6f);
    BOOST_TEST(std::abs(p.pos[2] - -1.5f) < 1e-6f);
    // 90° + (1/12)·90° = 97.5° about Z.
    BOOST_TEST(std::abs(p.rot[2] - float(std::sin(97.5 / 2 * std::numbers::pi / 180))) < 3e-5f);
    BOOST_TEST(std::abs(p.rot[3] - float(std::cos(97.5 / 2 * std::numbers::pi / 180))) < 3e-5f);
}

BOOST_AUTO_TEST_CASE(sample_fallbacks) {
    const TwoNode t = two_node();
    const Key& last = t.anim.keys[3];
    check_pose_is_key(sample(t.anim, t.nodes[1], 10.4f), last); // frame 10: word == fb
    check_pose_is_key(sample(t.anim, t.nodes[1], 11.0f), last); // frame 10
    check_pose_is_key(sample(t.anim, t.nodes[1], 11.6f), last); // frame 11 >= frameCount
    check_pose_is_key(sample(t.anim, t.nodes[1], 50.0f), last); // past the end
    check_pose_is_key(sample(t.anim, t.nodes[1], -0.3f), last); // frame -1 -> huge -> fallback
    // Just before the end still interpolates: t = 9.7 -> frame 9 -> segment [2, 3].
    const Pose p = sample(t.anim, t.nodes[1], 9.7f);
    const float a = (9.7f - 4.0f) / 6.0f;
    BOOST_TEST(p.pos[0] == 4.0f + a * 6.0f);
    BOOST_TEST(p.pos[0] != last.pos[0]);
}

BOOST_AUTO_TEST_CASE(sample_frames_beyond_frame_count) {
    TwoNode t = two_node();
    // Shorten the timeline: frames >= 5 now take the fallback although their words would
    // interpolate.
    t.anim.frame_count = 5;
    check_pose_is_key(sample(t.anim, t.nodes[1], 6.0f), t.anim.keys[3]); // frame 6 >= 5
    const Pose p = sample(t.anim, t.nodes[1], 5.0f);                     // frame 4 < 5
    BOOST_TEST(std::abs(p.pos[0] - 5.0f) < 1e-6f);
}

BOOST_AUTO_TEST_CASE(sample_zero_rotation_is_identity) {
    TwoNode t = two_node();
    t.anim.keys[0].rot = {0, 0, 0, 0};
    const Pose p = sample(t.anim, t.nodes[0], 0.0f);
    BOOST_TEST(p.rot[0] == 0.0f);
    BOOST_TEST(p.rot[1] == 0.0f);
    BOOST_TEST(p.rot[2] == 0.0f);
    BOOST_TEST(p.rot[3] == 1.0f);
}

BOOST_AUTO_TEST_CASE(sample_rejects_out_of_bounds_maps) {
    // Map block that runs past the end of Res19: frame 6 reads word 11 of 11.
    TwoNode t = two_node();
    t.nodes[1].map_start = 5;
    BOOST_CHECK_NO_THROW(sample(t.anim, t.nodes[1], 5.0f)); // frame 4 -> word 9
    BOOST_CHECK_THROW(sample(t.anim, t.nodes[1], 7.0f), FormatError);

    // Fallback beyond the pool: a word below it names key 3, whose right neighbour 4 is missing.
    t = two_node();
    t.nodes[1].fallback_key = 7;
    t.anim.words[5] = 3;
    BOOST_CHECK_THROW(sample(t.anim, t.nodes[1], 5.5f), FormatError); // frame 5
    // Frames whose words stay inside the pool still sample, as in the engine.
    BOOST_CHECK_NO_THROW(sample(t.anim, t.nodes[1], 2.0f));
    // A fallback index outside the pool is rejected when it is used.
    BOOST_CHECK_THROW(sample(t.anim, NodeFields{kNoMap, 4}, 0.0f), FormatError);
    BOOST_CHECK_THROW(sample(t.anim, t.nodes[1], 20.0f), FormatError); // frame >= F -> key 7
    try {
        sample(t.anim, t.nodes[1], 5.5f);
        BOOST_FAIL("expected FormatError");
    } catch (const FormatError& e) {
        BOOST_TEST(e.resource() == "Res19");
        BOOST_TEST(e.offset() == 10u); // word 5
    }
}

// ---- slerp / blend / matrices ----

BOOST_AUTO_TEST_CASE(slerp_endpoints_and_no_flip) {
    const Quat id{0, 0, 0, 1};
    const float s = float(std::sqrt(0.5));
    const Quat z90{0, 0, s, s};
    Quat q = slerp(id, z90, 0.0f);
    BOOST_TEST(std::abs(q[3] - 1.0f) < 1e-6f);
    q = slerp(id, z90, 1.0f);
    BOOST_TEST(std::abs(q[2] - s) < 1e-6f);
    // No shortest-arc flip: towards -z90 the long way, 135° about -Z at t = 0.5.
    q = slerp(id, Quat{0, 0, -s, -s}, 0.5f);
    BOOST_TEST(std::abs(q[2] - -0.9238795f) < 1e-5f);
    BOOST_TEST(std::abs(q[3] - 0.3826834f) < 1e-5f);
    // Tiny angle falls back to a normalised lerp without dividing by ~0.
    q = slerp(id, Quat{0, 0, 1e-6f, 1}, 0.5f);
    BOOST_TEST(std::isfinite(q[2]));
    BOOST_TEST(std::abs(q[2] - 5e-7f) < 1e-9f);
    // Opposite quaternions still give a unit result.
    q = slerp(id, Quat{0, 0, 0, -1}, 0.5f);
    const double n = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] +
                               double(q[3]) * q[3]);
    BOOST_TEST(std::abs(n - 1) < 1e-6);
}

BOOST_AUTO_TEST_CASE(rotation_matrix_z90) {
    const float s = float(std::sqrt(0.5));
    const auto m = rotation_matrix({0, 0, s, s});
    // Row-major, M * v: x axis -> y axis, y axis -> -x axis.
    const float expect[16] = {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (size_t i = 0; i < 16; ++i) BOOST_TEST(std::abs(m[i] - expect[i]) < 1e-6f);
    BOOST_TEST(m[15] == 1.0f);
    const auto id = rotation_matrix({0, 0, 0, 1});
    for (size_t i = 0; i < 16; ++i) BOOST_TEST(id[i] == ((i % 5 == 0) ? 1.0f : 0.0f));
}

BOOST_AUTO_TEST_CASE(blend_single_pose) {
    const float s = float(std::sqrt(0.5));
    Pose a;
    a.rot = {0, 0, s, s};
    a.pos = {1, 2, 3};
    Pose b;
    b.pos = {7, 8, 9};
    // Only A: weight 0, or B's time negative.
    for (const auto& m : {blend(a, 0, b, 5, 0.0f), blend(a, 0, b, -1, 0.5f)}) {
        BOOST_TEST(m[3] == 1.0f);
        BOOST_TEST(m[7] == 2.0f);
        BOOST_TEST(m[11] == 3.0f);
        BOOST_TEST(std::abs(m[1] - -1.0f) < 1e-6f);
        BOOST_TEST(m[15] == 1.0f);
    }
    // Only B: weight 1, or A's time negative.
    for (const auto& m : {blend(a, 0, b, 5, 1.0f), blend(a, -2, b, 0, 0.25f)}) {
        BOOST_TEST(m[3] == 7.0f);
        BOOST_TEST(m[7] == 8.0f);
        BOOST_TEST(m[11] == 9.0f);
        BOOST_TEST(m[0] == 1.0f); // identity rotation
        BOOST_TEST(m[1] == 0.0f);
    }
    BOOST_CHECK_THROW(blend(a, -1, b, -1, 0.5f), std::invalid_argument);
    BOOST_CHECK_THROW(blend(a, 0, b, -1, 1.0f), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(blend_both_flips_sign) {
    const float s = float(std::sqrt(0.5));
    Pose a; // identity at the origin
    Pose b;
    b.rot = {0, 0, -s, -s}; // 90° about Z with the sign flipped
    b.pos = {4, 8, -4};
    const auto m = blend(a, 0, b, 0, 0.25f);
    // After the flip: a quarter of the way to 90° = 22.5° about Z.
    const float c = float(std::cos(22.5 * std::numbers::pi / 180)),
                sn = float(std::sin(22.5 * std::numbers::pi / 180));
    BOOST_TEST(std::abs(m[0] - c) < 1e-5f);
    BOOST_TEST(std::abs(m[1] - -sn) < 1e-5f);
    BOOST_TEST(std::abs(m[4] - sn) < 1e-5f);
    BOOST_TEST(std::abs(m[5] - c) < 1e-5f);
    BOOST_TEST(std::abs(m[10] - 1.0f) < 1e-6f);
    BOOST_TEST(m[3] == 1.0f); // 0.75 * 0 + 0.25 * 4
    BOOST_TEST(m[7] == 2.0f);
    BOOST_TEST(m[11] == -1.0f);
    BOOST_TEST(m[12] == 0.0f);
    BOOST_TEST(m[13] == 0.0f);
    BOOST_TEST(m[14] == 0.0f);
    BOOST_TEST(m[15] == 1.0f);
}

// ---- decompose / compose ----

BOOST_AUTO_TEST_CASE(decompose_two_node) {
    const TwoNode t = two_node();
    const auto tracks = decompose(t.anim, t.nodes);
    BOOST_REQUIRE(tracks.size() == 2u);
    BOOST_REQUIRE(tracks[0].keys.size() == 1u);
    BOOST_REQUIRE(tracks[1].keys.size() == 3u);
    BOOST_TEST(same_key(tracks[0].keys[0], t.anim.keys[0]));
    BOOST_TEST(same_key(tracks[1].keys[2], t.anim.keys[3]));
}

BOOST_AUTO_TEST_CASE(decompose_rejects_bad_ranges) {
    TwoNode t = two_node();
    t.nodes[1].fallback_key = 4; // outside the 4-key pool
    try {
        decompose(t.anim, t.nodes);
        BOOST_FAIL("expected FormatError");
    } catch (const FormatError& e) {
        BOOST_TEST(e.resource() == "Res1 node 1");
        BOOST_TEST(std::string(e.what()).find("outside") != std::string::npos);
    }
    t = two_node();
    t.nodes[1].fallback_key = 0; // start 1 > end 0: empty
    try {
        decompose(t.anim, t.nodes);
        BOOST_FAIL("expected FormatError");
    } catch (const FormatError& e) {
        BOOST_TEST(e.resource() == "Res1 node 1");
        BOOST_TEST(std::string(e.what()).find("empty") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(compose_matches_hand_written_res19) {
    std::vector<Track> tracks(4);
    tracks[0].keys = {key(0, {1, 1, 1})};                                       // key 0, static
    tracks[1].keys = {key(0, {0, 0, 0}), key(2, {2, 0, 0}), key(3, {3, 0, 0})}; // keys 1..3
    tracks[2].keys = {key(0, {0, 0, 0}), key(1, {0, 1, 0})};                    // keys 4..5
    tracks[3].keys = {key(1, {0, 0, 1}), key(2, {0, 0, 2})}; // keys 6..7, late start
    const Composed c = compose(tracks);
    BOOST_TEST(c.animation.frame_count == 4u);
    BOOST_TEST(c.animation.keys.size() == 8u);
    const std::vector<uint16_t> expected = {
        1, 1, 2, 3, // node 1: [0,2) -> 1, [2,3) -> 2, frame 3 = last key time -> fallback 3
        4, 5, 5, 5, // node 2: frame 0 -> 4, frames >= 1 -> fallback 5
        7, 6, 7, 7, // node 3: frame 0 before the track -> 7, frame 1 -> 6, frames >= 2 -> 7
    };
    BOOST_TEST(c.animation.words == expected, boost::test_tools::per_element());
    BOOST_REQUIRE(c.nodes.size() == 4u);
    BOOST_TEST(c.nodes[0].map_start == kNoMap);
    BOOST_TEST(c.nodes[0].fallback_key == 0);
    BOOST_TEST(c.nodes[1].map_start == 0);
    BOOST_TEST(c.nodes[1].fallback_key == 3);
    BOOST_TEST(c.nodes[2].map_start == 4);
    BOOST_TEST(c.nodes[2].fallback_key == 5);
    BOOST_TEST(c.nodes[3].map_start == 8);
    BOOST_TEST(c.nodes[3].fallback_key == 7);
}

BOOST_AUTO_TEST_CASE(compose_reproduces_two_node_and_round_trips) {
    const TwoNode t = two_node();
    const auto tracks = decompose(t.anim, t.nodes);
    const Composed c = compose(tracks);
    BOOST_TEST(c.animation.frame_count == 11u);
    BOOST_TEST(c.animation.words == t.anim.words, boost::test_tools::per_element());
    BOOST_REQUIRE(c.nodes.size() == 2u);
    BOOST_TEST(c.nodes[0].map_start == kNoMap);
    BOOST_TEST(c.nodes[0].fallback_key == 0);
    BOOST_TEST(c.nodes[1].map_start == 0);
    BOOST_TEST(c.nodes[1].fallback_key == 3);
    const auto again = decompose(c.animation, c.nodes);
    BOOST_REQUIRE(again.size() == tracks.size());
    for (size_t i = 0; i < tracks.size(); ++i) {
        BOOST_REQUIRE(again[i].keys.size() == tracks[i].keys.size());
        for (size_t k = 0; k < tracks[i].keys.size(); ++k)
            BOOST_TEST(same_key(again[i].keys[k], tracks[i].keys[k]));
    }
    // Sampling the rebuilt animation gives the same poses.
    for (float time : {0.0f, 1.25f, 3.5f, 4.0f, 6.5f, 10.0f, 12.0f}) {
        const Pose p = sample(c.animation, c.nodes[1], time);
        const Pose q = sample(t.anim, t.nodes[1], time);
        BOOST_TEST(p.pos == q.pos);
        BOOST_TEST(p.rot == q.rot);
    }
}

BOOST_AUTO_TEST_CASE(compose_static_model) {
    std::vector<Track> tracks(3);
    for (size_t i = 0; i < 3; ++i) tracks[i].keys = {key(0, {float(i), 0, 0})};
    const Composed c = compose(tracks);
    BOOST_TEST(c.animation.words.empty());
    BOOST_TEST(c.animation.frame_count == 1u);
    for (size_t i = 0; i < 3; ++i) {
        BOOST_TEST(c.nodes[i].map_start == kNoMap);
        BOOST_TEST(c.nodes[i].fallback_key == i);
    }
    DiagnosticSink sink(ReadMode::Tolerant);
    validate(c.animation, c.nodes, sink, "");
    BOOST_TEST(sink.diagnostics().empty(), dump(sink));
}

BOOST_AUTO_TEST_CASE(compose_key_limit) {
    std::vector<Track> tracks(65535);
    for (auto& t : tracks) t.keys = {key(0, {0, 0, 0})};
    const Composed c = compose(tracks);
    BOOST_TEST(c.nodes.back().fallback_key == 65534);
    tracks.emplace_back();
    tracks.back().keys = {key(0, {0, 0, 0})};
    try {
        compose(tracks);
        BOOST_FAIL("expected FormatError");
    } catch (const FormatError& e) {
        BOOST_TEST(std::string(e.what()).find("65535") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(compose_map_start_limit) {
    std::vector<Track> tracks(2);
    tracks[0].keys = {key(0, {0, 0, 0}), key(65533, {1, 0, 0})}; // F = 65534
    tracks[1].keys = {key(0, {0, 0, 0}), key(1, {1, 0, 0})};
    const Composed ok = compose(tracks);
    BOOST_TEST(ok.nodes[1].map_start == 0xFFFE);
    BOOST_TEST(ok.animation.words.size() == 2u * 65534u);
    tracks[0].keys[1].time = 65534; // F = 65535: the second block would start at 0xFFFF
    try {
        compose(tracks);
        BOOST_FAIL("expected FormatError");
    } catch (const FormatError& e) {
        BOOST_TEST(e.resource() == "Res1 node 1");
        BOOST_TEST(std::string(e.what()).find("0xFFFE") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(compose_rejects_bad_tracks) {
    std::vector<Track> tracks(2);
    tracks[0].keys = {key(0, {0, 0, 0})};
    // Empty track.
    try {
        compose(tracks);
        BOOST_FAIL("expected FormatError");
    } catch (const FormatError& e) {
        BOOST_TEST(e.resource() == "Res1 node 1");
    }
    // Equal times.
    tracks[1].keys = {key(0, {0, 0, 0}), key(3, {0, 0, 0}), key(3, {1, 0, 0})};
    BOOST_CHECK_THROW(compose(tracks), FormatError);
    // Decreasing times.
    tracks[1].keys = {key(0, {0, 0, 0}), key(3, {0, 0, 0}), key(2, {1, 0, 0})};
    BOOST_CHECK_THROW(compose(tracks), FormatError);
    // Non-whole time.
    tracks[1].keys = {key(0, {0, 0, 0}), key(2.5f, {0, 0, 0})};
    BOOST_CHECK_THROW(compose(tracks), FormatError);
    // Negative time.
    tracks[1].keys = {key(-1, {0, 0, 0}), key(2, {0, 0, 0})};
    BOOST_CHECK_THROW(compose(tracks), FormatError);
    // NaN time.
    tracks[1].keys = {key(0, {0, 0, 0}), key(std::numeric_limits<float>::quiet_NaN(), {})};
    BOOST_CHECK_THROW(compose(tracks), FormatError);
    // And a good one passes.
    tracks[1].keys = {key(0, {0, 0, 0}), key(2, {0, 0, 0})};
    BOOST_CHECK_NO_THROW(compose(tracks));
}

// ---- validation ----

BOOST_AUTO_TEST_CASE(validate_canonical_is_clean) {
    const TwoNode t = two_node();
    DiagnosticSink sink(ReadMode::Tolerant);
    validate(t.anim, t.nodes, sink, "");
    BOOST_TEST(sink.diagnostics().empty(), dump(sink));
}

BOOST_AUTO_TEST_CASE(validate_fallback_outside_pool) {
    TwoNode t = two_node();
    t.nodes[1].fallback_key = 4; // == keyCount
    DiagnosticSink sink(ReadMode::Tolerant);
    validate(t.anim, t.nodes, sink, "");
    BOOST_TEST(has_diag(sink, Severity::Error, "Res1 node 1", "outside the key pool"), dump(sink));
    bool offset_ok = false;
    for (const auto& d : sink.diagnostics())
        if (d.resource == "Res1 node 1" && d.severity == Severity::Error)
            offset_ok |= d.offset == 44;
    BOOST_TEST(offset_ok); // node 1 * 38 + 6
}

BOOST_AUTO_TEST_CASE(validate_block_past_words) {
    TwoNode t = two_node();
    t.nodes[1].map_start = 1; // 1 + 11 > 11 words
    DiagnosticSink sink(ReadMode::Tolerant);
    validate(t.anim, t.nodes, sink, "TANK.msh");
    BOOST_TEST(has_diag(sink, Severity::Error, "TANK.msh: Res1 node 1", "exceeds"), dump(sink));
    // Also not back-to-back.
    BOOST_TEST(has_diag(sink, Severity::Warning, "TANK.msh: Res1 node 1", "back-to-back"));
}

BOOST_AUTO_TEST_CASE(validate_word_out_of_range) {
    TwoNode t = two_node();
    t.nodes[1].fallback_key = 9; // also an error by itself
    t.anim.words[6] = 5;         // 5 < 9 but key 6 does not exist
    DiagnosticSink sink(ReadMode::Tolerant);
    validate(t.anim, t.nodes, sink, "");
    BOOST_TEST(has_diag(sink, Severity::Error, "Res19", "word 5"), dump(sink));
    bool offset_ok = false;
    for (const auto& d : sink.diagnostics())
        if (d.resource == "Res19" && d.severity == Severity::Error) offset_ok |= d.offset == 12;
    BOOST_TEST(offset_ok); // word 6 * 2
    // Words 1 and 2 (< 9) name segments inside the pool; word 3 at frame 10 (canonical fallback
    // before hdr3 moved) does not: exactly one more bad word.
    BOOST_TEST(has_diag(sink, Severity::Error, "Res19", "(and 1 more)"), dump(sink));
}

BOOST_AUTO_TEST_CASE(validate_frame_count_zero) {
    TwoNode t = two_node();
    t.anim.frame_count = 0;
    DiagnosticSink sink(ReadMode::Tolerant);
    validate(t.anim, t.nodes, sink, "");
    BOOST_TEST(has_diag(sink, Severity::Error, "Res19", "frame count"), dump(sink));
}

BOOST_AUTO_TEST_CASE(validate_non_canonical_word_warns) {
    TwoNode t = two_node();
    t.anim.words[2] = 2; // valid (2 < fb = 3, key 3 exists) but not canonical (1)
    DiagnosticSink sink(ReadMode::Tolerant);
    validate(t.anim, t.nodes, sink, "");
    BOOST_TEST(!sink.has_errors(), dump(sink));
    BOOST_TEST(count_sev(sink, Severity::Warning) == 1u, dump(sink));
    BOOST_TEST(has_diag(sink, Severity::Warning, "Res19", "canonical"));
    BOOST_TEST(sink.diagnostics().front().offset == 4u);
    // A fallback word above hdr3 is valid but also not canonical.
    t = two_node();
    t.anim.words[10] = 7;
    DiagnosticSink sink2(ReadMode::Tolerant);
    validate(t.anim, t.nodes, sink2, "");
    BOOST_TEST(!sink2.has_errors(), dump(sink2));
    BOOST_TEST(has_diag(sink2, Severity::Warning, "Res19", "canonical"));
}

BOOST_AUTO_TEST_CASE(validate_non_canonical_structure_warns) {
    TwoNode t = two_node();
    t.anim.keys[1].time = 1;   // first key not at 0
    t.anim.keys[2].time = 4.5; // not whole
    t.anim.frame_count = 11;
    DiagnosticSink sink(ReadMode::Tolerant);
    validate(t.anim, t.nodes, sink, "");
    BOOST_TEST(!sink.has_errors(), dump(sink));
    BOOST_TEST(has_diag(sink, Severity::Warning, "Res8", "not 0"), dump(sink));
    BOOST_TEST(has_diag(sink, Severity::Warning, "Res8", "whole"), dump(sink));

    t = two_node();
    t.anim.keys[2].time = 0; // times not increasing in node 1
    DiagnosticSink sink2(ReadMode::Tolerant);
    validate(t.anim, t.nodes, sink2, "");
    BOOST_TEST(has_diag(sink2, Severity::Warning, "Res8", "not greater"), dump(sink2));

    t = two_node();
    t.anim.frame_count = 12; // != last time + 1, and word count != 1 x 12
    t.anim.words.push_back(3);
    DiagnosticSink sink3(ReadMode::Tolerant);
    validate(t.anim, t.nodes, sink3, "");
    BOOST_TEST(has_diag(sink3, Severity::Warning, "Res19", "last key time"), dump(sink3));

    t = two_node();
    t.anim.words.push_back(3); // a stray word: 12 != 1 x 11
    DiagnosticSink sink4(ReadMode::Tolerant);
    validate(t.anim, t.nodes, sink4, "");
    BOOST_TEST(has_diag(sink4, Severity::Warning, "Res19", "word count"), dump(sink4));

    // Static model with frame count 2.
    Animation s;
    s.keys = {key(0, {0, 0, 0})};
    s.frame_count = 2;
    DiagnosticSink sink5(ReadMode::Tolerant);
    validate(s, {NodeFields{kNoMap, 0}}, sink5, "");
    BOOST_TEST(has_diag(sink5, Severity::Warning, "Res19", "static"), dump(sink5));
}

BOOST_AUTO_TEST_CASE(validate_garbage_is_bounds_safe) {
    std::mt19937 rng(1998);
    auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
    for (int round = 0; round < 300; ++round) {
        Animation a;
        a.keys.resize(pick(8));
        for (auto& k : a.keys) k.time = float(int(pick(6)) - 1) * (pick(4) == 0 ? 0.5f : 1.0f);
        a.words.resize(pick(24));
        for (auto& w : a.words) w = uint16_t(pick(4) == 0 ? 0xFFFF : pick(10));
        a.frame_count = pick(5) == 0 ? 0xFFFFFFFFu : pick(8);
        std::vector<NodeFields> nodes(pick(5));
        for (auto& n : nodes) {
            n.map_start = uint16_t(pick(3) == 0 ? kNoMap : pick(30));
            n.fallback_key = uint16_t(pick(5) == 0 ? 0xFFFF : pick(10));
        }
        DiagnosticSink sink(ReadMode::Tolerant);
        BOOST_CHECK_NO_THROW(validate(a, nodes, sink, "fuzz"));
        // The sampler either answers or reports invalid data; it never reads out of bounds.
        for (const auto& n : nodes)
            for (float time : {-1.0f, 0.0f, 1.5f, 3.0f, 40.0f}) {
                try {
                    sample(a, n, time);
                } catch (const FormatError&) {
                }
            }
    }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace anim_tests
