#!/usr/bin/env python3
"""Real consumers of the export: every corpus model converted to glTF/GLB/OBJ in every variant, and
every mission as one level scene (GLB and glTF); Khronos glTF-Validator must report 0 errors and 0
warnings on every .gltf/.glb; Assimp
must read every .glb and .obj back with the node and face counts the files declare; Blender 3.4
must import an animated, a static, a multi-LOD and a lightmapped model (TEXCOORD_2 + lightmap)
with their node trees, vertex counts and keys (blender_import_check.py), and give them back byte
for byte through its own export.

usage: consumers.py BUILD_DIR SOURCE_DIR
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import blender_jobs  # noqa: E402
from cli_checks import sample_corpus  # noqa: E402

build, source = sys.argv[1], sys.argv[2]
mshconv = os.path.join(build, "mshconv")
failures = []

VARIANTS = [
    ("default.gltf", []),
    ("default.glb", []),
    ("all.glb", ["--lod", "all", "--group", "all"]),
    ("skin.glb", ["--skin"]),
    ("skin_all.gltf", ["--skin", "--lod", "all", "--group", "all"]),
    ("msftlod.glb", ["--lod", "all", "--msft-lod"]),
    ("default.obj", []),
    ("all.obj", ["--lod", "all", "--group", "all"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def gltf_json(path):
    data = open(path, "rb").read()
    if path.endswith(".gltf"):
        return json.loads(data)
    (chunk_len,) = struct.unpack_from("<I", data, 12)
    return json.loads(data[20:20 + chunk_len])


def assimp_counts(path):
    # --raw: no post-processing; Assimp's default steps merge meshes and drop faces of their own.
    out = run(["assimp", "info", path, "--raw"]).stdout
    nodes = re.search(r"^Nodes:\s+(\d+)", out, re.M)
    faces = re.search(r"^Faces:\s+(\d+)", out, re.M)
    if not nodes or not faces:
        return None
    return int(nodes.group(1)), int(faces.group(1))


def expected_gltf(doc):
    faces = 0
    for n in doc["nodes"]:
        if "mesh" in n:
            for p in doc["meshes"][n["mesh"]]["primitives"]:
                faces += doc["accessors"][p["indices"]]["count"] // 3
    # Assimp adds nothing for a single root... but wraps several scene roots in one node.
    roots = len(doc["scenes"][0]["nodes"])
    listed = set()
    stack = list(doc["scenes"][0]["nodes"])
    while stack:
        i = stack.pop()
        listed.add(i)
        stack.extend(doc["nodes"][i].get("children", []))
    return len(listed) + (1 if roots > 1 else 0), faces


def glb_parts(path):
    data = open(path, "rb").read()
    (chunk_len,) = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + chunk_len])
    at = 20 + chunk_len
    (bin_len,) = struct.unpack_from("<I", data, at)
    return doc, data[at + 8:at + 8 + bin_len]


def accessor(doc, buffer, index):
    a = doc["accessors"][index]
    view = doc["bufferViews"][a["bufferView"]]
    width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[a["type"]]
    fmt = {5121: "B", 5123: "H", 5125: "I", 5126: "f"}[a["componentType"]]
    stride = view.get("byteStride", width * struct.calcsize(fmt))
    base = view.get("byteOffset", 0) + a.get("byteOffset", 0)
    rows = [struct.unpack_from("<" + fmt * width, buffer, base + k * stride) for k in range(a["count"])]
    return [r[0] for r in rows] if width == 1 else rows


def batch_triangles(path):
    """Per (mesh, batch), the triangles in file order as the Res3 vertices their corners name
    (TEXCOORD_1 = (Res3 index, batch)), each corner in its place."""
    doc, buffer = glb_parts(path)
    out = {}
    for mesh in doc["meshes"]:
        for p in mesh["primitives"]:
            ids = accessor(doc, buffer, p["attributes"]["TEXCOORD_1"])
            idx = accessor(doc, buffer, p["indices"])
            for t in range(0, len(idx) - 2, 3):
                corners = [ids[idx[t + c]] for c in range(3)]
                out.setdefault((mesh.get("name"), int(corners[0][1])), []).append(
                    tuple((int(c[0]), int(c[1])) for c in corners))
    return out


def expected_obj(path):
    objects = groups = faces = 0
    for line in open(path):
        if line.startswith("o "):
            objects += 1
        elif line.startswith("g "):
            groups += 1
        elif line.startswith("f "):
            faces += 1
    return 1 + objects + groups, faces


with tempfile.TemporaryDirectory() as work:
    corpus = os.path.join(work, "corpus")
    out = os.path.join(work, "out")
    os.makedirs(out)
    if not sample_corpus(mshconv, corpus):
        sys.exit("no sample corpus")
    models = []
    for archive in sorted(os.listdir(corpus)):
        if not archive.endswith(".rlb"):
            continue  # libraries and DATA/MAPS have no models
        info = json.loads(run([mshconv, "info", "--json", os.path.join(corpus, archive)]).stdout)
        for e in info.get("entries", []):  # objects.rlb is a registry: no entries listed
            if "model" in e:
                models.append((archive, e["name"], e["model"]))
    print(f"{len(models)} models")

    outputs = []
    for archive, name, _ in models:
        stem = f"{archive}_{name}".replace(".", "_")
        for suffix, flags in VARIANTS:
            target = os.path.join(out, f"{stem}_{suffix}")
            r = run([mshconv, "convert", f"{os.path.join(corpus, archive)}:{name}", target] + flags)
            if r.returncode != 0:
                failures.append(f"convert {archive}:{name} {suffix}: {r.stdout}{r.stderr}")
            else:
                outputs.append(target)
    # Every mission as one level scene, in both glTF forms.
    levels = []
    for folder, _, files in sorted(os.walk(os.path.join(corpus, "MISSIONS"))):
        if "data.tma" not in files:
            continue
        stem = os.path.relpath(folder, corpus).replace(os.sep, "_").replace(".", "_")
        for ext in (".glb", ".gltf"):
            target = os.path.join(out, f"level_{stem}{ext}")
            r = run([mshconv, "convert", os.path.join(folder, "data.tma"), target])
            if r.returncode != 0:
                failures.append(f"convert {folder}/data.tma {ext}: {r.stdout}{r.stderr}")
            else:
                levels.append(target)
    print(f"{len(levels) // 2} missions as level scenes")
    if len(levels) < 8:
        failures.append(f"only {len(levels)} level scenes: the corpus should hold missions")
    gltfs = [o for o in outputs if o.endswith((".gltf", ".glb"))] + levels
    objs = [o for o in outputs if o.endswith(".obj")]
    print(f"{len(outputs)} files converted ({len(gltfs)} glTF/GLB, {len(objs)} OBJ)")

    validator = os.path.join(source, "tools", "validate-gltf.mjs")
    r = run(["node", validator] + gltfs)
    print(r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr)
    if r.returncode != 0:
        failures.append("glTF-Validator: " + "\n".join(
            l for l in r.stdout.splitlines() if not l.endswith("0 errors, 0 warnings")) + r.stderr)

    checked = 0
    for path in outputs:
        if path.endswith(".gltf"):
            continue  # the .glb of the same content is read; .gltf parity is the validator's job
        got = assimp_counts(path)
        want = expected_obj(path) if path.endswith(".obj") else expected_gltf(gltf_json(path))
        checked += 1
        if got != want:
            failures.append(f"assimp {os.path.basename(path)}: nodes/faces {got}, expected {want}")
    print(f"assimp: {checked} files read back")

    # Blender: the largest animated model, a static model and a multi-LOD model.
    animated = max((m for m in models if m[2]["animation"]["frame_count"] > 1),
                   key=lambda m: m[2]["vertex_count"])
    static = next(m for m in models if m[2]["animation"]["frame_count"] == 1 and not m[2]["legacy_node_table"])
    multi_lod = next(m for m in models if m[2]["animation"]["frame_count"] > 1 and m is not animated and
                     len({u["lod"] for u in m[2]["lod_group_usage"]}) == 3)
    # A lightmapped model (Res18/Res20 + WEAR LIGHTMAPS): its exports carry TEXCOORD_2 and a
    # second texture, which Blender must keep and the import must ignore.
    lightmapped = next(m for m in models if 18 in m[2]["entry_order"] and m not in (animated, static, multi_lod))
    checker = os.path.join(source, "tests", "integration", "blender_import_check.py")
    blender = os.path.join(source, "tests", "integration", "blender")  # clean-environment wrapper
    # Every Blender job below reads only mshconv's exports: they are listed first and run in one
    # Blender process (blender_jobs.py); `then` checks what a job made, in the listed order.
    pending = []

    def blender_job(script, args, then):
        pending.append((script, args, then))

    for archive, name, model in (animated, static, multi_lod, lightmapped):
        for suffix in ("default.glb", "all.glb"):
            glb = os.path.join(out, f"{archive}_{name}".replace(".", "_") + "_" + suffix)
            info = glb + ".info.json"
            with open(info, "w") as f:
                json.dump({"model": model}, f)

            def then(r, archive=archive, name=name, suffix=suffix):
                line = [l for l in r.stdout.splitlines() if l.startswith("blender check")]
                print(f"blender {archive}:{name} {suffix}: {line[0] if line else r.stdout[-400:] + r.stderr[-400:]}")
                if r.returncode != 0:
                    failures.append(f"blender {archive}:{name} {suffix}:\n" + "\n".join(
                        l for l in r.stdout.splitlines() if l.startswith(("FAIL", "blender check", "Error", "Traceback"))))
            blender_job(checker, [glb, info], then)

    # Blender round trip (issue 4): export -> Blender import -> Blender export (the settings the
    # README gives modders) -> mshconv import gives the original bytes; a vertex moved in Blender
    # gives a valid model that reports the move.
    roundtrip = os.path.join(source, "tests", "integration", "blender_roundtrip.py")
    extracted = {}
    for archive, name, model in (animated, static, multi_lod, lightmapped):
        if archive not in extracted:
            extracted[archive] = os.path.join(work, "x_" + archive)
            subprocess.run([mshconv, "nres", "extract", os.path.join(corpus, archive), "-o", extracted[archive]], check=True)
        original = open(os.path.join(extracted[archive], name), "rb").read()
        stem = f"{archive}_{name}".replace(".", "_")
        for suffix in ("default.glb", "all.glb"):
            exported = os.path.join(out, f"{stem}_{suffix}")
            through = exported[:-4] + "_blender.glb"

            def then(r, archive=archive, name=name, suffix=suffix, exported=exported, through=through,
                     original=original):
                sidecar = exported[:-4] + ".sidecar.json"
                back = exported[:-4] + "_back.msh"
                c = run([mshconv, "convert", through, back, "--sidecar", sidecar]) if r.returncode == 0 else r
                same = c.returncode == 0 and open(back, "rb").read() == original
                # What the file holds of Res6 after Blender (docs/sidecar.md, "Res6 and Res4 are
                # blocks"): each batch's triangles in their order, their corners in their rotation.
                kept = r.returncode == 0 and batch_triangles(through) == batch_triangles(exported)
                print(f"blender round trip {archive}:{name} {suffix}: {'byte-identical' if same else 'DIFFERENT'}, "
                      f"triangle order and corner rotation {'kept' if kept else 'CHANGED'}")
                if not same:
                    failures.append(f"blender round trip {archive}:{name} {suffix}: {c.stdout[-600:]}{c.stderr[-600:]}")
                if not kept:
                    failures.append(f"blender round trip {archive}:{name} {suffix}: the order or the "
                                    "corner rotation of a batch's triangles changed")
            blender_job(roundtrip, [exported, through], then)
        mesh_node = next(n["name"] for n in model["nodes"] if n["slots"])
        exported = os.path.join(out, f"{stem}_default.glb")
        through = exported[:-4] + "_moved.glb"

        def then(r, archive=archive, name=name, exported=exported, through=through, mesh_node=mesh_node):
            back, report = exported[:-4] + "_moved.msh", exported[:-4] + "_moved.json"
            c = run([mshconv, "convert", through, back, "--sidecar", exported[:-4] + ".sidecar.json", "--report", report])
            v = run([mshconv, "validate", "--strict", back])
            moved = c.returncode == 0 and json.load(open(report))["summary"]["vertices_moved"] >= 1
            print(f"blender edit {archive}:{name} move:{mesh_node}: {'valid, moved' if moved and v.returncode == 0 else 'FAILED'}")
            if not (moved and v.returncode == 0):
                failures.append(f"blender edit {archive}:{name}: {c.stdout}{c.stderr}{v.stdout}")
        blender_job(roundtrip, [exported, through, "move:" + mesh_node], then)

    # Topology edits in Blender (issue 4): each gives a model that passes validate --strict and
    # whose change report says what the edit meant.
    archive, name, model = static
    stem = f"{archive}_{name}".replace(".", "_")
    exported = os.path.join(out, f"{stem}_default.glb")
    sidecar = exported[:-4] + ".sidecar.json"
    parents = {n["parent"] for n in model["nodes"]}
    mesh_nodes = [n for n in model["nodes"] if any(s["lod"] == 0 and s["group"] == 0 for s in n["slots"])]
    first = mesh_nodes[0]["name"]
    leaf = next((n["name"] for n in reversed(mesh_nodes) if n["index"] not in parents), None)
    base_tris = model["triangle_descriptor_count"]

    def topo(report):
        return report.get("topology", {})

    checks = {
        "delete:" + first: lambda r, m: topo(r).get("triangles_removed") == 1 and m["triangle_descriptor_count"] == base_tris - 1,
        "poke:" + first: lambda r, m: topo(r).get("triangles_added") == 3 and topo(r).get("triangles_removed") == 1
        and topo(r).get("vertices_added", 0) >= 1 and m["triangle_descriptor_count"] == base_tris + 2,
        "seam:" + first: lambda r, m: topo(r).get("vertices_added", 0) >= 1 and topo(r).get("triangles_added") == 0
        and m["triangle_descriptor_count"] == base_tris,
        "addpart:" + first: lambda r, m: r.get("new_parts") == ["NewPart"] and m["node_count"] == model["node_count"] + 1
        and m["triangle_descriptor_count"] == base_tris + 12,
    }
    if leaf:
        checks["removepart:" + leaf] = lambda r, m: topo(r).get("slots_removed", 0) >= 1 and m["node_count"] == model["node_count"]
    for edit, ok in checks.items():
        tag = edit.split(":")[0]
        through = exported[:-4] + f"_{tag}.glb"

        def then(r, edit=edit, ok=ok, tag=tag, through=through):
            back, report = exported[:-4] + f"_{tag}.msh", exported[:-4] + f"_{tag}.json"
            c = run([mshconv, "convert", through, back, "--sidecar", sidecar, "--report", report]) if r.returncode == 0 else r
            v = run([mshconv, "validate", "--strict", back]) if c.returncode == 0 else c
            good = v.returncode == 0
            if good:
                after = json.loads(run([mshconv, "info", "--json", back]).stdout)["model"]
                good = ok(json.load(open(report)), after)
            print(f"blender edit {archive}:{name} {edit}: {'valid, as meant' if good else 'FAILED'}")
            if not good:
                failures.append(f"blender edit {edit}: {r.stdout[-300:]}{r.stderr[-300:]}{c.stdout[-300:]}{c.stderr[-300:]}"
                                f"{v.stdout[-300:]}{open(report).read() if os.path.exists(report) else ''}")
        blender_job(roundtrip, [exported, through, edit], then)

    # OBJ through Blender's own OBJ importer/exporter (6 decimals, its vertex order, no groups):
    # unedited gives the original bytes, a deleted face a valid model one triangle short.
    obj_rt = os.path.join(source, "tests", "integration", "blender_obj_roundtrip.py")
    original = open(os.path.join(extracted[archive], name), "rb").read()
    src_obj = os.path.join(out, f"{stem}_blender_src.obj")
    run([mshconv, "convert", f"{os.path.join(corpus, archive)}:{name}", src_obj])
    for edit in ("", "delete"):
        through = os.path.join(out, f"{stem}_blender_{edit or 'same'}.obj")

        def then(r, edit=edit, through=through):
            back = through[:-4] + ".msh"
            c = run([mshconv, "convert", through, back, "--sidecar", src_obj[:-4] + ".sidecar.json"]) if r.returncode == 0 else r
            if c.returncode != 0:
                good = False
            elif not edit:
                good = open(back, "rb").read() == original
            else:
                after = json.loads(run([mshconv, "info", "--json", back]).stdout)["model"]
                good = run([mshconv, "validate", "--strict", back]).returncode == 0 and \
                    after["triangle_descriptor_count"] == base_tris - 1
            print(f"blender obj round trip {archive}:{name} {edit or 'unedited'}: {'ok' if good else 'FAILED'}")
            if not good:
                failures.append(f"blender obj {edit}: {r.stdout[-300:]}{r.stderr[-300:]}{c.stdout[-300:]}{c.stderr[-300:]}")
        blender_job(obj_rt, [src_obj, through] + ([edit] if edit else []), then)

    results = blender_jobs.run(blender, [(s, a) for s, a, _ in pending], os.path.join(work, "blender"))
    for (_, _, then), r in zip(pending, results):
        then(r)
    print(f"blender: {len(results)} jobs in one Blender process")

for f in failures[:50]:
    print("FAIL:", f)
print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
sys.exit(1 if failures else 0)
