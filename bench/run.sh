#!/usr/bin/env bash
# Prints benchmark figures: the in-process throughput bench (the issue-3 goal: msh -> glb at least
# 20x Assimp on the same geometry), whole-command comparisons with Assimp (a loop over the corpus,
# and hyperfine on the largest model when installed), and peak memory (/usr/bin/time -v). Not part
# of the test suite.
#
# Whole commands do more than the in-process conversion on our side: mshconv also writes the
# sidecar, opens the material libraries next to the archive (Textures.lib: 5 MB) and encodes the
# textures as PNG; `assimp export` of the OBJ only references the texture files.
#
# Also the terrain stress map (Land.msh + Land.map <-> GLB: wall seconds with hyperfine, peak RSS,
# its ratio to input + output size, faces/s).   usage: bench/run.sh [terrain|one]   (only that
# part; one: a single convert against cp, assimp export and, with MSH_EXPORT_OBJ set, the public
# Python exporter: the issue-14 goals)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh mshconv mshconv_bench

# The stress map (samples/terrain_gen.hpp: as many faces as Land.msh can hold, 65,535 at most)
# converted to GLB and back as whole commands.
terrain_stress() {
  local work land glb back
  work=$(mktemp -d)
  trap 'rm -rf "$work"' RETURN
  build/mshconv samples "$work/maps" --stress > /dev/null
  land="$work/maps/DATA/MAPS/SynStress/Land.msh"
  glb="$work/stress.glb"
  back="$work/back/Land.msh"
  echo "== terrain stress map: stages in process (median of 5)"
  build/mshconv_bench terrain "$land" 5
  echo "== terrain stress map: whole commands (process start-up and file writes included)"
  build/mshconv convert "$land" "$glb" --quiet
  build/mshconv convert "$glb" "$back" --quiet
  cmp "$back" "$land" && cmp "${back%.msh}.map" "${land%.msh}.map" ||
    { echo "terrain round trip is not byte-identical" >&2; return 1; }
  local export_cmd="build/mshconv convert $land $glb --quiet"
  local import_cmd="build/mshconv convert $glb $back --quiet"
  # The GLB is the one the export wrote: the import restores the originals without reading it
  # (docs/sidecar.md, export.written); --full-read reads and compares it, as for an edited file.
  local read_cmd="build/mshconv convert $glb $back --quiet --full-read"
  # Without the draped picture of the areal map (--overlay raw: the raw polygons only), both ways.
  local raw_export_cmd="build/mshconv convert $land $work/raw.glb --quiet --overlay raw"
  local raw_read_cmd="build/mshconv convert $work/raw.glb $back --quiet --full-read"
  $raw_export_cmd
  if command -v hyperfine > /dev/null; then
    hyperfine -N -w 2 -r 15 --export-json "$work/hf.json" "$export_cmd" "$import_cmd" \
      "$read_cmd" "$raw_export_cmd" "$raw_read_cmd" > /dev/null 2>&1
  else # 15 timed runs each, same JSON shape
    python3 - "$work/hf.json" "$export_cmd" "$import_cmd" "$read_cmd" "$raw_export_cmd" \
      "$raw_read_cmd" <<'PY'
import json, os, subprocess, sys, time
results = []
for cmd in sys.argv[2:]:
    times, user, sys_ = [], [], []
    for _ in range(15):
        t0, r0 = time.perf_counter(), os.times()
        subprocess.run(cmd.split(), check=True)
        r1 = os.times()
        times.append(time.perf_counter() - t0)
        user.append(r1.children_user - r0.children_user)
        sys_.append(r1.children_system - r0.children_system)
    results.append({"mean": sum(times) / 15, "min": min(times), "user": sum(user) / 15,
                    "system": sum(sys_) / 15})
json.dump({"results": results}, open(sys.argv[1], "w"))
PY
  fi
  local peak_export peak_import peak_read
  peak_export=$(/usr/bin/time -f %M $export_cmd 2>&1 >/dev/null | tail -1)
  peak_import=$(/usr/bin/time -f %M $import_cmd 2>&1 >/dev/null | tail -1)
  peak_read=$(/usr/bin/time -f %M $read_cmd 2>&1 >/dev/null | tail -1)
  python3 - "$work" "$land" "$glb" "$peak_export" "$peak_import" "$peak_read" <<'PY'
import json, os, subprocess, sys
work, land, glb, peak_export, peak_import, peak_read = sys.argv[1:]
info = json.loads(subprocess.run(["build/mshconv", "info", "--json", land], check=True,
                                 capture_output=True, text=True).stdout)
if "terrain" in info:  # `info --json` of a Land.msh: the terrain's own counts
    faces, vertices = info["terrain"]["faces"], info["terrain"]["vertices"]
else:
    count = {int(e["type"]): e["attr1"] for e in info["entries"]}
    faces, vertices = count[21], count[3]
size = lambda p: os.path.getsize(p)
level = size(land) + size(land[:-4] + ".map")
export = size(glb) + size(glb[:-4] + ".sidecar.json")
total = level + export
hf = json.load(open(os.path.join(work, "hf.json")))["results"]
print(f"map: {faces:,} faces, {vertices:,} vertices; Land.msh + Land.map {level / 1e6:.2f} MB, "
      f"GLB + sidecar {export / 1e6:.2f} MB (input + output either way: {total / 1e6:.2f} MB)")
for name, r, peak in (("Land.msh + map -> glb", hf[0], peak_export),
                      ("glb -> Land.msh + map", hf[1], peak_import),
                      ("  the same, --full-read", hf[2], peak_read)):
    peak_mb = int(peak) * 1024 / 1e6
    rate = faces / r["mean"]
    print(f"{name:22s} {r['mean']:6.3f} s wall (min {r['min']:.3f}, cpu {r['user'] + r['system']:.3f}),"
          f" peak RSS {peak_mb:6.1f} MB = {peak_mb * 1e6 / total:4.2f} x (input + output),"
          f" {rate:,.0f} faces/s -> 1,000,000 faces in ~{1e6 / rate:.2f} s (linear extrapolation)")
raw_glb = size(os.path.join(work, "raw.glb"))
print(f"--overlay raw (no draped picture; GLB {raw_glb / 1e6:.2f} MB):")
for name, r in (("  Land.msh + map -> glb", hf[3]), ("  glb -> map, --full-read", hf[4])):
    print(f"{name:26s} {r['mean']:6.3f} s wall (min {r['min']:.3f}), {faces / r['mean']:,.0f} faces/s")
PY
}

