#!/usr/bin/env python3
"""The paths modders really take, through the command line as they type it. None may lose data
without a word:

- a renamed export (GLB, glTF, OBJ; model and map; into an archive entry and into a loose file)
  finds its sidecar through its own record (the glTF extras' name, the pairing token) and imports
  as an edit, or writes nothing and names --sidecar and --new-model;
- a map export never becomes a model;
- an existing OUT keeps its mode, owner and group, a symlink stays a link and its target receives
  the write, a read-only file is refused, hard links all see the new content (the mode and link
  cases run as a normal user: `nobody` when the test runs as root);
- a truncated archive is called truncated by info, validate and convert, with the byte counts,
  and info shows only what it could read;
- an entry named without its extension is answered with the closest names, no "offset 0";
- a sidecar edit is applied, refused at its JSON pointer, or warned about as not read (a node's
  name and parent come from the glTF); the change report claims none that did not reach the file.

usage: modder_safety.py BUILD_DIR
"""
import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import Checks, read, sample_corpus  # noqa: E402

build = os.path.abspath(sys.argv[1])
mshconv = os.path.join(build, "mshconv")
checks = Checks(mshconv)
check = checks.check


# The binary the normal user runs: a copy in a folder anyone may enter when the build folder lies
# where `nobody` may not (a checkout under /root).
user_mshconv = mshconv


def run(*args, cwd, user=None):
    """mshconv ARGS in `cwd`; as `user` (setpriv) when given and the test runs as root."""
    command = [mshconv, *args]
    if user is not None and os.geteuid() == 0:
        command = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}",
                   "--clear-groups", user_mshconv, *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd)


def renamed_exports(work, corpus):
    """Each export renamed, then imported back: found by its record and unchanged, byte for byte;
    with its sidecar gone, refused with nothing written; --new-model on purpose."""
    shutil.copy(os.path.join(corpus, "static.rlb"), os.path.join(work, "static.rlb"))
    original = read(os.path.join(work, "static.rlb"))
    entry = "static.rlb:House_01.msh"
    shutil.copytree(os.path.join(corpus, "DATA", "MAPS", "SynTut2"), os.path.join(work, "map"))
    land = {f: read(os.path.join(work, "map", f)) for f in ("Land.msh", "Land.map")}
    r = run("nres", "extract", "static.rlb", "-o", "extracted", cwd=work)
    check(r.returncode == 0, f"static.rlb extracted ({r.stderr.strip()[:200]})")
    shutil.copy(os.path.join(work, "extracted", "House_01.msh"), os.path.join(work, "House_01.msh"))

    def unchanged(target):
        if target.startswith("static.rlb"):
            return read(os.path.join(work, "static.rlb")) == original
        if target.startswith("map/"):
            return all(read(os.path.join(work, "map", f)) == b for f, b in land.items())
        return read(os.path.join(work, target)) == loose

    # Exports whose stem is then renamed: (export, renamed, import target).
    loose = read(os.path.join(work, "House_01.msh"))
    cases = [("house.glb", "house_edited.glb", entry),
             ("house2.gltf", "house2_edited.gltf", "House_01.msh"),
             ("house3.obj", "house3_edited.obj", entry),
             ("house4.obj", "house4_edited.obj", "House_01.msh"),
             ("tut.glb", "tut_edited.glb", "map/Land.msh"),
             ("tut2.obj", "tut2_edited.obj", "map/Land.msh")]
    for exported, renamed, target in cases:
        source = "map/Land.msh" if target.startswith("map/") else entry
        r = run("convert", source, exported, cwd=work)
        check(r.returncode == 0, f"{source} -> {exported} ({r.stderr.strip()[:200]})")
        os.rename(os.path.join(work, exported), os.path.join(work, renamed))
        r = run("convert", renamed, target, cwd=work)
        check(r.returncode == 0 and "unchanged, original bytes kept" in r.stdout and
              unchanged(target),
              f"renamed {renamed} -> {target}: its sidecar found, imported unchanged "
              f"(exit {r.returncode}: {r.stdout.strip()[:300]} {r.stderr.strip()[:300]})")
    # Sidecars gone (a renamed export moved to another folder without them).
    lost = os.path.join(work, "lost")
    os.mkdir(lost)
    for name in os.listdir(work):
        if name.endswith(".sidecar.json"):
            os.rename(os.path.join(work, name), os.path.join(lost, name))
    for exported, renamed, target in cases:
        r = run("convert", renamed, target, cwd=work)
        is_map = target.startswith("map/")
        said = r.stderr
        if renamed.endswith(("glb", "gltf")) and is_map:
            wanted = ["never imports as a model", "--sidecar"]
        else:
            wanted = ["no sidecar found", "--sidecar FILE", "--new-model", "nothing was written"]
        check(r.returncode == 1 and all(w in said for w in wanted) and unchanged(target) and
              said.count("error:") == 1,
              f"{renamed} -> {target} without its sidecar: refused, nothing written "
              f"(exit {r.returncode}: {said.strip()[:300]})")
    # A map export never becomes a model, also as a new file; an unrelated new file does.
    r = run("convert", "tut_edited.glb", "fresh/x.msh", cwd=work)
    check(r.returncode == 1 and not os.path.exists(os.path.join(work, "fresh")),
          f"a map GLB without its sidecar into a new .msh: refused ({r.stderr.strip()[:200]})")
    r = run("convert", "house_edited.glb", "fresh/house.msh", cwd=work)
    check(r.returncode == 0 and "new model" in r.stdout,
          f"a model GLB without a sidecar into a new file: a new model ({r.stderr.strip()[:200]})")
    r = run("convert", "house_edited.glb", entry, "--new-model", "--quiet", cwd=work)
    check(r.returncode == 0 and not unchanged(entry),
          f"--new-model replaces the entry on purpose ({r.stderr.strip()[:200]})")
    r = run("convert", "house_edited.glb", entry, "--new-model",
            "--sidecar", os.path.join(lost, "house.sidecar.json"), cwd=work)
    check(r.returncode == 2 and "--new-model" in r.stderr,
          f"--new-model with --sidecar is a usage error ({r.stderr.strip()[:200]})")


