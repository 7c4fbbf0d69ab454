// `mshconv samples OUTDIR [--seed N] [--stress]`: writes the synthetic corpus, or with --stress
// only the stress map DATA/MAPS/SynStress (samples/terrain_gen.hpp; on demand, about 5 MB).
#include "commands.hpp"
#include "options.hpp"

#include "formats/file_io.hpp"
#include "samples/generator.hpp"
#include "samples/terrain_gen.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>

namespace msh::cli {

int run_samples(const Args& args) {
    po::options_description desc("samples options");
    desc.add_options()("output", po::value<std::string>()->required(),
                       "folder to write the corpus to")("seed",
                                                        po::value<uint64_t>()->default_value(1998),
                                                        "generator seed (same seed, same bytes)")(
        "stress", "write only the stress map DATA/MAPS/SynStress (as many faces as Land.msh "
                  "can hold) instead of the corpus");
    po::positional_options_description pos;
    pos.add("output", 1);
    po::variables_map vm;
    if (!parse_options(args, "samples OUTDIR [--seed N] [--stress]", desc, pos, vm)) return 0;
    samples::Options options;
    options.seed = vm["seed"].as<uint64_t>();
    const std::filesystem::path out = vm["output"].as<std::string>();
    std::vector<std::filesystem::path> files;
    if (vm.count("stress")) {
        for (const samples::GeneratedFile& f :
             samples::generate_map(samples::stress_map_spec(), options.seed)) {
            files.push_back(out / f.relative_path);
            write_file_atomic(files.back(), f.bytes);
        }
    } else {
        files = samples::write_corpus(out, options);
    }
    for (const auto& f : files) spdlog::debug("wrote {}", f.string());
    std::printf("wrote %zu files to %s (seed %llu)\n", files.size(),
                vm["output"].as<std::string>().c_str(),
                static_cast<unsigned long long>(options.seed));
    return 0;
}

} // namespace msh::cli
