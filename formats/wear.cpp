#include "wear.hpp"

#include "diagnostics.hpp"

#include <cstdio>
#include <limits>
#include <optional>

namespace msh::wear {

namespace {

constexpr const char* kKeyword = "LIGHTMAPS";

bool is_blank_byte(uint8_t c) {
    return c == ' ' || c == '\t';
}

// Line reader over the raw bytes. A line ends at LF (its end is "\r\n" when a CR precedes it) or
// at a NUL (end "", the NUL stays unread: from there on only padding may follow).
struct Cursor {
    ByteView bytes;
    std::string where;
    size_t pos = 0;

    bool done() const { return pos >= bytes.size(); }
    // WEAR is text: problems are reported by line and column.
    Location location(size_t offset) const {
        return text_location(bytes.data(), bytes.size(), offset);
    }
    bool at_nul() const { return !done() && bytes[pos] == 0; }

    Line next(size_t& start) {
        start = pos;
        size_t end = pos;
        while (end < bytes.size() && bytes[end] != '\n' && bytes[end] != 0) ++end;
        Line line;
        size_t text_end = end;
        if (end < bytes.size() && bytes[end] == '\n') {
            line.end = "\n";
            if (text_end > pos && bytes[text_end - 1] == '\r') {
                --text_end;
                line.end = "\r\n";
            }
            pos = end + 1;
        } else {
            pos = end; // NUL or end of data
        }
        line.text.assign(bytes.begin() + long(start), bytes.begin() + long(text_end));
        for (size_t i = 0; i < line.text.size(); ++i) {
            const auto c = static_cast<uint8_t>(line.text[i]);
            if (c == '\r')
                throw FormatError(where, location(start + i),
                                  "stray carriage return (not followed by LF)");
            if (c < 0x20 && c != '\t') {
                char hex[8];
                std::snprintf(hex, sizeof hex, "0x%02X", unsigned(c));
                throw FormatError(where, location(start + i), std::string("control byte ") + hex);
            }
        }
        return line;
    }
};

// The whitespace-separated tokens of a line.
std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> t;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && is_blank_byte(uint8_t(text[i]))) ++i;
        const size_t b = i;
        while (i < text.size() && !is_blank_byte(uint8_t(text[i]))) ++i;
        if (i > b) t.push_back(text.substr(b, i - b));
    }
    return t;
}

// A decimal integer with an optional sign (the engine reads numbers the C way: "+7" and "007"
// are 7). nullopt when `s` is not one or does not fit 32 bits.
std::optional<int64_t> parse_int(const std::string& s) {
    size_t i = 0;
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    if (i == s.size()) return std::nullopt;
    int64_t v = 0;
    for (; i < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9') return std::nullopt;
        v = v * 10 + (s[i] - '0');
        if (v > int64_t(std::numeric_limits<int32_t>::max()) + 1) return std::nullopt;
    }
    v = negative ? -v : v;
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
        return std::nullopt;
    return v;
}

std::optional<int64_t> count_value(const std::string& text) {
    const auto t = split(text);
    if (t.size() != 1) return std::nullopt;
    return parse_int(t[0]);
}

// `<legacyId> <name> [more tokens]`: the engine reads the first two (texm-materials.md §11).
std::optional<Row> row_value(const std::string& text) {
    const auto t = split(text);
    if (t.size() < 2) return std::nullopt;
    const auto id = parse_int(t[0]);
    if (!id) return std::nullopt;
    return Row{int32_t(*id), t[1], std::vector<std::string>(t.begin() + 2, t.end())};
}

bool is_blank(const std::string& text) {
    for (char c : text)
        if (!is_blank_byte(uint8_t(c))) return false;
    return true;
}

