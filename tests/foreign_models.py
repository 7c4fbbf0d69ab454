#!/usr/bin/env python3
"""Models made by other tools (issue 12), through the command line.

glTF and OBJ files written the way Blender, public sample sets and hand tools write them — node
matrices, scaled and mirrored node trees, triangle strips and fans, several animations, constant
scale channels, concave OBJ polygons, '+' numbers — are imported as new models (no sidecar). The
result is exported again to OBJ (world positions at rest) or glTF (keys) and compared with what
the input file means, computed here from the glTF 2.0 rules: every triangle at its world place,
with its winding.

usage: foreign_models.py BUILD_DIR
"""
import base64
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import Checks, obj_triangles, sample_corpus, triangle_area  # noqa: E402

build_dir = os.path.abspath(sys.argv[1])
mshconv = os.path.join(build_dir, "mshconv")
work = tempfile.mkdtemp(prefix="foreign_models_")
checks = Checks(mshconv)
check, run, failures = checks.check, checks.run, checks.failures


def path(name):
    return os.path.join(work, name)


# ---- glTF writing (embedded buffer) ----

def gltf(nodes, meshes, animations=(), name="model.gltf", edit=None):
    """meshes: list of lists of (positions, indices or None, mode). `edit(doc, add)` changes the
    document before it is written (`add(values, fmt, componentType, type, count)` appends data)."""
    buf = bytearray()
    views, accessors = [], []

    def add(values, fmt, component, kind, count, minmax=None):
        while len(buf) % 4:
            buf.append(0)
        offset = len(buf)
        buf.extend(struct.pack("<" + fmt * len(values), *values))
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(buf) - offset})
        a = {"bufferView": len(views) - 1, "componentType": component, "count": count, "type": kind}
        if minmax:
            a["min"], a["max"] = minmax
        accessors.append(a)
        return len(accessors) - 1

    out_meshes = []
    for prims in meshes:
        out = []
        for pos, idx, mode in prims:
            flat = [c for p in pos for c in p]
            bounds = ([min(p[i] for p in pos) for i in range(3)],
                      [max(p[i] for p in pos) for i in range(3)])
            prim = {"attributes": {"POSITION": add(flat, "f", 5126, "VEC3", len(pos), bounds)},
                    "mode": mode}
            if idx is not None:
                prim["indices"] = add(idx, "I", 5125, "SCALAR", len(idx))
            out.append(prim)
        out_meshes.append({"primitives": out})
    out_animations = []
    for an in animations:
        samplers, channels = [], []
        for node, target, times, values in an["channels"]:
            t = add(times, "f", 5126, "SCALAR", len(times), ([min(times)], [max(times)]))
            width = len(values[0])
            v = add([c for x in values for c in x], "f", 5126, "VEC%d" % width, len(values))
            samplers.append({"input": t, "output": v})
            channels.append({"sampler": len(samplers) - 1,
                             "target": {"node": node, "path": target}})
        out_animations.append({"name": an["name"], "samplers": samplers, "channels": channels})
    children = {c for n in nodes for c in n.get("children", [])}
    doc = {"asset": {"version": "2.0", "generator": "foreign_models.py"}, "scene": 0,
           "scenes": [{"nodes": [i for i in range(len(nodes)) if i not in children]}],
           "nodes": nodes, "meshes": out_meshes, "accessors": accessors, "bufferViews": views,
           "buffers": [{"byteLength": len(buf), "uri": "data:application/octet-stream;base64,"
                        + base64.b64encode(bytes(buf)).decode()}]}
    if out_animations:
        doc["animations"] = out_animations
    if edit:
        edit(doc, add)
        doc["buffers"][0] = {"byteLength": len(buf), "uri": "data:application/octet-stream;base64,"
                             + base64.b64encode(bytes(buf)).decode()}
    with open(path(name), "w") as f:
        json.dump(doc, f)
    return path(name)


# ---- 4x4 column-major matrices as glTF defines node transforms ----

def mat_mul(a, b):
    return [sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4)) for c in range(4) for r in range(4)]


def trs(node):
    if "matrix" in node:
        return list(node["matrix"])
    t = node.get("translation", [0, 0, 0])
    x, y, z, w = node.get("rotation", [0, 0, 0, 1])
    s = node.get("scale", [1, 1, 1])
    r = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
         2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
         2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]
    m = [0.0] * 16
    for c in range(3):
        for r_ in range(3):
            m[c * 4 + r_] = r[c * 3 + r_] * s[c]
    m[12:15] = t
    m[15] = 1
    return m


def apply(m, p):
    return tuple(m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] for r in range(3))


def determinant(m):
    return (m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
            m[8] * (m[1] * m[6] - m[5] * m[2]))


