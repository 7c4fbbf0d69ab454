#!/usr/bin/env python3
"""Malformed inputs across every reader, through the command line (issue 16).

Each case is a damaged file (generated from a valid sample-corpus file by a rule the spec makes an
error — a cut payload of a fixed-stride table, a count past the data, a bad magic — or written by
hand) and the command that reads it. Every case must give: exit 1, an `error:` line naming the
input file and where in it (byte offset, line, JSON pointer; a few whole-file errors name the file
only and are marked so), for converting commands exactly one such line, and no output: the output
folder stays empty and no temporary file is left beside the input. The suite fails below
MIN_CASES cases. Run under the sanitizer build too (scripts/sanitize.sh): no crash, no UB.

usage: malformed_inputs.py BUILD_DIR [--list]
"""
import base64
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import sample_corpus  # noqa: E402

MIN_CASES = 200
build_dir = os.path.abspath(sys.argv[1])
source_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
mshconv = os.path.join(build_dir, "mshconv")
LOCATION = re.compile(r"offset \d+|line \d+|at /|column \d+")


# ---- NRes containers (nres.md): 16-byte header, payloads, 64-byte directory at the end ----

def nres_read(data):
    count = struct.unpack_from("<i", data, 8)[0]
    base = len(data) - 64 * count
    entries = []
    for i in range(count):
        p = base + 64 * i
        t, a1, a2, size, a3 = struct.unpack_from("<5I", data, p)
        name = data[p + 20:p + 56]
        off, sort = struct.unpack_from("<2I", data, p + 56)
        entries.append({"type": t, "attr1": a1, "attr2": a2, "attr3": a3, "name": name,
                        "sort": sort, "data": bytes(data[off:off + size])})
    return entries


def nres_write(entries):
    out = bytearray(b"NRes" + struct.pack("<3I", 0x100, len(entries), 0))
    offsets = []
    for e in entries:
        offsets.append(len(out))
        out += e["data"]
        out += b"\0" * (-len(out) % 8)
    for e, off in zip(entries, offsets):
        out += struct.pack("<5I", e["type"], e["attr1"], e["attr2"], len(e["data"]), e["attr3"])
        out += e["name"] + struct.pack("<2I", off, e["sort"])
    struct.pack_into("<I", out, 12, len(out))
    return bytes(out)


def entry_named(archive_bytes, suffix):
    return [e for e in nres_read(archive_bytes) if e["name"].split(b"\0")[0].lower().endswith(suffix)]


def with_entry(entries, type_, change):
    """A copy of the container with `change(entry)` applied to the entry of `type_`."""
    copy = [dict(e) for e in entries]
    for e in copy:
        if e["type"] == type_:
            change(e)
            return nres_write(copy)
    return None


def poke(data, offset, fmt, value):
    b = bytearray(data)
    struct.pack_into(fmt, b, offset, value)
    return bytes(b)


# ---- the cases ----

class Case:
    def __init__(self, reader, name, files, args, whole=False, single=True, pointer=None):
        self.reader, self.name, self.files, self.args = reader, name, files, args
        self.whole = whole      # the error may name the whole file (no finer location)
        self.single = single    # exactly one error line (converting commands)
        self.pointer = pointer  # the JSON pointer the error must name, when given


cases = []


def add(reader, name, files, args, **kw):
    cases.append(Case(reader, name, files, args, **kw))


def stride_cases(reader, label, container, strides, command, emptied=(1, 3)):
    """For each fixed-stride table present: a payload cut by one byte, and attr1 one off."""
    entries = nres_read(container)
    present = {e["type"] for e in entries}
    for t, stride in strides.items():
        if t not in present:
            continue
        cut = with_entry(entries, t, lambda e: e.update(data=e["data"][:-1]))
        add(reader, f"{label}: type {t} cut by one byte (stride {stride})", cut, command)
        off = with_entry(entries, t, lambda e: e.update(attr1=e["attr1"] + 1))
        add(reader, f"{label}: type {t} attr1 one more than its records", off, command)
        if t in emptied:  # a table emptied: everything that indexes it points past it
            gone = with_entry(entries, t, lambda e: e.update(data=b"", attr1=0))
            add(reader, f"{label}: type {t} emptied", gone, command)


def json_cases(reader, label, base, companions, json_name, args, single=True):
    """A maker of cases that damage the JSON document `base` (or replace its text) beside
    `companions`, read by `args`."""
    def case(name, edit, raw=None, pointer=None):
        doc = json.loads(json.dumps(base))
        if edit:
            edit(doc)
        text = raw if raw is not None else json.dumps(doc).encode()
        add(reader, f"{label}: {name}", dict(companions, **{json_name: text}), args, pointer=pointer,
            single=single)
    return case


OVERFLOW_SENTINEL = 987654321987


def with_overflow(doc):
    """`doc` as JSON text with its sentinel number replaced by one past the double range (valid
    JSON grammar that a parser must still refuse: fuzz_gltf found nlohmann's out_of_range.406)."""
    text = json.dumps(doc).encode()
    assert str(OVERFLOW_SENTINEL).encode() in text
    return text.replace(str(OVERFLOW_SENTINEL).encode(), b"-0.449E99998807907104")


def truncations(reader, label, data, points, command, **kw):
    for n in points:
        add(reader, f"{label}: cut to {n} of {len(data)} bytes", data[:n], command, **kw)


