#include "nres_manifest.hpp"

#include "convert.hpp"

#include "formats/file_io.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/json_at.hpp"

#include <algorithm>
#include <stdexcept>

namespace msh::cli::manifest {

using nlohmann::json;

namespace {

Bytes from_hex(const std::string& s, const std::string& where) {
    try {
        return sidecar::from_hex(s);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(where + ": " + e.what());
    }
}

} // namespace

FileNames::FileNames() {
    taken_.insert(kFileName);
}

namespace {

// Names Windows reserves for devices, with or without an extension (a mirror may be copied there).
bool reserved_device_name(const std::string& name) {
    const std::string stem = lower_ascii(name.substr(0, name.find('.')));
    if (stem == "con" || stem == "prn" || stem == "aux" || stem == "nul") return true;
    return stem.size() == 4 && (stem.starts_with("com") || stem.starts_with("lpt")) &&
           stem[3] >= '1' && stem[3] <= '9';
}

} // namespace

std::string FileNames::claim_for_entry(const std::string& entry_name, size_t index) {
    // A file name that stays in its folder on any system: no separators, drive colons, control
    // bytes or characters Windows refuses; no device name; no trailing dot or space. The raw name
    // stays in the manifest (raw_name), so the archive comes back exactly.
    std::string base;
    for (char c : cp1251_to_utf8(entry_name)) {
        const auto u = static_cast<unsigned char>(c);
        const bool refused =
            u < 32 || u == 127 || std::string_view("/\\:<>\"|?*").find(c) != std::string_view::npos;
        base += refused ? '_' : c;
    }
    if (base.empty() || base == "." || base == ".." || lower_ascii(base) == kFileName)
        base = "entry_" + std::to_string(index);
    if (reserved_device_name(base)) base = "_" + base;
    if (base.back() == '.' || base.back() == ' ') base.back() = '_';
    std::string name = base;
    for (int n = 1; taken_.count(lower_ascii(name)); ++n) name = base + "~" + std::to_string(n);
    taken_.insert(lower_ascii(name));
    return name;
}

bool FileNames::claim_all(const std::string& stem, const std::vector<std::string>& suffixes) {
    for (const std::string& s : suffixes)
        if (taken_.count(lower_ascii(stem + s))) return false;
    for (const std::string& s : suffixes) taken_.insert(lower_ascii(stem + s));
    return true;
}

std::string FileNames::claim_stem(const std::string& stem,
                                  const std::vector<std::string>& suffixes) {
    std::string s = stem;
    for (int n = 1; !claim_all(s, suffixes); ++n) s = stem + "~" + std::to_string(n);
    return s;
}

json make(const nres::Archive& ar, const std::string& source, const std::vector<json>& payloads) {
    json entries = json::array();
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        const nres::Entry& e = ar.entries[i];
        json je = i < payloads.size() && payloads[i].is_object() ? payloads[i] : json::object();
        je["name"] = cp1251_to_utf8(e.name()); // readable; raw_name is the truth
        je["raw_name"] = sidecar::to_hex(e.raw_name);
        je["type"] = e.type;
        je["attr1"] = e.attr1;
        je["attr2"] = e.attr2;
        je["attr3"] = e.attr3;
        je["sort_index"] = e.sort_index;
        entries.push_back(std::move(je));
    }
    json layout = json::array();
    for (const nres::Segment& s : ar.layout) {
        switch (s.kind) {
        case nres::Segment::Kind::Payload:
            layout.push_back({{"payload", s.entry}, {"offset", s.original_offset}});
            break;
        case nres::Segment::Kind::Pad:
            layout.push_back({{"pad", true}});
            break;
        case nres::Segment::Kind::Gap:
            layout.push_back({{"gap", sidecar::to_hex(s.gap)}});
            break;
        }
    }
    return {{"schema", kSchema},
            {"source", source},
            {"entries", entries},
            {"layout", layout},
            {"trailing", sidecar::to_hex(ar.trailing)}};
}

nres::Archive parse(const json& m, const std::string& where) {
    if (!m.is_object() || m.value("schema", "") != kSchema)
        throw std::runtime_error(where + ": not an " + std::string(kSchema) + " manifest");
    nres::Archive ar;
    try {
        for (const json& je : m.at("entries")) {
            nres::Entry e;
            const Bytes raw = from_hex(je.at("raw_name").get<std::string>(), where);
            if (raw.size() != nres::kNameSize)
                throw std::runtime_error(where + ": raw_name of entry " +
                                         std::to_string(ar.entries.size()) + " is not 36 bytes");
            std::copy(raw.begin(), raw.end(), e.raw_name.begin());
            e.type = je.at("type");
            e.attr1 = je.at("attr1");
            e.attr2 = je.at("attr2");
            e.attr3 = je.at("attr3");
            e.sort_index = je.at("sort_index");
            ar.entries.push_back(std::move(e));
        }
        for (const json& js : m.at("layout")) {
            nres::Segment s;
            if (js.contains("payload")) {
                s.kind = nres::Segment::Kind::Payload;
                s.entry = js.at("payload");
                s.original_offset = js.value("offset", 0u);
                if (s.entry >= ar.entries.size())
                    throw std::runtime_error(where + ": layout names entry " +
                                             std::to_string(s.entry) + " of " +
                                             std::to_string(ar.entries.size()));
            } else if (js.contains("pad")) {
                s.kind = nres::Segment::Kind::Pad;
            } else {
                s.kind = nres::Segment::Kind::Gap;
                s.gap = from_hex(js.at("gap").get<std::string>(), where);
            }
            ar.layout.push_back(std::move(s));
        }
        ar.trailing = from_hex(m.value("trailing", ""), where);
    } catch (const json::exception& e) {
        throw std::runtime_error(where + ": " + e.what());
    }
    return ar;
}

json load(const std::filesystem::path& dir) {
    const std::filesystem::path path = dir / kFileName;
    return sidecar::parse_json(read_file(path), path.string()); // nesting bounded first
}

} // namespace msh::cli::manifest
