#!/usr/bin/env python3
"""The standard sample corpus written once per ctest run and shared by the tests (the `corpus`
CTest fixture; they find it through MSHCONV_TEST_CORPUS, see tests/corpus.hpp and
cli_checks.sample_corpus).

  corpus_fixture.py setup MSHCONV ROOT   `mshconv samples ROOT/corpus`; ROOT/files.txt lists the
                                         files in the order the generator made them, with their
                                         SHA-256 (`sha256sum` lines)
  corpus_fixture.py cleanup ROOT         fails when a test changed, added or removed a corpus
                                         file (the tests share it read-only), then removes ROOT
"""
import hashlib
import os
import shutil
import subprocess
import sys


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def files_below(folder):
    return sorted(os.path.relpath(os.path.join(d, f), folder).replace(os.sep, "/")
                  for d, _, names in os.walk(folder) for f in names)


def setup(mshconv, root):
    shutil.rmtree(root, ignore_errors=True)
    corpus = os.path.join(root, "corpus")
    # --verbose lists each file as written, in the generator's order (the tests keep that order).
    r = subprocess.run([mshconv, "--verbose", "samples", corpus], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"mshconv samples exited {r.returncode}: {r.stdout}{r.stderr}")
    prefix = "debug: wrote "
    written = [os.path.relpath(line[len(prefix):], corpus).replace(os.sep, "/")
               for line in r.stderr.splitlines() if line.startswith(prefix)]
    on_disk = files_below(corpus)
    if not written or sorted(written) != on_disk or f"wrote {len(written)} files" not in r.stdout:
        sys.exit(f"mshconv samples listed {len(written)} files, the folder holds {len(on_disk)}:\n"
                 f"{r.stdout}{r.stderr}")
    with open(os.path.join(root, "files.txt"), "w") as f:
        for name in written:
            f.write(f"{digest(os.path.join(corpus, name))}  {name}\n")
    print(f"{len(written)} corpus files in {corpus}")


def cleanup(root):
    corpus = os.path.join(root, "corpus")
    problems = []
    try:
        with open(os.path.join(root, "files.txt")) as f:
            want = dict(reversed(line.rstrip("\n").split("  ", 1)) for line in f if line.strip())
        have = files_below(corpus)
        problems += [f"removed: {n}" for n in sorted(set(want) - set(have))]
        problems += [f"added: {n}" for n in sorted(set(have) - set(want))]
        problems += [f"changed: {n}" for n in sorted(set(want) & set(have))
                     if digest(os.path.join(corpus, n)) != want[n]]
    except OSError as e:
        problems.append(f"the corpus fixture is missing: {e}")
    shutil.rmtree(root, ignore_errors=True)
    for p in problems:
        print("FAIL: a test changed the shared corpus:", p)
    if problems:
        sys.exit(1)
    print(f"the corpus is as written ({len(want)} files); removed")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "setup":
        setup(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "cleanup":
        cleanup(sys.argv[2])
    else:
        sys.exit(__doc__)
