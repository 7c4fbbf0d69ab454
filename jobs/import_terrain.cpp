// convert, glTF / GLB / OBJ (+ terrain sidecar, "kind": "terrain") -> Land.msh + Land.map
// (`mshconv convert tut1.glb OUTDIR/Land.msh`). The Land.map is written beside the Land.msh with
// the same base name. Both files are encoded in memory first, then written atomically; inputs are
// never overwritten. The mapping is mapping/scene_to_terrain.hpp; its rules are docs/import.md.
#include "commands.hpp"
#include "convert.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "pipeline/model_import.hpp"
#include "pipeline/terrain.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <optional>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

fs::path sidecar_path_for(const fs::path& input, const po::variables_map& vm) {
    return import_sidecar_path(input, vm);
}

bool same_file(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

} // namespace

std::optional<sidecar::TerrainSidecar> terrain_sidecar(const fs::path& input,
                                                       const po::variables_map& vm) {
    const fs::path sc = sidecar_path_for(input, vm);
    std::error_code ec;
    if (!fs::is_regular_file(sc, ec)) return std::nullopt;
    const MappedFile text(sc, Reading::Whole); // not copied again: a map's sidecar is megabytes
    return pipeline::read_terrain_sidecar(text.bytes(), sc.string());
}

int import_terrain(const Address& in, const std::string& out_spec, const po::variables_map& vm,
                   const sidecar::TerrainSidecar& sc) {
    const fs::path input = in.file;
    const Address out = parse_address(out_spec);
    if (!out.entries.empty())
        throw UsageError("terrain import writes Land.msh + Land.map files, not archive entries: " +
                         out_spec);
    const fs::path msh_path = out.file;
    if (lower_ascii(msh_path.extension().string()) != ".msh")
        throw UsageError("OUT must end in .msh for a terrain import (the .map is written beside "
                         "it): " +
                         msh_path.string());
    fs::path map_path = msh_path;
    map_path.replace_extension(".map");
    if (vm.count("skin") || vm.count("msft-lod") || !vm["lod"].defaulted() ||
        !vm["group"].defaulted())
        throw UsageError("--skin, --msft-lod, --lod and --group are model export options");

    const fs::path sidecar_path = sidecar_path_for(input, vm);
    for (const fs::path& o : {msh_path, map_path})
        if (same_file(o, input) || same_file(o, sidecar_path))
            throw UsageError(o.string() + " is an input file; inputs are never overwritten");

    const pipeline::TerrainImportSettings settings{
        input.string(), sidecar_path.string(), vm.count("force") > 0, vm.count("full-read") > 0};
    std::vector<std::string> warnings;
    const mapping::TerrainImportResult r =
        pipeline::import_terrain_file(input, sc, settings, warnings);
    for (const std::string& w : warnings) spdlog::warn("{}", w);
    for (const std::string& w : r.report.warnings) spdlog::warn("{}", w);

    // Everything is encoded; both files appear together or not at all (Land.map renamed first).
    AtomicFileSet level;
    if (sc.land_map) level.add(map_path, r.land_map);
    level.add(msh_path, r.land_msh);
    level.commit();
    if (vm.count("report")) {
        nlohmann::json report = mapping::to_json(r.report);
        report["input"] = input.string();
        report["output"] = msh_path.string();
        report["output_map"] = sc.land_map ? map_path.string() : std::string();
        report["sidecar"] = sidecar_path.string();
        report["pairing"] = r.pairing;
        const std::string text = report.dump(2) + "\n";
        write_file_atomic(vm["report"].as<std::string>(), Bytes(text.begin(), text.end()));
    }
    if (spdlog::get_level() <= spdlog::level::warn) {
        const mapping::TerrainImportReport& s = r.report;
        std::printf("%s -> %s%s: %s\n", input.string().c_str(), msh_path.string().c_str(),
                    sc.land_map ? (" + " + map_path.filename().string()).c_str() : "",
                    r.msh_identical && r.map_identical ? "unchanged, original bytes kept"
                                                       : "rebuilt where changed");
        if (!r.msh_identical || !r.map_identical)
            std::printf("  vertices moved %zu; vertex normals %zu, face normals %zu, slot bounds "
                        "%zu recomputed; areals changed %zu, deleted %zu, grid %s\n",
                        s.vertices_moved, s.vertex_normals_recomputed, s.face_normals_recomputed,
                        s.slots_with_bounds_recomputed, s.changed_areals.size(),
                        s.deleted_areals.size(), s.grid_rebuilt ? "rebuilt" : "kept");
    }
    return 0;
}

} // namespace msh::cli
