"""Blender 3.4 (headless, Eevee): what a map export looks like.

usage: blender -b --python blender_map_check.py -- OUT_DIR MAP.glb...
For each map: imports it; casts a ray down from above every draped-overlay triangle centre onto
the terrain (the distance must be 0..1 unit); renders the terrain alone from above (orthographic,
a uniform white world, no lamps: each pixel shows its texture's colour) to OUT_DIR/<map>.png and
compares its mean colour with the area-weighted mean of the terrain textures; then renders it again
with `Terrain_layer2` (layer 2 blended by the type-14 weights) and reports how it was imported
(alpha blending fed by the vertex colours, textured) and how much of the picture it changes.
Prints RESULT <json> per map.
"""
import json
import os
import sys

import numpy

numpy.bool = bool  # Debian 12's numpy and Blender 3.4's glTF importer
import bpy  # noqa: E402
from mathutils import Vector  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
out_dir, maps = args[0], args[1:]


def srgb(c):
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


for path in maps:
    name = os.path.splitext(os.path.basename(path))[0]
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    terrain = bpy.data.objects["Terrain"]
    draped = bpy.data.objects.get("ArealMap_draped")
    result = {"map": name}

    # Draped triangle centres: a ray down onto the terrain (world = local: no transforms).
    depsgraph = bpy.context.evaluated_depsgraph_get()
    heights, misses = [], 0
    if draped is not None:
        me = draped.data
        for poly in me.polygons:
            c = draped.matrix_world @ poly.center
            hit, loc, _n, _i = terrain.ray_cast(c + Vector((0, 0, 500)), Vector((0, 0, -1)),
                                                depsgraph=depsgraph)
            if hit:
                heights.append(c.z - loc.z)
            else:
                misses += 1
    inside = sum(1 for h in heights if 0 <= h <= 1)
    result["draped_triangles"] = len(heights) + misses
    result["draped_within_1"] = inside / max(1, len(heights) + misses)

    # Layer 2 as imported: blended, its alpha fed by the vertex colours (COLOR_0 = 1 - w14).
    layer2 = bpy.data.objects.get("Terrain_layer2")
    result["layer2_materials"] = []
    if layer2 is not None:
        for m in layer2.data.materials:
            bsdf = next(n for n in m.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
            feeds = {n.type for n in m.node_tree.nodes}
            result["layer2_materials"].append({
                "name": m.name, "blend": m.blend_method,
                "alpha_linked": bool(bsdf.inputs["Alpha"].links),
                "vertex_colour": "VERTEX_COLOR" in feeds,
                "textured": "TEX_IMAGE" in feeds})

    # The terrain alone, from above, textures as they are (then with layer 2 over it).
    for o in list(bpy.data.objects):
        if o.name not in ("Terrain", "Terrain_layer2"):
            bpy.data.objects.remove(o)
    if layer2 is not None:
        layer2.hide_render = True
    # Expected: the textures' mean colours weighted by each material's area.
    weights = {}
    for poly in terrain.data.polygons:
        mat = terrain.data.materials[poly.material_index]
        weights[mat.name] = weights.get(mat.name, 0) + poly.area
    expected = [0.0, 0.0, 0.0]
    total = sum(weights.values())
    for mname, w in weights.items():
        mat = bpy.data.materials[mname]
        image = next((n.image for n in mat.node_tree.nodes if n.type == "TEX_IMAGE"), None)
        if image is None:
            continue
        px = numpy.array(image.pixels[:]).reshape(-1, 4)
        mean = px[:, :3].mean(axis=0)  # stored (sRGB) values
        for c in range(3):
            expected[c] += mean[c] * w / total
    result["expected"] = [round(v * 255, 1) for v in expected]

    lo = Vector([min(v.co[i] for v in terrain.data.vertices) for i in range(3)])
    hi = Vector([max(v.co[i] for v in terrain.data.vertices) for i in range(3)])
    scene = bpy.context.scene
    cam = bpy.data.objects.new("cam", bpy.data.cameras.new("cam"))
    scene.collection.objects.link(cam)
    cam.data.type = "ORTHO"
    cam.data.ortho_scale = max(hi.x - lo.x, hi.y - lo.y) * 0.9  # inside the edges
    cam.location = ((lo.x + hi.x) / 2, (lo.y + hi.y) / 2, hi.z + 100)
    cam.data.clip_end = hi.z - lo.z + 1000
    scene.camera = cam
    world = bpy.data.worlds.new("white")
    world.color = (1, 1, 1)
    scene.world = world
    scene.render.engine = "BLENDER_EEVEE"
    scene.view_settings.view_transform = "Standard"  # sRGB out, no Filmic tone curve
    scene.render.resolution_x = scene.render.resolution_y = 256
    scene.render.filepath = os.path.join(out_dir, name + ".png")
    bpy.ops.render.render(write_still=True)
    render = bpy.data.images.load(scene.render.filepath)
    px = numpy.array(render.pixels[:]).reshape(-1, 4)
    result["render_mean"] = [round(float(v) * 255, 1) for v in px[:, :3].mean(axis=0)]
    if layer2 is not None:
        layer2.hide_render = False
        scene.render.filepath = os.path.join(out_dir, name + "_layer2.png")
        bpy.ops.render.render(write_still=True)
        px2 = numpy.array(bpy.data.images.load(scene.render.filepath).pixels[:]).reshape(-1, 4)
        changed = numpy.abs(px2[:, :3] - px[:, :3]).max(axis=1) > 3 / 255
        result["layer2_changed"] = float(changed.mean())
        # Where layer 2 shows, it blends: neither the ground below unchanged nor opaque layer 2.
        result["layer2_mean_change"] = round(float(numpy.abs(px2[changed, :3] - px[changed, :3])
                                                   .mean() * 255), 1) if changed.any() else 0
    print("RESULT", json.dumps(result))
