#!/usr/bin/env python3
"""Real consumers see the textures of exported models (issue 5): the corpus model archives go
through `mshconv batch` to GLB, glTF and OBJ; then
- Blender 3.4 imports textured models (GLB with embedded PNGs, glTF with PNG files beside it) and
  every textured material has an Image Texture node with a loaded image of the texture's size on
  the right input (blender_texture_check.py): Base Color, and for lightmapped models the
  lightmap on the glTF Occlusion input reading the UV map of TEXCOORD_2;
- Assimp reads every OBJ and lists exactly the MTL's map_Kd files as texture references, one
  diffuse texture per textured material, and every GLB with as many embedded textures as images;
- every PNG an export references has the size of its Texm in Textures.lib / LightMap.lib (what
  `mshconv info` reports for the library entry, not what the exporter says).

usage: textured_consumers.py BUILD_DIR SOURCE_DIR
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cli_checks import sample_corpus  # noqa: E402

build, source = sys.argv[1], sys.argv[2]
mshconv = os.path.join(build, "mshconv")
blender = os.path.join(source, "tests", "integration", "blender")
checker = os.path.join(source, "tests", "integration", "blender_texture_check.py")
failures = []


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def png_size(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def load_gltf(path):
    """(document, bytes of image i) for .glb and .gltf."""
    data = open(path, "rb").read()
    if path.endswith(".gltf"):
        doc = json.loads(data)
        folder = os.path.dirname(path)
        return doc, lambda i: open(os.path.join(folder, doc["images"][i]["uri"]), "rb").read()
    (json_len,) = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + json_len])
    bin_start = 20 + json_len + 8

    def image(i):
        view = doc["bufferViews"][doc["images"][i]["bufferView"]]
        start = bin_start + view.get("byteOffset", 0)
        return data[start:start + view["byteLength"]]
    return doc, image


def texture_sizes(library):
    info = json.loads(run([mshconv, "info", "--json", library]).stdout)
    return {e["name"].upper(): (e["texture"]["width"], e["texture"]["height"])
            for e in info["entries"] if "texture" in e}


def checks_for(path, sizes):
    """What Blender must show for each textured material of an export, checked against the
    library sizes on the way."""
    doc, image = load_gltf(path)
    checks = []
    for mat in doc.get("materials", []):
        slots = [("base_color", mat.get("pbrMetallicRoughness", {}).get("baseColorTexture"))]
        slots.append(("occlusion", mat.get("occlusionTexture")))
        for slot, ref in slots:
            if ref is None:
                continue
            src = doc["textures"][ref["index"]]["source"]
            name = doc["images"][src].get("name", "")
            size = png_size(image(src))
            if size is None:
                failures.append(f"{path}: image {src} is not a PNG")
                continue
            if sizes.get(name.upper()) != size:
                failures.append(f"{path}: image {name} is {size}, the library's Texm is "
                                f"{sizes.get(name.upper())}")
            check = {"material": mat["name"], "image": name, "width": size[0],
                     "height": size[1], "slot": slot}
            if ref.get("texCoord", 0):
                check["uv"] = ref["texCoord"]
            checks.append(check)
    return checks


with tempfile.TemporaryDirectory() as work:
    corpus = os.path.join(work, "corpus")
    if not sample_corpus(mshconv, corpus):
        sys.exit("no sample corpus")
    sizes = texture_sizes(os.path.join(corpus, "Textures.lib"))
    sizes.update(texture_sizes(os.path.join(corpus, "LightMap.lib")))
    archives = sorted(os.path.join(corpus, a) for a in os.listdir(corpus) if a.endswith(".rlb"))
    out = {}
    for fmt in ("glb", "gltf", "obj"):
        out[fmt] = os.path.join(work, fmt)
        r = run([mshconv, "batch", *archives, "-o", out[fmt], "--to", fmt, "-q"])
        if r.returncode != 0:
            failures.append(f"batch --to {fmt}: {r.stdout}{r.stderr}")

    def exports(fmt):
        for root, _, files in os.walk(out[fmt]):
            for f in sorted(files):
                if f.endswith("." + fmt):
                    yield os.path.join(root, f)

    # ---- Blender: the most textured GLBs, and glTFs (PNG files beside them) ----
    glbs = [(p, checks_for(p, sizes)) for p in exports("glb")]
    textured = sorted((g for g in glbs if g[1]), key=lambda g: -len(g[1]))
    print(f"{len(glbs)} GLB exports, {len(textured)} textured, "
          f"{sum(len(c) for _, c in glbs)} textured material slots")
    if len(textured) < 5:
        failures.append(f"only {len(textured)} textured exports: the corpus should texture most models")
    # The most textured ones, and lightmapped ones (an occlusion-slot check on TEXCOORD_2).
    lightmapped = [g for g in textured if any(c["slot"] == "occlusion" for c in g[1])]
    if not lightmapped:
        failures.append("no export carries a lightmap: the corpus has lightmapped models")
    chosen = textured[:5] + [g for g in lightmapped[:3] if g not in textured[:5]]
    picked = [{"file": p, "checks": c} for p, c in chosen]
    for p, _ in textured[:1] + lightmapped[:1]:
        gltf = os.path.join(out["gltf"], os.path.relpath(p, out["glb"]))[:-4] + ".gltf"
        picked.append({"file": gltf, "checks": checks_for(gltf, sizes)})
    expect = os.path.join(work, "expect.json")
    json.dump(picked, open(expect, "w"))
    r = run([blender, "--python", checker, "--", expect])
    line = [l for l in r.stdout.splitlines() if l.startswith("blender texture check")]
    print(line[0] if line else (r.stdout[-600:] + r.stderr[-600:]))
    if r.returncode != 0:
        failures.append("blender:\n" + "\n".join(
            l for l in r.stdout.splitlines() if l.startswith(("FAIL", "Error", "Traceback"))) +
            r.stderr[-600:])

    # ---- Assimp: OBJ + MTL texture references, GLB embedded textures ----
    objs = 0
    for obj in exports("obj"):
        mtl = obj[:-4] + ".mtl"
        maps, current, by_material = set(), None, {}
        for line in open(mtl, encoding="utf-8", errors="replace"):
            if line.startswith("newmtl "):
                current = line.split(None, 1)[1].strip()
            elif line.startswith("map_Kd "):
                file = line.split(None, 1)[1].strip()
                maps.add(file)
                by_material[current] = file
        if not maps:
            continue
        objs += 1
        info = run(["assimp", "info", obj, "--raw"]).stdout
        refs = set(re.findall(r"^\s+'([^']+)'\s*$",
                              info.split("Texture Refs:")[1].split("Node hierarchy:")[0], re.M)) \
            if "Texture Refs:" in info else set()
        if refs != maps:
            failures.append(f"assimp {obj}: texture refs {sorted(refs)}, MTL map_Kd {sorted(maps)}")
        named = info.split("Named Materials:")[1] if "Named Materials:" in info else ""
        for material in by_material:
            block = re.search(r"^\s+'" + re.escape(material) + r"' \(prop\)(.*?)(?=^\s+'|\Z)",
                              named, re.M | re.S)
            if not block or not re.search(r"\$tex\.file\): \[0 / \d+ \| Diffuse\]", block.group(1)):
                failures.append(f"assimp {obj}: material {material} has no diffuse texture")
        for file in maps:
            path = os.path.join(os.path.dirname(obj), file)
            size = png_size(open(path, "rb").read()) if os.path.exists(path) else None
            # File names are <obj stem>_<texture name>.png: the longest texture name ending it.
            names = [t for t in sizes if file.upper().endswith("_" + t + ".PNG")]
            want = sizes[max(names, key=len)] if names else None
            if size is None or size != want:
                failures.append(f"{obj}: {file} is {size}, the Texm is {want}")
    print(f"assimp: {objs} textured OBJs, texture references as in their MTL")
    embedded = 0
    for glb, checks in glbs:
        doc, _ = load_gltf(glb)
        images = len(doc.get("images", []))
        info = run(["assimp", "info", glb, "--raw"]).stdout
        m = re.search(r"^Textures \(embed\.\):\s+(\d+)", info, re.M)
        if not m or int(m.group(1)) != images:
            failures.append(f"assimp {glb}: embedded textures {m and m.group(1)}, images {images}")
        embedded += images
    print(f"assimp: {len(glbs)} GLBs, {embedded} embedded textures seen")

for f in failures[:50]:
    print("FAIL:", f)
print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
sys.exit(1 if failures else 0)
