// Typed reading of a parsed JSON document with the location in every error: a value and its JSON
// pointer, so that `at["nodes"][3]["flags"].as<uint16_t>()` either returns the number or throws
// FormatError("where", at /nodes/3/flags, "expected an integer 0..65535"). Used by the sidecar
// readers to fill their typed structs.
#pragma once

#include "formats/bytes.hpp"
#include "formats/diagnostics.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <string>
#include <type_traits>

namespace msh::sidecar {

// The JSON document `text`; FormatError("where", line L, column C, "not JSON: ...") otherwise.
nlohmann::json parse_json(ByteView text, const std::string& where);
// The same document, parsed by RapidJSON and converted (a sidecar's megabytes of base64 are copied,
// not lexed a character at a time: a tenth of the time); what it refuses, or nests deeper than
// kMaxJsonNesting, goes to parse_json, which says where and why.
nlohmann::json parse_json_fast(ByteView text, const std::string& where);

class JsonAt {
  public:
    // `value` is at `pointer` (of the document an error names).
    JsonAt(const nlohmann::json& value, std::string pointer, const std::string& where)
        : value_(&value), root_(&value), prefix_(std::move(pointer)), where_(&where) {}

    const nlohmann::json& json() const { return *value_; }
    // Found from the value given to the constructor when asked (only an error needs it): building
    // it for every member and element read cost more than reading them.
    std::string pointer() const;
    const std::string& where() const { return *where_; }

    // A member of this object, which must exist.
    JsonAt operator[](const std::string& key) const;
    bool has(const std::string& key) const { return value_->is_object() && value_->contains(key); }
    // An element of this array, which must exist.
    JsonAt operator[](size_t index) const;
    // The length of this array (fails when it is not one).
    size_t size() const;
    bool is_null() const { return value_->is_null(); }

    template <class T> T as() const {
        if constexpr (std::is_same_v<T, bool>) {
            if (!value_->is_boolean()) fail("expected true or false");
            return value_->get<bool>();
        } else if constexpr (std::is_integral_v<T>) {
            if (!value_->is_number_integer()) fail(integer_range<T>());
            if (value_->is_number_unsigned()) {
                const auto v = value_->get<uint64_t>();
                if (v > uint64_t(std::numeric_limits<T>::max())) fail(integer_range<T>());
                return T(v);
            }
            const auto v = value_->get<int64_t>();
            if (v < int64_t(std::numeric_limits<T>::min()) ||
                (v > 0 && uint64_t(v) > uint64_t(std::numeric_limits<T>::max())))
                fail(integer_range<T>());
            return T(v);
        } else if constexpr (std::is_floating_point_v<T>) {
            if (!value_->is_number()) fail("expected a number");
            return value_->get<T>();
        } else {
            static_assert(std::is_same_v<T, std::string>, "bool, integers, floats or string");
            if (!value_->is_string()) fail("expected a string");
            return value_->get<std::string>();
        }
    }
    // A float written by a writer that prints NaN and infinities as null.
    float as_float_or_nan() const;

    [[noreturn]] void fail(const std::string& what) const;

  private:
    template <class T> static std::string integer_range() {
        return "expected an integer " + std::to_string(+std::numeric_limits<T>::min()) + ".." +
               std::to_string(+std::numeric_limits<T>::max());
    }

    JsonAt(const nlohmann::json& value, const JsonAt& parent)
        : value_(&value), root_(parent.root_), prefix_(parent.prefix_), where_(parent.where_) {}

    const nlohmann::json* value_;
    const nlohmann::json* root_; // what the constructor was given, at `prefix_`
    std::string prefix_;
    const std::string* where_;
};

} // namespace msh::sidecar
