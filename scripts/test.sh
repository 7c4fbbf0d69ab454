#!/usr/bin/env bash
# Quick start 2: install what is missing, build, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
# Tests in parallel, one per core, the long ones first (their COST in CMakeLists.txt); a hung
# Blender or browser fails its test instead of holding the run. The Linux build's suite, the
# consumers included; the Windows build and its Wine tests are scripts/test-windows.sh (CI runs
# both).
cd build && ctest --output-on-failure -j"$(nproc)" --timeout 1200 -LE windows
