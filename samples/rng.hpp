// Deterministic random numbers for the sample corpus: splitmix64 seeding a mt19937_64, with our
// own uniform helpers (the std distributions differ between standard libraries).
#pragma once

#include <cstdint>
#include <random>
#include <string_view>

namespace msh::samples {

inline uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// FNV-1a, used to give every model its own stream derived from the corpus seed and its name.
inline uint64_t hash_name(std::string_view s) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (char c : s) {
        h ^= uint8_t(c);
        h *= 0x100000001B3ull;
    }
    return h;
}

class Rng {
  public:
    explicit Rng(uint64_t seed) {
        uint64_t s = seed;
        engine_.seed(splitmix64(s));
    }
    Rng(uint64_t seed, std::string_view stream) : Rng(seed ^ hash_name(stream)) {}

    uint64_t next() { return engine_(); }
    // [0, 1)
    double unit() { return double(next() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
    // [lo, hi] inclusive
    int range(int lo, int hi) { return lo + int(next() % uint64_t(hi - lo + 1)); }
    bool chance(double p) { return unit() < p; }
    template <class T, size_t N> const T& pick(const T (&items)[N]) { return items[next() % N]; }

  private:
    std::mt19937_64 engine_;
};

} // namespace msh::samples
