#include "json_at.hpp"

#include "formats/json_nesting.hpp"
#include "formats/rapidjson.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace msh::sidecar {

namespace {

// RFC 6901: '~' and '/' in a key are escaped.
std::string pointer_token(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

// `v` as a nlohmann value; false when it nests deeper than `depth_left`.
bool convert(const rapidjson::Value& v, size_t depth_left, nlohmann::json& out) {
    switch (v.GetType()) {
    case rapidjson::kNullType:
        out = nullptr;
        return true;
    case rapidjson::kFalseType:
        out = false;
        return true;
    case rapidjson::kTrueType:
        out = true;
        return true;
    case rapidjson::kNumberType:
        if (v.IsUint64())
            out = v.GetUint64();
        else if (v.IsInt64())
            out = v.GetInt64();
        else
            out = v.GetDouble();
        return true;
    case rapidjson::kStringType:
        out = std::string(v.GetString(), v.GetStringLength());
        return true;
    case rapidjson::kArrayType: {
        if (depth_left == 0) return false;
        out = nlohmann::json::array();
        auto& array = out.get_ref<nlohmann::json::array_t&>();
        array.resize(v.Size());
        for (rapidjson::SizeType i = 0; i < v.Size(); ++i)
            if (!convert(v[i], depth_left - 1, array[i])) return false;
        return true;
    }
    case rapidjson::kObjectType: {
        if (depth_left == 0) return false;
        out = nlohmann::json::object();
        for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) // a repeated key: the last wins
            if (!convert(m->value, depth_left - 1,
                         out[std::string(m->name.GetString(), m->name.GetStringLength())]))
                return false;
        return true;
    }
    }
    return false;
}

// Whether `text` is UTF-8 (no overlong forms, surrogates or code points past U+10FFFF) without
// a NUL byte. Checked here over the whole text, ASCII eight bytes at a time, so that RapidJSON
// need not check strings a byte at a time (a sidecar's megabytes of base64), and the in-place
// parse, whose text ends at a NUL, reads all of it.
bool utf8_without_nul(ByteView text) {
    const uint8_t* p = text.data();
    const size_t n = text.size();
    size_t i = 0;
    while (i < n) {
        if (n - i >= 8) {
            uint64_t w;
            std::memcpy(&w, p + i, 8);
            if ((w & 0x8080808080808080ull) == 0) {
                if ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull) return false; // a 0
                i += 8;
                continue;
            }
        }
        const uint8_t c = p[i];
        if (c < 0x80) {
            if (c == 0) return false;
            ++i;
            continue;
        }
        size_t len = 0;
        uint32_t cp = 0;
        if ((c & 0xE0) == 0xC0)
            len = 2, cp = c & 0x1Fu;
        else if ((c & 0xF0) == 0xE0)
            len = 3, cp = c & 0x0Fu;
        else if ((c & 0xF8) == 0xF0)
            len = 4, cp = c & 0x07u;
        else
            return false;
        if (n - i < len) return false;
        for (size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (p[i + k] & 0x3Fu);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

} // namespace

nlohmann::json parse_json_fast(ByteView text, const std::string& where) {
    nlohmann::json out;
    if (utf8_without_nul(text)) {
        // Parsed in place in a copy (strings are not copied a second time), the encoding already
        // checked; otherwise RapidJSON's default flags (formats/rapidjson.hpp).
        std::string copy(reinterpret_cast<const char*>(text.data()), text.size());
        rapidjson::Document d;
        d.ParseInsitu<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseIterativeFlag>(
            copy.data());
        if (!d.HasParseError() && convert(d, kMaxJsonNesting, out)) return out;
    }
    return parse_json(text, where);
}

nlohmann::json parse_json(ByteView text, const std::string& where) {
    check_json_nesting(text, where);
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte is 1-based: the character where parsing stopped.
        const size_t at = e.byte ? std::min<size_t>(e.byte - 1, text.size()) : 0;
        throw FormatError(where, text_location(text.data(), text.size(), at),
                          std::string("not JSON: ") + e.what());
    } catch (const nlohmann::json::exception& e) { // valid grammar refused without a position
        throw FormatError(
            where, text_location(text.data(), text.size(), refused_token_offset(text, e.what())),
            std::string("not JSON: ") + e.what());
    }
}

namespace {

// Appends to `path` the JSON pointer of `target` below `at`; false when it is not there.
bool path_to(const nlohmann::json& at, const nlohmann::json* target, std::string& path) {
    if (&at == target) return true;
    const size_t length = path.size();
    if (at.is_object()) {
        for (auto it = at.begin(); it != at.end(); ++it) {
            path += "/" + pointer_token(it.key());
            if (path_to(it.value(), target, path)) return true;
            path.resize(length);
        }
    } else if (at.is_array()) {
        for (size_t i = 0; i < at.size(); ++i) {
            path += "/" + std::to_string(i);
            if (path_to(at[i], target, path)) return true;
            path.resize(length);
        }
    }
    return false;
}

} // namespace

std::string JsonAt::pointer() const {
    std::string path = prefix_;
    path_to(*root_, value_, path);
    return path;
}

JsonAt JsonAt::operator[](const std::string& key) const {
    if (!value_->is_object()) fail("expected an object");
    const auto it = value_->find(key);
    if (it == value_->end())
        throw FormatError(*where_, Location::at_pointer(pointer() + "/" + pointer_token(key)),
                          "missing");
    return JsonAt(*it, *this);
}

JsonAt JsonAt::operator[](size_t index) const {
    if (!value_->is_array()) fail("expected an array");
    if (index >= value_->size())
        throw FormatError(*where_, Location::at_pointer(pointer() + "/" + std::to_string(index)),
                          "missing");
    return JsonAt((*value_)[index], *this);
}

size_t JsonAt::size() const {
    if (!value_->is_array()) fail("expected an array");
    return value_->size();
}

float JsonAt::as_float_or_nan() const {
    if (value_->is_null()) return std::nanf("");
    return as<float>();
}

void JsonAt::fail(const std::string& what) const {
    const std::string at = pointer();
    throw FormatError(*where_, Location::at_pointer(at.empty() ? "/" : at), what);
}

} // namespace msh::sidecar
