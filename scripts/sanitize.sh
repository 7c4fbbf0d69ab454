#!/usr/bin/env bash
# The whole test suite built with AddressSanitizer + UndefinedBehaviorSanitizer (any finding
# aborts) into build-fuzz/ (scripts/configure-sanitized.sh: clang, the same tree as the fuzzers),
# then run; the tests labelled `consumer` (CMakeLists.txt: the Blender/validator consumers, the
# Blender renders of maps and previews, the install test) are left to the normal build (they
# exercise other programs, not more of ours: the map export and the previews they start are run
# under the sanitizers by the terrain, batch and previews tests; the add-on and foreign-model
# tests stay, as their Blender-written files reach import code nothing else feeds: an edited map
# back through the add-on, foreign scenes).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/configure-sanitized.sh
source scripts/build-env.sh # the compiles of the build below read it
# Only what the tests run: the CLI, the test program and the add-on zip (the fuzzers build their
# harnesses themselves, fuzz/run.sh).
cmake --build build-fuzz -j"$(nproc)" --target mshconv mshconv_tests blender_addon
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# A finding's abort ends the Boost suite there: Boost's own signal handler would take the abort
# and, with the leak check's second abort at exit, spin forever instead of failing.
export BOOST_TEST_CATCH_SYSTEM_ERRORS=no
# In parallel, one test per core.
cd build-fuzz && ctest --output-on-failure --no-tests=error -j"$(nproc)" --timeout 1200 -LE consumer
