#!/usr/bin/env bash
# Installs the Debian 12 packages mshconv builds and tests with, when any is missing.
set -euo pipefail
packages=(g++ cmake make pkg-config
  libtinygltf-dev libassimp-dev assimp-utils
  libboost-program-options-dev libboost-test-dev libspdlog-dev nlohmann-json3-dev)
[ "${1:-}" = "--bench" ] && packages+=(hyperfine time)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
