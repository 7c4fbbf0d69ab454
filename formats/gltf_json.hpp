// A small streaming JSON writer for the glTF writer: appends UTF-8 text to a byte buffer, compact
// (GLB) or indented one space per level (.gltf, the layout of nlohmann's dump(1)). Numbers: whole
// numbers as integers, doubles in the shortest form that reads back to the same double
// (std::to_chars), always with a fraction or an exponent so they read back as floating point;
// non-finite doubles as null (as nlohmann writes them). Strings are escaped per RFC 8259 and must
// be valid UTF-8 (invalid bytes throw, as nlohmann's dump does).
//
// The text goes straight into `out` (which grows ahead of the text); finish() (or the destructor)
// trims it to the text written.
#pragma once

#include "bytes.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace msh::gltf {

class JsonWriter {
  public:
    JsonWriter(Bytes& out, bool pretty) : out_(out), pretty_(pretty), used_(out.size()) {}
    ~JsonWriter() { finish(); }
    JsonWriter(const JsonWriter&) = delete;
    JsonWriter& operator=(const JsonWriter&) = delete;

    // Trims `out` to the text written; the writer is done then (later calls do nothing, so `out`
    // may grow further).
    void finish() {
        if (!done_) out_.resize(used_);
        done_ = true;
    }

    JsonWriter& begin_object() { return open('{'); }
    JsonWriter& end_object() { return close('}'); }
    JsonWriter& begin_array() { return open('['); }
    JsonWriter& end_array() { return close(']'); }

    // A member name known at compile time that needs no escaping, up to 28 characters (both
    // checked at compile time), held as its ready `"name":` token. Every glTF property name is one.
    struct Name {
        template <size_t N> consteval Name(const char (&literal)[N]) : size(N + 2) {
            static_assert(N + 2 <= sizeof token, "JSON name too long for a Name");
            token[0] = '"';
            for (size_t i = 0; i + 1 < N; ++i) {
                const char c = literal[i];
                if (c < 0x20 || c == '"' || c == '\\' || c >= 0x7F)
                    throw "JSON name needs escaping";
                token[i + 1] = c;
            }
            token[N] = '"';
            token[N + 1] = ':';
        }
        char token[32]{};
        size_t size; // of `"name":`
    };

    // The member name of the next value (inside an object).
    JsonWriter& key(const Name& name) {
        before_value();
        uint8_t* p = reserve(sizeof name.token + 1);
        std::memcpy(p, name.token, sizeof name.token); // fixed size: a few moves
        used_ += name.size;
        if (pretty_) out_[used_++] = ' ';
        after_key_ = true;
        return *this;
    }
    JsonWriter& escaped_key(std::string_view name); // any UTF-8 name, escaped and checked

    JsonWriter& string(std::string_view s); // escaped and checked
    // A string the caller knows needs no escaping (ASCII letters, digits, '/', '_', '.', ...).
    JsonWriter& plain_string(std::string_view s);
    JsonWriter& integer(int64_t v) {
        if (v >= 0 && v < 10) { // indices and flags: mostly one digit
            before_value();
            *reserve(1) = uint8_t('0' + v);
            ++used_;
            return *this;
        }
        return integer_slow(v);
    }
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
    JsonWriter& integer_slow(int64_t v);
    // Separator and indentation before an array element or a key.
    void before_value() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (!first_.empty()) separate();
    }
    void separate();
    void newline_indent();
    void quoted(std::string_view s); // escaped, in quotes

    // Room for n more bytes at used_.
    uint8_t* reserve(size_t n) {
        if (out_.size() - used_ < n) grow(n);
        return out_.data() + used_;
    }
    void grow(size_t n);
    void put(char c) {
        *reserve(1) = uint8_t(c);
        ++used_;
    }
    void put(std::string_view s) {
        std::memcpy(reserve(s.size()), s.data(), s.size());
        used_ += s.size();
    }

    Bytes& out_;
    bool pretty_;
    bool after_key_ = false;
    bool done_ = false;
    size_t used_;                // bytes of `out_` holding text
    std::vector<uint8_t> first_; // per open container: 1 while nothing is written in it
};

} // namespace msh::gltf
