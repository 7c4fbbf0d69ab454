#!/usr/bin/env python3
"""The interactive views (issue 47): every tile of `batch --to preview` opens its asset in a
three.js view that works from disk, and `mshconv view` writes one asset's page.

1. the gallery of the corpus in headless Chromium (tests/integration/viewer_browser.js): every
   model and map opens, the default camera shows the preview's silhouette (IoU >= 0.95 on every
   model), the LOD switch, the animation scrub and a map's class toggle do what they say, textures
   show their mip levels and pages, no console error, and without WebGL the tiles stay;
2. the viewer script is written once per gallery, each asset's view beside its thumbnail, and an
   unchanged asset keeps its view (a missing view file is made again); --no-views leaves them out;
3. `mshconv view`: a model, a map, a texture, a level (a click on an object names it and its
   kind), a .glb and an .obj as pages that open by themselves,
   the models' silhouettes as in their previews; the browser started with the page's path (a stand-in xdg-open);
   clear errors and no page for bad input;
4. a gallery of the game-scale corpus shows its first screen within 1 s (median of five loads).

usage: viewer_checks.py BUILD_DIR SOURCE_DIR
"""
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_checks import Checks  # noqa: E402

build_dir, source = map(os.path.abspath, sys.argv[1:3])
mshconv = os.path.join(build_dir, "mshconv")
work = tempfile.mkdtemp(prefix="viewer_")
checks = Checks(mshconv)
check, run, failures = checks.check, checks.run, checks.failures
node = shutil.which("node")
browser_test = os.path.join(source, "tests", "integration", "viewer_browser.js")
env = dict(os.environ, NODE_PATH=os.path.join(source, "tools", "node", "node_modules"))


def browser(*args):
    r = subprocess.run([node, browser_test, *args], capture_output=True, text=True, env=env)
    print(r.stdout.strip())
    if r.returncode != 0:
        print(r.stderr.strip()[:4000])
    return r


game = os.path.join(work, "game")
check(run("samples", game).returncode == 0, "a sample game folder")

# ---- 1. the corpus gallery in a browser -------------------------------------------------------
gallery = os.path.join(work, "gallery")
r = run("batch", game, "-o", gallery, "--to", "preview")
check(r.returncode == 0, f"batch --to preview ({r.stderr.strip()[:200]})")
shots = os.path.join(build_dir, "viewer_screenshots")
r = browser(gallery, shots)
check(r.returncode == 0, "the gallery's views in headless Chromium")

# ---- 2. what the gallery holds ----------------------------------------------------------------
index = json.load(open(os.path.join(gallery, "index.json")))
assets = index["assets"]
viewer_scripts = [os.path.join(d, f) for d, _, fs in os.walk(gallery) for f in fs
                  if f == "mshconv-viewer.js"]
check(viewer_scripts == [os.path.join(gallery, "mshconv-viewer.js")],
      f"one viewer script, at the gallery's root ({len(viewer_scripts)} found)")
views = [a for a in assets if a.get("view")]
check(len(views) == len(assets) and all(os.path.isfile(os.path.join(gallery, a["view"]))
                                        for a in views),
      f"every asset has its view beside its thumbnail ({len(views)} of {len(assets)})")
html = open(os.path.join(gallery, "index.html")).read()
bundle = open(os.path.join(gallery, "mshconv-viewer.js")).read()
check(len(bundle) > 100000 and bundle[:300] not in html and "MshconvViewer" in bundle,
      f"the page loads the viewer script ({len(bundle)} bytes) when a view opens, not with itself")
a_model = next(a for a in assets if a["kind"] == "model")
os.remove(os.path.join(gallery, a_model["view"]))
r = run("batch", game, "-o", gallery, "--to", "preview")
check(r.returncode == 0 and f"batch: 1 converted, {len(assets) - 1} unchanged" in r.stdout
      and os.path.isfile(os.path.join(gallery, a_model["view"])),
      f"a second run keeps the unchanged assets and makes a missing view again ({r.stdout.strip()})")

plain = os.path.join(work, "gallery_no_views")
r = run("batch", game, "-o", plain, "--to", "preview", "--no-views")
plain_files = [f for _, _, fs in os.walk(plain) for f in fs]
plain_index = json.load(open(os.path.join(plain, "index.json")))
check(r.returncode == 0 and not any(f.endswith(".js") for f in plain_files)
      and not any("view" in a for a in plain_index["assets"])
      and plain_index["options"]["views"] is False,
      "--no-views: thumbnails and facts only, no viewer script, no views")

