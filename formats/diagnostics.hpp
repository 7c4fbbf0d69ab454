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

  private:
    std::string resource_;
    uint64_t offset_;
};

// Collects diagnostics; in strict mode an error is thrown at once, in tolerant mode it is kept.
class DiagnosticSink {
  public:
    explicit DiagnosticSink(ReadMode mode) : mode_(mode) {}
    ReadMode mode() const { return mode_; }
    void warn(std::string resource, uint64_t offset, std::string message);
    // Throws FormatError in strict mode; records and returns in tolerant mode.
    void error(std::string resource, uint64_t offset, std::string message);
    // Always throws: the damage makes any further reading meaningless.
    [[noreturn]] void fatal(std::string resource, uint64_t offset, const std::string& message);
    const std::vector<Diagnostic>& diagnostics() const { return items_; }
    bool has_errors() const;
    size_t warning_count() const;

  private:
    ReadMode mode_;
    std::vector<Diagnostic> items_;
};

} // namespace msh