def world_triangles(nodes, meshes):
    """Triangles in world space, front face counter-clockwise: a node whose world transform
    mirrors (negative determinant) shows its triangles' other side as front (glTF 2.0 §3.7.4)."""
    parent = {c: i for i, n in enumerate(nodes) for c in n.get("children", [])}

    def world(i):
        m = trs(nodes[i])
        return mat_mul(world(parent[i]), m) if i in parent else m

    tris = []
    for i, n in enumerate(nodes):
        if "mesh" not in n:
            continue
        w = world(i)
        for pos, idx, mode in meshes[n["mesh"]]:
            assert mode == 4
            order = (0, 2, 1) if determinant(w) < 0 else (0, 1, 2)
            for k in range(0, len(idx), 3):
                tris.append(tuple(apply(w, pos[idx[k + j]]) for j in order))
    return tris


def same_triangles(a, b, tolerance=2e-3):
    """The same triangles with the same winding (each corner within `tolerance`), in any order."""
    if len(a) != len(b):
        return False
    rotations = lambda t: [t, t[1:] + t[:1], t[2:] + t[:2]]
    close = lambda s, t: all(abs(p[i] - q[i]) <= tolerance for p, q in zip(s, t) for i in range(3))
    left = [tuple(t) for t in b]
    for t in a:
        for k, u in enumerate(left):
            if any(close(r, u) for r in rotations(tuple(t))):
                del left[k]
                break
        else:
            return False
    return True


def area(tris):
    return sum(map(triangle_area, tris))


def import_and_reexport(src, stem, *extra):
    msh = path(stem + ".msh")
    r = run("convert", src, msh, *extra)
    if r.returncode != 0:
        return r, None
    obj = path(stem + ".obj")
    e = run("convert", msh, obj, "--quiet")
    assert e.returncode == 0, e.stderr
    return r, obj_triangles(obj)


# A box-like solid (two quads) to place in the trees below.
PLATE = ([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1)],
         [0, 1, 2, 0, 2, 3, 0, 4, 5, 0, 5, 1], 4)


def rotation(axis, degrees):
    h = math.radians(degrees) / 2
    return [a * math.sin(h) for a in axis] + [math.cos(h)]


# ---- node matrices, scale, shear and mirrors baked into the geometry ----

def test_transforms():
    shear = [2, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 0.5, 0, 3, -1, 2, 1]  # scale + shear + translation
    cases = {
        "matrix": [{"name": "m", "mesh": 0,
                    "matrix": mat_mul(trs({"translation": [5, 0, 0],
                                           "rotation": rotation([0, 1, 0], 30)}),
                                      trs({"scale": [2, 2, 2]}))}],
        "shear": [{"name": "s", "mesh": 0, "matrix": shear, "children": [1]},
                  {"name": "c", "mesh": 0, "translation": [1, 2, 3]}],
        "nonuniform_tree": [
            {"name": "root", "mesh": 0, "scale": [2, 1, 0.5],
             "rotation": rotation([0, 0, 1], 40), "children": [1]},
            {"name": "arm", "mesh": 0, "translation": [1, 1, 0],
             "rotation": rotation([1, 0, 0], 70), "scale": [1, 3, 1], "children": [2]},
            {"name": "hand", "mesh": 0, "translation": [0, 1, 1]}],
        "mirror": [{"name": "left", "mesh": 0, "scale": [-1, 1, 1], "translation": [-2, 0, 0]},
                   {"name": "right", "mesh": 0, "translation": [2, 0, 0]}],
    }
    for name, nodes in cases.items():
        src = gltf(nodes, [[PLATE]], name=name + ".gltf")
        r, got = import_and_reexport(src, name)
        check(r.returncode == 0, f"{name}: imported (exit {r.returncode}) {r.stderr.strip()}")
        if got is None:
            continue
        want = world_triangles(nodes, [[PLATE]])
        check(same_triangles(got, want),
              f"{name}: every triangle at its world place with its winding ({len(got)} vs {len(want)})")
        check("scale" not in r.stderr and "matrix" not in r.stderr,
              f"{name}: no warning for what is baked exactly")


