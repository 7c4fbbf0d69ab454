#!/usr/bin/env python3
"""Windows names with mshconv.exe under Wine: `--version`; an archive entry addressed from a drive
letter (`C:\\...\\static.rlb:TANK.msh`: the drive's colon is no entry separator); backslashes in
inputs and outputs; a file with a Cyrillic name on disk (UTF-8 on Linux, UTF-16 to Windows) and
archive entries with CP1251 names, printed to the console in UTF-8 as Linux prints them.

usage: windows_paths.py LINUX_BUILD WINDOWS_BUILD
"""
import os
import shutil
import subprocess
import sys
import tempfile

linux = os.path.join(os.path.abspath(sys.argv[1]), "mshconv")
windows = os.path.join(os.path.abspath(sys.argv[2]), "mshconv")
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
    with tempfile.TemporaryDirectory() as work, \
            tempfile.TemporaryDirectory(dir=drive_c, prefix="mshconv-") as on_c:
        subprocess.run([linux, "--quiet", "samples", os.path.join(work, "corpus")], check=True,
                       capture_output=True)
        shutil.copy(os.path.join(work, "corpus", "static.rlb"), on_c)
        entry = "TANK.msh"
        want = run(linux, "convert", f"corpus/static.rlb:{entry}", "linux.glb", cwd=work)
        check(want.returncode == 0, f"Linux: convert corpus/static.rlb:{entry}")
        drive = "C:\\" + os.path.basename(on_c) + "\\static.rlb"
        r = run(windows, "convert", f"{drive}:{entry}", "from_c.glb", cwd=work)
        check(r.returncode == 0 and read(work, "from_c.glb") == read(work, "linux.glb"),
              f"convert {drive}:{entry} (drive letter) gives the Linux build's GLB"
              + (": " + r.stderr.decode(errors="replace").strip() if r.returncode else ""))
        r = run(windows, "convert", f"corpus\\static.rlb:{entry}", "out\\back.glb", cwd=work)
        check(r.returncode == 0 and read(work, "out/back.glb") == read(work, "linux.glb"),
              "convert corpus\\static.rlb:TANK.msh out\\back.glb (backslashes)")
        r = run(windows, "info", f"{drive}:{entry}", cwd=work)
        check(r.returncode == 0, f"info {drive}:{entry}")

        # A Cyrillic file name: copied under it, converted, its output named after it.
        cyrillic = "\u0422\u0430\u043d\u043a"  # "Tank" in Russian
        shutil.copy(os.path.join(work, "corpus", "static.rlb"),
                    os.path.join(work, cyrillic + ".rlb"))
        r = run(windows, "convert", f"{cyrillic}.rlb:{entry}", f"{cyrillic}.glb", cwd=work)
        check(r.returncode == 0 and os.path.exists(os.path.join(work, cyrillic + ".glb"))
              and read(work, cyrillic + ".glb") == read(work, "linux.glb"),
              f"convert {cyrillic}.rlb:{entry} {cyrillic}.glb (a Cyrillic name on disk)")
        # Archives whose entries have CP1251 names: listed, extracted and packed as on Linux.
        for archive in sorted(os.listdir(os.path.join(work, "corpus"))):
            if not archive.endswith((".rlb", ".lib")):
                continue
            a = run(linux, "nres", "list", f"corpus/{archive}", cwd=work)
            b = run(windows, "nres", "list", f"corpus\\{archive}", cwd=work)
            if a.stdout.isascii():
                continue
            check(a.stdout == b.stdout, f"nres list corpus\\{archive}: CP1251 names printed in "
                  "UTF-8 as on Linux")
            run(linux, "nres", "extract", f"corpus/{archive}", "-o", "x-linux", cwd=work)
            b = run(windows, "nres", "extract", f"corpus\\{archive}", "-o", "x-windows", cwd=work)
            names_linux = sorted(os.listdir(os.path.join(work, "x-linux")))
            names_windows = sorted(os.listdir(os.path.join(work, "x-windows")))
            check(b.returncode == 0 and names_linux == names_windows,
                  f"nres extract {archive}: the same file names on disk ("
                  + ", ".join(n for n in names_windows if not n.isascii())[:80] + ")")
            run(linux, "nres", "pack", "x-linux", "-o", "linux-packed.bin", cwd=work)
            b = run(windows, "nres", "pack", "x-windows", "-o", "windows-packed.bin", cwd=work)
            check(b.returncode == 0 and read(work, "linux-packed.bin") == read(
                work, "windows-packed.bin"), f"nres pack of it: the same archive")
            break
        else:
            check(False, "the corpus has an archive with CP1251 entry names")
    if failures:
        sys.exit(f"FAIL: {len(failures)} checks")


def read(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    with open(path, "rb") as fh:
        return fh.read()


if __name__ == "__main__":
    main()
