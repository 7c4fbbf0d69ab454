#!/usr/bin/env python3
"""`batch --shard I/N` under GNU parallel, as docs/cli.md shows it: the corpus converted in 3 shards
(`--to glb,png`, then back with `--to nres`), the shards' reports merged; the merged reports' items
(in input order) and totals (but times and threads) and the output trees equal an unsharded run's,
byte for byte
(the shards' `_batch.I-of-N.json` manifests together list what `_batch.json` lists).

usage: check_shards.py BUILD_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import files_below, read, sample_corpus  # noqa: E402

build = os.path.abspath(sys.argv[1])
env = dict(os.environ, PATH=build + os.pathsep + os.environ["PATH"])
failures = []


def sh(command, cwd):
    r = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {command} exited {r.returncode}: {r.stdout}{r.stderr}")


def load(path):
    with open(path) as fh:
        return json.load(fh)


def same_tree(a, b, what, manifests_apart=False):
    ta, tb = files_below(a), files_below(b)
    if manifests_apart:
        # One manifest per shard instead of one for the tree: together they list the same files.
        shards = sorted(f for f in tb if f.startswith("_batch.") and "-of-" in f)
        listed = sorted((e for f in shards for e in load(os.path.join(b, f))["files"]),
                        key=lambda e: e["path"])
        if sorted(load(os.path.join(a, "_batch.json"))["files"], key=lambda e: e["path"]) != listed:
            failures.append(f"{what}: the shards' manifests do not list what _batch.json lists")
        ta.remove("_batch.json")
        tb = [f for f in tb if f not in shards]
    if ta != tb:
        failures.append(f"{what}: the trees differ in {sorted(set(ta) ^ set(tb))[:5]}")
    differ = [f for f in set(ta) & set(tb)
              if read(os.path.join(a, f)) != read(os.path.join(b, f))]
    if differ:
        failures.append(f"{what}: {len(differ)} files differ, e.g. {sorted(differ)[:5]}")
    return len(ta)


def same_report(whole, merged, what):
    # The merge puts the shards' items one shard after another: compared in input order.
    def drop_times(items):
        return sorted(({k: v for k, v in i.items() if k not in ("seconds", "threads")}
                       for i in items), key=lambda i: (i["input"], i["kind"]))
    a, b = load(whole), load(merged)
    if drop_times(a["items"]) != drop_times(b["items"]):
        failures.append(f"{what}: the merged report's items differ from the unsharded run's")
    for key in a:
        if key not in ("items", "seconds", "threads") and a[key] != b.get(key):
            failures.append(f"{what}: the merged report's {key} is {b.get(key)}, not {a[key]}")
    return len(a["items"])


with tempfile.TemporaryDirectory() as work:
    if not sample_corpus(os.path.join(build, "mshconv"), os.path.join(work, "GAME")):
        sys.exit("FAIL: no sample corpus")
    whole, sharded = os.path.join(work, "whole"), os.path.join(work, "sharded")
    os.makedirs(whole)
    os.makedirs(sharded)
    # The same relative names in both folders, so that the reports name the same paths.
    sh("mshconv batch ../GAME --to glb,png -o X -j 2 --report report.json", whole)
    sh("mshconv batch X --to nres -o BACK -j 2 --report back.json", whole)
    sh("parallel mshconv batch ../GAME --to glb,png -o X -j 1 --shard {}/3 --report r{}.json "
       "::: 1 2 3", sharded)
    sh("mshconv batch --merge-reports r1.json r2.json r3.json -o report.json", sharded)
    sh("parallel mshconv batch X --to nres -o BACK -j 1 --shard {}/3 --report b{}.json ::: 1 2 3",
       sharded)
    sh("mshconv batch --merge-reports b1.json b2.json b3.json -o back.json", sharded)
    items = same_report(os.path.join(whole, "report.json"), os.path.join(sharded, "report.json"),
                        "forward")
    items += same_report(os.path.join(whole, "back.json"), os.path.join(sharded, "back.json"),
                         "reverse")
    files = same_tree(os.path.join(whole, "X"), os.path.join(sharded, "X"), "forward", True)
    files += same_tree(os.path.join(whole, "BACK"), os.path.join(sharded, "BACK"), "reverse")
    same_tree(os.path.join(work, "GAME"), os.path.join(sharded, "BACK"), "the game back")
if failures:
    sys.exit("FAIL: " + "\n".join(failures))
print(f"ok: 3 shards under GNU parallel: {items} report items and {files} files as one run gives")
