#include "json_at.hpp"

#include "formats/json_in_place.hpp"
#include "formats/json_nesting.hpp"
#include "formats/rapidjson.hpp"

#include <rapidjson/memorystream.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

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

// Whether no array or object in `v` nests deeper than `depth_left` (convert's limit).
bool nesting_within(const rapidjson::Value& v, size_t depth_left) {
    if (v.IsArray()) {
        if (depth_left == 0) return false;
        for (const rapidjson::Value& e : v.GetArray())
            if (!nesting_within(e, depth_left - 1)) return false;
    } else if (v.IsObject()) {
        if (depth_left == 0) return false;
        for (const auto& m : v.GetObject())
            if (!nesting_within(m.value, depth_left - 1)) return false;
    }
    return true;
}

} // namespace

ParsedJson::ParsedJson() : document_(std::make_unique<rapidjson::Document>()) {}
ParsedJson::~ParsedJson() = default;

namespace {

constexpr uint8_t kByteOrderMark[] = {0xEF, 0xBB, 0xBF};

ByteView without_byte_order_mark(ByteView text) {
    if (text.size() >= 3 && std::equal(kByteOrderMark, kByteOrderMark + 3, text.begin()))
        return text.subspan(3);
    return text;
}

// Why RapidJSON refuses `text` (after any byte order mark, `skipped` bytes into the file), as a
// FormatError at its line and column.
[[noreturn]] void refuse(ByteView file, size_t skipped, const std::string& where) {
    const ByteView text = file.subspan(skipped);
    check_json_nesting(text, where);
    const auto error = [&](size_t offset, const std::string& why) {
        return FormatError(where, text_location(file.data(), file.size(), skipped + offset),
                           "not JSON: " + why);
    };
    // RapidJSON's streams end at a NUL: one inside the text is refused where it is.
    const auto nul = std::find(text.begin(), text.end(), uint8_t(0));
    if (nul != text.end()) throw error(size_t(nul - text.begin()), "a NUL character");
    rapidjson::MemoryStream bytes(reinterpret_cast<const char*>(text.data()), text.size());
    rapidjson::Document strict; // UTF-8 and control characters checked as it reads
    strict.ParseStream<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseFullPrecisionFlag |
                       rapidjson::kParseIterativeFlag>(bytes);
    if (strict.HasParseError())
        throw error(strict.GetErrorOffset(), rapidjson::GetParseError_En(strict.GetParseError()));
    throw error(0, "refused by the in-place parse"); // not expected: both read the same grammar
}

} // namespace

void ParsedJson::parse(ByteView text, const std::string& where) {
    if (!try_parse(text)) refuse(text, text.size() - without_byte_order_mark(text).size(), where);
}

bool ParsedJson::try_parse(ByteView text) {
    text = without_byte_order_mark(text);
    // The document's values in one block, four times the text's size reserved (a map's face rows
    // take about 2.6 times): one allocation the allocator hands back to the system when the
    // document goes, where RapidJSON's 64 KB chunks stayed in its pages and raised the peak of
    // a map's import by 20 MB. Untouched capacity costs address space only.
    document_.reset();
    allocator_ = std::make_unique<rapidjson::MemoryPoolAllocator<rapidjson::CrtAllocator>>(
        std::max<size_t>(size_t(64) << 10, 4 * text.size()));
    document_ = std::make_unique<rapidjson::Document>(allocator_.get());
    return parse_in_place(text, buffer_, *document_) && nesting_within(*document_, kMaxJsonNesting);
}

const rapidjson::Value& ParsedJson::root() const {
    return *document_;
}

