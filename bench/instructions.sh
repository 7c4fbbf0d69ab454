#!/usr/bin/env bash
# User-space instructions (callgrind, the whole command) of the conversions a change to the
# conversion layer must not make dearer: A_BIG to GLB, its GLB back, A_BIG to OBJ, the first
# corpus map to GLB (-j 1) and back. Instruction counts, unlike wall time, do not move with the
# machine's load, so two builds compare on a busy machine.
#   bench/instructions.sh [MSHCONV...]     (default build/mshconv; several: one column each)
set -euo pipefail
cd "$(dirname "$0")/.."
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=(build/mshconv)
for i in "${!binaries[@]}"; do binaries[$i]="$(readlink -f "${binaries[$i]}")"; done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
"${binaries[0]}" samples corpus > /dev/null
map="$(ls -d corpus/DATA/MAPS/*/ | head -1)"
map="${map%/}"

# The instructions of one command (millions), its output kept.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=cg.out "$@" > /dev/null 2> cg.log ||
    { cat cg.log >&2; exit 1; }
  awk '/^summary:/ {printf "%.1f", $2 / 1e6}' cg.out
}

printf "%-34s" "command (M instructions)"
for b in "${binaries[@]}"; do printf " %14s" "$(basename "$(dirname "$(dirname "$b")")")"; done
echo
for step in model-glb glb-model model-obj map-glb glb-map; do
  printf "%-34s" "$step"
  for b in "${binaries[@]}"; do
    rm -rf out && mkdir -p out/map && cp "$map"/* out/map/
    case $step in
      model-glb) n=$(instructions "$b" convert corpus/animals.rlb:A_BIG.msh out/big.glb) ;;
      glb-model)
        "$b" convert corpus/animals.rlb:A_BIG.msh out/big.glb > /dev/null
        n=$(instructions "$b" convert out/big.glb out/big.msh) ;;
      model-obj) n=$(instructions "$b" convert corpus/animals.rlb:A_BIG.msh out/big.obj) ;;
      map-glb) n=$(instructions "$b" convert out/map/Land.msh out/land.glb -j 1 --game-dir corpus) ;;
      glb-map)
        "$b" convert out/map/Land.msh out/land.glb -j 1 --game-dir corpus > /dev/null
        n=$(instructions "$b" convert out/land.glb out/map/Land.msh) ;;
    esac
    printf " %14s" "$n"
  done
  echo
done
