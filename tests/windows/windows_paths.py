#!/usr/bin/env python3
"""Windows names with mshconv.exe under Wine: `--version`; an archive entry addressed from a drive
letter (`C:\\...\\static.rlb:House_01.msh`: the drive's colon is no entry separator); backslashes
in inputs and outputs; a file with a Cyrillic name on disk (UTF-8 on Linux, UTF-16 to Windows);
an archive entry with a Cyrillic name (CP1251 in the archive) written, listed to the console in
UTF-8, extracted to a file of that name and read back, as the Linux build does; a read-only
archive as OUT refused; a hidden system archive as OUT keeps both attributes.

usage: windows_paths.py LINUX_BUILD WINDOWS_BUILD
"""
import os
import shutil
import subprocess
import sys
import tempfile

linux = os.path.join(os.path.abspath(sys.argv[1]), "mshconv")
windows = os.path.join(os.path.abspath(sys.argv[2]), "mshconv")
wine = "/usr/lib/wine/wine64"
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def run(mshconv, *args, cwd):
    return subprocess.run([mshconv, *args], capture_output=True, cwd=cwd)


def main():
    r = subprocess.run([windows, "--version"], capture_output=True, text=True)
    check(r.returncode == 0 and r.stdout.startswith("mshconv "), "wine64 mshconv.exe --version: "
          + r.stdout.split("\n")[0])
    # Wine's C: drive is the prefix's drive_c folder.
    prefix = os.environ.get("WINEPREFIX", os.path.expanduser("~/.cache/mshconv-windows/wine"))
    drive_c = os.path.join(prefix, "drive_c")
    wine_env = dict(os.environ, WINEPREFIX=prefix, WINEDEBUG="-all")
    with tempfile.TemporaryDirectory() as work, \
            tempfile.TemporaryDirectory(dir=drive_c, prefix="mshconv-") as on_c:
        subprocess.run([linux, "--quiet", "samples", os.path.join(work, "corpus")], check=True,
                       capture_output=True)
        # The whole corpus: a model finds its materials and textures beside its archive.
        shutil.copytree(os.path.join(work, "corpus"), on_c, dirs_exist_ok=True)
        # Each build writes into a folder of its own under the same names (outputs record them).
        lin, win = os.path.join(work, "linux"), os.path.join(work, "windows")
        os.makedirs(lin)
        os.makedirs(os.path.join(win, "out"))
        entry = "House_01.msh"
        want = run(linux, "convert", f"../corpus/static.rlb:{entry}", "house.glb", cwd=lin)
        check(want.returncode == 0, f"Linux: convert static.rlb:{entry}")
        drive = "C:\\" + os.path.basename(on_c) + "\\static.rlb"
        r = run(windows, "convert", f"{drive}:{entry}", "house.glb", cwd=win)
        check(r.returncode == 0, f"convert {drive}:{entry} (a drive letter)"
              + (": " + r.stderr.decode(errors="replace").strip() if r.returncode else ""))
        check(read(win, "house.glb") == read(lin, "house.glb"), "  gives the Linux build's GLB")
        r = run(windows, "convert", f"..\\corpus\\static.rlb:{entry}", "out\\house.glb", cwd=win)
        check(r.returncode == 0 and os.path.exists(os.path.join(win, "out", "house.sidecar.json")),
              f"convert ..\\corpus\\static.rlb:{entry} out\\house.glb (backslashes)")
        r = run(windows, "info", f"{drive}:{entry}", cwd=win)
        check(r.returncode == 0, f"info {drive}:{entry}")

        # A Cyrillic file name on disk: read, and its output named after it.
        tank = "\u0422\u0430\u043d\u043a"  # "Tank"
        for folder, mshconv in ((lin, linux), (win, windows)):
            shutil.copy(os.path.join(work, "corpus", "static.rlb"), os.path.join(folder, tank + ".rlb"))
            r = run(mshconv, "convert", f"{tank}.rlb:{entry}", f"{tank}.glb", cwd=folder)
        check(r.returncode == 0 and read(win, tank + ".glb") is not None,
              f"convert {tank}.rlb:{entry} {tank}.glb (a Cyrillic name on disk)")
        check(read(win, tank + ".glb") == read(lin, tank + ".glb"), "  gives the Linux build's GLB")

        # An entry with a Cyrillic name, CP1251 in the archive: the same archive from both builds,
        # listed alike, extracted to a file of that name, converted back out of it.
        house = "\u0414\u043e\u043c.msh"  # "House"
        out = {}
        for folder, mshconv in ((lin, linux), (win, windows)):
            shutil.copy(os.path.join(work, "corpus", "static.rlb"), folder)
            r = run(mshconv, "convert", os.path.join(lin, "house.glb"), f"static.rlb:{house}",
                    cwd=folder)
            check(r.returncode == 0, f"{os.path.basename(folder)}: convert house.glb "
                  f"static.rlb:{house}")
            out[folder] = run(mshconv, "nres", "list", "static.rlb", cwd=folder).stdout
            run(mshconv, "nres", "extract", "static.rlb", "-o", "x", cwd=folder)
            run(mshconv, "convert", f"static.rlb:{house}", "back.glb", cwd=folder)
        check(read(lin, "static.rlb") == read(win, "static.rlb"),
              f"  the archive with the entry {house} is the same from both builds")
        check(house in out[win].decode(errors="replace") and out[lin] == out[win],
              f"nres list prints {house} in UTF-8 as on Linux")
        check(os.path.exists(os.path.join(win, "x", house)), f"nres extract writes the file {house}")
        check(read(lin, "x/_nres.json") == read(win, "x/_nres.json"),
              "  its manifest (_nres.json) is the Linux build's")
        check(read(win, "back.glb") is not None, f"convert static.rlb:{house} back.glb")
        check(read(win, "back.glb") == read(lin, "back.glb"), "  gives the Linux build's GLB")

        # An existing OUT keeps what it is: a read-only archive (Wine shows a file without write
        # bits with the read-only attribute) is refused and keeps its bytes.
        readonly = os.path.join(win, "readonly.rlb")
        shutil.copy(os.path.join(work, "corpus", "static.rlb"), readonly)
        os.chmod(readonly, 0o444)
        before = read(win, "readonly.rlb")
        r = run(windows, "convert", os.path.join(lin, "house.glb"), f"readonly.rlb:{entry}",
                "--new-model", cwd=win)
        said = r.stderr.decode(errors="replace")
        check(r.returncode == 1 and "read-only" in said and read(win, "readonly.rlb") == before,
              "a read-only archive is refused, its bytes kept" + ("" if r.returncode == 1 else
                                                                   f": exit {r.returncode} {said}"))
        # A hidden system archive keeps both attributes and receives the entry (Wine keeps DOS
        # attributes in the file's user.DOSATTRIB extended attribute, as Samba does).
        hidden = os.path.join(win, "hidden.rlb")
        shutil.copy(os.path.join(work, "corpus", "static.rlb"), hidden)
        for flag in ("+h", "+s"):  # Wine's attrib applies one flag per call
            subprocess.run([wine, "cmd", "/c", "attrib", flag, "Z:" + hidden.replace("/", "\\")],
                           capture_output=True, env=wine_env)
        before = attributes(hidden)
        r = run(windows, "convert", os.path.join(lin, "house.glb"), f"hidden.rlb:{entry}",
                "--new-model", cwd=win)
        check(before & 6 == 6 and r.returncode == 0 and attributes(hidden) & 6 == 6
              and read(win, "hidden.rlb") != read(work, "corpus/static.rlb"),
              f"a hidden system archive keeps both attributes after an edit (before {before:#x}, "
              f"after {attributes(hidden):#x}, exit {r.returncode})")
    if failures:
        sys.exit(f"FAIL: {len(failures)} checks")


def attributes(path):
    """The DOS attributes Wine records for a file (0 when it records none)."""
    try:
        return int(os.getxattr(path, "user.DOSATTRIB").split(b"\0")[0], 16)
    except OSError:
        return 0


def read(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    with open(path, "rb") as fh:
        return fh.read()


if __name__ == "__main__":
    main()
