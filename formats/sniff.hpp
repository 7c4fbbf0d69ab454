// "What kind of bytes is this": one decision for convert, batch, info and validate. Content
// decides first (magic numbers, NRes resource types); the name or the archive entry type only
// where content cannot (OBJ is free text, MAT0 has no magic).
#pragma once

#include "bytes.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace msh {

enum class ContentKind {
    Unknown,
    DamagedNRes, // the NRes magic, but the container does not read
    NResArchive, // any other NRes container (a library of models, textures, materials, ...)
    Model,       // MSH: NRes with resource types 1, 2 and 3 and no terrain faces (type 21)
    Terrain,     // Land.msh: NRes with terrain face records (type 21)
    ArealMap,    // Land.map: NRes whose only entry is the areal chunk (type 12)
    Texm,        // Texm magic and a whole header
    Wear,        // WEAR text table
    Material,    // MAT0 payload (by entry type only)
    Gltf,        // glTF JSON (an object with "asset")
    Glb,         // binary glTF ("glTF" magic, version 2)
    Obj,         // Wavefront OBJ text (by name)
    Png,         // PNG signature
    Mission,     // data.tma: version 1, routes that fit, then clan version 6 (level.md §2)
    Assembly,    // a unit .dat: magic 0xF0F1 and 8 + 112 x N bytes (level.md §3.1)
};

struct SniffHint {
    std::string_view name;              // file or entry name (extension used where needed)
    std::optional<uint32_t> entry_type; // the NRes entry type when the bytes are an entry
};

ContentKind sniff(ByteView bytes, const SniffHint& hint = {});
const char* to_string(ContentKind kind);

} // namespace msh
