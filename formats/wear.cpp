#include "wear.hpp"

#include "diagnostics.hpp"

#include <charconv>

namespace msh::wear {

namespace {

struct Lines {
    ByteView bytes;
    size_t pos = 0;
    bool done() const { return pos >= bytes.size(); }
    // Next line without its CR/LF; `start` receives its offset.
    std::string next(size_t& start) {
        start = pos;
        size_t end = pos;
        while (end < bytes.size() && bytes[end] != '\n' && bytes[end] != '\r') ++end;
        std::string line(bytes.begin() + long(pos), bytes.begin() + long(end));
        if (end < bytes.size() && bytes[end] == '\r') ++end;
        if (end < bytes.size() && bytes[end] == '\n') ++end;
        pos = end;
        return line;
    }
};

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

int64_t parse_count(const std::string& line, const std::string& where, size_t at,
                    const char* what) {
    const std::string t = trim(line);
    int64_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
        throw FormatError(where, at,
                          std::string("expected the ") + what + ", found '" + line + "'");
    return v;
}

Row parse_row(const std::string& line, const std::string& where, size_t at) {
    const std::string t = trim(line);
    const auto sp = t.find_first_of(" \t");
    Row row;
    if (sp == std::string::npos)
        throw FormatError(where, at, "row '" + line + "' is not '<legacyId> <name>'");
    const auto r = std::from_chars(t.data(), t.data() + sp, row.legacy_id);
    if (r.ec != std::errc() || r.ptr != t.data() + sp)
        throw FormatError(where, at, "row '" + line + "': legacy id is not an integer");
    row.name = trim(t.substr(sp));
    if (row.name.empty() || row.name.find_first_of(" \t") != std::string::npos)
        throw FormatError(where, at, "row '" + line + "': the name must be one token");
    return row;
}

std::vector<Row> parse_rows(Lines& in, const std::string& where, const char* what) {
    size_t at = 0;
    const int64_t count = parse_count(in.next(at), where, at, what);
    if (count <= 0)
        throw FormatError(where, at,
                          std::string("illegal ") + what + " " + std::to_string(count) +
                              " (must be > 0)");
    std::vector<Row> rows;
    for (int64_t i = 0; i < count; ++i) {
        if (in.done())
            throw FormatError(where, in.pos,
                              std::string(what) + " says " + std::to_string(count) +
                                  " rows, found " + std::to_string(i));
        const std::string line = in.next(at);
        rows.push_back(parse_row(line, where, at));
    }
    return rows;
}

} // namespace

Wear read(ByteView bytes, const std::string& where) {
    Lines in{bytes};
    Wear w;
    w.materials = parse_rows(in, where, "material count");
    // Optional: one empty line, LIGHTMAPS, count, rows. Anything else after the rows is an error,
    // except trailing empty lines / NUL padding.
    while (!in.done()) {
        size_t at = 0;
        const std::string line = trim(in.next(at));
        if (line.empty() || line.find_first_not_of('\0') == std::string::npos) continue;
        if (line != "LIGHTMAPS" || !w.lightmaps.empty())
            throw FormatError(where, at, "unexpected line '" + line + "' after the material rows");
        w.lightmaps = parse_rows(in, where, "lightmap count");
    }
    return w;
}

std::vector<std::string> material_names(const Wear& w) {
    std::vector<std::string> names;
    for (const Row& r : w.materials) names.push_back(r.name);
    return names;
}

} // namespace msh::wear