def generate(corpus, work):
    # ---- NRes archives: `nres extract` ----
    palettes = open(os.path.join(corpus, "palettes.lib"), "rb").read()
    system = open(os.path.join(corpus, "system.rlb"), "rb").read()
    extract = ["nres", "extract", "{in}", "-o", "{out}/x"]
    for label, lib in (("palettes.lib", palettes), ("system.rlb", system)):
        truncations("nres", label, lib, [0, 3, 15, 16, 40, len(lib) // 2, len(lib) - 64,
                                         len(lib) - 1], extract)
        add("nres", f"{label}: bad magic", b"NRez" + lib[4:], extract)
        add("nres", f"{label}: version 0x101", poke(lib, 4, "<I", 0x101), extract)
        add("nres", f"{label}: negative entry count", poke(lib, 8, "<i", -3), extract)
        add("nres", f"{label}: entry count past the file", poke(lib, 8, "<i", 1 << 24), extract)
        # Trailing bytes are kept losslessly by the tolerant reader; the strict one refuses them.
        strict = ["validate", "--strict", "{in}"]
        add("nres", f"{label}: total size one more", poke(lib, 12, "<I", len(lib) + 1), strict,
            single=False)
        add("nres", f"{label}: one byte appended", lib + b"\0", strict, single=False)
        count = struct.unpack_from("<i", lib, 8)[0]
        d = len(lib) - 64 * count
        for i in (0, count - 1):
            add("nres", f"{label}: entry {i} offset past the end",
                poke(lib, d + 64 * i + 56, "<I", len(lib) + 8), extract)
            add("nres", f"{label}: entry {i} size past the end",
                poke(lib, d + 64 * i + 12, "<I", len(lib)), extract)
            add("nres", f"{label}: entry {i} offset + size wraps",
                poke(poke(lib, d + 64 * i + 56, "<I", 0xFFFFFFF0), d + 64 * i + 12, "<I", 0x20),
                extract)
            add("nres", f"{label}: entry {i} inside the header", poke(lib, d + 64 * i + 56, "<I", 4),
                extract)
            add("nres", f"{label}: entry {i} runs into the directory",
                poke(lib, d + 64 * i + 56, "<I", d - 8), extract)

    # ---- MSH models (loose .msh): `convert M.msh out.glb` ----
    static = open(os.path.join(corpus, "static.rlb"), "rb").read()
    animals = open(os.path.join(corpus, "animals.rlb"), "rb").read()
    models = [(e["name"].split(b"\0")[0].decode(), e["data"]) for e in
              nres_read(static)[:1] + entry_named(animals, b"a_l_01.msh") + entry_named(animals, b"a_big.msh")]
    to_glb = ["convert", "{in}", "{out}/m.glb"]
    msh_strides = {1: 38, 3: 12, 4: 4, 5: 4, 6: 2, 7: 16, 13: 20, 15: 8, 16: 8, 18: 4, 8: 24}
    for name, data in models:
        stride_cases("msh", name, data, msh_strides, to_glb)
        truncations("msh", name, data, [0, 12, len(data) - 1], to_glb)
        entries = nres_read(data)
        # Res6 indices past the vertices; a node's parent past the nodes; a slot word past Res2.
        vertices = len([e for e in entries if e["type"] == 3][0]["data"]) // 12
        add("msh", f"{name}: an index past the {vertices} vertices",
            with_entry(entries, 6, lambda e: e.update(data=struct.pack("<H", 0xFFFE) + e["data"][2:])),
            to_glb)
        nodes = [e for e in entries if e["type"] == 1][0]
        if nodes["attr3"] == 38:
            add("msh", f"{name}: node 0 slot word past the slots",
                with_entry(entries, 1, lambda e: e.update(data=e["data"][:8] + struct.pack("<H", 0x7FFF) + e["data"][10:])),
                to_glb)

    # ---- Texm textures: `convert T.texm out.png` ----
    textures = nres_read(open(os.path.join(corpus, "Textures.lib"), "rb").read())
    seen = set()
    to_png = ["convert", "{in}", "{out}/t.png"]
    for e in textures:
        fmt = struct.unpack_from("<I", e["data"], 28)[0]
        if fmt in seen or len(seen) >= 3:
            continue
        seen.add(fmt)
        t, label = e["data"], f"Texm format {fmt}"
        truncations("texm", label, t, [0, 10, 31, 32, len(t) // 2, len(t) - 1], to_png)
        add("texm", f"{label}: bad magic", b"Texn" + t[4:], to_png)
        add("texm", f"{label}: width 0", poke(t, 4, "<I", 0), to_png)
        add("texm", f"{label}: height 0", poke(t, 8, "<I", 0), to_png)
        add("texm", f"{label}: width 1<<20", poke(t, 4, "<I", 1 << 20), to_png)
        add("texm", f"{label}: mip count 0", poke(t, 12, "<I", 0), to_png)
        add("texm", f"{label}: mip count 40", poke(t, 12, "<I", 40), to_png)
        add("texm", f"{label}: unknown format 7", poke(t, 28, "<I", 7), to_png)
        add("texm", f"{label}: unknown format 0xFFFFFFFF", poke(t, 28, "<I", 0xFFFFFFFF), to_png)

    # ---- PNG: `convert T.png out.texm` ----
    png = bytes(open(os.path.join(work, "seed.png"), "rb").read())
    to_texm = ["convert", "{in}", "{out}/t.texm"]

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    def png_with(ihdr=None, idat=None, drop=()):
        sig, pos, out = png[:8], 8, bytearray(png[:8])
        while pos < len(png):
            n = struct.unpack_from(">I", png, pos)[0]
            kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + n]
            pos += 12 + n
            if kind in drop:
                continue
            if kind == b"IHDR" and ihdr:
                body = ihdr(bytearray(body))
            if kind == b"IDAT" and idat:
                body = idat(bytes(body))
            out += chunk(kind, bytes(body))
        return bytes(out)

    def ihdr_field(offset, fmt, value):
        def f(b):
            struct.pack_into(fmt, b, offset, value)
            return bytes(b)
        return f

    truncations("png", "PNG", png, [0, 7, 8, 20, 33, len(png) // 2, len(png) - 13], to_texm)
    add("png", "PNG: bad signature", b"\x89PNX" + png[4:], to_texm)
    add("png", "PNG: IHDR CRC wrong", poke(png, 29, ">I", 0), to_texm)
    add("png", "PNG: width 0", png_with(ihdr=ihdr_field(0, ">I", 0)), to_texm)
    add("png", "PNG: bit depth 3", png_with(ihdr=ihdr_field(8, ">B", 3)), to_texm)
    add("png", "PNG: colour type 5", png_with(ihdr=ihdr_field(9, ">B", 5)), to_texm)
    add("png", "PNG: interlace method 2", png_with(ihdr=ihdr_field(12, ">B", 2)), to_texm)
    add("png", "PNG: no IDAT", png_with(drop=(b"IDAT",)), to_texm)
    add("png", "PNG: IDAT not zlib", png_with(idat=lambda b: b"\xff" * len(b)), to_texm)
    add("png", "PNG: IDAT stream cut short", png_with(idat=lambda b: zlib.compress(zlib.decompress(b)[: len(zlib.decompress(b)) // 2])), to_texm)
    add("png", "PNG: 16384 x 16384 over a few bytes", png_with(ihdr=lambda b: struct.pack(">II", 16384, 16384) + bytes(b[8:])), to_texm)
    add("png", "PNG: chunk length past the file", poke(png, 33, ">I", 0x7FFFFFF0), to_texm)

    # ---- OBJ: `convert M.obj out.msh` (hand-made) ----
    tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
    to_msh = ["convert", "{in}", "{out}/m.msh"]
    objs = {
        "v with two numbers": "v 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
        "v not a number": "v a b c\n" + tri + "f 1 2 3\n",
        "v NaN": "v nan 0 0\n" + tri + "f 1 2 3\n",
        "v infinity": tri + "v inf 0 0\nf 2 3 4\n",
        "v past float range": "v 1e999 0 0\n" + tri + "f 2 3 4\n",
        "face index past the vertices": tri + "f 1 2 4\n",
        "face index 0": tri + "f 0 1 2\n",
        "relative index before the first": tri + "f -4 1 2\n",
        "face index not a number": tri + "f a b c\n",
        "face index with a fraction": tri + "f 1.5 2 3\n",
        "texture index past the vt": tri + "vt 0 0\nf 1/2 2/1 3/1\n",
        "normal index past the vn": tri + "vn 0 0 1\nf 1//1 2//1 3//2\n",
        "vt not a number": tri + "vt x 0\nf 1/1 2/1 3/1\n",
        "vn with two numbers": tri + "vn 0 1\nf 1//1 2//1 3//1\n",
        "vt without numbers": tri + "vt\nf 1 2 3\n",
        "index overflowing long": tri + "f 99999999999999999999 1 2\n",
        "index reference with four parts": tri + "f 1/1/1/1 2 3\n",
        "negative texture index past the start": tri + "vt 0 0\nf 1/-2 2/1 3/1\n",
        "NaN texture coordinate": tri + "vt nan 0\nf 1/1 2/1 3/1\n",
        "infinite normal": tri + "vn inf 0 1\nf 1//1 2//1 3//1\n",
    }
    for name, text in objs.items():
        add("obj", f"OBJ: {name}", text.encode(), to_msh)
    for name, text in {"empty file": "", "only vertices": tri, "only comments": "# nothing\n"}.items():
        add("obj", f"OBJ: {name}", text.encode(), to_msh, whole=True)

    # ---- formats read through Assimp: `convert M.fbx out.msh` (Assimp names no position) ----
    fbx_binary = b"Kaydara FBX Binary  \x00\x1a\x00" + struct.pack("<I", 7400)
    foreign = {
        ("fbx", "empty file"): b"",
        ("fbx", "binary header only"): fbx_binary,
        ("fbx", "binary header, a node past the end"): fbx_binary + struct.pack("<III", 1 << 30, 1, 8) + b"\x03abc",
        ("fbx", "ASCII cut inside Objects"): b'; FBX 7.5.0 project file\nObjects: {\n  Geometry: 1, "Geometry::", "Mesh" {\n',
        ("fbx", "ASCII vertices not numbers"): b'; FBX 7.5.0 project file\nObjects:  {\n\tGeometry: 1, "Geometry::g", "Mesh" {\n\t\tVertices: *3 {\n\t\t\ta: x,y,z\n\t\t}\n\t}\n}\n',
        ("dae", "not XML"): b"<COLLADA><library_geometries><geometry",
        ("dae", "a triangle index past the vertices"): (
            b'<?xml version="1.0"?><COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">'
            b'<library_geometries><geometry id="g"><mesh><source id="p"><float_array id="pa" count="9">0 0 0 1 0 0 0 1 0</float_array>'
            b'<technique_common><accessor source="#pa" count="3" stride="3"><param name="X" type="float"/><param name="Y" type="float"/>'
            b'<param name="Z" type="float"/></accessor></technique_common></source><vertices id="v"><input semantic="POSITION" source="#p"/></vertices>'
            b'<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 7</p></triangles></mesh></geometry></library_geometries>'
            b'<library_visual_scenes><visual_scene id="s"><node><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>'
            b'<scene><instance_visual_scene url="#s"/></scene></COLLADA>'),
    }
    for (reader, name), data in foreign.items():
        add(reader, f"{reader.upper()}: {name}", data, to_msh, whole=True)

    # ---- glTF (JSON + .bin beside it): `convert M.gltf out.msh`, no sidecar: every accessor read ----
    gltf = json.load(open(os.path.join(work, "seed.gltf")))
    binary = open(os.path.join(work, "seed.bin"), "rb").read()

    def gltf_case(name, edit, bin_edit=None, whole=False):
        doc = json.loads(json.dumps(gltf))
        edit(doc)
        files = {"m.gltf": json.dumps(doc).encode(), "seed.bin": bin_edit(binary) if bin_edit else binary}
        add("gltf", f"glTF: {name}", files, ["convert", "{dir}/m.gltf", "{out}/m.msh"], whole=whole)

    def set_path(doc, path, value):
        node = doc
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value

    pos_acc = gltf["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
    idx_acc = gltf["meshes"][0]["primitives"][0]["indices"]
    edits = {
        "asset version 1.0": (["asset", "version"], "1.0"),
        "buffer byteLength past the file": (["buffers", 0, "byteLength"], len(binary) + 4096),
        "bufferView past the buffer": (["bufferViews", 0, "byteLength"], len(binary) * 2),
        "bufferView offset past the buffer": (["bufferViews", 0, "byteOffset"], len(binary)),
        "bufferView buffer index 5": (["bufferViews", 0, "buffer"], 5),
        "accessor count past its view": (["accessors", pos_acc, "count"], 1 << 22),
        "accessor offset past its view": (["accessors", pos_acc, "byteOffset"], 1 << 22),
        "POSITION componentType double": (["accessors", pos_acc, "componentType"], 5130),
        "POSITION type VEC2": (["accessors", pos_acc, "type"], "VEC2"),
        "POSITION type unknown": (["accessors", pos_acc, "type"], "VEC7"),
        "indices componentType float": (["accessors", idx_acc, "componentType"], 5126),
        "POSITION accessor index 999": (["meshes", 0, "primitives", 0, "attributes", "POSITION"], 999),
        "indices accessor index 999": (["meshes", 0, "primitives", 0, "indices"], 999),
        "accessor bufferView index 999": (["accessors", pos_acc, "bufferView"], 999),
        "bufferView byteStride 3": (["bufferViews", gltf["accessors"][pos_acc]["bufferView"], "byteStride"], 3),
        "node mesh index 999": (["nodes", 0, "mesh"], 999),
        "node child index 999": (["nodes", 0, "children"], [999]),
        "scene node index 999": (["scenes", 0, "nodes"], [999]),
        "buffer uri escaping the folder": (["buffers", 0, "uri"], "../seed.bin"),
        "buffer uri absolute": (["buffers", 0, "uri"], "/etc/passwd"),
        "buffer uri a missing file": (["buffers", 0, "uri"], "missing.bin"),
        "buffer data: uri not base64": (["buffers", 0, "uri"], "data:application/octet-stream;base64,@@@@"),
        "accessors not an array": (["accessors"], {"0": 1}),
        "node children a cycle": (["nodes", 0, "children"], [0]),
        # fuzz_gltf finding: a string member given as a number escaped as a JSON type_error
        "POSITION type a number": (["accessors", pos_acc, "type"], 7),
        "sampler interpolation a number": (["animations"], [{"samplers": [{"input": pos_acc, "output": pos_acc, "interpolation": 3}], "channels": []}]),
        "channel target path a number": (["animations"], [{"samplers": [{"input": pos_acc, "output": pos_acc}], "channels": [{"sampler": 0, "target": {"node": 0, "path": 1}}]}]),
    }
    for name, (path, value) in edits.items():
        gltf_case(name, lambda d, p=path, v=value: set_path(d, p, v))
    gltf_case("no POSITION", lambda d: d["meshes"][0]["primitives"][0]["attributes"].pop("POSITION"))
    gltf_case("an index past the vertices", lambda d: None,
              bin_edit=lambda b: poke(b, gltf["bufferViews"][gltf["accessors"][idx_acc]["bufferView"]].get("byteOffset", 0)
                                      + gltf["accessors"][idx_acc].get("byteOffset", 0), "<H", 0xFFFE))
    gltf_case("JSON nested 300 deep", lambda d: d["nodes"][0].update(extras=json.loads("[" * 300 + "]" * 300)))
    add("gltf", "glTF: not JSON", {"m.gltf": b'{"asset": {"version": "2.0"', "seed.bin": binary},
        ["convert", "{dir}/m.gltf", "{out}/m.msh"])
    add("gltf", "glTF: a JSON array", {"m.gltf": b"[1, 2]", "seed.bin": binary},
        ["convert", "{dir}/m.gltf", "{out}/m.msh"], whole=True)
    overflow = dict(gltf, asset=dict(gltf["asset"], extras=OVERFLOW_SENTINEL))
    add("gltf", "glTF: a number past the double range",
        {"m.gltf": with_overflow(overflow), "seed.bin": binary},
        ["convert", "{dir}/m.gltf", "{out}/m.msh"], whole=True)

    # ---- GLB: `convert M.glb out.msh` ----
    glb = open(os.path.join(work, "seed.glb"), "rb").read()
    to_msh_glb = ["convert", "{in}", "{out}/m.msh"]
    json_len = struct.unpack_from("<I", glb, 12)[0]
    truncations("glb", "GLB", glb, [0, 11, 12, 20, 20 + json_len // 2, len(glb) - 1], to_msh_glb)
    add("glb", "GLB: bad magic", b"glTX" + glb[4:], to_msh_glb)
    add("glb", "GLB: version 1", poke(glb, 4, "<I", 1), to_msh_glb)
    add("glb", "GLB: length field one more", poke(glb, 8, "<I", len(glb) + 1), to_msh_glb)
    add("glb", "GLB: JSON chunk past the file", poke(glb, 12, "<I", len(glb)), to_msh_glb)
    add("glb", "GLB: first chunk not JSON", poke(glb, 16, "<I", 0x004E4942), to_msh_glb)
    add("glb", "GLB: BIN chunk past the file", poke(glb, 20 + json_len, "<I", len(glb)), to_msh_glb)
    add("glb", "GLB: JSON chunk not JSON", glb[:20] + b"!" + glb[21:], to_msh_glb)

    # ---- model sidecar beside a good GLB: `convert M.glb out.msh` ----
    sidecar = json.load(open(os.path.join(work, "seed.sidecar.json")))
    sidecar_case = json_cases("sidecar", "model sidecar", sidecar, {"m.glb": glb}, "m.sidecar.json",
                              ["convert", "{dir}/m.glb", "{out}/m.msh"])

    sidecar_case("not JSON", None, raw=b'{"schema": ')
    sidecar_case("schema 3", lambda d: d.update(schema="mshconv-sidecar/3"))
    sidecar_case("kind texm", lambda d: d.update(kind="texm"))
    sidecar_case("source hash wrong", lambda d: d["source"].update(xxh3_64="0" * 16))
    sidecar_case("source hash missing", lambda d: d["source"].pop("xxh3_64"))
    sidecar_case("source size wrong", lambda d: d["source"].update(size=1))
    sidecar_case("fps negative", lambda d: d["export"].update(fps=-24))
    sidecar_case("fps a string", lambda d: d["export"].update(fps="24"))
    sidecar_case("export missing", lambda d: d.pop("export"))
    sidecar_case("lod 7", lambda d: d["export"]["options"].update(lod=7))
    sidecar_case("block not base64", lambda d: d["blocks"][0].update(base64="@@@"))
    sidecar_case("block edited without its hash",
                 lambda d: d["blocks"][0].update(base64=base64.b64encode(
                     b"\x01" + base64.b64decode(d["blocks"][0]["base64"])[1:]).decode()))
    sidecar_case("block size wrong", lambda d: d["blocks"][0].update(size=d["blocks"][0]["size"] + 1))
    sidecar_case("block missing", lambda d: d["blocks"].pop(0))
    sidecar_case("node flags past 16 bits", lambda d: d["nodes"]["rows"][0].__setitem__(1, 70000))
    sidecar_case("batch row short", lambda d: d["batches"]["rows"][0].pop())
    sidecar_case("slot tail a float", lambda d: d["slots"]["rows"][0][7].__setitem__(0, 0.5))
    sidecar_case("entry content unknown",
                 lambda d: d["container"]["entries"]["rows"][0].__setitem__(6, "magic"))
    sidecar_case("entry name not CP1251",
                 lambda d: d["container"]["entries"]["rows"][0].__setitem__(1, "\u540d"))
    sidecar_case("layout names entry 999", lambda d: d["container"]["layout"].__setitem__(0, [999, 16]))
    sidecar_case("vertex count one more", lambda d: d["vertices"].update(count=d["vertices"]["count"] + 1))
    sidecar_case("carried vertices past the count",
                 lambda d: d["vertices"].update(carried=[[d["vertices"]["count"], 1]]))
    sidecar_case("hull pattern not m/M", lambda d: d["derived"]["header"].update(hull="x" * 24))
    sidecar_case("triangle records cut",
                 lambda d: d["triangles"]["records"].update(
                     base64=base64.b64encode(base64.b64decode(d["triangles"]["records"]["base64"])[:-1]).decode(),
                     size=d["triangles"]["records"]["size"] - 1, xxh3_64=None))
    sidecar_case("checks not base64", lambda d: d["checks"].update(nodes="@@"))
    sidecar_case("nested 300 deep", lambda d: d.update(extra=json.loads("[" * 300 + "]" * 300)))
    sidecar_case("fps past the double range", None,
                 raw=with_overflow(dict(sidecar, export=dict(sidecar["export"], fps=OVERFLOW_SENTINEL))))

    # ---- a model sidecar of the first layout (the whole image; older releases) ----
    first = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "sidecar_v1")
    old_glb = open(os.path.join(first, "rock_a.glb"), "rb").read()
    old = json.load(open(os.path.join(first, "rock_a.sidecar.json")))
    old_case = json_cases("sidecar", "model sidecar (first layout)", old, {"m.glb": old_glb},
                          "m.sidecar.json", ["convert", "{dir}/m.glb", "{out}/m.msh"])
    old_case("schema 2 without its members", lambda d: d.update(schema="mshconv-sidecar/2"))
    old_case("original image not base64", lambda d: d.update(original_image="@@@"))
    old_case("original image hash wrong", lambda d: d["source"].update(xxh3_64="0" * 16))
    old_case("original image hash missing", lambda d: d["source"].pop("xxh3_64"))
    old_case("original image FNV-1a hash wrong (an older sidecar)",
             lambda d: d["source"].update(fnv1a64="0" * 16) or d["source"].pop("xxh3_64"))
    old_case("original image size wrong", lambda d: d["source"].update(size=1))
    old_case("original image of another model",
             lambda d: d["source"].update(size=len(models[1][1]), xxh3_64=None) or d.update(
                 original_image=base64.b64encode(models[1][1]).decode()))

    # ---- texture sidecar beside a PNG: `convert T.png out.texm` ----
    tsc = json.load(open(os.path.join(work, "seed.png.sidecar.json")))
    texture_sidecar_case = json_cases("sidecar", "texture sidecar", tsc, {"t.png": png},
                                      "t.sidecar.json", ["convert", "{dir}/t.png", "{out}/t.texm"])

    texture_sidecar_case("not JSON", None, raw=b"[")
    texture_sidecar_case("schema 0", lambda d: d.update(schema="mshconv-sidecar/0"))
    for key in [k for k, v in tsc.items() if isinstance(v, dict) and "base64" in v][:1]:
        texture_sidecar_case(f"{key} not base64", lambda d, k=key: d[k].update(base64="@@"))
        texture_sidecar_case(f"{key} hash wrong", lambda d, k=key: d[k].update(xxh3_64="0" * 16))
    texture_sidecar_case("nested 300 deep", lambda d: d.update(extra=json.loads("[" * 300 + "]" * 300)))
    texture_sidecar_case("a number past the double range", None,
                         raw=with_overflow(dict(tsc, extra=OVERFLOW_SENTINEL)))
    texture_sidecar_case("source hash wrong", lambda d: d["source"].update(xxh3_64="0" * 16))
    texture_sidecar_case("flags5 a string", lambda d: d["header"].update(flags5="0x04000000"))
    texture_sidecar_case("mip count past 32 bits", lambda d: d["header"].update(mip_count=1 << 32))
    texture_sidecar_case("mip count past the full chain", lambda d: d["header"].update(mip_count=40))
    texture_sidecar_case("format 7", lambda d: d["header"].update(format=7))
    texture_sidecar_case("page a string", lambda d: d.update(page="none"))
    texture_sidecar_case("page row short", lambda d: d.update(page=[[1, 2, 3]]))
    texture_sidecar_case("level rows empty", lambda d: d["levels"].update(rows=[]))
    texture_sidecar_case("level 0 in the sidecar", lambda d: d["levels"]["rows"][0].update({"in": "sidecar"}))
    texture_sidecar_case("level row numbered wrong", lambda d: d["levels"]["rows"][0].update(level=3))
    texture_sidecar_case("palette_x short", lambda d: d.update(palette_x="00"))
    texture_sidecar_case("tail edited without its hash", lambda d: d["tail"].update(base64="AAAA", size=3))
    texture_sidecar_case("checks missing", lambda d: d.pop("checks"))
    if len(tsc["levels"]["rows"]) > 1:
        texture_sidecar_case("mip block edited without its hash",
                             lambda d: d["levels"]["rows"][1].update(
                                 base64=base64.b64encode(b"\x01" * d["levels"]["rows"][1]["size"]).decode()))

    # ---- a texture sidecar of the first layout (the whole payload; older releases) ----
    old_tsc = json.load(open(os.path.join(first, "barrel_dk.sidecar.json")))
    old_texture_case = json_cases("sidecar", "texture sidecar (first layout)", old_tsc,
                                  {"t.png": open(os.path.join(first, "barrel_dk.png"), "rb").read()},
                                  "t.sidecar.json", ["convert", "{dir}/t.png", "{out}/t.texm"])
    old_texture_case("original hash wrong", lambda d: d["original"].update(xxh3_64="0" * 16))
    old_texture_case("original size wrong", lambda d: d["original"].update(size=1))
    old_texture_case("header width a string", lambda d: d["header"].update(width="8"))

    # ---- Land.msh / Land.map: `convert Land.msh out.glb` (Land.map and WEARs beside it) ----
    level = os.path.join(corpus, "DATA", "MAPS", sorted(os.listdir(os.path.join(corpus, "DATA", "MAPS")))[0])
    land = open(os.path.join(level, "Land.msh"), "rb").read()
    land_map = open(os.path.join(level, "Land.map"), "rb").read()
    beside = {n: open(os.path.join(level, n), "rb").read() for n in os.listdir(level) if n.lower().endswith(".wea")}

    def level_case(name, msh=land, map_=land_map):
        add("terrain", name, dict(beside, **{"Land.msh": msh, "Land.map": map_}),
            ["convert", "{dir}/Land.msh", "{out}/l.glb"])

    terrain_strides = {1: 38, 3: 12, 4: 4, 5: 4, 11: 4, 14: 4, 18: 4, 21: 28}
    before = len(cases)
    stride_cases("terrain", "Land.msh", land, terrain_strides, None, emptied=(3, 21))
    for c in cases[before:]:
        c.files = dict(beside, **{"Land.msh": c.files, "Land.map": land_map})
        c.args = ["convert", "{dir}/Land.msh", "{out}/l.glb"]
    for n in [0, 16, len(land) // 2, len(land) - 1]:
        level_case(f"Land.msh: cut to {n} of {len(land)} bytes", msh=land[:n])
    for n in [0, 4, len(land_map) // 2, len(land_map) - 1]:
        level_case(f"Land.map: cut to {n} of {len(land_map)} bytes", map_=land_map[:n])
    add("terrain", "Land.map: one byte appended (strict)", {"Land.map": land_map + b"\0"},
        ["validate", "--strict", "{dir}/Land.map"], single=False)
    level_case("Land.map: areal count 1<<24", map_=poke(land_map, 0, "<I", 1 << 24) if len(land_map) > 4 else land_map)
    # NaN corners of the first areal (its record starts the payload, 16 bytes in; 56-byte prefix):
    # the draped overlay must neither index its ground grid with them nor sort them wrongly.
    nan_corner = poke(land_map, 16 + 56, "<f", float("nan"))
    level_case("Land.map: an areal corner x is NaN", map_=nan_corner)
    all_nan = land_map
    for k in range(3):
        for c in range(2):
            all_nan = poke(all_nan, 16 + 56 + 12 * k + 4 * c, "<f", float("nan"))
    level_case("Land.map: an areal's first three corners are NaN", map_=all_nan)

    # ---- terrain sidecar beside its map's GLB: `convert L.glb out/Land.msh` ----
    run_ok("convert", os.path.join(level, "Land.msh"), os.path.join(work, "seedmap.glb"))
    map_glb = open(os.path.join(work, "seedmap.glb"), "rb").read()
    terrain_sidecar = json.load(open(os.path.join(work, "seedmap.sidecar.json")))
    terrain_sidecar_case = json_cases("sidecar", "terrain sidecar", terrain_sidecar, {"l.glb": map_glb},
                                      "l.sidecar.json", ["convert", "{dir}/l.glb", "{out}/Land.msh"])

    def set_block_byte(block):
        data = bytearray(base64.b64decode(block["base64"]))
        data[0] ^= 1
        block["base64"] = base64.b64encode(bytes(data)).decode()

    terrain_sidecar_case("face flags a string", lambda d: d["faces"]["rows"][3].__setitem__(0, "0x608"),
                         pointer="/faces/rows/3/0")
    terrain_sidecar_case("face material row out of range",
                         lambda d: d["faces"]["rows"][3].__setitem__(1, 256), pointer="/faces/rows/3/1")
    terrain_sidecar_case("face neighbour negative", lambda d: d["faces"]["rows"][0].__setitem__(4, -2),
                         pointer="/faces/rows/0/4")
    terrain_sidecar_case("face indices of a face twice",
                         lambda d: d["face_indices"].update(rows=[[0, 0, 1, 2], [0, 0, 1, 2]]),
                         pointer="/face_indices/rows/1/0")
    terrain_sidecar_case("face row cut short", lambda d: d["faces"]["rows"][5].pop(), pointer="/faces/rows/5")
    terrain_sidecar_case("faces not rows", lambda d: d["faces"].update(rows={}), pointer="/faces/rows")
    terrain_sidecar_case("block edited without its hash", lambda d: set_block_byte(d["blocks"][1]),
                         pointer="/blocks/1/xxh3_64")
    terrain_sidecar_case("block size wrong", lambda d: d["blocks"][0].update(size=3), pointer="/blocks/0/size")
    terrain_sidecar_case("block not base64", lambda d: d["blocks"][0].update(base64="@@"),
                         pointer="/blocks/0/base64")
    terrain_sidecar_case("areal class_id a string", lambda d: d["map"]["areals"]["rows"][2].__setitem__(10, "1"),
                         pointer="/map/areals/rows/2/10")
    terrain_sidecar_case("areal logic_flag past u32",
                         lambda d: d["map"]["areals"]["rows"][2].__setitem__(8, 1 << 32),
                         pointer="/map/areals/rows/2/8")
    terrain_sidecar_case("areal area past f32", lambda d: d["map"]["areals"]["rows"][1].__setitem__(4, 1e300),
                         pointer="/map/areals/rows/1/4")
    terrain_sidecar_case("areal row cut short", lambda d: d["map"]["areals"]["rows"][4].pop(),
                         pointer="/map/areals/rows/4")
    terrain_sidecar_case("areal links a pair short", lambda d: d["map"]["links"]["rows"][3].__delitem__(slice(-2, None)),
                         pointer="/map/links/rows/3")
    terrain_sidecar_case("areal link a fraction", lambda d: d["map"]["links"]["rows"][3].__setitem__(0, 0.5),
                         pointer="/map/links/rows/3/0")
    terrain_sidecar_case("areal polygon vertex fingerprints hash wrong",
                         lambda d: d["map"]["vertices"]["fingerprints"].update(xxh3_64="0" * 16),
                         pointer="/map/vertices/fingerprints/xxh3_64")
    terrain_sidecar_case("areal polygon vertex fingerprints size wrong",
                         lambda d: d["map"]["vertices"]["fingerprints"].update(size=3),
                         pointer="/map/vertices/fingerprints/size")
    terrain_sidecar_case("areal polygon vertex fingerprints not base64",
                         lambda d: d["map"]["vertices"]["fingerprints"].update(base64="@@"),
                         pointer="/map/vertices/fingerprints/base64")
    terrain_sidecar_case("areal polygon vertex count a string",
                         lambda d: d["map"]["vertices"].update(count="12"), pointer="/map/vertices/count")
    terrain_sidecar_case("areal polygon vertex count past the rows' V",
                         lambda d: d["map"]["vertices"].update(count=d["map"]["vertices"]["count"] + 1),
                         pointer="/map/vertices/count")
    terrain_sidecar_case("areal carried polygon vertices past the count",
                         lambda d: d["map"]["vertices"].update(carried=[[0, 10 ** 6]]),
                         pointer="/map/vertices/carried/0")
    terrain_sidecar_case("areal carried polygon positions hash wrong",
                         lambda d: d["map"]["vertices"]["positions"].update(xxh3_64="0" * 16),
                         pointer="/map/vertices/positions/xxh3_64")
    terrain_sidecar_case("areal polygon vertices a number", lambda d: d["map"].update(vertices=7),
                         pointer="/map/vertices")
    terrain_sidecar_case("areal grid rule not a bool", lambda d: d["map"].update(grid_rule=1),
                         pointer="/map/grid_rule")
    terrain_sidecar_case("directory entry of another type", lambda d: d["blocks"][0].update(type=99),
                         pointer="/blocks/0/type")
    terrain_sidecar_case("carried range past the vertices",
                         lambda d: d["vertices"].update(carried=[[0, 10 ** 6]]), pointer="/vertices/carried/0")
    terrain_sidecar_case("UV records of a vertex range missing",
                         lambda d: d["vertices"]["layer1_uvs"].update(carried=[[0, 1]]),
                         pointer="/vertices/layer1_uvs/records")
    terrain_sidecar_case("weight records hash wrong",
                         lambda d: d["vertices"]["weights"]["records"].update(xxh3_64="0" * 16),
                         pointer="/vertices/weights/records/xxh3_64")
    terrain_sidecar_case("layer-2 UV range past the vertices",
                         lambda d: d["vertices"]["layer2_uvs"].update(carried=[[0, 10 ** 6]]),
                         pointer="/vertices/layer2_uvs/carried/0")
    terrain_sidecar_case("weights member missing", lambda d: d["vertices"].pop("weights"),
                         pointer="/vertices/weights")
    terrain_sidecar_case("another source, nothing a check covers edited",
                         lambda d: d["container"]["layout"][0].__setitem__(0, 1),
                         pointer="/source/xxh3_64")
    terrain_sidecar_case("another source's hash (the pairing token covers it)",
                         lambda d: d["source"].update(xxh3_64="0123456789abcdef"),
                         pointer="/export/pair")

    # ---- a first-layout terrain sidecar (an older release's; tests/fixtures/sidecar_v1) ----
    kept = os.path.join(source_dir, "tests", "fixtures", "sidecar_v1")
    v1_glb = open(os.path.join(kept, "tiny.glb"), "rb").read()
    v1_sidecar = json.load(open(os.path.join(kept, "tiny.sidecar.json")))
    v1_case = json_cases("sidecar", "first-layout terrain sidecar", v1_sidecar, {"l.glb": v1_glb},
                         "l.sidecar.json", ["convert", "{dir}/l.glb", "{out}/Land.msh"])
    v1_case("Land.msh hash missing", lambda d: d["land_msh"].pop("xxh3_64"), pointer="/land_msh/xxh3_64")
    v1_case("Land.map hash wrong", lambda d: d["land_map"].update(xxh3_64="0" * 16),
            pointer="/land_map/xxh3_64")
    v1_case("Land.msh not base64", lambda d: d["land_msh"].update(base64="@@"), pointer="/land_msh/base64")

    # ---- WEAR and MAT0: `validate --strict` (read by every model export; no output of its own) ----
    wears = {
        "count not a number": "x\n",
        "count larger than the rows": "3\n0 MAT_A\n1 MAT_B\n",
        "negative count": "-1\n",
        "row without a name": "1\n0\n",
        "row index not a number": "1\nzero MAT\n",
        "LIGHTMAPS count past the rows": "1\n0 MAT\n\nLIGHTMAPS\n4\n0 LM\n",
    }
    for name, text in wears.items():
        add("wear", f"WEAR: {name}", {"bad.wea": text.encode()}, ["validate", "--strict", "{dir}/bad.wea"],
            single=False)
    materials = open(os.path.join(corpus, "Material.lib"), "rb").read()
    mat_entries = nres_read(materials)
    mat = mat_entries[0]["data"]
    for name, payload in {"cut to 0 bytes": b"", "cut by one byte": mat[:-1], "cut to half": mat[: len(mat) // 2],
                          "phase count 0xFFFF": poke(mat, 0, "<H", 0xFFFF) if len(mat) >= 2 else mat}.items():
        copy = [dict(e) for e in mat_entries]
        copy[0]["data"] = payload
        add("mat0", f"MAT0 (Material.lib entry 0): {name}", {"Material.lib": nres_write(copy)},
            ["validate", "--strict", "{dir}/Material.lib"], single=False)

    # ---- _nres.json manifests: `nres pack DIR -o out.rlb` ----
    manifest = json.load(open(os.path.join(work, "unpacked", "_nres.json")))
    payload_files = {n: open(os.path.join(work, "unpacked", n), "rb").read()
                     for n in os.listdir(os.path.join(work, "unpacked")) if n != "_nres.json"}

    manifest_case = json_cases("manifest", "_nres.json", manifest, payload_files, "_nres.json",
                               ["nres", "pack", "{dir}", "-o", "{out}/a.rlb"])

    manifest_case("not JSON", None, raw=b"{")
    manifest_case("schema 2", lambda d: d.update(schema="mshconv-nres/2"))
    manifest_case("entries an object", lambda d: d.update(entries={}))
    manifest_case("raw_name not hex", lambda d: d["entries"][0].update(raw_name="zz"))
    manifest_case("raw_name 35 bytes", lambda d: d["entries"][0].update(raw_name=d["entries"][0]["raw_name"][:-2]))
    manifest_case("type a string", lambda d: d["entries"][0].update(type="1"))
    manifest_case("type negative", lambda d: d["entries"][0].update(type=-1))
    manifest_case("layout names entry 999", lambda d: d["layout"][0].update(payload=999))
    manifest_case("gap not hex", lambda d: d["layout"].append({"gap": "xyz"}))
    manifest_case("file escaping the folder", lambda d: d["entries"][0].update(file="../x"))
    manifest_case("file absolute", lambda d: d["entries"][0].update(file="/etc/passwd"))
    manifest_case("file missing", lambda d: d["entries"][0].update(file="missing.bin"))
    manifest_case("nested 300 deep", lambda d: d.update(extra=json.loads("[" * 300 + "]" * 300)))
    manifest_case("file a number", lambda d: d["entries"][0].update(file=5), pointer="/entries/0/file")
    manifest_case("neither file nor converted", lambda d: d["entries"][0].pop("file"),
                  pointer="/entries/0")

    # ---- the same manifests rebuilt by `batch DIR --to nres` (which also reads "converted";
    # the archive's line and the folder's "not written" line: two error lines) ----
    # (In a folder of its own: batch refuses an output inside its input.)
    rebuild_case = json_cases("manifest", "_nres.json (batch --to nres)", manifest,
                              {f"u/{n}": data for n, data in payload_files.items()}, "u/_nres.json",
                              ["batch", "{dir}/u", "--to", "nres", "-o", "{out}/a.lib"], single=False)
    rebuild_case("not JSON", None, raw=b"[")
    rebuild_case("neither file nor converted", lambda d: d["entries"][0].pop("file"),
                 pointer="/entries/0")
    rebuild_case("both file and converted",
                 lambda d: d["entries"][0].update(converted={"kind": "texture"}), pointer="/entries/0")
    rebuild_case("converted kind a number",
                 lambda d: d["entries"][0].pop("file") and d["entries"][0].update(converted={"kind": 5}),
                 pointer="/entries/0/converted/kind")
    rebuild_case("converted texture without its png",
                 lambda d: d["entries"][0].pop("file") and
                 d["entries"][0].update(converted={"kind": "texture", "sidecar": "x.json"}),
                 pointer="/entries/0/converted/png")
    rebuild_case("file escaping the folder", lambda d: d["entries"][0].update(file="../x"),
                 pointer="/entries/0/file")


def prepare_seeds(corpus, work):
    """Valid inputs the cases damage: exports of corpus files."""
    static = os.path.join(corpus, "static.rlb")
    first = nres_read(open(static, "rb").read())[0]["name"].split(b"\0")[0].decode()
    run_ok("convert", f"{static}:{first}", os.path.join(work, "seed.gltf"))
    os.remove(os.path.join(work, "seed.sidecar.json"))  # the .gltf case reads every accessor
    run_ok("convert", f"{static}:{first}", os.path.join(work, "seed.glb"))
    textures = os.path.join(corpus, "Textures.lib")
    tname = nres_read(open(textures, "rb").read())[0]["name"].split(b"\0")[0].decode()
    run_ok("convert", f"{textures}:{tname}", os.path.join(work, "seed.png"))
    os.rename(os.path.join(work, "seed.sidecar.json"), os.path.join(work, "seed.png.sidecar.json"))
    run_ok("convert", f"{static}:{first}", os.path.join(work, "seed.glb"))  # its sidecar again
    run_ok("nres", "extract", os.path.join(corpus, "palettes.lib"), "-o", os.path.join(work, "unpacked"))


def run_ok(*args):
    r = subprocess.run([mshconv, "--quiet", *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"seed: mshconv {' '.join(args)} failed: {r.stderr}")


def check(case, root, index):
    folder = os.path.join(root, f"case{index:03d}")
    out = os.path.join(folder, "out")
    os.makedirs(out)
    if isinstance(case.files, dict):
        for name, data in case.files.items():
            os.makedirs(os.path.dirname(os.path.join(folder, name)), exist_ok=True)
            open(os.path.join(folder, name), "wb").write(data)
        input_name = next(n for n in case.files if n.endswith((".gltf", ".glb", ".msh", ".map", ".png", ".wea", ".lib", ".json")))
        manifests = [n for n in case.files if n.endswith("_nres.json")]
        if manifests:
            input_name = manifests[0]
        elif "Land.msh" in case.files or "Land.map" in case.files:
            input_name = "Land." + ("map" if case.name.startswith("Land.map") else "msh")
        elif "m.glb" in case.files and "m.sidecar.json" in case.files:
            input_name = "m.sidecar.json"
        elif "t.png" in case.files:
            input_name = "t.sidecar.json"
        elif "l.glb" in case.files:
            input_name = "l.sidecar.json"
    else:
        ext = {"nres": ".rlb", "msh": ".msh", "texm": ".texm", "png": ".png", "obj": ".obj",
               "glb": ".glb", "fbx": ".fbx", "dae": ".dae"}[case.reader]
        input_name = "in" + ext
        open(os.path.join(folder, input_name), "wb").write(case.files)
    before = sorted(os.listdir(folder))
    args = [a.replace("{in}", os.path.join(folder, input_name)).replace("{out}", out).replace("{dir}", folder)
            for a in case.args]
    r = subprocess.run([mshconv, *args], capture_output=True, text=True, errors="replace")
    problems = []
    if r.returncode != 1:
        problems.append(f"exit {r.returncode}")
    # Converting commands print errors on stderr; validate lists its diagnostics on stdout.
    errors = [line for line in (r.stderr + r.stdout).splitlines() if line.startswith("error:")]
    if not errors:
        problems.append("no error line")
    elif case.single and len(errors) != 1:
        problems.append(f"{len(errors)} error lines")
    named = os.path.basename(input_name)  # the folder's separator is the system's
    if errors and named not in errors[0] and os.path.splitext(named)[0] not in errors[0]:
        problems.append("the error does not name the input file")
    if errors and not case.whole and not any(LOCATION.search(e) for e in errors):
        problems.append("the error has no location (offset, line or JSON pointer)")
    if errors and case.pointer and f"at {case.pointer}: " not in errors[0]:
        problems.append(f"the error does not name {case.pointer}")
    if os.listdir(out):
        problems.append(f"output written: {os.listdir(out)}")
    if sorted(os.listdir(folder)) != before:
        problems.append(f"files left beside the input: {sorted(set(os.listdir(folder)) - set(before))}")
    if r.returncode < 0 or "Sanitizer" in r.stderr or "runtime error" in r.stderr:
        problems.append("crash or sanitizer report")
    return problems, (errors[0] if errors else r.stderr.strip()[:300])


def main():
    root = tempfile.mkdtemp(prefix="mshconv-malformed-")
    try:
        corpus = os.path.join(root, "corpus")
        if not sample_corpus(mshconv, corpus):
            sys.exit("FAIL: no sample corpus")
        work = os.path.join(root, "seeds")
        os.makedirs(work)
        prepare_seeds(corpus, work)
        generate(corpus, work)
        failures = 0
        by_reader = {}
        for i, case in enumerate(cases):
            problems, message = check(case, os.path.join(root, "cases"), i)
            by_reader[case.reader] = by_reader.get(case.reader, 0) + 1
            if "--list" in sys.argv:
                print(f"{'FAIL' if problems else 'ok  '} {case.reader:8} {case.name}: {message}")
            if problems:
                failures += 1
                print(f"FAIL {case.reader}: {case.name}: {'; '.join(problems)}\n     {message}")
        print(f"{len(cases)} malformed inputs: " + ", ".join(f"{k} {v}" for k, v in sorted(by_reader.items())))
        if len(cases) < MIN_CASES:
            sys.exit(f"FAIL: only {len(cases)} cases (at least {MIN_CASES})")
        if failures:
            sys.exit(f"FAIL: {failures} of {len(cases)} cases")
    finally:
        shutil.rmtree(root, ignore_errors=True)


main()
