// Diagnostics and the error type every reader throws: what went wrong and where (file, resource,
// and a location of the kind the format has: a byte offset in binary formats, a line and column
// in text (OBJ, WEAR), a JSON pointer in JSON (glTF, sidecars)), so a user can find the broken
// place without a debugger.
#pragma once

#include <mshconv/error.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace msh {

enum class ReadMode { Strict, Tolerant };
enum class Severity { Warning, Error };

// Where in its resource a problem is.
struct Location {
    enum class Kind { Offset, Line, Pointer, Whole };
    Kind kind = Kind::Offset;
    uint64_t offset = 0;          // Offset: bytes into the file or nested image
    uint64_t line = 0;            // Line: 1-based
    uint64_t column = 0;          // Line: 1-based, 0 = the whole line
    std::string pointer;          // Pointer: RFC 6901 JSON pointer ("" = the document)
    bool line_has_offset = false; // Line: `offset` is known too (text read as bytes: WEAR)

    static Location at_offset(uint64_t offset) { return {Kind::Offset, offset, 0, 0, {}, false}; }
    static Location at_line(uint64_t line, uint64_t column = 0) {
        return {Kind::Line, 0, line, column, {}, false};
    }
    static Location at_pointer(std::string pointer) {
        return {Kind::Pointer, 0, 0, 0, std::move(pointer), false};
    }
    // The resource as a whole (a conversion's finding about a model, not a place in its bytes).
    static Location whole() { return {Kind::Whole, 0, 0, 0, {}, false}; }
    // "offset 12", "line 3, column 7 (offset 12)", "line 3", "at /meshes/0/primitives", ""
    std::string to_string() const;
};

// The line and column (1-based) of byte `offset` of a text.
Location text_location(const uint8_t* text, size_t size, size_t offset);

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string resource; // e.g. "Res7", "entry 3 'TANK.msh'", "" for the file as a whole
    uint64_t offset = 0;  // byte offset inside the file or nested image that `resource` lives in
    std::string message;
    Location location = {}; // kind Offset: `offset` above; else a line or a JSON pointer

    std::string to_string() const; // "warning: " / "error: " + text()
    std::string text() const;      // "resource: location: message"
};

// The public mshconv::Error, thrown by the readers with the resource as the reader names it; the
// jobs then find the request's file and entries at its front (locate).
class FormatError : public mshconv::Error {
  public:
    FormatError(std::string resource, uint64_t offset, const std::string& message);
    FormatError(std::string resource, Location location, const std::string& message);
    const std::string& resource() const { return resource_; }
    uint64_t offset() const { return location_.offset; }
    const Location& location() const { return location_; }
    // When the resource is `file` with `entries` (an address's display, "a.rlb:B.msh") or starts
    // with it and ": ", the place names them apart; what() stays the same.
    void locate(const std::string& file, const std::vector<std::string>& entries);

  private:
    std::string resource_;
    Location location_;
};

// Collects diagnostics. Readers are bounds-safe in both modes and keep going after an error, so
// one pass reports every problem; the mode only decides how strict-only rules are graded.
// Public read(..., ReadMode) helpers throw after the pass when a strict read found errors.
class DiagnosticSink {
  public:
    explicit DiagnosticSink(ReadMode mode) : mode_(mode) {}
    ReadMode mode() const { return mode_; }
    void warn(std::string resource, uint64_t offset, std::string message);
    void warn(std::string resource, Location location, std::string message);
    // An error in both modes (the data cannot be used as it is).
    void error(std::string resource, uint64_t offset, std::string message);
    // A reader's FormatError as an error diagnostic, its location kept.
    void error(const FormatError& e);
    // An error for the strict reader, a warning for the tolerant one (spec tables' two columns).
    void strict_error(std::string resource, uint64_t offset, std::string message);
    // Always throws: the damage makes any further reading meaningless (bad header, no directory).
    [[noreturn]] void fatal(std::string resource, uint64_t offset, const std::string& message);
    const std::vector<Diagnostic>& diagnostics() const { return items_; }
    bool has_errors() const;
    size_t warning_count() const;
    // The text of every warning (Diagnostic::text), in order.
    std::vector<std::string> warning_texts() const;
    // Throws a FormatError for the first error (mentioning how many followed), if any.
    void throw_if_errors() const;

  private:
    ReadMode mode_;
    std::vector<Diagnostic> items_;
};

} // namespace msh
