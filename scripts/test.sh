#!/usr/bin/env bash
# Quick start 2: install what is missing, build, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
# Tests in parallel, one per core, the long ones first (their COST in CMakeLists.txt); a hung
# Blender or browser fails its test instead of holding the run.
cd build && ctest --output-on-failure -j"$(nproc)" --timeout 1200
