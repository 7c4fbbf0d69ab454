// WEAR material list (texm-materials.md §11): a text table of material rows (legacy id + name;
// row r = Res13 material index r) and an optional LIGHTMAPS section.
//
// Exact read/write: besides the interpreted rows, a Wear keeps every line as it was written
// (its text and its own line end), the blank line before LIGHTMAPS and the bytes after the last
// row, so write(read(x)) == x for every valid x. Writing after an edit reuses the original text
// of every line whose value is unchanged and formats only the edited or new lines
// (`<legacyId> <name>`, the line-ending style found in the file; CRLF for new tables).
//
// What the reader accepts beyond the canonical form, and how it is kept (texm-materials.md §11):
// - LF or CRLF per line, also mixed (each line keeps its own end; new lines use the first one's);
// - spaces/tabs before, between and after the tokens (kept in the line's text);
// - tokens after the name (`<legacyId> <name> <more...>`, found in shipped tables): the name is
//   the second token, as the engine reads it; the rest is kept in `extra` and the line's text;
// - a LIGHTMAPS section with a count of 0 (shipped tables hold it);
// - a last line without a line end (kept; a line end is added only when a line is appended);
// - after the last row: blank lines, spaces, tabs and NUL padding (kept verbatim as `tail`);
// - numbers with leading zeros or a '+' sign (the original digits are kept).
// Everything else is an error naming the byte offset: a count that is not a number, a material
// count <= 0 ("Illegal wear length."), a lightmap count < 0 ("Illegal lightmaps length."), fewer
// rows than counted, a row that does not start `<integer> <token>`, a LIGHTMAPS not preceded by
// exactly one empty line, a stray CR, control bytes, or text after the last row.
#pragma once

#include "bytes.hpp"
#include "diagnostics.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace msh::wear {

struct Row {
    int32_t legacy_id = 0;            // parsed and kept, never used by the engine
    std::string name;                 // single token, CP1251 bytes as stored
    std::vector<std::string> extra{}; // tokens after the name, unused by the engine; kept
    bool operator==(const Row&) const = default;
};

enum class LineEnding { Crlf, Lf };

// One line as written: its text without the terminator, and the terminator ("\r\n", "\n", or ""
// for a last line that has none).
struct Line {
    std::string text;
    std::string end;
    bool operator==(const Line&) const = default;
};

// The text of a table as read. Empty for a table built in code: the writer then formats every
// line. Positions beyond the stored lines (appended rows) are formatted too.
struct Layout {
    Line count;
    std::vector<Line> material_rows;
    Line blank;             // the empty line before LIGHTMAPS (may hold spaces/tabs)
    Line lightmaps_keyword; // "LIGHTMAPS"
    Line lightmap_count;
    std::vector<Line> lightmap_rows;
    bool lightmaps_section = false; // a LIGHTMAPS section was read (its count may be 0)
    Bytes tail;                     // after the last row: blank lines, spaces, tabs, NULs, verbatim
    bool present = false;           // false for a table built in code
};

struct Wear {
    std::vector<Row> materials; // must not be empty
    std::vector<Row> lightmaps; // empty: no section, or one with count 0 (layout.lightmaps_section)
    LineEnding line_ending = LineEnding::Crlf; // style of the lines the writer formats
    Layout layout;
};

// Throws FormatError (resource `where`, byte offset) on anything §11 does not allow (see above).
Wear read(ByteView bytes, const std::string& where);
// The same through a sink, like the binary readers: a problem becomes one error diagnostic (with
// its line, column and offset) and the result is empty.
std::optional<Wear> read(ByteView bytes, DiagnosticSink& sink, const std::string& where);

// The table as text: byte-identical to the bytes read when nothing changed. Throws FormatError
// for a table the game would reject or misread: no material rows, an empty name, a name with
// whitespace or control bytes.
Bytes write(const Wear& w);

// Names of the material rows / lightmap rows, in row order.
std::vector<std::string> material_names(const Wear& w);
std::vector<std::string> lightmap_names(const Wear& w);

} // namespace msh::wear
