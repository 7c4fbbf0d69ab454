"""One Blender 3.4 session with the Parkan add-on installed from its zip as a user does
(Preferences > Add-ons > Install, enable), then one step (run by blender_addon.py):

  blender -b --factory-startup --python THIS -- ZIP STEP ARGS...
  roundtrip FILE ENTRY         import the model, export it unchanged (to where it came from)
  edit FILE ENTRY              import, move the vertices of the first part, rename its first child
                               part to `renamed_part`, key its location at frame 5, export
  map LAND_MSH                 import the map, raise a hill in the terrain's middle, move one
                               areal corner, export
  copy FILE ENTRY NEW          import, export into the same archive as a new entry NEW
  badimport FILE               importing FILE must fail with mshconv's message
  failexport FILE ENTRY FAKE   import, then export with the preference pointing to FAKE (an
                               mshconv that fails): an error report with its message
  render FILE ENTRY OUT.png    import the textured model and render it with Eevee (docs picture)
  lodrender FILE ENTRY LOD GROUP OUT.png   the same with the import's LOD/group choice
  level DATA_TMA OUT.png|- [MOVE]  import a mission's level, measure its objects against the
                               ground, render its objects from above at an angle (not with -); with
                               MOVE, move and turn the first tree or rock and export; with KEEP,
                               export it unchanged
Prints RESULT <json> for the driver; exits 1 on an unexpected outcome.
"""
import json
import math
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
zip_path, step, rest = args[0], args[1], args[2:]
result = {}

bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)
bpy.ops.preferences.addon_enable(module="io_scene_parkan")
bpy.ops.wm.read_factory_settings(use_empty=True)
# read_factory_settings resets the add-ons: enable again (still installed in the user folder).
bpy.ops.preferences.addon_enable(module="io_scene_parkan")


def call(op, **kw):
    """Runs an operator; its ERROR report (Blender raises it as RuntimeError) is returned."""
    try:
        r = op(**kw)
        return "FINISHED" in r, ""
    except RuntimeError as e:
        return False, str(e)


def import_model(path, entry):
    ok, msg = call(bpy.ops.import_scene.parkan_model, filepath=path, entry=entry)
    if not ok:
        print("RESULT", json.dumps({"error": msg}))
        sys.exit(1)


def mesh_objects():
    return [o for o in bpy.data.objects if o.type == "MESH"]


def render_from(eye, centre, out, size, world_colour, clip_end=None):
    """An Eevee render of the scene from `eye` towards `centre`, lit by a sun, to `out`."""
    from mathutils import Vector
    scene = bpy.context.scene
    cam = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
    scene.collection.objects.link(cam)
    cam.location = eye
    cam.rotation_euler = (Vector(centre) - Vector(eye)).to_track_quat("-Z", "Y").to_euler()
    if clip_end:
        cam.data.clip_end = clip_end
    scene.camera = cam
    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
    sun.rotation_euler = (0.8, 0.2, 0.6)
    sun.data.energy = 3
    scene.collection.objects.link(sun)
    world = bpy.data.worlds.new("world")
    world.color = world_colour
    scene.world = world
    scene.render.engine = "BLENDER_EEVEE"
    scene.render.resolution_x, scene.render.resolution_y = size
    scene.render.filepath = out
    bpy.ops.render.render(write_still=True)


if step == "roundtrip":
    import_model(*rest[:2])
    result["hidden"] = sorted(o.name for o in bpy.data.objects if o.hide_get())
    result["frames"] = [bpy.context.scene.frame_start, bpy.context.scene.frame_end]
    ok, msg = call(bpy.ops.export_scene.parkan_model)
    result.update(ok=ok, message=msg)
elif step == "edit":
    import_model(*rest[:2])
    parts = [o for o in mesh_objects() if "@" not in o.name]
    first = parts[0]
    for v in first.data.vertices:
        v.co.x += 0.1
    child = next(o for o in parts if o.parent is not None)
    result["renamed_from"] = child.name
    child.name = "renamed_part"
    child.location.z += 0.5
    child.keyframe_insert("location", frame=5)
    ok, msg = call(bpy.ops.export_scene.parkan_model)
    result.update(ok=ok, message=msg, moved=first.name)
elif step == "map":
    ok, msg = call(bpy.ops.import_scene.parkan_map, filepath=rest[0])
    if not ok:
        print("RESULT", json.dumps({"error": msg}))
        sys.exit(1)
    terrain = bpy.data.objects["Terrain"]
    xs = [v.co.x for v in terrain.data.vertices]
    ys = [v.co.y for v in terrain.data.vertices]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    radius = (max(xs) - min(xs)) / 6
    zs = [v.co.z for v in terrain.data.vertices]
    height = max(zs) - min(zs) + 20  # the new summit is the map's highest point
    raised = 0
    for v in terrain.data.vertices:
        d = math.hypot(v.co.x - cx, v.co.y - cy)
        if d < radius:
            v.co.z += height * (1 - d / radius)
            raised += 1
    areas = bpy.data.objects["ArealMap_areas"]
    first = areas.data.vertices[0].co.copy()
    moved = 0
    for v in areas.data.vertices:  # every copy of that corner, as a user's merged move does
        if (v.co - first).length < 1e-5:
            v.co.x += 0.5
            moved += 1
    ok, msg = call(bpy.ops.export_scene.parkan_map)
    result.update(ok=ok, message=msg, raised=raised, areal_corners_moved=moved)
