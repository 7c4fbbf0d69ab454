#!/usr/bin/env python3
"""Every field of a sidecar, edited once: the import applies the edit and reports it, refuses it
with a JSON pointer, or warns that it is not read. Nothing in between: no edit dropped without a
word, no edit claimed that did not reach the output, no refusal without a pointer.

The fields are found by walking the sidecars an export writes (a static and an animated model as
GLB and OBJ, a map as GLB and OBJ, a texture), so a field added later is audited too. Each leaf
is edited: a number +1 (or +0.5), a bool flipped, a string's last character changed, a block's
first byte flipped (its base64 stays valid), the first row of each table, column by column.

The fields docs/sidecar.md calls "shown only" (addresses and names of the export, kept for a
person) are not read by design: their edit must change nothing.

usage: sidecar_audit.py BUILD_DIR
"""
import base64
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import Checks, read, sample_corpus  # noqa: E402

mshconv = os.path.join(os.path.abspath(sys.argv[1]), "mshconv")
checks = Checks(mshconv)

# docs/sidecar.md: shown only, not read (an edit changes nothing, and needs no word).
SHOWN_ONLY = {"/source/address", "/map_source/address", "/export/output", "/export/format",
              "/export/options/areal_faces", "/wear/source", "/wear/land1/address",
              "/wear/land2/address", "/generator", "/png"}
# The written file's hash only lets that very file skip the comparison (these imports compare
# anyway: --full-read); an edit changes what is compared, never the result.
COMPARED_ANYWAY = {"/export/written/xxh3_64"}
POINTER = re.compile(r"at (/[^\s:]*)")
# A row marked edited by its check that the output does not show is named at the row.
UNREAD_BY_CHECK = "its check in /checks differs"


def leaves(x, p=""):
    """(pointer, value) of every leaf; a table ({columns, rows}) gives its first row's cells."""
    if isinstance(x, dict):
        if isinstance(x.get("rows"), list) and "columns" in x:
            if x["rows"]:
                yield from leaves(x["rows"][0], f"{p}/rows/0")
            x = {k: v for k, v in x.items() if k not in ("columns", "rows")}
        for k, v in x.items():
            yield from leaves(v, f"{p}/{k}")
    elif isinstance(x, list):
        if x:
            yield from leaves(x[0], f"{p}/0")
    else:
        yield p, x


def edited_value(pointer, v):
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 1
    if isinstance(v, float):
        return v + 0.5
    if v is None:
        return 1
    if pointer.endswith("/base64") or pointer.startswith("/checks/"):
        raw = bytearray(base64.b64decode(v)) if v else bytearray(b"\0")
        raw[0] ^= 1
        return base64.b64encode(bytes(raw)).decode()
    if re.fullmatch(r"[0-9a-f]{16}", v):
        return v[:-1] + ("1" if v[-1] != "1" else "2")
    return v[:-1] + ("x" if v[-1:] != "x" else "y") if v else "x"


def set_at(doc, pointer, value):
    parts = pointer.strip("/").split("/")
    cur = doc
    for k in parts[:-1]:
        cur = cur[int(k)] if isinstance(cur, list) else cur[k]
    if isinstance(cur, list):
        cur[int(parts[-1])] = value
    else:
        cur[parts[-1]] = value


