#!/usr/bin/env bash
# Configures build-fuzz/: everything (library, CLI, tests, libFuzzer harnesses) built by clang with
# AddressSanitizer + UndefinedBehaviorSanitizer and libFuzzer's coverage instrumentation. One build
# serves both the sanitizer test suite (scripts/sanitize.sh) and the fuzzers (fuzz/run.sh): both
# configure through this script, so the second finds the tree built with the same flags.
# -O1 (AddressSanitizer's documentation: -O1 or higher for reasonable speed) compiles in a quarter
# less time than -O2 under the sanitizers (docs/benchmarks.md, "First contact"). -g1: line tables
# are all a sanitizer's stack trace needs. No examples or bench: the sanitized suite runs the
# library through the CLI and the test program. Tests on explicitly: a build-fuzz/ of an older
# fuzz/run.sh was configured without them. OpenMP from GCC's libgomp, as the release build links
# it: LLVM 14's libomp leaks its thread descriptors when a team grows (2, then 3, then 7 threads),
# which LeakSanitizer would report as ours.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-env.sh
CXX=clang++ cmake -S . -B build-fuzz $(generator_for build-fuzz) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMSHCONV_FUZZ=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DMSHCONV_BUILD_BENCH=OFF \
  -DMSHCONV_BUILD_TESTS=ON -DMSHCONV_BUILD_EXAMPLES=OFF \
  -DOpenMP_CXX_FLAGS=-fopenmp=libgomp -DOpenMP_CXX_LIB_NAMES=gomp \
  -DOpenMP_gomp_LIBRARY="$(g++ -print-file-name=libgomp.so)" \
  "${ccache_launcher[@]}" > /dev/null
