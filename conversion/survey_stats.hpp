// `mshconv survey`'s collection pass: walks a game folder once and gathers counts, per-file hashes,
// the damaged and strict-failing files or entries, and the statistics that decide the contested
// readings (formats/readings.hpp; docs/survey.md). Nothing here keeps a byte of game data except
// the decoded texture thumbnails of the contact sheet, which never reach the report.
#pragma once

#include <mshconv/io.hpp>

#include "formats/texm.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace msh::conversion::survey {

// A file or archive entry and the first error a reader reported for it.
struct Problem {
    std::string where; // relative path, `archive:entry` for entries (UTF-8)
    std::string error;
};

// One walked file: name, size and XXH3-64 of its bytes (the payload hash of sidecar/).
struct FileRecord {
    std::string name; // relative to the game folder, '/' separators, UTF-8
    uint64_t size = 0;
    uint64_t hash = 0;
    std::string kind; // "nres", "model", "terrain", "areal_map", "texm", "wear", "other", ...
};

// Figures of one top-level archive (Textures.lib and Material.lib are compared with the
// published per-library figures).
struct ArchiveFigures {
    uint64_t entries = 0, texm = 0, texm_with_page = 0, mat0 = 0, models = 0;
    std::map<std::string, uint64_t> texm_formats;
};

struct Counts {
    uint64_t files = 0, bytes = 0, unreadable_files = 0;
    uint64_t nres_files = 0, nres_entries = 0; // top-level NRes files and their entries
    uint64_t nested_archives = 0;              // NRes libraries inside archives
    uint64_t models = 0, loose_models = 0, legacy_node_models = 0, animated_models = 0;
    uint64_t model_nodes = 0, model_vertices = 0, batches = 0, triangles = 0;
    uint64_t keys = 0, models_with_res20 = 0;
    uint64_t texm = 0, loose_texm = 0, texm_with_page = 0;
    std::map<std::string, uint64_t> texm_formats; // "0", "565", ... "8888", "other"
    uint64_t mat0 = 0;
    std::map<uint64_t, uint64_t> mat0_phases, mat0_anim_blocks; // count -> records
    uint64_t wear_in_archives = 0, wear_loose = 0, wear_rows = 0, wear_rows_with_extra = 0,
             wear_lightmap_sections = 0, wear_lightmaps_count_zero = 0;
    uint64_t terrains = 0, terrain_vertices = 0, terrain_faces = 0, terrain_faces_layer2 = 0;
    uint64_t areal_maps = 0, areals = 0;
    // Levels: missions (data.tma), their placed objects, and the objects whose reference does not
    // resolve through the folder's objects.rlb and unit .dat files (level.md §3.1).
    uint64_t missions = 0, placed_objects = 0, unresolved_references = 0;
    uint64_t other_files = 0;
    std::map<std::string, ArchiveFigures> archives; // relative path -> figures
};

// key-quaternion: where |value| == 32767 sits in the stored rotation words (animation.md §2).
struct KeyStats {
    uint64_t models = 0, keys = 0, static_keys = 0;
    uint64_t all_at_22 = 0, all_at_16 = 0;       // every key: word 3 (+22) / word 0 (+16)
    uint64_t static_at_22 = 0, static_at_16 = 0; // keys of one-key tracks only
};

// batch-material: Res13 +2 against the low byte of +4 for models with a WEAR of their stem.
struct BatchStats {
    uint64_t models_with_wear = 0, models_without_wear = 0, models_with_unreadable_wear = 0;
    uint64_t batches = 0;
    uint64_t row_in_range = 0, row_out_of_range = 0; // +2 < WEAR rows
    uint64_t low_byte_differs = 0;                   // +2 != (opaque4 & 0xFF)
    uint64_t id_resolves = 0, id_unresolved = 0;     // (opaque4 & 0xFF) is a row's legacy id
    uint64_t id_same_row = 0;                        // ... and that row is +2
    uint64_t differs_explained_by_id = 0;            // differs, but the id names row +2
};

// face-material: Land.msh face bytes +4/+5 against the rows of Land1.wea / Land2.wea (terrain.md
// §4).
struct FaceStats {
    uint64_t maps = 0, maps_without_wear = 0, faces = 0, byte5_set = 0;
    uint64_t byte4_past_land1 = 0, byte4_past_land2 = 0;
    uint64_t byte5_past_land1 = 0, byte5_past_land2 = 0;
};

// The stored sort order of NRes directories (nres.md §5), by nres::evidence_name().
struct FoldStats {
    std::map<std::string, uint64_t> libraries; // archives that are not model/terrain/map images
    std::map<std::string, uint64_t> images;    // model, terrain and areal-map containers
    std::vector<Problem> lower_or_neither;     // libraries whose order is "lower" or "neither"
};

// Type-11 pairs against type-21 faces per Land.msh (terrain.md §6).
struct CellPairStats {
    uint64_t maps = 0, equal = 0, different = 0, absent = 0;
    struct Map {
        std::string where;
        uint64_t pairs = 0, faces = 0;
    };
    std::vector<Map> differing;
};

// Res20 read as 48-byte records with a node index (i32) at +0.
struct Res20Stats {
    uint64_t models = 0, models_multiple_of_48 = 0, records = 0, in_range = 0, out_of_range = 0;
    struct Table {
        std::string where;
        uint64_t size = 0;
    };
    std::vector<Table> not_multiple_of_48;
};

// A contact-sheet entry: level 0 decoded as stored (B, G, R), scaled to fit the sheet.
struct SheetTexture {
    std::string where;
    uint32_t format = 0;
    uint32_t width = 0, height = 0; // level 0 as stored
    texm::Image bgr;                // scaled; the rgb half is the same with R and B exchanged
};

struct Result {
    std::vector<FileRecord> files;
    Counts counts;
    std::vector<Problem> damaged; // the tolerant readers' first error
    std::vector<Problem> strict;  // the strict readers' first error
    KeyStats keys;
    BatchStats batches;
    FaceStats faces;
    FoldStats folds;
    CellPairStats cell_pairs;
    Res20Stats res20;
    uint64_t texm_888 = 0, texm_paletted = 0;
    std::vector<SheetTexture> sheet; // filled with Options::sheet only
};

struct Options {
    bool sheet = false;              // decode 888 and format-0 textures for the contact sheet
    uint32_t sheet_max_height = 128; // thumbnails are halved until they fit
    uint32_t sheet_max_width = 1024; // the width of a pair (2 w + gap)
    uint32_t sheet_gap = 4;
    // Called after each file: files done, files in all, the file's relative name.
    std::function<void(size_t, size_t, const std::string&)> progress;
};

// Walks `dir` through `io`, recursively (sorted by relative path). Never throws for a damaged or
// unreadable file: it is listed in `damaged`. Throws std::runtime_error when `dir` is no folder.
Result collect(mshconv::Io& io, const std::filesystem::path& dir, const Options& options);

// The format key Counts::texm_formats uses: "0", "565", "556", "4444", "88", "888", "8888" or
// "other".
std::string format_key(uint32_t code);

} // namespace msh::conversion::survey
