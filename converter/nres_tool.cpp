// `mshconv nres list|extract|pack`: archive tools. extract writes every entry payload as a file
// plus `_nres.json`, which holds everything else (raw names, attributes, sort indices, physical
// layout, gaps), so that pack rebuilds the original archive byte for byte.
#include "address.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "summary.hpp"

#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "sidecar/base64.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <set>

namespace msh::cli {

namespace fs = std::filesystem;
using nlohmann::json;

using sidecar::to_hex;

namespace {

constexpr const char* kManifest = "_nres.json";

Bytes from_hex(const std::string& s, const std::string& what) {
    try {
        return sidecar::from_hex(s);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(what + ": " + e.what());
    }
}

// A file name for an entry: the entry name with path separators and control bytes replaced,
// made unique case-insensitively (entries may share a name).
std::string file_name_for(const nres::Entry& e, size_t index, std::set<std::string>& taken) {
    std::string base;
    for (char c : e.name()) {
        unsigned char u = static_cast<unsigned char>(c);
        base += (u < 32 || c == '/' || c == '\\' || c == ':' || u == 127) ? '_' : c;
    }
    if (base.empty() || base == "." || base == ".." || base == kManifest)
        base = "entry_" + std::to_string(index);
    std::string name = base;
    auto lower = [](std::string s) {
        for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    for (int n = 1; taken.count(lower(name)); ++n) name = base + "~" + std::to_string(n);
    taken.insert(lower(name));
    return name;
}

int list(const std::string& input) {
    Loaded in = load(parse_address(input));
    nres::Archive ar = nres::read(in.bytes, ReadMode::Tolerant, in.address.display());
    std::printf("%-4s %-36s %-6s %10s %10s %10s %10s %10s %5s\n", "#", "name", "type", "size",
                "offset", "attr1", "attr2", "attr3", "sort");
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        const nres::Entry& e = ar.entries[i];
        std::printf("%-4zu %-36s %-6s %10zu %10u %10u %10u %10u %5u\n", i, e.name().c_str(),
                    type_label(e.type).c_str(), e.data.size(), e.data_offset, e.attr1, e.attr2,
                    e.attr3, e.sort_index);
    }
    return 0;
}

int extract(const std::string& input, const fs::path& dir) {
    Loaded in = load(parse_address(input));
    nres::Archive ar = nres::read(in.bytes, ReadMode::Tolerant, in.address.display());
    if (ar.verbatim_only)
        throw FormatError(in.address.display(), 0,
                          "payloads overlap or lie outside the data region; the archive can be "
                          "copied but not unpacked");
    json entries = json::array();
    std::set<std::string> taken{kManifest};
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        const nres::Entry& e = ar.entries[i];
        std::string file = file_name_for(e, i, taken);
        write_file_atomic(dir / file, e.data);
        entries.push_back({{"file", file},
                           {"name", e.name()},
                           {"raw_name", to_hex(e.raw_name)},
                           {"type", e.type},
                           {"attr1", e.attr1},
                           {"attr2", e.attr2},
                           {"attr3", e.attr3},
                           {"sort_index", e.sort_index}});
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
            layout.push_back({{"gap", to_hex(s.gap)}});
            break;
        }
    }
    json manifest = {{"schema", "mshconv-nres/1"},
                     {"source", in.address.display()},
                     {"entries", entries},
                     {"layout", layout},
                     {"trailing", to_hex(ar.trailing)}};
    std::string text = manifest.dump(1);
    write_file_atomic(dir / kManifest,
                      ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    spdlog::info("extracted {} entries to {}", ar.entries.size(), dir.string());
    return 0;
}

int pack(const fs::path& dir, const fs::path& out) {
    fs::path manifest_path = dir / kManifest;
    Bytes text = read_file(manifest_path);
    json m = json::parse(text.begin(), text.end());
    if (m.value("schema", "") != "mshconv-nres/1")
        throw std::runtime_error(manifest_path.string() + ": not an mshconv-nres/1 manifest");
    nres::Archive ar;
    for (const json& je : m.at("entries")) {
        nres::Entry e;
        Bytes raw = from_hex(je.at("raw_name").get<std::string>(), manifest_path.string());
        if (raw.size() != nres::kNameSize)
            throw std::runtime_error(manifest_path.string() + ": raw_name is not 36 bytes");
        std::copy(raw.begin(), raw.end(), e.raw_name.begin());
        e.type = je.at("type");
        e.attr1 = je.at("attr1");
        e.attr2 = je.at("attr2");
        e.attr3 = je.at("attr3");
        e.sort_index = je.at("sort_index");
        e.data = read_file(dir / je.at("file").get<std::string>());
        ar.entries.push_back(std::move(e));
    }
    for (const json& js : m.at("layout")) {
        nres::Segment s;
        if (js.contains("payload")) {
            s.kind = nres::Segment::Kind::Payload;
            s.entry = js.at("payload");
            s.original_offset = js.value("offset", 0u);
            if (s.entry >= ar.entries.size())
                throw std::runtime_error(manifest_path.string() + ": layout names entry " +
                                         std::to_string(s.entry) + " of " +
                                         std::to_string(ar.entries.size()));
        } else if (js.contains("pad")) {
            s.kind = nres::Segment::Kind::Pad;
        } else {
            s.kind = nres::Segment::Kind::Gap;
            s.gap = from_hex(js.at("gap").get<std::string>(), manifest_path.string());
        }
        ar.layout.push_back(std::move(s));
    }
    ar.trailing = from_hex(m.value("trailing", ""), manifest_path.string());
    Bytes bytes = nres::write(ar);
    write_file_atomic(out, bytes);
    spdlog::info("packed {} entries into {} ({} bytes)", ar.entries.size(), out.string(),
                 bytes.size());
    return 0;
}

} // namespace

int run_nres(const Args& args) {
    po::options_description desc("nres options");
    desc.add_options()("action", po::value<std::string>()->required(), "list | extract | pack")(
        "input", po::value<std::string>()->required(), "archive (list, extract) or folder (pack)")(
        "output,o", po::value<std::string>(), "folder (extract) or archive (pack)");
    po::positional_options_description pos;
    pos.add("action", 1).add("input", 1);
    po::variables_map vm;
    if (!parse_options(args, "nres list|extract|pack IN [-o OUT]", desc, pos, vm)) return 0;
    std::string action = vm["action"].as<std::string>();
    std::string input = vm["input"].as<std::string>();
    if (action == "list") return list(input);
    if (!vm.count("output")) throw UsageError("nres " + action + " needs -o OUT");
    fs::path out = vm["output"].as<std::string>();
    if (action == "extract") return extract(input, out);
    if (action == "pack") return pack(input, out);
    throw UsageError("unknown nres action '" + action + "' (list, extract or pack)");
}

} // namespace msh::cli
