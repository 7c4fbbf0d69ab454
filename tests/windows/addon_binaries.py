#!/usr/bin/env python3
"""The release add-on zip (as scripts/release.sh makes it) carries both programs and runs the one
for the system. In Blender 3.4 on Linux, installed from the zip into a user folder of its own with
no mshconv on PATH: it runs bin/linux-x86_64/mshconv (made executable: Blender unpacks without
file modes), names bin/windows-x86_64/mshconv.exe for Windows, and a preference or an mshconv on
PATH wins over both. Then the add-on test (tests/integration/blender_addon.py) runs on that zip.
--update-docs remakes docs/images/addon_preferences.png (the add-on's preferences, under Xvfb).

usage: addon_binaries.py LINUX_BUILD WINDOWS_BUILD SOURCE_DIR [--update-docs]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

linux_build, windows_build, source = map(os.path.abspath, sys.argv[1:4])
blender = os.path.join(source, "tests", "integration", "blender")
failures = []

SESSION = r"""
import json, os, sys
import bpy
bpy.ops.preferences.addon_install(filepath=sys.argv[sys.argv.index("--") + 1], overwrite=True)
bpy.ops.preferences.addon_enable(module="io_scene_parkan")
from io_scene_parkan import mshconv
ctx = bpy.context
prefs = ctx.preferences.addons["io_scene_parkan"].preferences
out = {"linux": mshconv.bundled("linux", "x86_64"), "windows": mshconv.bundled("win32", "AMD64"),
       "used": mshconv.executable(ctx), "version": mshconv.run(ctx, "--version")[0]}
fake = sys.argv[sys.argv.index("--") + 2]
os.environ["PATH"] = os.path.dirname(fake) + os.pathsep + os.environ["PATH"]
out["on_path"] = mshconv.executable(ctx)
prefs.mshconv_path = fake
out["preference"] = mshconv.executable(ctx)
print("RESULT " + json.dumps(out))
"""


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def main():
    work = tempfile.mkdtemp(prefix="addon_binaries_")
    addon = os.path.join(work, "build", "io_scene_parkan.zip")
    os.makedirs(os.path.dirname(addon))
    subprocess.run(["python3", os.path.join(source, "blender", "build_addon.py"), addon,
                    "--bin", "linux-x86_64", os.path.join(linux_build, "mshconv"),
                    "--bin", "windows-x86_64", os.path.join(windows_build, "mshconv.exe"),
                    os.path.join(windows_build, "libassimp-5.dll")], check=True,
                   capture_output=True)
    names = zipfile.ZipFile(addon).namelist()
    check({"io_scene_parkan/bin/linux-x86_64/mshconv",
           "io_scene_parkan/bin/windows-x86_64/mshconv.exe",
           "io_scene_parkan/bin/windows-x86_64/libassimp-5.dll"} <= set(names),
          "the add-on zip carries mshconv, mshconv.exe and libassimp-5.dll")
    check(not any(n.endswith("mshconv_path.txt") for n in names),
          "  and no path of the build it was made in")

    user = os.path.join(work, "user")
    env = dict(os.environ, BLENDER_USER_SCRIPTS=os.path.join(user, "scripts"),
               BLENDER_USER_CONFIG=os.path.join(user, "config"),
               PATH=":".join(p for p in os.environ["PATH"].split(":")
                             if not os.path.exists(os.path.join(p, "mshconv"))))
    fake = os.path.join(work, "fake-bin", "mshconv")
    os.makedirs(os.path.dirname(fake))
    with open(fake, "w") as fh:
        fh.write("#!/bin/sh\necho fake\n")
    os.chmod(fake, 0o755)
    script = os.path.join(work, "session.py")
    with open(script, "w") as fh:
        fh.write(SESSION)
    r = subprocess.run([blender, "--python", script, "--", addon, fake], capture_output=True,
                       text=True, env=env, timeout=300)
    lines = [l for l in r.stdout.splitlines() if l.startswith("RESULT ")]
    got = json.loads(lines[-1][7:]) if lines else {}
    installed = os.path.join(user, "scripts", "addons", "io_scene_parkan")
    check(got.get("used") == os.path.join(installed, "bin", "linux-x86_64", "mshconv"),
          f"Blender on Linux runs the Linux program it carries: {got.get('used')}"
          + ("" if lines else r.stdout[-800:] + r.stderr[-800:]))
    check(str(got.get("version", "")).startswith("mshconv "), f"  which runs: {got.get('version')}")
    check(got.get("windows") == os.path.join(installed, "bin", "windows-x86_64", "mshconv.exe")
          and os.path.isfile(got.get("windows")), "on Windows it would run mshconv.exe beside "
          "libassimp-5.dll: " + str(got.get("windows")))
    check(got.get("on_path") == fake, "an mshconv on PATH wins over the one carried")
    check(got.get("preference") == fake, "so does the one set in the preferences")

    # The add-on test on this zip: the driver finds BUILD/io_scene_parkan.zip and BUILD/mshconv.
    os.symlink(os.path.join(linux_build, "mshconv"), os.path.join(work, "build", "mshconv"))
    r = subprocess.run(["python3", os.path.join(source, "tests", "integration", "blender_addon.py"),
                        os.path.join(work, "build"), source], capture_output=True, text=True,
                       env=dict(os.environ, PATH=env["PATH"]))
    check(r.returncode == 0, "tests/integration/blender_addon.py passes on the release zip"
          + ("" if r.returncode == 0 else ":\n" + r.stdout[-1500:] + r.stderr[-800:]))

    if "--update-docs" in sys.argv[4:]:
        shot = os.path.join(work, "addon_preferences.png")
        subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "blender",
                        "--factory-startup", "--python",
                        os.path.join(source, "tests", "integration", "blender_addon_preferences.py"),
                        "--", addon, shot], capture_output=True, env=env, timeout=300)
        check(os.path.exists(shot), "screenshot of the add-on's preferences")
        if os.path.exists(shot):
            shutil.copy(shot, os.path.join(source, "docs", "images", "addon_preferences.png"))
    shutil.rmtree(work, ignore_errors=True)
    if failures:
        sys.exit(f"FAIL: {len(failures)} checks")


if __name__ == "__main__":
    main()
