// The one place that configures tinygltf (Debian libtinygltf-dev 2.7): no image decoding or
// encoding (mshconv writes its own PNGs), nlohmann json. Include this, never <tiny_gltf.h>.
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

// nlohmann json first: tiny_gltf.h would otherwise include it under hidden visibility, which
// clashes with the json members of the scene structs.
#include <nlohmann/json.hpp>

#include <tiny_gltf.h>
