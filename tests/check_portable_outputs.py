#!/usr/bin/env python3
"""Outputs do not depend on where the input lies: the sample corpus copied into two folders of
different depths and names, the same conversions run in each with absolute paths (every model to
GLB, glTF and OBJ, every map to GLB and OBJ, every texture to PNG, `preview --metadata` and `view`
of a model, a map and a texture, `batch --to glb,png` and back with `--to nres`, `batch --to
preview`), give
byte-identical output trees, and no output holds either folder's absolute path or the home folder.
The reverse batch gives the corpus back byte for byte. Sidecars in the layout of the previous
release (whole paths in their addresses, a model's WEAR named only by its address) still import
byte for byte, and a model's WEAR still comes from the address its sidecar names.

usage: check_portable_outputs.py BUILD_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import (  # noqa: E402
    archive_entries, files_below, read, run_mshconv, sample_corpus)

mshconv = os.path.join(os.path.abspath(sys.argv[1]), "mshconv")


def run(*args):
    run_mshconv(mshconv, *args)


def entries(archive, wanted_type):
    return archive_entries(mshconv, archive, wanted_type)


def convert_all(game, out):
    """Every conversion the test compares, from the corpus copy `game` into `out` (absolute)."""
    for sub in ("models", "maps", "tex", "previews"):
        os.makedirs(os.path.join(out, sub))
    for archive in sorted(f for f in os.listdir(game) if f.endswith(".rlb")):
        for name in entries(os.path.join(game, archive), "MESH"):
            src = f"{game}/{archive}:{name}"
            stem = f"{out}/models/{archive}_{name}"
            run("convert", src, stem + ".glb")
            run("convert", src, stem + ".gltf", "--sidecar", stem + ".gltf.sidecar.json")
            run("convert", src, stem + ".obj", "--sidecar", stem + ".obj.sidecar.json")
    maps = sorted(os.listdir(os.path.join(game, "DATA", "MAPS")))
    for level in maps:
        land = os.path.join(game, "DATA", "MAPS", level, "Land.msh")
        run("convert", land, f"{out}/maps/{level}.glb")
        run("convert", land, f"{out}/maps/{level}.obj", "--sidecar",
            f"{out}/maps/{level}.obj.sidecar.json")
    textures = entries(os.path.join(game, "Textures.lib"), "Texm")
    for name in textures:
        run("convert", f"{game}/Textures.lib:{name}", f"{out}/tex/{name}.png")
    model = entries(os.path.join(game, "static.rlb"), "MESH")[0]
    for label, src in (("model", f"{game}/static.rlb:{model}"),
                       ("map", os.path.join(game, "DATA", "MAPS", maps[0], "Land.msh")),
                       ("texture", f"{game}/Textures.lib:{textures[0]}")):
        run("preview", src, f"{out}/previews/{label}.png", "--size", "64", "--metadata",
            f"{out}/previews/{label}.json")
        run("view", src, "-o", f"{out}/previews/{label}.html", "--no-open")
    # (No --report: a report names the inputs as given, for finding a failed one, and its times.)
    run("batch", game, "-o", f"{out}/batch", "--to", "glb,png", "-j", "2")
    run("batch", f"{out}/batch", "-o", f"{out}/back", "--to", "nres", "-j", "2")
    run("batch", game, "-o", f"{out}/gallery", "--to", "preview", "-j", "2", "--size", "64")


def rewrite(path, edit):
    with open(path) as fh:
        doc = json.load(fh)
    edit(doc)
    with open(path, "w") as fh:
        json.dump(doc, fh, indent=1)


def previous_layout(game, work):
    """Exports whose sidecars are rewritten to the previous release's layout (whole paths, no
    WEAR image), imported back; the problems found."""
    problems = []
    d = os.path.join(work, "previous")
    os.makedirs(d)
    run("nres", "extract", f"{game}/static.rlb", "-o", f"{d}/static")
    model = entries(os.path.join(game, "static.rlb"), "MESH")[0]
    stem = os.path.splitext(model)[0]
    run("convert", f"{game}/static.rlb:{model}", f"{d}/m.glb")

    def old_model(doc):
        doc["source"]["address"] = f"{game}/static.rlb:{model}"
        doc["wear"]["source"] = f"{game}/static.rlb:{stem}.wea"
        del doc["wear"]["image"]
    rewrite(f"{d}/m.sidecar.json", old_model)
    run("convert", f"{d}/m.glb", f"{d}/m.msh")
    if read(f"{d}/m.msh") != read(f"{d}/static/{model}"):
        problems.append(f"a previous-layout model sidecar did not give {model} back")
    # A new entry: its WEAR is the one the old sidecar names by its whole path.
    shutil.copy(f"{game}/static.rlb", f"{d}/static.rlb")
    run("convert", f"{d}/m.glb", f"{d}/static.rlb:NEW_ONE.msh")
    run("nres", "extract", f"{d}/static.rlb", "-o", f"{d}/static2")
    if read(f"{d}/static2/NEW_ONE.wea") != read(f"{d}/static/{stem}.wea"):
        problems.append("a previous-layout model sidecar's WEAR address was not read")

    level = sorted(os.listdir(os.path.join(game, "DATA", "MAPS")))[0]
    folder = os.path.join(game, "DATA", "MAPS", level)
    run("convert", f"{folder}/Land.msh", f"{d}/Land.glb")

    def old_map(doc):
        doc["source"]["address"] = f"{folder}/Land.msh"
        doc["map_source"]["address"] = f"{folder}/Land.map"
        for layer in ("land1", "land2"):
            doc["wear"][layer]["address"] = f"{folder}/{doc['wear'][layer]['address']}"
    rewrite(f"{d}/Land.sidecar.json", old_map)
    run("convert", f"{d}/Land.glb", f"{d}/map/Land.msh")
    for name in ("Land.msh", "Land.map"):
        if read(f"{d}/map/{name}") != read(f"{folder}/{name}"):
            problems.append(f"a previous-layout terrain sidecar did not give {name} back")

    # A texture sidecar of the first layout (kept in tests/fixtures/sidecar_v1).
    texture = "BARREL_DK.0"
    kept = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "sidecar_v1")
    run("nres", "extract", f"{game}/Textures.lib", "-o", f"{d}/textures")
    shutil.copy(os.path.join(kept, "barrel_dk.png"), f"{d}/t.png")
    shutil.copy(os.path.join(kept, "barrel_dk.sidecar.json"), f"{d}/t.sidecar.json")
    rewrite(f"{d}/t.sidecar.json", lambda doc: doc.update(source=f"{game}/Textures.lib:{texture}"))
    run("convert", f"{d}/t.png", f"{d}/t.texm")
    if read(f"{d}/t.texm") != read(f"{d}/textures/{texture}"):
        problems.append("a previous-layout texture sidecar did not give its Texm back")
    return problems


def main():
    failures = []
    with tempfile.TemporaryDirectory() as work:
        work = os.path.realpath(work)
        if not sample_corpus(mshconv, os.path.join(work, "shared")):
            sys.exit("FAIL: no sample corpus")
        roots = [os.path.join(work, "a"), os.path.join(work, "deeper", "B two", "c")]
        games = [os.path.join(roots[0], "corpus"), os.path.join(roots[1], "Parkan game")]
        outs = [os.path.join(roots[0], "out"), os.path.join(roots[1], "converted", "out")]
        for game, out in zip(games, outs):
            shutil.copytree(os.path.join(work, "shared"), game)
            convert_all(game, out)
        trees = [files_below(out) for out in outs]
        if trees[0] != trees[1]:
            only = sorted(set(trees[0]) ^ set(trees[1]))
            failures.append(f"the output trees differ in {len(only)} files: {only[:5]}")
        common = sorted(set(trees[0]) & set(trees[1]))
        differ = [f for f in common
                  if read(os.path.join(outs[0], f)) != read(os.path.join(outs[1], f))]
        for f in differ[:20]:
            failures.append(f"{f} differs between the two folders")
        if len(differ) > 20:
            failures.append(f"... and {len(differ) - 20} more files differ")
        # Each folder's absolute path, its game folder and the home folder, as bytes.
        needles = set()
        for root, game in zip(roots, games):
            needles |= {root.encode(), game.encode()}
        home = os.path.expanduser("~")
        if len(home) > 3:
            needles.add(os.path.realpath(home).encode())
            needles.add(home.encode())
        needles.add(work.encode())
        leaks = []
        for out in outs:
            for f in files_below(out):
                data = read(os.path.join(out, f))
                leaks += [f"{f} holds {n.decode()}" for n in sorted(needles) if n in data]
        failures += leaks[:20]
        if len(leaks) > 20:
            failures.append(f"... and {len(leaks) - 20} more path leaks")
        back = files_below(os.path.join(outs[0], "back"))
        if back != files_below(games[0]) or any(
                read(os.path.join(outs[0], "back", f)) != read(os.path.join(games[0], f))
                for f in back):
            failures.append("batch --to nres did not give the corpus back byte for byte")
        count = len(common)
        failures += previous_layout(games[1], work)
    if failures:
        sys.exit("FAIL: " + "\n".join(failures))
    print(f"ok: {count} outputs byte-identical in two folders, none holding a folder's path")


main()