# ---- 3. mshconv view --------------------------------------------------------------------------
model = os.path.join(game, "static.rlb") + ":House_01.msh"
page = os.path.join(work, "house.html")
r = run("view", model, "-o", page, "--no-open")
check(r.returncode == 0 and os.path.isfile(page), f"view a model ({r.stderr.strip()[:200]})")
preview = os.path.join(work, "house.png")
check(run("preview", model, preview).returncode == 0, "its preview")
r = browser("--page", page, preview)
check(r.returncode == 0, "the model's page in headless Chromium: opens, the preview's silhouette")
# A .glb and an .obj (as another tool would hand them over) open as the scenes they hold, at
# their own preview's camera.
for ext in ("glb", "obj"):
    exported = os.path.join(work, f"house_export.{ext}")
    check(run("convert", model, exported).returncode == 0, f"the model as .{ext}")
    scene_page, scene_preview = os.path.join(work, f"house_{ext}.html"), exported + ".png"
    r = run("view", exported, "-o", scene_page, "--no-open")
    check(r.returncode == 0 and os.path.isfile(scene_page), f"view a .{ext} ({r.stderr.strip()[:200]})")
    check(run("preview", exported, scene_preview).returncode == 0, f"the .{ext}'s preview")
    check(browser("--page", scene_page, scene_preview).returncode == 0,
          f"the .{ext}'s page in headless Chromium: opens, its preview's silhouette")
land = os.path.join(game, "DATA", "MAPS", "SynTut4", "Land.msh")
map_page = os.path.join(work, "map.html")
check(run("view", land, "-o", map_page, "--no-open").returncode == 0, "view a map")
texture = os.path.join(game, "Textures.lib") + ":" + next(
    a["name"].split("/", 1)[1] for a in assets if a["kind"] == "texture" and a["facts"]["pages"])
texture_page = os.path.join(work, "texture.html")
check(run("view", texture, "-o", texture_page, "--no-open").returncode == 0, "view a texture")
for p in (map_page, texture_page):
    check(browser("--page", p).returncode == 0, f"{os.path.basename(p)} opens in headless Chromium")
# A mission's level: the map and its objects; a click on an object names it and its kind.
level_page = os.path.join(work, "level.html")
r = run("view", os.path.join(game, "MISSIONS", "Single.01", "data.tma"), "-o", level_page, "--no-open")
check(r.returncode == 0 and os.path.isfile(level_page), f"view a level ({r.stderr.strip()[:200]})")
r = browser("--pick", level_page)
check(r.returncode == 0, f"the level's page in headless Chromium: objects picked by a click "
                         f"({(r.stdout + r.stderr).strip()[-300:]})")
body = open(page).read()
check(not re.search(r"<script[^>]*\bsrc=", body) and "MshconvViewer" in body and '"glb":"' in body,
      "the page is self-contained: the viewer and the asset inline")

# Without --no-open the page goes to xdg-open (here a stand-in that notes what it was given).
bin_dir = os.path.join(work, "bin")
os.makedirs(bin_dir)
noted = os.path.join(work, "opened.txt")
fake = os.path.join(bin_dir, "xdg-open")
with open(fake, "w") as f:
    f.write(f'#!/bin/sh\nprintf "%s" "$1" > "{noted}"\n')
os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
cwd_page = os.path.join(work, "House_01.msh.html")
r = subprocess.run([mshconv, "view", model], capture_output=True, text=True, cwd=work,
                   env=dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"]))
for _ in range(50):  # xdg-open is not waited for
    if os.path.exists(noted) and open(noted).read():
        break
    subprocess.run(["sleep", "0.1"])
check(r.returncode == 0 and os.path.isfile(cwd_page)
      and os.path.exists(noted) and open(noted).read() == cwd_page,
      "without -o: IN's name + .html in the current folder, opened with xdg-open")

bad = os.path.join(work, "bad.msh")
open(bad, "wb").write(b"NRes" + b"\x00" * 40)
out = os.path.join(work, "bad.html")
r = run("view", bad, "-o", out, "--no-open")
check(r.returncode == 1 and "bad.msh" in r.stderr and not os.path.exists(out),
      f"a damaged model: exit 1, its name in the error, no page ({r.stderr.strip()[:200]})")
r = run("view", model, "-o", os.path.join(work, "house.png"), "--no-open")
check(r.returncode == 2 and "html" in r.stderr, "a page not named .html: usage error")
r = run("view", os.path.join(work, "missing.msh"), "--no-open")
check(r.returncode == 1 and "missing.msh" in r.stderr, "a missing input: exit 1, named")

# ---- 4. the game-scale gallery's first screen -------------------------------------------------
big_game = os.path.join(work, "game_scale")
check(run("samples", big_game, "--scale", "game").returncode == 0, "the game-scale corpus")
big = os.path.join(work, "gallery_game_scale")
r = run("batch", big_game, "-o", big, "--to", "preview")
check(r.returncode == 0, f"its gallery ({r.stdout.strip()[-120:]})")
r = browser("--first-screen", big, "1000")
check(r.returncode == 0, "the game-scale gallery's first screen within 1 s")

if failures:
    print(f"{len(failures)} check(s) failed; files in {work}")
    sys.exit(1)
shutil.rmtree(work)
print("viewer: all checks passed")
