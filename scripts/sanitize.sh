#!/usr/bin/env bash
# The whole test suite built with AddressSanitizer + UndefinedBehaviorSanitizer (any finding
# aborts) into build-asan/, then run; the Blender/validator consumers and the install test are
# left to the normal build (they exercise other programs, not more of ours).
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -g1: line tables are all a sanitizer's stack trace needs, and full debug info of the template-heavy
# code made this build the longest step of CI (34 min of 88 on a slow 2-core VM).
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMSHCONV_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DMSHCONV_BUILD_BENCH=OFF "${launcher[@]}" \
  > /dev/null
cmake --build build-asan -j"$(nproc)"
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# A finding's abort ends the Boost suite there: Boost's own signal handler would take the abort
# and, with the leak check's second abort at exit, spin forever instead of failing.
export BOOST_TEST_CATCH_SYSTEM_ERRORS=no
# In parallel, one test per core (serial: 835 s, -j 2: 518 s).
cd build-asan && ctest --output-on-failure -j"$(nproc)" --timeout 1200 \
  -E "^(consumers|textured_consumers|install_package)$"
