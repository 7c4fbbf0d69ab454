// Terrain level (Land.msh + Land.map + Land1/Land2.wea) <-> glTF / GLB / OBJ, in memory. The scene
// layout and identity scheme are in mapping/terrain_to_scene.hpp, the import's rules in
// mapping/scene_to_terrain.hpp, the sidecar in sidecar/terrain_sidecar.hpp. Finding the level's
// files beside Land.msh is the caller's business.
#pragma once

#include <mshconv/io.hpp>

#include "formats/readings.hpp"

#include "model_export.hpp"
#include "outputs.hpp"

#include "formats/arealmap.hpp"
#include "formats/obj.hpp"
#include "formats/terrain.hpp"
#include "mapping/scene_to_terrain.hpp"
#include "scene/scene.hpp"
#include "sidecar/terrain_sidecar_read.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace msh::conversion {

struct TerrainExportSettings {
    SceneFormat format = SceneFormat::Glb;
    std::string output_name = "Land.glb";
    std::string sidecar_name; // recorded in the scene (default `<stem>.sidecar.json`)
    // OBJ: also the areals as filled faces (glTF always carries them).
    bool areal_faces = false;
    png::EncodeOptions png; // the terrain textures' PNG encoding
    // glTF: the areal overlay as the raw polygons only, or also laid on the terrain
    // (mapping/drape.hpp: `ArealMap_draped`, what a viewer shows best). OBJ: raw.
    enum class Overlay { Raw, Both } overlay = Overlay::Both;
    // Threads for the draped overlay (mapping::DrapeOptions::threads; the same bytes whatever
    // the count): 1 where the caller converts several files at once.
    unsigned threads = 1;
    // GLB: assembled in OutputFile::bytes (Whole), or its binary chunk left in the scene's
    // arrays, kept alive by the files (Pieces: for a caller that writes them with write_outputs;
    // a map's GLB is tens of MB of fresh memory and a copy less).
    gltf::Assembly glb = gltf::Assembly::Whole;
};

struct TerrainExportInput {
    TerrainExportInput() = default;
    TerrainExportInput(ByteView land, std::string land_address,
                       std::optional<NamedBytes> map = std::nullopt)
        : land_msh(land), address(std::move(land_address)), land_map(std::move(map)) {}

    ByteView land_msh;
    std::string address;
    std::optional<NamedBytes> land_map;     // none: the terrain without the areal overlay
    std::optional<NamedBytes> wear1, wear2; // none: materials named by row
    // The contested readings (formats/readings.hpp): face-material decides which of wear1/wear2
    // the face bytes +4 and +5 index. Recorded in the export.
    Readings readings;
    // The game's libraries: Land1.wea rows resolve through Material.lib to Textures.lib
    // (texm-materials.md §12) and the terrain's materials carry their phase-0 images. None:
    // untextured.
    const mapping::MaterialLibraries* libraries = nullptr;
};

struct TerrainExportSummary {
    size_t faces = 0, areals = 0, materials = 0;
};

struct TerrainExport {
    OutputFiles files; // in write order; the sidecar is not among them
    // The sidecar (kind "terrain"); its file's text: sidecar::terrain_sidecar_text (a streaming
    // writer: a row per face and the blocks), read back by read_terrain_sidecar.
    sidecar::TerrainSidecar sidecar;
    std::vector<std::string> warnings;
    std::vector<std::string> notes;
    TerrainExportSummary summary;
};

// A terrain scene as OBJ: the triangle meshes (terrain, and the filled areals with `areal_faces`),
// then the areal outlines as `l` polylines in an object of their own.
obj::Files terrain_obj_files(const scene::Scene& scene, const std::string& mtl_name,
                             bool areal_faces, const std::string& image_prefix);

// Throws FormatError on a Land.msh or Land.map that cannot be read.
TerrainExport encode_terrain(const TerrainExportInput& input,
                             const TerrainExportSettings& settings);

// The scene encode_terrain would encode for glTF (terrain textured as far as the libraries
// resolve, as PNG encoded with `png`; raw areal polygons, and with `draped` the draped overlay),
// with the decoded level: what a preview draws. Throws as encode_terrain.
struct TerrainScene {
    scene::Scene scene;
    std::shared_ptr<const terrain::Terrain> terrain;
    std::shared_ptr<const arealmap::ArealMap> map; // null without a Land.map
    std::vector<std::string> warnings, notes;
};
TerrainScene terrain_scene(const TerrainExportInput& input, bool draped,
                           const png::EncodeOptions& png = {});

struct TerrainImportSettings {
    std::string where;        // the input's name for messages
    std::string sidecar_name; // the sidecar's name for messages
    bool force = false;       // import even when the file's pairing token is not the sidecar's
    bool full_read = false;   // rebuild_terrain_from_file: read even the file the export wrote
};

// A terrain glTF / GLB file as rebuild_terrain needs it: line primitives kept, and only the meshes
// the import reads decoded (mapping::terrain_import_nodes()).
scene::Scene read_terrain_scene_file(const std::filesystem::path& file,
                                     std::vector<std::string>& warnings,
                                     mshconv::Io& io = mshconv::disk());
// A glTF / GLB scene read with its line primitives (read_terrain_scene_file, or
// read_scene_file(..., lines = true)).
mapping::TerrainImportResult rebuild_terrain(const scene::Scene& scene,
                                             const sidecar::TerrainSidecar& sidecar,
                                             const TerrainImportSettings& settings);
// The import of the very glTF / GLB file the export wrote (every byte as the sidecar's
// `export.written` records): what rebuild_terrain gives for it — the original Land.msh and
// Land.map, the pairing verified, nothing changed — without comparing the scene (a binding
// sidecar reads it for the positions only). nullopt when `file` is not that file, or its rebuild
// is not the recorded source: then read it (read_terrain_scene_file) and call rebuild_terrain.
std::optional<mapping::TerrainImportResult>
rebuild_unchanged_terrain(const std::filesystem::path& file, const sidecar::TerrainSidecar& sidecar,
                          const TerrainImportSettings& settings, mshconv::Io& io = mshconv::disk());
// A terrain export's file (.gltf, .glb or .obj by its extension) with its sidecar, as `convert`
// and `batch` import it: rebuild_unchanged_terrain when it is the file the export wrote, else read
// and imported (rebuild_terrain, rebuild_terrain_from_obj). `warnings`: what the glTF reader
// dropped.
mapping::TerrainImportResult rebuild_terrain_from_file(const std::filesystem::path& file,
                                                       const sidecar::TerrainSidecar& sidecar,
                                                       const TerrainImportSettings& settings,
                                                       std::vector<std::string>& warnings,
                                                       mshconv::Io& io = mshconv::disk());
// OBJ text as the terrain export wrote it (identity by order).
mapping::TerrainImportResult rebuild_terrain_from_obj(const std::string& obj_text,
                                                      const sidecar::TerrainSidecar& sidecar,
                                                      const TerrainImportSettings& settings);

} // namespace msh::conversion
