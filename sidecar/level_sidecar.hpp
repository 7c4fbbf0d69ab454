// The level sidecar (`"kind": "level"`, docs/sidecar.md): what a level export's glTF cannot hold
// for its import. data.tma's bytes (base64, with their size and hash checked on read): the import
// starts from them and changes only the transform floats of the objects that moved, so everything
// else (routes, clans, properties, the damaged description) comes back byte for byte. And the
// export record: source, output, format, pairing token and the readings the export used.
#pragma once

#include "formats/bytes.hpp"

#include <map>
#include <optional>
#include <string>

namespace msh::sidecar {

struct LevelSidecar {
    std::string source;                          // data.tma's address, portable
    std::string output;                          // the export's file name
    std::string format;                          // gltf, glb or obj
    std::string pair;                            // the pairing token stamped into the export too
    std::map<std::string, std::string> readings; // reading -> the variant used
    Bytes mission;                               // data.tma as the export read it
};

std::string level_sidecar_text(const LevelSidecar& sidecar);
// nullopt when the text is JSON but not a level sidecar (or not JSON at all); throws FormatError
// naming `where` and the JSON pointer when it is one but damaged (a size or hash that does not
// match the bytes included).
std::optional<LevelSidecar> read_level_sidecar(ByteView text, const std::string& where);

// The pairing token of a level export: over data.tma's bytes and the readings.
std::string level_pairing_token(ByteView mission,
                                const std::map<std::string, std::string>& readings);

} // namespace msh::sidecar
