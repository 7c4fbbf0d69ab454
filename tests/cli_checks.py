"""Shared by the command-line test scripts: the check lines and failure list, mshconv runs, the
sample corpus, and the geometry of an OBJ (our exports hold world positions)."""
import math
import os
import subprocess
import sys


def sample_corpus(mshconv, folder):
    """The standard sample corpus at `folder` (which must not exist), for reading only: a link to
    the folder the ctest fixture wrote (MSHCONV_TEST_CORPUS, tests/corpus_fixture.py), else written
    by `mshconv samples` (a test run by hand). True when it is there."""
    root = os.environ.get("MSHCONV_TEST_CORPUS")
    if root:
        shared = os.path.join(root, "corpus")
        if not os.path.isdir(shared):
            print(f"MSHCONV_TEST_CORPUS: no folder {shared}")
            return False
        os.symlink(shared, folder)
        return True
    return subprocess.run([mshconv, "samples", folder], capture_output=True).returncode == 0


class Checks:
    def __init__(self, mshconv):
        self.mshconv = mshconv
        self.failures = []

    def check(self, ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            self.failures.append(what)

    def run(self, *args):
        return subprocess.run([self.mshconv, *args], capture_output=True, text=True)


def run_mshconv(mshconv, *args):
    """mshconv --quiet ARGS; exits the test with the command and its stderr when it fails."""
    r = subprocess.run([mshconv, "--quiet", *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: mshconv {' '.join(args)} exited {r.returncode}: {r.stderr.strip()}")


def archive_entries(mshconv, archive, wanted_type):
    """The names of an archive's entries of one type (MESH, Texm, ...), by `mshconv nres list`."""
    r = subprocess.run([mshconv, "nres", "list", archive], capture_output=True, text=True,
                       check=True)
    rows = [line.split() for line in r.stdout.splitlines()[1:]]
    return [row[1] for row in rows if len(row) > 2 and row[2] == wanted_type]


def files_below(folder):
    """Every file below `folder`, as sorted relative paths."""
    return sorted(os.path.relpath(os.path.join(d, f), folder)
                  for d, _, names in os.walk(folder) for f in names)


def read(path):
    with open(path, "rb") as fh:
        return fh.read()


def obj_triangles(file, with_material=False):
    """The OBJ's faces as fan triangles of world points (with their `usemtl` when asked)."""
    verts, tris, material = [], [], ""
    for line in open(file):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "v":
            verts.append(tuple(float(x) for x in parts[1:4]))
        elif parts[0] == "usemtl":
            material = parts[1] if len(parts) > 1 else ""
        elif parts[0] == "f":
            corners = [verts[int(c.split("/")[0]) - 1] for c in parts[1:]]
            for k in range(1, len(corners) - 1):
                t = (corners[0], corners[k], corners[k + 1])
                tris.append((material, t) if with_material else t)
    return (verts, tris) if with_material else tris


def triangle_area(t):
    p, q, r = t
    u = [q[i] - p[i] for i in range(3)]
    v = [r[i] - p[i] for i in range(3)]
    c = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    return math.sqrt(sum(x * x for x in c)) / 2


def png_encode(width, height, pixels):
    """An 8-bit RGBA PNG of `pixels` (rows of (r, g, b, a) tuples, top row first)."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + bytes(c for p in row for c in p) for row in pixels)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def png_decode(data):
    """(width, height, rows of (r, g, b, a)) of an 8-bit RGB or RGBA PNG, non-interlaced."""
    import struct
    import zlib
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, prev, rows = zlib.decompress(idat), width * bpp, bytearray(width * bpp), []
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + bpp]) + ((255,) if bpp == 3 else ())
                     for x in range(width)])
        prev = line
    return width, height, rows
