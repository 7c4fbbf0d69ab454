#include "allocator.hpp"

#include <cstdint>
#include <cstdlib>

#ifdef MSHCONV_MIMALLOC
#include <mimalloc.h>
#include <sys/mman.h>
#endif

namespace msh::cli {

#ifdef MSHCONV_MIMALLOC
namespace {

// mimalloc 2.x maps memory in 32 MiB segments aligned to their size. The main thread's first
// one is mapped by the C++ runtime's first allocation, before main: a single command allocates
// little else. The constructor below switches large pages on before it; this advice is the
// fallback where something allocated earlier still (a shared libstdc++ initialises before this
// executable's constructors).
constexpr uintptr_t kMimalloc2SegmentSize = uintptr_t(1) << 25;

void advise_first_segment_for_huge_pages() {
    const int version = mi_version(); // 209 = 2.0.9
    if (version < 200 || version >= 300) return;
    void* probe = mi_malloc(64);
    const uintptr_t segment = reinterpret_cast<uintptr_t>(probe) & ~(kMimalloc2SegmentSize - 1);
    // Advice on the page size of future faults only: pages already touched stay, and where the
    // kernel grants no transparent huge pages (or the guess of the segment is wrong) nothing
    // changes, so its result is ignored.
    (void)madvise(reinterpret_cast<void*>(segment), kMimalloc2SegmentSize, MADV_HUGEPAGE);
    mi_free(probe);
}

// Before the C++ runtime's static initialisers (constructor priority 101 runs before the
// default ones in this executable, which links libstdc++ statically): their first allocation
// maps mimalloc's first segment, and a segment takes 2 MB pages only when the option is on before
// it is mapped. Advice given afterwards (advise_first_segment_for_huge_pages) reaches only the
// 2 MB ranges not touched yet: a model's convert took 372 page faults with it alone, 200 now.
// Also: mimalloc maps a new thread's first segment uncommitted (PROT_NONE) and commits it piece by
// piece, and such a segment is never advised huge pages: a map export's drape helper thread
// faulted its 20 MB of arrays in 4 KB at a time (stress map: 3,670 faults, 180 ms; with every
// segment committed when mapped 456 faults, 128 ms).
__attribute__((constructor(101))) void enable_large_pages_before_first_segment() {
    if (!std::getenv("MIMALLOC_EAGER_COMMIT_DELAY")) mi_option_set(mi_option_eager_commit_delay, 0);
    if (std::getenv("MIMALLOC_LARGE_OS_PAGES")) return; // the user's choice
    mi_option_enable(mi_option_large_os_pages);
}

} // namespace
#endif

void configure_allocator() {
#ifdef MSHCONV_MIMALLOC
    // The option itself is on already (the constructor above); what is left is the fallback for
    // a first segment mapped before that constructor ran.
    if (std::getenv("MIMALLOC_LARGE_OS_PAGES")) return; // the user's choice, read before main
    advise_first_segment_for_huge_pages();
#endif
}

std::string allocator_description() {
#ifdef MSHCONV_MIMALLOC
    const int v = mi_version(); // 209 = 2.0.9
    return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." +
           std::to_string(v % 10) + " (large OS pages)";
#elif defined(_WIN32)
    return "msvcrt malloc";
#else
    return "glibc malloc";
#endif
}

} // namespace msh::cli
