#include "diagnostics.hpp"

#include <algorithm>

namespace msh {

namespace {
std::string describe(const std::string& resource, uint64_t offset, const std::string& message) {
    std::string s;
    if (!resource.empty()) s += resource + ": ";
    s += "offset " + std::to_string(offset) + ": " + message;
    return s;
}
} // namespace

std::string Diagnostic::to_string() const {
    return std::string(severity == Severity::Error ? "error: " : "warning: ") +
           describe(resource, offset, message);
}

FormatError::FormatError(std::string resource, uint64_t offset, const std::string& message)
    : std::runtime_error(describe(resource, offset, message)), resource_(std::move(resource)),
      offset_(offset) {}

void DiagnosticSink::warn(std::string resource, uint64_t offset, std::string message) {
    items_.push_back({Severity::Warning, std::move(resource), offset, std::move(message)});
}

void DiagnosticSink::error(std::string resource, uint64_t offset, std::string message) {
    if (mode_ == ReadMode::Strict) throw FormatError(std::move(resource), offset, message);
    items_.push_back({Severity::Error, std::move(resource), offset, std::move(message)});
}

void DiagnosticSink::fatal(std::string resource, uint64_t offset, const std::string& message) {
    throw FormatError(std::move(resource), offset, message);
}

bool DiagnosticSink::has_errors() const {
    return std::any_of(items_.begin(), items_.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

size_t DiagnosticSink::warning_count() const {
    return size_t(std::count_if(items_.begin(), items_.end(),
                                [](const Diagnostic& d) { return d.severity == Severity::Warning; }));
}

} // namespace msh
