// Text encodings of binary data in sidecars and manifests: base64 (RFC 4648, '=' padded) and
// lower-case hex.
#pragma once

#include "formats/bytes.hpp"

#include <string>
#include <string_view>

namespace msh::sidecar {

std::string to_base64(ByteView bytes);
// Appends the base64 of `bytes` to `out` (no intermediate string: sidecars carry megabytes).
void append_base64(std::string& out, ByteView bytes);
size_t base64_size(size_t bytes);
// Throws std::invalid_argument on characters outside the base64 alphabet or a bad length.
Bytes from_base64(std::string_view text);

std::string to_hex(ByteView bytes);
// Throws std::invalid_argument on an odd length or a non-hex character.
Bytes from_hex(const std::string& text);
std::string hex64(uint64_t value); // 16 digits, zero-padded

} // namespace msh::sidecar
