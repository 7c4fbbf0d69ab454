#include "game_names.hpp"

#include "formats/cp1251.hpp"

namespace msh::mapping {

std::string to_game_name(const std::string& utf8, bool* replaced) {
    if (auto whole = utf8_to_cp1251(utf8)) return *whole; // the common case: one pass
    std::string out;
    for (size_t i = 0; i < utf8.size();) {
        const auto lead = static_cast<unsigned char>(utf8[i]);
        const size_t n = lead < 0x80    ? 1
                         : lead >= 0xF0 ? 4
                         : lead >= 0xE0 ? 3
                         : lead >= 0xC0 ? 2
                                        : 1;
        const std::string one = utf8.substr(i, n);
        if (auto c = utf8_to_cp1251(one)) {
            out += *c;
        } else if (lead >= 0xC0 && one.size() == n) {
            out += '?';
            if (replaced) *replaced = true;
        } else {
            out += one; // not UTF-8: the bytes as they are
        }
        i += n;
    }
    return out;
}

} // namespace msh::mapping
