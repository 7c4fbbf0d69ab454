// Where the tests find the sources and the mshconv they run. The paths are compiled into
// test_paths.cpp alone, so that every other test file compiles to the same object wherever the
// checkout lies (the compiler cache then serves a fresh clone).
#pragma once

namespace msh::test {
const char* source_dir();
const char* mshconv_binary();
const char* project_version();
} // namespace msh::test

#define MSHCONV_SOURCE_DIR (::msh::test::source_dir())
#define MSHCONV_BINARY (::msh::test::mshconv_binary())
#define MSHCONV_PROJECT_VERSION (::msh::test::project_version())
