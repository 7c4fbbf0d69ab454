#!/usr/bin/env python3
"""examples/roundtrip on every model of the sample corpus: each archive entry goes to GLB and back
through the library API and must give its archive back byte for byte, with a GLB on disk; and
examples/thumbnail draws each model of static.rlb to a PNG in memory (its size, kind and facts
printed, the PNG written only when asked) whose pixels are not all transparent; and
examples/batch_folder converts the whole corpus folder to GLB and PNG with its progress callback
and back, giving every file of the folder back byte for byte; and examples/error_place reads the
place of the library's error: a cut archive's file and offset, an edited sidecar's JSON pointer.

usage: check_example.py BUILD_DIR
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import sample_corpus  # noqa: E402

build = os.path.abspath(sys.argv[1])
mshconv = os.path.join(build, "mshconv")
example = os.path.join(build, "example_roundtrip")
thumbnail = os.path.join(build, "example_thumbnail")
batch_folder = os.path.join(build, "example_batch_folder")


def tree(root):
    """Every file below `root` by its relative path, with its bytes."""
    files = {}
    for folder, _, names in os.walk(root):
        for name in names:
            with open(os.path.join(folder, name), "rb") as fh:
                files[os.path.relpath(os.path.join(folder, name), root)] = fh.read()
    return files


def models(archive):
    """The MESH entries of an archive, by `mshconv nres list`."""
    listing = subprocess.run([mshconv, "nres", "list", archive], check=True, capture_output=True,
                             text=True).stdout
    rows = (line.split() for line in listing.splitlines()[1:])
    return [row[1] for row in rows if len(row) > 2 and row[2] == "MESH"]


with tempfile.TemporaryDirectory() as work:
    if not sample_corpus(mshconv, f"{work}/corpus"):
        sys.exit("FAIL: no sample corpus")
    count = 0
    for archive in sorted(f for f in os.listdir(f"{work}/corpus") if f.endswith(".rlb")):
        for entry in models(f"{work}/corpus/{archive}"):
            glb = f"{work}/{archive}_{entry}.glb"
            r = subprocess.run([example, f"{work}/corpus/{archive}", entry, glb],
                               capture_output=True, text=True)
            if r.returncode != 0 or "byte-identical" not in r.stdout:
                sys.exit(f"FAIL {archive}:{entry}: exit {r.returncode} {r.stdout}{r.stderr}")
            with open(glb, "rb") as fh:
                if fh.read(4) != b"glTF":
                    sys.exit(f"FAIL {glb}: not a GLB")
            count += 1
    # A missing entry is an error with the entry named, exit 1.
    r = subprocess.run([example, f"{work}/corpus/static.rlb", "NOPE.msh", f"{work}/x.glb"],
                       capture_output=True, text=True)
    if r.returncode != 1 or "NOPE.msh" not in r.stderr or os.path.exists(f"{work}/x.glb"):
        sys.exit(f"FAIL missing entry: exit {r.returncode} {r.stderr}")
    if count < 60:
        sys.exit(f"FAIL only {count} models found")
    thumbs = 0
    for entry in models(f"{work}/corpus/static.rlb"):
        png = f"{work}/{entry}.png"
        r = subprocess.run([thumbnail, f"{work}/corpus/static.rlb", entry], capture_output=True,
                           text=True)
        if (r.returncode != 0 or "-byte PNG, 128 x 128" not in r.stdout or os.path.exists(png)
                or not re.search(r"its origin at pixel \(-?[0-9.]+, -?[0-9.]+\)", r.stdout)
                or not re.search(r"^[1-9][0-9]* triangles, [1-9][0-9]* materials$", r.stdout, re.M)):
            sys.exit(f"FAIL thumbnail {entry} (in memory): exit {r.returncode} {r.stdout}{r.stderr}")
        r = subprocess.run([thumbnail, f"{work}/corpus/static.rlb", entry, png],
                           capture_output=True, text=True)
        with open(png, "rb") as fh:
            data = fh.read()
        if r.returncode != 0 or not data.startswith(b"\x89PNG\r\n\x1a\n"):
            sys.exit(f"FAIL thumbnail {entry}: exit {r.returncode} {r.stderr}")
        # Something was drawn: a wholly transparent RGBA picture filters to zero bytes in every
        # row, whatever the row filters are.
        idat, at = b"", 8
        while at < len(data):
            (size,) = struct.unpack(">I", data[at:at + 4])
            if data[at + 4:at + 8] == b"IDAT":
                idat += data[at + 8:at + 8 + size]
            at += 12 + size
        raw, stride = zlib.decompress(idat), 1 + 128 * 4
        if not any(raw[y * stride + 1:(y + 1) * stride].strip(b"\0") for y in range(128)):
            sys.exit(f"FAIL thumbnail {entry}: nothing drawn")
        thumbs += 1
    if thumbs < 10:
        sys.exit(f"FAIL only {thumbs} thumbnails")

    r = subprocess.run([batch_folder, f"{work}/corpus", f"{work}/mirror", f"{work}/back"],
                       capture_output=True, text=True)
    lines = r.stdout.splitlines()
    if r.returncode != 0 or len(lines) != 2 or " 0 failed" not in lines[0]:
        sys.exit(f"FAIL batch_folder: exit {r.returncode} {r.stdout}{r.stderr[-2000:]}")
    converted = int(lines[0].split(": ")[1].split()[0])
    rebuilt, unchanged = int(lines[1].split(": ")[1].split()[0]), int(lines[1].split()[-2])
    if converted < count or rebuilt == 0 or unchanged == 0:
        sys.exit(f"FAIL batch_folder: {converted} converted, {rebuilt} rebuilt, {unchanged} "
                 f"unchanged: {r.stdout}")
    if f"{converted} done" not in r.stderr.replace("\r", "\n"):
        sys.exit(f"FAIL batch_folder: the progress callback did not count {converted} items")
    if not any(n.endswith(".glb") for n in tree(f"{work}/mirror")):
        sys.exit("FAIL batch_folder: no GLB in the mirror")
    original, back = tree(f"{work}/corpus"), tree(f"{work}/back")
    if original != back:
        differ = sorted(set(original) ^ set(back)) or sorted(
            k for k in original if original[k] != back[k])
        sys.exit(f"FAIL batch_folder: the folder did not come back byte for byte: {differ[:5]}")
    # examples/error_place: a cut archive gives the file and the offset; an edited sidecar gives
    # the sidecar and the JSON pointer; neither writes an output.
    error_place = os.path.join(build, "example_error_place")
    with open(f"{work}/corpus/static.rlb", "rb") as fh:
        whole = fh.read()
    with open(f"{work}/cut.rlb", "wb") as fh:
        fh.write(whole[:len(whole) // 2])
    r = subprocess.run([error_place, f"{work}/cut.rlb:House_01.msh", f"{work}/cut.glb"],
                       capture_output=True, text=True)
    fields = dict(line.split(": ", 1) for line in r.stdout.splitlines() if ": " in line)
    if (r.returncode != 1 or fields.get("file") != f"{work}/cut.rlb" or "offset" not in fields
            or "truncated" not in fields.get("message", "") or os.path.exists(f"{work}/cut.glb")):
        sys.exit(f"FAIL error_place on a cut archive: exit {r.returncode} {r.stdout}{r.stderr}")
    cut_offset = int(fields["offset"])
    r = subprocess.run([mshconv, "convert", f"{work}/corpus/static.rlb:House_01.msh",
                        f"{work}/house.glb"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL export for error_place: {r.stderr}")
    with open(f"{work}/house.sidecar.json", encoding="utf-8") as fh:
        sidecar = json.load(fh)
    sidecar["export"]["options"]["lod"] = 1
    with open(f"{work}/house.sidecar.json", "w", encoding="utf-8") as fh:
        json.dump(sidecar, fh)
    r = subprocess.run([error_place, f"{work}/house.glb", f"{work}/house.msh"],
                       capture_output=True, text=True)
    fields = dict(line.split(": ", 1) for line in r.stdout.splitlines() if ": " in line)
    if (r.returncode != 1 or fields.get("file") != f"{work}/house.sidecar.json"
            or fields.get("pointer") != "/export/pair" or os.path.exists(f"{work}/house.msh")):
        sys.exit(f"FAIL error_place on an edited sidecar: exit {r.returncode} {r.stdout}{r.stderr}")

    print(f"ok: {count} models through examples/roundtrip, every archive byte-identical; "
          f"{thumbs} thumbnails through examples/thumbnail; examples/batch_folder: "
          f"{converted} items converted and {len(back)} files back byte for byte; "
          f"examples/error_place: a cut archive at offset {cut_offset}, an edited sidecar at "
          f"/export/pair")
