# Blender 3.4 round trip (run by consumers.py, and the settings README tells modders to use):
#   blender -b --factory-startup --python-exit-code 1 --python blender_roundtrip.py -- IN.glb OUT.glb [EDIT]
# Imports an mshconv export and exports it again as GLB with custom properties on (node extras
# carry the node identity), animation sampling off (keys stay exactly where they were) and every
# UV set kept (TEXCOORD_1 carries the vertex identity). EDIT (optional) changes the scene first:
#   move:NAME   moves the first vertex of object NAME by +0.25 on Blender's X axis
#   rename:OLD:NEW   renames object OLD
import sys

import numpy

numpy.bool = bool  # Debian 12's numpy lacks the alias Blender 3.4's glTF add-on uses
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
