// A small streaming JSON writer for the glTF writer: appends UTF-8 text to a byte buffer, compact
// (GLB) or indented one space per level (.gltf, the layout of nlohmann's dump(1)). Numbers: whole
// numbers as integers, doubles in the shortest form that reads back to the same double
// (std::to_chars), always with a fraction or an exponent so they read back as floating point;
// non-finite doubles as null (as nlohmann writes them). Strings are escaped per RFC 8259 and must
// be valid UTF-8 (invalid bytes throw, as nlohmann's dump does).
#pragma once

#include "bytes.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace msh::gltf {

class JsonWriter {
  public:
    JsonWriter(Bytes& out, bool pretty) : out_(out), pretty_(pretty) {}

    JsonWriter& begin_object() { return open('{'); }
    JsonWriter& end_object() { return close('}'); }
    JsonWriter& begin_array() { return open('['); }
    JsonWriter& end_array() { return close(']'); }

    // The member name of the next value (inside an object).
    JsonWriter& key(std::string_view name);

    JsonWriter& string(std::string_view s);
    JsonWriter& integer(int64_t v);
    JsonWriter& unsigned_integer(uint64_t v);
    JsonWriter& number(double v);
    JsonWriter& boolean(bool v);
    JsonWriter& null();
    // Any nlohmann value (extras), written with the rules above.
    JsonWriter& value(const nlohmann::json& j);

    // Arrays of numbers, e.g. node ids, translation.
    template <class T> JsonWriter& integers(const T& values) {
        begin_array();
        for (auto v : values) integer(int64_t(v));
        return end_array();
    }
    template <class T> JsonWriter& numbers(const T& values) {
        begin_array();
        for (auto v : values) number(double(v));
        return end_array();
    }

  private:
    JsonWriter& open(char c);
    JsonWriter& close(char c);
    void before_value(); // separator and indentation before an array element or a key
    void newline_indent();
    void quoted(std::string_view s); // escaped, in quotes
    void put(char c) { out_.push_back(uint8_t(c)); }
    void put(std::string_view s) { out_.insert(out_.end(), s.begin(), s.end()); }

    Bytes& out_;
    bool pretty_;
    bool after_key_ = false;
    std::vector<bool> first_; // per open container: nothing written in it yet
};

} // namespace msh::gltf
