# Blender 3.4 round trip (run by consumers.py, and the settings README tells modders to use):
#   blender -b --factory-startup --python-exit-code 1 --python blender_roundtrip.py -- IN.glb OUT.glb [EDIT]
# Imports an mshconv export and exports it again as GLB with custom properties on (node extras
# carry the node identity), animation sampling off (keys stay exactly where they were) and every
# UV set kept (TEXCOORD_1 carries the vertex identity). EDIT (optional) changes the scene first:
#   move:NAME   moves the first vertex of object NAME by +0.25 on Blender's X axis
#   rename:OLD:NEW   renames object OLD
#   delete:NAME     deletes the first face of object NAME
#   poke:NAME       pokes the first face of NAME (a new centre vertex, three triangles for one)
#   seam:NAME       moves the UV of one corner of NAME's first face (a new UV seam)
#   addpart:NAME    adds a cube object "NewPart" parented to NAME, with NAME's first material
#   removepart:NAME deletes object NAME
import sys

import numpy

numpy.bool = bool  # Debian 12's numpy lacks the alias Blender 3.4's glTF add-on uses
import bmesh  # noqa: E402
import bpy  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
src, dst = args[0], args[1]
edit = args[2] if len(args) > 2 else ""

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)

if edit.startswith("move:"):
    obj = bpy.data.objects[edit[5:]]
    obj.data.vertices[0].co.x += 0.25
elif edit.startswith("rename:"):
    _, old, new = edit.split(":")
    bpy.data.objects[old].name = new
elif edit.startswith(("delete:", "poke:")):
    op, name = edit.split(":", 1)
    me = bpy.data.objects[name].data
    bm = bmesh.new()
    bm.from_mesh(me)
    bm.faces.ensure_lookup_table()
    if op == "delete":
        bmesh.ops.delete(bm, geom=[bm.faces[0]], context="FACES_ONLY")
    else:
        bmesh.ops.poke(bm, faces=[bm.faces[0]])
    bm.to_mesh(me)
    bm.free()
elif edit.startswith("seam:"):
    me = bpy.data.objects[edit[5:]].data
    loop = me.polygons[0].loop_indices[0]
    me.uv_layers[0].data[loop].uv.x += 0.5
elif edit.startswith("addpart:"):
    parent = bpy.data.objects[edit[8:]]
    bpy.ops.mesh.primitive_cube_add(size=0.5, location=(0.0, 0.0, 0.0))
    cube = bpy.context.active_object
    cube.name = "NewPart"
    cube.parent = parent
    cube.data.materials.append(parent.data.materials[0])
elif edit.startswith("removepart:"):
    bpy.data.objects.remove(bpy.data.objects[edit[11:]], do_unlink=True)

bpy.ops.export_scene.gltf(
    filepath=dst,
    export_format="GLB",
    export_extras=True,            # custom properties: node identity and header fields
    export_texcoords=True,         # every UV set, TEXCOORD_1 = vertex identity
    export_normals=True,
    export_materials="EXPORT",
    export_yup=True,
    export_apply=False,
    export_animations=True,
    export_force_sampling=False,   # keep the keys, do not bake every frame
    export_optimize_animation_size=False,
    export_current_frame=False,
)
print("blender round trip written:", dst)
