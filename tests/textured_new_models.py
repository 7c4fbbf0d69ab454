#!/usr/bin/env python3
"""New models arrive textured in the game (issue 12): `convert new.gltf static.rlb:NEW.msh
--game-dir DIR` writes the model, its WEAR and its materials and textures into Material.lib and
Textures.lib, and the game's material chain shows them again: the model exported from the archive
carries images with the pixels the input had (565-quantised where it has no alpha), in Blender too.
glTF (embedded and external images), OBJ + MTL (map_Kd, Kd) and COLLADA through Assimp; kept and
replaced entries; loose models; a broken image writes nothing.

usage: textured_new_models.py BUILD_DIR SOURCE_DIR
"""
import base64
import filecmp
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import Checks, png_decode, png_encode  # noqa: E402

build_dir, source_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
mshconv = os.path.join(build_dir, "mshconv")
work = tempfile.mkdtemp(prefix="textured_new_models_")
checks = Checks(mshconv)
check, run, failures = checks.check, checks.run, checks.failures


def path(*names):
    return os.path.join(work, *names)


def checker(w, h, a, b):
    return [[a if (x // 2 + y // 2) % 2 else b for x in range(w)] for y in range(h)]


def q565(p):
    """A pixel as 565 stores it, widened back (texm-materials.md §3)."""
    r, g, b = (p[0] * 31 + 127) // 255, (p[1] * 63 + 127) // 255, (p[2] * 31 + 127) // 255
    return ((r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2), 255)


OPAQUE = checker(16, 16, (200, 40, 30, 255), (20, 90, 220, 255))
CUTOUT = checker(8, 8, (10, 200, 10, 255), (0, 0, 0, 0))


def box_gltf(file, external_image):
    """Two quads, each its own material: 'Painted Metal' (image beside the file or embedded) and
    'Leaves' (an embedded RGBA image with transparent texels)."""
    buf = bytearray()
    views, accessors = [], []

    def add(values, fmt, component, kind, count, target=None):
        while len(buf) % 4:
            buf.append(0)
        offset = len(buf)
        buf.extend(struct.pack("<" + fmt * len(values), *values))
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(buf) - offset})
        a = {"bufferView": len(views) - 1, "componentType": component, "count": count, "type": kind}
        if kind == "VEC3" and component == 5126:
            a["min"] = [min(values[i::3]) for i in range(3)]
            a["max"] = [max(values[i::3]) for i in range(3)]
        accessors.append(a)
        return len(accessors) - 1

    prims = []
    for k in range(2):
        x = 2.0 * k
        pos = add([x, 0, 0, x + 1, 0, 0, x + 1, 1, 0, x, 1, 0], "f", 5126, "VEC3", 4)
        uv = add([0, 1, 1, 1, 1, 0, 0, 0], "f", 5126, "VEC2", 4)
        idx = add([0, 1, 2, 0, 2, 3], "H", 5123, "SCALAR", 6)
        prims.append({"attributes": {"POSITION": pos, "TEXCOORD_0": uv}, "indices": idx, "material": k})
    opaque_png, cutout_png = png_encode(16, 16, OPAQUE), png_encode(8, 8, CUTOUT)
    if external_image:
        with open(os.path.join(os.path.dirname(file), "metal plate.png"), "wb") as f:
            f.write(opaque_png)
        image0 = {"uri": "metal%20plate.png"}
    else:
        image0 = {"uri": "data:image/png;base64," + base64.b64encode(opaque_png).decode(),
                  "name": "metal plate"}
    while len(buf) % 4:
        buf.append(0)
    views.append({"buffer": 0, "byteOffset": len(buf), "byteLength": len(cutout_png)})
    buf.extend(cutout_png)
    doc = {
        "asset": {"version": "2.0", "generator": "textured_new_models.py"},
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"name": "crate", "mesh": 0}],
        "meshes": [{"name": "crate", "primitives": prims}],
        "materials": [
            {"name": "Painted Metal", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}},
            {"name": "Leaves", "alphaMode": "MASK",
             "pbrMetallicRoughness": {"baseColorTexture": {"index": 1}}}],
        "textures": [{"source": 0}, {"source": 1}],
        "images": [image0, {"bufferView": len(views) - 1, "mimeType": "image/png", "name": "leaves"}],
        "buffers": [{"byteLength": len(buf),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(bytes(buf)).decode()}],
        "bufferViews": views, "accessors": accessors,
    }
    with open(file, "w") as f:
        json.dump(doc, f)


