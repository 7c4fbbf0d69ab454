#!/usr/bin/env bash
# The installed package works for a project outside the tree: `cmake --install` into a temporary
# prefix, build examples/roundtrip.cpp against it with find_package(mshconv), run it on a sample
# archive (the entry must come back byte for byte).
# usage: check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1")
source=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -x "$work/prefix/bin/mshconv"
test -f "$work/prefix/include/mshconv/pipeline/pipeline.hpp"
test -f "$work/prefix/lib/cmake/mshconv/mshconvConfig.cmake"
cmake -S "$source/tests/install_consumer" -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DEXAMPLE="$source/examples/roundtrip.cpp" > /dev/null
cmake --build "$work/consumer" -j2 > "$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/prefix/bin/mshconv" samples "$work/corpus" > /dev/null
out=$("$work/consumer/roundtrip" "$work/corpus/static.rlb" House_01.msh "$work/house.glb")
echo "$out"
case "$out" in *byte-identical*) ;; *) echo "FAIL: not byte-identical"; exit 1 ;; esac
test -s "$work/house.glb"
echo "ok: installed package ($(du -sh "$work/prefix" | cut -f1)) builds and runs examples/roundtrip"
