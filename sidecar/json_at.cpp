#include "json_at.hpp"

#include "formats/json_in_place.hpp"
#include "formats/json_nesting.hpp"
#include "formats/rapidjson.hpp"

#include <algorithm>
#include <cmath>

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

} // namespace

nlohmann::json parse_json_fast(ByteView text, const std::string& where) {
    std::string buffer;
    rapidjson::Document d;
    nlohmann::json out;
    if (parse_in_place(text, buffer, d) && convert(d, kMaxJsonNesting, out)) return out;
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
            path += '/';
            path += pointer_token(it.key());
            if (path_to(it.value(), target, path)) return true;
            path.resize(length);
        }
    } else if (at.is_array()) {
        for (size_t i = 0; i < at.size(); ++i) {
            path += '/';
            path += std::to_string(i);
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
