// Typed reading of a parsed JSON document with the location in every error: a value and its JSON
// pointer, so that `at["nodes"][3]["flags"].as<uint16_t>()` either returns the number or throws
// FormatError("where", at /nodes/3/flags, "expected an integer 0..65535"). Every sidecar reader
// fills its typed struct through it, from the document RapidJSON parsed in place (ParsedJson), and
// so do the readers of the other JSON files mshconv reads back: the archive manifest, the batch
// mirror manifest, shard reports and a level's glTF.
#pragma once

#include "formats/bytes.hpp"
#include "formats/diagnostics.hpp"

#include <rapidjson/fwd.h>

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace msh::sidecar {

// A document RapidJSON parsed in place, to read through JsonAt as it is: how every sidecar is read.
class ParsedJson {
  public:
    ParsedJson();
    ~ParsedJson();
    ParsedJson(const ParsedJson&) = delete;
    ParsedJson& operator=(const ParsedJson&) = delete;

    // False for what RapidJSON refuses and for a document nested deeper than kMaxJsonNesting.
    // A UTF-8 byte order mark before the document is skipped (editors on Windows write one).
    bool try_parse(ByteView text);
    // The same, FormatError("where", line L, column C, "not JSON: <RapidJSON's reason>") for what
    // it refuses.
    void parse(ByteView text, const std::string& where);
    const rapidjson::Value& root() const;

  private:
    std::string buffer_; // the text the document's strings point into
    std::unique_ptr<rapidjson::MemoryPoolAllocator<rapidjson::CrtAllocator>> allocator_;
    std::unique_ptr<rapidjson::Document> document_; // its values in allocator_
};

class JsonAt {
  public:
    // `value` is at `pointer` (of the document an error names).
    JsonAt(const rapidjson::Value& value, std::string pointer, const std::string& where)
        : rapid_(&value), rapid_root_(&value), prefix_(std::move(pointer)), where_(&where) {}

    // Found from the value given to the constructor when asked (only an error needs it): building
    // it for every member and element read cost more than reading them.
    std::string pointer() const;
    const std::string& where() const { return *where_; }

    // A member of this object, which must exist (of a repeated key, the last).
    JsonAt operator[](const std::string& key) const;
    bool has(const std::string& key) const;
    // The keys of this object (fails when it is not one), in byte order, each once.
    std::vector<std::string> keys() const;
    // An element of this array, which must exist.
    JsonAt operator[](size_t index) const;
    // The length of this array (fails when it is not one).
    size_t size() const;
    bool is_null() const;
    bool is_object() const;
    bool is_array() const;
    bool is_string() const;
    // A string equal to `text` (a value of another type is a mismatch, not an error).
    bool is_text(std::string_view text) const;
    bool is_number() const;
    // An integer >= 0 (what as<uint64_t>() reads without failing).
    bool is_unsigned() const;
    // Hands `row` each row of this array as `width` integers (its index and values), in order;
    // false at the first row that is anything else, when the caller reads the array again through
    // JsonAt, which names the value at fault. A terrain's 65,535 face rows without a JsonAt per
    // value, nor a copy of them all.
    bool integer_rows(size_t width, const std::function<void(size_t, const int64_t*)>& row) const;

    template <class T> T as() const {
        if constexpr (std::is_same_v<T, bool>) {
            return as_bool();
        } else if constexpr (std::is_integral_v<T>) {
            const Number n = number();
            if (n.kind == Number::Unsigned) {
                if (n.u > uint64_t(std::numeric_limits<T>::max())) fail(integer_range<T>());
                return T(n.u);
            }
            if (n.kind != Number::Signed || n.i < int64_t(std::numeric_limits<T>::min()) ||
                (n.i > 0 && uint64_t(n.i) > uint64_t(std::numeric_limits<T>::max())))
                fail(integer_range<T>());
            return T(n.i);
        } else if constexpr (std::is_floating_point_v<T>) {
            const Number n = number();
            if (n.kind == Number::Unsigned) return T(n.u);
            if (n.kind == Number::Signed) return T(n.i);
            if (n.kind != Number::Floating) fail("expected a number");
            return T(n.d);
        } else {
            static_assert(std::is_same_v<T, std::string>, "bool, integers, floats or string");
            return std::string(as_string_view());
        }
    }
    // The string without a copy (it lives as long as the document).
    std::string_view as_string_view() const;
    // A float written by a writer that prints NaN and infinities as null.
    float as_float_or_nan() const;

    [[noreturn]] void fail(const std::string& what) const;

  private:
    // A number as the document stores it (as an unsigned or a signed integer, or a double).
    struct Number {
        enum Kind { None, Unsigned, Signed, Floating } kind = None;
        uint64_t u = 0;
        int64_t i = 0;
        double d = 0;
    };
    Number number() const;
    bool as_bool() const;

    template <class T> static std::string integer_range() {
        return "expected an integer " + std::to_string(+std::numeric_limits<T>::min()) + ".." +
               std::to_string(+std::numeric_limits<T>::max());
    }

    // A member or element of `parent`'s value.
    JsonAt(const JsonAt& parent, const rapidjson::Value* value)
        : rapid_(value), rapid_root_(parent.rapid_root_), where_(parent.where_) {
        if (!parent.prefix_.empty()) prefix_ = parent.prefix_; // copying "" is not free either
    }

    // This value, and the value given to the constructor (at `prefix_`).
    const rapidjson::Value* rapid_;
    const rapidjson::Value* rapid_root_;
    std::string prefix_;
    const std::string* where_;
};

} // namespace msh::sidecar
