#include "binding_fields.hpp"

#include "base64.hpp"
#include "payload_hash.hpp"
#include "readable_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace msh::sidecar {

Bytes read_hashed_bytes(const JsonAt& at, const std::string& what, const std::string& remedy) {
    Bytes bytes;
    try {
        bytes = from_base64(at["base64"].as_string_view());
    } catch (const std::invalid_argument& e) {
        at["base64"].fail(e.what());
    }
    if (at["size"].as<uint64_t>() != bytes.size())
        at["size"].fail(what + " is " + std::to_string(bytes.size()) + " bytes, the sidecar says " +
                        std::to_string(at["size"].as<uint64_t>()));
    const PayloadHashCheck hash = check_payload_hash(at, bytes);
    if (!hash.matches)
        at[hash.key].fail(what + " does not match its recorded hash (" + remedy + ")");
    return bytes;
}

Bytes read_block(const JsonAt& at) {
    return read_hashed_bytes(at, "the block", "an edited block needs its new size and xxh3_64");
}

std::string float_bits(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    char hex[9];
    std::snprintf(hex, sizeof hex, "%08x", bits);
    return std::string("bits:") + hex;
}

double shortest_double(float f) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, f);
    double d = 0;
    std::from_chars(buf, r.ptr, d);
    return d;
}

void append_float(std::string& out, float f) {
    if (!std::isfinite(f)) {
        out += '"' + float_bits(f) + '"';
        return;
    }
    if (f == 0 && std::signbit(f)) {
        out += "-0.0"; // "-0" would read back as the integer 0
        return;
    }
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, f);
    out.append(buf, r.ptr);
}

float read_float(const JsonAt& at) {
    if (at.is_string()) {
        const std::string s = at.as<std::string>();
        uint32_t bits = 0;
        if (s.size() != 13 || s.compare(0, 5, "bits:") != 0 ||
            std::from_chars(s.data() + 5, s.data() + 13, bits, 16).ptr != s.data() + 13)
            at.fail("expected a number or \"bits:XXXXXXXX\" (8 hex digits)");
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    }
    return at.as_float_or_nan();
}

uint16_t row_check(ByteView bytes) {
    return uint16_t(payload_hash(bytes));
}

void write_checks(ReadableJson& w, const std::map<std::string, std::vector<uint16_t>>& checks) {
    w.begin_object();
    for (const auto& [table, rows] : checks) w.member(table, to_base64(pod_view(rows)));
    w.end_object();
}

void write_block(ReadableJson& w, ByteView bytes) {
    w.begin_object();
    w.key("base64");
    w.plain_string_with([&](std::string& out) { append_base64(out, bytes); });
    w.member("size", uint64_t(bytes.size()));
    w.member(kPayloadHashKey, hex64(payload_hash(bytes)));
    w.end_object();
}

void write_source(ReadableJson& w, std::string_view address, uint64_t size, uint64_t hash) {
    w.begin_object();
    w.member("address", address);
    w.member("size", size);
    w.member(kPayloadHashKey, hex64(hash));
    w.end_object();
}

void write_entry_block(ReadableJson& w, size_t entry, uint32_t type, ByteView bytes) {
    w.begin_object();
    w.key("base64");
    w.plain_string_with([&](std::string& out) { append_base64(out, bytes); });
    w.member("entry", uint64_t(entry));
    w.member("size", uint64_t(bytes.size()));
    w.member("type", type);
    w.member(kPayloadHashKey, hex64(payload_hash(bytes)));
    w.end_object();
}

std::map<std::string, std::vector<uint16_t>> read_checks(const JsonAt& checks) {
    if (!checks.is_object()) checks.fail("expected an object of row checks");
    std::map<std::string, std::vector<uint16_t>> out;
    for (const std::string& key : checks.keys()) {
        const JsonAt c = checks[key];
        Bytes raw;
        try {
            raw = from_base64(c.as_string_view());
        } catch (const std::invalid_argument& x) {
            c.fail(x.what());
        }
        out[key] = pod_from<uint16_t>(raw, c);
    }
    return out;
}

std::vector<std::string> edited_rows(const std::map<std::string, std::vector<uint16_t>>& now,
                                     const std::map<std::string, std::vector<uint16_t>>& recorded,
                                     CheckedTable (*where)(const std::string& table)) {
    std::vector<std::string> edited;
    for (const auto& [table, rows] : now) {
        const auto it = recorded.find(table);
        if (it == recorded.end()) continue; // a sidecar without checks for it: nothing to name
        const CheckedTable at = where(table);
        if (rows.size() != it->second.size()) {
            edited.push_back(at.pointer + " (" + std::to_string(it->second.size()) + " -> " +
                             std::to_string(rows.size()) + " rows)");
            continue;
        }
        if (at.whole) {
            if (rows != it->second) edited.push_back(at.pointer);
            continue;
        }
        for (size_t i = 0; i < rows.size(); ++i)
            if (rows[i] != it->second[i]) edited.push_back(at.pointer + "/" + std::to_string(i));
    }
    return edited;
}

std::string unread_edit_warning(const std::string& sidecar, const std::string& row) {
    return sidecar + ": at " + row.substr(0, row.find(' ')) +
           ": marked edited (its check in /checks differs), but the output is the original: the "
           "file's value decides, or the check was edited; the edit is not read";
}

std::string unread_layout_warning(const std::string& sidecar, const std::string& pointer,
                                  std::string_view layout) {
    return sidecar + ": at " + pointer + ": not read: every file of this export is laid out as \"" +
           std::string(layout) + "\"";
}

} // namespace msh::sidecar