# Issue 14's goals for one command: within 3x of copying the command's bytes (its input and
# outputs, one `cp -r` into a new folder) and >= 10x faster than `assimp export` of the same
# geometry. The model is loose (no game libraries beside it: no textures to encode), and every run
# writes new files (hyperfine --prepare removes the last run's).   usage: one_convert_goals CORPUS WORK
one_convert_goals() {
  local corpus=$1 work=$2 one
  if ! command -v hyperfine > /dev/null || ! command -v assimp > /dev/null; then
    echo "(hyperfine or assimp missing: bash scripts/install-deps.sh --bench)"
    return 0
  fi
  echo "== one convert of the largest model, loose, against cp of its bytes and assimp export"
  one="$work/one" # the input (the model and its WEAR) and the outputs of one convert
  mkdir -p "$one" "$work/geometry"
  build/mshconv nres extract "$corpus/animals.rlb" -o "$work/animals" > /dev/null
  cp "$work/animals/A_BIG.msh" "$work/animals/A_BIG.wea" "$one/"
  build/mshconv convert "$one/A_BIG.msh" "$one/out.glb" --quiet
  build/mshconv convert "$one/A_BIG.msh" "$work/geometry/A_BIG.obj" --quiet
  hyperfine -N --warmup 5 --runs 60 --style none --export-json "$work/one.json" \
    --prepare "rm -rf $work/copy $work/new.glb $work/new.sidecar.json $work/assimp.glb" \
    "build/mshconv --quiet convert $one/A_BIG.msh $work/new.glb" \
    "cp -r $one $work/copy" \
    "assimp export $work/geometry/A_BIG.obj $work/assimp.glb" > /dev/null
  python3 - "$work/one.json" <<'PY'
import json, sys
r = [x["median"] * 1000 for x in json.load(open(sys.argv[1]))["results"]]
print(f"mshconv convert -> glb {r[0]:7.2f} ms (median of 60)")
print(f"cp of input + outputs  {r[1]:7.2f} ms: mshconv takes {r[0] / r[1]:.2f}x (goal <= 3x)")
print(f"assimp export          {r[2]:7.2f} ms: mshconv is {r[2] / r[0]:.1f}x faster (goal >= 10x)")
PY
  python_exporter_goal "$one" "$work"
}

