// `mshconv samples OUTDIR [--seed N]`: writes the synthetic corpus.
#include "commands.hpp"
#include "options.hpp"

#include "samples/generator.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>

namespace msh::cli {

int run_samples(const Args& args) {
    po::options_description desc("samples options");
    desc.add_options()("output", po::value<std::string>()->required(),
                       "folder to write the corpus to")("seed",
                                                        po::value<uint64_t>()->default_value(1998),
                                                        "generator seed (same seed, same bytes)");
    po::positional_options_description pos;
    pos.add("output", 1);
    po::variables_map vm;
    if (!parse_options(args, "samples OUTDIR [--seed N]", desc, pos, vm)) return 0;
    samples::Options options;
    options.seed = vm["seed"].as<uint64_t>();
    auto files = samples::write_corpus(vm["output"].as<std::string>(), options);
    for (const auto& f : files) spdlog::debug("wrote {}", f.string());
    std::printf("wrote %zu files to %s (seed %llu)\n", files.size(),
                vm["output"].as<std::string>().c_str(),
                static_cast<unsigned long long>(options.seed));
    return 0;
}

} // namespace msh::cli
