// The one place that configures tinygltf (Debian libtinygltf-dev 2.7): no image decoding or
// encoding (mshconv writes its own PNGs), RapidJSON. Include this, never <tiny_gltf.h>.
// formats/gltf_read.cpp holds the implementation (TINYGLTF_IMPLEMENTATION).
#pragma once

#ifndef TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE
#endif
#ifndef TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#endif
#ifndef TINYGLTF_NO_EXTERNAL_IMAGE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#endif

// RapidJSON, not nlohmann: a model's glTF holds a thousand accessors, and with RapidJSON under
// tinygltf and the glTF check its import takes 9 ms less CPU (of 29, the largest model). The
// allocator is malloc (CrtAllocator): tinygltf's default pool allocator is one global document,
// which two threads of a batch would share.
#ifndef TINYGLTF_USE_RAPIDJSON
#define TINYGLTF_USE_RAPIDJSON
#endif
#ifndef TINYGLTF_USE_RAPIDJSON_CRTALLOCATOR
#define TINYGLTF_USE_RAPIDJSON_CRTALLOCATOR
#endif
#ifndef TINYGLTF_NO_INCLUDE_RAPIDJSON
#define TINYGLTF_NO_INCLUDE_RAPIDJSON
#endif
#include "rapidjson.hpp"

#include <tiny_gltf.h>