def normal_user():
    """The account the mode and link cases run as: nobody under root, else the caller."""
    return pwd.getpwnam("nobody") if os.geteuid() == 0 else pwd.getpwuid(os.geteuid())


def existing_outputs(work, corpus):
    """Writing an entry into an existing archive keeps what the archive file is."""
    user = normal_user()
    os.chmod(work, 0o777)
    shutil.copy(os.path.join(corpus, "static.rlb"), os.path.join(work, "pristine.rlb"))
    r = run("convert", "pristine.rlb:House_01.msh", "house.glb", cwd=work)
    check(r.returncode == 0, "export for the write cases")
    pristine = read(os.path.join(work, "pristine.rlb"))

    def fresh(name, mode):
        path = os.path.join(work, name)
        with open(path, "wb") as fh:
            fh.write(pristine)
        if os.geteuid() == 0:
            os.chown(path, user.pw_uid, user.pw_gid)
        os.chmod(path, mode)
        return path

    def edit(target):
        # --new-model: the write itself is under test, and a new model changes the bytes.
        return run("convert", "house.glb", target + ":House_01.msh", "--new-model", "--quiet",
                   cwd=work, user=user)

    private = fresh("private.rlb", 0o600)
    r = edit("private.rlb")
    st = os.stat(private)
    check(r.returncode == 0 and stat.S_IMODE(st.st_mode) == 0o600 and read(private) != pristine,
          f"a private 0600 archive stays 0600 (mode {oct(stat.S_IMODE(st.st_mode))}, "
          f"{r.stderr.strip()[:200]})")
    shared = fresh("shared.rlb", 0o664)
    r = edit("shared.rlb")
    st = os.stat(shared)
    check(r.returncode == 0 and stat.S_IMODE(st.st_mode) == 0o664 and
          (st.st_uid, st.st_gid) == (user.pw_uid, user.pw_gid),
          f"a 0664 archive keeps its mode, owner and group ({oct(stat.S_IMODE(st.st_mode))})")
    if os.geteuid() == 0:
        # Root writes a file another user owns: the owner and group stay that user's.
        other = fresh("theirs.rlb", 0o640)
        r = run("convert", "house.glb", "theirs.rlb:House_01.msh", "--new-model", "--quiet",
                cwd=work)
        st = os.stat(other)
        check(r.returncode == 0 and (st.st_uid, st.st_gid) == (user.pw_uid, user.pw_gid) and
              stat.S_IMODE(st.st_mode) == 0o640,
              "root writing another user's 0640 archive keeps its owner, group and mode")

    game = os.path.join(work, "game")
    os.mkdir(game)
    os.chmod(game, 0o777)
    target = fresh(os.path.join("game", "static.rlb"), 0o644)
    link = os.path.join(work, "linked.rlb")
    os.symlink(os.path.join("game", "static.rlb"), link)
    r = edit("linked.rlb")
    check(r.returncode == 0 and os.path.islink(link) and read(target) != pristine and
          sorted(os.listdir(game)) == ["static.rlb"],
          f"a symlinked archive stays a link and its target receives the edit, no temporary "
          f"left ({r.stderr.strip()[:200]})")

    readonly = fresh("readonly.rlb", 0o444)
    for who in ([user, None] if os.geteuid() == 0 else [user]):
        r = run("convert", "house.glb", "readonly.rlb:House_01.msh", "--new-model", cwd=work,
                user=who)
        check(r.returncode == 1 and "read-only" in r.stderr and read(readonly) == pristine and
              "warning" not in r.stderr,
              f"a read-only archive is refused{' (as root too)' if who is None else ''}, "
              f"unchanged ({r.stderr.strip()[:200]})")

    first = fresh("first.rlb", 0o644)
    second = os.path.join(work, "second.rlb")
    os.link(first, second)
    r = edit("first.rlb")
    check(r.returncode == 0 and read(first) == read(second) and read(first) != pristine and
          os.stat(first).st_nlink == 2,
          "an archive with two hard links: both names see the edit, still linked")
    leftovers = [n for n in os.listdir(work) if n.startswith(".mshconv-")]
    check(not leftovers, f"no temporary files left ({leftovers})")


