#!/usr/bin/env bash
# Prints benchmark figures: the in-process throughput bench, whole-command comparisons with
# Assimp, and peak memory (/usr/bin/time -v). Not part of the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/mshconv_bench ] || bash scripts/build.sh
echo "== in-process throughput (median of 15 rounds)"
build/mshconv_bench 15
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build/mshconv samples "$work/corpus" > /dev/null
mkdir -p "$work/obj" "$work/glb" "$work/assimp"
models=()
for a in "$work"/corpus/*.rlb; do
  while read -r m; do models+=("$a:$m"); done < <(build/mshconv info --json "$a" |
    python3 -c 'import json,sys; [print(e["name"]) for e in json.load(sys.stdin)["entries"] if "model" in e]')
done
echo "== whole commands over ${#models[@]} models (process start-up included on both sides)"
t0=$(date +%s.%N)
for m in "${models[@]}"; do n=$(basename "${m//:/_}"); build/mshconv convert "$m" "$work/glb/$n.glb"; done
t1=$(date +%s.%N)
for m in "${models[@]}"; do n=$(basename "${m//:/_}"); build/mshconv convert "$m" "$work/obj/$n.obj"; done
t2=$(date +%s.%N)
for f in "$work"/obj/*.obj; do assimp export "$f" "$work/assimp/$(basename "$f" .obj).glb" > /dev/null; done
t3=$(date +%s.%N)
for f in "$work"/glb/*.glb; do build/mshconv convert "$f" "$work/glb/$(basename "$f" .glb).msh" > /dev/null; done
t4=$(date +%s.%N)
python3 - "$t0" "$t1" "$t2" "$t3" "$t4" "${#models[@]}" <<'PY'
import sys
t0, t1, t2, t3, t4, n = map(float, sys.argv[1:])
rows = [("mshconv msh -> glb", t1 - t0), ("mshconv msh -> obj", t2 - t1),
        ("assimp export obj -> glb (same geometry)", t3 - t2), ("mshconv glb -> msh (import)", t4 - t3)]
for name, s in rows:
    print(f"{name:44s} {s:8.2f} s {n / s:8.1f} models/s")
print(f"mshconv msh -> glb is {(t3 - t2) / (t1 - t0):.1f}x faster than assimp obj -> glb")
PY
if [ -x /usr/bin/time ]; then
  echo "== peak memory (largest archive)"
  /usr/bin/time -v build/mshconv validate --strict "$work/corpus/animals.rlb" 2>&1 >/dev/null | grep "Maximum resident"
  /usr/bin/time -v build/mshconv convert "$work/corpus/animals.rlb:A_BIG.msh" "$work/big.glb" 2>&1 | grep "Maximum resident"
fi
