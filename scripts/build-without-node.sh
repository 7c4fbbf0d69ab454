#!/usr/bin/env bash
# A library user's build: a compiler and the Debian packages, no Node.js. Configures
# build-without-node/ with node hidden from PATH, builds the library, the CLI and the examples,
# and checks what such a build does without the 3D viewer: `convert` works, `view` refuses and
# says how to get the viewer, a gallery has thumbnails and says why it has no views.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-env.sh
bin="$PWD/build-without-node/path"
rm -rf "$bin" && mkdir -p "$bin"
# PATH: every program of the usual folders but Node's.
IFS=: read -ra folders <<< "$PATH"
for folder in "${folders[@]}"; do
  [ -d "$folder" ] || continue
  for program in "$folder"/*; do
    name="$(basename "$program")"
    case "$name" in node | nodejs | npm | npx) continue ;; esac
    [ -x "$program" ] && [ ! -e "$bin/$name" ] && ln -s "$program" "$bin/$name"
  done
done
export PATH="$bin"
! command -v node > /dev/null || { echo "node is still on PATH" >&2; exit 1; }

configure_log="$(cmake -S . -B build-without-node $(generator_for build-without-node) \
  -DCMAKE_BUILD_TYPE=Release -DMSHCONV_WARNINGS_AS_ERRORS=ON -DMSHCONV_BUILD_BENCH=OFF \
  "${ccache_launcher[@]}" 2>&1)"
grep -q "3D viewer bundle and test suite skipped" <<< "$configure_log" ||
  { echo "$configure_log"; echo "the configure did not say the viewer was skipped" >&2; exit 1; }
cmake --build build-without-node -j"$(nproc)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mshconv="$PWD/build-without-node/mshconv"
"$mshconv" samples "$work/samples" --scale 0.1 > /dev/null
model="$work/samples/static.rlb:House_01.msh"
"$mshconv" convert "$model" "$work/house.glb" > /dev/null
[ -s "$work/house.glb" ] || { echo "convert wrote no house.glb" >&2; exit 1; }
if "$mshconv" view "$model" -o "$work/house.html" --no-open 2> "$work/view.err"; then
  echo "view succeeded without a viewer" >&2; exit 1
fi
grep -q "built without the 3D viewer.*install-deps.sh --build" "$work/view.err" ||
  { cat "$work/view.err"; echo "view did not say how to get the viewer" >&2; exit 1; }
[ ! -e "$work/house.html" ] || { echo "view wrote a page" >&2; exit 1; }
"$mshconv" batch "$work/samples/static.rlb" -o "$work/gallery" --to preview 2> "$work/batch.err" > /dev/null
grep -q "no interactive views" "$work/batch.err" ||
  { cat "$work/batch.err"; echo "batch did not warn that the gallery has no views" >&2; exit 1; }
grep -q '"views": false' "$work/gallery/index.json" && grep -q '"viewer": "this mshconv was built without' "$work/gallery/index.json" ||
  { echo "the gallery's index does not say why it has no views" >&2; exit 1; }
[ ! -e "$work/gallery/mshconv-viewer.js" ] || { echo "a gallery without views has a viewer" >&2; exit 1; }
echo "build without node: library, CLI and examples built; view refused; gallery without views"
