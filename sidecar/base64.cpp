#include "base64.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace msh::sidecar {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Value of each base64 character; 64 = not in the alphabet.
constexpr auto kValue = [] {
    std::array<uint8_t, 256> t{};
    t.fill(64);
    for (uint8_t i = 0; i < 64; ++i) t[uint8_t(kAlphabet[i])] = i;
    return t;
}();

// Decoding a quad of characters a b c d into bytes x y z: one table per position holding the
// character's six bits already where they go in x | y << 8 | z << 16, so a quad is four lookups
// ORed together and stored as one 32-bit word; a character outside the alphabet sets bit 24.
constexpr uint32_t kNotBase64 = 1u << 24;
constexpr auto kQuadBits = [] {
    std::array<std::array<uint32_t, 256>, 4> t{};
    for (auto& position : t) position.fill(kNotBase64);
    for (uint32_t i = 0; i < 64; ++i) {
        const auto c = uint8_t(kAlphabet[i]);
        t[0][c] = i << 2;                        // x: bits 7..2
        t[1][c] = i >> 4 | (i & 15) << 12;       // x: bits 1..0, y: bits 7..4
        t[2][c] = (i >> 2) << 8 | (i & 3) << 22; // y: bits 3..0, z: bits 7..6
        t[3][c] = i << 16;                       // z: bits 5..0
    }
    return t;
}();

// The two characters of each 12-bit group, the first in the low byte (stored little-endian).
const auto kPairs = [] {
    std::array<uint16_t, 4096> t{};
    for (uint32_t v = 0; v < 4096; ++v)
        t[v] = uint16_t(uint8_t(kAlphabet[v >> 6]) | uint8_t(kAlphabet[v & 63]) << 8);
    return t;
}();

} // namespace

size_t base64_size(size_t bytes) {
    return (bytes + 2) / 3 * 4;
}

std::string to_base64(ByteView bytes) {
    std::string s;
    append_base64(s, bytes);
    return s;
}

void append_base64(std::string& out, ByteView bytes) {
    const size_t start = out.size();
    out.resize(start + base64_size(bytes.size()), '=');
    const uint8_t* p = bytes.data();
    char* o = out.data() + start;
    size_t i = 0;
    // Six bytes (four 12-bit groups, eight characters) per step, from one 8-byte load: a sidecar
    // carries its model in base64, and this loop was 8 % of a model's whole convert command.
    if constexpr (std::endian::native == std::endian::little)
        for (; i + 8 <= bytes.size(); i += 6, o += 8) {
            uint64_t v;
            std::memcpy(&v, p + i, 8);
            v = __builtin_bswap64(v) >> 16; // the six bytes, first one highest
            const uint64_t chars =
                uint64_t(kPairs[v >> 36]) | uint64_t(kPairs[(v >> 24) & 4095]) << 16 |
                uint64_t(kPairs[(v >> 12) & 4095]) << 32 | uint64_t(kPairs[v & 4095]) << 48;
            std::memcpy(o, &chars, 8);
        }
    for (; i + 3 <= bytes.size(); i += 3, o += 4) {
        const uint32_t v = uint32_t(p[i]) << 16 | uint32_t(p[i + 1]) << 8 | p[i + 2];
        o[0] = kAlphabet[v >> 18], o[1] = kAlphabet[(v >> 12) & 63];
        o[2] = kAlphabet[(v >> 6) & 63], o[3] = kAlphabet[v & 63];
    }
    if (const size_t left = bytes.size() - i) { // 1 or 2 bytes: zero bits after, '=' padding
        const uint32_t v = uint32_t(p[i]) << 16 | (left == 2 ? uint32_t(p[i + 1]) << 8 : 0);
        o[0] = kAlphabet[v >> 18], o[1] = kAlphabet[(v >> 12) & 63];
        if (left == 2) o[2] = kAlphabet[(v >> 6) & 63];
    }
}

