#!/usr/bin/env bash
# Installs what mshconv builds and tests with on Debian 12, when anything is missing: the
# compilers (g++; clang for the fuzzers) and libraries, Node.js with the npm packages the build
# bundles into the gallery's 3D view (three.js, esbuild; pinned by viewer/package-lock.json), the
# real consumers the tests run (Assimp and its test models, Blender 3.4 + numpy, Khronos
# glTF-Validator, Chromium for the gallery), GNU parallel (the sharding test) and the tests' npm
# packages (glTF-Validator, playwright-core; pinned by tools/node/package-lock.json).
#   install-deps.sh           everything the build and the tests use
#   install-deps.sh --build   only what building mshconv needs (scripts/demo.sh)
#   install-deps.sh --bench   everything, and the benchmarks' tools (hyperfine, time, f3d, simdjson)
#   install-deps.sh --windows what building mshconv.exe needs (scripts/build-windows.sh)
# Everything includes the Windows build's tools (MinGW-w64, nasm, Wine) and a deb-src entry for
# Debian's sources, which scripts/build-windows-deps.sh builds the Windows libraries from.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(g++ cmake make ninja-build pkg-config python3 ccache
  libtinygltf-dev libassimp-dev libpng-dev libstb-dev libisal-dev libxxhash-dev rapidjson-dev
  libboost-program-options-dev libboost-test-dev libspdlog-dev nlohmann-json3-dev libmimalloc-dev)
command -v node > /dev/null && command -v npm > /dev/null || packages+=(nodejs npm) # the viewer
if [ "${1:-}" != "--build" ]; then # the Windows build and its tests under Wine
  packages+=(g++-mingw-w64-x86-64-posix libz-mingw-w64-dev nasm dpkg-dev libutfcpp-dev wine64)
fi
if [ "${1:-}" != "--build" ] && [ "${1:-}" != "--windows" ]; then
  packages+=(assimp-utils blender python3-numpy) # the consumers the tests run
  packages+=(assimp-testmodels)           # Assimp's own models (foreign_models imports some)
  packages+=(pngcheck)                    # PNG validation in the texture tests
  packages+=(parallel)                    # GNU parallel: batch --shard as docs/cli.md runs it
  packages+=(xvfb)                        # Blender's UI for the add-on's dialog screenshot
  packages+=(chromium)                    # the preview gallery in a real browser (playwright-core)
  packages+=(python3-pil)                 # the preview tests' image measures (with python3-numpy)
  packages+=(clang libclang-rt-14-dev libomp-dev) # the sanitizer and fuzzer build (clang)
  [ "${1:-}" = "--bench" ] && packages+=(hyperfine time f3d libsimdjson-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
# apt-get source needs a deb-src entry; Debian 12's images have none.
deb_src=/etc/apt/sources.list.d/mshconv-deb-src.sources
if [ "${1:-}" != "--build" ] && ! grep -rqs "^Types:.*deb-src\|^deb-src" /etc/apt/sources.list \
    /etc/apt/sources.list.d/; then
  printf '%s\n' "Types: deb-src" "URIs: http://deb.debian.org/debian" \
    "Suites: bookworm bookworm-updates" "Components: main" \
    "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" | $sudo tee "$deb_src" > /dev/null
  $sudo apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" > /dev/null
fi
if [ ! -d viewer/node_modules/three ] || [ ! -d viewer/node_modules/esbuild ]; then
  npm ci --prefix viewer --no-audit --no-fund --loglevel=error
fi
[ "${1:-}" = "--build" ] || [ "${1:-}" = "--windows" ] && exit 0
if [ ! -d tools/node/node_modules/gltf-validator ] || [ ! -d tools/node/node_modules/playwright-core ]; then
  npm ci --prefix tools/node --no-audit --no-fund --loglevel=error
fi
