# Blender 3.4 check of terrain exports (called by tests/test_terrain_export.cpp):
#   blender -b --factory-startup --python-exit-code 1 --python blender_terrain_check.py -- MAP.glb...
# Imports each mshconv terrain .glb into an empty scene (one Blender start for all) and checks: the terrain (`Terrain`) and the areal overlay
# (`ArealMap` with children `ArealMap_outlines` and `ArealMap_areas`) come in as separate
# objects; the terrain mesh has one vertex per face corner and every TEXCOORD set as a UV layer;
# the outlines are loose edges (LINES) and the filled areals have faces. Prints one
# "blender terrain check MAP.glb: OK" line per file (or FAIL lines) and
# "blender terrain check: OK, N files"; exits 1 on failure.
import json
import struct
import sys

import numpy

numpy.bool = bool  # Debian 12's numpy lacks the alias Blender 3.4's glTF importer uses
import bpy  # noqa: E402

glb_paths = sys.argv[sys.argv.index("--") + 1:]


def read_glb_json(path):
    data = open(path, "rb").read()
    magic, _version, _length = struct.unpack_from("<III", data, 0)
    assert magic == 0x46546C67, "not a GLB"
    chunk_len, _chunk_type = struct.unpack_from("<II", data, 12)
    return json.loads(data[20:20 + chunk_len])


def check_file(glb_path):
    gltf = read_glb_json(glb_path)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=glb_path)

    def check(cond, msg):
        if not cond:
            failures.append(msg)
            print(f"FAIL {glb_path}: {msg}")

    def gltf_mesh(name):
        for node in gltf["nodes"]:
            if node.get("name") == name and "mesh" in node:
                return gltf["meshes"][node["mesh"]]
        return None

    objects = bpy.data.objects
    terrain = objects.get("Terrain")
    overlay = objects.get("ArealMap")
    outlines = objects.get("ArealMap_outlines")
    areas = objects.get("ArealMap_areas")
    check(terrain is not None and terrain.type == "MESH", "no Terrain mesh object")
    check(overlay is not None, "no ArealMap object")
    check(outlines is not None and outlines.type == "MESH", "no ArealMap_outlines mesh object")
    check(areas is not None and areas.type == "MESH", "no ArealMap_areas mesh object")
    if terrain is not None and overlay is not None:
        check(terrain.parent is None, f"Terrain has parent {terrain.parent}")
        check(overlay.parent is None, f"ArealMap has parent {overlay.parent}")
        check(terrain != overlay, "terrain and overlay are one object")
    if outlines is not None and overlay is not None:
        check(outlines.parent == overlay, "ArealMap_outlines is not a child of ArealMap")
    if areas is not None and overlay is not None:
        check(areas.parent == overlay, "ArealMap_areas is not a child of ArealMap")
    if overlay is not None:
        check(abs(overlay.matrix_world.translation.z - 0.5) < 1e-6,
              f"ArealMap lift {overlay.matrix_world.translation.z}, expected 0.5")

    if terrain is not None and terrain.type == "MESH":
        mesh = gltf_mesh("Terrain")
        corners = sum(gltf["accessors"][p["indices"]]["count"] for p in mesh["primitives"])
        check(len(terrain.data.vertices) == corners,
              f"Terrain: {len(terrain.data.vertices)} vertices, expected {corners} (unshared)")
        check(len(terrain.data.polygons) * 3 == corners,
              f"Terrain: {len(terrain.data.polygons)} faces, expected {corners // 3}")
        check(len(terrain.data.uv_layers) == 4, f"Terrain: {len(terrain.data.uv_layers)} UV layers, expected 4")
        check(len(terrain.data.materials) == len(mesh["primitives"]),
              f"Terrain: {len(terrain.data.materials)} materials, expected {len(mesh['primitives'])}")
    if outlines is not None and outlines.type == "MESH":
        mesh = gltf_mesh("ArealMap_outlines")
        segments = sum(gltf["accessors"][p["indices"]]["count"] // 2 for p in mesh["primitives"])
        check(len(outlines.data.edges) == segments,
              f"ArealMap_outlines: {len(outlines.data.edges)} edges, expected {segments}")
        check(len(outlines.data.polygons) == 0, "ArealMap_outlines has faces")
    if areas is not None and areas.type == "MESH":
        mesh = gltf_mesh("ArealMap_areas")
        tris = sum(gltf["accessors"][p["indices"]]["count"] // 3 for p in mesh["primitives"])
        check(len(areas.data.polygons) == tris,
              f"ArealMap_areas: {len(areas.data.polygons)} faces, expected {tris}")



failures = []
for path in glb_paths:
    before = len(failures)
    check_file(path)
    print(f"blender terrain check {path}: {'OK' if len(failures) == before else 'FAILED'}")
ok = not failures and glb_paths
print(f"blender terrain check: {'OK, ' + str(len(glb_paths)) + ' files' if ok else str(len(failures)) + ' failures'}")
sys.exit(0 if ok else 1)