def damaged_inputs(work, corpus):
    """Truncated archives are named truncated; a missing entry's answer helps."""
    whole = read(os.path.join(corpus, "static.rlb"))
    names = [line.split()[1] for line in
             run("nres", "list", os.path.join(corpus, "static.rlb"), cwd=work).stdout.splitlines()[1:]]
    for label, size in (("before its directory", 30000), ("inside its directory", len(whole) - 100)):
        path = os.path.join(work, "cut.rlb")
        with open(path, "wb") as fh:
            fh.write(whole[:size])
        r = run("info", "cut.rlb", cwd=work)
        rows = [line.split()[1] for line in r.stdout.splitlines()[1:] if line.split()[0].isdigit()
                and not line.split()[1].startswith("(unread")]
        check(r.returncode == 1 and "truncated" in r.stderr and f"{size:,}" in r.stderr and
              f"{len(whole):,}" in r.stderr and set(rows) <= set(names) and
              "TRUNCATED" in r.stdout and "unread" in r.stdout,
              f"info on an archive cut {label}: truncated, byte counts, only real names "
              f"({len(rows)} rows; {r.stderr.strip()[:200]})")
        r = run("validate", "cut.rlb", cwd=work)
        said = r.stdout + r.stderr
        check(r.returncode == 1 and said.count("truncated") == 1 and
              "outside the data region" not in said,
              f"validate on an archive cut {label}: one truncated error ({said.strip()[:200]})")
        r = run("convert", "cut.rlb:House_01.msh", "out.glb", cwd=work)
        check(r.returncode == 1 and "truncated" in r.stderr and "no entry named" not in r.stderr
              and not os.path.exists(os.path.join(work, "out.glb")),
              f"convert from an archive cut {label}: truncated, nothing written")
    r = run("convert", os.path.join(corpus, "static.rlb") + ":House_01", "out.glb", cwd=work)
    check(r.returncode == 1 and "House_01.msh" in r.stderr and "offset 0" not in r.stderr,
          f"an entry named without its extension gets the closest names ({r.stderr.strip()})")


