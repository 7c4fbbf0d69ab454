// `mshconv validate IN [--strict] [--json]`: every reader over IN (mshconv::validate), its
// findings printed, the verdict last; exit 1 when anything is invalid.
#include "commands.hpp"
#include "options.hpp"

#include <mshconv/inspect.hpp>

#include <cstdio>

namespace msh::cli {

int run_validate(const Args& args) {
    po::options_description desc("validate options");
    desc.add_options()("strict", "strict reader: every violated invariant of the spec is an error")(
        "json", "print the diagnostics as JSON");
    po::variables_map vm;
    if (!parse_options(args, "validate IN [--strict] [--json]", desc, {{"input", "IN"}}, vm))
        return 0;

    const mshconv::Validation v =
        mshconv::validate({vm["input"].as<std::string>(), vm.count("strict") > 0});
    if (vm.count("json")) {
        std::printf("%s\n", mshconv::to_json(v).c_str());
        return v.valid ? 0 : 1;
    }
    for (const mshconv::Finding& f : v.findings) std::printf("%s\n", f.text.c_str());
    const auto count = [&](const char* key) { return v.counts.at(key); };
    std::string what = std::to_string(count("models")) + " models, " +
                       std::to_string(count("archives")) + " archives";
    if (count("terrains")) what += ", " + std::to_string(count("terrains")) + " terrain";
    if (count("areal_maps")) what += ", " + std::to_string(count("areal_maps")) + " areal map";
    if (count("textures")) what += ", " + std::to_string(count("textures")) + " textures";
    if (count("materials")) what += ", " + std::to_string(count("materials")) + " materials";
    if (const size_t wears = count("wear_tables"))
        what += ", " + std::to_string(wears) + (wears == 1 ? " WEAR table" : " WEAR tables");
    // The verdict stays the last line (scripts read it with `tail -n 1`).
    if (!v.sort_fold.empty()) {
        std::string folds;
        for (const auto& [fold, n] : v.sort_folds)
            folds += (folds.empty() ? "" : ", ") + std::to_string(n) + " " + fold;
        std::printf("sort index: %s fold (archives by fold: %s)\n", v.sort_fold.c_str(),
                    folds.c_str());
    }
    std::printf("%s: %s (%s, %zu errors, %zu warnings)\n", v.file.c_str(),
                v.valid ? "valid" : "INVALID", what.c_str(), v.errors, v.warnings);
    return v.valid ? 0 : 1;
}

} // namespace msh::cli
