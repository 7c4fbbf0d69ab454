#!/usr/bin/env python3
"""Models as a Blender 3.4 user exports them (default glTF and OBJ settings) become valid MSH
models that keep what Blender shows (issue 12).

Blender builds six scenes (blender_foreign_scenes.py: a scaled and mirrored hierarchy, object
animation on several objects, an armature with rigid weights, a concave n-gon, a mesh of more than
65,535 vertices, a textured model with two materials) and records its own world-space vertices,
area per material and animated objects. Each exported file is imported without a sidecar, must
pass `validate --strict`, and its model, exported back to OBJ, must hold the same world vertices
(within 2e-3), the same area per material (within 0.5 %) and at least the animated objects.

usage: blender_foreign.py BUILD_DIR SOURCE_DIR
"""
import json
import math
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_checks import Checks, obj_triangles, triangle_area  # noqa: E402

import blender_jobs  # noqa: E402

build_dir, source = map(os.path.abspath, sys.argv[1:3])
mshconv = os.path.join(build_dir, "mshconv")
blender = os.path.join(source, "tests", "integration", "blender")
work = tempfile.mkdtemp(prefix="blender_foreign_")
TOLERANCE = 2e-3
checks = Checks(mshconv)
check, run, failures = checks.check, checks.run, checks.failures
# One Blender process builds the scenes and checks the textures (blender_jobs.py).
blender_process = blender_jobs.Process(blender, os.path.join(work, "blender.log"))


def obj_geometry(file):
    """World vertices and the area per material of an OBJ (our export: world positions)."""
    verts, tris = obj_triangles(file, with_material=True)
    areas = {}
    for material, t in tris:
        areas[material] = areas.get(material, 0.0) + triangle_area(t)
    return verts, areas


def covered(points, by):
    """Every point of `points` has a point of `by` within TOLERANCE (a grid hash)."""
    cells = {}
    for p in by:
        cells.setdefault(tuple(math.floor(c / TOLERANCE) for c in p), []).append(p)
    for p in points:
        base = [math.floor(c / TOLERANCE) for c in p]
        near = False
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    for q in cells.get((base[0] + dx, base[1] + dy, base[2] + dz), ()):
                        near = near or all(abs(p[i] - q[i]) <= TOLERANCE for i in range(3))
        if not near:
            return False
    return True


made = blender_process.run(os.path.join(source, "tests", "integration", "blender_foreign_scenes.py"),
                           work)
if made.returncode != 0:
    print(made.stdout[-2000:], made.stderr[-2000:])
    sys.exit("Blender could not build the scenes")
reference = json.load(open(os.path.join(work, "reference.json")))

for scene, ref in sorted(reference.items()):
    for ext in ("glb", "obj"):
        src = os.path.join(work, f"{scene}.{ext}")
        if not os.path.exists(src):
            continue
        name = f"{scene}.{ext}"
        msh = os.path.join(work, f"{scene}_{ext}.msh")
        r = run("convert", src, msh)
        check(r.returncode == 0, f"{name}: imported (exit {r.returncode}) {r.stderr.strip()[:300]}")
        if r.returncode != 0:
            continue
        v = run("validate", "--strict", msh)
        check(v.returncode == 0, f"{name}: validate --strict {v.stdout.strip()[-300:]}")
        back = os.path.join(work, f"{scene}_{ext}_back.obj")
        e = run("convert", msh, back, "--quiet")
        check(e.returncode == 0, f"{name}: exported back to OBJ")
        if e.returncode != 0:
            continue
        verts, areas = obj_geometry(back)
        want = [tuple(p) for p in ref["vertices"]]
        check(covered(want, verts) and covered(verts, want),
              f"{name}: Blender's world vertices ({len(set(want))} distinct) and no others")
        got_areas = sorted(a for a in areas.values() if a > 1e-9)
        want_areas = sorted(a for a in ref["areas"].values() if a > 1e-9)
        check(len(got_areas) == len(want_areas) and
              all(abs(g - w) <= 5e-3 * w for g, w in zip(got_areas, want_areas)),
              f"{name}: area per material {[round(a, 4) for a in got_areas]} vs "
              f"{[round(a, 4) for a in want_areas]}")
        if ref["animated"]:
            info = run("info", msh).stdout
            m = re.search(r"(\d+) animated nodes", info)
            animated = int(m.group(1)) if m else 0
            check(animated >= len(ref["animated"]),
                  f"{name}: {animated} animated nodes for {len(ref['animated'])} animated in Blender")

# The textured scene into the game: images into Textures.lib, materials into Material.lib, the
# model and its WEAR into static.rlb; exported back through the game's chain, Blender shows
# Blender's own colours on both materials.
colours = {"paint0": (0.8, 0.2, 0.1), "paint1": (0.1, 0.3, 0.9)}
for ext in ("glb", "obj"):
    game = os.path.join(work, f"game_{ext}")  # each its own: the materials have the same names
    check(run("samples", game).returncode == 0, "a sample game folder")
    entry = os.path.join(game, "static.rlb") + f":CRATE_{ext.upper()}.msh"
    r = run("convert", os.path.join(work, f"textured.{ext}"), entry, "--game-dir", game)
    check(r.returncode == 0 and "added Textures.lib:PAINT0.0" in r.stdout,
          f"textured.{ext} -> {os.path.basename(entry)} with its textures ({r.stderr.strip()[:300]})")
    back = os.path.join(work, f"crate_{ext}_game.glb")
    e = run("convert", entry, back, "--game-dir", game)
    check(e.returncode == 0, f"textured.{ext}: exported from the archive")
    expect = os.path.join(work, f"crate_{ext}_expect.json")
    with open(expect, "w") as f:
        json.dump([{"file": back, "checks": [
            {"material": m, "image": m.upper() + ".0", "width": 8, "height": 8,
             "slot": "base_color", "rgb": list(c)} for m, c in colours.items()]}], f)
    t = blender_process.run(os.path.join(source, "tests", "integration", "blender_texture_check.py"),
                            expect)
    check(t.returncode == 0, f"textured.{ext} in the game, exported again: Blender shows both "
          f"images with their colours {t.stdout.strip()[-400:]}")
blender_process.close()

if failures:
    print(f"{len(failures)} check(s) failed (files in {work})")
    sys.exit(1)
print("all Blender-made models import")
