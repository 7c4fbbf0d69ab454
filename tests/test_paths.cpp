#include "test_paths.hpp"

namespace msh::test {

const char* source_dir() {
    return MSHCONV_SOURCE_DIR_VALUE;
}

const char* mshconv_binary() {
    return MSHCONV_BINARY_VALUE;
}

const char* project_version() {
    return MSHCONV_PROJECT_VERSION_VALUE;
}

} // namespace msh::test
