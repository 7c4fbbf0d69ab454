#!/usr/bin/env bash
# The installed package works for a project outside the tree: `cmake --install` into a temporary
# prefix, which holds the public headers only; build every program in examples/ against it with
# find_package(mshconv); run them on a sample archive (the entry must come back byte for byte, the
# thumbnail must be a PNG).
# usage: check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1")
source=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -x "$work/prefix/bin/mshconv"
test -f "$work/prefix/include/mshconv/convert.hpp"
# Only the public headers: no private folder beside them.
extra=$(find "$work/prefix/include" -type f ! -path "*/include/mshconv/*.hpp" -o -type d -path "*/include/mshconv/*")
if [ -n "$extra" ]; then echo "FAIL: private files installed: $extra"; exit 1; fi
test -f "$work/prefix/lib/cmake/mshconv/mshconvConfig.cmake"
cmake -S "$source/tests/install_consumer" -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DEXAMPLES="$(ls "$source"/examples/*.cpp | paste -sd';')" \
  > /dev/null
cmake --build "$work/consumer" -j2 > "$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/prefix/bin/mshconv" samples "$work/corpus" > /dev/null
out=$("$work/consumer/roundtrip" "$work/corpus/static.rlb" House_01.msh "$work/house.glb")
echo "$out"
case "$out" in *byte-identical*) ;; *) echo "FAIL: not byte-identical"; exit 1 ;; esac
test -s "$work/house.glb"
"$work/consumer/thumbnail" "$work/corpus/static.rlb" House_01.msh "$work/house.png"
head -c 8 "$work/house.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" || {
  echo "FAIL: the thumbnail is not a PNG"; exit 1; }
out=$("$work/consumer/batch_folder" "$work/corpus" "$work/mirror" "$work/back" 2> /dev/null)
echo "$out"
case "$out" in *", 0 failed, "*", 0 failed, "*) ;; *) echo "FAIL: batch_folder failed"; exit 1 ;; esac
diff -r "$work/corpus" "$work/back" > /dev/null || { echo "FAIL: batch_folder: not the same tree"; exit 1; }
echo "ok: installed package ($(du -sh "$work/prefix" | cut -f1), $(ls "$work/prefix/include/mshconv" | wc -l) public headers) builds and runs every example"
