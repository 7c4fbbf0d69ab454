#!/usr/bin/env bash
# Configures and builds mshconv (Release) into build/: every target, or the ones named
# (`build.sh mshconv`: the CLI alone).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-env.sh
cmake -S . -B build $(generator_for build) -DCMAKE_BUILD_TYPE=Release -DMSHCONV_WARNINGS_AS_ERRORS=ON \
  "${ccache_launcher[@]}" > /dev/null
cmake --build build -j"$(nproc)" ${1:+--target "$@"}
