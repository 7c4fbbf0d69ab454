// Scene -> glTF 2.0 (.gltf + .bin, or .glb), written directly (JSON streamed from the scene, the
// binary buffer filled once in place; tinygltf is used for reading only). Every accessor is tightly
// packed in its own buffer view (no byteStride), vertex/index views carry their targets, POSITION
// and animation inputs have exact min/max, indices are UNSIGNED_SHORT when every index < 65535
// (65535 is the primitive-restart value) and UNSIGNED_INT otherwise.
#pragma once

#include <mshconv/io.hpp>

#include "bytes.hpp"
#include "diagnostics.hpp"
#include "scene/scene.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace msh::gltf {

// Material images (scene::Material::base_color): embedded as bufferView images (GLB) or
// referenced as `<prefix><name>.png` files beside the document (.gltf). One image and texture per
// distinct image name, one sampler (LINEAR_MIPMAP_LINEAR / LINEAR, REPEAT).
struct ImageMode {
    bool embed = true;
    std::string prefix;
};

struct Encoded {
    Bytes document; // .gltf JSON text or the whole .glb (Assembly::Pieces: the .glb's start)
    // A GLB encoded as pieces: the file's bytes after `document`, in order. Views of the scene's
    // arrays (valid while the scene lives and is not changed), zero padding and `converted`.
    std::vector<ByteView> tail;
    std::vector<Bytes> converted; // the buffer views stored in another type than the scene's
    Bytes bin;                    // .gltf only: the external buffer (empty for .glb)
    std::string bin_name;
    std::vector<scene::ImageFile> images; // .gltf only: `<stem>_<image>.png` files
};

// Whole: the GLB in `document`. Pieces: a GLB's binary chunk left in the scene's arrays (`tail`),
// for a writer that writes the pieces in order: a map's GLB is tens of MB, and assembling it cost
// that much fresh memory and a copy. Either way the same bytes; .gltf is always whole.
enum class Assembly { Whole, Pieces };

// binary = GLB. For .gltf the buffer is external, named `<stem>.bin` after `out_name`.
Encoded encode(const scene::Scene& scene, bool binary, const std::string& out_name,
               Assembly assembly = Assembly::Whole);

// Writes by extension (.gltf or .glb, case-insensitive; anything else throws). Everything is
// encoded in memory first and each file is written atomically (the .bin before the .gltf).
void write(const scene::Scene& scene, const std::filesystem::path& out);

} // namespace msh::gltf

namespace msh::gltf {

// Reads a .gltf (+ buffers) or .glb into the neutral scene: rigid nodes (a node matrix is
// decomposed; scale and shear are baked into the geometry and the children's translations,
// scene/bake_scale.hpp), meshes with every attribute as floats (integer and normalised accessors
// converted, byteStride honoured; TRIANGLE_STRIP and TRIANGLE_FAN as triangle lists), materials by
// name, skins, and every animation with its LINEAR/STEP translation and rotation channels (a
// constant scale channel is the baked rest scale; a changing one is dropped with a warning).
// `diagnostics` collects what was dropped, as warnings at their JSON pointers. Throws FormatError
// naming the file on bad input. Points are skipped with a warning, and so are line primitives
// (LINES, LINE_LOOP, LINE_STRIP) unless `options.lines`: then they are kept as Mode::Lines with
// segment-pair indices (the terrain import reads the areal outlines from them).
struct ReadOptions {
    bool lines = false;
    // Read the base colour images into the scene's materials (a new model's textures). Embedded
    // images always come with the file; an external URI is read from the document's folder
    // (never outside it), by read(file) only.
    bool images = false;
    // Non-empty: only the meshes of nodes with these names are decoded; every other mesh comes
    // with its name and extras and no primitives (the document is still checked whole). The
    // terrain import reads 3 of a map's meshes; the draped overlay is two thirds of the bytes.
    std::vector<std::string> meshes_of_nodes;
    // Where read(file) reads the document, its buffers and images (null: the disk).
    mshconv::Io* io = nullptr;
};
// The JSON text of a .gltf (`binary` false: the bytes themselves), or of a .glb's first chunk;
// none for a GLB whose header or JSON chunk is not there. Nothing is parsed.
std::optional<std::string_view> json_text(ByteView bytes, bool binary);

scene::Scene read(const std::filesystem::path& file, DiagnosticSink& diagnostics,
                  const ReadOptions& options = {});
// The same for a whole GLB in memory (`where` names it in errors and warnings).
scene::Scene read_glb(ByteView glb, const std::string& where, DiagnosticSink& diagnostics,
                      const ReadOptions& options = {});
// A .gltf document in memory whose buffers and images are embedded (data: URIs); an external URI
// fails the load with its name.
scene::Scene read_gltf_text(ByteView json, const std::string& where, DiagnosticSink& diagnostics,
                            const ReadOptions& options = {});

// The vertices of a GLB in the shape encode() writes, without tinygltf and the structure checks:
// per node its mesh, per primitive its POSITION, TEXCOORD_0 and TEXCOORD_1 (float accessors in
// the BIN chunk), nothing else. Only for a file known by its hash to be the one an export wrote
// (conversion::rebuild_unchanged_model, which checks what it rebuilds against the model's hash
// again); every index and offset is still checked. nullopt when the file is not in that shape:
// read it in full.
std::optional<scene::Scene> read_written_vertices(ByteView glb);

} // namespace msh::gltf
