// In-process stage timings of the terrain conversion on one level (the stress map of
// `mshconv samples DIR --stress`, or any Land.msh with its Land.map beside it):
//   mshconv_bench terrain DIR/Land.msh [ROUNDS]
// Export stages: read Land.msh + Land.map, terrain_to_scene, GLB encode, sidecar text.
// Import stages: sidecar parse, GLB read, import (identity check + rebuild). Median of ROUNDS.
// Prints figures; not a test. bench/run.sh measures the whole commands (wall time, peak RSS).
#include "conversion/terrain.hpp"
#include "formats/arealmap.hpp"
#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/terrain.hpp"
#include "mapping/drape.hpp"
#include "mapping/scene_to_terrain.hpp"
#include "mapping/terrain_to_scene.hpp"
#include "sidecar/terrain_sidecar.hpp"
#include "sidecar/terrain_sidecar_read.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace msh;

namespace {

double median_ms(int rounds, const std::function<void()>& f) {
    std::vector<double> t;
    for (int r = 0; r < rounds; ++r) {
        const auto a = Clock::now();
        f();
        t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace

int run_terrain_bench(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: mshconv_bench terrain DIR/Land.msh [ROUNDS]\n");
        return 2;
    }
    const fs::path land_msh = argv[2];
    const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 5;
    fs::path land_map = land_msh;
    land_map.replace_extension(".map");
    const Bytes msh_bytes = read_file(land_msh), map_bytes = read_file(land_map);

    terrain::Terrain t;
    arealmap::ArealMap map;
    scene::Scene sc;
    gltf::Encoded glb;
    std::string sidecar_text;
    const double t_read = median_ms(rounds, [&] {
        t = terrain::read(msh_bytes, ReadMode::Tolerant, land_msh.string());
        map = arealmap::read(map_bytes, ReadMode::Tolerant, land_map.string());
    });
    const double t_scene = median_ms(rounds, [&] { sc = mapping::terrain_to_scene(t, &map, {}); });
    // The draped overlay on that scene (the largest part of a map's GLB), as export_terrain adds
    // it.
    const scene::Scene plain = sc;
    const double t_copy = median_ms(rounds, [&] {
        sc = plain; // copied outside the drape's own time below
    });
    const double t_copy_and_drape = median_ms(rounds, [&] {
        sc = plain;
        mapping::add_draped_overlay(sc, t, map);
    });
    const double t_glb = median_ms(rounds, [&] { glb = gltf::encode(sc, true, "stress.glb"); });
    // The whole export through the front door (read, scene, GLB, sidecar), as `convert` runs it.
    conversion::TerrainExportInput input{msh_bytes, land_msh.string(),
                                         conversion::NamedBytes{land_map.string(), map_bytes}};
    conversion::TerrainExportSettings settings;
    settings.output_name = "stress.glb";
    conversion::TerrainExport exported;
    const double t_pipeline = median_ms(rounds, [&] {
        exported = conversion::encode_terrain(input, settings);
        sidecar_text = sidecar::terrain_sidecar_text(exported.sidecar);
    });

    const fs::path dir = fs::temp_directory_path() / ("mshconv-tbench-" + std::to_string(getpid()));
    fs::create_directories(dir);
    write_file_atomic(dir / "stress.glb", glb.document);
    sidecar::TerrainSidecar parsed;
    const double t_parse = median_ms(rounds, [&] {
        // As the import command reads it (either layout).
        parsed = *sidecar::read_terrain_sidecar(
            ByteView(reinterpret_cast<const uint8_t*>(sidecar_text.data()), sidecar_text.size()),
            "bench");
    });
    scene::Scene incoming;
    const double t_read_glb = median_ms(rounds, [&] { // as the import command reads it
        std::vector<std::string> warnings;
        incoming = conversion::read_terrain_scene_file(dir / "stress.glb", warnings);
    });
    mapping::TerrainImportResult result;
    const double t_import = median_ms(rounds, [&] {
        result =
            conversion::rebuild_terrain(incoming, parsed, {"bench", "bench.sidecar.json", false});
    });
    fs::remove_all(dir);
    if (!result.msh_identical || !result.map_identical) {
        std::fprintf(stderr, "terrain bench: the round trip is not byte-identical\n");
        return 1;
    }

    const double faces = double(t.faces.size());
    const double exp_ms = t_pipeline;
    const double imp_ms = t_parse + t_read_glb + t_import;
    std::printf("terrain %s: %zu faces, %zu vertices, %zu areals; Land.msh %.2f MB, Land.map "
                "%.2f MB; GLB %.2f MB, sidecar %.2f MB (median of %d rounds, in process)\n",
                land_msh.string().c_str(), t.faces.size(), t.positions.size(), map.areals.size(),
                double(msh_bytes.size()) / 1e6, double(map_bytes.size()) / 1e6,
                double(glb.document.size()) / 1e6, double(sidecar_text.size()) / 1e6, rounds);
    std::printf("  export (conversion::export_terrain) %.1f ms, %.0f faces/s; of it read %.1f ms, "
                "scene %.1f ms, draped overlay %.1f ms, GLB encode (with the overlay) %.1f ms; "
                "the rest: textures, layer 2, sidecar text\n",
                exp_ms, faces / exp_ms * 1e3, t_read, t_scene, t_copy_and_drape - t_copy, t_glb);
    std::printf("  import: sidecar parse %.1f ms, GLB read %.1f ms, import %.1f ms = %.1f ms, "
                "%.0f faces/s\n",
                t_parse, t_read_glb, t_import, imp_ms, faces / imp_ms * 1e3);
    return 0;
}
