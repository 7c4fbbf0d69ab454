#!/usr/bin/env python3
"""Builds the Blender add-on zip (install it with Edit > Preferences > Add-ons > Install...).

usage: build_addon.py OUT.zip [MSHCONV]
MSHCONV (optional): the mshconv program the add-on falls back to when none is set in its
preferences and none is on PATH (CMake passes the one it builds).
"""
import os
import sys
import zipfile

out = sys.argv[1]
package = os.path.join(os.path.dirname(os.path.abspath(__file__)), "io_scene_parkan")
tmp = out + ".tmp"
with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(package)):
        if name.endswith(".py"):
            # Fixed timestamps: the same sources give the same zip.
            info = zipfile.ZipInfo(f"io_scene_parkan/{name}", date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, open(os.path.join(package, name), "rb").read())
    if len(sys.argv) > 2:
        info = zipfile.ZipInfo("io_scene_parkan/mshconv_path.txt", date_time=(2026, 1, 1, 0, 0, 0))
        z.writestr(info, os.path.abspath(sys.argv[2]) + "\n")
os.replace(tmp, out)
print(f"add-on written: {out}")