def entries(archive):
    """{name: payload} of an NRes archive (nres.md: header 16 bytes, 64-byte directory at the end)."""
    data = open(archive, "rb").read()
    count, total = struct.unpack_from("<II", data, 8)
    out = {}
    for i in range(count):
        e = data[total - 64 * (count - i): total - 64 * (count - i) + 64]
        size = struct.unpack_from("<I", e, 12)[0]
        name = e[20:56].split(b"\0")[0].decode("cp1251")
        offset = struct.unpack_from("<I", e, 56)[0]
        out[name] = data[offset:offset + size]
    return out


def exported_images(msh, game, stem):
    """Export the model from its archive through the game's chain; {material: (image file,
    (w, h, rows))} from the glTF's materials."""
    out = path(stem + ".gltf")
    r = run("convert", msh, out, "--game-dir", game)
    check(r.returncode == 0, f"{stem}: exported from {msh} ({r.stderr.strip()[:200]})")
    if r.returncode:
        return {}
    doc = json.load(open(out))
    result = {}
    for m in doc.get("materials", []):
        t = m.get("pbrMetallicRoughness", {}).get("baseColorTexture")
        if t is None:
            continue
        uri = doc["images"][doc["textures"][t["index"]]["source"]]["uri"]
        result[m["name"]] = (uri, png_decode(open(path(uri), "rb").read()))
    return result, doc


def validate(*files):
    for f in files:
        r = run("validate", "--strict", f)
        check(r.returncode == 0 and "0 errors, 0 warnings" in r.stdout,
              f"validate --strict {os.path.basename(f)}: {r.stdout.strip()[-80:]}")


