#include "nres_directory_json.hpp"

#include "binding_fields.hpp"

#include "base64.hpp"
#include "json_at.hpp"

#include "formats/cp1251.hpp"

#include <cstring>
#include <stdexcept>

namespace msh::sidecar {

using nlohmann::json;

namespace {

Bytes hex_at(const JsonAt& at) {
    try {
        return from_hex(at.as<std::string>());
    } catch (const std::invalid_argument& e) {
        at.fail(e.what());
    }
}

} // namespace

json directory_json(const nres::Archive& directory, const std::vector<size_t>& content,
                    const std::vector<std::string>& content_names) {
    json entries = json::array();
    for (size_t i = 0; i < directory.entries.size(); ++i) {
        const nres::Entry& e = directory.entries[i];
        const std::string name = e.name();
        bool plain = utf8_to_cp1251(cp1251_to_utf8(name)) == name;
        for (size_t k = name.size(); k < nres::kNameSize; ++k) plain = plain && e.raw_name[k] == 0;
        const json name_json =
            plain ? json(cp1251_to_utf8(name))
                  : json{{"hex", to_hex(ByteView(e.raw_name.data(), e.raw_name.size()))}};
        entries.push_back({e.type, name_json, e.attr1, e.attr2, e.attr3, e.sort_index,
                           content_names.at(content.at(i))});
    }
    json layout = json::array();
    for (const nres::Segment& s : directory.layout) {
        switch (s.kind) {
        case nres::Segment::Kind::Payload:
            layout.push_back({s.entry, s.original_offset});
            break;
        case nres::Segment::Kind::Pad:
            layout.push_back("pad");
            break;
        case nres::Segment::Kind::Gap:
            layout.push_back({{"gap", to_hex(s.gap)}});
            break;
        }
    }
    json columns = json::array();
    for (const char* c : kDirectoryEntryColumns) columns.push_back(c);
    return {{"entries", {{"columns", std::move(columns)}, {"rows", std::move(entries)}}},
            {"layout", std::move(layout)},
            {"trailing", to_hex(directory.trailing)}};
}

nres::Archive read_directory(const JsonAt& at, const std::vector<std::string>& content_names,
                             std::vector<size_t>& content) {
    nres::Archive d;
    content.clear();
    const JsonAt rows = at["entries"]["rows"];
    for (size_t i = 0; i < rows.size(); ++i) {
        const JsonAt r = rows[i];
        if (!r.is_array() || r.size() != std::size(kDirectoryEntryColumns))
            r.fail("expected a row of " + std::to_string(std::size(kDirectoryEntryColumns)) +
                   " values");
        nres::Entry e;
        e.type = r[0].as<uint32_t>();
        const JsonAt name = r[1];
        if (name.is_object()) {
            const Bytes raw = hex_at(name["hex"]);
            if (raw.size() != nres::kNameSize) name["hex"].fail("expected 36 bytes in hex");
            std::copy(raw.begin(), raw.end(), e.raw_name.begin());
        } else {
            const std::optional<std::string> text = utf8_to_cp1251(name.as<std::string>());
            if (!text || text->size() >= nres::kNameSize)
                name.fail("expected at most 35 CP1251 bytes (or {\"hex\": 36 bytes})");
            std::memcpy(e.raw_name.data(), text->data(), text->size());
        }
        e.attr1 = r[2].as<uint32_t>();
        e.attr2 = r[3].as<uint32_t>();
        e.attr3 = r[4].as<uint32_t>();
        e.sort_index = r[5].as<uint32_t>();
        const std::string c = r[6].as<std::string>();
        size_t k = 0;
        while (k < content_names.size() && c != content_names[k]) ++k;
        if (k == content_names.size()) r[6].fail("unknown content '" + c + "'");
        content.push_back(k);
        d.entries.push_back(std::move(e));
    }
    const JsonAt layout = at["layout"];
    for (size_t i = 0; i < layout.size(); ++i) {
        const JsonAt js = layout[i];
        nres::Segment s;
        if (js.is_array()) {
            if (js.size() != 2) js.fail("expected [entry, offset]");
            s.kind = nres::Segment::Kind::Payload;
            s.entry = js[0].as<uint32_t>();
            if (s.entry >= d.entries.size()) js[0].fail("no entry " + std::to_string(s.entry));
            s.original_offset = js[1].as<uint32_t>();
        } else if (js.is_string()) {
            if (js.as<std::string>() != "pad")
                js.fail("expected [entry, offset], \"pad\" or {\"gap\"}");
            s.kind = nres::Segment::Kind::Pad;
        } else {
            s.kind = nres::Segment::Kind::Gap;
            s.gap = hex_at(js["gap"]);
        }
        d.layout.push_back(std::move(s));
    }
    d.trailing = hex_at(at["trailing"]);
    return d;
}

std::vector<Bytes> read_entry_blocks(const JsonAt& blocks, const nres::Archive& directory,
                                     const std::vector<bool>& is_block) {
    std::vector<Bytes> out(is_block.size());
    std::vector<bool> seen(is_block.size(), false);
    for (size_t i = 0; i < blocks.size(); ++i) {
        const JsonAt jb = blocks[i];
        const size_t entry = jb["entry"].as<uint32_t>();
        if (entry >= is_block.size() || !is_block[entry])
            jb["entry"].fail("entry " + std::to_string(entry) + " is not a block entry");
        if (jb["type"].as<uint32_t>() != directory.entries[entry].type)
            jb["type"].fail("entry " + std::to_string(entry) + " has another type");
        if (seen[entry]) jb["entry"].fail("a second block for entry " + std::to_string(entry));
        seen[entry] = true;
        out[entry] = read_block(jb);
    }
    for (size_t i = 0; i < is_block.size(); ++i)
        if (is_block[i] && !seen[i]) blocks.fail("no block for entry " + std::to_string(i));
    return out;
}

} // namespace msh::sidecar