def audit(name, work, exported, sidecar_name, target, outputs):
    """Edits each field of `sidecar_name` once and imports `exported` into `target`; `outputs` are
    the files the import writes, compared with the unedited import's."""
    with open(os.path.join(work, sidecar_name)) as fh:
        sidecar = json.load(fh)

    def imported(sidecar_file):
        for out in outputs:
            if os.path.exists(os.path.join(work, out)):
                os.remove(os.path.join(work, out))
        r = subprocess.run([mshconv, "convert", exported, target, "--sidecar", sidecar_file,
                            "--full-read"], capture_output=True, text=True, cwd=work)
        written = [read(os.path.join(work, out)) if os.path.exists(os.path.join(work, out))
                   else None for out in outputs]
        return r, written

    base, reference = imported(sidecar_name)
    checks.check(base.returncode == 0 and "unchanged" in base.stdout,
                 f"{name}: the unedited sidecar imports unchanged ({base.stderr.strip()[:200]})")
    silent, claimed, unpointed, counts = [], [], [], {"applied": 0, "refused": 0, "warned": 0}
    for pointer, value in leaves(sidecar):
        if pointer in ("/schema", "/kind"):
            continue
        outcome = ""
        doc = copy.deepcopy(sidecar)
        set_at(doc, pointer, edited_value(pointer, value))
        with open(os.path.join(work, "edited.sidecar.json"), "w") as fh:
            json.dump(doc, fh)
        r, written = imported("edited.sidecar.json")
        message = (r.stderr.strip() or r.stdout.strip()).splitlines()[-1][:150]
        if r.returncode != 0:
            counts["refused"] += 1
            if not POINTER.search(r.stderr) or r.stderr.count("error:") != 1 or any(written):
                unpointed.append(f"{pointer}: {r.stderr.strip()[:160]}")
            print(f"  refused  {pointer}: {message}")
            continue
        if written != reference:
            counts["applied"] += 1
            if "unchanged" in r.stdout.splitlines()[0]:
                claimed.append(f"{pointer}: output changed, report says unchanged")
            print(f"  applied  {pointer}: {r.stdout.strip().splitlines()[-1][:150]}")
            continue
        # The same bytes as the unedited import: the edit did not reach the output.
        if "sidecar field edited" in r.stdout or "edited in the file" in r.stdout:
            claimed.append(f"{pointer}: {r.stdout.strip()[:160]}")
        elif pointer in SHOWN_ONLY or pointer in COMPARED_ANYWAY:
            print(f"  not read {pointer} (shown only)")
        elif any(pointer.startswith(p) or p.startswith(pointer.rsplit("/", 1)[0])
                 for p in POINTER.findall(r.stderr)) or (
                     pointer.startswith("/checks/") and UNREAD_BY_CHECK in r.stderr):
            counts["warned"] += 1
            said = [line for line in r.stderr.splitlines() if " at /" in line]
            print(f"  warned   {pointer}: {(said or [message])[0][:150]}")
        else:
            silent.append(pointer)
    print(f"{name}: {counts}")
    checks.check(not silent, f"{name}: no edit is dropped without a word ({silent})")
    checks.check(not claimed, f"{name}: no edit is claimed that did not reach the output "
                 f"({claimed})")
    checks.check(not unpointed, f"{name}: every refusal names one JSON pointer and writes nothing "
                 f"({unpointed})")


with tempfile.TemporaryDirectory() as tmp:
    corpus = os.path.join(tmp, "corpus")
    if not sample_corpus(mshconv, corpus):
        sys.exit("FAIL: no sample corpus")
    corpus = os.path.realpath(corpus)
    models = [("house", "static.rlb:House_01.msh"), ("deer", "animals.rlb:A_L_01.msh")]
    for label, entry in models:
        for fmt in ("glb", "obj"):
            work = os.path.join(tmp, f"{label}_{fmt}")
            os.mkdir(work)
            archive, member = entry.split(":")
            r = subprocess.run([mshconv, "convert", f"{corpus}/{archive}:{member}",
                                f"{label}.{fmt}"], capture_output=True, text=True, cwd=work)
            checks.check(r.returncode == 0, f"export {entry} to {fmt} ({r.stderr.strip()[:200]})")
            audit(f"{entry} ({fmt})", work, f"{label}.{fmt}", f"{label}.sidecar.json", "out.msh",
                  ["out.msh"])
    for fmt in ("glb", "obj"):
        work = os.path.join(tmp, f"map_{fmt}")
        os.mkdir(work)
        r = subprocess.run([mshconv, "convert", f"{corpus}/DATA/MAPS/SynTut1/Land.msh",
                            f"tut.{fmt}"], capture_output=True, text=True, cwd=work)
        checks.check(r.returncode == 0, f"export SynTut1 to {fmt} ({r.stderr.strip()[:200]})")
        os.mkdir(os.path.join(work, "level"))
        audit(f"SynTut1 ({fmt})", work, f"tut.{fmt}", "tut.sidecar.json", "level/Land.msh",
              ["level/Land.msh", "level/Land.map"])
    work = os.path.join(tmp, "texture")
    os.mkdir(work)
    r = subprocess.run([mshconv, "convert", f"{corpus}/Textures.lib:BARK.0", "bark.png"],
                       capture_output=True, text=True, cwd=work)
    checks.check(r.returncode == 0, f"export BARK.0 ({r.stderr.strip()[:200]})")
    audit("Textures.lib:BARK.0", work, "bark.png", "bark.sidecar.json", "out.texm", ["out.texm"])

print(f"{len(checks.failures)} failed" if checks.failures else "all passed")
sys.exit(1 if checks.failures else 0)
