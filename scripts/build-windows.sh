#!/usr/bin/env bash
# Cross-builds mshconv.exe for 64-bit Windows into build-windows/ (MinGW-w64, Release), with
# libassimp.dll beside it: the dependencies first (scripts/build-windows-deps.sh, cached outside
# the checkout), then mshconv through the same CMakeLists.txt as the Linux build.
#   build-windows.sh    needs what `scripts/install-deps.sh --windows` installs
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="$(bash scripts/build-windows-deps.sh)"
source scripts/build-env.sh
[ ${#ccache_launcher[@]} -gt 0 ] && ccache_launcher+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
# Configured anew when the dependencies moved (a new cache key): CMake keeps where it found them.
fresh=()
grep -qsx "MSHCONV_WINDOWS_PREFIX:PATH=$prefix" build-windows/CMakeCache.txt || fresh=(--fresh)
cmake "${fresh[@]}" -S . -B build-windows $(generator_for build-windows) \
  -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
  -DMSHCONV_WINDOWS_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release -DMSHCONV_BUILD_TESTS=OFF \
  -DMSHCONV_BUILD_BENCH=OFF -DMSHCONV_BUILD_EXAMPLES=OFF -DMSHCONV_WARNINGS_AS_ERRORS=ON \
  -DMSHCONV_UNITY_BUILD=OFF \
  "${ccache_launcher[@]}" > /dev/null
cmake --build build-windows -j"$(nproc)" --target mshconv
cp "$prefix"/bin/libassimp*.dll build-windows/
# build-windows/mshconv runs mshconv.exe under Wine, so that the command-line tests, which run
# BUILD/mshconv, run the Windows build when handed build-windows (scripts/test-windows.sh).
# Wine's server and services outlive the command that starts them and would hold its caller's
# pipes open (a test reading the output would wait for them): they are started apart, on the
# first command, and stay 5 minutes after the last (`wineserver -k` ends them at once).
wine="$(command -v wine64 || echo /usr/lib/wine/wine64)"
wineserver="$(command -v wineserver || echo /usr/lib/wine/wineserver)"
# Wine now and then ends a command with exit 1 and no output at all (seen once in each of two of
# three test runs on a loaded machine, never when the command was run again), where mshconv.exe
# prints why on every exit 1: such a run is run once more, and each retry is written to
# build-windows/wine-retries.log (scripts/test-windows.sh lists them). A command that fails by
# itself fails again, with its message.
cat > build-windows/mshconv << WRAPPER
#!/bin/sh
export WINEPREFIX="\${WINEPREFIX:-\$HOME/.cache/mshconv-windows/wine}" WINEDEBUG="\${WINEDEBUG:--all}"
if $wineserver -p300 < /dev/null > /dev/null 2>&1; then
  $wine wineboot < /dev/null > /dev/null 2>&1
fi
here="\$(dirname "\$0")"
output="\$(mktemp)" errors="\$(mktemp)"
$wine "\$here/mshconv.exe" "\$@" > "\$output" 2> "\$errors"
status=\$?
if [ \$status -eq 1 ] && [ ! -s "\$output" ] && [ ! -s "\$errors" ]; then
  echo "\$(date -u +%FT%TZ) exit 1 without output, run again: mshconv \$*" >> "\$here/wine-retries.log"
  $wine "\$here/mshconv.exe" "\$@" > "\$output" 2> "\$errors"
  status=\$?
fi
cat "\$output"
cat "\$errors" >&2
rm -f "\$output" "\$errors"
exit \$status
WRAPPER
chmod +x build-windows/mshconv
