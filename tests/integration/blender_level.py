#!/usr/bin/env python3
"""A whole level through the Blender add-on (Blender 3.4, installed from its zip as a user does),
on a copy of the sample corpus:

- every mission imports; each distinct model is one mesh datablock shared by the objects that
  place it (linked duplicates); the hidden part classes come in hidden; every building's origin
  lies within 0.1 of the ground under it (a ray down the imported Terrain);
- an unchanged export gives data.tma back byte for byte;
- one tree or rock moved and turned in Blender changes that object's position and heading floats
  only (a contiguous run of at most 36 bytes, the record's transform) and `validate` passes;
- a render of an imported level (Eevee, headless) against the same view without its objects:
  the objects cover a measured share of the frame; `--update-docs` copies it to
  docs/images/level_blender.png.

usage: blender_level.py BUILD_DIR SOURCE_DIR [--update-docs]
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_checks import png_decode  # noqa: E402

from addon_steps import AddonSteps, read  # noqa: E402

build_dir, source = map(os.path.abspath, sys.argv[1:3])
steps = AddonSteps(build_dir, source, "blender_level_")
work = steps.work
check, run, failures = steps.checks.check, steps.checks.run, steps.checks.failures
blender_step = steps.step

game = os.path.join(work, "game")
check(run("samples", game).returncode == 0, "a sample game folder")
missions = sorted(os.path.join(d, "data.tma") for d, _, files in os.walk(os.path.join(game, "MISSIONS"))
                  if "data.tma" in files)
check(len(missions) >= 4, f"the corpus has missions ({len(missions)})")

picture = os.path.join(work, "level_blender.png")
for i, mission in enumerate(missions):
    name = os.path.relpath(mission, game)
    original = read(mission)
    # One picture (Eevee on the processor is slow); every mission measured.
    r = blender_step("level", mission, picture if i == 0 else "-", "MOVE" if i == 0 else "KEEP")
    check("objects" in r, f"{name}: imported through the add-on: {r.get('error', '')[:600]}")
    if "objects" not in r:
        continue
    count = json.loads(run("info", "--json", mission).stdout)["mission"]["objects"]
    check(r["objects"] == count, f"{name}: {r['objects']} object nodes for {count} records")
    check(r["mesh_datablocks"] < r["mesh_objects"],
          f"{name}: linked duplicates, {r['mesh_datablocks']} meshes for {r['mesh_objects']} objects")
    gaps = r["building_gaps"]
    check(gaps and max(gaps) <= 0.1, f"{name}: buildings on the ground (largest gap "
                                     f"{max(gaps) if gaps else None})")
    if i == 0:
        check(r.get("hidden_parts", 0) > 0, f"{name}: armour, internals and ammo come in hidden")
        check(r.get("ok") is True, f"{name}: exported after a move: {r.get('message', '')[:400]}")
        after = read(mission)
        changed = [k for k in range(min(len(after), len(original))) if after[k] != original[k]]
        check(len(after) == len(original) and changed and changed[-1] - changed[0] < 36,
              f"{name}: only the moved object's floats changed (bytes {changed[:1]}..{changed[-1:]})")
        check(f"{r['moved']['name']} (record {r['moved']['record']})" in r["stdout"],
              f"{name}: the change report names the moved object")
        check(run("validate", mission).returncode == 0, f"{name}: the edited mission validates")
    else:
        check(r.get("ok") is True and read(mission) == original,
              f"{name}: an unchanged export is byte-identical: {r.get('message', '')[:300]}")
steps.close()

# The render against the same view without the objects: the objects' pixels, and the ground's.
w, h, rows = png_decode(read(picture)) if os.path.exists(picture) else (0, 0, [])
ground = png_decode(read(picture + ".ground.png"))[2] if os.path.exists(picture + ".ground.png") else []
objects = sum(1 for ra, rb in zip(rows, ground) for pa, pb in zip(ra, rb)
              if max(abs(a - b) for a, b in zip(pa[:3], pb[:3])) > 24)
colours = len({p[:3] for row in rows for p in row})
check((w, h) == (960, 600) and colours > 500 and 0.005 * w * h < objects < 0.5 * w * h,
      f"render of an imported level: {w}x{h}, {colours} colours, the objects "
      f"{objects / max(1, w * h):.1%} of the frame against the ground alone")
if "--update-docs" in sys.argv[3:] and not failures:
    shutil.copy(picture, os.path.join(source, "docs", "images", "level_blender.png"))
    print("docs/images updated")

if failures:
    print(f"{len(failures)} check(s) failed (files in {work})")
    sys.exit(1)
shutil.rmtree(work)
print("levels go through Blender and back")
