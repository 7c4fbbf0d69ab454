#include "allocator.hpp"

#include <cstdlib>

#ifdef MSHCONV_MIMALLOC
#include <mimalloc.h>
#endif

namespace msh::cli {

void configure_allocator(std::string_view command) {
    // Affects the segments mimalloc maps from here on, which for a batch is nearly all of them.
    if (command == "batch") use_large_pages();
}

void use_large_pages() {
#ifdef MSHCONV_MIMALLOC
    if (!std::getenv("MIMALLOC_LARGE_OS_PAGES")) mi_option_enable(mi_option_large_os_pages);
#endif
}

std::string allocator_description() {
#ifdef MSHCONV_MIMALLOC
    const int v = mi_version(); // 209 = 2.0.9
    return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." +
           std::to_string(v % 10) + " (large OS pages for batch and maps)";
#else
    return "glibc malloc";
#endif
}

} // namespace msh::cli
