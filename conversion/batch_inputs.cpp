#include "batch_inputs.hpp"

#include "game_files.hpp"

namespace msh::conversion {

namespace fs = std::filesystem;

std::string add_batch_input(mshconv::Io& io, const std::string& spec, const fs::path& out_dir,
                            std::vector<BatchUnit>& units) {
    if (io.is_folder(spec)) {
        // The output folder may lie inside the input folder: never read it back.
        std::vector<fs::path> files;
        try {
            files = io.list_files(spec, out_dir);
        } catch (const std::exception& e) {
            return e.what();
        }
        for (const fs::path& rel : files)
            units.push_back({Address{fs::path(spec) / rel, {}}, rel.parent_path(), spec});
        return "";
    }
    const Address a = parse_address(io, spec);
    if (!io.is_file(a.file)) return "no such file or folder";
    units.push_back({a, fs::path(), a.file.parent_path()});
    return "";
}

fs::path library_folder(mshconv::Io& io, const fs::path& dir, const fs::path& root,
                        const mshconv::BatchOptions& options) {
    if (!options.convert.game_dir.empty()) return options.convert.game_dir;
    const fs::path stop = root.lexically_normal();
    for (fs::path probe = dir; !probe.empty(); probe = probe.parent_path()) {
        if (has_game_libraries(probe, io)) return probe;
        if (probe.lexically_normal() == stop || probe == probe.parent_path()) break;
    }
    return dir;
}

std::vector<bool> shard_units(mshconv::Io& io, const std::vector<BatchUnit>& units,
                              const Shard& shard) {
    std::vector<ShardUnit> keys;
    for (const BatchUnit& u : units) keys.push_back({u.address.display(), io.size(u.address.file)});
    return shard_members(keys, shard);
}

} // namespace msh::conversion
