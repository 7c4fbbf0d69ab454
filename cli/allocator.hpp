#pragma once
// The mshconv executable's memory allocator: mimalloc when the build links it
// (MSHCONV_MIMALLOC, the default where Debian's libmimalloc-dev is installed), else glibc's.
#include <string>

namespace msh::cli {

// mimalloc's 2 MB pages for every command (where the kernel grants transparent huge pages): the
// option is switched on by a constructor in allocator.cpp; this, called once in main() before the
// command runs, advises huge pages for the first segment should it have been mapped earlier. On
// this kind of VM a 4 KB page fault of fresh memory costs 2-14 microseconds, and a command's fresh
// buffers (its GLB, sidecar text, decoded arrays, a thumbnail's frame) are most of its kernel time:
// one model's convert took 1,301 faults and 13.5 ms with 4 KB pages, 381 faults and 10.8 ms with 2
// MB ones; a map's export touches about 3x its output (README, "Benchmarks"). The option is
// switched on before the C++ runtime's first allocation (a priority constructor in allocator.cpp):
// switched on in main, the first segment's first 2 MB stayed on 4 KB pages and a model's convert
// took 372 faults, against 200 now. A user's own MIMALLOC_LARGE_OS_PAGES (read by mimalloc before
// main) wins either way. Nothing without mimalloc.
void configure_allocator();

// For `--version`: "mimalloc 2.0.9 (large OS pages)" or "glibc malloc".
std::string allocator_description();

} // namespace msh::cli
