# Models as a Blender 3.4 user makes them, exported with the DEFAULT glTF and OBJ settings, for the
# import test (tests/integration/blender_foreign.py). Writes SCENE.glb, SCENE.obj (+ .mtl, PNGs)
# and reference.json: per scene, Blender's own world-space vertices (in glTF axes: x, z, -y), the
# area per material, the animated objects. Run: blender -b --factory-startup --python THIS -- DIR
import numpy

numpy.bool = bool  # Blender 3.4's glTF add-on uses the removed alias

import json
import math
import os
import sys

import bmesh
import bpy
from mathutils import Vector

out_dir = sys.argv[-1]
reference = {}


def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = 24
    bpy.context.scene.frame_start = 1
    bpy.context.scene.frame_end = 24


def cube(name, location, scale=(1, 1, 1), rotation=(0, 0, 0), parent=None):
    bpy.ops.mesh.primitive_cube_add(size=1, location=location, rotation=rotation, scale=scale)
    o = bpy.context.active_object
    o.name = name
    if parent:
        o.parent = parent
        o.matrix_parent_inverse = parent.matrix_world.inverted()
    return o


def gltf_axes(v):
    return [v.x, v.z, -v.y]


def record(name, animated=()):
    bpy.context.scene.frame_set(bpy.context.scene.frame_start)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    vertices, areas = [], {}
    for o in bpy.context.scene.objects:
        if o.type != 'MESH':
            continue
        e = o.evaluated_get(depsgraph)
        mesh = e.to_mesh()
        w = e.matrix_world
        vertices += [gltf_axes(w @ v.co) for v in mesh.vertices]
        mesh.calc_loop_triangles()
        for t in mesh.loop_triangles:
            a, b, c = (w @ mesh.vertices[i].co for i in t.vertices)
            slot = o.material_slots[t.material_index].name if o.material_slots else ""
            areas[slot] = areas.get(slot, 0.0) + (b - a).cross(c - a).length / 2
        e.to_mesh_clear()
    reference[name] = {"vertices": vertices, "areas": areas, "animated": list(animated)}


def export(name, obj=True):
    bpy.ops.export_scene.gltf(filepath=os.path.join(out_dir, name + ".glb"))  # defaults
    if obj:
        bpy.ops.wm.obj_export(filepath=os.path.join(out_dir, name + ".obj"))  # defaults


# 1. A hierarchy with non-uniform and inherited scale, rotations and a mirrored part.
reset()
body = cube("body", (0, 0, 1), scale=(2, 1, 0.5), rotation=(0, 0, math.radians(30)))
arm = cube("arm", (2, 1, 2), scale=(0.5, 3, 1), rotation=(math.radians(20), 0, 0), parent=body)
cube("hand", (2, 4, 3), rotation=(0, math.radians(45), 0), parent=arm)
cube("mirrored", (-3, 0, 0), scale=(-1, 1, 1))
record("hierarchy")
export("hierarchy")

# 2. Object animation on several objects (default Bezier keys; the exporter samples them).
reset()
movers = []
for i in range(3):
    o = cube(f"mover{i}", (i * 3, 0, 0))
    o.keyframe_insert("location", frame=1)
    o.location.z += 2 + i
    o.keyframe_insert("location", frame=24)
    o.rotation_euler.z = math.radians(90 * (i + 1))
    o.keyframe_insert("rotation_euler", frame=24)
    movers.append(o.name)
cube("still", (0, 5, 0))
record("animated", movers)
export("animated", obj=False)

# 3. An armature with rigid weights: two bones, each vertex weighs 1 on one bone.
reset()
bpy.ops.object.armature_add(location=(0, 0, 0))
rig = bpy.context.active_object
rig.name = "rig"
bpy.ops.object.mode_set(mode='EDIT')
root = rig.data.edit_bones[0]
root.name = "lower"
root.head, root.tail = (0, 0, 0), (0, 0, 1)
upper = rig.data.edit_bones.new("upper")
upper.head, upper.tail, upper.parent = (0, 0, 1), (0, 0, 2), root
bpy.ops.object.mode_set(mode='OBJECT')
bpy.ops.mesh.primitive_cube_add(size=1, location=(0, 0, 0.5))
low = bpy.context.active_object
bpy.ops.mesh.primitive_cube_add(size=1, location=(0, 0, 1.5))
high = bpy.context.active_object
for o, bone in ((low, "lower"), (high, "upper")):
    group = o.vertex_groups.new(name=bone)
    group.add([v.index for v in o.data.vertices], 1.0, 'REPLACE')
bpy.ops.object.select_all(action='DESELECT')
low.select_set(True)
high.select_set(True)
bpy.context.view_layer.objects.active = low
bpy.ops.object.join()
skinned = bpy.context.active_object
skinned.name = "skinned"
skinned.parent = rig
modifier = skinned.modifiers.new("Armature", 'ARMATURE')
modifier.object = rig
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode='POSE')
pose = rig.pose.bones["upper"]
pose.rotation_mode = 'XYZ'
pose.keyframe_insert("rotation_euler", frame=1)
pose.rotation_euler.x = math.radians(60)
pose.keyframe_insert("rotation_euler", frame=24)
bpy.ops.object.mode_set(mode='OBJECT')
record("armature", ["upper"])
export("armature", obj=False)

# 4. A concave n-gon (an L with a notch), kept as one polygon by the OBJ exporter's defaults.
reset()
mesh = bpy.data.meshes.new("ngon")
bm = bmesh.new()
outline = [(0, 0), (4, 0), (4, 1), (1.5, 1), (1.5, 3), (3, 3), (3, 4), (0, 4)]
verts = [bm.verts.new((x, y, 0.1 * (k % 2))) for k, (x, y) in enumerate(outline)]
bm.faces.new(verts)
bm.to_mesh(mesh)
bm.free()
ngon = bpy.data.objects.new("ngon", mesh)
bpy.context.scene.collection.objects.link(ngon)
record("ngon")
export("ngon")

# 5. One mesh that exports as more than 65,535 vertices (flat shading: 4 per quad) and fewer than
# 65,536 triangles (the MSH limit).
reset()
bpy.ops.mesh.primitive_grid_add(x_subdivisions=131, y_subdivisions=131, size=20)
grid = bpy.context.active_object
grid.name = "grid"
for v in grid.data.vertices:
    v.co.z = 0.3 * math.sin(v.co.x) * math.cos(v.co.y)
for p in grid.data.polygons:
    p.use_smooth = False
record("big")
export("big", obj=False)

# 6. A textured model with two materials (image textures saved as PNG beside the files).
reset()
textured = cube("crate", (0, 0, 0))
for k, colour in enumerate(((0.8, 0.2, 0.1, 1), (0.1, 0.3, 0.9, 1))):
    image = bpy.data.images.new(f"paint{k}", 8, 8)
    image.pixels = list(colour) * 64
    image.filepath_raw = os.path.join(out_dir, f"paint{k}.png")
    image.file_format = 'PNG'
    image.save()
    material = bpy.data.materials.new(f"paint{k}")
    material.use_nodes = True
    node = material.node_tree.nodes.new('ShaderNodeTexImage')
    node.image = image
    bsdf = material.node_tree.nodes["Principled BSDF"]
    material.node_tree.links.new(node.outputs["Color"], bsdf.inputs["Base Color"])
    textured.data.materials.append(material)
for p in textured.data.polygons:
    p.material_index = 1 if p.index % 2 else 0
record("textured")
export("textured")

with open(os.path.join(out_dir, "reference.json"), "w") as f:
    json.dump(reference, f)
print("blender foreign scenes: " + ", ".join(sorted(reference)))
