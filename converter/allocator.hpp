#pragma once
// The mshconv executable's memory allocator: mimalloc when the build links it
// (MSHCONV_MIMALLOC, the default where Debian's libmimalloc-dev is installed), else glibc's.
#include <string>
#include <string_view>

namespace msh::cli {

// Called in main() once the command is known. `batch` gets mimalloc's 2 MB pages (where the
// kernel grants transparent huge pages): a game folder's maps touch about 3x their output in fresh
// buffers, and with them the forward game-scale batch took 14-17 % less time (README,
// "Benchmarks"). Other commands keep 4 KB pages (a map's convert asks for 2 MB ones through
// use_large_pages): the option reaches only memory mapped after it is set, and zeroing 2 MB pages
// for a thumbnail's few buffers cost more than it saved. A user's own MIMALLOC_LARGE_OS_PAGES
// (read before main) wins either way.
void configure_allocator(std::string_view command);

// mimalloc's 2 MB pages from here on, for a single command that is about to touch tens of MB of
// fresh buffers (a map's conversion: its GLB, the draped overlay's arrays, the sidecar text).
// Nothing when the user's MIMALLOC_LARGE_OS_PAGES decides, or without mimalloc.
void use_large_pages();

// For `--version`: "mimalloc 2.0.9 (large OS pages for batch and maps)" or "glibc malloc".
std::string allocator_description();

} // namespace msh::cli
