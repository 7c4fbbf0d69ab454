// convert, glTF / GLB / OBJ (+ terrain sidecar, "kind": "terrain") -> Land.msh + Land.map
// (`mshconv convert tut1.glb OUTDIR/Land.msh`). The Land.map is written beside the Land.msh with
// the same base name. Both files are encoded in memory first, then written atomically; inputs are
// never overwritten. The mapping is mapping/scene_to_terrain.hpp; its rules are docs/import.md.
#include "convert.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "model_import.hpp"
#include "terrain.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>

namespace msh::conversion {

namespace fs = std::filesystem;

std::optional<sidecar::TerrainSidecar> terrain_sidecar(const Job& job, const ImportSidecar& found) {
    if (!found.found) return std::nullopt;
    const fs::path& sc = found.path;
    const Payload text = read_payload(job.io, sc); // not copied: a map's sidecar is megabytes
    return sidecar::read_terrain_sidecar(text, sc.string());
}

void import_terrain(const Job& caller, const Address& in, const std::string& out_spec,
                    const sidecar::TerrainSidecar& sc, const ImportSidecar& found) {
    KeptWarnings kept; // every warning printed is in the report
    const Job job = keeping_warnings(caller, kept);
    const ConvertOptions& o = job.options;
    const fs::path input = in.file;
    const Address out = parse_address(job.io, out_spec);
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
    if (o.skin || o.msft_lod || o.lod || o.group)
        throw UsageError("--skin, --msft-lod, --lod and --group are model export options");

    const fs::path& sidecar_path = found.path;
    if (found.how == SidecarFound::ByExtras || found.how == SidecarFound::ByPairingToken)
        job.report(input.string() + ": sidecar " + sidecar_path.string() + " (" +
                   to_string(found.how) + ")");
    for (const fs::path& p : {msh_path, map_path})
        if (job.io.same_file(p, input) || job.io.same_file(p, sidecar_path))
            throw UsageError(p.string() + " is an input file; inputs are never overwritten");

    const TerrainImportSettings settings{input.string(), sidecar_path.string(), o.force,
                                         o.full_read};
    std::vector<std::string> warnings;
    const mapping::TerrainImportResult r =
        rebuild_terrain_from_file(input, sc, settings, warnings, job.io);
    for (const std::string& w : warnings) job.warn(w);
    for (const std::string& w : r.report.warnings) job.warn(w);

    // Everything is encoded; both files appear together or not at all (Land.map renamed first).
    std::vector<PathBytes> level;
    if (sc.has_map()) level.push_back({map_path, r.land_map});
    level.push_back({msh_path, r.land_msh});
    write_files(job.io, level);
    if (!o.report.empty()) {
        nlohmann::json report = mapping::to_json(r.report);
        report["warnings"] = kept.texts();
        report["input"] = recorded_path(input);
        report["output"] = recorded_path(msh_path);
        report["output_map"] = sc.has_map() ? recorded_path(map_path) : std::string();
        report["sidecar"] = recorded_path(sidecar_path);
        report["pairing"] = r.pairing;
        const std::string text = report.dump(2) + "\n";
        write_files(job.io, {{o.report, ByteView(reinterpret_cast<const uint8_t*>(text.data()),
                                                 text.size())}});
    }
    const mapping::TerrainImportReport& s = r.report;
    job.report(input.string() + " -> " + msh_path.string() +
               (sc.has_map() ? " + " + map_path.filename().string() : std::string()) + ": " +
               (r.msh_identical && r.map_identical ? "unchanged, original bytes kept"
                                                   : "rebuilt where changed"));
    for (const std::string& e : s.sidecar_edits) job.report("  sidecar field edited: " + e);
    if (!r.msh_identical || !r.map_identical)
        job.report(
            printed("  vertices moved %zu; vertex normals %zu, face normals %zu, slot bounds "
                    "%zu recomputed; areals changed %zu, deleted %zu, grid %s",
                    s.vertices_moved, s.vertex_normals_recomputed, s.face_normals_recomputed,
                    s.slots_with_bounds_recomputed, s.changed_areals.size(),
                    s.deleted_areals.size(), s.grid_rebuilt ? "rebuilt" : "kept"));
    if (!s.layer1_uv_vertices.empty() || !s.layer2_uv_vertices.empty() ||
        !s.weight_vertices.empty() || !s.normal_vertices.empty())
        job.report(printed("  edited in the file: layer-1 UVs %zu, layer-2 UVs %zu, weights %zu, "
                           "vertex normals %zu",
                           s.layer1_uv_vertices.size(), s.layer2_uv_vertices.size(),
                           s.weight_vertices.size(), s.normal_vertices.size()));
}

} // namespace msh::conversion
