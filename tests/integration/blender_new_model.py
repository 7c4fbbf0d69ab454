# Blender-made input for the no-sidecar import test (tests/test_new_model.cpp): two parented cubes,
# the child keyframed (LINEAR rotation about Z at frames 0, 12, 24), exported as GLB without
# sampling. Run: blender -b --factory-startup --python blender_new_model.py -- OUT.glb
import numpy

numpy.bool = bool  # Blender 3.4's glTF add-on uses the removed alias

import math
import sys

import bpy

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 24
scene.frame_start = 0
scene.frame_end = 24
bpy.ops.mesh.primitive_cube_add(size=2, location=(0, 0, 0))
base = bpy.context.active_object
base.name = "base"
bpy.ops.mesh.primitive_cube_add(size=1, location=(0, 0, 2))
top = bpy.context.active_object
top.name = "top"
top.parent = base
top.location = (0, 0, 2)
top.rotation_mode = 'QUATERNION'
for frame, angle in ((0, 0.0), (12, 90.0), (24, 180.0)):
    half = math.radians(angle) / 2
    top.rotation_quaternion = (math.cos(half), 0, 0, math.sin(half))
    top.keyframe_insert(data_path="rotation_quaternion", frame=frame)
for fc in top.animation_data.action.fcurves:
    for kp in fc.keyframe_points:
        kp.interpolation = 'LINEAR'
bpy.ops.export_scene.gltf(filepath=sys.argv[-1], export_format='GLB',
                          export_force_sampling=False, export_animations=True)
