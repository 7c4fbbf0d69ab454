#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan + UBSan) into build-fuzz/ and runs each for SECONDS
# (default 20) from a seed corpus made of the sample corpus and its exports, with the
# dictionaries in fuzz/dicts. Findings (crash-*, leak-*, timeout-*) are written to
# build-fuzz/findings/<harness>/ and make the script fail; once fixed, a finding's input goes
# into fuzz/regressions/<harness>/, which every run reads too.
#   bash fuzz/run.sh [SECONDS] [HARNESS...]      e.g. bash fuzz/run.sh 3600 fuzz_gltf
#   bash fuzz/run.sh smoke                        CI: 10,000 inputs per harness from a fixed
#                                                 random seed and fresh corpora (reproducible)
# Needs a release build of mshconv (scripts/build.sh) to make the seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
shift || true
limit=(-max_total_time="$seconds")
if [ "$seconds" = smoke ]; then
  limit=(-runs=10000 -seed=1)
fi
all=(fuzz_nres fuzz_msh fuzz_texm fuzz_png fuzz_image fuzz_wear fuzz_mat0 fuzz_terrain fuzz_obj
  fuzz_gltf fuzz_sidecars fuzz_manifest fuzz_preview fuzz_level)
harnesses=("${@:-${all[@]}}")
[ ${#harnesses[@]} -eq 0 ] && harnesses=("${all[@]}")

# The tree scripts/sanitize.sh builds and tests (CI runs that first): only the harnesses here.
bash scripts/configure-sanitized.sh
source scripts/build-env.sh # the compiles of the build below read it
cmake --build build-fuzz -j"$(nproc)" --target "${harnesses[@]}"

# Seeds: the sample corpus, its archive entries one per file, and what mshconv exports from them.
mshconv=build/mshconv
[ -x "$mshconv" ] || bash scripts/build.sh
seeds=build-fuzz/seeds
if [ ! -d "$seeds" ]; then
  tmp=build-fuzz/seed-work
  rm -rf "$tmp" && mkdir -p "$tmp"
  "$mshconv" samples "$tmp/corpus" > /dev/null
  for h in "${all[@]}"; do mkdir -p "$seeds/$h"; done
  "$mshconv" nres extract "$tmp/corpus/static.rlb" -o "$tmp/static" > /dev/null
  "$mshconv" nres extract "$tmp/corpus/Textures.lib" -o "$tmp/textures" > /dev/null
  "$mshconv" nres extract "$tmp/corpus/Material.lib" -o "$tmp/materials" > /dev/null
  cp "$tmp"/corpus/*.lib "$tmp"/corpus/system.rlb "$seeds/fuzz_nres/"
  n=0
  for f in "$tmp"/static/*.msh; do
    cp "$f" "$seeds/fuzz_msh/"
    cp "$f" "$seeds/fuzz_preview/"
    if [ $n -lt 6 ]; then
      stem=$(basename "$f" .msh)
      "$mshconv" convert "$tmp/corpus/static.rlb:$stem.msh" "$tmp/exp/$stem.glb" --quiet
      "$mshconv" convert "$tmp/corpus/static.rlb:$stem.msh" "$tmp/exp/$stem.gltf" --quiet
      "$mshconv" convert "$tmp/corpus/static.rlb:$stem.msh" "$tmp/exp/$stem.obj" --quiet
      cp "$tmp/exp/$stem.glb" "$tmp/exp/$stem.obj" "$seeds/fuzz_gltf/" 2> /dev/null || true
      cp "$tmp/exp/$stem.glb" "$seeds/fuzz_preview/"
      cp "$tmp/exp/$stem.obj" "$seeds/fuzz_obj/"
      cp "$tmp/exp/$stem.sidecar.json" "$seeds/fuzz_sidecars/$stem.model.json"
      # A self-contained .gltf (buffer as a data: URI) for the in-memory reader.
      python3 - "$tmp/exp/$stem.gltf" "$seeds/fuzz_gltf/$stem.gltf" << 'PY'
import base64, json, os, sys
src, dst = sys.argv[1], sys.argv[2]
doc = json.load(open(src))
for b in doc.get("buffers", []):
    data = open(os.path.join(os.path.dirname(src), b["uri"]), "rb").read()
    b["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
doc.pop("images", None); doc.pop("textures", None)
for m in doc.get("materials", []): m.pop("pbrMetallicRoughness", None); m.pop("occlusionTexture", None)
json.dump(doc, open(dst, "w"))
PY
      n=$((n + 1))
    fi
  done
  cp "$tmp"/static/*.wea "$seeds/fuzz_wear/"
  for a in static textures materials; do cp "$tmp/$a/_nres.json" "$seeds/fuzz_manifest/$a.json"; done
  for f in $(ls "$tmp"/textures/* | grep -v _nres.json | head -12); do
    cp "$f" "$seeds/fuzz_texm/"
    name=$(basename "$f")
    "$mshconv" convert "$tmp/corpus/Textures.lib:$name" "$tmp/tex/$name.png" --quiet
    cp "$tmp/tex/$name.png" "$seeds/fuzz_png/"
    cp "$tmp/tex/$name.png" "$seeds/fuzz_image/"
    cp "$tmp/tex/$name.sidecar.json" "$seeds/fuzz_sidecars/$name.texture.json"
  done
  for f in $(ls "$tmp"/materials/* | grep -v _nres.json | head -12); do
    printf '\x02' | cat - "$f" > "$seeds/fuzz_mat0/$(basename "$f")"
  done
  # Levels: each mission (first byte 0) and unit .dat (1); objects.rlb's first record (2).
  find "$tmp/corpus/MISSIONS" -name data.tma | while read -r f; do
    printf '\x00' | cat - "$f" > "$seeds/fuzz_level/$(echo "$f" | tr / _).tma"
  done
  find "$tmp/corpus/UNITS" -iname '*.dat' | while read -r f; do
    printf '\x01' | cat - "$f" > "$seeds/fuzz_level/$(basename "$f")"
  done
  "$mshconv" nres extract "$tmp/corpus/objects.rlb" -o "$tmp/registry" > /dev/null
  for f in $(ls "$tmp"/registry/* | grep -v _nres.json | head -4); do
    printf '\x02' | cat - "$f" > "$seeds/fuzz_level/slots_$(basename "$f")"
  done
  for d in "$tmp"/corpus/DATA/MAPS/*/; do
    m=$(basename "$d")
    cp "$d/Land.msh" "$seeds/fuzz_terrain/$m.msh"
    cp "$d/Land.map" "$seeds/fuzz_terrain/$m.map"
    cp "$d"/Land*.wea "$seeds/fuzz_wear/" 2> /dev/null || true
    "$mshconv" convert "$d/Land.msh" "$tmp/maps/$m.glb" --quiet
    cp "$tmp/maps/$m.sidecar.json" "$seeds/fuzz_sidecars/$m.terrain.json"
    break # one map: terrain sidecars are large
  done
  rm -rf "$tmp"
fi

failed=0
for h in "${harnesses[@]}"; do
  dict=()
  case "$h" in
    fuzz_obj) dict=(-dict=fuzz/dicts/obj.dict) ;;
    fuzz_gltf | fuzz_sidecars | fuzz_manifest) dict=(-dict=fuzz/dicts/json.dict) ;;
    fuzz_wear) dict=(-dict=fuzz/dicts/wear.dict) ;;
  esac
  work="build-fuzz/corpus/$h"
  if [ "$seconds" = smoke ]; then
    work="build-fuzz/smoke/$h"
    rm -rf "$work"
  fi
  findings="build-fuzz/findings/$h"
  mkdir -p "$work" "$findings"
  echo "== $h: ${limit[*]}"
  # Inputs of fixed findings (fuzz/regressions/<harness>) are read on every run.
  regressions=()
  [ -d "fuzz/regressions/$h" ] && regressions=("fuzz/regressions/$h")
  if ! build-fuzz/"$h" "$work" "$seeds/$h" "${regressions[@]}" "${dict[@]}" "${limit[@]}" \
    -rss_limit_mb=2048 -timeout=10 -max_len=262144 -artifact_prefix="$findings/" \
    -print_final_stats=1 2>&1 | tee "build-fuzz/$h.log" | grep -E "^#[0-9]+ +(DONE|INITED)|stat::|ERROR|SUMMARY"; then
    :
  fi
  if ls "$findings"/crash-* "$findings"/leak-* "$findings"/timeout-* "$findings"/oom-* > /dev/null 2>&1; then
    echo "FINDING in $h: see $findings and build-fuzz/$h.log"
    failed=1
  fi
done
exit $failed
