#!/usr/bin/env python3
"""Golden outputs: every `convert` direction and both `batch` directions over the whole sample
corpus, and edited imports (with their change reports), hashed file by file and compared with tests/golden/outputs.sha256 (recorded with the build
before the pipeline refactor). A refactor that changes one output byte fails here, naming the file.

usage: golden_outputs.py BUILD_DIR SOURCE_DIR [--record]
"""
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_checks import archive_entries, run_mshconv, sample_corpus  # noqa: E402

build_dir, source_dir = sys.argv[1], sys.argv[2]
record = "--record" in sys.argv[3:]
mshconv = os.path.join(os.path.abspath(build_dir), "mshconv")
golden_file = os.path.join(os.path.abspath(source_dir), "tests", "golden", "outputs.sha256")


def run(*args):
    # Relative paths only, so sidecars and reports name the same addresses on every machine.
    run_mshconv(mshconv, *args)


def entries(archive, wanted_type):
    return archive_entries(mshconv, archive, wanted_type)


def convert_everything():
    if not sample_corpus(mshconv, "corpus"):
        sys.exit("FAIL: no sample corpus")
    os.makedirs("out/models")
    os.makedirs("out/new")
    os.makedirs("out/tex")
    os.makedirs("out/maps")
    archives = sorted(f for f in os.listdir("corpus") if f.endswith(".rlb"))
    for archive in archives:
        for name in entries(f"corpus/{archive}", "MESH"):
            src = f"corpus/{archive}:{name}"
            stem = f"out/models/{archive}_{name}"
            run("convert", src, stem + ".glb")
            run("convert", src, stem + ".all.gltf", "--lod", "all", "--group", "all",
                "--msft-lod")
            run("convert", src, stem + ".skin.glb", "--skin")
            run("convert", src, stem + ".obj")
            run("convert", stem + ".glb", stem + ".glb.msh")
            run("convert", stem + ".obj", stem + ".obj.msh")
            # Without its sidecar the OBJ is a new model.
            new = f"out/new/{archive}_{name}"
            shutil.copy(stem + ".obj", new + ".obj")
            shutil.copy(stem + ".mtl", new + ".mtl")
            run("convert", new + ".obj", new + ".msh", "--report", new + ".report.json")
    for name in entries("corpus/Textures.lib", "Texm"):
        png = f"out/tex/{name}.png"
        run("convert", f"corpus/Textures.lib:{name}", png, "--mips")
        run("convert", png, f"out/tex/{name}.texm")
    maps = sorted(os.listdir("corpus/DATA/MAPS"))
    for level in maps:
        land = f"corpus/DATA/MAPS/{level}/Land.msh"
        run("convert", land, f"out/maps/{level}.glb")
        run("convert", land, f"out/maps/{level}.obj", "--areal-faces")
        os.makedirs(f"out/maps/{level}_back")
        run("convert", f"out/maps/{level}.glb", f"out/maps/{level}_back/Land.msh")
    # Levels: every mission as one scene, and back.
    os.makedirs("out/levels")
    for folder, _, files in sorted(os.walk("corpus/MISSIONS")):
        if "data.tma" in files:
            stem = "out/levels/" + os.path.relpath(folder, "corpus/MISSIONS").replace(os.sep, "_")
            run("convert", f"{folder}/data.tma", stem + ".glb")
            run("convert", stem + ".glb", stem + ".back.tma")
            run("convert", f"{folder}/data.tma", stem + ".obj")
            run("convert", stem + ".obj", stem + ".obj.back.tma")
    run("batch", "corpus", "-o", "out/batch", "--to", "glb,png", "-j", "2")
    run("batch", "out/batch", "-o", "out/batch_back", "--to", "nres", "-j", "2")
    run("batch", "corpus", "-o", "out/batch_obj", "--to", "obj", "-j", "1", "--lod", "all")


def edit_gltf(stem):
    """Renames the first MSH node and moves vertex 0 of the first primitive by 0.25 in x."""
    with open(stem + ".gltf") as fh:
        g = json.load(fh)
    for n in g["nodes"]:
        if "index" in n.get("extras", {}):
            n["name"] += "_renamed"
            break
    acc = g["accessors"][g["meshes"][0]["primitives"][0]["attributes"]["POSITION"]]
    offset = g["bufferViews"][acc["bufferView"]].get("byteOffset", 0) + acc.get("byteOffset", 0)
    with open(stem + ".bin", "r+b") as fh:
        fh.seek(offset)
        x = struct.unpack("<f", fh.read(4))[0]
        fh.seek(offset)
        fh.write(struct.pack("<f", x + 0.25))
    with open(stem + ".gltf", "w") as fh:
        json.dump(g, fh)


def drop_fourth_face(obj):
    with open(obj) as fh:
        lines = fh.read().split("\n")
    faces = [i for i, line in enumerate(lines) if line.startswith("f ")]
    del lines[faces[3]]
    with open(obj, "w") as fh:
        fh.write("\n".join(lines))


def edited_imports():
    """Edits a DCC would make (vertex move + rename on glTF, a deleted face on OBJ) on the first
    model of every archive: the rebuilt MSH and the change report must not change either."""
    os.makedirs("out/edited")
    for archive in sorted(f for f in os.listdir("corpus") if f.endswith(".rlb")):
        models = entries(f"corpus/{archive}", "MESH")
        if not models:
            continue  # objects.rlb: the registry holds no models
        name = models[0]
        stem = f"out/edited/{archive}_{name}"
        run("convert", f"corpus/{archive}:{name}", stem + ".gltf")
        edit_gltf(stem)
        run("convert", stem + ".gltf", stem + ".gltf.msh", "--report", stem + ".gltf.report.json")
        run("convert", f"corpus/{archive}:{name}", stem + ".obj")
        drop_fourth_face(stem + ".obj")
        run("convert", stem + ".obj", stem + ".obj.msh", "--report", stem + ".obj.report.json")


def hashes():
    result = {}
    for root, _, files in os.walk("out"):
        for f in files:
            path = os.path.join(root, f)
            with open(path, "rb") as fh:
                result[path] = hashlib.sha256(fh.read()).hexdigest()
    return result


def main():
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        convert_everything()
        edited_imports()
        now = hashes()
    if record:
        with open(golden_file, "w") as fh:
            for path in sorted(now):
                fh.write(f"{now[path]}  {path}\n")
        print(f"recorded {len(now)} output hashes in {golden_file}")
        return
    want = {}
    with open(golden_file) as fh:
        for line in fh:
            digest, path = line.rstrip("\n").split("  ", 1)
            want[path] = digest
    missing = sorted(set(want) - set(now))
    extra = sorted(set(now) - set(want))
    changed = sorted(p for p in set(want) & set(now) if want[p] != now[p])
    for label, paths in (("missing", missing), ("new", extra), ("changed", changed)):
        for p in paths[:20]:
            print(f"{label}: {p}")
        if len(paths) > 20:
            print(f"... and {len(paths) - 20} more {label}")
    if missing or extra or changed:
        sys.exit(f"FAIL: {len(changed)} changed, {len(missing)} missing, {len(extra)} new of "
                 f"{len(want)} golden outputs")
    print(f"ok: {len(now)} outputs byte-identical to the golden hashes")


main()
