#!/usr/bin/env bash
# Prints benchmark figures: the in-process throughput bench (the issue-3 goal: msh -> glb at least
# 20x Assimp on the same geometry), whole-command comparisons with Assimp (a loop over the corpus,
# and hyperfine on the largest model when installed), and peak memory (/usr/bin/time -v). Not part
# of the test suite.
#
# Whole commands do more than the in-process conversion on our side: mshconv also writes the
# sidecar, opens the material libraries next to the archive (Textures.lib: 5 MB) and encodes the
# textures as PNG; `assimp export` of the OBJ only references the texture files.
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
big="$work/corpus/animals.rlb:A_BIG.msh"
if command -v hyperfine > /dev/null; then
  echo "== hyperfine: one command on the largest model (9,695 vertices, 439 batches)"
  build/mshconv convert "$big" "$work/big.obj" > /dev/null
  hyperfine -N --warmup 3 --runs 30 --style basic \
    "build/mshconv --quiet convert $big $work/big.glb" \
    "build/mshconv --quiet convert $big $work/big.obj" \
    "assimp export $work/big.obj $work/big_assimp.glb" 2>&1 | grep -E "Benchmark|Time|ran$|faster"
fi
if [ -x /usr/bin/time ]; then
  echo "== peak memory (largest archive / largest model)"
  rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p'; }
  echo "validate --strict animals.rlb:          $(rss build/mshconv validate --strict "$work/corpus/animals.rlb") kB"
  echo "convert A_BIG.msh -> glb:               $(rss build/mshconv convert "$big" "$work/big.glb") kB"
  echo "convert A_BIG.msh -> gltf:              $(rss build/mshconv convert "$big" "$work/big.gltf") kB"
  echo "assimp export A_BIG.obj -> glb:         $(rss assimp export "$work/big.obj" "$work/big_assimp.glb") kB"
fi
