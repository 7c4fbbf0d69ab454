// A mission's placement file `MISSIONS/<dir>/data.tma` (docs/formats/level.md §2): a loose
// little-endian binary with no directory and no signatures. Routes, clans with zones and
// relations, the placed objects with their property lists, the map path, a word, the damaged
// description (kept raw), and the mineral lodes. Strings are LpStrings (u32 length, CP1251 bytes,
// no NUL). Parsing must end exactly at the end of the file.
//
// Lossless: every field is kept as stored (floats bit for bit, the description's raw bytes with
// its 0xCD fill), so write(read(x)) == x. The tolerant reader also keeps bytes after the lodes
// (`tail`), which the strict one refuses.
#pragma once

#include "bytes.hpp"
#include "diagnostics.hpp"
#include "vec3.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace msh::mission {

inline constexpr uint32_t kVersion = 1;
inline constexpr uint32_t kClanVersion = 6;
inline constexpr uint32_t kObjectVersion = 10; // every shipped record; 1..9 gate fields off
inline constexpr uint32_t kObjectFlags = 0x80000002;
inline constexpr size_t kLodeSize = 28;
inline constexpr size_t kZoneSize = 24;

enum class ObjectKind : uint32_t { Building = 0, Unit = 1, Vegetation = 2, Rock = 3 };
const char* to_string(ObjectKind kind); // "building", "unit", "vegetation", "rock"
// Kinds 2 and 3 name an objects.rlb key; 0 and 1 a unit .dat path.
inline bool is_scenery(uint32_t kind) {
    return kind == 2 || kind == 3;
}

// A polygon of world points that scripts test ("tactical areal"); its id is not its index.
struct Route {
    int32_t id = 0;
    std::vector<Vec3> points;
};

struct Zone {
    uint32_t kind = 1;
    Vec3 centre;
    float inner = 0, outer = 0;
};

struct Relation {
    std::string clan;
    int32_t value = 0; // 1 allied, 0 not
};

struct Clan {
    std::string name;
    int32_t unnamed = -1;
    float base_x = 0, base_y = 0;
    uint32_t type = 0; // 0 nature, 1 player, 2 AI, 3 neutral
    std::string ai_script;
    std::vector<Zone> zones;
    std::string behaviour; // the .trf behaviour tree
    uint32_t minds = 0;
    std::vector<Relation> relations;
};

struct Property {
    uint32_t type = 0; // 0 float, 1 int: value, minimum and maximum are kept as raw words
    uint32_t value = 0, minimum = 0, maximum = 0;
    std::string name;
};

// One placed object. Fields a record's version does not hold keep their defaults and are not
// written back (clan from v3, logical id v4, properties v6, instance name v7, start flag v8, host
// and hall-way vertex v9, scale v10).
struct PlacedObject {
    uint32_t kind = 0;
    uint32_t flags = kObjectFlags;
    std::string path; // objects.rlb key (scenery) or unit .dat path (buildings, units)
    int32_t clan = 0;
    int32_t logical_id = 0;
    Vec3 position;
    Vec3 rotation; // radians about x, y, z: Rz * Ry * Rx
    Vec3 scale{1, 1, 1};
    std::string instance_name;
    uint32_t start_flag = 0;
    int32_t host = -1;        // the logical id of a building that houses this unit
    int32_t hall_vertex = -1; // the vertex of the host's hall-way graph it stands at
    uint32_t property_word = 1;
    std::vector<Property> properties;
    // Where the record starts in the file, and where its nine transform floats start (position,
    // rotation, then scale): an edit names them. 0 for a record built in code.
    uint64_t offset = 0;
    uint64_t transform_offset = 0;
};

struct Lode {
    Vec3 position;
    uint32_t found = 0;
    uint32_t type = 0;
    float amount = 0;
    uint32_t unknown = 0;
};

struct Mission {
    uint32_t version = kVersion;
    std::vector<Route> routes;
    uint32_t clan_version = kClanVersion;
    std::vector<Clan> clans;
    uint32_t object_version = kObjectVersion;
    std::vector<PlacedObject> objects;
    std::string map_path; // e.g. "DATA\MAPS\SC_3\land": its folder holds Land.msh and Land.map
    uint32_t mission_flag = 0;
    Bytes description; // a buffer's capacity: text, then 0xCD fill or leftovers; kept raw
    uint32_t lode_word = 1;
    std::vector<Lode> lodes;
    Bytes tail; // tolerant reader only: bytes after the lodes
};

// Strict: versions 1, 6 and 10, the flags word 0x80000002 and the end of the file right after
// the lodes are errors when broken; tolerant: warnings (object versions 1..10 are read with their
// fields gated; a tail is kept). A count or length that runs past the end, or a clan version other
// than 6 (no other layout is documented), is an error in both modes, naming the byte offset.
Mission read(ByteView bytes, DiagnosticSink& sink, const std::string& where);
Mission read(ByteView bytes, ReadMode mode, const std::string& where);

// The file: byte-identical to the bytes read when nothing changed.
Bytes write(const Mission& mission);

// A cheap check for sniffing: the first words read as a data.tma header (version 1, a route count
// whose routes fit, clan version 6 after them).
bool looks_like_mission(ByteView bytes);

// The map path's folder as a relative path with '/' ("DATA/MAPS/SC_3"): Land.msh and Land.map
// are in it.
std::string map_folder(const std::string& map_path);
// The description up to its first NUL, or without its trailing 0xCD fill when it has none (0xCD
// is also a CP1251 letter; the text the game shows is in `descr`).
std::string description_text(const Mission& mission);

} // namespace msh::mission
