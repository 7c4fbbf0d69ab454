// `mshconv --version`: this build's version (CMake's project version) and the libraries it was
// built with, so a bug report says what produced a file.
#include "allocator.hpp"
#include "commands.hpp"

#include <boost/version.hpp>
#include <nlohmann/json.hpp>
#include <png.h>
#include <spdlog/version.h>
#include <zlib.h>

#include <cstdio>

namespace msh::cli {

int run_version(const Args&) {
    std::printf("mshconv %s\n", MSHCONV_VERSION);
    std::printf("  Boost %d.%d.%d, spdlog %d.%d.%d, nlohmann_json %d.%d.%d, libpng %s, zlib %s, "
                "tinygltf %s\n",
                BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100,
                SPDLOG_VER_MAJOR, SPDLOG_VER_MINOR, SPDLOG_VER_PATCH, NLOHMANN_JSON_VERSION_MAJOR,
                NLOHMANN_JSON_VERSION_MINOR, NLOHMANN_JSON_VERSION_PATCH, PNG_LIBPNG_VER_STRING,
                ZLIB_VERSION, MSHCONV_TINYGLTF_VERSION);
    std::printf("  allocator: %s\n", allocator_description().c_str());
    return 0;
}

} // namespace msh::cli
