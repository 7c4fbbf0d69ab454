// Base64 through Boost's archive iterators (header-only).
#pragma once

#include "formats/bytes.hpp"

#include <string>

namespace msh::sidecar {

std::string to_base64(ByteView bytes);
// Throws std::invalid_argument on characters outside the base64 alphabet or a bad length.
Bytes from_base64(const std::string& text);

} // namespace msh::sidecar
