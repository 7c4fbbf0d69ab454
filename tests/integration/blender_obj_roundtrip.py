# Blender 3.4 OBJ round trip (run by consumers.py):
#   blender -b --factory-startup --python-exit-code 1 --python blender_obj_roundtrip.py -- IN.obj OUT.obj [delete]
# Imports an mshconv OBJ and exports it with Blender's default OBJ settings (6 decimals, its own
# vertex order, no groups, triangulated). `delete` removes the first face of the first object.
import sys

import bmesh
import bpy

args = sys.argv[sys.argv.index("--") + 1:]
src, dst = args[0], args[1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.wm.obj_import(filepath=src)
if len(args) > 2 and args[2] == "delete":
    obj = next(o for o in bpy.data.objects if o.type == "MESH")
    bm = bmesh.new()
    bm.from_mesh(obj.data)
    bm.faces.ensure_lookup_table()
    bmesh.ops.delete(bm, geom=[bm.faces[0]], context="FACES_ONLY")
    bm.to_mesh(obj.data)
    bm.free()
bpy.ops.wm.obj_export(filepath=dst, export_materials=True, export_triangulated_mesh=True)
print("blender obj round trip written:", dst)
