// `mshconv nres list|extract|pack`: the archive tools of include/mshconv/nres.hpp on the disk.
#include "commands.hpp"
#include "log.hpp"
#include "options.hpp"

#include <mshconv/nres.hpp>

#include <algorithm>
#include <cstdio>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kNresUsage = R"(nres list IN
       mshconv nres extract IN -o DIR
       mshconv nres pack DIR -o OUT

list: the directory (names, types, sizes, attributes, sort indices). extract: every payload as a
file plus _nres.json (raw names, attributes, layout, gaps). pack: the archive rebuilt from such a
folder, byte for byte.
)";

int list(const std::string& input) {
    const std::vector<mshconv::NresEntry> rows = mshconv::nres_list(input);
    std::printf("%-4s %-36s %-6s %10s %10s %10s %10s %10s %5s\n", "#", "name", "type", "size",
                "offset", "attr1", "attr2", "attr3", "sort");
    for (size_t i = 0; i < rows.size(); ++i) {
        const mshconv::NresEntry& e = rows[i];
        std::printf("%-4zu %-36s %-6s %10llu %10u %10u %10u %10u %5u\n", i, e.name.c_str(),
                    e.type.c_str(), static_cast<unsigned long long>(e.size), e.offset, e.attr1,
                    e.attr2, e.attr3, e.sort_index);
    }
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
    if (action == "extract") {
        const size_t entries = mshconv::nres_extract(input, out);
        log_info("extracted " + std::to_string(entries) + " entries to " + out.string());
    } else {
        const mshconv::NresPacked packed = mshconv::nres_pack(input, out);
        log_info("packed " + std::to_string(packed.entries) + " entries into " + out.string() +
                 " (" + std::to_string(packed.bytes) + " bytes)");
    }
    return 0;
}

} // namespace msh::cli
