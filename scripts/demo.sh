#!/usr/bin/env bash
# Quick start 1: install what is missing, build, generate the synthetic corpus into out/corpus,
# validate it, convert every model and map to glTF under out/gltf (open them in Blender), and draw
# a preview gallery of the whole corpus under out/previews (open out/previews/index.html).
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what the demo runs: the build's packages and the CLI (no consumers, tests or benchmarks).
bash scripts/install-deps.sh --build
bash scripts/build.sh mshconv
rm -rf out/corpus out/gltf out/previews
build/mshconv samples out/corpus
for f in out/corpus/*.rlb out/corpus/*.lib; do build/mshconv validate --strict "$f" | tail -n 1; done
count=0
for archive in out/corpus/*.rlb; do
  name=$(basename "$archive" .rlb)
  mkdir -p "out/gltf/$name"
  while read -r model; do
    build/mshconv convert "$archive:$model" "out/gltf/$name/${model%.*}.gltf" --lod all --group all \
      --game-dir out/corpus
    count=$((count + 1))
  done < <(build/mshconv info --json "$archive" |
    python3 -c 'import json,sys; [print(e["name"]) for e in json.load(sys.stdin)["entries"] if "model" in e]')
done
mkdir -p out/gltf/maps
for land in out/corpus/DATA/MAPS/*/Land.msh; do
  map=$(basename "$(dirname "$land")")
  build/mshconv validate --strict "$land" | tail -n 1
  build/mshconv convert "$land" "out/gltf/maps/$map.glb"
  count=$((count + 1))
done
echo "converted $count models and maps to glTF in out/gltf (sidecars beside them)"
build/mshconv batch out/corpus -o out/previews --to preview
echo "previews of every model, map and texture: out/previews/index.html"
