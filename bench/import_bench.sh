#!/usr/bin/env bash
# Import throughput as whole commands (issue 12): the corpus models written as GLB, OBJ and FBX
# (ASCII FBX by `assimp export`; Assimp 5.2 cannot read back its own binary FBX), each imported
# as a new model (no sidecar) by `mshconv convert F out.msh`, beside Assimp's own import of the
# same files (`assimp info F`: read and post-process, nothing written). Prints models/s and MB/s
# of input. Not part of the test suite.       usage: bench/import_bench.sh [MODELS]  (default 32)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/mshconv ] || bash scripts/build.sh
mshconv=$PWD/build/mshconv
count=${1:-32}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$mshconv" samples "$work/corpus" > /dev/null
mkdir -p "$work/in" "$work/out"
n=0
for archive in "$work"/corpus/*.rlb; do
  for entry in $("$mshconv" info --json "$archive" | python3 -c '
import json, sys
for e in json.load(sys.stdin)["entries"]:
    if e["name"].lower().endswith(".msh"): print(e["name"])'); do
    [ "$n" -ge "$count" ] && break 2
    stem=m$n
    "$mshconv" convert "$archive:$entry" "$work/in/$stem.glb" --quiet
    "$mshconv" convert "$archive:$entry" "$work/in/$stem.obj" --quiet
    assimp export "$work/in/$stem.glb" "$work/in/$stem.fbx" -ffbxa > /dev/null
    # Assimp 5.2 aborts on its own FBX of some models: those are left out of every format.
    if ! assimp info "$work/in/$stem.fbx" > /dev/null 2>&1; then
      rm -f "$work/in/$stem".*
      continue
    fi
    n=$((n + 1))
  done
done
rm -f "$work"/in/*.sidecar.json # new models: no sidecar
echo "$n models"
printf "%-5s %10s | %-28s | %-28s | %s\n" format "input MB" "mshconv convert F out.msh" "assimp info F (import only)" "ratio"
for ext in glb obj fbx; do
  files=("$work"/in/*."$ext")
  mb=$(du -cb "${files[@]}" | tail -1 | cut -f1)
  ours=$( { /usr/bin/time -f %e bash -c 'for f in "$@"; do "'"$mshconv"'" convert "$f" "'"$work"'/out/$(basename "$f").msh" --quiet || exit 1; done' _ "${files[@]}"; } 2>&1 | tail -1)
  theirs=$( { /usr/bin/time -f %e bash -c 'for f in "$@"; do assimp info "$f" > /dev/null || exit 1; done' _ "${files[@]}"; } 2>&1 | tail -1)
  python3 - "$ext" "$mb" "$n" "$ours" "$theirs" <<'PY'
import sys
ext, mb, n, ours, theirs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
f = lambda s: f"{n / s:7.1f} models/s {mb / 1e6 / s:6.2f} MB/s"
print(f"{ext:5s} {mb / 1e6:10.2f} | {f(ours):28s} | {f(theirs):28s} | mshconv {theirs / ours:4.2f}x Assimp")
PY
done
