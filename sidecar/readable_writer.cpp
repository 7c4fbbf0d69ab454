#include "readable_writer.hpp"

#include "formats/rapidjson.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace msh::sidecar {

// RapidJSON's writer over our text, one scalar at a time: it escapes strings (refusing invalid
// UTF-8) and writes doubles in their shortest round-trip form.
struct ReadableJson::Scalars {
    struct Appender {
        using Ch = char;
        std::string* out;
        void Put(char c) { *out += c; }
        void Flush() {}
    };
    using Writer =
        rapidjson::Writer<Appender, rapidjson::UTF8<>, rapidjson::UTF8<>, rapidjson::CrtAllocator,
                          rapidjson::kWriteValidateEncodingFlag>;
    explicit Scalars(std::string& out) : appender{&out}, writer(appender) {}
    // A writer holds one root value: each scalar starts afresh.
    Writer& fresh() {
        writer.Reset(appender);
        return writer;
    }
    Appender appender;
    Writer writer;
};

ReadableJson::ReadableJson(std::string& out, size_t width)
    : out_(out), width_(width), scalars_(std::make_unique<Scalars>(out)) {}

ReadableJson::~ReadableJson() = default;

void ReadableJson::string(std::string_view s) {
    // RapidJSON escapes '"', '\\' and control characters and checks the UTF-8 of bytes from
    // 0x80: those strings go through it, the rest are written as they are.
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
            const size_t before = out_.size();
            if (!scalars_->fresh().String(s.data(), rapidjson::SizeType(s.size()))) {
                out_.resize(before);
                throw std::invalid_argument("a sidecar string is not valid UTF-8");
            }
            return;
        }
    }
    out_ += '"';
    out_ += s;
    out_ += '"';
}

void ReadableJson::to_lines(Level& l) {
    const size_t end_of_text = out_.size();
    std::string text;
    text.reserve(end_of_text - l.start + l.members.size() * (l.depth + 4) + l.depth + 2);
    text += l.object ? '{' : '[';
    for (size_t i = 0; i < l.members.size(); ++i) {
        const auto [first, value] = l.members[i];
        const size_t end = i + 1 < l.members.size() ? l.members[i + 1].first - 1 : end_of_text;
        text += i ? ",\n" : "\n";
        text.append(l.depth + 1, ' ');
        if (l.object) {
            text.append(out_, first, value - first);
            text += ' ';
        }
        text.append(out_, value, end - value);
    }
    out_.resize(l.start);
    out_ += text;
    l.lines = true;
    l.members.clear();
}

void ReadableJson::lay_out_open_levels() {
    // Outermost first; a compact level (inside a row) stays one line, and so do those inside it.
    for (size_t k = 0; k < used_ && !levels_[k].compact; ++k) {
        Level& l = levels_[k];
        if (l.lines) continue;
        const size_t before = out_.size();
        to_lines(l);
        // The levels inside lie in this one's last member, after every break it inserted.
        const size_t shift = out_.size() - before;
        for (size_t inner = k + 1; inner < used_; ++inner) {
            levels_[inner].start += shift;
            for (auto& [first, value] : levels_[inner].members) first += shift, value += shift;
        }
    }
}

void ReadableJson::separate() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (used_ == 0) return; // the document itself
    Level& l = levels_[used_ - 1];
    if (l.object) throw std::logic_error("ReadableJson: a member needs its key first");
    if (!l.lines && !l.compact && (l.forced || out_.size() - l.start > width_)) to_lines(l);
    if (l.lines) {
        out_ += l.count ? ",\n" : "\n";
        out_.append(l.depth + 1, ' ');
    } else {
        if (l.count) out_ += ',';
        if (!l.compact) l.members.emplace_back(out_.size(), out_.size());
    }
    ++l.count;
}

void ReadableJson::key(std::string_view name) {
    if (used_ == 0 || !levels_[used_ - 1].object || after_key_)
        throw std::logic_error("ReadableJson: a key outside an object");
    Level& l = levels_[used_ - 1];
    if (l.count && !(l.last_key < name))
        throw std::logic_error("ReadableJson: key '" + std::string(name) + "' after '" +
                               l.last_key + "' (members go in key order)");
    l.last_key = name;
    if (!l.lines && !l.compact && (l.forced || out_.size() - l.start > width_)) to_lines(l);
    const size_t first = out_.size() + (l.count ? 1 : 0);
    if (l.lines) {
        out_ += l.count ? ",\n" : "\n";
        out_.append(l.depth + 1, ' ');
    } else if (l.count) {
        out_ += ',';
    }
    string(name);
    out_ += l.lines ? ": " : ":";
    if (!l.lines && !l.compact) l.members.emplace_back(first, out_.size());
    ++l.count;
    after_key_ = true;
}

void ReadableJson::open(bool object, bool rows) {
    separate();
    const bool compact =
        used_ > 0 && (levels_[used_ - 1].compact || levels_[used_ - 1].rows); // inside a row
    if (used_ == levels_.size()) levels_.emplace_back();
    Level& l = levels_[used_];
    l.object = object;
    l.rows = rows;
    l.compact = compact;
    l.lines = rows;
    l.forced = false;
    l.depth = used_;
    l.start = out_.size();
    l.count = 0;
    l.members.clear();
    l.last_key.clear();
    ++used_;
    out_ += object ? '{' : '[';
    if (rows && !compact) lay_out_open_levels(); // a table puts every level around it on lines
}

void ReadableJson::close(bool object) {
    if (used_ == 0 || levels_[used_ - 1].object != object || after_key_)
        throw std::logic_error("ReadableJson: unbalanced close");
    Level& l = levels_[used_ - 1];
    if (!l.lines && !l.compact && (l.forced || out_.size() + 1 - l.start > width_)) to_lines(l);
    if (l.lines && l.count) {
        out_ += '\n';
        out_.append(l.depth, ' ');
    }
    out_ += object ? '}' : ']';
    const bool lines = l.lines;
    --used_;
    // A container on several lines does not fit its parent's line either.
    if (lines && used_ > 0) levels_[used_ - 1].forced = true;
}

void ReadableJson::begin_plain() {
    separate();
    if (used_ > 0) levels_[used_ - 1].forced = true;
    // Every open level ends on several lines: laid out now, before megabytes of text go in,
    // instead of copying them when each level finds out.
    lay_out_open_levels();
    out_ += '"';
}

void ReadableJson::plain_string(std::string_view v) {
    begin_plain();
    out_ += v;
    out_ += '"';
}

void ReadableJson::value(uint64_t v) {
    separate();
    char buf[24];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

void ReadableJson::value(int64_t v) {
    separate();
    char buf[24];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

void ReadableJson::value(double v) {
    separate();
    if (!std::isfinite(v)) {
        out_ += "null";
        return;
    }
    scalars_->fresh().Double(v);
}

void ReadableJson::value(bool v) {
    separate();
    out_ += v ? "true" : "false";
}

void ReadableJson::value(std::string_view v) {
    separate();
    string(v);
}

void ReadableJson::null() {
    separate();
    out_ += "null";
}

void ReadableJson::array(const std::vector<std::string>& values) {
    begin_array();
    for (const std::string& v : values) value(std::string_view(v));
    end_array();
}

} // namespace msh::sidecar
