#!/usr/bin/env python3
"""`mshconv survey` on the game-sized sample corpus (docs/survey.md).

Generates the corpus (`mshconv samples DIR --scale game`), runs
`mshconv survey DIR --json r.json --sheet sheet` and checks:
- the counts in the JSON against the script's own walk of the corpus with `mshconv nres list` and
  `mshconv info --json` (NRes files and entries, models, batches, triangles, keys, Texm per format
  and with a Page table, MAT0, WEAR tables, terrains, vertices, faces, areal maps, per-file sizes);
- each contested statistic against the corpus's known answer: the generator writes the default
  readings (xyzw keys, row batches, land1-land2 faces), so those are supported; texm-rgb is
  undecided with the 888 and paletted counts; the sort-fold histogram is the one `info` reports;
- the contact sheet: PNG pages of at most 1024 x 1024 and an index.txt line per 888/paletted
  texture;
- no game bytes in the JSON (no long base64-like string, hashes are 16 hex digits);
- damaged files are listed and the exit code stays 0; a missing folder exits 1, usage errors 2.

usage: survey_check.py BUILD_DIR SOURCE_DIR
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

build_dir = os.path.abspath(sys.argv[1])
mshconv = os.path.join(build_dir, "mshconv")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(*args, expect=0):
    p = subprocess.run([mshconv, *args], capture_output=True, encoding="utf-8", errors="replace")
    if expect is not None and p.returncode != expect:
        sys.exit(f"FAIL: mshconv {' '.join(args)} exited {p.returncode}, expected {expect}\n"
                 f"{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return p


def corpus_files(root):
    out = []
    for folder, _, files in os.walk(root):
        for f in files:
            path = os.path.join(folder, f)
            out.append((os.path.relpath(path, root).replace(os.sep, "/"), path))
    return sorted(out, key=lambda x: x[0].encode())


def own_counts(root):
    """What the corpus holds, counted through `nres list` and `info --json`."""
    c = {"nres_files": 0, "nres_entries": 0, "models": 0, "batches": 0, "triangles": 0,
         "keys": 0, "static_keys": 0, "texm": 0, "texm_formats": {}, "texm_with_page": 0,
         "mat0": 0, "wear_in_archives": 0, "wear_loose": 0, "terrains": 0,
         "terrain_vertices": 0, "terrain_faces": 0, "areal_maps": 0, "areals": 0,
         "folds": {}, "res20_models": 0, "res20_odd": [], "sizes": {}, "models_by_archive": {}}
    for rel, path in corpus_files(root):
        c["sizes"][rel] = os.path.getsize(path)
        with open(path, "rb") as fh:
            head = fh.read(32)
        if head[:4] == b"NRes":
            c["nres_files"] += 1
            listing = run("nres", "list", path).stdout.splitlines()
            rows = [l for l in listing if re.match(r"^\d+\s", l)]
            c["nres_entries"] += len(rows)
            info = json.loads(run("info", "--json", path).stdout)
            kind = info.get("kind")
            if kind == "archive":
                fold = info["sort_fold"]
                c["folds"][fold] = c["folds"].get(fold, 0) + 1
                for e in info["entries"]:
                    if "model" in e:
                        m = e["model"]
                        c["models"] += 1
                        c["batches"] += m["batch_count"]
                        c["triangles"] += m["triangle_count"]
                        c["keys"] += m["animation"]["key_count"]
                        c["static_keys"] += sum(1 for n in m["nodes"] if n["keys"] == 1)
                        for r in m["raw_resources"]:
                            if r["type"] == 20:
                                c["res20_models"] += 1
                                if r["size"] % 48:
                                    c["res20_odd"].append(rel + ":" + e["name"])
                    if "texture" in e:
                        t = e["texture"]
                        c["texm"] += 1
                        key = str(t["format"])
                        c["texm_formats"][key] = c["texm_formats"].get(key, 0) + 1
                        c["texm_with_page"] += t["page"] is not None
                    if e["type"] == "MAT0":
                        c["mat0"] += 1
                    if e["type"] == "WEAR":
                        c["wear_in_archives"] += 1
            elif kind == "terrain":
                c["terrains"] += 1
                c["terrain_vertices"] += info["terrain"]["vertices"]
                c["terrain_faces"] += info["terrain"]["faces"]
            elif kind in ("areal_map", "areal map"):
                c["areal_maps"] += 1
                c["areals"] += info["areal_map"]["areals"]
            elif kind == "model":
                c["models"] += 1
            else:
                check(False, f"{rel}: unexpected info kind {kind!r}")
        elif head[:4] == b"Texm":
            c["texm"] += 1
        elif rel.lower().endswith(".wea"):
            c["wear_loose"] += 1
    return c


BASE64ISH = re.compile(r"^[A-Za-z0-9+/=]{65,}$")


def no_game_bytes(value, where="$"):
    if isinstance(value, dict):
        for k, v in value.items():
            no_game_bytes(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            no_game_bytes(v, f"{where}[{i}]")
    elif isinstance(value, str):
        check(not BASE64ISH.match(value), f"{where}: a base64-like string of {len(value)} chars")
        check(len(value) <= 400, f"{where}: a {len(value)}-char string (names and errors only)")


def png_size(path):
    with open(path, "rb") as fh:
        head = fh.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG")
    return struct.unpack(">II", head[16:24])


def main():
    work = tempfile.mkdtemp(prefix="survey_check_")
    try:
        corpus = os.path.join(work, "game")
        run("samples", corpus, "--scale", "game")
        report_json = os.path.join(work, "r.json")
        sheet = os.path.join(work, "sheet")
        p = run("survey", corpus, "--json", report_json, "--sheet", sheet)
        for section in ("Counts (found vs published)", "Strict failures", "Readings"):
            check(section in p.stdout, f"report has no section '{section}'")
        with open(report_json, encoding="utf-8") as fh:
            r = json.load(fh)

        check(r.get("schema") == "mshconv-survey/1", f"schema {r.get('schema')!r}")
        version = run("--version").stdout.split()[1]
        check(r.get("tool_version") == version,
              f"tool_version {r.get('tool_version')!r} != {version}")

        own = own_counts(corpus)
        c = r["counts"]
        for key in ("nres_files", "nres_entries", "models", "batches", "triangles", "keys", "texm",
                    "texm_with_page", "mat0", "terrains", "terrain_vertices", "terrain_faces",
                    "areal_maps", "areals"):
            check(c[key] == own[key], f"counts.{key} = {c[key]}, the corpus has {own[key]}")
        check(c["wear"]["in_archives"] == own["wear_in_archives"],
              f"wear.in_archives {c['wear']['in_archives']} != {own['wear_in_archives']}")
        check(c["wear"]["loose"] == own["wear_loose"],
              f"wear.loose {c['wear']['loose']} != {own['wear_loose']}")
        formats = {k: v for k, v in c["texm_formats"].items() if v}
        check(formats == own["texm_formats"],
              f"texm_formats {formats} != the corpus's {own['texm_formats']}")
        check(not r["damaged"], f"damaged on a clean corpus: {r['damaged'][:3]}")
        check(not r["strict_failures"],
              f"strict failures on a clean corpus: {r['strict_failures'][:3]}")

        # Files: every one, sorted, with its size and a 16-hex-digit hash; nothing else.
        names = [f["name"] for f in r["files"]]
        check(names == sorted(own["sizes"], key=lambda n: n.encode()),
              "files[] is not the corpus's file list in sorted order")
        for f in r["files"]:
            check(set(f) == {"name", "size", "xxh3_64", "kind"}, f"files[] member keys {sorted(f)}")
            check(own["sizes"].get(f["name"]) == f["size"], f"{f['name']}: size {f['size']}")
            check(re.fullmatch(r"[0-9a-f]{16}", f["xxh3_64"]) is not None,
                  f"{f['name']}: hash {f['xxh3_64']!r}")
        no_game_bytes(r)

        # The published figures are listed beside the found ones.
        published = {row["figure"]: row for row in r["published"]}
        check(published.get("models", {}).get("part1") == 435, "published part-1 models != 435")
        check(published.get("models", {}).get("found") == own["models"], "published found models")

        # Readings: the generator writes the defaults.
        rd = r["readings"]
        for name, want in (("key-quaternion", "xyzw"), ("batch-material", "row"),
                           ("face-material", "land1-land2"), ("texm-rgb", "undecided")):
            got = rd.get(name, {}).get("supported")
            check(got == want, f"reading {name}: supported {got!r}, the corpus was written {want!r}"
                  f" ({rd.get(name, {}).get('why')})")
        k = rd["key-quaternion"]["statistic"]
        check(k["static_keys"] == own["static_keys"],
              f"key-quaternion static_keys {k['static_keys']} != {own['static_keys']}")
        check(k["static_keys_full_at_22"] > 0 and k["static_keys_full_at_16"] == 0,
              f"static identity keys at +22/+16: {k['static_keys_full_at_22']}/"
              f"{k['static_keys_full_at_16']}")
        b = rd["batch-material"]["statistic"]
        check(b["batches"] == own["batches"] and b["models_with_wear"] == own["models"],
              f"batch-material over {b['batches']} batches of {b['models_with_wear']} models; the "
              f"corpus has {own['batches']} of {own['models']} (every model has its WEAR)")
        check(b["row_out_of_range"] == 0 and b["low_byte_differs"] == 0,
              f"batch-material: {b['row_out_of_range']} rows out of range, "
              f"{b['low_byte_differs']} low bytes differ")
        f = rd["face-material"]["statistic"]
        check(f["maps"] == own["terrains"] and f["faces"] == own["terrain_faces"],
              f"face-material over {f['maps']} maps / {f['faces']} faces")
        check(f["violations_land1_land2"] == 0 < f["violations_land2_land1"],
              f"face-material violations {f['violations_land1_land2']} / "
              f"{f['violations_land2_land1']}")
        t = rd["texm-rgb"]["statistic"]
        check(t["texm_888"] == own["texm_formats"].get("888", 0),
              f"texm-rgb: {t['texm_888']} 888 textures, the corpus has "
              f"{own['texm_formats'].get('888', 0)}")
        check(t["texm_paletted"] == own["texm_formats"].get("0", 0),
              f"texm-rgb: {t['texm_paletted']} paletted, the corpus has "
              f"{own['texm_formats'].get('0', 0)}")
        folds = rd["nres-sort-fold"]["statistic"]["libraries"]
        check(folds == own["folds"], f"sort folds {folds} != info's {own['folds']}")
        decisive = {x for x in ("upper", "lower") if own["folds"].get(x)}
        want_fold = ("mixed" if len(decisive) == 2 else decisive.pop() if decisive else "undecided")
        check(rd["nres-sort-fold"]["supported"] == want_fold,
              f"nres-sort-fold supported {rd['nres-sort-fold']['supported']!r}, "
              f"expected {want_fold!r}")
        cp = rd["terrain-cell-pairs"]["statistic"]
        check(cp["maps"] == own["terrains"]
              and cp["equal"] + cp["different"] + cp["absent"] == cp["maps"],
              f"terrain-cell-pairs {cp}")
        s20 = rd["res20-node-index"]["statistic"]
        check(s20["models"] == own["res20_models"],
              f"res20 models {s20['models']} != {own['res20_models']}")
        odd = sorted(x["where"] for x in s20["not_multiple_of_48"])
        check([o.lower() for o in odd] == sorted(o.lower() for o in own["res20_odd"]),
              f"res20 sizes not a multiple of 48: {odd} != {own['res20_odd']}")

        # The contact sheet.
        pages = sorted(x for x in os.listdir(sheet) if x.endswith(".png"))
        check(pages, "the sheet folder has no PNG")
        for page in pages:
            w, h = png_size(os.path.join(sheet, page))
            check(0 < w <= 1024 and 0 < h <= 1024, f"{page}: {w} x {h}")
        with open(os.path.join(sheet, "index.txt"), encoding="utf-8") as fh:
            lines = [l.rstrip("\n").split("\t") for l in fh if not l.startswith("#")]
        want = own["texm_formats"].get("888", 0) + own["texm_formats"].get("0", 0)
        check(len(lines) == want, f"index.txt lists {len(lines)} textures, expected {want}")
        check(all(len(l) == 9 and l[0] in pages and l[7] in ("left", "right") for l in lines),
              "index.txt lines: page, x, y, width, height, format, size, bgr half, texture")
        check(r["sheet"] == {"pages": len(pages), "textures": want}, f"sheet {r['sheet']}")

        # Damage is listed, never fatal.
        damaged = os.path.join(work, "damaged")
        os.makedirs(damaged)
        with open(os.path.join(corpus, "system.rlb"), "rb") as fh:
            data = fh.read()
        with open(os.path.join(damaged, "system.rlb"), "wb") as fh:
            fh.write(data[:len(data) // 2])  # the directory is gone
        with open(os.path.join(damaged, "bad.tex"), "wb") as fh:
            fh.write(b"Texm" + struct.pack("<7I", 64, 64, 1, 0, 0, 0, 8888) + b"\0" * 10)
        with open(os.path.join(damaged, "bad.wea"), "wb") as fh:
            fh.write(b"0\r\n")
        shutil.copy(os.path.join(corpus, "weapon.rlb"), damaged)
        dj = os.path.join(work, "d.json")
        p = run("survey", damaged, "--json", dj)
        with open(dj, encoding="utf-8") as fh:
            d = json.load(fh)
        listed = {x["where"] for x in d["damaged"]}
        check({"system.rlb", "bad.tex", "bad.wea"} <= listed, f"damaged lists {sorted(listed)}")
        strict = {x["where"] for x in d["strict_failures"]}
        check({"system.rlb", "bad.tex", "bad.wea"} <= strict,
              f"strict failures list {sorted(strict)}")
        check(d["counts"]["models"] > 0, "the undamaged weapon.rlb was not surveyed")

        # Exit codes.
        run("survey", os.path.join(work, "no-such-folder"), expect=1)
        run("survey", expect=2)
        run("survey", corpus, "--no-such-option", expect=2)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    if failures:
        sys.exit(f"survey_check: {len(failures)} check(s) failed")
    print("survey_check: ok")


main()
