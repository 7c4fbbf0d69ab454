// One conversion, as `mshconv convert IN OUT` runs it: the direction comes from the input's
// content (an MSH model, a Land.msh, a Texm texture; a file or an ARCHIVE:ENTRY address, nested
// archives by repeating ':') or its extension (.gltf, .glb, .obj, .png, or a format Assimp
// reads), and from the output's name. Sidecars, the game's libraries and a model's WEAR are
// found beside the input, as the command finds them. Public header: standard library only.
//
//   mshconv::FileIo io;
//   mshconv::convert({"static.rlb:TANK.msh", "tank.glb"}, io);   // export, with its sidecar
//   mshconv::convert({"tank.glb", "static.rlb:TANK.msh"}, io);   // and back, byte for byte
#pragma once

#include <mshconv/error.hpp>
#include <mshconv/io.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mshconv {

// The file an address reads: ARCHIVE for ARCHIVE:ENTRY (or ARCHIVE:ENTRY:ENTRY), the path itself
// for a file. What a caller compares with an output so that an input is never overwritten.
Path address_file(const std::string& address, Io& io = disk());

// Every LOD or every group, where an index would choose one (ConvertOptions::lod and group).
inline constexpr int kAll = -1;

// A map export's areal overlay: the map's polygons only (`--overlay raw`), or also draped on the
// terrain (`draped`, `both`: the default).
enum class MapOverlay { Raw, Draped };

// A contested reading of the formats chosen: a name and one of its variants, as
// docs/formats/README.md lists them (`mshconv survey` says which the game's files support).
struct Reading {
    std::string name, variant;
};

// The options of `mshconv convert` (docs/cli.md); an unset one takes the command's default.
struct ConvertOptions {
    Path sidecar; // the sidecar to write or read (default OUT_STEM / IN_STEM.sidecar.json)
    Path report;  // import: the change report as JSON
    // Model export.
    std::optional<int> lod, group; // 0..2 / 0..4, or kAll (default 0)
    std::optional<double> fps;     // key times (export 24; import: the sidecar's)
    bool skin = false, msft_lod = false;
    // Textures.
    bool mips = false;              // export every mip level as OUT_STEM.mip<k>.png
    std::optional<int> png_level;   // zlib level 0..9 (default: the fast setting)
    std::optional<uint32_t> format; // Texm format code of imported / added textures: 0, 565, ...
    std::optional<uint64_t> max_pixels;
    // Import.
    std::optional<std::string> animation; // "all" (default), a NAME or an INDEX
    bool force = false, full_read = false;
    // Import without a sidecar as a new model even where OUT already holds a model or entry
    // (without it, such an import is refused).
    bool new_model = false;
    // New models: materials of the same name replaced; textures resized down to this size.
    bool replace = false;
    std::optional<uint32_t> max_texture_size;
    // The game's libraries (Material.lib, Textures.lib, ...): a folder, or the files.
    Path game_dir, materials, textures;
    std::vector<Reading> readings;
    // Terrain export.
    Path map, wear1, wear2;
    bool areal_faces = false;
    std::optional<MapOverlay> overlay; // default Draped
    std::optional<unsigned> threads;   // the draped overlay's threads (default: all cores)
};

struct ConvertRequest {
    std::string input;  // a path or ARCHIVE:ENTRY
    std::string output; // a path or ARCHIVE:ENTRY (an import into an existing archive)
    ConvertOptions options = {};
};

enum class MessageLevel { Debug, Info, Warning, Report };
// What a job has to say: progress detail, warnings (the output is written but may not be what
// was wanted) and the lines of an import's change report. Called on the job's thread.
using OnMessage = std::function<void(MessageLevel, const std::string&)>;

// What a conversion converted: an MSH model, a map (Land.msh and its level files) or a texture.
enum class AssetKind { Model, Terrain, Texture, Level };
const char* to_string(AssetKind kind); // "model", "terrain", "texture", "level"

struct ConvertResult {
    AssetKind kind = AssetKind::Model;
    bool import = false;              // towards the game's formats
    std::vector<std::string> written; // every file written, in order
};

// Throws UsageError for a request that cannot run, mshconv::Error (error.hpp: the file, entry,
// resource, offset or JSON pointer as fields) for an input that cannot be read or used; nothing
// is written then.
ConvertResult convert(const ConvertRequest& request, Io& io = disk(),
                      const OnMessage& on_message = {});

} // namespace mshconv
