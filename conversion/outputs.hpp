// The files a conversion produces, in memory: a stage encodes everything first and the
// verb writes it (atomically, file by file) only when the whole conversion succeeded.
#pragma once

#include <mshconv/io.hpp>

#include "formats/bytes.hpp"
#include "formats/gltf.hpp"
#include "formats/names.hpp"
#include "scene/scene.hpp"
#include "sidecar/written_file.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace msh::conversion {

struct OutputFile {
    OutputFile() = default;
    OutputFile(std::string file_name, Bytes file_bytes)
        : name(std::move(file_name)), bytes(std::move(file_bytes)) {}

    std::string name; // file name, relative to the folder of the main output
    Bytes bytes;      // the file's bytes (with a tail: its start)
    // A file encoded in pieces (a GLB written from the scene's arrays, gltf::Assembly::Pieces):
    // the bytes after `bytes`, in order, valid while `keep` lives. Empty for every other file.
    std::vector<ByteView> tail;
    std::vector<std::shared_ptr<const void>> keep;
    // `bytes` and then the tail: what the file holds.
    std::vector<ByteView> pieces() const;
};

// In write order: what a document references (buffers, images, MTL) before the document, so a
// reader never sees a document whose parts are missing.
using OutputFiles = std::vector<OutputFile>;

// A model or map as an interchange file: glTF (.gltf + .bin), GLB or OBJ + MTL.
enum class SceneFormat { Gltf, Glb, Obj };

// By the extension of `file_name` (case-insensitive); nullopt for anything else.
std::optional<SceneFormat> scene_format_of(const std::string& file_name);
const char* extension_of(SceneFormat format); // ".gltf", ".glb", ".obj"

// The stem of a file name (`tank.glb` -> `tank`), for the names of the files beside it.
std::string file_stem(const std::string& file_name);
// `<stem>.sidecar.json`, the default sidecar beside an output or input.
std::string default_sidecar_name(const std::string& file_name);

// glTF/GLB via formats/gltf; OBJ + MTL via formats/obj (images beside it as `<stem>_<image>.png`).
// Assembly::Pieces: a GLB's binary chunk stays in the scene's arrays (OutputFile::tail), and the
// caller keeps the scene alive and unchanged until the files are written (keep_scene_for).
OutputFiles scene_files(const scene::Scene& scene, SceneFormat format,
                        const std::string& output_name,
                        gltf::Assembly assembly = gltf::Assembly::Whole);
// Moves `scene` into a shared owner that every file with a tail keeps: their pieces stay valid
// however long the files outlive the caller's scope (a move leaves the arrays where they are).
void keep_scene_for(OutputFiles& files, scene::Scene&& scene);

// What an export of `output_name` wrote, by content (sidecar/written_file.hpp): the .glb, or the
// .gltf with its .bin; nothing for OBJ.
sidecar::WrittenFile written_file(const OutputFiles& files, SceneFormat format,
                                  const std::string& output_name);
// Whether `file` is, byte for byte, the file `written` records (a .gltf also its buffer, beside
// it). False when nothing is recorded, the file's extension is not the recorded format, or a
// file cannot be read: then the import reads the scene.
bool is_written_file(const std::filesystem::path& file, const sidecar::WrittenFile& written,
                     mshconv::Io& io = mshconv::disk());

// Writes every file into `folder`, then `also` (named by whole paths: the sidecar), as one set:
// all of them appear, in order, or none (through `io`: the disk's atomic sets by default).
void write_outputs(const std::filesystem::path& folder, const OutputFiles& files,
                   const OutputFiles& also = {}, mshconv::Io& io = mshconv::disk());
// The same with a sidecar's text (a whole path) last, written from the string: a map's sidecar is
// megabytes, and a copy into bytes is that much fresh memory to fault in.
void write_outputs(const std::filesystem::path& folder, const OutputFiles& files,
                   const std::filesystem::path& sidecar, std::string_view sidecar_text,
                   mshconv::Io& io = mshconv::disk());

} // namespace msh::conversion
