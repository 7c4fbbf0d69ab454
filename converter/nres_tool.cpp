// `mshconv nres list|extract|pack`: archive tools. extract writes every entry payload as a file
// plus `_nres.json`, which holds everything else (raw names, attributes, sort indices, physical
// layout, gaps), so that pack rebuilds the original archive byte for byte.
#include "commands.hpp"
#include "disk_jobs.hpp"
#include "jobs/summary.hpp"
#include "log.hpp"
#include "options.hpp"
#include "pipeline/nres_manifest.hpp"

#include "formats/file_io.hpp"
#include "formats/nres.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace msh::cli {

namespace fs = std::filesystem;
namespace manifest = pipeline::manifest;
using nlohmann::json;

namespace {

constexpr const char* kNresUsage = R"(nres list IN
       mshconv nres extract IN -o DIR
       mshconv nres pack DIR -o OUT

list: the directory (names, types, sizes, attributes, sort indices). extract: every payload as a
file plus _nres.json (raw names, attributes, layout, gaps). pack: the archive rebuilt from such a
folder, byte for byte.
)";

int list(const std::string& input) {
    Loaded in = load(parse_address(input));
    nres::Archive ar =
        nres::read(in.bytes, ReadMode::Tolerant, in.address.display(), in.bytes.keeper());
    std::printf("%-4s %-36s %-6s %10s %10s %10s %10s %10s %5s\n", "#", "name", "type", "size",
                "offset", "attr1", "attr2", "attr3", "sort");
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        const nres::Entry& e = ar.entries[i];
        std::printf("%-4zu %-36s %-6s %10zu %10u %10u %10u %10u %5u\n", i, e.display_name().c_str(),
                    jobs::type_label(e.type).c_str(), e.data.size(), e.data_offset, e.attr1,
                    e.attr2, e.attr3, e.sort_index);
    }
    return 0;
}

int extract(const std::string& input, const fs::path& dir) {
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        throw UsageError("nres extract: -o " + dir.string() +
                         " is a file; extract into a folder (new, or one of its own)");
    Loaded in = load(parse_address(input));
    DiagnosticSink sink(ReadMode::Tolerant);
    nres::Archive ar = nres::read(in.bytes, sink, in.address.display(), in.bytes.keeper());
    if (ar.verbatim_only) {
        // The first entry at fault, where its directory row says so.
        for (const Diagnostic& d : sink.diagnostics())
            if (d.severity == Severity::Error)
                throw FormatError(d.resource, d.offset,
                                  d.message + "; the archive can be copied but not unpacked");
        throw FormatError(in.address.display(), Location::whole(),
                          "payloads overlap or lie outside the data region; the archive can be "
                          "copied but not unpacked");
    }
    // One set: every payload and the manifest appear, or none (a full disk leaves nothing), and
    // no file of it may be the archive being read.
    AtomicFileSet set;
    auto add = [&](const fs::path& target, ByteView bytes) {
        if (same_path(target, in.address.file))
            throw UsageError("nres extract: " + target.string() +
                             " is the input archive; extract into another folder");
        set.add(target, bytes);
    };
    manifest::FileNames names;
    std::vector<json> payloads;
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        const nres::Entry& e = ar.entries[i];
        const std::string file = names.claim_for_entry(e.name(), i);
        add(dir / file, e.data);
        payloads.push_back({{"file", file}});
    }
    // Renamed last: a folder with a manifest is complete.
    const std::string text = manifest::make(ar, in.address.display(), payloads)
                                 .dump(1, ' ', false, json::error_handler_t::replace);
    add(dir / manifest::kFileName,
        ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    set.commit();
    log_info("extracted " + std::to_string(ar.entries.size()) + " entries to " + dir.string());
    return 0;
}

int pack(const fs::path& dir, const fs::path& out) {
    const std::string where = (dir / manifest::kFileName).string();
    // The output must not be one of the pack's inputs: the manifest or a payload it names.
    auto refuse_input = [&](const fs::path& input) {
        if (same_path(out, input))
            throw UsageError("nres pack: -o " + out.string() + " is an input of the pack (" +
                             input.string() + "); write the archive elsewhere");
    };
    refuse_input(dir / manifest::kFileName);
    const json m = manifest::load(dir);
    nres::Archive ar = manifest::parse(m, where);
    const json& entries = m.at("entries"); // parse() checked it is an array of ar's size
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        if (entries[i].contains("converted"))
            throw FormatError(where, Location::at_pointer("/entries/" + std::to_string(i)),
                              "converted by `mshconv batch`; rebuild the archive with "
                              "`mshconv batch DIR --to nres -o OUT`");
        // The manifest names files inside its folder only.
        const fs::path file = manifest::entry_file(m, i, "file", dir, where);
        refuse_input(file);
        try {
            ar.entries[i].data = read_file(file);
        } catch (const FormatError&) {
            throw;
        } catch (const std::exception& e) {
            throw FormatError(
                where, Location::at_pointer("/entries/" + std::to_string(i) + "/file"), e.what());
        }
    }
    Bytes bytes = nres::write(ar);
    write_file_atomic(out, bytes);
    log_info("packed " + std::to_string(ar.entries.size()) + " entries into " + out.string() +
             " (" + std::to_string(bytes.size()) + " bytes)");
    return 0;
}

} // namespace

int run_nres(const Args& args) {
    po::options_description desc("nres options");
    desc.add_options()("output,o", po::value<std::string>()->value_name("DIR|OUT"),
                       "extract: the folder; pack: the archive");
    po::variables_map vm;
    if (!parse_options(args, kNresUsage, desc,
                       {{"action", "list|extract|pack"}, {"input", "IN", false, false}}, vm))
        return 0;
    const std::string action = vm["action"].as<std::string>();
    const std::vector<std::string> actions = {"list", "extract", "pack"};
    if (std::find(actions.begin(), actions.end(), action) == actions.end()) {
        const std::string suggestion = did_you_mean(closest_words(action, actions));
        throw UsageError("unknown nres action '" + action + "'" +
                         (suggestion.empty() ? " (list, extract or pack)" : suggestion));
    }
    if (!vm.count("input")) throw UsageError(action == "pack" ? "missing DIR" : "missing IN");
    const std::string input = vm["input"].as<std::string>();
    if (action == "list") {
        if (vm.count("output")) throw UsageError("nres list prints the directory; it takes no -o");
        return list(input);
    }
    if (!vm.count("output"))
        throw UsageError("nres " + action + " needs -o " + (action == "extract" ? "DIR" : "OUT"));
    const fs::path out = vm["output"].as<std::string>();
    return action == "extract" ? extract(input, out) : pack(input, out);
}

} // namespace msh::cli
