#include "base64.hpp"

#include <boost/archive/iterators/base64_from_binary.hpp>
#include <boost/archive/iterators/binary_from_base64.hpp>
#include <boost/archive/iterators/transform_width.hpp>

#include <stdexcept>

namespace msh::sidecar {

namespace it = boost::archive::iterators;

std::string to_base64(ByteView bytes) {
    using Encoder = it::base64_from_binary<it::transform_width<const uint8_t*, 6, 8>>;
    std::string s(Encoder(bytes.data()), Encoder(bytes.data() + bytes.size()));
    s.append((3 - bytes.size() % 3) % 3, '=');
    return s;
}

Bytes from_base64(const std::string& text) {
    if (text.size() % 4 != 0)
        throw std::invalid_argument("base64 text length is not a multiple of 4");
    size_t pad = 0;
    while (pad < 2 && pad < text.size() && text[text.size() - 1 - pad] == '=') ++pad;
    for (size_t i = 0; i + pad < text.size(); ++i) {
        char c = text[i];
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '+' || c == '/';
        if (!ok) throw std::invalid_argument("invalid base64 character at " + std::to_string(i));
    }
    std::string body = text;
    for (size_t i = body.size() - pad; i < body.size(); ++i)
        body[i] = 'A'; // padding decodes as zero bits
    using Decoder = it::transform_width<it::binary_from_base64<std::string::const_iterator>, 8, 6>;
    Bytes out(Decoder(body.cbegin()), Decoder(body.cend()));
    out.resize(out.size() - pad);
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
