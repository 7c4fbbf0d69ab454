"""Blender 3.4: every textured material of exported models arrives with its image.

usage: blender -b --python blender_texture_check.py -- EXPECT.json
EXPECT.json: [{"file": PATH.glb|.gltf, "checks": [{"material": NAME, "image": IMAGE_NAME,
"width": W, "height": H, "slot": "base_color"|"occlusion", "uv": N, "rgb": [R, G, B]}, ...]},
...] ("uv", "rgb": optional; rgb is the image's mean colour, 0..1 as stored)

For each file (imported into an empty scene): each listed material exists, its node tree has an
Image Texture node whose image is loaded (pixels present, not Blender's missing-image stand-in)
with the expected size, wired to the expected input: Base Color of the Principled BSDF, or the
Occlusion input of the importer's "glTF Settings"/"glTF Material Output" group; and when "uv" is
given, the texture reads the UV map the importer made from TEXCOORD_<uv> (UV maps are created in
set order: TEXCOORD_n is the mesh's n-th UV layer).
"""
import json
import sys

import numpy

numpy.bool = bool  # Debian 12's numpy and Blender 3.4's glTF importer

import bpy  # noqa: E402

expect_path = sys.argv[sys.argv.index("--") + 1]
files = json.load(open(expect_path))
failures = []
checked = 0


def fail(msg):
    failures.append(msg)
    print("FAIL", msg)


def upstream(socket):
    """The node feeding an input socket, looking through reroutes."""
    if not socket.is_linked:
        return None
    node = socket.links[0].from_node
    while node.type == "REROUTE" and node.inputs[0].is_linked:
        node = node.inputs[0].links[0].from_node
    return node


def image_node_for(mat, slot):
    nodes = mat.node_tree.nodes
    if slot == "base_color":
        for n in nodes:
            if n.type == "BSDF_PRINCIPLED":
                src = upstream(n.inputs["Base Color"])
                # The importer may put a Mix (vertex colour / factor) node in between.
                while src is not None and src.type != "TEX_IMAGE" and len(src.inputs):
                    linked = [i for i in src.inputs if i.is_linked]
                    src = upstream(linked[0]) if linked else None
                return src if src is not None and src.type == "TEX_IMAGE" else None
        return None
    for n in nodes:  # occlusion: the glTF settings group's Occlusion input
        if n.type == "GROUP" and "Occlusion" in n.inputs:
            src = upstream(n.inputs["Occlusion"])
            while src is not None and src.type != "TEX_IMAGE" and len(src.inputs):
                linked = [i for i in src.inputs if i.is_linked]
                src = upstream(linked[0]) if linked else None
            return src if src is not None and src.type == "TEX_IMAGE" else None
    return None


for entry in files:
    path = entry["file"]
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    for want in entry["checks"]:
        name = want["material"]
        checked += 1
        mat = bpy.data.materials.get(name)
        where = f"{path}: material {name} ({want.get('slot', 'base_color')})"
        if mat is None or not mat.use_nodes:
            fail(f"{where}: not imported (materials: {[m.name for m in bpy.data.materials]})")
            continue
        slot = want.get("slot", "base_color")
        node = image_node_for(mat, slot)
        if node is None or node.image is None:
            fail(f"{where}: no Image Texture node on {slot}")
            continue
        img = node.image
        # Loading the pixels proves the data is there (a missing file gives a stand-in with no data).
        pixels = len(img.pixels)
        if not img.has_data or pixels != want["width"] * want["height"] * img.channels:
            fail(f"{where}: image {img.name} not loaded (has_data {img.has_data}, {pixels} values)")
            continue
        if tuple(img.size) != (want["width"], want["height"]):
            fail(f"{where}: image {img.name} is {tuple(img.size)}, expected "
                 f"{(want['width'], want['height'])}")
        if want.get("image") and not img.name.startswith(want["image"]) and \
                want["image"] not in (img.filepath or ""):
            fail(f"{where}: image {img.name} ({img.filepath}), expected {want['image']}")
        if "rgb" in want:  # the mean colour of the image (16-bit stored: within 0.02)
            values = list(img.pixels)
            n = len(values) // img.channels
            mean = [sum(values[c::img.channels]) / n for c in range(3)]
            if any(abs(m - w) > 0.02 for m, w in zip(mean, want["rgb"])):
                fail(f"{where}: image {img.name} mean colour {[round(m, 3) for m in mean]}, "
                     f"expected {want['rgb']}")
        if "uv" in want:
            mapping = upstream(node.inputs["Vector"])
            uv_name = mapping.uv_map if mapping is not None and mapping.type == "UVMAP" else None
            meshes = [o.data for o in bpy.data.objects if o.type == "MESH" and
                      any(s.material == mat for s in o.material_slots)]
            layers = [l.name for l in meshes[0].uv_layers] if meshes else []
            want_uv = layers[want["uv"]] if want["uv"] < len(layers) else None
            # No UV Map node means UV map 0 in Blender.
            got = uv_name if uv_name is not None else (layers[0] if layers else None)
            if want_uv is None or got != want_uv:
                fail(f"{where}: {slot} texture reads UV map {got}, expected {want_uv} "
                     f"(TEXCOORD_{want['uv']}; layers {layers})")

print(f"blender texture check: {checked} materials, {len(failures)} failures")
sys.exit(1 if failures else 0)
