// convert, terrain level (Land.msh + Land.map + Land1.wea/Land2.wea) -> glTF 2.0 (.gltf + .bin,
// or .glb) or OBJ + MTL, plus OUT_STEM.sidecar.json (kind "terrain"). The scene layout and the
// identity scheme are documented in mapping/terrain_to_scene.hpp, the sidecar in
// sidecar/terrain_sidecar.hpp.
//
// Siblings: for IN = <dir>/<base>.msh the level files <base>.map, <base>1.wea and <base>2.wea are
// looked up next to it (case-insensitive; inside the same archive when IN is an archive entry);
// --map, --wear1 and --wear2 name them explicitly. No Land.map: terrain only; no WEAR: materials
// named land1_row_<id>. The conversion itself is conversion/terrain.hpp.
#include "address.hpp"
#include "convert.hpp"

#include "formats/names.hpp"
#include "formats/wear.hpp"
#include "game_files.hpp"

#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "formats/terrain.hpp"
#include "terrain.hpp"

#include <optional>

namespace msh::conversion {

namespace fs = std::filesystem;

namespace {

std::optional<NamedBytes> level_file(const Job& job, const Address& in, const fs::path& given,
                                     const std::string& leaf) {
    if (!given.empty()) return NamedBytes{given.string(), read_bytes(job.io, given)};
    std::optional<Sibling> s = find_sibling(job.io, in, leaf);
    if (!s) return std::nullopt;
    return NamedBytes{std::move(s->address), std::move(s->bytes).to_bytes()};
}

} // namespace

// The game libraries of a level: --game-dir / --materials / --textures, else the nearest folder
// above the level holding Material.lib or Textures.lib (a game keeps its maps in DATA/MAPS/<map>/
// below the libraries); only the textures the Land1.wea and Land2.wea rows need are read.
std::optional<mapping::MaterialLibraries> level_libraries(const Job& job, const Address& land,
                                                          const TerrainExportInput& input) {
    if (!input.wear1) return std::nullopt;
    fs::path dir = land.file.parent_path().empty() ? fs::path(".") : land.file.parent_path();
    for (fs::path probe = dir;; probe = probe.parent_path()) {
        if (has_game_libraries(probe, job.io)) {
            dir = probe;
            break;
        }
        if (probe.empty() || probe == probe.parent_path()) break;
    }
    mapping::LibraryNeeds needs;
    try {
        needs.materials =
            wear::material_names(wear::read(input.wear1->bytes, input.wear1->address));
        if (input.wear2) // layer 2 (Terrain_layer2) resolves through the same libraries
            for (std::string& row :
                 wear::material_names(wear::read(input.wear2->bytes, input.wear2->address)))
                needs.materials.push_back(std::move(row));
    } catch (const FormatError&) {
        return std::nullopt; // the export names the damaged WEAR itself
    }
    return open_libraries(job, dir, &needs);
}

TerrainExportInput terrain_export_input(const Job& job, const Loaded& in,
                                        const mapping::MaterialLibraries* libraries,
                                        std::optional<mapping::MaterialLibraries>& own) {
    const std::string base =
        name_stem(in.address.entries.empty() ? in.address.file.filename().string()
                                             : in.address.entries.back());
    TerrainExportInput input;
    input.land_msh = in.bytes;
    input.address = in.address.display();
    input.land_map = level_file(job, in.address, job.options.map, base + ".map");
    input.wear1 = level_file(job, in.address, job.options.wear1, base + "1.wea");
    input.wear2 = level_file(job, in.address, job.options.wear2, base + "2.wea");
    input.readings = readings_of(job.options);
    if (!libraries && (own = level_libraries(job, in.address, input))) libraries = &*own;
    input.libraries = libraries;
    return input;
}

TerrainExportSettings::Overlay terrain_overlay(const ConvertOptions& options) {
    using Overlay = TerrainExportSettings::Overlay;
    return options.overlay == mshconv::MapOverlay::Raw ? Overlay::Raw : Overlay::Both;
}

void export_terrain(const Job& job, const Loaded& in, const fs::path& out,
                    const mapping::MaterialLibraries* libraries, unsigned threads) {
    const std::optional<SceneFormat> format = scene_format_of(out.filename().string());
    if (!format) throw UsageError("OUT must end in .gltf, .glb or .obj: " + out.string());
    const fs::path sidecar_path = export_sidecar_path(job, out);
    TerrainExportSettings settings;
    settings.format = *format;
    settings.output_name = out.filename().string();
    settings.sidecar_name = sidecar_path.filename().string();
    settings.areal_faces = job.options.areal_faces;

    std::optional<mapping::MaterialLibraries> own;
    const TerrainExportInput input = terrain_export_input(job, in, libraries, own);
    settings.png = png_options(job.options);
    settings.overlay = terrain_overlay(job.options);
    settings.threads = threads;
    settings.glb = gltf::Assembly::Pieces; // written below, from the scene's arrays
    const TerrainExport result = encode_terrain(input, settings);
    for (const std::string& w : result.warnings) job.warn(w);
    for (const std::string& n : result.notes) job.info(n);

    // Everything is encoded; the files and the sidecar (last) appear together or not at all.
    const std::string sidecar_text = sidecar::terrain_sidecar_text(result.sidecar);
    write_outputs(out.parent_path(), result.files, sidecar_path, sidecar_text, job.io);
    job.info(input.address + " -> " + out.string() + " (" + std::to_string(result.summary.faces) +
             " faces, " + std::to_string(result.summary.areals) + " areals, " +
             std::to_string(result.summary.materials) + " materials)");
}

} // namespace msh::conversion
