#include "nres_manifest.hpp"

#include "outputs.hpp"

#include "formats/file_io.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/json_at.hpp"
#include "sidecar/portable_address.hpp"

#include <algorithm>
#include <stdexcept>

namespace msh::conversion::manifest {

using nlohmann::json;

namespace {

Bytes from_hex(const sidecar::JsonAt& at) {
    try {
        return sidecar::from_hex(at.as<std::string>());
    } catch (const std::invalid_argument& e) {
        at.fail(e.what());
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
            {"source", sidecar::portable_address(source)},
            {"entries", entries},
            {"layout", layout},
            {"trailing", sidecar::to_hex(ar.trailing)}};
}

Manifest::Manifest(const std::filesystem::path& dir, mshconv::Io& io)
    : where_((dir / kFileName).string()) {
    parsed_.parse(io.read(dir / kFileName).bytes, where_); // nesting bounded first
}

Manifest::Manifest(ByteView text, std::string where) : where_(std::move(where)) {
    parsed_.parse(text, where_);
}

std::string entry_kind(const sidecar::JsonAt& entry) {
    if (entry.has("file")) return "raw";
    return entry["converted"]["kind"].as<std::string>();
}

nres::Archive parse(const Manifest& manifest) {
    const sidecar::JsonAt doc = manifest.root();
    if (!doc.is_object() || !doc.has("schema") || !doc["schema"].is_text(kSchema))
        doc.fail(std::string("not an ") + kSchema + " manifest");
    nres::Archive ar;
    const sidecar::JsonAt entries = doc["entries"];
    for (size_t i = 0; i < entries.size(); ++i) {
        const sidecar::JsonAt je = entries[i];
        nres::Entry e;
        const Bytes raw = from_hex(je["raw_name"]);
        if (raw.size() != nres::kNameSize) je["raw_name"].fail("raw_name is not 36 bytes");
        std::copy(raw.begin(), raw.end(), e.raw_name.begin());
        e.type = je["type"].as<uint32_t>();
        e.attr1 = je["attr1"].as<uint32_t>();
        e.attr2 = je["attr2"].as<uint32_t>();
        e.attr3 = je["attr3"].as<uint32_t>();
        e.sort_index = je["sort_index"].as<uint32_t>();
        // The payload's home, checked here so that every reader of the entry may rely on it.
        if (je.has("file") == je.has("converted"))
            je.fail("an entry names its payload by \"file\" or by \"converted\", one of them");
        if (je.has("file"))
            je["file"].as<std::string>();
        else
            entry_kind(je);
        ar.entries.push_back(std::move(e));
    }
    const sidecar::JsonAt layout = doc["layout"];
    for (size_t i = 0; i < layout.size(); ++i) {
        const sidecar::JsonAt js = layout[i];
        nres::Segment s;
        if (js.has("payload")) {
            s.kind = nres::Segment::Kind::Payload;
            s.entry = js["payload"].as<uint32_t>();
            if (js.has("offset")) s.original_offset = js["offset"].as<uint32_t>();
            if (s.entry >= ar.entries.size())
                js["payload"].fail("names entry " + std::to_string(s.entry) + " of " +
                                   std::to_string(ar.entries.size()));
        } else if (js.has("pad")) {
            s.kind = nres::Segment::Kind::Pad;
        } else {
            s.kind = nres::Segment::Kind::Gap;
            s.gap = from_hex(js["gap"]);
        }
        ar.layout.push_back(std::move(s));
    }
    if (doc.has("trailing")) ar.trailing = from_hex(doc["trailing"]);
    return ar;
}

std::filesystem::path entry_file(const sidecar::JsonAt& name, const std::filesystem::path& folder,
                                 mshconv::Io* io) {
    const std::string text = name.as<std::string>();
    try {
        return confined_path(io, folder, text);
    } catch (const FormatError&) {
        throw;
    } catch (const std::exception& e) {
        name.fail(e.what());
    }
}

} // namespace msh::conversion::manifest
