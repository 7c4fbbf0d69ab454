#!/usr/bin/env python3
"""What a map looks like (issue 13), for every sample map exported to GLB:

- Khronos glTF-Validator: 0 errors, 0 warnings (textured terrain, draped overlay);
- Blender 3.4 (tests/integration/blender_map_check.py): >= 99.9 % of the draped overlay's
  triangle centres lie 0..1 unit above the terrain (ray cast down); the terrain rendered from
  above with Eevee is not white and its mean colour is within 20 (of 255) per channel of the
  area-weighted mean of its textures; layer 2 (`Terrain_layer2`) comes in as textured materials
  alpha-blended by the vertex colours and changes part of the picture;
- and the export still comes back byte for byte (`convert` straight back).

usage: blender_maps.py BUILD_DIR SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_checks import Checks, sample_corpus  # noqa: E402

build_dir, source = map(os.path.abspath, sys.argv[1:3])
mshconv = os.path.join(build_dir, "mshconv")
work = tempfile.mkdtemp(prefix="blender_maps_")
checks = Checks(mshconv)
check, run, failures = checks.check, checks.run, checks.failures

game = os.path.join(work, "game")
check(sample_corpus(mshconv, game), "a sample game folder")
maps_dir = os.path.join(game, "DATA", "MAPS")
names = sorted(os.listdir(maps_dir))
glbs = []
for name in names:
    land = os.path.join(maps_dir, name, "Land.msh")
    glb = os.path.join(work, name + ".glb")
    r = run("convert", land, glb)
    check(r.returncode == 0 and "warning" not in r.stderr, f"{name}: exported ({r.stderr.strip()[:200]})")
    back = os.path.join(work, "back_" + name, "Land.msh")
    r = run("convert", glb, back)
    same = r.returncode == 0 and all(
        open(os.path.join(maps_dir, name, f), "rb").read() == open(os.path.join(os.path.dirname(back), f), "rb").read()
        for f in ("Land.msh", "Land.map"))
    check(same, f"{name}: back byte for byte with the new layers")
    glbs.append(glb)

v = subprocess.run(["node", os.path.join(source, "tools", "validate-gltf.mjs"), *glbs],
                   capture_output=True, text=True)
check(v.returncode == 0, f"glTF-Validator: 0 errors, 0 warnings on {len(glbs)} maps {v.stdout[-400:]}")

b = subprocess.run([os.path.join(source, "tests", "integration", "blender"), "--python",
                    os.path.join(source, "tests", "integration", "blender_map_check.py"), "--",
                    work, *glbs], capture_output=True, text=True)
results = [json.loads(l[7:]) for l in b.stdout.splitlines() if l.startswith("RESULT ")]
check(len(results) == len(glbs), f"Blender checked every map ({len(results)} of {len(glbs)}) {b.stderr[-300:]}")
for res in results:
    name = res["map"]
    check(res["draped_triangles"] > 0 and res["draped_within_1"] >= 0.999,
          f"{name}: {res['draped_within_1']:.2%} of {res['draped_triangles']} draped triangle "
          "centres 0..1 unit above the terrain")
    mats = res["layer2_materials"]
    check(len(mats) > 0 and all(m["blend"] == "BLEND" and m["alpha_linked"] and m["vertex_colour"]
                                and m["textured"] for m in mats),
          f"{name}: layer 2 imported as textured materials alpha-blended by the vertex colours ({mats})")
    check(0.02 <= res.get("layer2_changed", 0) <= 0.6 and res.get("layer2_mean_change", 0) >= 5,
          f"{name}: layer 2 shows over part of the ground ({res.get('layer2_changed', 0):.1%} of the "
          f"pixels, by {res.get('layer2_mean_change', 0)} of 255 on average)")
    mean, want = res["render_mean"], res["expected"]
    check(min(mean) < 200, f"{name}: the rendered terrain is not white {mean}")
    check(all(abs(a - b) <= 20 for a, b in zip(mean, want)),
          f"{name}: rendered mean colour {mean} close to its textures' {want}")

if failures:
    print(f"{len(failures)} check(s) failed (files in {work})")
    sys.exit(1)
shutil.rmtree(work)
print("every map renders textured with its overlay on the ground")
