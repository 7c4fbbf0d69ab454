#!/usr/bin/env python3
"""The Windows build against the Linux build: the same commands over the whole sample corpus, run
by each in a folder of its own, give byte-identical outputs. Covers the corpus itself (`samples`),
batch forward to GLB + PNG, to glTF (sidecars) and to OBJ, batch back to archives, the preview
gallery, `nres extract` and `pack`, single converts both ways (models, textures with mips, maps),
a preview, and what `info`, `validate` and `nres list` print. Lists every file that differs (with
the first differing offset), is missing or is extra.

usage: compare_builds.py LINUX_BUILD WINDOWS_BUILD
  WINDOWS_BUILD/mshconv runs mshconv.exe under Wine (scripts/build-windows.sh writes it).
"""
import os
import subprocess
import sys
import tempfile
import time

linux = os.path.join(os.path.abspath(sys.argv[1]), "mshconv")
windows = os.path.join(os.path.abspath(sys.argv[2]), "mshconv")


def archive_entries(archive, wanted_type):
    r = subprocess.run([linux, "nres", "list", archive], capture_output=True, text=True,
                       check=True, cwd=os.path.dirname(archive))
    rows = [line.split() for line in r.stdout.splitlines()[1:]]
    return [row[1] for row in rows if len(row) > 2 and row[2] == wanted_type]


def commands(corpus):
    """The commands both builds run, in their own folder holding `corpus` (a link to the Linux
    build's corpus, so that both read the same bytes); (args, stdout file or None)."""
    out = [(["batch", "corpus", "-o", "fwd", "--to", "glb,png", "-j", "2"], None),
           (["batch", "corpus", "-o", "gltf", "--to", "gltf", "-j", "2"], None),
           (["batch", "corpus", "-o", "obj", "--to", "obj", "-j", "1", "--lod", "all"], None),
           (["batch", "fwd", "-o", "back", "--to", "nres", "-j", "2"], None),
           (["batch", "corpus", "-o", "previews", "--to", "preview", "-j", "2"], None)]
    archives = sorted(f for f in os.listdir(corpus) if f.endswith((".rlb", ".lib")))
    for archive in archives:
        out += [(["nres", "list", f"corpus/{archive}"], f"list-{archive}.txt"),
                (["info", "--json", f"corpus/{archive}"], f"info-{archive}.json"),
                (["validate", "--json", f"corpus/{archive}"], f"validate-{archive}.json"),
                (["nres", "extract", f"corpus/{archive}", "-o", f"extracted/{archive}"], None),
                (["nres", "pack", f"extracted/{archive}", "-o", f"packed/{archive}"], None)]
        for name in archive_entries(os.path.join(corpus, archive), "MESH")[:1]:
            stem = f"single/{archive}_{name}"
            src = f"corpus/{archive}:{name}"
            out += [(["convert", src, stem + ".glb"], None),
                    (["convert", src, stem + ".gltf", "--lod", "all", "--group", "all"], None),
                    (["convert", src, stem + ".obj"], None),
                    (["convert", stem + ".glb", stem + ".glb.msh"], None),
                    (["convert", stem + ".gltf", stem + ".gltf.msh"], None),
                    (["convert", stem + ".obj", stem + ".obj.msh"], None),
                    (["preview", src, stem + ".png", "--size", "256"], None),
                    (["info", "--json", src], stem + ".info.json")]
    for name in archive_entries(os.path.join(corpus, "Textures.lib"), "Texm")[:2]:
        png = f"single/{name}.png"
        out += [(["convert", f"corpus/Textures.lib:{name}", png, "--mips"], None),
                (["convert", png, f"single/{name}.texm"], None)]
    for level in sorted(os.listdir(os.path.join(corpus, "DATA", "MAPS"))):
        land = f"corpus/DATA/MAPS/{level}/Land.msh"
        out += [(["convert", land, f"maps/{level}.glb"], None),
                (["convert", f"maps/{level}.glb", f"maps/{level}_back/Land.msh"], None),
                (["preview", land, f"maps/{level}.png"], None),
                (["validate", "--json", land], f"maps/{level}.validate.json")]
    return out


def run_all(mshconv, folder, corpus, todo):
    os.makedirs(folder)
    os.symlink(corpus, os.path.join(folder, "corpus"))
    for sub in ("single", "maps"):
        os.makedirs(os.path.join(folder, sub))
    failures = []
    for args, stdout_file in todo:
        r = subprocess.run([mshconv, "--quiet", *args], capture_output=True, cwd=folder)
        # validate exits 1 for an invalid file: its JSON is compared all the same.
        if r.returncode not in ((0, 1) if args[0] == "validate" else (0,)):
            failures.append(f"{os.path.basename(os.path.dirname(mshconv))}: mshconv "
                            f"{' '.join(args)} exited {r.returncode}: {r.stderr.decode().strip()}")
        if stdout_file:
            with open(os.path.join(folder, stdout_file), "wb") as fh:
                fh.write(r.stdout)
    return failures


def files_below(folder):
    return sorted(os.path.relpath(os.path.join(d, f), folder)
                  for d, dirs, names in os.walk(folder) for f in names
                  if not os.path.islink(os.path.join(d, f)))


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def main():
    with tempfile.TemporaryDirectory() as work:
        corpus = {}
        for name, mshconv in (("linux", linux), ("windows", windows)):
            corpus[name] = os.path.join(work, f"corpus-{name}")
            subprocess.run([mshconv, "--quiet", "samples", corpus[name]], check=True)
        todo = commands(corpus["linux"])
        failures, seconds = [], {}
        for name, mshconv in (("linux", linux), ("windows", windows)):
            start = time.monotonic()
            failures += run_all(mshconv, os.path.join(work, name), corpus["linux"], todo)
            seconds[name] = time.monotonic() - start
        differences, compared = [], 0
        for a, b in ((corpus["linux"], corpus["windows"]),
                     (os.path.join(work, "linux"), os.path.join(work, "windows"))):
            left, right = files_below(a), files_below(b)
            for f in sorted(set(left) | set(right)):
                if f not in right:
                    differences.append(f"{f}: missing from the Windows build's outputs")
                elif f not in left:
                    differences.append(f"{f}: only in the Windows build's outputs")
                else:
                    compared += 1
                    x = open(os.path.join(a, f), "rb").read()
                    y = open(os.path.join(b, f), "rb").read()
                    if x != y:
                        differences.append(f"{f}: differs ({len(x)} and {len(y)} bytes, first "
                                           f"at byte {first_difference(x, y)})")
        print(f"{len(todo)} commands: Linux {seconds['linux']:.1f} s, Windows under Wine "
              f"{seconds['windows']:.1f} s; {compared} files compared")
        for f in failures:
            print("FAIL  " + f)
        for d in differences:
            print("DIFF  " + d)
        if failures or differences or compared < 100:
            sys.exit(f"FAIL: {len(failures)} commands failed, {len(differences)} files differ")
        print(f"ok    all {compared} files byte-identical")


if __name__ == "__main__":
    main()
