// Scene -> Wavefront OBJ + MTL. OBJ has no hierarchy: every node's rest-pose world transform is
// baked into its positions and normals. One `o` per mesh node, one `g` + `usemtl` per primitive
// (`g <object>.batch<k>` keeps the batch identity), `vt u 1-v`, shortest round-trip floats.
#pragma once

#include "scene/scene.hpp"

#include <array>
#include <functional>
#include <string_view>
#include <utility>

#include <string>
#include <vector>

namespace msh::obj {

struct Files {
    std::string obj;
    std::string mtl;
    std::vector<scene::ImageFile> images; // `<image_prefix><image>.png` beside the OBJ
};

// `mtl_name` is referenced by `mtllib` (the MTL's file name beside the OBJ). A material with a
// base-colour image gets `map_Kd <image_prefix><image>.png`.
Files write(const scene::Scene& scene, const std::string& mtl_name,
            const std::string& image_prefix = {});

// Reads OBJ text into the scene: one root node per `o` (positions as written: world space), one
// primitive per `g`/`usemtl` run, its vertices the distinct (v, vt, vn) triples it uses ordered by
// v index; `vt` v is flipped back; polygons are fanned into triangles. Throws FormatError naming
// `where` and the line on bad input.
scene::Scene read(const std::string& text, const std::string& where);

// The pairing token of `# mshconv pair TOKEN` among the leading comment lines, or "".
std::string pairing_comment(std::string_view text);

// The name as the writer prints it after `o`, `g` and `usemtl`: one token (whitespace becomes
// '_', an empty name "unnamed").
std::string name_token(const std::string& name);

// Closed polylines (`l a b ... a`) as one more object after what `write` produced, the vertex
// indices continuing after the file's `v` lines. `runs` are [begin, end) ranges of `positions`,
// one polyline each (the terrain's areal outlines: OBJ viewers draw `l`, not glTF-style LINES).
void append_closed_polylines(Files& files, const std::string& object,
                             const std::vector<std::array<float, 3>>& positions,
                             const std::vector<std::pair<size_t, size_t>>& runs);

// ---- The OBJ text level: every OBJ reader of the project goes through it ----

// One statement: its keyword and arguments, with its line for messages.
struct Statement {
    size_t line = 0;                    // 1-based
    std::string_view keyword;           // v, vt, vn, f, l, o, g, usemtl, ...
    std::string_view rest;              // the text after the keyword (leading blanks skipped)
    std::vector<std::string_view> args; // `rest` split at blanks
};

// Calls `visit` for every line that has a keyword, in order (CR before LF dropped; a line ending
// in '\' continues on the next; a UTF-8 BOM skipped). Text that is not ASCII-compatible (UTF-16,
// UTF-32: NUL bytes) is a FormatError naming `where`.
void scan(std::string_view text, const std::string& where,
          const std::function<void(const Statement&)>& visit);
// The file names of the `mtllib` statements (the import takes materials by their usemtl names;
// the caller warns when a library is missing).
std::vector<std::string> material_libraries(std::string_view text, const std::string& where);
// Throws FormatError naming `where` and the statement's line: "line N: what".
[[noreturn]] void fail(const std::string& where, const Statement& statement,
                       const std::string& what);
// A whole token as a float (a leading '+' is allowed); fails with "'token' is not a number".
float number(std::string_view token, const std::string& where, const Statement& statement);
// The same to double precision (a level's frame corners, read as written).
double precise_number(std::string_view token, const std::string& where, const Statement& statement);
// Part `part` (0 v, 1 vt, 2 vn) of a `v/vt/vn` reference as a 1-based index into `count`
// elements: negative indices count back from the end; 0 when the part is absent. Fails with
// "bad index" / "index N is out of range".
long reference(std::string_view ref, int part, size_t count, const std::string& where,
               const Statement& statement);

} // namespace msh::obj
