// The verbs behind mshconv::convert (include/mshconv/convert.hpp): the direction comes
// from the input's content and the output's extension; each direction lives in its own file.
#pragma once

#include "address.hpp"
#include "job.hpp"
#include "level.hpp"

#include "formats/png.hpp"
#include "formats/readings.hpp"

#include "mapping/materials.hpp"
#include "model_export.hpp"
#include "model_import.hpp"
#include "terrain.hpp"
#include "texture.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>

namespace msh::conversion {

// What a model export needs besides the model: its WEAR and the game libraries. `convert`
// finds them per model; `batch` reads them once per archive / folder and passes them in.
struct ModelExportContext {
    std::optional<Sibling> wear;                           // none: materials named mat_<row>
    const mapping::MaterialLibraries* libraries = nullptr; // null: open them per model
};

// The sidecar an export writes: --sidecar, else OUT_STEM.sidecar.json, unless that file records
// an export in another format: then OUT_STEM.<format>.sidecar.json (the two never overwrite each
// other). sidecar_names.cpp
std::filesystem::path export_sidecar_path(const Job& job, const std::filesystem::path& out);
// What an exported file says of itself: the glTF scene's `extras.mshconv` (sidecar, kind,
// source, pair), or an OBJ's `# mshconv pair` comment. Empty fields where it says nothing.
struct ExportRecord {
    std::string sidecar, kind, source, pair;
};
// The sidecar an import reads: --sidecar, else IN_STEM.<format>.sidecar.json or
// IN_STEM.sidecar.json when there, else (a renamed export) the one its extras name beside it, else
// a `*.sidecar.json` beside it whose pairing token is the file's. `found` false: none exists
// (`path` is then the default name, `record` what the file says of itself).
enum class SidecarFound { Named, Beside, ByExtras, ByPairingToken };
struct ImportSidecar {
    std::filesystem::path path;
    bool found = false;
    SidecarFound how = SidecarFound::Beside;
    ExportRecord record;
};
// "named by its glTF extras", "found by its pairing token", ...
const char* to_string(SidecarFound how);
ImportSidecar find_import_sidecar(const Job& job, const std::filesystem::path& in);
// "looked for A and B, C (named by its glTF extras), ... in FOLDER": where a sidecar was sought.
std::string sidecar_search_text(const std::filesystem::path& in, const ImportSidecar& found);

// MSH model -> .gltf / .glb / .obj (+ sidecar). export_model.cpp
void export_model(const Job& job, const Loaded& in, const std::filesystem::path& out,
                  const ModelExportContext* context = nullptr);
// The model, its WEAR (`<stem>.wea` beside it, or the context's) and a provider of the game
// libraries (the context's, else opened for this model): what an export or a preview reads.
// Refers to `job` and `in`, which must outlive it.
ModelExportInput model_export_input(const Job& job, const Loaded& in,
                                    const ModelExportContext* context = nullptr);
// The export settings (--lod, --group, --fps, --msft-lod, --skin) for output file `out`; throws
// UsageError on a bad value or combination.
ModelExportSettings model_export_settings(const ConvertOptions& options,
                                          const std::filesystem::path& out);
// `<model stem>.wea`, the name of a model's WEAR beside it.
std::string model_wear_name(const Address& model);
// Material.lib, Textures.lib, palettes.lib and LightMap.lib: explicit --materials/--textures,
// else in --game-dir, else in `default_dir` (the corpus keeps them at its root). A library that
// is missing or unreadable is a warning (untextured export), never a failure. With `needs`, only
// the textures one model resolves to are read (open_game_libraries).
mapping::MaterialLibraries open_libraries(const Job& job, const std::filesystem::path& default_dir,
                                          const mapping::LibraryNeeds* needs = nullptr);
// --png-level N, else the fast default (formats/png.hpp).
png::EncodeOptions png_options(const ConvertOptions& options);
// `--reading NAME=VARIANT` (repeatable): the contested readings (formats/readings.hpp).
Readings readings_of(const ConvertOptions& options);

// .gltf / .glb / .obj (+ sidecar) -> MSH model, standalone or into an archive entry.
// import_model.cpp
// `found`: its sidecar (find_import_sidecar).
void import_model(const Job& job, const Address& in, const std::string& out_spec,
                  const ImportSidecar& found);
// A new model (no sidecar): writes the model, its WEAR beside it and its materials and textures
// into the game's libraries as one set; adds the libraries' changes to `report`.
// import_new_model.cpp
void import_new_model(const Job& job, const std::filesystem::path& input, const Address& out,
                      const Bytes& msh, const scene::Scene& scene, nlohmann::json& report);
// The command line's import choices.
struct ImportChoices {
    std::optional<double> fps; // --fps (default: the sidecar's)
    bool force = false;        // --force: import a file whose pairing token is not its sidecar's
    std::string animation = "all"; // --animation all|NAME|INDEX
    bool full_read = false;        // --full-read: no shortcut for the file the export wrote
    Readings readings;             // --reading: a new model's (a sidecar's own apply otherwise)
};
// The import itself, nothing written: `input` + its model sidecar -> the model image.
ModelImport import_model_files(const Job& job, const std::filesystem::path& input,
                               const std::filesystem::path& sidecar_path,
                               const ImportChoices& choices);

// Texm texture -> PNG (+ NAME.sidecar.json, --mips: every level). convert_texture.cpp
void export_texture(const Job& job, const Loaded& in, const std::filesystem::path& out_png);
// PNG (+ sidecar) -> Texm: an existing archive entry (Textures.lib:NAME.0) or a .texm file.
void import_texture(const Job& job, const std::filesystem::path& png, const std::string& out_spec);
// The import itself, nothing written: PNG (+ sidecar when it exists, + the mip PNGs it lists)
// -> Texm bytes.
TextureImport import_texture_files(Io& io, const std::filesystem::path& png,
                                   const std::filesystem::path& sidecar_path,
                                   std::optional<texm::Format> format,
                                   uint64_t max_pixels = png::kDefaultMaxPixels,
                                   bool full_read = false);

// ---- Terrain export (export_terrain.cpp) ----
// Land.msh (+ Land.map, Land1/2.wea found beside it or via --map/--wear1/--wear2) -> .gltf / .glb
// / .obj (+ sidecar, kind "terrain").
// `libraries`: the game's (batch shares them); none: found above the level (export_terrain.cpp).
// `threads`: for the draped overlay (one where the caller converts files in parallel).
// --overlay for a map export (default: draped too).
TerrainExportSettings::Overlay terrain_overlay(const ConvertOptions& options);
void export_terrain(const Job& job, const Loaded& in, const std::filesystem::path& out,
                    const mapping::MaterialLibraries* libraries = nullptr, unsigned threads = 1);

// The level's files beside Land.msh (--map, --wear1, --wear2 override) and its libraries
// (`libraries`, else found above the level and kept in `own`).
TerrainExportInput terrain_export_input(const Job& job, const Loaded& in,
                                        const mapping::MaterialLibraries* libraries,
                                        std::optional<mapping::MaterialLibraries>& own);

// ---- Level (export_level.cpp, import_level.cpp) ----
// MISSIONS/<dir>/data.tma (its map, registry, assemblies and models found in the game folder
// above it, or --game-dir) -> .gltf / .glb (+ sidecar, kind "level").
void export_level(const Job& job, const Loaded& in, const std::filesystem::path& out);
// A mission's files as a level export or preview reads them: `input` refers to what the sources
// hold (the registry, each distinct model loaded once, the map, the libraries).
struct LevelSources {
    LevelSources();
    ~LevelSources();
    LevelExportInput input;
    struct Owned;
    std::unique_ptr<Owned> owned;
};
// Unresolved references are warnings (their objects stay as empty nodes); throws UsageError when
// no game folder holds objects.rlb.
std::unique_ptr<LevelSources> read_level_sources(const Job& job, const Loaded& in);
// `--reading` names of the level's contested readings (assembly, rest-pose, parts) applied to
// `settings`; the formats' readings are readings_of's. Throws UsageError on a bad variant.
bool is_level_reading(const std::string& name);
void apply_level_readings(const ConvertOptions& options, LevelExportSettings& settings);
// The sidecar find_import_sidecar found, when it says "kind": "level".
std::optional<sidecar::LevelSidecar> level_sidecar(const Job& job, const ImportSidecar& found);
// Only a level export goes back to a data.tma: when `out_spec` is a .tma and `found` is not a
// level sidecar, says why (no sidecar, its text broken where it breaks, or another kind).
void refuse_tma_without_level_sidecar(const std::filesystem::path& input,
                                      const std::string& out_spec, const Job& job,
                                      const ImportSidecar& found);
// The level import itself, nothing written: `input` (.gltf / .glb) + its level sidecar.
LevelImport import_level_files(const Job& job, const std::filesystem::path& input,
                               const std::filesystem::path& sidecar_path);
// .gltf / .glb (+ level sidecar) -> data.tma with the moved objects' transforms changed.
void import_level(const Job& job, const Address& in, const std::string& out_spec,
                  const sidecar::LevelSidecar& sidecar, const ImportSidecar& found);

// ---- Terrain import (import_terrain.cpp) ----
// The sidecar find_import_sidecar found, parsed once for the import, when it says
// "kind": "terrain"; nullopt otherwise.
std::optional<sidecar::TerrainSidecar> terrain_sidecar(const Job& job, const ImportSidecar& found);
// .gltf / .glb / .obj (+ terrain sidecar) -> OUT.msh and, beside it, OUT.map.
void import_terrain(const Job& job, const Address& in, const std::string& out_spec,
                    const sidecar::TerrainSidecar& sidecar, const ImportSidecar& found);

} // namespace msh::conversion
