// Reading side of the terrain sidecar (sidecar/terrain_sidecar.hpp, `"kind": "terrain"`): the
// binding (every field read and checked) or, in the first layout, the original Land.msh / Land.map
// payloads (base64, checked against the recorded size and hash), and the export options the
// terrain import needs to re-create what the exporter wrote. Read through JsonAt, as every sidecar.
#pragma once

#include "formats/bytes.hpp"
#include "json_at.hpp"
#include "terrain_sidecar.hpp"

#include <optional>
#include <string>

namespace msh::sidecar {

// A terrain sidecar file's bytes -> the typed sidecar; nullopt when the text is not a terrain
// sidecar (not JSON, or another kind: that kind's reader says why); throws FormatError naming
// `where` and the field when it is one but damaged.
std::optional<TerrainSidecar> read_terrain_sidecar(ByteView text, const std::string& where);

// The binding or the payloads, and the export record (a first layout's readable part is not read
// back; the terrain and map pointers stay null). Throws FormatError naming `doc.where()` and the
// JSON pointer on a missing or malformed field, bad base64 or a size/hash mismatch.
TerrainSidecar parse_terrain_sidecar(const JsonAt& doc);

} // namespace msh::sidecar
