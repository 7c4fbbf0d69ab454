#include "base64.hpp"

#include <array>
#include <stdexcept>

namespace msh::sidecar {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// 6-bit value of each base64 character; 0xFF for anything else (including '=').
constexpr std::array<uint8_t, 256> decode_table() {
    std::array<uint8_t, 256> t{};
    for (auto& v : t) v = 0xFF;
    for (uint8_t i = 0; i < 64; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = i;
    return t;
}
constexpr std::array<uint8_t, 256> kDecode = decode_table();

} // namespace

// Table-driven (RFC 4648, with '=' padding): terrain sidecars carry megabytes of it.
std::string to_base64(ByteView bytes) {
    const size_t n = bytes.size();
    std::string s((n + 2) / 3 * 4, '=');
    const uint8_t* p = bytes.data();
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3, o += 4) {
        const uint32_t v = uint32_t(p[i]) << 16 | uint32_t(p[i + 1]) << 8 | p[i + 2];
        s[o] = kAlphabet[v >> 18];
        s[o + 1] = kAlphabet[(v >> 12) & 63];
        s[o + 2] = kAlphabet[(v >> 6) & 63];
        s[o + 3] = kAlphabet[v & 63];
    }
    if (const size_t rest = n - i; rest > 0) {
        const uint32_t v = uint32_t(p[i]) << 16 | (rest == 2 ? uint32_t(p[i + 1]) << 8 : 0);
        s[o] = kAlphabet[v >> 18];
        s[o + 1] = kAlphabet[(v >> 12) & 63];
        if (rest == 2) s[o + 2] = kAlphabet[(v >> 6) & 63];
    }
    return s;
}

Bytes from_base64(const std::string& text) {
    if (text.size() % 4 != 0)
        throw std::invalid_argument("base64 text length is not a multiple of 4");
    size_t pad = 0;
    while (pad < 2 && pad < text.size() && text[text.size() - 1 - pad] == '=') ++pad;
    const size_t body = text.size() - pad;
    Bytes out(text.size() / 4 * 3 - pad);
    uint32_t acc = 0;
    size_t o = 0;
    for (size_t i = 0; i < body; ++i) {
        const uint8_t v = kDecode[static_cast<unsigned char>(text[i])];
        if (v == 0xFF)
            throw std::invalid_argument("invalid base64 character at " + std::to_string(i));
        acc = acc << 6 | v;
        if (i % 4 == 3) {
            out[o++] = uint8_t(acc >> 16);
            out[o++] = uint8_t(acc >> 8);
            out[o++] = uint8_t(acc);
            acc = 0;
        }
    }
    // The last group with padding: 2 characters -> 1 byte, 3 -> 2 bytes (padding bits as zero).
    if (pad == 2) {
        acc <<= 12;
        out[o++] = uint8_t(acc >> 16);
    } else if (pad == 1) {
        acc <<= 6;
        out[o++] = uint8_t(acc >> 16);
        out[o++] = uint8_t(acc >> 8);
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
