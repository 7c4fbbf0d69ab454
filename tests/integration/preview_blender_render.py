"""Blender 3.4 (headless, Eevee): renders a glTF with the camera and lights of a `mshconv preview`.

usage: blender -b --factory-startup --python preview_blender_render.py -- JOBS.json
JOBS.json: [{"name": ..., "model": M.glb|M.gltf, "metadata": M.json, "view": I, "out": OUT.png}, ...]
For each job: imports the model (at rest: a model with animations is imported from a copy without
them, as `preview` without --frame shows the nodes' own transforms, where Blender would show the
pose of frame 1); builds the camera of the metadata's view I (location = eye,
orientation from right/up/-forward, perspective focal length and lens shift from `focal` and
`principal`); two sun lamps in the world directions of the preview's camera-space key and fill
lights (strengths 0.75 pi and 0.3 pi: a white Lambert surface facing them reflects 0.75 and 0.3)
and a uniform world of 0.22 for the ambient term, no shadows, no specular; every material a plain
Lambert surface of its base colour (Principled: specular 0, roughness 1, metallic 0; the textures of
opaque materials with their alpha channel left out of the colour: Blender's default straight alpha
premultiplies it in, darkening texels whose alpha is not 255, where glTF ignores alpha on OPAQUE
materials); renders with
Eevee (film transparent, view transform Standard) to OUT.png at the view's size.
Also projects every vertex with Blender's own camera (world_to_camera_view) and with the
metadata's formula, and prints RESULT <json> per job: the largest difference in pixels between
the two and the pixel bounding box of the projected vertices.

Axes: the glTF importer turns glTF (x, y, z) into Blender (x, -z, y); the metadata is in glTF axes.
"""
import json
import math
import os
import struct
import sys

import numpy

numpy.bool = bool  # Debian 12's numpy and Blender 3.4's glTF importer
import bpy  # noqa: E402
from bpy_extras.object_utils import world_to_camera_view  # noqa: E402
from mathutils import Matrix, Vector  # noqa: E402

KEY = (-0.45, 0.6, 0.66)  # camera space: x right, y up, z towards the viewer
FILL = (0.6, -0.25, 0.76)
KEY_WEIGHT, FILL_WEIGHT, AMBIENT = 0.75, 0.3, 0.22


def to_blender(g):
    return Vector((g[0], -g[2], g[1]))


def to_gltf(b):
    return (b[0], b[2], -b[1])


def at_rest(path):
    """`path`, or a copy beside it without the animations when it has any."""
    data = open(path, "rb").read()
    glb = data[:4] == b"glTF"
    if glb:
        n = struct.unpack("<I", data[12:16])[0]
        doc, rest = json.loads(data[20:20 + n]), data[20 + n:]
    else:
        doc = json.loads(data)
    if "animations" not in doc:
        return path
    del doc["animations"]
    stem, ext = os.path.splitext(path)
    copy = stem + "_rest" + ext
    text = json.dumps(doc).encode()
    if glb:
        text += b" " * (-len(text) % 4)
        body = struct.pack("<I4s", len(text), b"JSON") + text + rest
        data = struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body
    else:
        data = text
    with open(copy, "wb") as f:
        f.write(data)
    return copy


def lambert_materials():
    for mat in bpy.data.materials:
        if not mat.use_nodes:
            continue
        for node in mat.node_tree.nodes:
            if node.type == "TEX_IMAGE" and node.image is not None and mat.blend_method == "OPAQUE":
                node.image.alpha_mode = "CHANNEL_PACKED"  # the colour as stored, alpha apart
            if node.type == "BSDF_PRINCIPLED":
                node.inputs["Specular"].default_value = 0.0
                node.inputs["Roughness"].default_value = 1.0
                node.inputs["Metallic"].default_value = 0.0
                for name in ("Sheen", "Clearcoat", "Transmission"):
                    node.inputs[name].default_value = 0.0
                for name in ("Metallic", "Roughness", "Specular"):  # no texture overrides either
                    for link in list(node.inputs[name].links):
                        mat.node_tree.links.remove(link)


