#include "portable_address.hpp"

namespace msh::sidecar {

std::string portable_address(std::string_view address) {
    // A drive letter's colon (`C:\`, `C:/`) belongs to the file.
    const bool drive =
        address.size() >= 3 && address[1] == ':' && (address[2] == '/' || address[2] == '\\');
    const std::string_view file = address.substr(0, address.find(':', drive ? 2 : 0));
    const size_t cut = file.find_last_of("/\\");
    return std::string(cut == std::string_view::npos ? address : address.substr(cut + 1));
}

} // namespace msh::sidecar