// The count line and its rows. `illegal` is the engine's message for a count below `minimum`.
std::vector<Row> read_rows(Cursor& in, Line& count_line, std::vector<Line>& row_lines,
                           const char* what, const char* illegal, int64_t minimum) {
    size_t at = 0;
    if (in.done() || in.at_nul())
        throw FormatError(in.where, in.location(in.pos),
                          std::string("expected the ") + what + ", found the end");
    count_line = in.next(at);
    const auto count = count_value(count_line.text);
    if (!count)
        throw FormatError(in.where, in.location(at),
                          std::string("expected the ") + what + ", found '" + count_line.text +
                              "'");
    if (*count < minimum)
        throw FormatError(in.where, in.location(at),
                          std::string(illegal) + " (" + what + " " + std::to_string(*count) +
                              ", must be >= " + std::to_string(minimum) + ")");
    std::vector<Row> rows;
    for (int64_t i = 0; i < *count; ++i) {
        if (in.done() || in.at_nul())
            throw FormatError(in.where, in.location(in.pos),
                              std::string(what) + " says " + std::to_string(*count) +
                                  " rows, found " + std::to_string(i));
        Line line = in.next(at);
        const auto row = row_value(line.text);
        if (!row)
            throw FormatError(in.where, in.location(at),
                              "row " + std::to_string(i) + " '" + line.text +
                                  "' does not start '<legacyId> <name>' (an integer and a token)");
        rows.push_back(*row);
        row_lines.push_back(std::move(line));
    }
    return rows;
}

// After the last row only padding may follow: blank lines, spaces, tabs, NULs.
void check_tail(const Cursor& in, const char* after) {
    for (size_t i = in.pos; i < in.bytes.size(); ++i) {
        const uint8_t c = in.bytes[i];
        if (is_blank_byte(c) || c == '\r' || c == '\n' || c == 0) continue;
        size_t line_start = i;
        while (line_start > in.pos && in.bytes[line_start - 1] != '\n') --line_start;
        size_t line_end = i;
        while (line_end < in.bytes.size() && in.bytes[line_end] != '\n' &&
               in.bytes[line_end] != '\r' && in.bytes[line_end] != 0)
            ++line_end;
        const std::string line(in.bytes.begin() + long(line_start),
                               in.bytes.begin() + long(line_end));
        if (const auto t = split(line); t.size() == 1 && t[0] == kKeyword)
            throw FormatError(in.where, in.location(line_start),
                              std::string("LIGHTMAPS must follow the last material row after "
                                          "exactly one empty line (texm-materials.md §11)"));
        throw FormatError(in.where, in.location(i),
                          std::string("unexpected text '") + line + "' after the " + after +
                              " (does the count match the rows?)");
    }
}

void append(Bytes& out, const std::string& s) {
    out.insert(out.end(), s.begin(), s.end());
}

void check_token_for_write(const std::string& token, const std::string& where) {
    if (token.empty()) throw FormatError(where, 0, "empty name");
    for (char c : token) {
        const auto u = static_cast<uint8_t>(c);
        if (u <= 0x20)
            throw FormatError(where, 0,
                              "name '" + token +
                                  "' must be one token (no spaces, tabs, line ends or control "
                                  "bytes)");
    }
}

void check_row_for_write(const Row& r, const char* what, size_t index) {
    const std::string where = std::string("WEAR ") + what + " row " + std::to_string(index);
    check_token_for_write(r.name, where);
    for (const std::string& t : r.extra) check_token_for_write(t, where);
}

std::string format_row(const Row& r) {
    std::string text = std::to_string(r.legacy_id) + " " + r.name;
    for (const std::string& t : r.extra) text += " " + t;
    return text;
}

} // namespace

std::optional<Wear> read(ByteView bytes, DiagnosticSink& sink, const std::string& where) {
    try {
        return read(bytes, where);
    } catch (const FormatError& e) {
        sink.error(e);
        return std::nullopt;
    }
}