def sidecar_edits(work, corpus):
    """A sidecar edit is applied, refused at its pointer, or warned about as not read; the change
    report never claims one that did not reach the output."""
    shutil.copy(os.path.join(corpus, "static.rlb"), os.path.join(work, "static.rlb"))
    original = read(os.path.join(work, "static.rlb"))
    entry = "static.rlb:HOUSE_02.msh"
    check(run("convert", entry, "h.glb", "--quiet", cwd=work).returncode == 0, "HOUSE_02 exported")
    with open(os.path.join(work, "h.sidecar.json")) as fh:
        sidecar = json.load(fh)

    def edited(name, change):
        doc = json.loads(json.dumps(sidecar))
        change(doc)
        with open(os.path.join(work, name), "w") as fh:
            json.dump(doc, fh)
        return run("convert", "h.glb", entry, "--sidecar", name, "--full-read", cwd=work)

    def rename(doc):
        doc["nodes"]["rows"][1][0] = "inside"
    r = edited("name.sidecar.json", rename)
    check(r.returncode == 0 and "/nodes/rows/1/0" in r.stderr and "not read" in r.stderr and
          "glTF node" in r.stderr and "unchanged" in r.stdout and
          read(os.path.join(work, "static.rlb")) == original,
          f"a node's name edited in the sidecar: warned as not read, at its pointer "
          f"({r.stderr.strip()[:200]})")

    def reparent(doc):
        doc["nodes"]["rows"][1][2] = 65535
    r = edited("parent.sidecar.json", reparent)
    check(r.returncode == 0 and "/nodes/rows/1/2" in r.stderr and "glTF hierarchy" in r.stderr and
          "sidecar field edited" not in r.stdout and "parent now" not in r.stdout and
          "unchanged" in r.stdout and read(os.path.join(work, "static.rlb")) == original,
          f"a node's parent edited in the sidecar: warned, no edit claimed ({r.stdout.strip()[:200]})")

    def break_rule(doc):
        batches = doc["batches"]
        batches["rows"][0][batches["columns"].index("index_count")] += 1
    r = edited("count.sidecar.json", break_rule)
    check(r.returncode == 1 and r.stderr.count("error:") == 1 and
          "count.sidecar.json: at /batches/rows/0" in r.stderr and "multiple of 3" in r.stderr and
          "h.glb" not in r.stderr.split("(")[0] and read(os.path.join(work, "static.rlb")) == original,
          f"an out-of-rule batch edit: one error at the sidecar's pointer ({r.stderr.strip()[:300]})")


with tempfile.TemporaryDirectory() as tmp:
    os.chmod(tmp, 0o755)  # the normal user's cases work below it
    if os.geteuid() == 0:
        user_mshconv = os.path.join(tmp, "bin", "mshconv")
        os.mkdir(os.path.dirname(user_mshconv))
        shutil.copy(mshconv, user_mshconv)
        os.chmod(user_mshconv, 0o755)
    corpus = os.path.join(tmp, "corpus")
    if not sample_corpus(mshconv, corpus):
        sys.exit("FAIL: no sample corpus")
    for case in (renamed_exports, existing_outputs, damaged_inputs, sidecar_edits):
        work = os.path.join(tmp, case.__name__)
        os.mkdir(work)
        case(work, os.path.realpath(corpus))

print(f"{len(checks.failures)} failed" if checks.failures else "all passed")
sys.exit(1 if checks.failures else 0)
