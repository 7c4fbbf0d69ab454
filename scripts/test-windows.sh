#!/usr/bin/env bash
# The Windows build and its tests under Wine (CTest `windows`, so scripts/test.sh and CI run it):
# scripts/build-windows.sh, then mshconv.exe through the command-line tests that run
# BUILD/mshconv (build-windows/mshconv starts it under Wine), Windows names (drive letters,
# backslashes, Cyrillic and CP1251 names), its outputs over the whole corpus against the Linux
# build's and the golden hashes, byte for byte, and the release add-on zip carrying both.
#   test-windows.sh [LINUX_BUILD]   the Linux build to compare with (default: build/)
set -euo pipefail
cd "$(dirname "$0")/.."
linux_build="${1:-build}"
bash scripts/install-deps.sh --windows
start=$SECONDS
bash scripts/build-windows.sh
echo "windows build: $((SECONDS - start)) s"
[ -x "$linux_build/mshconv" ] || bash scripts/build.sh mshconv
build-windows/mshconv --version > /dev/null 2>&1 || true # Wine's prefix made before the tests
rm -f build-windows/wine-retries.log
failed=()
for t in "tests/windows/windows_paths.py $linux_build build-windows" \
  "tests/malformed_inputs.py build-windows" "tests/output_sets.py build-windows" \
  "tests/check_portable_outputs.py build-windows" \
  "tests/foreign_models.py build-windows" \
  "tests/golden/golden_outputs.py build-windows ." \
  "tests/windows/compare_builds.py $linux_build build-windows" \
  "tests/windows/addon_binaries.py $linux_build build-windows ."; do
  start=$SECONDS
  if python3 $t > "build-windows/$(basename "${t%% *}" .py).log" 2>&1; then
    echo "ok    ${t%% *} ($((SECONDS - start)) s)"
  else
    echo "FAIL  ${t%% *} ($((SECONDS - start)) s): build-windows/$(basename "${t%% *}" .py).log"
    tail -n 30 "build-windows/$(basename "${t%% *}" .py).log"
    failed+=("${t%% *}")
  fi
done
if [ -s build-windows/wine-retries.log ]; then
  echo "Wine ended $(wc -l < build-windows/wine-retries.log) command(s) with exit 1 and no message; each ran again:"
  cat build-windows/wine-retries.log
fi
[ ${#failed[@]} -eq 0 ] || { echo "windows tests failed: ${failed[*]}"; exit 1; }