def test_gltf_into_archive():
    game = path("game")
    check(run("samples", game).returncode == 0, "sample corpus")
    before = {n: entries(os.path.join(game, n)) for n in ("static.rlb", "Material.lib", "Textures.lib")}
    os.makedirs(path("src"))
    box_gltf(path("src", "crate.gltf"), external_image=True)
    r = run("convert", path("src", "crate.gltf"), os.path.join(game, "static.rlb") + ":CRATE.msh",
            "--game-dir", game, "--report", path("crate_report.json"))
    check(r.returncode == 0, f"glTF -> static.rlb:CRATE.msh (exit {r.returncode}: {r.stderr.strip()[:300]})")
    report = json.load(open(path("crate_report.json")))["game_libraries"]
    check(sorted(report["added"]) == ["Material.lib:Leaves", "Material.lib:Painted_Metal",
                                      "Textures.lib:LEAVES.0", "Textures.lib:METAL_PLATE.0"],
          f"report: two materials and two textures added {report['added']}")
    after = {n: entries(os.path.join(game, n)) for n in before}
    for name, old in before.items():
        kept = all(after[name].get(k) == v for k, v in old.items())
        check(kept, f"{name}: every entry it held is unchanged")
    check(set(after["static.rlb"]) - set(before["static.rlb"]) == {"CRATE.msh", "CRATE.wea"},
          "static.rlb gains CRATE.msh and CRATE.wea")
    wear = after["static.rlb"].get("CRATE.wea", b"").decode()
    check(wear == "2\r\n0 Painted_Metal\r\n1 Leaves\r\n", f"the WEAR names both materials: {wear!r}")
    validate(*(os.path.join(game, n) for n in before))

    images, doc = exported_images(os.path.join(game, "static.rlb") + ":CRATE.msh", game, "crate_back")
    painted, leaves = images.get("Painted_Metal"), images.get("Leaves")
    check(painted is not None and painted[1][2] == [[q565(p) for p in row] for row in OPAQUE],
          "Painted_Metal comes back with its image (565: each channel to its bits)")
    check(leaves is not None and leaves[1][2] == CUTOUT,
          "Leaves comes back with its image, alpha exact (8888)")
    # Blender shows the images on the materials (tests/integration/blender_texture_check.py).
    expect = [{"file": path("crate_back.gltf"), "checks": [
        {"material": "Painted_Metal", "image": "METAL_PLATE.0", "width": 16, "height": 16,
         "slot": "base_color"},
        {"material": "Leaves", "image": "LEAVES.0", "width": 8, "height": 8, "slot": "base_color"}]}]
    with open(path("blender_expect.json"), "w") as f:
        json.dump(expect, f)
    r = subprocess.run([os.path.join(source_dir, "tests/integration/blender"), "--python",
                        os.path.join(source_dir, "tests/integration/blender_texture_check.py"),
                        "--", path("blender_expect.json")], capture_output=True, text=True)
    check(r.returncode == 0, "Blender 3.4: the archive model's materials show their images" +
          ("" if r.returncode == 0 else ": " + r.stdout[-600:] + r.stderr[-300:]))

    # The same again: the materials exist and are kept, the libraries stay byte for byte.
    libs = {n: open(os.path.join(game, n), "rb").read() for n in ("Material.lib", "Textures.lib")}
    # The entry now exists: replacing it with a new model needs --new-model, or nothing is written.
    r = run("convert", path("src", "crate.gltf"), os.path.join(game, "static.rlb") + ":CRATE.msh",
            "--game-dir", game)
    check(r.returncode == 1 and "--new-model" in r.stderr and
          all(open(os.path.join(game, n), "rb").read() == b for n, b in libs.items()),
          "a second import without --new-model is refused, nothing written")
    r = run("convert", path("src", "crate.gltf"), os.path.join(game, "static.rlb") + ":CRATE.msh",
            "--game-dir", game, "--new-model")
    check(r.returncode == 0 and r.stdout.count("kept Material.lib:") == 2 and
          "already exists and is kept" in r.stderr, "a second import keeps the existing materials")
    check(all(open(os.path.join(game, n), "rb").read() == b for n, b in libs.items()),
          "a second import leaves Material.lib and Textures.lib byte for byte")

    # Repainted with --replace: the material's texture is overwritten, no entry added.
    box_gltf(path("src", "crate.gltf"), external_image=True)
    with open(path("src", "metal plate.png"), "wb") as f:
        f.write(png_encode(16, 16, checker(16, 16, (255, 255, 255, 255), (0, 0, 0, 255))))
    r = run("convert", path("src", "crate.gltf"), os.path.join(game, "static.rlb") + ":CRATE.msh",
            "--game-dir", game, "--replace", "--new-model")
    textures = entries(os.path.join(game, "Textures.lib"))
    check(r.returncode == 0 and "replaced Textures.lib:METAL_PLATE.0" in r.stdout and
          len(textures) == len(after["Textures.lib"]), "--replace overwrites the texture in place")
    images, _ = exported_images(os.path.join(game, "static.rlb") + ":CRATE.msh", game, "crate_repainted")
    check(images.get("Painted_Metal") and images["Painted_Metal"][1][2][0][0] == (0, 0, 0, 255) and
          images["Painted_Metal"][1][2][0][2] == (255, 255, 255, 255), "the repainted image is the one shown")

    # An image no decoder reads: one error naming it, nothing written.
    with open(path("src", "metal plate.png"), "wb") as f:
        f.write(b"not an image at all")
    doc = json.load(open(path("src", "crate.gltf")))
    doc["materials"][0]["name"] = "Fresh Paint"  # a new material: its image is needed
    with open(path("src", "crate.gltf"), "w") as f:
        json.dump(doc, f)
    snapshot = {n: open(os.path.join(game, n), "rb").read() for n in ("static.rlb", "Material.lib", "Textures.lib")}
    r = run("convert", path("src", "crate.gltf"), os.path.join(game, "static.rlb") + ":BROKEN.msh",
            "--game-dir", game)
    check(r.returncode == 1 and r.stderr.count("error:") == 1 and "Fresh Paint" in r.stderr,
          f"a broken image: one error naming the material ({r.stderr.strip()[:200]})")
    check(all(open(os.path.join(game, n), "rb").read() == b for n, b in snapshot.items()) and
          not any(f.endswith(".tmp") or ".tmp" in f for f in os.listdir(game)),
          "a broken image: the archive and the libraries untouched")


