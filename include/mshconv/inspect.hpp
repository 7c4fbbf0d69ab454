// What a game file holds and whether it is sound, as `mshconv info` and `mshconv validate` report
// it: an archive (its entries, nested models and textures summarised), a model, a Land.msh, a
// Land.map, a Texm texture, a WEAR table, a mission's data.tma, a unit .dat or the objects.rlb
// registry, as a file or an ARCHIVE:ENTRY. Public header:
// standard library only.
//
//   const mshconv::Validation v = mshconv::validate({"static.rlb"}, io);
//   if (!v.valid) for (const auto& f : v.findings) std::puts(f.text.c_str());
#pragma once

#include <mshconv/error.hpp>
#include <mshconv/io.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mshconv {

// What an input is, as `info` reads it.
enum class InfoKind {
    Archive,
    Model,
    Terrain,
    ArealMap,
    Texture,
    Wear,
    Mission,
    Assembly,
    Registry
};
// "archive", "model", "terrain", "areal_map", ..., "mission", "assembly", "registry"
const char* to_string(InfoKind kind);

// An MSH model: its resources, counts, the slots each LOD and group uses, its node tree and
// animation.
struct ModelInfo {
    struct Usage {
        int lod = 0, group = 0;
        std::size_t slots = 0, batches = 0, triangles = 0;
    };
    struct NodeSlot {
        int lod = 0, group = 0;
        std::uint32_t slot = 0;
    };
    struct Node {
        std::size_t index = 0;
        std::string name;
        std::optional<std::uint32_t> parent; // none: a root
        std::uint32_t flags = 0;
        bool animated = false;
        std::size_t keys = 0;
        std::vector<NodeSlot> slots;
    };
    struct RawResource { // a resource no reader interprets, kept byte for byte
        std::uint32_t type = 0;
        std::size_t size = 0;
    };
    std::vector<std::uint32_t> entry_order; // the resource types in directory order
    bool legacy_node_table = false;         // 24-byte node records
    std::size_t node_count = 0, slot_count = 0, batch_count = 0, vertex_count = 0;
    std::size_t index_count = 0, triangle_count = 0, triangle_descriptor_count = 0;
    std::vector<Usage> lod_group_usage; // the LOD/group pairs with at least one slot
    std::vector<Node> nodes;
    std::uint32_t frame_count = 0;
    std::size_t key_count = 0, frame_map_words = 0, animated_nodes = 0;
    std::vector<RawResource> raw_resources;
};

// A Texm texture: its header, what its flags mean, its atlas rectangles; `error` alone when its
// header cannot be read.
struct TextureInfo {
    struct Rect {
        std::uint32_t x = 0, w = 0, y = 0, h = 0;
    };
    std::size_t payload_size = 0;
    std::optional<std::string> error;
    std::uint32_t width = 0, height = 0, format = 0, mip_count = 0;
    std::string format_name; // "R5G6B5", "indexed (palette)", ...
    std::uint32_t flags4 = 0, flags5 = 0, unknown6 = 0;
    std::vector<std::string> flags5_bits; // the meaning of each bit set
    std::uint64_t core_size = 0;          // header, palette and levels
    bool embedded_palette = false;
    std::optional<std::vector<Rect>> page; // the Page table
    std::optional<std::size_t> unparsed_tail_bytes;
    bool interpretable = false;      // its pixels decode
    bool valid_texture_name = false; // a name the material's palette slot can be read from
    std::optional<std::string> external_palette;
    std::vector<std::string> diagnostics;
};

// A Land.msh: faces, vertices, the faces of each WEAR row per layer, the extent.
struct TerrainInfo {
    std::size_t faces = 0, usable_faces = 0, vertices = 0, slots = 0, nodes = 0;
    std::map<unsigned, std::size_t> layer1_faces_by_row, layer2_faces_by_row;
    std::optional<std::array<std::array<float, 3>, 2>> extent; // min, max
};

// A Land.map: its areals by class, their vertices and area, the grid.
struct ArealMapInfo {
    bool decoded = false;
    std::size_t areals = 0, polygon_vertices = 0;
    std::map<std::uint32_t, std::size_t> areals_by_class;
    double total_area = 0;
    std::uint32_t cells_x = 0, cells_y = 0;
    std::size_t occupied_cells = 0;
};

// A mission's data.tma: its sections counted, its objects by kind, the map it names.
struct MissionInfo {
    std::uint32_t version = 0, clan_version = 0, object_version = 0, mission_word = 0;
    std::size_t routes = 0, route_points = 0, lodes = 0;
    std::vector<std::string> clans; // names, in order
    std::size_t zones = 0;
    std::size_t objects = 0, properties = 0, housed_units = 0, scaled_scenery = 0;
    std::map<std::string, std::size_t> objects_by_kind; // "building", "unit", "vegetation", "rock"
    std::string map_path;                               // as written, e.g. DATA\MAPS\SC_3\land
    std::string description;          // the text before its fill (the game shows `descr`)
    std::size_t description_size = 0; // the buffer's capacity, fill included
    std::size_t tail = 0;             // bytes after the lodes (a tolerant read keeps them)
};