elif step == "copy":
    import_model(*rest[:2])
    ok, msg = call(bpy.ops.export_scene.parkan_model, filepath=rest[0], entry=rest[2])
    result.update(ok=ok, message=msg)
elif step == "badimport":
    ok, msg = call(bpy.ops.import_scene.parkan_model, filepath=rest[0])
    result.update(ok=ok, message=msg, objects=len(bpy.data.objects))
elif step == "failexport":
    import_model(*rest[:2])
    bpy.context.preferences.addons["io_scene_parkan"].preferences.mshconv_path = rest[2]
    ok, msg = call(bpy.ops.export_scene.parkan_model)
    result.update(ok=ok, message=msg)
elif step in ("render", "lodrender"):
    if step == "lodrender":  # FILE ENTRY LOD GROUP OUT.png: the import's slot choice
        ok, msg = call(bpy.ops.import_scene.parkan_model, filepath=rest[0], entry=rest[1],
                       lod=rest[2], group=rest[3])
        if not ok:
            print("RESULT", json.dumps({"error": msg}))
            sys.exit(1)
        out = rest[4]
    else:
        import_model(*rest[:2])
        out = rest[2]
    objs = [o for o in mesh_objects() if not o.hide_get()]
    result["visible"] = len(objs)
    result["objects"] = len(mesh_objects())
    corners = [o.matrix_world @ v.co for o in objs for v in o.data.vertices]
    lo = [min(c[i] for c in corners) for i in range(3)]
    hi = [max(c[i] for c in corners) for i in range(3)]
    centre = [(a + b) / 2 for a, b in zip(lo, hi)]
    size = max(b - a for a, b in zip(lo, hi))
    render_from((centre[0] + size * 1.5, centre[1] - size * 1.9, centre[2] + size * 1.1), centre,
                out, (640, 400), (0.25, 0.27, 0.3))
    result.update(ok=True)
elif step == "level":
    ok, msg = call(bpy.ops.import_scene.parkan_level, filepath=rest[0])
    if not ok:
        print("RESULT", json.dumps({"error": msg}))
        sys.exit(1)
    from mathutils import Vector
    objects = [o for o in bpy.data.objects
               if "mshconv_level" in o and "record" in o["mshconv_level"] and
               "kind" in o["mshconv_level"]]
    result["objects"] = len(objects)
    meshes = mesh_objects()
    result["mesh_objects"] = len(meshes)
    result["mesh_datablocks"] = len({o.data.name for o in meshes})
    result["hidden_parts"] = sum(1 for o in bpy.data.objects if o.hide_get())
    # Each building's origin against the ground under it (a ray down the Terrain).
    terrain = bpy.data.objects["Terrain"]
    inverse = terrain.matrix_world.inverted()
    gaps = []
    for o in objects:
        if o["mshconv_level"]["kind"] != "building":
            continue
        at = o.matrix_world.translation
        start = inverse @ Vector((at.x, at.y, at.z + 1000))
        hit, where, _, _ = terrain.ray_cast(start, Vector((0, 0, -1)))
        if hit:
            gaps.append(abs((terrain.matrix_world @ where).z - at.z))
    result["building_gaps"] = gaps
    if rest[1] != "-":
        # The objects framed from above at an angle, the areal overlay hidden: a picture of what
        # stands on the ground.
        scene = bpy.context.scene
        for o in bpy.data.objects:
            if o.name.startswith("ArealMap"):
                o.hide_render = True
        # Around the building with the most objects near it: the game's objects are small
        # beside a map a thousand units across.
        spots = [o.matrix_world.translation.copy() for o in objects]
        buildings = [o.matrix_world.translation.copy() for o in objects
                     if o["mshconv_level"]["kind"] == "building"] or spots
        centre = max(buildings, key=lambda p: sum((q - p).length < 70 for q in spots))
        size = 110.0
        render_from(centre + Vector((0, -size * 0.8, size * 0.6)), centre, rest[1], (960, 600),
                    (0.35, 0.4, 0.45), clip_end=size * 20)
        # The same view without the objects: what differs is what stands on the ground.
        root = bpy.data.objects["Objects"]
        stack = [root]
        while stack:
            o = stack.pop()
            o.hide_render = True
            stack.extend(o.children)
        scene.render.filepath = rest[1] + ".ground.png"
        bpy.ops.render.render(write_still=True)
    if len(rest) > 2 and rest[2] == "MOVE":
        tree = next(o for o in objects if o["mshconv_level"]["kind"] in ("vegetation", "rock"))
        tree.location.x += 6.0
        tree.rotation_mode = "XYZ"
        tree.rotation_euler.z += 0.4
        result["moved"] = {"name": tree.name, "record": tree["mshconv_level"]["record"]}
        ok, msg = call(bpy.ops.export_scene.parkan_level)
        result.update(ok=ok, message=msg)
    elif len(rest) > 2 and rest[2] == "KEEP":
        ok, msg = call(bpy.ops.export_scene.parkan_level)
        result.update(ok=ok, message=msg)
    else:
        result.update(ok=True)
else:
    sys.exit(f"unknown step {step}")

print("RESULT", json.dumps(result))