Bytes from_base64(std::string_view text) {
    if (text.size() % 4 != 0)
        throw std::invalid_argument("base64 text length is not a multiple of 4");
    size_t pad = 0;
    while (pad < 2 && pad < text.size() && text[text.size() - 1 - pad] == '=') ++pad;
    const size_t body = text.size() - pad;
    auto bad_character = [&](size_t from) {
        for (size_t i = from; i < body; ++i)
            if (kValue[uint8_t(text[i])] == 64)
                throw std::invalid_argument("invalid base64 character at " + std::to_string(i));
    };
    Bytes out(text.size() / 4 * 3 - pad);
    const auto* in = reinterpret_cast<const uint8_t*>(text.data());
    // Whole quads without padding: four lookups, three bytes; a character outside the alphabet
    // sets kNotBase64 in `seen`, checked once per block of quads.
    const size_t whole = body / 4;
    uint8_t* o = out.data();
    constexpr size_t kBlock = 1024;
    for (size_t q0 = 0; q0 < whole; q0 += kBlock) {
        const size_t q1 = std::min(whole, q0 + kBlock);
        uint32_t seen = 0;
        size_t q = q0;
        // A 32-bit store writes one byte past the quad's three, which the next quad overwrites:
        // the last whole quad of the text takes the byte stores below.
        if constexpr (std::endian::native == std::endian::little)
            for (; q + 1 < whole && q < q1; ++q, o += 3) {
                const uint8_t* c = in + 4 * q;
                const uint32_t v = kQuadBits[0][c[0]] | kQuadBits[1][c[1]] | kQuadBits[2][c[2]] |
                                   kQuadBits[3][c[3]];
                seen |= v;
                std::memcpy(o, &v, 4);
            }
        for (; q < q1; ++q, o += 3) {
            const uint8_t* c = in + 4 * q;
            const uint32_t a = kValue[c[0]], b = kValue[c[1]], d = kValue[c[2]], e = kValue[c[3]];
            seen |= (a | b | d | e) & 64 ? kNotBase64 : 0;
            const uint32_t v = a << 18 | b << 12 | d << 6 | e;
            o[0] = uint8_t(v >> 16), o[1] = uint8_t(v >> 8), o[2] = uint8_t(v);
        }
        if (seen & kNotBase64) bad_character(4 * q0);
    }
    // The padded last quad: padding decodes as zero bits; bits past the data are ignored.
    bad_character(4 * whole);
    if (const size_t left = body - 4 * whole) {
        uint32_t v = 0;
        for (size_t k = 0; k < 4; ++k)
            v |= (k < left ? uint32_t(kValue[in[4 * whole + k]]) : 0u) << (18 - 6 * k);
        const uint8_t b[3] = {uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)};
        for (size_t k = 0; k < 3 && o < out.data() + out.size(); ++k) *o++ = b[k];
    }
    return out;
}

std::string to_hex(ByteView bytes) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    s.reserve(bytes.size() * 2);
    for (uint8_t c : bytes) s += {digits[c >> 4], digits[c & 15]};
    return s;
}

Bytes from_hex(const std::string& text) {
    auto nibble = [](char c) -> uint8_t {
        if (c >= '0' && c <= '9') return uint8_t(c - '0');
        if (c >= 'a' && c <= 'f') return uint8_t(c - 'a' + 10);
        if (c >= 'A' && c <= 'F') return uint8_t(c - 'A' + 10);
        throw std::invalid_argument(std::string("not a hex digit: '") + c + "'");
    };
    if (text.size() % 2) throw std::invalid_argument("odd hex length");
    Bytes out(text.size() / 2);
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = uint8_t(nibble(text[2 * i]) << 4 | nibble(text[2 * i + 1]));
    return out;
}

std::string hex64(uint64_t value) {
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, value >>= 4) s[size_t(i)] = "0123456789abcdef"[value & 15];
    return s;
}

} // namespace msh::sidecar
