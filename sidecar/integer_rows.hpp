// Rows of integers (`[[1,-2,3],[4,5,6]]`) read straight from JSON text that is already validated,
// without a DOM: a terrain sidecar's face rows (a stress map has 65,535). Anything else (a string,
// a fraction, a row of another width) is left to the DOM reader, which names the value at fault.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace msh::sidecar {

struct IntegerRows {
    size_t width = 0;
    std::vector<int64_t> values; // row-major, `width` per row
    size_t rows() const { return width ? values.size() / width : 0; }
};

// The rows of `text` (a JSON array of arrays of `width` integers each, whitespace anywhere JSON
// allows it); nullopt when it is anything else.
std::optional<IntegerRows> scan_integer_rows(std::string_view text, size_t width);

} // namespace msh::sidecar
