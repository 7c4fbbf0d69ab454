#include "nres_directory_json.hpp"

#include "binding_fields.hpp"

#include "base64.hpp"
#include "json_at.hpp"
#include "readable_writer.hpp"

#include "formats/cp1251.hpp"

#include <cstring>
#include <stdexcept>

namespace msh::sidecar {

namespace {

Bytes hex_at(const JsonAt& at) {
    try {
        return from_hex(at.as<std::string>());
    } catch (const std::invalid_argument& e) {
        at.fail(e.what());
    }
}

} // namespace

void write_directory(ReadableJson& w, const nres::Archive& directory,
                     const std::function<std::string_view(size_t entry)>& content, bool table) {
    w.begin_object();
    w.key("entries");
    w.begin_object();
    w.key("columns");
    w.begin_array();
    for (const char* c : kDirectoryEntryColumns) w.value(c);
    w.end_array();
    w.key("rows");
    table ? w.begin_rows() : w.begin_array();
    for (size_t i = 0; i < directory.entries.size(); ++i) {
        const nres::Entry& e = directory.entries[i];
        const std::string name = e.name();
        bool plain = utf8_to_cp1251(cp1251_to_utf8(name)) == name;
        for (size_t k = name.size(); k < nres::kNameSize; ++k) plain = plain && e.raw_name[k] == 0;
        w.begin_array();
        w.value(e.type);
        if (plain) {
            w.value(cp1251_to_utf8(name));
        } else {
            w.begin_object();
            w.member("hex", to_hex(ByteView(e.raw_name.data(), e.raw_name.size())));
            w.end_object();
        }
        w.value(e.attr1);
        w.value(e.attr2);
        w.value(e.attr3);
        w.value(e.sort_index);
        w.value(content(i));
        w.end_array();
    }
    table ? w.end_rows() : w.end_array();
    w.end_object();
    w.key("layout");
    w.begin_array();
    for (const nres::Segment& seg : directory.layout) {
        switch (seg.kind) {
        case nres::Segment::Kind::Payload:
            w.begin_array();
            w.value(seg.entry);
            w.value(seg.original_offset);
            w.end_array();
            break;
        case nres::Segment::Kind::Pad:
            w.value("pad");
            break;
        case nres::Segment::Kind::Gap:
            w.begin_object();
            w.member("gap", to_hex(seg.gap));
            w.end_object();
            break;
        }
    }
    w.end_array();
    w.member("trailing", to_hex(directory.trailing));
    w.end_object();
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
