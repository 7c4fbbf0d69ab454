#include "diagnostics.hpp"

#include <algorithm>

namespace msh {

namespace {
std::string describe(const std::string& resource, const Location& at, const std::string& message) {
    std::string s;
    if (!resource.empty()) s += resource + ": ";
    if (at.kind != Location::Kind::Whole) s += at.to_string() + ": ";
    return s + message;
}
} // namespace

std::string Location::to_string() const {
    switch (kind) {
    case Kind::Offset:
        return "offset " + std::to_string(offset);
    case Kind::Line:
        return "line " + std::to_string(line) +
               (column ? ", column " + std::to_string(column) : std::string()) +
               (line_has_offset ? " (offset " + std::to_string(offset) + ")" : std::string());
    case Kind::Pointer:
        return "at " + (pointer.empty() ? std::string("/") : pointer);
    case Kind::Whole:
        return {};
    }
    return {};
}

Location text_location(const uint8_t* text, size_t size, size_t offset) {
    uint64_t line = 1, column = 1;
    for (size_t i = 0; i < offset && i < size; ++i) {
        if (text[i] == '\n')
            ++line, column = 1;
        else
            ++column;
    }
    Location at = Location::at_line(line, column);
    at.offset = offset;
    at.line_has_offset = true;
    return at;
}

std::string Diagnostic::to_string() const {
    return std::string(severity == Severity::Error ? "error: " : "warning: ") + text();
}

std::string Diagnostic::text() const {
    const Location at =
        location.kind == Location::Kind::Offset ? Location::at_offset(offset) : location;
    return describe(resource, at, message);
}

FormatError::FormatError(std::string resource, uint64_t offset, const std::string& message)
    : FormatError(std::move(resource), Location::at_offset(offset), message) {}

namespace {

mshconv::ErrorPlace place_of(const std::string& resource, const Location& at) {
    mshconv::ErrorPlace place;
    place.resource = resource;
    switch (at.kind) {
    case Location::Kind::Offset:
        place.offset = at.offset;
        break;
    case Location::Kind::Line:
        place.line = at.line;
        if (at.column) place.column = at.column;
        if (at.line_has_offset) place.offset = at.offset;
        break;
    case Location::Kind::Pointer:
        place.pointer = at.pointer;
        break;
    case Location::Kind::Whole:
        break;
    }
    return place;
}

} // namespace

FormatError::FormatError(std::string resource, Location location, const std::string& message)
    : mshconv::Error(place_of(resource, location), message), resource_(std::move(resource)),
      location_(std::move(location)) {}

void FormatError::locate(const std::string& file, const std::vector<std::string>& entries) {
    if (file.empty() || !place().file.empty()) return;
    std::string display = file;
    for (const std::string& e : entries) display += ":" + e;
    if (resource_ != display && resource_.rfind(display + ": ", 0) != 0) return;
    mshconv::ErrorPlace place = this->place();
    place.file = file;
    place.entries = entries;
    place.resource = resource_.size() > display.size() ? resource_.substr(display.size() + 2) : "";
    set_place(std::move(place));
}

void DiagnosticSink::error(const FormatError& e) {
    items_.push_back({Severity::Error, e.resource(), e.offset(), e.message(), e.location()});
}

void DiagnosticSink::warn(std::string resource, uint64_t offset, std::string message) {
    items_.push_back({Severity::Warning, std::move(resource), offset, std::move(message)});
}

void DiagnosticSink::warn(std::string resource, Location location, std::string message) {
    items_.push_back({Severity::Warning, std::move(resource), location.offset, std::move(message),
                      std::move(location)});
}

std::vector<std::string> DiagnosticSink::warning_texts() const {
    std::vector<std::string> out;
    for (const Diagnostic& d : items_)
        if (d.severity == Severity::Warning) out.push_back(d.text());
    return out;
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
    const Location at = first->location.kind == Location::Kind::Offset
                            ? Location::at_offset(first->offset)
                            : first->location;
    throw FormatError(first->resource, at, first->message + more);
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

namespace mshconv {

std::string describe(const ErrorPlace& place, const std::string& message) {
    std::string s = place.file;
    for (const std::string& e : place.entries) s += ":" + e;
    if (!place.resource.empty()) s += (s.empty() ? "" : ": ") + place.resource;
    if (!s.empty()) s += ": ";
    if (place.pointer) {
        s += "at " + (place.pointer->empty() ? std::string("/") : *place.pointer) + ": ";
    } else if (place.line) {
        s += "line " + std::to_string(*place.line);
        if (place.column) s += ", column " + std::to_string(*place.column);
        if (place.offset) s += " (offset " + std::to_string(*place.offset) + ")";
        s += ": ";
    } else if (place.offset) {
        s += "offset " + std::to_string(*place.offset) + ": ";
    }
    return s + message;
}

Error::Error(ErrorPlace place, const std::string& message)
    : std::runtime_error(describe(place, message)), place_(std::move(place)), message_(message) {}

} // namespace mshconv
