#!/usr/bin/env bash
# The Windows build and its tests under Wine (.ci/run runs it after scripts/test.sh):
# scripts/build-windows.sh, then mshconv.exe through the command-line tests that run
# BUILD/mshconv (build-windows/mshconv starts it under Wine), Windows names (drive letters,
# backslashes, Cyrillic and CP1251 names), and its outputs over the whole corpus against the
# Linux build's in build/ (scripts/build.sh), byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --windows
start=$SECONDS
bash scripts/build-windows.sh
echo "windows build: $((SECONDS - start)) s"
[ -x build/mshconv ] || bash scripts/build.sh mshconv
build-windows/mshconv --version > /dev/null 2>&1 || true # Wine's prefix made before the tests
failed=()
for t in "tests/windows/windows_paths.py build build-windows" \
  "tests/malformed_inputs.py build-windows" "tests/output_sets.py build-windows" \
  "tests/check_portable_outputs.py build-windows" \
  "tests/foreign_models.py build-windows" \
  "tests/windows/compare_builds.py build build-windows"; do
  start=$SECONDS
  if python3 $t > "build-windows/$(basename "${t%% *}" .py).log" 2>&1; then
    echo "ok    ${t%% *} ($((SECONDS - start)) s)"
  else
    echo "FAIL  ${t%% *} ($((SECONDS - start)) s): build-windows/$(basename "${t%% *}" .py).log"
    tail -n 30 "build-windows/$(basename "${t%% *}" .py).log"
    failed+=("${t%% *}")
  fi
done
[ ${#failed[@]} -eq 0 ] || { echo "windows tests failed: ${failed[*]}"; exit 1; }
