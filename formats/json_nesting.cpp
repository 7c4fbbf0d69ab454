#include "json_nesting.hpp"

#include "diagnostics.hpp"

namespace msh {

void check_json_nesting(ByteView text, const std::string& where, size_t limit) {
    size_t depth = 0;
    bool in_string = false, escaped = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const uint8_t c = text[i];
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit)
                throw FormatError(where, text_location(text.data(), text.size(), i),
                                  "JSON nested deeper than " + std::to_string(limit) +
                                      " levels (refused before parsing)");
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
}

size_t refused_token_offset(ByteView text, std::string_view what) {
    const size_t open = what.find('\'');
    const size_t close = open == std::string_view::npos ? open : what.find('\'', open + 1);
    if (close == std::string_view::npos || close == open + 1) return text.size();
    const std::string_view token = what.substr(open + 1, close - open - 1);
    const std::string_view body(reinterpret_cast<const char*>(text.data()), text.size());
    const size_t at = body.find(token);
    return at == std::string_view::npos ? text.size() : at;
}

} // namespace msh