// A unit .dat: the class word and the tree of parts.
struct AssemblyInfo {
    struct Component {
        std::size_t index = 0;
        std::optional<std::size_t> parent; // none: a root
        std::string record, description;   // the objects.rlb record, the display name
        std::string part_class;            // "chassis", "turret", "armour", ...
        std::int32_t attach = -1;          // the node of the parent's model
    };
    std::uint32_t class_word = 0;
    std::vector<Component> components;
};

// objects.rlb: its records by NRes type, and how many lead to no model.
struct RegistryInfo {
    std::size_t records = 0, slots = 0, without_model = 0;
    std::string sort_fold; // the case fold the archive's stored order follows
    std::map<std::string, std::size_t> records_by_type; // "STAT", "FORT", ...
};

// A WEAR table's material and lightmap names.
struct WearInfo {
    std::vector<std::string> materials, lightmaps;
};

// An NRes archive's directory, with each model and texture in it described.
struct ArchiveInfo {
    struct Entry {
        std::size_t index = 0;
        std::string name;
        std::string type; // its FourCC when printable, else the number
        std::size_t size = 0;
        std::uint32_t attr1 = 0, attr2 = 0, attr3 = 0, sort_index = 0;
        std::optional<InfoKind> nested; // Archive, Terrain or ArealMap: another file inside
        std::optional<ModelInfo> model;
        std::optional<std::size_t> diagnostics; // the model's, read tolerantly
        std::optional<std::string> error;       // a model that cannot be read
        std::optional<TextureInfo> texture;
    };
    // A file cut short: the entries before the cut are described, `message` says what is missing.
    struct Truncation {
        std::size_t have = 0, need = 0, entries_read = 0, entries_unread = 0;
        std::string message;
    };
    std::size_t entry_count = 0; // as the directory says
    std::string sort_fold;       // the case fold the stored order follows ("unread" when cut)
    std::vector<Entry> entries;
    std::optional<Truncation> truncated;
};

struct Info {
    InfoKind kind = InfoKind::Archive;
    std::string file; // the input's address
    std::size_t size = 0;
    std::optional<std::size_t> diagnostics; // a model's, terrain's or map's tolerant read
    // The one of these that `kind` names.
    std::optional<ModelInfo> model;
    std::optional<TerrainInfo> terrain;
    std::optional<ArealMapInfo> areal_map;
    std::optional<TextureInfo> texture;
    std::optional<WearInfo> wear;
    std::optional<ArchiveInfo> archive;
    std::optional<MissionInfo> mission;
    std::optional<AssemblyInfo> assembly;
    std::optional<RegistryInfo> registry;
};

// The description `mshconv info --json` prints (docs/cli.md#info).
std::string to_json(const Info& info);

// Read tolerantly, so that a damaged file is described as far as it can be; throws
// mshconv::Error (error.hpp) when the input is none of these kinds or cannot be read.
Info info(const std::string& input, Io& io = disk());

struct ValidateRequest {
    std::string input;   // a path or ARCHIVE:ENTRY
    bool strict = false; // every violated invariant of the spec is an error, not a warning
};

// One finding: what is wrong, in which resource, where in it.
struct Finding {
    bool error = false; // else a warning
    std::string resource;
    uint64_t offset = 0;                  // bytes into the resource's file or image
    std::optional<uint64_t> line, column; // text formats (WEAR, OBJ), 1-based
    std::optional<std::string> pointer;   // JSON (glTF, sidecars): RFC 6901
    std::string message;
    std::string text; // the whole line as `mshconv validate` prints it
};

struct Validation {
    std::string file; // the input's address
    bool valid = true;
    std::size_t errors = 0, warnings = 0;
    std::vector<Finding> findings;
    // What was read: "models", "archives", "terrains", "areal_maps", "wear_tables", "textures",
    // "materials", "missions", "assemblies", "references" (a level's, each checked).
    std::map<std::string, std::size_t> counts;
    std::string sort_fold;                         // the input archive's sort-index fold
    std::map<std::string, std::size_t> sort_folds; // archives by fold, nested ones too
};

// What `mshconv validate --json` prints for `validation` (docs/cli.md#validate).
std::string to_json(const Validation& validation);

// Every reader over the input and what it contains (nested archives, models, textures, MAT0,
// WEAR); damage is a finding, not an exception. Throws mshconv::Error when it cannot be read.
Validation validate(const ValidateRequest& request, Io& io = disk());

} // namespace mshconv
