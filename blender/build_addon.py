#!/usr/bin/env python3
"""Builds the Blender add-on zip (install it with Edit > Preferences > Add-ons > Install...).

usage: build_addon.py OUT.zip [MSHCONV] [--bin PLATFORM FILE...]...
MSHCONV (optional): the mshconv program the add-on falls back to when none is set in its
preferences and none is on PATH (CMake passes the one it builds).
--bin PLATFORM FILE...: files the zip carries in io_scene_parkan/bin/PLATFORM/ (linux-x86_64:
mshconv; windows-x86_64: mshconv.exe and libassimp-5.dll); the add-on runs the one for the
system Blender runs on (scripts/release.sh makes such a zip).
"""
import os
import sys
import zipfile

out = sys.argv[1]
args = sys.argv[2:]
fallback = args.pop(0) if args and args[0] != "--bin" else None
carried = []  # (platform, file)
while args:
    if args[0] != "--bin" or len(args) < 3:
        sys.exit(__doc__)
    platform, files = args[1], []
    args = args[2:]
    while args and args[0] != "--bin":
        files.append(args.pop(0))
    carried += [(platform, f) for f in files]
package = os.path.join(os.path.dirname(os.path.abspath(__file__)), "io_scene_parkan")
tmp = out + ".tmp"


def entry(name, mode=0o644):
    # Fixed timestamps: the same sources give the same zip.
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o100000 | mode) << 16
    return info


with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(package)):
        if name.endswith(".py"):
            z.writestr(entry(f"io_scene_parkan/{name}"), open(os.path.join(package, name), "rb").read())
    if fallback:
        z.writestr(entry("io_scene_parkan/mshconv_path.txt"), os.path.abspath(fallback) + "\n")
    for platform, f in carried:
        z.writestr(entry(f"io_scene_parkan/bin/{platform}/{os.path.basename(f)}", 0o755),
                   open(f, "rb").read())
os.replace(tmp, out)
print(f"add-on written: {out}")
