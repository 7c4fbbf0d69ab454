#!/usr/bin/env python3
"""examples/roundtrip on every model of the sample corpus: each archive entry goes to GLB and back
through the library API and must give its archive back byte for byte, with a GLB on disk.

usage: check_example.py BUILD_DIR
"""
import os
import subprocess
import sys
import tempfile

build = os.path.abspath(sys.argv[1])
mshconv = os.path.join(build, "mshconv")
example = os.path.join(build, "example_roundtrip")

with tempfile.TemporaryDirectory() as work:
    subprocess.run([mshconv, "samples", f"{work}/corpus"], check=True, capture_output=True)
    count = 0
    for archive in sorted(f for f in os.listdir(f"{work}/corpus") if f.endswith(".rlb")):
        listing = subprocess.run([mshconv, "nres", "list", f"{work}/corpus/{archive}"],
                                 check=True, capture_output=True, text=True).stdout
        for row in (line.split() for line in listing.splitlines()[1:]):
            if len(row) < 3 or row[2] != "MESH":
                continue
            glb = f"{work}/{archive}_{row[1]}.glb"
            r = subprocess.run([example, f"{work}/corpus/{archive}", row[1], glb],
                               capture_output=True, text=True)
            if r.returncode != 0 or "byte-identical" not in r.stdout:
                sys.exit(f"FAIL {archive}:{row[1]}: exit {r.returncode} {r.stdout}{r.stderr}")
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
    print(f"ok: {count} models through examples/roundtrip, every archive byte-identical")
