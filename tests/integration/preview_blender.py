#!/usr/bin/env python3
"""`mshconv preview` against a real renderer: Blender 3.4's Eevee with the same camera and lights.

- For corpus models of different shapes, views iso and front: our 256x256 preview (transparent
  background, --metadata) beside Blender rendering the model's GLB export
  (tests/integration/preview_blender_render.py: camera built from the metadata, two sun lamps and a
  uniform world standing for our key, fill and ambient terms, Lambert materials). Blender's camera
  projects every GLB vertex to within 0.01 pixel of the metadata's projection formula; the projected
  vertices' bounding box is the bounding box of both pictures (within 1.5 pixels); the silhouettes
  (alpha >= 128) overlap with IoU >= 0.95; the mean sRGB colour of the pixels inside both is within
  20 (of 255) per channel.
- Texture orientation: a glTF quad facing the front view with a 64x64 texture (white; a red square in
  the image's top-left quarter, a blue one in the top-right) shows red top left and blue top right of
  the quad, in our preview and in Blender's render (not mirrored, not upside down).
- Watertight: every pixel that is solid in Blender's picture two pixels in from its silhouette is
  solid (alpha 255) in ours: no see-through cracks where triangles share an edge.
Side-by-side pictures (ours | Blender | difference x4) go to the printed folder, which is kept.

usage: preview_blender.py BUILD_DIR SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import numpy
    from PIL import Image, ImageDraw
except ImportError:  # PIL and numpy are Debian's (python3-pil): a pyenv python3 lacks them
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    raise

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_checks import Checks, png_encode, sample_corpus  # noqa: E402

MODELS = ["static.rlb:House_01.msh", "static.rlb:Windmill.msh", "animals.rlb:Crab_01.msh",
          "animals.rlb:A_BIG.msh", "turrets.rlb:TANKA.msh", "weapon.rlb:ROCKET_1.msh"]
VIEWS = ["iso", "front"]
SIZE = 256

build_dir, source = map(os.path.abspath, sys.argv[1:3])
mshconv = os.path.join(build_dir, "mshconv")
work = tempfile.mkdtemp(prefix="preview_blender_")
compare = os.path.join(work, "compare")
os.makedirs(compare)
checks = Checks(mshconv)
check, run, failures = checks.check, checks.run, checks.failures

corpus = os.path.join(work, "corpus")
check(sample_corpus(mshconv, corpus), "a sample corpus")

# The models: our previews (with their cameras) and the GLB exports Blender renders.
jobs = []
for model in MODELS:
    stem = model.replace(".rlb:", "_").replace(".msh", "")
    glb = os.path.join(work, stem + ".glb")
    r = run("convert", os.path.join(corpus, model), glb)
    check(r.returncode == 0, f"{model}: exported as GLB {r.stderr.strip()[:200]}")
    for view in VIEWS:
        name = f"{stem}_{view}"
        ours, meta = os.path.join(work, name + ".png"), os.path.join(work, name + ".json")
        r = run("preview", os.path.join(corpus, model), ours, "--size", str(SIZE), "--view", view,
                "--background", "transparent", "--metadata", meta)
        check(r.returncode == 0, f"{name}: previewed {r.stderr.strip()[:200]}")
        jobs.append({"name": name, "model": glb, "metadata": meta, "view": 0, "ours": ours,
                     "out": os.path.join(work, name + "_blender.png")})

# The texture-orientation quad: XY plane at z = 0, normal +Z (towards the front camera), glTF UV
# (0, 0) = the image's top-left corner, so the top-left vertex takes (0, 0): the image upright.
red, blue, white = (220, 20, 20, 255), (20, 40, 220, 255), (255, 255, 255, 255)
rows = [[red if 6 <= x < 26 and 6 <= y < 26 else blue if 38 <= x < 58 and 6 <= y < 26 else white
         for x in range(64)] for y in range(64)]
with open(os.path.join(work, "marks.png"), "wb") as f:
    f.write(png_encode(64, 64, rows))
positions = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]  # bottom-left, bottom-right, top-right, top-left
uvs = [(0, 1), (1, 1), (1, 0), (0, 0)]
normals = [(0, 0, 1)] * 4
indices = [0, 1, 2, 0, 2, 3]
blob = (numpy.array(positions, "<f4").tobytes() + numpy.array(normals, "<f4").tobytes() +
        numpy.array(uvs, "<f4").tobytes() + numpy.array(indices, "<u2").tobytes())
with open(os.path.join(work, "quad.bin"), "wb") as f:
    f.write(blob)
quad = {
    "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
    "nodes": [{"name": "quad", "mesh": 0}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2},
                                "indices": 3, "material": 0}]}],
    "materials": [{"name": "marks", "pbrMetallicRoughness": {
        "baseColorTexture": {"index": 0}, "metallicFactor": 0.0, "roughnessFactor": 1.0}}],
    "textures": [{"source": 0, "sampler": 0}],
    "samplers": [{"magFilter": 9728, "minFilter": 9728}],
    "images": [{"uri": "marks.png"}],
    "buffers": [{"uri": "quad.bin", "byteLength": len(blob)}],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48, "target": 34962},
                    {"buffer": 0, "byteOffset": 48, "byteLength": 48, "target": 34962},
                    {"buffer": 0, "byteOffset": 96, "byteLength": 32, "target": 34962},
                    {"buffer": 0, "byteOffset": 128, "byteLength": 12, "target": 34963}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                   "min": [-1, -1, 0], "max": [1, 1, 0]},
                  {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"},
                  {"bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC2"},
                  {"bufferView": 3, "componentType": 5123, "count": 6, "type": "SCALAR"}],
}
quad_gltf = os.path.join(work, "quad.gltf")
with open(quad_gltf, "w") as f:
    json.dump(quad, f)
r = run("preview", quad_gltf, os.path.join(work, "quad_front.png"), "--view", "front", "--size",
        str(SIZE), "--metadata", os.path.join(work, "quad_front.json"))
check(r.returncode == 0, f"quad.gltf: previewed {r.stderr.strip()[:200]}")
jobs.append({"name": "quad_front", "model": quad_gltf, "metadata": os.path.join(work, "quad_front.json"),
             "view": 0, "ours": os.path.join(work, "quad_front.png"),
             "out": os.path.join(work, "quad_front_blender.png")})

with open(os.path.join(work, "jobs.json"), "w") as f:
    json.dump(jobs, f)
b = subprocess.run([os.path.join(source, "tests", "integration", "blender"), "--python",
                    os.path.join(source, "tests", "integration", "preview_blender_render.py"), "--",
                    os.path.join(work, "jobs.json")], capture_output=True, text=True)
results = {}
for line in b.stdout.splitlines():
    if line.startswith("RESULT "):
        res = json.loads(line[7:])
        results[res["name"]] = res
check(len(results) == len(jobs), f"Blender rendered every view ({len(results)} of {len(jobs)}) {b.stderr[-300:]}")


def load(path):
    return numpy.asarray(Image.open(path).convert("RGBA")).astype(numpy.float64)


def bbox(alpha):
    ys, xs = numpy.nonzero(alpha > 0)
    return (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1) if len(xs) else (0, 0, 0, 0)


def side_by_side(name, ours, theirs):
    """ours | Blender | |difference| x 4, over a grey checkerboard, labelled."""
    h, w = ours.shape[:2]
    sheet = Image.new("RGBA", (3 * w + 8, h + 16), (40, 40, 40, 255))
    yy, xx = numpy.mgrid[0:h, 0:w]
    board = numpy.where(((yy // 8 + xx // 8) % 2)[..., None] == 0, 96, 128).astype(numpy.uint8)
    board = Image.fromarray(numpy.dstack([board[..., 0]] * 3 + [numpy.full((h, w), 255, numpy.uint8)]))
    for i, px in enumerate((ours, theirs)):
        tile = board.copy()
        tile.alpha_composite(Image.fromarray(px.astype(numpy.uint8)))
        sheet.paste(tile, (i * (w + 4), 16))
    diff = numpy.clip(numpy.abs(ours - theirs)[..., :3] * 4, 0, 255).astype(numpy.uint8)
    sheet.paste(Image.fromarray(diff), (2 * (w + 4), 16))
    draw = ImageDraw.Draw(sheet)
    for i, label in enumerate(("mshconv preview", "Blender Eevee", "|difference| x4")):
        draw.text((i * (w + 4) + 2, 2), f"{label}  {name}" if i == 0 else label, fill=(255, 255, 255, 255))
    path = os.path.join(compare, name + ".png")
    sheet.save(path)
    return sheet


table, sheets = [], []
for job in jobs:
    name = job["name"]
    res = results.get(name)
    if res is None or not os.path.exists(job["out"]):
        check(False, f"{name}: Blender's render")
        continue
    ours, theirs = load(job["ours"]), load(job["out"])
    check(ours.shape == theirs.shape == (SIZE, SIZE, 4), f"{name}: both {SIZE}x{SIZE} ({ours.shape}, {theirs.shape})")
    sheets.append(side_by_side(name, ours, theirs))
    check(res["vertices"] > 0 and res["max_pixel_difference"] < 0.01,
          f"{name}: Blender's camera projects the {res['vertices']} vertices where the metadata does "
          f"(largest difference {res['max_pixel_difference']:.2g} pixel)")
    want = res["bbox"]
    for who, px in (("our preview", ours), ("Blender", theirs)):
        got = bbox(px[..., 3])
        check(all(abs(a - b) <= 1.5 for a, b in zip(got, want)),
              f"{name}: {who}'s bounding box {list(got)} is the projected vertices' "
              f"[{', '.join(f'{v:.1f}' for v in want)}]")
    a, t = ours[..., 3] >= 128, theirs[..., 3] >= 128
    iou = (a & t).sum() / max(1, (a | t).sum())
    both = a & t
    mine, blender = ours[both][:, :3].mean(axis=0), theirs[both][:, :3].mean(axis=0)
    delta = numpy.abs(mine - blender)
    check(iou >= 0.95, f"{name}: silhouette IoU {iou:.4f} >= 0.95")
    check(delta.max() <= 20, f"{name}: mean colour {mine.round(1).tolist()} within 20 of Blender's "
          f"{blender.round(1).tolist()} (largest difference {delta.max():.1f})")
    # Watertight: where Blender's picture is solid two pixels in from its silhouette, ours is too
    # (no cracks along the edges that triangles share).
    solid = theirs[..., 3] >= 255
    for dy in (-2, -1, 0, 1, 2):
        for dx in (-2, -1, 0, 1, 2):
            solid &= numpy.roll(numpy.roll(theirs[..., 3] >= 255, dy, 0), dx, 1)
    holes = int((solid & (ours[..., 3] < 255)).sum())
    check(holes == 0, f"{name}: no see-through pixels inside the model ({holes} of {int(solid.sum())} "
          "pixels that are solid in Blender's picture are not in ours)")
    table.append((name, iou, mine, blender, delta.max(), res["max_pixel_difference"], holes))

    if name == "quad_front":  # red top left, blue top right of the quad's screen area
        for who, px in (("our preview", ours), ("Blender", theirs)):
            x0, y0, x1, y1 = bbox(px[..., 3])
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            r, g, bl, al = (px[..., i] for i in range(4))
            for colour, mask, want_left in (("red", (r > 120) & (g < 90) & (bl < 90) & (al > 128), True),
                                            ("blue", (bl > 120) & (r < 90) & (g < 110) & (al > 128), False)):
                ys, xs = numpy.nonzero(mask)
                ok = len(xs) > 20
                if ok:
                    cx, cy = xs.mean() + 0.5, ys.mean() + 0.5
                    ok = cy < my and (cx < mx if want_left else cx > mx)
                    where = f"centre ({cx:.0f}, {cy:.0f}) in the quad [{x0}, {y0}, {x1}, {y1}]"
                else:
                    where = f"only {len(xs)} pixels"
                check(ok, f"quad: {who} shows the {colour} mark {'top left' if want_left else 'top right'} ({where})")

print()
print(f"{'view':24s} {'IoU':>7s}  {'ours mean sRGB':>22s}  {'Blender mean sRGB':>22s}  {'max d':>6s}  "
      f"{'cam err px':>10s}  {'holes':>5s}")
for name, iou, mine, blender, d, err, holes in table:
    f = lambda c: "(" + ", ".join(f"{v:5.1f}" for v in c) + ")"
    print(f"{name:24s} {iou:7.4f}  {f(mine):>22s}  {f(blender):>22s}  {d:6.1f}  {err:10.1e}  {holes:5d}")
if sheets:
    w, h = sheets[0].size
    all_sheet = Image.new("RGBA", (w, h * len(sheets)), (40, 40, 40, 255))
    for i, s in enumerate(sheets):
        all_sheet.paste(s, (0, i * h))
    all_sheet.save(os.path.join(compare, "all.png"))
print(f"\nside-by-side pictures (ours | Blender | difference): {compare}")

if failures:
    print(f"{len(failures)} check(s) failed (files in {work})")
    sys.exit(1)
for entry in os.listdir(work):  # keep only the pictures
    path = os.path.join(work, entry)
    if entry != "compare":
        shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.remove(path)
print("our previews match Blender's renders of the same models and cameras")