# Issue 14's third goal for one command: >= 30x the public Python exporter, msh_export_obj.py of
# https://github.com/valentineus/fparkan (tools/; it imports archive_roundtrip_validator.py from
# the same folder). Not bundled: point MSH_EXPORT_OBJ at a checkout's copy. It writes one OBJ of
# LOD 0 / group 0 (positions and normals it computes, no sidecar), the selection mshconv's convert
# makes by default; the face counts of both OBJs are compared first, so the two did the same
# geometry. Eight short hyperfine rounds of the two commands (this VM's speed moves by tens of
# percent between minutes, so each round compares the two in the same minute); the ratio is the
# median of the rounds' ratios.   usage: python_exporter_goal ONE_DIR WORK
python_exporter_goal() {
  local one=$1 work=$2
  if [ -z "${MSH_EXPORT_OBJ:-}" ] || [ ! -f "${MSH_EXPORT_OBJ}" ]; then
    echo "(MSH_EXPORT_OBJ unset: the >= 30x goal against valentineus/fparkan's tools/msh_export_obj.py is not measured)"
    return 0
  fi
  # The interpreter itself, not a wrapper on PATH (a pyenv shim is a shell script that adds about
  # 100 ms to every start): Debian's python3 where there is one.
  local python=/usr/bin/python3
  [ -x "$python" ] || python=$(python3 -c 'import sys; print(sys.executable)')
  echo "== the same convert against the Python exporter ($python ${MSH_EXPORT_OBJ}): 8 rounds of hyperfine"
  "$python" "$MSH_EXPORT_OBJ" export --archive "$one/A_BIG.msh" --output "$work/py.obj" > /dev/null
  build/mshconv --quiet convert "$one/A_BIG.msh" "$work/lod0.obj" --sidecar "$work/lod0.sidecar.json"
  local ours theirs
  ours=$(grep -c "^f " "$work/lod0.obj")
  theirs=$(grep -c "^f " "$work/py.obj")
  if [ "$ours" != "$theirs" ]; then
    echo "the two OBJs differ in faces ($ours against $theirs): not the same geometry" >&2
    return 1
  fi
  echo "both write $ours faces (LOD 0, group 0)"
  for round in 1 2 3 4 5 6 7 8; do
    hyperfine -N --warmup 2 --runs 10 --style none --export-json "$work/py$round.json" \
      --prepare "rm -f $work/pair.glb $work/pair.glb.sidecar.json $work/pair.obj" \
      "build/mshconv --quiet convert $one/A_BIG.msh $work/pair.glb" \
      "$python $MSH_EXPORT_OBJ export --archive $one/A_BIG.msh --output $work/pair.obj" > /dev/null
  done
  python3 - "$work" <<'PY'
import glob, json, os, statistics, sys
rounds = [[x["median"] * 1000 for x in json.load(open(f))["results"]]
          for f in sorted(glob.glob(os.path.join(sys.argv[1], "py[0-9].json")))]
ours, theirs = [r[0] for r in rounds], [r[1] for r in rounds]
ratios = [p / m for m, p in zip(ours, theirs)]
print(f"mshconv convert -> glb {statistics.median(ours):7.2f} ms (median of the rounds' medians; with its sidecar)")
print(f"msh_export_obj.py      {statistics.median(theirs):7.2f} ms (rounds from {min(theirs):.1f} to {max(theirs):.1f})")
print(f"mshconv is {statistics.median(ratios):.1f}x faster (median of the rounds' ratios, from {min(ratios):.1f} to {max(ratios):.1f}; goal >= 30x)")
PY
}

if [ "${1:-}" = terrain ]; then
  terrain_stress
  exit 0
fi
if [ "${1:-}" = one ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  build/mshconv samples "$work/corpus" > /dev/null
  one_convert_goals "$work/corpus" "$work"
  exit 0
fi
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
one_convert_goals "$work/corpus" "$work"
if [ -x /usr/bin/time ]; then
  echo "== peak memory (largest archive / largest model)"
  rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p'; }
  echo "validate --strict animals.rlb:          $(rss build/mshconv validate --strict "$work/corpus/animals.rlb") kB"
  echo "convert A_BIG.msh -> glb:               $(rss build/mshconv convert "$big" "$work/big.glb") kB"
  echo "convert A_BIG.msh -> gltf:              $(rss build/mshconv convert "$big" "$work/big.gltf") kB"
  echo "assimp export A_BIG.obj -> glb:         $(rss assimp export "$work/big.obj" "$work/big_assimp.glb") kB"
fi
terrain_stress
