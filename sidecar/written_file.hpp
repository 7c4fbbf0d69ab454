// What an export wrote, by content: the XXH3-64 of the glTF file as it went to disk (the .glb, or
// the .gltf text and its .bin), recorded in the sidecar's `export.written`. An import given that
// very file (every byte the same) knows the answer without reading it: the original payload,
// nothing changed (conversion::rebuild_unchanged_model / rebuild_unchanged_terrain). A pipeline
// that converts a game folder out and back spends most of the way back reading files it wrote
// itself. OBJ exports record nothing (their MTL and the OBJ's own text are not checked as one
// file).
#pragma once

#include "json_at.hpp"

#include <string>

namespace msh::sidecar {

class ReadableJson;

struct WrittenFile {
    std::string xxh3_64;        // of the .glb or .gltf; empty: nothing recorded
    std::string buffer;         // .gltf: the name of its external buffer (beside it)
    std::string buffer_xxh3_64; // of that buffer
    bool recorded() const { return !xxh3_64.empty(); }
};

// The `written` object through `w`.
void write_written_file(ReadableJson& w, const WrittenFile& written);
// `at` is the `written` object; FormatError at its pointer when a member is not 16 hex digits or
// the buffer is not a plain file name.
WrittenFile read_written_file(const JsonAt& at);

} // namespace msh::sidecar
