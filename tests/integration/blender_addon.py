#!/usr/bin/env python3
"""The Blender add-on (blender/io_scene_parkan, issue 15) in Blender 3.4, installed from its zip
as a user installs it, against a copy of the sample corpus:

- a model imported from its archive and exported unchanged: the archive is byte-identical; the
  other LOD objects come in hidden and the scene's frame range follows the animation;
- moved vertices, a renamed part and a new keyframe: `validate --strict` passes and `info` shows
  the moved vertices, the new name and the newly animated node;
- a map: a raised hill and a moved areal corner: both files valid, `info` shows the higher terrain
  and the changed areal area;
- a bad archive and a failing mshconv: a Blender error report carrying mshconv's message, no
  traceback, nothing written.

- LOD/group: for 3 multi-LOD models the import of every slot (others hidden) renders as the
  default import (< 0.5 % of pixels differ);
- pictures: a render of an imported textured model and a screenshot of the import dialog
  (Blender under Xvfb), measured; `--update-docs` copies them to docs/images/.

usage: blender_addon.py BUILD_DIR SOURCE_DIR [--update-docs]
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_checks import png_decode  # noqa: E402

from addon_steps import AddonSteps, read  # noqa: E402

build_dir, source = map(os.path.abspath, sys.argv[1:3])
steps = AddonSteps(build_dir, source, "blender_addon_")
mshconv, addon_zip, work, env = steps.mshconv, steps.addon_zip, steps.work, steps.env
check, run, failures = steps.checks.check, steps.checks.run, steps.checks.failures
blender_step = steps.step


def info(address):
    return json.loads(run("info", "--json", address).stdout)


check(os.path.exists(addon_zip), f"the add-on zip is built ({addon_zip})")
game = os.path.join(work, "game")
check(run("samples", game).returncode == 0, "a sample game folder")
archive = os.path.join(game, "animals.rlb")
original = read(archive)

# 1. Unchanged round trip.
r = blender_step("roundtrip", archive, "A_F_01.msh")
check(r.get("ok") is True, f"import + export unchanged: {r.get('message') or r.get('error', '')[:600]}")
check(read(archive) == original, "the archive is byte-identical after an unchanged export")
check("unchanged, original bytes kept" in r["stdout"], "mshconv's report reaches Blender's info")
check(r.get("hidden") and all("@lod" in n or "@g" in n for n in r["hidden"]),
      f"LOD 1/2 objects imported hidden ({len(r.get('hidden', []))})")
frames = info(archive + ":A_F_01.msh")["model"]["animation"]["frame_count"]
check(r.get("frames") == [0, frames - 1], f"the scene's frame range is the animation's {r.get('frames')}")

# mshconv's warnings reach Blender's report, once each, naming the user's files: a model whose
# archive lies outside a game folder has no Material.lib to be textured from.
lonely = os.path.join(work, "lonely")
os.mkdir(lonely)
shutil.copy(archive, os.path.join(lonely, "animals.rlb"))
r = blender_step("roundtrip", os.path.join(lonely, "animals.rlb"), "A_F_01.msh")
reports = [l for l in r["stdout"].splitlines() if l.startswith(("Info:", "Warning:"))]
material_warnings = [l for l in reports if l.startswith("Warning:") and "Material.lib" in l]
check(r.get("ok") is True and len(material_warnings) == 1,
      f"mshconv's warning reaches Blender's report once ({material_warnings})")
check(reports and not any("parkan_" in l for l in reports),
      f"the reports name no temporary file ({[l for l in reports if 'parkan_' in l][:2]})")

# 2. Edits.
before = info(archive + ":A_F_01.msh")["model"]
r = blender_step("edit", archive, "A_F_01.msh")
check(r.get("ok") is True, f"edited model exported: {r.get('message') or r.get('error', '')[:600]}")
v = run("validate", "--strict", archive)
check(v.returncode == 0 and "0 errors, 0 warnings" in v.stdout, f"validate --strict: {v.stdout.strip()[-120:]}")
after = info(archive + ":A_F_01.msh")["model"]
names = [n["name"] for n in after["nodes"]]
renamed = next((n for n in after["nodes"] if n["name"] == "renamed_part"), None)
was = next((n for n in before["nodes"] if n["name"] == r.get("renamed_from")), None)
check(renamed is not None and r.get("renamed_from") not in names, f"info shows the renamed part ({names})")
check(renamed is not None and was is not None and renamed["animated"] and not was["animated"],
      "info shows the new keyframe: the part is animated now")
check(f"'{r.get('moved')}': " in r["stdout"] and "vertices moved" in r["stdout"],
      "the change report names the moved vertices")
check("{" not in "".join(l for l in r["stdout"].splitlines() if l.startswith(("Info:", "Warning:"))),
      "no raw JSON in the add-on's reports")

# A new entry of the archive: the model and its WEAR are added, the others stay.
edited = read(archive)
r = blender_step("copy", archive, "A_F_01.msh", "A_F_01_MOD.msh")
listing = run("nres", "list", archive).stdout
check(r.get("ok") is True and "A_F_01_MOD.msh" in listing and "A_F_01_MOD.wea" in listing,
      f"exported as a new entry with its WEAR: {r.get('message', '')[:300]}")
check(run("validate", "--strict", archive).returncode == 0 and
      run("convert", archive + ":A_F_01.msh", os.path.join(work, "a.glb")).returncode == 0,
      "the archive with the new entry is valid, the edited model still there")

# 3. A map.
land = os.path.join(game, "DATA", "MAPS", "SynTut1", "Land.msh")
land_map = land[:-4] + ".map"
top_before = info(land)["terrain"]["extent"]
area_before = info(land_map)["areal_map"]["total_area"]
r = blender_step("map", land)
check(r.get("ok") is True and r.get("raised", 0) > 0 and r.get("areal_corners_moved", 0) > 0,
      f"map edited and exported: {r.get('message') or r.get('error', '')[:600]}")
for f in (land, land_map):
    v = run("validate", "--strict", f)
    check(v.returncode == 0 and "0 errors, 0 warnings" in v.stdout, f"validate --strict {os.path.basename(f)}")
top_after = info(land)["terrain"]["extent"]
area_after = info(land_map)["areal_map"]["total_area"]
check(top_after["max"][2] > top_before["max"][2] + 10,
      f"info shows the raised hill: top {top_before['max'][2]:.1f} -> {top_after['max'][2]:.1f}")
check(abs(area_after - area_before) > 1e-3, f"info shows the moved areal corner: area {area_before} -> {area_after}")

# 4. Errors: a bad archive, a failing mshconv.
bad = os.path.join(work, "broken.rlb")
with open(bad, "wb") as f:
    f.write(b"NRes" + b"\x00\x01\x00\x00" + b"\xff" * 24)
r = blender_step("badimport", bad)
check(r.get("ok") is False and "mshconv" in r.get("message", "") and "broken.rlb" in r.get("message", "") and
      "Traceback" not in r.get("message", "") and r.get("objects") == 0,
      f"a bad archive: an error report with mshconv's message, nothing imported ({r.get('message', '')[:200]})")
fake = os.path.join(work, "failing-mshconv")
with open(fake, "w") as f:
    f.write("#!/bin/sh\necho 'error: disk full while writing' >&2\nexit 1\n")
os.chmod(fake, 0o755)
snapshot = read(archive)
r = blender_step("failexport", archive, "A_F_01.msh", fake)
check(r.get("ok") is False and "disk full while writing" in r.get("message", "") and
      "Traceback" not in r.get("message", ""), f"a failing mshconv: its message as the error report ({r.get('message', '')[:200]})")
check(read(archive) == snapshot, "a failing mshconv: nothing written")

# 5. Pictures for docs/ and the README, made here and measured: a render of an imported textured
# model (Eevee, headless) and a screenshot of the import dialog (Blender's UI under Xvfb).
def picture_stats(file):
    w, h, rows = png_decode(read(file))
    background = rows[0][0]
    covered = sum(1 for row in rows for p in row if max(abs(a - b) for a, b in zip(p[:3], background[:3])) > 12)
    colours = len({p[:3] for row in rows for p in row})
    return w, h, covered / (w * h), colours


model_png = os.path.join(work, "addon_model.png")
r = blender_step("render", os.path.join(game, "static.rlb"), "House_01.msh", model_png)
w, h, coverage, colours = picture_stats(model_png) if os.path.exists(model_png) else (0, 0, 0, 0)
check(r.get("ok") is True and (w, h) == (640, 400) and coverage > 0.15 and colours > 200,
      f"render of the imported textured model: {w}x{h}, {coverage:.0%} covered, {colours} colours")
# Every LOD and group imported (other slots hidden) renders as the default import does.
for archive_name, entry in (("turrets.rlb", "TURRET_1.msh"), ("static.rlb", "House_01.msh"),
                            ("fortif.rlb", "Bunker_2.msh")):
    pictures = {}
    for lod, group in (("0", "0"), ("all", "all")):
        png = os.path.join(work, f"{entry}_{lod}_{group}.png")
        r = blender_step("lodrender", os.path.join(game, archive_name), entry, lod, group, png)
        pictures[lod] = (r, png_decode(read(png))[2] if os.path.exists(png) else None)
    (r0, a), (r_all, b) = pictures["0"], pictures["all"]
    differ = sum(1 for ra, rb in zip(a, b) for pa, pb in zip(ra, rb)
                 if max(abs(x - y) for x, y in zip(pa[:3], pb[:3])) > 8) if a and b else -1
    total = len(a) * len(a[0]) if a else 1
    check(a is not None and b is not None and r_all.get("objects", 0) > r_all.get("visible", 0) and
          0 <= differ < 0.005 * total,
          f"{entry}: --lod all --group all renders as the default ({differ / total:.3%} of pixels "
          f"differ; {r_all.get('objects')} objects, {r_all.get('visible')} shown)")

steps.close()
dialog_png = os.path.join(work, "addon_import_dialog.png")
clean_path = ":".join(p for p in os.environ["PATH"].split(":") if "pyenv" not in p and "venv" not in p)
shot = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "blender", "--factory-startup",
                       "--python", os.path.join(source, "tests", "integration", "blender_addon_screenshot.py"),
                       "--", addon_zip, os.path.join(game, "static.rlb"), dialog_png],
                      capture_output=True, text=True, timeout=300,
                      env=dict(env, PATH=clean_path), cwd=work)
w, h, coverage, colours = picture_stats(dialog_png) if os.path.exists(dialog_png) else (0, 0, 0, 0)
check(shot.returncode == 0 and (w, h) == (1280, 800) and colours > 20,
      f"screenshot of the import dialog: {w}x{h}, {colours} colours {shot.stderr[-300:] if shot.returncode else ''}")
if "--update-docs" in sys.argv[3:] and not failures:
    for f in (model_png, dialog_png):
        shutil.copy(f, os.path.join(source, "docs", "images", os.path.basename(f)))
    print("docs/images updated")

if failures:
    print(f"{len(failures)} check(s) failed (files in {work})")
    sys.exit(1)
shutil.rmtree(work)
print("the Blender add-on works")