namespace {

// The member `key` of object `v` (of a repeated key the last, as nlohmann keeps it); null if none.
const rapidjson::Value* find_member(const rapidjson::Value& v, std::string_view key) {
    for (auto m = v.MemberEnd(); m != v.MemberBegin();) {
        --m;
        if (std::string_view(m->name.GetString(), m->name.GetStringLength()) == key)
            return &m->value;
    }
    return nullptr;
}

// Appends to `path` the JSON pointer of `target` below `at`; false when it is not there.
bool path_to(const rapidjson::Value& at, const rapidjson::Value* target, std::string& path) {
    if (&at == target) return true;
    const size_t length = path.size();
    if (at.IsObject()) {
        for (const auto& m : at.GetObject()) {
            path += '/';
            path += pointer_token(std::string(m.name.GetString(), m.name.GetStringLength()));
            if (path_to(m.value, target, path)) return true;
            path.resize(length);
        }
    } else if (at.IsArray()) {
        for (rapidjson::SizeType i = 0; i < at.Size(); ++i) {
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
    path_to(*rapid_root_, rapid_, path);
    return path;
}

JsonAt JsonAt::operator[](const std::string& key) const {
    if (!is_object()) fail("expected an object");
    if (const rapidjson::Value* member = find_member(*rapid_, key)) return JsonAt(*this, member);
    throw FormatError(*where_, Location::at_pointer(pointer() + "/" + pointer_token(key)),
                      "missing");
}

bool JsonAt::has(const std::string& key) const {
    return rapid_->IsObject() && find_member(*rapid_, key);
}

std::vector<std::string> JsonAt::keys() const {
    if (!is_object()) fail("expected an object");
    std::vector<std::string> out;
    for (const auto& m : rapid_->GetObject())
        out.emplace_back(m.name.GetString(), m.name.GetStringLength());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

JsonAt JsonAt::operator[](size_t index) const {
    if (!is_array()) fail("expected an array");
    if (index >= size())
        throw FormatError(*where_, Location::at_pointer(pointer() + "/" + std::to_string(index)),
                          "missing");
    return JsonAt(*this, &(*rapid_)[rapidjson::SizeType(index)]);
}

size_t JsonAt::size() const {
    if (!is_array()) fail("expected an array");
    return rapid_->Size();
}

bool JsonAt::is_null() const {
    return rapid_->IsNull();
}

bool JsonAt::is_object() const {
    return rapid_->IsObject();
}

bool JsonAt::is_array() const {
    return rapid_->IsArray();
}

bool JsonAt::is_string() const {
    return rapid_->IsString();
}

bool JsonAt::is_text(std::string_view text) const {
    return is_string() && as_string_view() == text;
}

bool JsonAt::is_number() const {
    return number().kind != Number::None;
}

bool JsonAt::is_unsigned() const {
    return number().kind == Number::Unsigned;
}

bool JsonAt::integer_rows(size_t width,
                          const std::function<void(size_t, const int64_t*)>& row) const {
    if (!is_array()) return false;
    std::vector<int64_t> values(width);
    size_t i = 0;
    for (const rapidjson::Value& r : rapid_->GetArray()) {
        if (!r.IsArray() || r.Size() != width) return false;
        for (size_t k = 0; k < width; ++k) {
            const rapidjson::Value& v = r[rapidjson::SizeType(k)];
            if (!v.IsInt64()) return false;
            values[k] = v.GetInt64();
        }
        row(i++, values.data());
    }
    return true;
}

JsonAt::Number JsonAt::number() const {
    Number n;
    if (rapid_->IsNumber()) { // the narrowest: an integer >= 0, then a signed one, then a double
        if (rapid_->IsUint64())
            n.kind = Number::Unsigned, n.u = rapid_->GetUint64();
        else if (rapid_->IsInt64())
            n.kind = Number::Signed, n.i = rapid_->GetInt64();
        else
            n.kind = Number::Floating, n.d = rapid_->GetDouble();
    }
    return n;
}

bool JsonAt::as_bool() const {
    if (!rapid_->IsBool()) fail("expected true or false");
    return rapid_->GetBool();
}

std::string_view JsonAt::as_string_view() const {
    if (!is_string()) fail("expected a string");
    return std::string_view(rapid_->GetString(), rapid_->GetStringLength());
}

float JsonAt::as_float_or_nan() const {
    if (is_null()) return std::nanf("");
    return as<float>();
}

void JsonAt::fail(const std::string& what) const {
    const std::string at = pointer();
    throw FormatError(*where_, Location::at_pointer(at.empty() ? "/" : at), what);
}

} // namespace msh::sidecar
