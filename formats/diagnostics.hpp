// Diagnostics and the error type every reader throws: what went wrong and where (file, resource,
// byte offset), so a user can find the broken byte without a debugger.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace msh {

enum class ReadMode { Strict, Tolerant };
enum class Severity { Warning, Error };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string resource; // e.g. "Res7", "entry 3 'TANK.msh'", "" for the file as a whole
    uint64_t offset = 0;  // byte offset inside the file or nested image that `resource` lives in
    std::string message;

    std::string to_string() const;
};

class FormatError : public std::runtime_error {
  public:
    FormatError(std::string resource, uint64_t offset, const std::string& message);
    const std::string& resource() const { return resource_; }
    uint64_t offset() const { return offset_; }
    const std::string& message() const { return message_; }

  private:
    std::string resource_;
    uint64_t offset_;
    std::string message_;
};

// Collects diagnostics. Readers are bounds-safe in both modes and keep going after an error, so
// one pass reports every problem; the mode only decides how strict-only rules are graded.
// Public read(..., ReadMode) helpers throw after the pass when a strict read found errors.
class DiagnosticSink {
  public:
    explicit DiagnosticSink(ReadMode mode) : mode_(mode) {}
    ReadMode mode() const { return mode_; }
    void warn(std::string resource, uint64_t offset, std::string message);
    // An error in both modes (the data cannot be used as it is).
    void error(std::string resource, uint64_t offset, std::string message);
    // An error for the strict reader, a warning for the tolerant one (spec tables' two columns).
    void strict_error(std::string resource, uint64_t offset, std::string message);
    // Always throws: the damage makes any further reading meaningless (bad header, no directory).
    [[noreturn]] void fatal(std::string resource, uint64_t offset, const std::string& message);
    const std::vector<Diagnostic>& diagnostics() const { return items_; }
    bool has_errors() const;
    size_t warning_count() const;
    // Throws a FormatError for the first error (mentioning how many followed), if any.
    void throw_if_errors() const;

  private:
    ReadMode mode_;
    std::vector<Diagnostic> items_;
};

} // namespace msh
