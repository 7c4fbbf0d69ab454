// The pieces every binding sidecar (model, terrain, texture; docs/sidecar.md) writes and reads
// alike: hashed blocks of raw bytes, per-row checks and byte blocks read as arrays of values.
#pragma once

#include "json_at.hpp"

#include "formats/bytes.hpp"

#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace msh::sidecar {

class ReadableJson;

constexpr const char* kBindingSchema = "mshconv-sidecar/2";

// {"base64", "size", "xxh3_64"} of `bytes`, the base64 appended straight into the text.
void write_block(ReadableJson& w, ByteView bytes);
// A source record: {"address", "size", "xxh3_64"} of the payload an unedited import rebuilds.
void write_source(ReadableJson& w, std::string_view address, uint64_t size, uint64_t hash);
// An element of /blocks: {"base64", "entry", "size", "type", "xxh3_64"}.
void write_entry_block(ReadableJson& w, size_t entry, uint32_t type, ByteView bytes);
// {"base64", "size", "xxh3_64"} at `at`: the bytes, checked against both (`what` and `remedy`
// name them in the error at the failing member's pointer).
Bytes read_hashed_bytes(const JsonAt& at, const std::string& what, const std::string& remedy);
// A block of an entry or a table a person may edit (its error says how).
Bytes read_block(const JsonAt& at);

// The check of a row's bytes: the low 16 bits of its XXH3-64.
uint16_t row_check(ByteView bytes);
// The tables' row checks as the sidecar holds them (the "checks" object: per table, base64 of the
// 16-bit words), and back, a FormatError at its pointer for anything else.
void write_checks(ReadableJson& w, const std::map<std::string, std::vector<uint16_t>>& checks);
std::map<std::string, std::vector<uint16_t>> read_checks(const JsonAt& checks);

// Where a checks table's rows are in the sidecar: its JSON pointer, and whether the table is one
// value (a directory, a block) named as a whole rather than row by row.
struct CheckedTable {
    std::string pointer;
    bool whole = false;
};
// The pointers of what was edited: each row whose check differs from the recorded one, or a whole
// table (with its row counts) when its size or its one check changed. A table the recorded
// checks lack (an older sidecar) names nothing.
std::vector<std::string> edited_rows(const std::map<std::string, std::vector<uint16_t>>& now,
                                     const std::map<std::string, std::vector<uint16_t>>& recorded,
                                     CheckedTable (*where)(const std::string& table));

// Why an edit of /vertices (its check, `checks.vertices`, differs) is refused.
inline constexpr const char* kVertexRecordEdited =
    "the record of the vertices (which the file holds, which the sidecar carries, and their "
    "fingerprints) was edited: it is a record of the export, not an edit; restore it, and move "
    "vertices in the file";

// The warning for a row marked edited (its check differs) whose edit the output does not show:
// the file's value decides, or the check itself was edited. "SIDECAR: at ROW: ...".
std::string unread_edit_warning(const std::string& sidecar, const std::string& row);
// The warning for a layout text (how every file of this version is laid out) that was edited.
std::string unread_layout_warning(const std::string& sidecar, const std::string& pointer,
                                  std::string_view layout);

// Floats as the binding sidecars write them: the shortest round-trip number, a NaN or infinity as
// "bits:XXXXXXXX" (its exact bits).
std::string float_bits(float f);
// The double whose shortest form is the float's shortest round-trip form (what JSON writes).
double shortest_double(float f);
// Appends the float's JSON text (the shortest round-trip form, or its "bits:" string).
void append_float(std::string& out, float f);
// A number (null: NaN) or a "bits:" string; a FormatError at `at` for anything else.
float read_float(const JsonAt& at);

// `bytes` as values of T (a FormatError at `at` when they are not a whole number of them).
template <class T> std::vector<T> pod_from(const Bytes& bytes, const JsonAt& at) {
    if (bytes.size() % sizeof(T) != 0)
        at.fail("expected a multiple of " + std::to_string(sizeof(T)) + " bytes");
    std::vector<T> v(bytes.size() / sizeof(T));
    if (!bytes.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
}

// Stores `v`'s bytes at `out` and moves past them.
template <class T> void put_raw(uint8_t*& out, const T& v) {
    std::memcpy(out, &v, sizeof v);
    out += sizeof v;
}

} // namespace msh::sidecar
