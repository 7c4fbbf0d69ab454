#include "integer_rows.hpp"

namespace msh::sidecar {

std::optional<IntegerRows> scan_integer_rows(std::string_view text, size_t width) {
    IntegerRows out;
    out.width = width;
    const char* p = text.data();
    const char* const end = p + text.size();
    auto ws = [&] {
        while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
    };
    auto take = [&](char c) {
        ws();
        if (p == end || *p != c) return false;
        ++p;
        return true;
    };
    if (!take('[')) return std::nullopt;
    if (take(']')) return ws(), p == end ? std::optional(out) : std::nullopt;
    out.values.reserve(text.size() / 4);
    for (;;) {
        if (!take('[')) return std::nullopt;
        for (size_t k = 0; k < width; ++k) {
            if (k && !take(',')) return std::nullopt;
            ws();
            const bool negative = p < end && *p == '-';
            if (negative) ++p;
            const char* digits = p;
            int64_t v = 0;
            while (p < end && *p >= '0' && *p <= '9' && p - digits < 18) v = v * 10 + (*p++ - '0');
            // No digits, more than 18 (out of any column's range anyway), a fraction or exponent.
            if (p == digits ||
                (p < end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E')))
                return std::nullopt;
            out.values.push_back(negative ? -v : v);
        }
        if (!take(']')) return std::nullopt;
        if (take(']')) break;
        if (!take(',')) return std::nullopt;
    }
    ws();
    if (p != end) return std::nullopt;
    return out;
}

} // namespace msh::sidecar
