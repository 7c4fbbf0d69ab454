// Little-endian load/store helpers. All readers go through these so that no record is read past
// the end of its buffer: callers check ranges first, these assert nothing but never alias.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace msh {

using Bytes = std::vector<uint8_t>;
using ByteView = std::span<const uint8_t>;

static_assert(std::endian::native == std::endian::little, "mshconv assumes a little-endian host");

template <class T> inline T load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}
template <class T> inline T load(ByteView b, size_t off) {
    return load<T>(b.data() + off);
}

template <class T> inline void store(uint8_t* p, T v) {
    std::memcpy(p, &v, sizeof(T));
}

// Appends values to a growing byte buffer (writers).
class ByteWriter {
  public:
    Bytes& bytes() { return out_; }
    size_t size() const { return out_.size(); }
    template <class T> void put(T v) {
        size_t at = out_.size();
        out_.resize(at + sizeof(T));
        std::memcpy(out_.data() + at, &v, sizeof(T));
    }
    void put_bytes(ByteView b) { out_.insert(out_.end(), b.begin(), b.end()); }
    void put_zeros(size_t n) { out_.insert(out_.end(), n, uint8_t(0)); }
    template <class T> void patch(size_t at, T v) { std::memcpy(out_.data() + at, &v, sizeof(T)); }
    Bytes take() { return std::move(out_); }

  private:
    Bytes out_;
};

// The bytes of a vector of plain values, as they lie in memory (little-endian on every target).
template <class T> inline Bytes pod_bytes(const std::vector<T>& v) {
    Bytes out(v.size() * sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), v.data(), out.size());
    return out;
}

// The same bytes without a copy (they live as long as `v` is unchanged).
template <class T> inline ByteView pod_view(const std::vector<T>& v) {
    return ByteView(reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T));
}

inline uint64_t align8(uint64_t v) {
    return (v + 7) & ~uint64_t(7);
}

// True when [off, off + len) lies inside a buffer of `size` bytes (computed without overflow).
inline bool in_range(uint64_t off, uint64_t len, uint64_t size) {
    return off <= size && len <= size - off;
}

} // namespace msh
