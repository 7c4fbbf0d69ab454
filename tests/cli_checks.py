"""Shared by the command-line test scripts: the check lines and failure list, mshconv runs, and
the geometry of an OBJ (our exports hold world positions)."""
import math
import subprocess


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
