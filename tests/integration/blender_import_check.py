# Blender 3.4 integration check (run by tests/integration/blender.sh):
#   blender -b --factory-startup --python-exit-code 1 --python blender_import_check.py -- MODEL.glb INFO.json
# Imports an mshconv glTF export and checks it against `mshconv info --json` of the source model:
# the object tree equals the node tree, every node's vertex count matches the glTF, and each
# animated node's action has one keyframe per MSH key on location and rotation.
import json
import struct
import sys

import numpy

numpy.bool = bool  # Debian 12's numpy lacks the alias Blender 3.4's glTF importer uses
import bpy  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
glb_path, info_path = args[0], args[1]
info = json.load(open(info_path))["model"]


def read_glb_json(path):
    data = open(path, "rb").read()
    magic, _version, _length = struct.unpack_from("<III", data, 0)
    assert magic == 0x46546C67, "not a GLB"
    chunk_len, _chunk_type = struct.unpack_from("<II", data, 12)
    return json.loads(data[20:20 + chunk_len])


gltf = read_glb_json(glb_path)
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=glb_path)

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


nodes = info["nodes"]
names = [gltf["nodes"][i]["name"] for i in range(len(nodes))]
objects = bpy.data.objects
for i, node in enumerate(nodes):
    obj = objects.get(names[i])
    check(obj is not None, f"node {i} '{names[i]}' has no Blender object")
    if obj is None:
        continue
    parent = node["parent"]
    expected_parent = names[parent] if parent is not None else None
    actual_parent = obj.parent.name if obj.parent else None
    check(actual_parent == expected_parent, f"'{names[i]}': parent {actual_parent}, expected {expected_parent}")
    mesh_index = gltf["nodes"][i].get("mesh")
    if mesh_index is not None:
        expected_vertices = sum(gltf["accessors"][p["attributes"]["POSITION"]]["count"]
                                for p in gltf["meshes"][mesh_index]["primitives"])
        check(obj.type == "MESH", f"'{names[i]}' is {obj.type}, expected MESH")
        if obj.type == "MESH":
            check(len(obj.data.vertices) == expected_vertices,
                  f"'{names[i]}': {len(obj.data.vertices)} vertices, expected {expected_vertices}")
    if node["animated"]:
        action = obj.animation_data.action if obj.animation_data else None
        check(action is not None, f"'{names[i]}' is animated but has no action")
        if action is None:
            continue
        for path in ("location", "rotation_quaternion"):
            curves = [c for c in action.fcurves if c.data_path == path]
            check(len(curves) > 0, f"'{names[i]}': no {path} curves")
            for c in curves:
                check(len(c.keyframe_points) == node["keys"],
                      f"'{names[i]}' {path}[{c.array_index}]: {len(c.keyframe_points)} keys, expected {node['keys']}")

mesh_objects = sum(1 for o in objects if o.type == "MESH")
expected_meshes = sum(1 for n in gltf["nodes"] if "mesh" in n)
check(mesh_objects == expected_meshes, f"{mesh_objects} mesh objects, expected {expected_meshes}")
print(f"blender check: {len(nodes)} nodes, {mesh_objects} mesh objects, "
      f"{sum(1 for n in nodes if n['animated'])} animated, {len(failures)} failures")
for f in failures[:40]:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