def test_loose_and_new_libraries():
    os.makedirs(path("loose"))
    box_gltf(path("loose", "crate.gltf"), external_image=False)
    r = run("convert", path("loose", "crate.gltf"), path("loose", "crate.msh"))
    check(r.returncode == 0 and os.path.exists(path("loose", "crate.wea")) and
          "no Material.lib or Textures.lib" in r.stderr,
          "a loose model without libraries: crate.wea beside it and a warning")
    # Without libraries the images are not needed: a broken one does not stop the model.
    box_gltf(path("loose", "broken.gltf"), external_image=True)
    with open(path("loose", "metal plate.png"), "wb") as f:
        f.write(b"not an image")
    r = run("convert", path("loose", "broken.gltf"), path("loose", "broken.msh"))
    check(r.returncode == 0 and os.path.exists(path("loose", "broken.wea")),
          f"a loose model without libraries ignores its (broken) images ({r.stderr.strip()[:200]})")
    os.makedirs(path("mod"))
    r = run("convert", path("loose", "crate.gltf"), path("loose", "crate2.msh"), "--game-dir", path("mod"))
    check(r.returncode == 0 and os.path.exists(path("mod", "Material.lib")) and
          os.path.exists(path("mod", "Textures.lib")), "--game-dir of an empty folder: new libraries")
    validate(path("mod", "Material.lib"), path("mod", "Textures.lib"), path("loose", "crate2.msh"))
    images, _ = exported_images(path("loose", "crate2.msh"), path("mod"), "crate2_back")
    check(images.get("Leaves") is not None and images["Leaves"][1][2] == CUTOUT,
          "a loose model with new libraries exports textured (embedded images read)")


def test_obj_and_assimp():
    os.makedirs(path("obj"))
    with open(path("obj", "sign.png"), "wb") as f:
        f.write(png_encode(16, 16, OPAQUE))
    with open(path("obj", "sign.mtl"), "w") as f:
        f.write("newmtl board\nKd 1 1 1\nmap_Kd -s 1 1 1 sign.png\n\nnewmtl post\nKd 1 0 0\n")
    with open(path("obj", "sign.obj"), "w") as f:
        f.write("mtllib sign.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
                "usemtl board\nf 1/1 2/2 3/3 4/4\nv 0 0 1\nv 0.1 0 1\nv 0.1 0.1 1\nusemtl post\nf 5 6 7\n")
    game = path("obj_game")
    os.makedirs(game)
    r = run("convert", path("obj", "sign.obj"), path("obj", "sign.msh"), "--game-dir", game)
    check(r.returncode == 0, f"OBJ + MTL -> sign.msh ({r.stderr.strip()[:200]})")
    images, _ = exported_images(path("obj", "sign.msh"), game, "sign_back")
    check(images.get("board") is not None and images["board"][1][2] == [[q565(p) for p in row] for row in OPAQUE],
          "OBJ: map_Kd (after its options) becomes the material's texture")
    check(images.get("post") is not None and images["post"][1][2][0][0] == (255, 0, 0, 255),
          "OBJ: a Kd-only material becomes a plain red texture")
    # COLLADA written by Assimp from the same OBJ: the texture file it references is found.
    r = subprocess.run(["assimp", "export", path("obj", "sign.obj"), path("obj", "sign.dae")],
                       capture_output=True, text=True)
    check(r.returncode == 0, "assimp export sign.obj sign.dae")
    game = path("dae_game")
    os.makedirs(game)
    r = run("convert", path("obj", "sign.dae"), path("obj", "sign_dae.msh"), "--game-dir", game)
    check(r.returncode == 0, f"COLLADA (Assimp) -> msh ({r.stderr.strip()[:200]})")
    images, _ = exported_images(path("obj", "sign_dae.msh"), game, "sign_dae_back")
    found = [v for v in images.values() if v[1][0] == 16]
    check(len(found) == 1 and found[0][1][2] == [[q565(p) for p in row] for row in OPAQUE],
          f"COLLADA: the referenced image becomes the texture ({sorted(images)})")


test_gltf_into_archive()
test_loose_and_new_libraries()
test_obj_and_assimp()
if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
shutil.rmtree(work)
print("all checks passed")