Wear read(ByteView bytes, const std::string& where) {
    Cursor in{bytes, where};
    Wear w;
    Layout& l = w.layout;
    l.present = true;
    w.materials =
        read_rows(in, l.count, l.material_rows, "material count", "Illegal wear length.", 1);
    w.line_ending = l.count.end == "\n" ? LineEnding::Lf : LineEnding::Crlf;

    // Exactly one (blank) line, then LIGHTMAPS: anything else after the rows is padding or wrong.
    const size_t after_rows = in.pos;
    if (!in.done() && !in.at_nul()) {
        size_t at = 0;
        Line blank = in.next(at);
        if (is_blank(blank.text) && !blank.end.empty() && !in.done() && !in.at_nul()) {
            Line keyword = in.next(at);
            const auto t = split(keyword.text);
            if (t.size() == 1 && t[0] == kKeyword) {
                l.blank = std::move(blank);
                l.lightmaps_keyword = std::move(keyword);
                l.lightmaps_section = true;
                w.lightmaps = read_rows(in, l.lightmap_count, l.lightmap_rows, "lightmap count",
                                        "Illegal lightmaps length.", 0);
                check_tail(in, "lightmap rows");
                l.tail.assign(bytes.begin() + long(in.pos), bytes.end());
                return w;
            }
        }
    }
    in.pos = after_rows;
    check_tail(in, "material rows");
    l.tail.assign(bytes.begin() + long(in.pos), bytes.end());
    return w;
}

Bytes write(const Wear& w) {
    if (w.materials.empty())
        throw FormatError("WEAR", 0, "Illegal wear length. (no material rows; must be > 0)");
    for (size_t i = 0; i < w.materials.size(); ++i)
        check_row_for_write(w.materials[i], "material", i);
    for (size_t i = 0; i < w.lightmaps.size(); ++i)
        check_row_for_write(w.lightmaps[i], "lightmap", i);

    const Layout& l = w.layout;
    const std::string style = w.line_ending == LineEnding::Lf ? "\n" : "\r\n";
    std::vector<Line> lines;
    // The stored line when its value is still the one to write, else the formatted line with
    // the stored line end (or the style's for a new line).
    auto emit = [&](const Line* stored, bool stored_matches, std::string formatted) {
        if (stored && stored_matches)
            lines.push_back(*stored);
        else
            lines.push_back({std::move(formatted), stored ? stored->end : style});
    };
    auto emit_count = [&](const Line* stored, size_t count) {
        const auto v = stored ? count_value(stored->text) : std::nullopt;
        emit(stored, v && *v == int64_t(count), std::to_string(count));
    };
    auto emit_rows = [&](const std::vector<Row>& rows, const std::vector<Line>& stored) {
        for (size_t i = 0; i < rows.size(); ++i) {
            const Line* s = i < stored.size() ? &stored[i] : nullptr;
            const auto v = s ? row_value(s->text) : std::nullopt;
            emit(s, v && *v == rows[i], format_row(rows[i]));
        }
    };

    emit_count(l.present ? &l.count : nullptr, w.materials.size());
    emit_rows(w.materials, l.material_rows);
    // A section read with count 0 stays; one whose rows were all removed goes.
    const bool empty_section_read = l.present && l.lightmaps_section && l.lightmap_rows.empty();
    if (!w.lightmaps.empty() || empty_section_read) {
        // The section as read (blank line, keyword, count), or a new one.
        const bool had_lightmaps = l.present && l.lightmaps_section;
        emit(had_lightmaps ? &l.blank : nullptr, true, "");
        emit(had_lightmaps ? &l.lightmaps_keyword : nullptr, true, kKeyword);
        emit_count(had_lightmaps ? &l.lightmap_count : nullptr, w.lightmaps.size());
        emit_rows(w.lightmaps, l.lightmap_rows);
    }

    Bytes out;
    for (size_t i = 0; i < lines.size(); ++i) {
        append(out, lines[i].text);
        // A stored last line without a line end gets one when something follows it now.
        append(out, lines[i].end.empty() && i + 1 < lines.size() ? style : lines[i].end);
    }
    // The padding that followed the last row (an unchanged table: exactly as read). Padding
    // after a last line without a line end can only be NULs, which stay valid there.
    out.insert(out.end(), l.tail.begin(), l.tail.end());
    return out;
}

std::vector<std::string> material_names(const Wear& w) {
    std::vector<std::string> names;
    for (const Row& r : w.materials) names.push_back(r.name);
    return names;
}

std::vector<std::string> lightmap_names(const Wear& w) {
    std::vector<std::string> names;
    for (const Row& r : w.lightmaps) names.push_back(r.name);
    return names;
}

} // namespace msh::wear
