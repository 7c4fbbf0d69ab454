#include "json_pretty.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <stdexcept>

namespace msh::sidecar {

// What json::dump() itself uses: its serializer over an adapter appending to our text.
struct PrettyJson::Scalars {
    explicit Scalars(std::string& out)
        : serializer(nlohmann::detail::output_adapter<char, std::string>(out), ' ') {}
    nlohmann::detail::serializer<nlohmann::json> serializer;
};

PrettyJson::PrettyJson(std::string& out) : out_(out), scalars_(std::make_unique<Scalars>(out)) {}

PrettyJson::~PrettyJson() = default;

void PrettyJson::scalar(const nlohmann::json& value) {
    scalars_->serializer.dump(value, false, false, 0);
}

namespace {

// A string nlohmann writes as it is between quotes: printable ASCII without '"' and '\\' (it
// escapes those and control characters, and checks the UTF-8 of bytes from 0x80: those strings
// still go through it).
bool plain(std::string_view s) {
    for (const char c : s)
        if (uint8_t(c) < 0x20 || uint8_t(c) >= 0x80 || c == '"' || c == '\\') return false;
    return true;
}

} // namespace

void PrettyJson::string(std::string_view s) {
    if (plain(s)) {
        out_ += '"';
        out_ += s;
        out_ += '"';
        return;
    }
    const nlohmann::json j(s); // its escaping, its UTF-8 checks
    scalar(j);
}

void PrettyJson::indent(size_t depth) {
    out_.append(depth, ' ');
}

void PrettyJson::element() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (levels_.empty()) return; // the document itself
    Level& l = levels_.back();
    if (l.object) throw std::logic_error("PrettyJson: a member needs its key first");
    out_ += l.count++ ? ",\n" : "\n";
    indent(levels_.size());
}

void PrettyJson::key(std::string_view name) {
    if (levels_.empty() || !levels_.back().object || after_key_)
        throw std::logic_error("PrettyJson: a key outside an object");
    Level& l = levels_.back();
    if (l.count && !(l.last_key < name))
        throw std::logic_error("PrettyJson: key '" + std::string(name) + "' after '" + l.last_key +
                               "' (members go in key order)");
    l.last_key = name;
    out_ += l.count++ ? ",\n" : "\n";
    indent(levels_.size());
    string(name);
    out_ += ": ";
    after_key_ = true;
}

void PrettyJson::open(char bracket) {
    element();
    out_ += bracket;
    levels_.push_back({bracket == '{', 0, {}});
}

void PrettyJson::close(char bracket) {
    if (levels_.empty() || levels_.back().object != (bracket == '}') || after_key_)
        throw std::logic_error("PrettyJson: unbalanced close");
    const bool empty = levels_.back().count == 0;
    levels_.pop_back();
    if (!empty) {
        out_ += '\n';
        indent(levels_.size());
    }
    out_ += bracket;
}

void PrettyJson::value(uint64_t v) {
    element();
    char buf[24];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

void PrettyJson::value(int64_t v) {
    element();
    char buf[24];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

void PrettyJson::value(double v) {
    element();
    const nlohmann::json j(v); // nlohmann's shortest round-trip form (and null)
    scalar(j);
}

void PrettyJson::value(bool v) {
    element();
    out_ += v ? "true" : "false";
}

void PrettyJson::value(std::string_view v) {
    element();
    string(v);
}

std::string& PrettyJson::raw_value() {
    element();
    return out_;
}

void PrettyJson::null() {
    element();
    out_ += "null";
}

void PrettyJson::array(const std::vector<std::string>& values) {
    begin_array();
    for (const std::string& v : values) value(std::string_view(v));
    end_array();
}

} // namespace msh::sidecar
