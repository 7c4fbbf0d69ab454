// MSH animation (spec animation.md): key pool decomposition, canonical writer, validation and the
// engine's sampler/blend.
#include "anim.hpp"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace msh::anim {

namespace {

constexpr size_t kKeyStride = 24;
constexpr size_t kNodeStride = 38;
constexpr size_t kHdr2Offset = 4;
constexpr size_t kHdr3Offset = 6;
constexpr size_t kMaxKeys = 65535;         // key indices are u16 (animation.md §9)
constexpr size_t kMaxMapStart = 0xFFFE;    // 0xFFFF means "no map"
constexpr double kMaxKeyTime = 16777215.0; // 2^24 - 1: every frame number stays exact in float

std::string node_label(size_t i) {
    return "Res1 node " + std::to_string(i);
}
uint64_t hdr2_offset(size_t i) {
    return uint64_t(i) * kNodeStride + kHdr2Offset;
}
uint64_t hdr3_offset(size_t i) {
    return uint64_t(i) * kNodeStride + kHdr3Offset;
}
uint64_t key_offset(size_t k) {
    return uint64_t(k) * kKeyStride;
}
uint64_t word_offset(size_t w) {
    return uint64_t(w) * 2;
}

std::string fmt(double v) {
    // Nine significant digits tell any two floats apart (3 vs 2.99999976).
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

bool whole_non_negative(float t) {
    return std::isfinite(t) && t >= 0 && std::floor(t) == t;
}

// Canonical map construction (animation.md §4) for the track keys[start..end] (times strictly
// increasing): `frames` words, the left key of the segment holding f, or `end` outside the track.
void append_canonical_map(const std::vector<Key>& keys, size_t start, size_t end, uint32_t frames,
                          std::vector<uint16_t>& out) {
    const double t_start = keys[start].time;
    const double t_end = keys[end].time;
    size_t idx = start;
    for (uint32_t f = 0; f < frames; ++f) {
        const double fd = f;
        if (fd < t_start || fd >= t_end) {
            out.push_back(uint16_t(end));
            continue;
        }
        while (idx + 1 < end && double(keys[idx + 1].time) <= fd) ++idx;
        out.push_back(uint16_t(idx));
    }
}

Pose pose_of(const Key& k, KeyQuaternion order) {
    Pose p;
    p.pos = k.pos;
    if (k.rot == std::array<int16_t, 4>{0, 0, 0, 0})
        p.rot = Quat{0, 0, 0, 1}; // all-zero rotation evaluates as identity (animation.md §2)
    else
        p.rot = decode_quat(k.rot, order);
    return p;
}

double dot4(const Quat& a, const Quat& b) {
    return double(a[0]) * b[0] + double(a[1]) * b[1] + double(a[2]) * b[2] + double(a[3]) * b[3];
}

// Round half to even without relying on the rounding mode (floor and the subtraction are exact
// for |x| < 2^52, which covers every x = float - 0.5 that fits an int64 meaningfully).
int64_t round_half_even(double x) {
    const double fl = std::floor(x);
    const double diff = x - fl;
    double r = fl;
    if (diff > 0.5 || (diff == 0.5 && std::fmod(fl, 2.0) != 0)) r = fl + 1;
    if (!(std::fabs(r) < 9223372036854775808.0)) return std::numeric_limits<int64_t>::min();
    return int64_t(r);
}

} // namespace

Quat decode_quat(const std::array<int16_t, 4>& q, KeyQuaternion order) {
    constexpr float s = 1.0f / 32767.0f;
    if (order == KeyQuaternion::Wxyz) // w first; the stored rotation is the conjugate
        return Quat{-float(q[1]) * s, -float(q[2]) * s, -float(q[3]) * s, float(q[0]) * s};
    return Quat{float(q[0]) * s, float(q[1]) * s, float(q[2]) * s, float(q[3]) * s};
}

std::array<int16_t, 4> encode_quat(Quat q, KeyQuaternion order) {
    if (order == KeyQuaternion::Wxyz) {
        const std::array<int16_t, 4> x = encode_quat(q, KeyQuaternion::Xyzw);
        return {x[3], int16_t(-x[0]), int16_t(-x[1]), int16_t(-x[2])}; // |x[i]| <= 32767
    }
    double n2 = 0;
    for (float c : q) n2 += double(c) * c;
    if (!std::isfinite(n2)) throw std::invalid_argument("encode_quat: non-finite quaternion");
    if (n2 == 0) return {0, 0, 0, 32767};
    const double n = std::sqrt(n2);
    std::array<int16_t, 4> out{};
    for (size_t i = 0; i < 4; ++i) {
        const double v = std::round(double(q[i]) / n * 32767.0);
        out[i] = int16_t(std::clamp(v, -32767.0, 32767.0));
    }
    return out;
}

std::vector<Track> decompose(const Animation& a, const std::vector<NodeFields>& nodes) {
    std::vector<Track> tracks;
    tracks.reserve(nodes.size());
    size_t start = 0;
    for (size_t i = 0; i < nodes.size(); ++i) {
        const size_t end = nodes[i].fallback_key;
        if (end >= a.keys.size())
            throw FormatError(node_label(i), hdr3_offset(i),
                              "track ends at key " + std::to_string(end) +
                                  " (hdr3), outside the key pool of " +
                                  std::to_string(a.keys.size()) + " keys");
        if (end < start)
            throw FormatError(node_label(i), hdr3_offset(i),
                              "empty track: hdr3 = " + std::to_string(end) +
                                  " is below the track start " + std::to_string(start) +
                                  " (previous node's hdr3 + 1)");
        Track t;
        t.keys.assign(a.keys.begin() + std::ptrdiff_t(start),
                      a.keys.begin() + std::ptrdiff_t(end) + 1);
        tracks.push_back(std::move(t));
        start = end + 1;
    }
    return tracks;
}

Composed compose(const std::vector<Track>& tracks) {
    // Check every track and find F before writing anything.
    size_t total_keys = 0;
    double max_last = 0;
    for (size_t i = 0; i < tracks.size(); ++i) {
        const std::vector<Key>& keys = tracks[i].keys;
        if (keys.empty())
            throw FormatError(node_label(i), key_offset(total_keys),
                              "track has no keys (a node needs at least one)");
        for (size_t k = 0; k < keys.size(); ++k) {
            const float t = keys[k].time;
            if (!whole_non_negative(t))
                throw FormatError(node_label(i), key_offset(total_keys + k),
                                  "track key " + std::to_string(k) + " time " + fmt(t) +
                                      " is not a whole, non-negative frame number");
            if (t > kMaxKeyTime)
                throw FormatError(node_label(i), key_offset(total_keys + k),
                                  "track key " + std::to_string(k) + " time " + fmt(t) +
                                      " exceeds the largest supported frame 16777215");
            if (k > 0 && !(t > keys[k - 1].time))
                throw FormatError(node_label(i), key_offset(total_keys + k),
                                  "key times are not strictly increasing: track key " +
                                      std::to_string(k) + " at " + fmt(t) + " follows " +
                                      fmt(keys[k - 1].time));
        }
        total_keys += keys.size();
        max_last = std::max(max_last, double(keys.back().time));
    }
    if (total_keys > kMaxKeys)
        throw FormatError("Res8", key_offset(kMaxKeys),
                          std::to_string(total_keys) +
                              " keys exceed the limit of 65535 (key indices are u16)");
    const uint32_t frames = uint32_t(max_last) + 1;

    Composed c;
    c.animation.frame_count = frames;
    c.animation.keys.reserve(total_keys);
    c.nodes.reserve(tracks.size());
    for (size_t i = 0; i < tracks.size(); ++i) {
        const std::vector<Key>& keys = tracks[i].keys;
        const size_t start = c.animation.keys.size();
        c.animation.keys.insert(c.animation.keys.end(), keys.begin(), keys.end());
        const size_t end = c.animation.keys.size() - 1;
        NodeFields n;
        n.fallback_key = uint16_t(end);
        if (keys.size() >= 2) {
            const size_t map_start = c.animation.words.size();
            if (map_start > kMaxMapStart)
                throw FormatError(node_label(i), hdr2_offset(i),
                                  "map start " + std::to_string(map_start) +
                                      " would exceed 0xFFFE (65534), the largest hdr2 value");
            n.map_start = uint16_t(map_start);
            append_canonical_map(c.animation.keys, start, end, frames, c.animation.words);
        } else {
            n.map_start = kNoMap;
        }
        c.nodes.push_back(n);
    }
    return c;
}

void validate(const Animation& a, const std::vector<NodeFields>& nodes, DiagnosticSink& sink,
              const std::string& where) {
    auto res = [&](const std::string& name) { return where.empty() ? name : where + ": " + name; };
    auto node_res = [&](size_t i) { return res(node_label(i)); };
    auto more = [](size_t n) {
        return n > 0 ? " (and " + std::to_string(n) + " more)" : std::string();
    };
    const size_t key_count = a.keys.size();
    const size_t word_count = a.words.size();
    const uint32_t frames = a.frame_count;

    if (frames == 0)
        sink.error(res("Res19"), 0, "frame count (Res19.attr2) is 0; it must be at least 1");

    // All key times are whole, non-negative numbers (non-canonical otherwise).
    {
        size_t bad = 0, first = 0;
        for (size_t k = 0; k < key_count; ++k)
            if (!whole_non_negative(a.keys[k].time) && bad++ == 0) first = k;
        if (bad > 0)
            sink.warn(res("Res8"), key_offset(first),
                      "key " + std::to_string(first) + " time " + fmt(a.keys[first].time) +
                          " is not a whole, non-negative frame number" + more(bad - 1));
    }

    size_t animated = 0;
    size_t cursor = 0;          // where the next map block should start (back-to-back rule)
    bool have_end_time = false; // max end time over the nodes whose track is usable
    double max_end_time = 0;
    for (size_t i = 0; i < nodes.size(); ++i) {
        const size_t fb = nodes[i].fallback_key;
        const size_t ms = nodes[i].map_start;
        const bool mapped = nodes[i].map_start != kNoMap;
        const bool fb_ok = fb < key_count;
        if (!fb_ok)
            sink.error(node_res(i), hdr3_offset(i),
                       "hdr3 (fallback key) = " + std::to_string(fb) +
                           " is outside the key pool of " + std::to_string(key_count) + " keys");

        // Track [start, fb]; start = previous hdr3 + 1.
        const size_t start = i == 0 ? 0 : size_t(nodes[i - 1].fallback_key) + 1;
        if (i > 0 && fb < start)
            sink.warn(node_res(i), hdr3_offset(i),
                      "hdr3 = " + std::to_string(fb) +
                          " does not exceed the previous node's hdr3 = " +
                          std::to_string(nodes[i - 1].fallback_key) + ": the track is empty");
        const bool track_ok = fb_ok && start <= fb;
        bool times_increasing = false;
        if (track_ok) {
            const size_t count = fb - start + 1;
            size_t bad = 0, first = 0;
            for (size_t k = start + 1; k <= fb; ++k)
                if (!(a.keys[k].time > a.keys[k - 1].time) && bad++ == 0) first = k;
            times_increasing = bad == 0;
            if (bad > 0)
                sink.warn(res("Res8"), key_offset(first),
                          "node " + std::to_string(i) + ": key " + std::to_string(first) +
                              " time " + fmt(a.keys[first].time) +
                              " is not greater than the previous key's " +
                              fmt(a.keys[first - 1].time) + more(bad - 1));
            if (a.keys[start].time != 0)
                sink.warn(res("Res8"), key_offset(start),
                          "node " + std::to_string(i) + ": first key " + std::to_string(start) +
                              " has time " + fmt(a.keys[start].time) + ", not 0");
            if (mapped && count < 2)
                sink.warn(node_res(i), hdr2_offset(i),
                          "node has a frame map but only one key (a mapped node needs >= 2)");
            if (!mapped && count > 1)
                sink.warn(node_res(i), hdr2_offset(i),
                          "node has no frame map but " + std::to_string(count) +
                              " keys; only the fallback key " + std::to_string(fb) +
                              " is ever sampled");
            const double end_time = a.keys[fb].time;
            if (!have_end_time || end_time > max_end_time) max_end_time = end_time;
            have_end_time = true;
        }

        if (!mapped) continue;
        ++animated;
        if (ms != cursor)
            sink.warn(node_res(i), hdr2_offset(i),
                      "map block starts at word " + std::to_string(ms) + ", expected " +
                          std::to_string(cursor) + " (blocks are back-to-back in node order)");
        cursor = ms + frames;

        const uint64_t block_end = uint64_t(ms) + frames;
        if (block_end > word_count)
            sink.error(node_res(i), hdr2_offset(i),
                       "map block [" + std::to_string(ms) + ", " + std::to_string(block_end) +
                           ") exceeds the " + std::to_string(word_count) + " words of Res19");
        const size_t last = size_t(std::min<uint64_t>(block_end, word_count));

        // Every word is a fallback (>= hdr3) or names a segment [w, w + 1] inside the pool.
        {
            size_t bad = 0, first = 0;
            for (size_t j = ms; j < last; ++j) {
                const size_t w = a.words[j];
                if (!(w >= fb || w + 1 < key_count) && bad++ == 0) first = j;
            }
            if (bad > 0)
                sink.error(res("Res19"), word_offset(first),
                           "node " + std::to_string(i) + " frame " + std::to_string(first - ms) +
                               ": word " + std::to_string(a.words[first]) +
                               " is below hdr3 = " + std::to_string(fb) + " but segment key " +
                               std::to_string(a.words[first] + 1u) +
                               " is outside the key pool of " + std::to_string(key_count) +
                               " keys" + more(bad - 1));
        }

        // Every word equals the canonical construction.
        if (track_ok && times_increasing && block_end <= word_count && frames > 0) {
            std::vector<uint16_t> canon;
            canon.reserve(frames);
            append_canonical_map(a.keys, start, fb, frames, canon);
            size_t bad = 0, first = 0;
            for (size_t f = 0; f < frames; ++f)
                if (a.words[ms + f] != canon[f] && bad++ == 0) first = f;
            if (bad > 0)
                sink.warn(res("Res19"), word_offset(ms + first),
                          "node " + std::to_string(i) + " frame " + std::to_string(first) +
                              ": word " + std::to_string(a.words[ms + first]) +
                              " differs from the canonical " + std::to_string(canon[first]) +
                              more(bad - 1));
        }
    }

    if (!nodes.empty()) {
        const size_t used = size_t(nodes.back().fallback_key) + 1;
        if (used < key_count)
            sink.warn(res("Res8"), key_offset(used),
                      "keys " + std::to_string(used) + ".." + std::to_string(key_count - 1) +
                          " follow the last node's track and belong to no node");
    }
    if (have_end_time && frames > 0 && double(frames) != max_end_time + 1)
        sink.warn(res("Res19"), 0,
                  "frame count " + std::to_string(frames) +
                      " differs from the last key time + 1 = " + fmt(max_end_time + 1));
    if (uint64_t(animated) * frames != word_count)
        sink.warn(res("Res19"), 0,
                  "word count " + std::to_string(word_count) + " differs from " +
                      std::to_string(animated) + " animated nodes x frame count " +
                      std::to_string(frames));
    if (word_count == 0 && (frames != 1 || animated > 0))
        sink.warn(res("Res19"), 0,
                  "static model (empty Res19) should have frame count 1 and no node maps "
                  "(frame count " +
                      std::to_string(frames) + ", " + std::to_string(animated) + " mapped nodes)");
}

// Assumes the default floating-point environment (FE_TONEAREST), as the game's x87 control word
// does. Should a caller have changed the rounding mode, a mode-independent ties-to-even rounding
// gives the same result instead of llrint.
uint32_t frame_index(float t) {
    double x = double(t) - 0.5; // exact for |t| < 2^53
    if (std::fegetround() != FE_TONEAREST) return uint32_t(round_half_even(x));
    int64_t r = std::llrint(x); // FISTP: round to nearest, ties to even
    return uint32_t(r);         // low 32 bits; negative -> huge -> fallback
}

// Bounds are checked exactly where the engine would read: the fallback key only when it is
// returned, the map word, and the segment [k, k + 1] (checked as a whole even when t equals
// key k's time, since such a word names a segment that does not exist).
Pose sample(const Animation& a, const NodeFields& node, float t) {
    const size_t fb = node.fallback_key;
    auto fallback = [&] {
        if (fb >= a.keys.size())
            throw FormatError("Res8", key_offset(fb),
                              "fallback key (hdr3) " + std::to_string(fb) +
                                  " is outside the key pool of " + std::to_string(a.keys.size()) +
                                  " keys");
        return pose_of(a.keys[fb], a.key_order);
    };
    const uint32_t frame = frame_index(t);
    if (frame >= a.frame_count || node.map_start == kNoMap) return fallback();
    const size_t wi = size_t(node.map_start) + frame;
    if (wi >= a.words.size())
        throw FormatError("Res19", word_offset(wi),
                          "frame " + std::to_string(frame) + " of the map block at word " +
                              std::to_string(node.map_start) + " is past the " +
                              std::to_string(a.words.size()) + " words of Res19");
    const size_t k = a.words[wi];
    if (k >= fb) return fallback();
    if (k + 1 >= a.keys.size())
        throw FormatError("Res19", word_offset(wi),
                          "map word " + std::to_string(k) + " (frame " + std::to_string(frame) +
                              ") names a segment whose right key is outside the key pool of " +
                              std::to_string(a.keys.size()) + " keys");
    const Key& k0 = a.keys[k];
    const Key& k1 = a.keys[k + 1];
    if (t == k0.time) return pose_of(k0, a.key_order);
    if (t == k1.time) return pose_of(k1, a.key_order);
    const float alpha = (t - k0.time) / (k1.time - k0.time);
    const Pose p0 = pose_of(k0, a.key_order);
    const Pose p1 = pose_of(k1, a.key_order);
    Pose out;
    for (size_t c = 0; c < 3; ++c) out.pos[c] = k0.pos[c] + alpha * (k1.pos[c] - k0.pos[c]);
    out.rot = slerp(p0.rot, p1.rot, alpha);
    return out;
}

Quat slerp(const Quat& a, const Quat& b, float t) {
    const double tt = t;
    const double cosv = std::clamp(dot4(a, b), -1.0, 1.0);
    Quat out{};
    if (cosv > 0.9999995) {
        // Tiny angle: normalised lerp.
        double q[4];
        double n2 = 0;
        for (size_t i = 0; i < 4; ++i) {
            q[i] = double(a[i]) + tt * (double(b[i]) - double(a[i]));
            n2 += q[i] * q[i];
        }
        const double n = n2 > 0 ? std::sqrt(n2) : 1.0;
        for (size_t i = 0; i < 4; ++i) out[i] = float(q[i] / n);
        return out;
    }
    if (cosv < -0.9999995) {
        // b is (almost) -a: the arc is half a great circle and its plane is not determined by the
        // endpoints; rotate through a quaternion perpendicular to a.
        const Quat p{-a[1], a[0], -a[3], a[2]};
        const double ang = tt * 3.14159265358979323846;
        const double wa = std::cos(ang), wp = std::sin(ang);
        for (size_t i = 0; i < 4; ++i) out[i] = float(wa * a[i] + wp * p[i]);
        return out;
    }
    const double theta = std::acos(cosv);
    const double s = std::sin(theta);
    const double wa = std::sin((1 - tt) * theta) / s;
    const double wb = std::sin(tt * theta) / s;
    for (size_t i = 0; i < 4; ++i) out[i] = float(wa * a[i] + wb * b[i]);
    return out;
}

std::array<float, 16> blend(const Pose& a, float time_a, const Pose& b, float time_b, float w) {
    const bool has_a = w < 1.0f && time_a >= 0.0f;
    const bool has_b = w > 0.0f && time_b >= 0.0f;
    auto single = [](const Pose& p) {
        std::array<float, 16> m = rotation_matrix(p.rot);
        m[3] = p.pos[0];
        m[7] = p.pos[1];
        m[11] = p.pos[2];
        return m;
    };
    if (has_a && !has_b) return single(a);
    if (!has_a && has_b) return single(b);
    if (!has_a && !has_b)
        throw std::invalid_argument("blend: neither pose is selected (weight " + fmt(w) +
                                    ", times " + fmt(time_a) + ", " + fmt(time_b) + ")");
    Quat qb = b.rot;
    double sum = 0, diff = 0;
    for (size_t i = 0; i < 4; ++i) {
        const double s = double(a.rot[i]) + qb[i];
        const double d = double(a.rot[i]) - qb[i];
        sum += s * s;
        diff += d * d;
    }
    if (sum < diff)
        for (float& c : qb) c = -c;
    std::array<float, 16> m = rotation_matrix(slerp(a.rot, qb, w));
    m[3] = (1 - w) * a.pos[0] + w * b.pos[0];
    m[7] = (1 - w) * a.pos[1] + w * b.pos[1];
    m[11] = (1 - w) * a.pos[2] + w * b.pos[2];
    return m;
}

std::array<float, 16> rotation_matrix(const Quat& q) {
    const float x = q[0], y = q[1], z = q[2], w = q[3];
    return {1 - 2 * (y * y + z * z),
            2 * (x * y - z * w),
            2 * (x * z + y * w),
            0,
            2 * (x * y + z * w),
            1 - 2 * (x * x + z * z),
            2 * (y * z - x * w),
            0,
            2 * (x * z - y * w),
            2 * (y * z + x * w),
            1 - 2 * (x * x + y * y),
            0,
            0,
            0,
            0,
            1};
}

} // namespace msh::anim
