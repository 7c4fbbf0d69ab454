// `mshconv samples OUTDIR [--seed N] [--stress | --scale game|F]`: writes the synthetic corpus,
// with --stress only the stress map DATA/MAPS/SynStress (samples/terrain_gen.hpp; on demand, about
// 5 MB), with --scale a game-sized one (samples/game_scale.hpp).
#include "commands.hpp"
#include "log.hpp"
#include "options.hpp"

#include "formats/file_io.hpp"
#include "samples/generator.hpp"
#include "samples/terrain_gen.hpp"

#include <cstdio>
#include <cstdlib>

namespace msh::cli {

int run_samples(const Args& args) {
    po::options_description desc("samples options");
    desc.add_options()("seed", po::value<uint64_t>()->default_value(1998)->value_name("N"),
                       "generator seed (same seed, same bytes)")(
        "stress", "write only the stress map DATA/MAPS/SynStress (as many faces as Land.msh "
                  "can hold) instead of the corpus")(
        "scale", po::value<std::string>()->value_name("game|F"),
        "'game' or a fraction F: about F x the shipped game (1 = game: ~950 models in 12 "
        "archives, 1,150 textures, 65 maps) instead of the standard 64-model corpus");
    po::variables_map vm;
    if (!parse_options(args, "samples OUTDIR [--seed N] [--stress | --scale game|F]", desc,
                       {{"output", "OUTDIR"}}, vm))
        return 0;
    samples::Options options;
    options.seed = vm["seed"].as<uint64_t>();
    if (vm.count("scale")) {
        const std::string scale = vm["scale"].as<std::string>();
        char* end = nullptr;
        options.scale = scale == "game" ? 1.0 : std::strtod(scale.c_str(), &end);
        if (scale != "game" &&
            (end == scale.c_str() || *end || !(options.scale > 0) || options.scale > 4))
            throw UsageError("--scale: 'game' or a number in (0, 4] expected, not '" + scale + "'");
        if (vm.count("stress")) throw UsageError("--scale and --stress exclude each other");
    }
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
    for (const auto& f : files) log_debug("wrote " + f.string());
    std::printf("wrote %zu files to %s (seed %llu)\n", files.size(),
                vm["output"].as<std::string>().c_str(),
                static_cast<unsigned long long>(options.seed));
    return 0;
}

} // namespace msh::cli