def camera(scene, view):
    w, h = view["size"] if "size" in view else view["viewport"][2:4]
    right, up, fwd = (to_blender(view[k]) for k in ("right", "up", "forward"))
    cam = bpy.data.objects.new("preview_camera", bpy.data.cameras.new("preview_camera"))
    scene.collection.objects.link(cam)
    # Blender cameras look down their local -Z with +Y up: the columns are right, up, -forward.
    cam.matrix_world = Matrix.Translation(to_blender(view["eye"])) @ Matrix(
        [[right.x, up.x, -fwd.x], [right.y, up.y, -fwd.y], [right.z, up.z, -fwd.z]]).to_4x4()
    data = cam.data
    data.type = "PERSP"
    data.sensor_fit = "HORIZONTAL"  # the sensor width spans the image width ...
    data.sensor_width = 36.0
    data.lens = view["focal"] * data.sensor_width / w  # ... so focal (pixels) / w = lens / sensor
    cx, cy = view["principal"]
    # With a horizontal fit the shifts are in units of the image width; +x moves the frame right
    # (the axis shows left of centre), +y moves it up (the axis shows below centre; image y is down).
    data.shift_x = (w / 2 - cx) / w
    data.shift_y = (cy - h / 2) / w
    eye = to_blender(view["eye"])
    data.clip_start = 0.001
    data.clip_end = 100000.0
    scene.camera = cam
    scene.render.resolution_x, scene.render.resolution_y = w, h
    scene.render.resolution_percentage = 100
    scene.render.pixel_aspect_x = scene.render.pixel_aspect_y = 1
    return cam, (right, up, fwd, eye)


def lights(scene, basis):
    right, up, fwd, _eye = basis
    for name, v, weight in (("key", KEY, KEY_WEIGHT), ("fill", FILL, FILL_WEIGHT)):
        n = math.sqrt(sum(c * c for c in v))
        towards = (right * v[0] + up * v[1] - fwd * v[2]) / n  # from the surface to the light
        lamp = bpy.data.lights.new(name, "SUN")
        lamp.energy = weight * math.pi  # irradiance S: a Lambert surface reflects albedo S cos / pi
        lamp.use_shadow = False
        lamp.specular_factor = 0.0
        lamp.angle = 0.0
        obj = bpy.data.objects.new(name, lamp)
        scene.collection.objects.link(obj)
        obj.rotation_mode = "QUATERNION"
        obj.rotation_quaternion = towards.to_track_quat("Z", "Y")  # a sun shines down its -Z
    world = bpy.data.worlds.new("ambient")
    world.use_nodes = False
    world.color = (AMBIENT, AMBIENT, AMBIENT)  # uniform radiance L: a Lambert surface reflects albedo L
    scene.world = world


def projections(scene, cam, view, basis):
    """max |Blender's pixel - the metadata formula's pixel| and the formula's bounding box."""
    w, h = scene.render.resolution_x, scene.render.resolution_y
    cx, cy = view["principal"]
    f = view["focal"]
    right, up, fwd = (view[k] for k in ("right", "up", "forward"))
    eye = view["eye"]
    worst, lo, hi, count = 0.0, [1e30, 1e30], [-1e30, -1e30], 0
    depsgraph = bpy.context.evaluated_depsgraph_get()
    for obj in scene.objects:
        if obj.type != "MESH":
            continue
        mesh = obj.evaluated_get(depsgraph).to_mesh()
        for v in mesh.vertices:
            p = obj.matrix_world @ v.co
            ndc = world_to_camera_view(scene, cam, p)
            blender = (ndc.x * w, (1 - ndc.y) * h)
            d = [a - b for a, b in zip(to_gltf(p), eye)]
            xc, yc, zc = (sum(a * b for a, b in zip(d, axis)) for axis in (right, up, fwd))
            ours = (cx + f * xc / zc, cy - f * yc / zc)
            worst = max(worst, abs(blender[0] - ours[0]), abs(blender[1] - ours[1]))
            for i in range(2):
                lo[i], hi[i] = min(lo[i], ours[i]), max(hi[i], ours[i])
            count += 1
        obj.evaluated_get(depsgraph).to_mesh_clear()
    return {"vertices": count, "max_pixel_difference": worst, "bbox": [lo[0], lo[1], hi[0], hi[1]]}


for job in json.load(open(sys.argv[sys.argv.index("--") + 1])):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    bpy.ops.import_scene.gltf(filepath=at_rest(job["model"]))
    lambert_materials()
    view = json.load(open(job["metadata"]))["views"][job.get("view", 0)]
    cam, basis = camera(scene, view)
    lights(scene, basis)
    scene.render.engine = "BLENDER_EEVEE"
    scene.eevee.taa_render_samples = 64
    scene.eevee.use_bloom = scene.eevee.use_ssr = scene.eevee.use_gtao = False
    scene.render.film_transparent = True
    scene.render.dither_intensity = 0.0
    scene.view_settings.view_transform = "Standard"  # sRGB out, no Filmic tone curve
    scene.view_settings.look = "None"
    scene.view_settings.exposure = 0.0
    scene.view_settings.gamma = 1.0
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGBA"
    scene.render.image_settings.color_depth = "8"
    scene.render.filepath = job["out"]
    bpy.ops.render.render(write_still=True)
    result = {"name": job["name"]}
    result.update(projections(scene, cam, view, basis))
    print("RESULT", json.dumps(result), flush=True)