def reexported_channel(msh, node_name, target):
    gl = path("keys.gltf")
    r = run("convert", msh, gl, "--quiet")
    assert r.returncode == 0, r.stderr
    doc = json.load(open(gl))
    binary = open(os.path.join(work, doc["buffers"][0]["uri"]), "rb").read()

    def floats(a):
        acc = doc["accessors"][a]
        view = doc["bufferViews"][acc["bufferView"]]
        n = acc["count"] * {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[acc["type"]]
        return struct.unpack_from("<%df" % n, binary, view.get("byteOffset", 0) + acc.get("byteOffset", 0))

    node = next(i for i, n in enumerate(doc["nodes"]) if n.get("name") == node_name)
    for an in doc.get("animations", []):
        for ch in an["channels"]:
            if ch["target"].get("node") == node and ch["target"]["path"] == target:
                s = an["samplers"][ch["sampler"]]
                return floats(s["input"]), floats(s["output"])
    return None, None


def test_animation():
    nodes = [{"name": "body", "mesh": 0, "scale": [2, 2, 2], "children": [1]},
             {"name": "gun", "mesh": 0, "translation": [0, 1, 0]},
             {"name": "wheel", "mesh": 0, "translation": [4, 0, 0]}]
    # Blender's default export: one animation per animated object, a constant scale sampled along.
    anims = [{"name": "gunAction", "channels": [
                  (1, "translation", [0, 1], [(0, 1, 0), (0, 2, 0)]),
                  (1, "scale", [0, 1], [(1, 1, 1), (1, 1, 1)])]},
             {"name": "wheelAction", "channels": [
                  (2, "rotation", [0, 2], [rotation([1, 0, 0], 0), rotation([1, 0, 0], 90)])]}]
    src = gltf(nodes, [[PLATE]], anims, name="anim.gltf")
    msh = path("anim.msh")
    r = run("convert", src, msh)
    check(r.returncode == 0, f"two animations: imported (exit {r.returncode})")
    check("scale" not in r.stderr and "animations" not in r.stderr,
          "two animations, constant scale: no warning " + r.stderr.strip())
    info = run("info", msh).stdout
    check("2 animated nodes" in info, "two animations merged: both objects move")
    times, values = reexported_channel(msh, "gun", "translation")
    check(values is not None and abs(max(values[1::3]) - 4) < 1e-3 and abs(times[-1] - 1) < 1e-3,
          f"a translation key under a scaled parent is scaled (y up to 4): {values}")

    r = run("convert", src, path("anim_one.msh"), "--animation", "wheelAction")
    check(r.returncode == 0 and "1 animated nodes" in run("info", path("anim_one.msh")).stdout,
          "--animation NAME picks one")
    r = run("convert", src, path("anim_idx.msh"), "--animation", "0")
    check(r.returncode == 0 and "1 animated nodes" in run("info", path("anim_idx.msh")).stdout,
          "--animation INDEX picks one")

    clash = [{"name": "A", "channels": [(1, "translation", [0, 1], [(0, 1, 0), (0, 2, 0)])]},
             {"name": "B", "channels": [(1, "translation", [0, 1], [(0, 1, 0), (0, 3, 0)])]}]
    src = gltf(nodes, [[PLATE]], clash, name="clash.gltf")
    r = run("convert", src, path("clash.msh"))
    check(r.returncode == 1 and "'A'" in r.stderr and "'B'" in r.stderr and
          "gun" in r.stderr and not os.path.exists(path("clash.msh")),
          "two animations driving one property: an error naming both " + r.stderr.strip())

    grow = [{"name": "grow", "channels": [(1, "scale", [0, 1], [(1, 1, 1), (2, 2, 2)])]}]
    src = gltf(nodes, [[PLATE]], grow, name="grow.gltf")
    r = run("convert", src, path("grow.msh"))
    check(r.returncode == 0 and "scale of node 'gun' is animated" in r.stderr,
          "an animated scale: imported with a warning naming the node")


# ---- primitive modes ----

def test_modes():
    quad = [(0, 0, 0), (2, 0, 0), (2, 1, 0), (0, 1, 0), (0, 2, 0), (2, 2, 0)]
    tris = [0, 1, 2, 0, 2, 3, 3, 2, 5, 3, 5, 4]
    reference = world_triangles([{"mesh": 0}], [[(quad, tris, 4)]])
    strip = gltf([{"name": "s", "mesh": 0}], [[(quad, [1, 2, 0, 3, 3, 3, 3, 2, 4, 5], 5)]],
                 name="strip.gltf")
    r, got = import_and_reexport(strip, "strip")
    check(got is not None and abs(area(got) - area(reference)) < 1e-4 and len(got) == 4,
          f"TRIANGLE_STRIP: 4 triangles (degenerate joins dropped), area kept")
    ref_fan = world_triangles([{"mesh": 0}], [[(quad, [0, 1, 2, 0, 2, 3], 4)]])
    fan = gltf([{"name": "f", "mesh": 0}], [[(quad[:4], [0, 1, 2, 3], 6)]], name="fan.gltf")
    r, got = import_and_reexport(fan, "fan")
    check(got is not None and same_triangles(got, ref_fan), "TRIANGLE_FAN: the same triangles")

    lines = gltf([{"name": "l", "mesh": 0}], [[(quad, [0, 1, 1, 2], 1)]], name="lines.gltf")
    points = gltf([{"name": "p", "mesh": 0}], [[(quad, None, 0)]], name="points.gltf")
    with open(path("lines.obj"), "w") as f:
        f.write("v 0 0 0\nv 1 0 0\nv 1 1 0\nl 1 2 3\n")
    messages = set()
    for src in (lines, points, path("lines.obj")):
        out = path("nothing.msh")
        r = run("convert", src, out)
        errors = [l for l in r.stderr.splitlines() if l.startswith("error:")]
        check(r.returncode == 1 and len(errors) == 1 and not os.path.exists(out),
              f"{os.path.basename(src)}: no triangles -> one error, exit 1, no output")
        messages.add(errors[0].split(": ", 2)[-1] if errors else "")
    check(len(messages) == 1, f"the same error for glTF and OBJ: {messages}")


# ---- accessors and extensions ----

def png_1x1():
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


def test_accessors_and_extensions():
    pos, idx = PLATE[0], PLATE[1]
    moved = [list(p) for p in pos]
    moved[2] = [1, 1, -2]
    moved[5] = [3, 0, 1]

    def sparse(doc, add):
        acc = doc["accessors"][doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"]]
        i = add([2, 5], "H", 5123, "SCALAR", 2)
        v = add([1, 1, -2, 3, 0, 1], "f", 5126, "VEC3", 2)
        acc["sparse"] = {"count": 2,
                         "indices": {"bufferView": doc["accessors"][i]["bufferView"], "componentType": 5123},
                         "values": {"bufferView": doc["accessors"][v]["bufferView"]}}
        acc["min"], acc["max"] = [0, 0, -2], [3, 1, 1]
    nodes = [{"name": "sparse", "mesh": 0}]
    r, got = import_and_reexport(gltf(nodes, [[PLATE]], name="sparse.gltf", edit=sparse), "sparse")
    want = world_triangles(nodes, [[([tuple(p) for p in moved], idx, 4)]])
    check(got is not None and same_triangles(got, want), "a sparse POSITION accessor: substituted")

    # gltfpack-style KHR_mesh_quantization: normalized SHORT positions, dequantized by node scale.
    q = [tuple(round(c * 32767 / 4) for c in p) for p in pos]

    def quantize(doc, add):
        prim = doc["meshes"][0]["primitives"][0]
        a = add([c for p in q for c in p], "h", 5122, "VEC3", len(q))
        doc["accessors"][a]["normalized"] = True
        doc["accessors"][a]["min"] = [min(p[i] for p in q) for i in range(3)]
        doc["accessors"][a]["max"] = [max(p[i] for p in q) for i in range(3)]
        prim["attributes"]["POSITION"] = a
        doc["extensionsUsed"] = doc["extensionsRequired"] = ["KHR_mesh_quantization"]
    nodes = [{"name": "quantized", "mesh": 0, "scale": [4, 4, 4]}]
    r, got = import_and_reexport(gltf(nodes, [[PLATE]], name="quant.gltf", edit=quantize), "quant")
    want = world_triangles(nodes, [[([tuple(c / 32767 * 4 / 4 for c in p) for p in q], idx, 4)]])
    check(got is not None and same_triangles(got, want),
          "KHR_mesh_quantization: normalized SHORT positions scaled by their node")

    def draco(doc, add):
        doc["extensionsUsed"] = doc["extensionsRequired"] = ["KHR_draco_mesh_compression"]
    out = path("draco.msh")
    r = run("convert", gltf([{"mesh": 0}], [[PLATE]], name="draco.gltf", edit=draco), out)
    check(r.returncode == 1 and "KHR_draco_mesh_compression" in r.stderr and
          "/extensionsRequired/0" in r.stderr and not os.path.exists(out),
          "a required Draco extension: one error naming it")

    def transform(doc, add):
        uv = add([0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0], "f", 5126, "VEC2", 6)
        doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = uv
        doc["meshes"][0]["primitives"][0]["material"] = 0
        doc["images"] = [{"uri": "data:image/png;base64," + base64.b64encode(png_1x1()).decode()}]
        doc["textures"] = [{"source": 0}]
        doc["materials"] = [{"name": "tiled", "pbrMetallicRoughness": {"baseColorTexture": {
            "index": 0, "extensions": {"KHR_texture_transform": {
                "offset": [0.5, 0.25], "rotation": math.pi / 2, "scale": [2, 3]}}}}}]
        doc["extensionsUsed"] = ["KHR_texture_transform"]
    r = run("convert", gltf([{"name": "t", "mesh": 0}], [[PLATE]], name="uvt.gltf", edit=transform),
            path("uvt.msh"))
    run("convert", path("uvt.msh"), path("uvt.obj"), "--quiet")
    vts = [tuple(float(x) for x in l.split()[1:3]) for l in open(path("uvt.obj")) if l.startswith("vt ")] \
        if r.returncode == 0 else []
    # (1, 0) -> scale (2, 0) -> rotate 90 deg (u' = cos u + sin v, v' = -sin u + cos v) = (0, -2)
    # -> offset (0.5, -1.75); OBJ writes v as 1 - v: (0.5, 2.75). MSH UVs are 1/1024 steps.
    check(any(abs(u - 0.5) < 2e-3 and abs(v - 2.75) < 2e-3 for u, v in vts),
          f"KHR_texture_transform baked into TEXCOORD_0 ({sorted(set(vts))})")

    def scenes(doc, add):
        doc["scenes"] = [{"nodes": [0]}, {"nodes": [1]}]
        doc["scene"] = 1
    nodes = [{"name": "other", "mesh": 0}, {"name": "chosen", "mesh": 0, "translation": [5, 0, 0]}]
    r, got = import_and_reexport(gltf(nodes, [[PLATE]], name="scenes.gltf", edit=scenes), "scenes")
    check(got is not None and same_triangles(got, world_triangles(nodes[1:], [[PLATE]])) and
          "scenes" in r.stderr, "several scenes: the default scene's nodes, with a warning")

    def morph(doc, add):
        d = add([0, 0, 1] * 6, "f", 5126, "VEC3", 6)
        doc["accessors"][d]["min"], doc["accessors"][d]["max"] = [0, 0, 1], [0, 0, 1]
        doc["meshes"][0]["primitives"][0]["targets"] = [{"POSITION": d}]
    r, got = import_and_reexport(gltf([{"name": "m", "mesh": 0}], [[PLATE]], name="morph.gltf",
                                      edit=morph), "morph")
    check(got is not None and same_triangles(got, world_triangles([{"mesh": 0}], [[PLATE]])) and
          "morph target" in r.stderr, "morph targets: the base shape, with a warning")


# ---- formats Assimp reads: FBX, COLLADA, DirectX .x, 3DS, PLY, STL ----

def gltf_file_triangles(file):
    """World triangles of a .gltf with external or embedded buffers (as Assimp writes them)."""
    doc = json.load(open(file))
    buffers = []
    for b in doc["buffers"]:
        uri = b["uri"]
        buffers.append(base64.b64decode(uri.split(",", 1)[1]) if uri.startswith("data:")
                       else open(os.path.join(os.path.dirname(file), uri), "rb").read())

    def read(a):
        acc = doc["accessors"][a]
        view = doc["bufferViews"][acc["bufferView"]]
        width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[acc["type"]]
        fmt = {5126: "f", 5125: "I", 5123: "H", 5121: "B"}[acc["componentType"]]
        size = struct.calcsize(fmt)
        stride = view.get("byteStride", size * width)
        base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        data = buffers[view["buffer"]]
        return [struct.unpack_from("<%d%s" % (width, fmt), data, base + i * stride)
                for i in range(acc["count"])]

    meshes = []
    for m in doc.get("meshes", []):
        prims = []
        for p in m["primitives"]:
            if p.get("mode", 4) != 4:
                continue
            pos = read(p["attributes"]["POSITION"])
            idx = [i[0] for i in read(p["indices"])] if "indices" in p else list(range(len(pos)))
            prims.append((pos, idx, 4))
        meshes.append(prims)
    return world_triangles(doc["nodes"], meshes)


def test_assimp_formats():
    """Each scene written by `assimp export` in a format only Assimp reads; what the import makes
    of it must be what Assimp itself reads from that file (`assimp export FILE ref.gltf`): the
    same world triangles with the same winding. (Assimp 5.2 cannot read back its own binary FBX,
    so FBX goes as ASCII FBX.)"""
    scenes = {
        "tree": [{"name": "root", "mesh": 0, "translation": [1, 0, 0],
                  "rotation": rotation([0, 0, 1], 40), "children": [1]},
                 {"name": "arm", "mesh": 0, "translation": [1, 1, 0],
                  "rotation": rotation([1, 0, 0], 70), "children": [2]},
                 {"name": "hand", "mesh": 0, "translation": [0, 1, 1]}],
        "scaled": [{"name": "big", "mesh": 0, "scale": [2, 3, 0.5], "children": [1]},
                   {"name": "small", "mesh": 0, "translation": [1, 1, 1]}],
    }
    formats = [("dae", []), ("fbx", ["-ffbxa"]), ("x", []), ("3ds", []), ("ply", []), ("stl", [])]
    for scene_name, nodes in scenes.items():
        src = gltf(nodes, [[PLATE]], name=f"assimp_{scene_name}.gltf")
        for ext, flags in formats:
            name = f"assimp_{scene_name}.{ext}"
            made = subprocess.run(["assimp", "export", src, path(name), *flags], capture_output=True, text=True)
            if made.returncode != 0:
                check(False, f"assimp export {name}: {made.stdout[-200:]}")
                continue
            ref = path(f"ref_{scene_name}_{ext}.gltf")
            subprocess.run(["assimp", "export", path(name), ref], capture_output=True, check=True)
            want = gltf_file_triangles(ref)
            r, got = import_and_reexport(path(name), f"imp_{scene_name}_{ext}")
            check(r.returncode == 0, f"{name}: imported (exit {r.returncode}) {r.stderr.strip()[:200]}")
            if got is not None:
                check(same_triangles(got, want),
                      f"{name}: the world triangles Assimp reads ({len(got)} vs {len(want)})")
                v = run("validate", "--strict", path(f"imp_{scene_name}_{ext}.msh"))
                check(v.returncode == 0, f"{name}: the model passes validate --strict")
    # Assimp 5.2 aborts (a double free in its FBX reader) on its own ASCII FBX of some corpus
    # models: the import must still end in one clear error (or a model, where Assimp copes).
    corpus = path("corpus")
    check(sample_corpus(mshconv, corpus), "a sample corpus")
    run("convert", os.path.join(corpus, "static.rlb") + ":House_01.msh", path("house.glb"), "--quiet")
    os.remove(path("house.sidecar.json"))
    subprocess.run(["assimp", "export", path("house.glb"), path("house.fbx"), "-ffbxa"],
                   capture_output=True, check=True)
    r = run("convert", path("house.fbx"), path("house.msh"))
    errors = [l for l in r.stderr.splitlines() if l.strip()]
    check((r.returncode == 1 and len(errors) == 1 and "house.fbx" in errors[0] and
           not os.path.exists(path("house.msh"))) or
          (r.returncode == 0 and run("validate", "--strict", path("house.msh")).returncode == 0),
          f"a file Assimp aborts on: one clear error, no crash ({r.returncode}: {r.stderr.strip()[:200]})")
    with open(path("broken.fbx"), "w") as f:
        f.write("; FBX 7.5.0 project file\nObjects: {\n  Geometry: 1, \"Geometry::\", \"Mesh\" {\n")
    out = path("broken.msh")
    r = run("convert", path("broken.fbx"), out)
    check(r.returncode == 1 and r.stderr.count("error:") == 1 and "broken.fbx" in r.stderr and
          not os.path.exists(out), "a broken FBX: one error naming it, no output")


# ---- skinned DirectX files whose bones name no node ----

def obj_objects(file):
    """The OBJ's vertices by object (`o NAME`; mshconv writes one object per node)."""
    objects, current = {}, None
    for line in open(file):
        parts = line.split()
        if parts and parts[0] == "o":
            current = objects.setdefault(parts[1], [])
        elif parts and parts[0] == "v":
            current = objects.setdefault("", []) if current is None else current
            current.append(tuple(float(x) for x in parts[1:4]))
    return objects


def box(points):
    return ([min(p[i] for p in points) for i in range(3)], [max(p[i] for p in points) for i in range(3)])


def near_all(points, reference, tolerance=1e-3):
    return all(min(max(abs(p[i] - q[i]) for i in range(3)) for q in reference) <= tolerance
               for p in points)


def x_matrix(rows):
    return ",".join("%.6f" % v for row in rows for v in row) + ";;"


def test_bone_without_node():
    """A DirectX skin whose bone 'ghost' has weights but no frame: the import makes a node of it
    under the mesh's parent, at the bone's bind pose, and says so."""
    identity = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    body = [[0, 1, 0, 0], [-1, 0, 0, 0], [0, 0, 1, 0], [5, 0, 0, 1]]  # 90 deg about z, x + 5
    body_inverse = [[0, -1, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 5, 0, 1]]
    ghost_offset = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [-2, -3, 0, 1]]  # bound at (2, 3, 0)
    quad = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
    weights = lambda name, vs, offset: ("SkinWeights {\n\"%s\";\n%d;\n%s;\n%s;\n%s\n}\n" % (
        name, len(vs), ",\n".join(map(str, vs)), ",\n".join("1.0" for _ in vs), x_matrix(offset)))
    with open(path("ghost.x"), "w") as f:
        f.write("xof 0303txt 0032\nFrame body {\nFrameTransformMatrix {\n%s\n}\n" % x_matrix(body))
        f.write("Frame bone {\nFrameTransformMatrix {\n%s\n}\n}\n" % x_matrix(identity))
        f.write("Frame hull {\nFrameTransformMatrix {\n%s\n}\nMesh hullShape {\n" % x_matrix(identity))
        f.write("4;\n" + ",\n".join("%d;%d;%d;" % p for p in quad) + ";\n2;\n3;0,1,2;,\n3;0,2,3;;\n")
        f.write("XSkinMeshHeader {\n1;\n1;\n2;\n}\n")
        f.write(weights("bone", [0, 1], body_inverse) + weights("ghost", [2, 3], ghost_offset))
        f.write("}\n}\n}\n")
    r, got = import_and_reexport(path("ghost.x"), "ghost")
    check(r.returncode == 0, f"ghost.x: a bone without its frame imports ({r.returncode}: {r.stderr.strip()[:300]})")
    if got is None:
        return
    warned = [l for l in r.stderr.splitlines() if "'ghost'" in l]
    check(len(warned) == 1 and "names no node" in warned[0] and "'body'" in warned[0],
          f"ghost.x: one warning names the bone and the node it is made under: {warned}")
    # Assimp turns DirectX's left-handed frame into a right-handed one: z negated, windings turned.
    check(same_triangles(got, [(quad[0], quad[2], quad[1]), (quad[0], quad[3], quad[2])]),
          f"ghost.x: every vertex where it is bound, also those of the made node: {got}")
    gl = path("ghost.gltf")
    check(run("convert", path("ghost.msh"), gl, "--quiet").returncode == 0, "ghost.msh exports")
    nodes = json.load(open(gl))["nodes"]
    names = [n.get("name") for n in nodes]
    parent_of = {c: names[i] for i, n in enumerate(nodes) for c in n.get("children", [])}
    check("ghost" in names and parent_of.get(names.index("ghost")) == "body",
          f"ghost.x: node 'ghost' made under 'body' (the mesh's parent): {parent_of}")


ASSIMP_MODELS = "/usr/share/assimp/models"  # Debian's assimp-testmodels


def test_assimp_anim_test():
    """Assimp's X/anim_test.x: four bones, only joint1 and joint2 written as frames (its
    anim_test.txt says so). It imports with nodes made for joint3 and joint4."""
    src = os.path.join(ASSIMP_MODELS, "X", "anim_test.x")
    if not os.path.isfile(src):
        check(False, f"{src} is missing: install the Debian package assimp-testmodels "
                     "(scripts/install-deps.sh does)")
        return
    msh = path("anim_test.msh")
    r = run("convert", src, msh)
    check(r.returncode == 0, f"anim_test.x imports ({r.returncode}: {r.stderr.strip()[:300]})")
    if r.returncode != 0:
        return
    for bone in ("joint3", "joint4"):
        check(any(f"bone '{bone}' names no node" in l and "'$dummy_root'" in l
                  for l in r.stderr.splitlines()),
              f"anim_test.x: a warning says node '{bone}' is made, and where")
    check(run("validate", "--strict", msh).returncode == 0, "anim_test.msh passes validate --strict")
    info = run("info", msh).stdout
    # Assimp's 5 nodes less the skin holder pCylinder1, and joint3 and joint4; joint1 and joint2
    # have keys (ikHandle1's are all equal, pCylinder1 is the holder).
    check("nodes 6," in info and "2 animated nodes" in info and "frames 25" in info,
          f"anim_test.msh: 6 nodes, animated: {info.splitlines()[1:2]}")
    obj = path("anim_test.obj")
    check(run("convert", msh, obj, "--quiet").returncode == 0, "anim_test.msh exports to OBJ")
    parts = obj_objects(obj)
    stats = subprocess.run(["assimp", "info", src], capture_output=True, text=True).stdout
    corner = lambda label: [float(v) for v in
                            next(l for l in stats.splitlines() if l.startswith(label))
                            .split("(")[1].split(")")[0].split()]
    want = (corner("Minimum point"), corner("Maximum point"))
    # joint2's frame in the file is 1.5 degrees off its bind pose, so its part is left out of the
    # exact box; joint1's frame is its bind pose, joint3's node is made at it.
    bound = parts.get("joint1", []) + parts.get("joint3", [])
    got = box(bound) if bound else None
    check(got is not None and all(abs(a - b) < 1e-3 for g, w in zip(got, want) for a, b in zip(g, w)),
          f"anim_test.msh: joint1's and joint3's parts span Assimp's box {want}: {got}")
    everything = [p for vs in parts.values() for p in vs]
    check(len(everything) == 2520 and
          all(w[0] - 0.15 <= p[i] <= w[1] + 0.15 for p in everything for i, w in
              enumerate(zip(*want))), "anim_test.msh: all 840 triangles, within Assimp's box")
    ref = path("anim_test_ref.obj")
    subprocess.run(["assimp", "export", src, ref], capture_output=True, check=True)
    reference = [p for vs in obj_objects(ref).values() for p in vs]
    check(parts.get("joint3") and near_all(parts["joint3"], reference),
          "anim_test.msh: every vertex of the made node joint3 is one Assimp reads")


# ---- a round trip through a tool that writes float noise into node scales ----

def test_scale_noise():
    corpus = path("corpus")
    if not os.path.isdir(corpus):
        check(sample_corpus(mshconv, corpus), "a sample corpus")
    out = path("noisy.gltf")
    r = run("convert", os.path.join(corpus, "animals.rlb") + ":A_L_01.msh", out, "--quiet")
    check(r.returncode == 0, "export for the noise round trip")
    doc = json.load(open(out))
    doc["nodes"][0]["scale"] = [1.0000001, 1, 0.9999999]  # one float ulp, as exporters write
    with open(out, "w") as f:
        json.dump(doc, f)
    r = run("convert", out, path("noisy.msh"))
    check(r.returncode == 0 and "unchanged, original bytes kept" in r.stdout,
          "a node scale of float noise is no scale: the unedited model comes back byte for byte")


# ---- OBJ ----

def test_obj():
    # A concave hexagon of area 5 (a fan from the first corner would cover 9).
    with open(path("concave.obj"), "w") as f:
        f.write("v 0 0 0\nv 3 0 0\nv 3 3 0\nv 2 3 0\nv 2 1 0\nv 0 1 0\nf 1 2 3 4 5 6\n")
    r, got = import_and_reexport(path("concave.obj"), "concave")
    check(got is not None and abs(area(got) - 5) < 1e-4, f"concave hexagon: area 5 kept ({got and area(got)})")
    if got:
        facing = [((q[0] - p[0]) * (s[1] - p[1]) - (q[1] - p[1]) * (s[0] - p[0])) for p, q, s in got]
        check(all(z > 0 for z in facing), "concave hexagon: every triangle keeps the face's winding")
    # A U of area 7 in the YZ plane, slightly bent out of it, written clockwise seen from +X.
    u = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)]
    with open(path("bent.obj"), "w") as f:
        for k, (y, z) in enumerate(reversed(u)):
            f.write(f"v {0.05 * (k % 2)} {y} {z}\n")
        f.write("f " + " ".join(str(k + 1) for k in range(len(u))) + "\n")
    r, got = import_and_reexport(path("bent.obj"), "bent")
    check(got is not None and len(got) == 6 and abs(area(got) - 7) < 0.05,
          f"a bent U in the YZ plane: 6 triangles, area 7 kept ({got and area(got)})")
    if got:
        turn = [(q[1] - p[1]) * (s[2] - p[2]) - (q[2] - p[2]) * (s[1] - p[1]) for p, q, s in got]
        check(all(x < 0 for x in turn), "a bent U: every triangle turns as the face (clockwise)")

    with open(path("plus.obj"), "w") as f:
        f.write("v +0 +0 +0\nv +1.5e+0 0 0\nv 1 +1 0\nf 1 2 3\n")
    r, got = import_and_reexport(path("plus.obj"), "plus")
    check(r.returncode == 0 and got is not None and abs(area(got) - 0.75) < 1e-5,
          "numbers with a leading '+'")

    # Line continuation, negative indices, a missing MTL (a warning), a UTF-8 BOM.
    with open(path("cont.obj"), "wb") as f:
        f.write(b"\xef\xbb\xbfmtllib missing.mtl\nv 0 0 0 \\\n\nv 2 0 0\nv 2 2 0\nv 0 2 0\n"
                b"f -4 -3 \\\r\n -2 -1\n")
    r, got = import_and_reexport(path("cont.obj"), "cont")
    check(got is not None and abs(area(got) - 4) < 1e-5,
          "'\\' line continuation and negative indices " + r.stderr.strip())
    check("missing.mtl" in r.stderr and "warning" in r.stderr, "a missing MTL: a warning")
    with open(path("utf16.obj"), "wb") as f:
        f.write("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\n".encode("utf-16"))
    r = run("convert", path("utf16.obj"), path("utf16.msh"))
    check(r.returncode == 1 and "UTF-16" in r.stderr and not os.path.exists(path("utf16.msh")),
          "a UTF-16 OBJ: one clear error")

    out = path("box.glb")
    r = run("convert", path("plus.obj"), out)
    check(r.returncode == 2 and not os.path.exists(out) and "writes an MSH model" in r.stderr,
          "convert box.obj out.glb: a usage error, nothing written")


test_transforms()
test_animation()
test_modes()
test_accessors_and_extensions()
test_assimp_formats()
test_bone_without_node()
test_assimp_anim_test()
test_scale_noise()
test_obj()
if failures:
    print(f"{len(failures)} check(s) failed (files in {work})")
    sys.exit(1)
print("all foreign-model checks passed")
