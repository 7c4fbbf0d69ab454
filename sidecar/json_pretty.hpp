// A JSON writer without a DOM that writes, byte for byte, what nlohmann::json::dump(1) writes for
// the same document: one space of indent per level, every non-empty container over several
// lines, "{}" and "[]" when empty, numbers and strings formatted by nlohmann itself. The caller
// gives an object's members in the order such a DOM keeps them (by key); a key out of that order
// throws, so a writer and the reader's expectations cannot drift apart silently.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace msh::sidecar {

class PrettyJson {
  public:
    explicit PrettyJson(std::string& out);
    ~PrettyJson();
    PrettyJson(const PrettyJson&) = delete;
    PrettyJson& operator=(const PrettyJson&) = delete;

    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void begin_array() { open('['); }
    void end_array() { close(']'); }
    // The next member's key (inside an object); its value follows.
    void key(std::string_view name);

    void value(uint64_t v);
    void value(int64_t v);
    void value(uint32_t v) { value(uint64_t(v)); }
    void value(uint16_t v) { value(uint64_t(v)); }
    void value(int v) { value(int64_t(v)); }
    void value(double v); // NaN and infinities as null, as nlohmann writes them
    void value(bool v);
    void value(std::string_view v);
    void value(const char* v) { value(std::string_view(v)); }
    void null();
    // A value the caller writes itself into the returned text (already valid JSON: a base64
    // string of megabytes needs no escaping pass).
    std::string& raw_value();

    template <class T, size_t N> void array(const std::array<T, N>& values) {
        begin_array();
        for (const T& v : values) value(v);
        end_array();
    }
    void array(const std::vector<std::string>& values);

    // key(name) and its value: a scalar, or an array of them.
    template <class T> void member(std::string_view name, const T& v) {
        key(name);
        if constexpr (requires { v.begin(); } && !std::is_convertible_v<T, std::string_view>)
            array(v);
        else
            value(v);
    }

  private:
    struct Level {
        bool object;
        size_t count = 0;
        std::string last_key;
    };
    void open(char bracket);
    void close(char bracket);
    // Before a value: the separator and indent of an array element (a member's come with key()).
    void element();
    void indent(size_t depth);

    // nlohmann's own scalar writer, straight into `out_` (no string per number).
    struct Scalars;
    void scalar(const nlohmann::json& value);
    void string(std::string_view s); // quoted and escaped as nlohmann does

    std::string& out_;
    std::unique_ptr<Scalars> scalars_;
    std::vector<Level> levels_;
    bool after_key_ = false;
};

} // namespace msh::sidecar
