#!/usr/bin/env python3
"""Every command that writes one set of files, through the two ways a write goes wrong:

- an output named as one of its inputs is refused (exit 2) and the input keeps its bytes;
- a disk that fills up after k writes (the MSHCONV_TEST_FAIL_WRITE_AFTER hook, k = 0, 1, ...)
  fails the command (exit 1) and leaves no file of its output set behind; the first k that
  succeeds writes the whole set.

`batch` is the exception by design: each item is its own set, and a failed item is reported while
the others are written; its report lists what failed.

usage: output_sets.py BUILD_DIR
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

build = os.path.abspath(sys.argv[1])
mshconv = os.path.join(build, "mshconv")
failures = []


def run(args, env_extra=None, cwd=None):
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([mshconv, *args, "--quiet"] if args[0] != "nres" else [mshconv, *args],
                          capture_output=True, text=True, env=env, cwd=cwd)


def files_below(folder):
    found = []
    for base, _, names in os.walk(folder):
        found += [os.path.relpath(os.path.join(base, n), folder) for n in names]
    return sorted(found)


def digest(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def all_or_nothing(name, make_args, out_dir):
    """Runs the command with the k-th write failing until it succeeds; each failure must leave
    out_dir as it was, the success must write at least one file."""
    before = files_below(out_dir)
    for k in range(0, 200):
        r = run(make_args(), {"MSHCONV_TEST_FAIL_WRITE_AFTER": str(k)})
        after = files_below(out_dir)
        if r.returncode == 0:
            if after == before:
                failures.append(f"{name}: succeeded and wrote nothing")
            print(f"ok    {name}: {k} failing write(s) left nothing; then {len(after) - len(before)} "
                  f"file(s) as one set")
            return
        if r.returncode != 1 or "No space left" not in r.stderr:
            failures.append(f"{name}, write {k} failing: exit {r.returncode}: {r.stderr.strip()}")
            return
        if after != before:
            failures.append(f"{name}, write {k} failing: left {sorted(set(after) - set(before))}")
            return
    failures.append(f"{name}: never succeeded")


def refused(name, args, protected):
    """The command names an input as an output: exit 2, the input unchanged."""
    sums = {p: digest(p) for p in protected}
    r = run(args)
    changed = [p for p in protected if digest(p) != sums[p]]
    if r.returncode != 2 or changed:
        failures.append(f"{name}: exit {r.returncode}, changed {changed}: {r.stderr.strip()}")
    else:
        print(f"ok    {name}: refused ({r.stderr.strip().splitlines()[-1][:90]})")


with tempfile.TemporaryDirectory() as work:
    corpus = f"{work}/corpus"
    subprocess.run([mshconv, "samples", corpus], check=True, capture_output=True)
    rlb = f"{corpus}/static.rlb"
    model = f"{rlb}:House_01.msh"
    land = f"{corpus}/DATA/MAPS/SynTut1/Land.msh"
    textures = f"{corpus}/Textures.lib"
    texture = subprocess.run([mshconv, "nres", "list", textures], check=True, capture_output=True,
                             text=True).stdout.splitlines()[1].split()[1]

    def fresh(name):
        path = f"{work}/out/{name}"
        os.makedirs(path)
        return path

    # Exports: the scene file(s) and the sidecar.
    for fmt in ("glb", "gltf", "obj"):
        d = fresh(f"model_{fmt}")
        all_or_nothing(f"convert model -> .{fmt}", lambda d=d, fmt=fmt: ["convert", model, f"{d}/m.{fmt}"], d)
    d = fresh("map")
    all_or_nothing("convert map -> .gltf", lambda: ["convert", land, f"{d}/level.gltf"], d)
    d = fresh("texture")
    all_or_nothing("convert texture -> .png --mips",
                   lambda: ["convert", f"{textures}:{texture}", f"{d}/t.png", "--mips"], d)
    # Imports: a copy of the archive receives the entry; a new model brings its WEAR.
    src = fresh("src")
    subprocess.run([mshconv, "convert", model, f"{src}/m.glb", "--quiet"], check=True)
    subprocess.run([mshconv, "convert", land, f"{src}/level.glb", "--quiet"], check=True)
    d = fresh("import_loose")
    all_or_nothing("convert .glb -> loose .msh (+ .wea)",
                   lambda: ["convert", f"{src}/m.glb", f"{d}/m.msh", "--full-read"], d)
    d = fresh("import_level")
    all_or_nothing("convert map .glb -> Land.msh + Land.map",
                   lambda: ["convert", f"{src}/level.glb", f"{d}/Land.msh", "--full-read"], d)
    d = fresh("preview")
    all_or_nothing("preview + --metadata",
                   lambda: ["preview", model, f"{d}/p.png", "--metadata", f"{d}/p.json"], d)
    d = fresh("extract")
    all_or_nothing("nres extract", lambda: ["nres", "extract", rlb, "-o", f"{d}/x"], d)
    d = fresh("pack")
    packed = f"{work}/unpacked"
    subprocess.run([mshconv, "nres", "extract", rlb, "-o", packed], check=True, capture_output=True)
    all_or_nothing("nres pack", lambda: ["nres", "pack", packed, "-o", f"{d}/p.rlb"], d)
    d = fresh("samples")
    all_or_nothing("samples", lambda: ["samples", f"{d}/corpus"], d)
    d = fresh("survey")
    all_or_nothing("survey --json --sheet",
                   lambda: ["survey", corpus, "--json", f"{d}/r.json", "--sheet", f"{d}/sheet"], d)

    # Outputs named as inputs.
    refused("convert OUT = IN", ["convert", f"{src}/m.glb", f"{src}/m.glb"], [f"{src}/m.glb"])
    refused("convert --sidecar = IN", ["convert", model, f"{work}/x.glb", "--sidecar", rlb], [rlb])
    refused("convert import into the whole archive", ["convert", f"{src}/m.glb", rlb], [rlb])
    refused("preview OUT = IN", ["preview", f"{src}/m.glb", f"{src}/m.glb"], [f"{src}/m.glb"])
    refused("preview --metadata = IN",
            ["preview", model, f"{work}/p.png", "--metadata", rlb], [rlb])
    refused("nres pack -o its manifest",
            ["nres", "pack", packed, "-o", f"{packed}/_nres.json"], [f"{packed}/_nres.json"])
    refused("nres extract -o the archive's folder's file", ["nres", "extract", rlb, "-o", rlb],
            [rlb])
    refused("batch -o inside its input", ["batch", corpus, "-o", f"{corpus}/out", "--to", "glb"],
            [rlb])
    refused("survey --json = a game file", ["survey", corpus, "--json", rlb], [rlb])

if failures:
    sys.exit("FAIL:\n  " + "\n  ".join(failures))
print("ok: every writing command refuses its inputs as outputs and writes its set whole or not at all")
