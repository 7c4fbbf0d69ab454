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
      offset_(offset), message_(message) {}

void DiagnosticSink::warn(std::string resource, uint64_t offset, std::string message) {
    items_.push_back({Severity::Warning, std::move(resource), offset, std::move(message)});
}

void DiagnosticSink::error(std::string resource, uint64_t offset, std::string message) {
    items_.push_back({Severity::Error, std::move(resource), offset, std::move(message)});
}

void DiagnosticSink::strict_error(std::string resource, uint64_t offset, std::string message) {
    items_.push_back({mode_ == ReadMode::Strict ? Severity::Error : Severity::Warning,
                      std::move(resource), offset, std::move(message)});
}

void DiagnosticSink::throw_if_errors() const {
    size_t errors = 0;
    const Diagnostic* first = nullptr;
    for (const Diagnostic& d : items_)
        if (d.severity == Severity::Error && errors++ == 0) first = &d;
    if (!first) return;
    std::string more = errors > 1 ? " (and " + std::to_string(errors - 1) + " more errors)" : "";
    throw FormatError(first->resource, first->offset, first->message + more);
}

void DiagnosticSink::fatal(std::string resource, uint64_t offset, const std::string& message) {
    throw FormatError(std::move(resource), offset, message);
}

bool DiagnosticSink::has_errors() const {
    return std::any_of(items_.begin(), items_.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

size_t DiagnosticSink::warning_count() const {
    return size_t(std::count_if(items_.begin(), items_.end(), [](const Diagnostic& d) {
        return d.severity == Severity::Warning;
    }));
}

} // namespace msh
