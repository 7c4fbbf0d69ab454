// The one writer of every sidecar's text (model, terrain, texture, level), streaming: an object or
// array whose compact text fits in `width` characters on one line, a larger one member per line;
// a table (begin_rows) one compact row per line whatever its length, and a table or a verbatim
// string (plain_string: base64) always makes every container around it take one member per
// line. Scalars are written by RapidJSON's writer (doubles, escapes).
//
// Each container is written compact and, once it no longer fits, laid out again from the offsets
// of its members: the text is never parsed back. Members go in key order; a key out of that
// order throws.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace msh::sidecar {

class ReadableJson {
  public:
    ReadableJson(std::string& out, size_t width);
    ~ReadableJson();
    ReadableJson(const ReadableJson&) = delete;
    ReadableJson& operator=(const ReadableJson&) = delete;

    void begin_object() { open(true, false); }
    void end_object() { close(true); }
    void begin_array() { open(false, false); }
    void end_array() { close(false); }
    // An array of rows: one compact element per line (nested containers included).
    void begin_rows() { open(false, true); }
    void end_rows() { close(false); }

    // The next member's key (inside an object); its value follows.
    void key(std::string_view name);

    void value(uint64_t v);
    void value(int64_t v);
    void value(uint32_t v) { value(uint64_t(v)); }
    void value(uint16_t v) { value(uint64_t(v)); }
    void value(int16_t v) { value(int64_t(v)); }
    void value(int v) { value(int64_t(v)); }
    void value(float) = delete; // a float goes through the caller's rule (its shortest form)
    void value(double v);       // its shortest round-trip form (RapidJSON); NaN and infinities null
    void value(bool v);
    void value(std::string_view v);
    void value(const char* v) { value(std::string_view(v)); }
    void value(const std::string& v) { value(std::string_view(v)); }
    void null();
    // A string known to need no escaping (base64, hex), written as it is; it puts every
    // container around it on several lines.
    void plain_string(std::string_view v);
    // The same, its characters appended by `write` (megabytes of base64 without a copy).
    template <class Write> void plain_string_with(Write&& write) {
        begin_plain();
        write(out_);
        out_ += '"';
    }

    // An element the caller appends itself as compact JSON (a table's row without a call per
    // value: a stress map's 65,535 faces).
    template <class Write> void raw_value_with(Write&& write) {
        separate();
        write(out_);
    }
    // A table of `count` rows, row i appended by `write(i, text)` as compact JSON.
    template <class Write> void rows_with(size_t count, Write&& write) {
        begin_rows();
        for (size_t i = 0; i < count; ++i) raw_value_with([&](std::string& out) { write(i, out); });
        end_rows();
    }

    template <class T, size_t N> void array(const std::array<T, N>& values) {
        begin_array();
        for (const T& v : values) value(v);
        end_array();
    }
    void array(const std::vector<std::string>& values);

    // key(name) and its value.
    template <class T> void member(std::string_view name, const T& v) {
        key(name);
        if constexpr (requires { array(v); })
            array(v);
        else
            value(v);
    }

  private:
    struct Level {
        bool object = false;
        bool rows = false;    // begin_rows: one element per line, each compact
        bool compact = false; // inside a row: one line whatever its length
        bool lines = false;   // laid out one member per line (decided, or forced)
        bool forced = false;  // holds a table or a verbatim string: one member per line
        size_t depth = 0;
        size_t start = 0; // offset of the opening bracket
        size_t count = 0;
        // Per member: the offset of its text and of its value (after the key's colon).
        std::vector<std::pair<size_t, size_t>> members;
        std::string last_key;
    };
    void open(bool object, bool rows);
    void close(bool object);
    // Before a member's text (its key, or an array element's value).
    void separate();
    void begin_plain();
    // Rewrites the level's compact text from `start` one member per line.
    void to_lines(Level& l);
    // Lays out every open level that will end on several lines anyway (a table or a verbatim
    // string is being written), so that its text so far is copied while it is short.
    void lay_out_open_levels();
    void string(std::string_view s);

    struct Scalars;
    std::string& out_;
    size_t width_;
    std::unique_ptr<Scalars> scalars_;
    std::vector<Level> levels_;
    size_t used_ = 0; // levels_ in use (the vector keeps the others' buffers)
    bool after_key_ = false;
};

} // namespace msh::sidecar
