#include "batch_inputs.hpp"

#include "pipeline/game_files.hpp"

#include <algorithm>
#include <system_error>

namespace msh::cli {

namespace fs = std::filesystem;

std::string add_batch_input(const std::string& spec, const fs::path& out_dir,
                            std::vector<BatchUnit>& units) {
    std::error_code ec;
    if (fs::is_directory(spec, ec)) {
        // The output folder may lie inside the input folder: never read it back.
        const fs::path out_abs = fs::weakly_canonical(out_dir);
        std::vector<fs::path> files;
        for (auto it = fs::recursive_directory_iterator(spec, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (it->is_directory(ec) && fs::weakly_canonical(it->path()) == out_abs) {
                it.disable_recursion_pending();
                continue;
            }
            if (it->is_regular_file(ec)) files.push_back(it->path());
        }
        const std::string error = ec ? "cannot list the folder: " + ec.message() : "";
        std::sort(files.begin(), files.end());
        for (const fs::path& f : files)
            units.push_back({Address{f, {}}, f.lexically_relative(spec).parent_path(), spec});
        return error;
    }
    const Address a = parse_address(spec);
    if (!fs::is_regular_file(a.file, ec)) return "no such file or folder";
    units.push_back({a, fs::path(), a.file.parent_path()});
    return "";
}

fs::path library_folder(const fs::path& dir, const fs::path& root, const po::variables_map& vm) {
    if (vm.count("game-dir")) return vm["game-dir"].as<std::string>();
    const fs::path stop = root.lexically_normal();
    for (fs::path probe = dir; !probe.empty(); probe = probe.parent_path()) {
        if (pipeline::has_game_libraries(probe)) return probe;
        if (probe.lexically_normal() == stop || probe == probe.parent_path()) break;
    }
    return dir;
}

std::vector<bool> shard_units(const std::vector<BatchUnit>& units, const Shard& shard) {
    std::vector<ShardUnit> keys;
    for (const BatchUnit& u : units) {
        std::error_code ec;
        const auto size = fs::file_size(u.address.file, ec);
        keys.push_back({u.address.display(), ec ? 0 : uint64_t(size)});
    }
    return shard_members(keys, shard);
}

} // namespace msh::cli
