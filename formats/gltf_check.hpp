// The checks a glTF document passes before tinygltf reads it (issue 16): the GLB container (magic,
// version, length, chunk sizes and types) with byte offsets, the JSON nesting bound, and the
// document's structure — glTF 2.0, top-level arrays that are arrays, every index that refers to
// another element in range, buffer views inside their buffers, accessor types and component types
// glTF defines, byte strides, buffer URIs inside the document's folder and data: URIs no longer
// than their declared byteLength — each error naming its JSON pointer. tinygltf reports such
// faults without a location, or not at all (a scene node index past the nodes, a buffer view
// past its buffer).
#pragma once

#include <mshconv/io.hpp>

#include "bytes.hpp"

#include <filesystem>
#include <string>

namespace msh::gltf {

// `bytes` is a .gltf text or a GLB. `folder`: where external buffer and image URIs resolve (null:
// no file URI is allowed, only data: URIs). Throws FormatError naming `where` and the offset or
// JSON pointer of the first fault.
// `io`: where the document's external buffers lie (null: the disk).
void check_document(ByteView bytes, const std::string& where, const std::filesystem::path* folder,
                    mshconv::Io* io = nullptr);

// `text` without a leading UTF-8 byte order mark (RFC 8259 §8.1 lets a reader ignore one).
ByteView skip_utf8_bom(ByteView text);

// Percent-decoding of a URI path (RFC 3986); tinygltf decodes the same way.
std::string decode_uri(const std::string& uri);

} // namespace msh::gltf
