#!/usr/bin/env bash
# Configures and builds mshconv (Release) into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMSHCONV_WARNINGS_AS_ERRORS=ON > /dev/null
cmake --build build -j"$(nproc)"
