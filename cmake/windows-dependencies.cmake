# The Windows build's libraries (included by CMakeLists.txt when WIN32), from the prefix that
# scripts/build-windows-deps.sh builds out of Debian's source packages: the same names the Linux
# branch sets, so the targets below it are built the same way.
if(NOT EXISTS "${MSHCONV_WINDOWS_PREFIX}/lib/libisal.a")
  message(FATAL_ERROR "MSHCONV_WINDOWS_PREFIX (${MSHCONV_WINDOWS_PREFIX}) holds no Windows "
    "dependencies: build them with scripts/build-windows-deps.sh (scripts/build-windows.sh does)")
endif()
set(MSHCONV_BUILD_TESTS OFF) # the Boost.Test suite runs on Linux; the CLI tests run the .exe
set(MSHCONV_MIMALLOC OFF) # a static MinGW executable cannot replace its C runtime's malloc
set(windows_prefix ${MSHCONV_WINDOWS_PREFIX})
# MinGW's own C99 printf family, not msvcrt's: %zu, and numbers printed as on Linux.
add_compile_definitions(__USE_MINGW_ANSI_STDIO=1)
# Header-only libraries (spdlog + fmt, nlohmann-json, RapidJSON, tinygltf, stb, xxHash, Boost)
# are linked into the prefix's include folder.
include_directories(SYSTEM ${windows_prefix}/include)
set(PNG_INCLUDE_DIRS ${windows_prefix}/include)
set(ISAL_INCLUDE_DIR ${windows_prefix}/include)
set(XXHASH_INCLUDE_DIR ${windows_prefix}/include)
set(RAPIDJSON_INCLUDE_DIR ${windows_prefix}/include)
set(ISAL_LIBRARY ${windows_prefix}/lib/libisal.a)
file(READ ${windows_prefix}/tinygltf-version TinyGLTF_VERSION)
string(STRIP "${TinyGLTF_VERSION}" TinyGLTF_VERSION)

add_library(Boost::program_options STATIC IMPORTED)
set_target_properties(Boost::program_options PROPERTIES
  IMPORTED_LOCATION ${windows_prefix}/lib/libboost_program_options.a
  INTERFACE_COMPILE_DEFINITIONS BOOST_ALL_NO_LIB)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)

find_package(OpenMP REQUIRED)
find_package(Threads REQUIRED)
execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libgomp.a
  OUTPUT_VARIABLE GOMP_STATIC_LIBRARY OUTPUT_STRIP_TRAILING_WHITESPACE)

# stb_image and stb_image_resize compiled here as Debian's libstb compiles them (C, -O2 -fwrapv),
# so that images resize to the same bytes as on Linux.
enable_language(C)
add_library(stb_windows STATIC ${CMAKE_CURRENT_LIST_DIR}/stb_implementation.c)
target_compile_options(stb_windows PRIVATE -O2 -fwrapv)
set(PNG_STATIC_LIBRARY ${windows_prefix}/lib/libpng16.a)
# glibc's math functions (cmake/glibc-math), ahead of the C runtime's: sin, pow, ... give the
# Linux build's bits.
set(MSH_IMAGE_LIBRARIES $<BUILD_INTERFACE:${PNG_STATIC_LIBRARY};/usr/x86_64-w64-mingw32/lib/libz.a;stb_windows;${windows_prefix}/lib/libglibc_math.a>)

# Assimp's headers (formats/assimp_read loads libassimp.dll beside mshconv.exe when a file needs
# it).
find_package(assimp REQUIRED CONFIG)
