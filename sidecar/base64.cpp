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

} // namespace msh::sidecar
