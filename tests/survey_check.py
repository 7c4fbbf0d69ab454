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
- the report a player reads first: the verdict names the readings the corpus was written with
  (the defaults: nothing to pass), a why-line per reading in words (no byte offsets) with the
  deciding counts, the JSON's `verdict` saying the same, the verdict before the statistics, the
  legend of the published columns and of the offsets; on a copy of the maps with Land1.wea and
  Land2.wea exchanged the verdict says to pass face-material=land2-land1;
- the contact sheet: PNG pages of at most 1024 x 1024, an index.txt line per 888/paletted
  texture, "BGR" and "RGB" drawn above each cell's halves, and index.html with every page and a
  caption per cell;
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import png_decode  # noqa: E402

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
         "folds": {}, "res20_models": 0, "res20_odd": [], "sizes": {}, "models_by_archive": {},
         "missions": 0, "placed_objects": 0, "unresolved_references": 0}
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
            elif kind == "registry":
                fold = info["registry"]["sort_fold"]
                c["folds"][fold] = c["folds"].get(fold, 0) + 1
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
        elif rel.lower().endswith("data.tma"):
            c["missions"] += 1
            c["placed_objects"] += json.loads(run("info", "--json", path).stdout)["mission"]["objects"]
            v = json.loads(run("validate", "--json", path, expect=None).stdout)
            c["unresolved_references"] += sum("does not resolve" in d["message"] for d in v["diagnostics"])
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


def png_pixels(path):
    """(width, height, rows of grey values) of an 8-bit RGB or RGBA PNG (the sheet's pages)."""
    with open(path, "rb") as fh:
        width, height, rows = png_decode(fh.read())
    return width, height, [[pixel[0] for pixel in row] for row in rows]


# The labels as the sheet draws them: 3 x 5 glyphs, 1 px apart, ink where 'X'.
GLYPHS = {"B": "XX.X.XXX.X.XXX.", "G": ".XXX..X.XX.X.XX", "R": "XX.X.XXX.X.XX.X"}


def label_at(rows, x, y, text):
    """Whether `text` is drawn at (x, y) in the sheet's font, light on the dark page."""
    for k, ch in enumerate(text):
        for r in range(5):
            for c in range(3):
                ink = rows[y + r][x + 4 * k + c] > 128
                if ink != (GLYPHS[ch][r * 3 + c] == "X"):
                    return False
    return True


def report_sections(text):
    """The verdict's why-lines and the spec questions: reading name -> the line, unwrapped."""
    lines, entries, section = text.splitlines(), {}, None
    for line in lines:
        if line.startswith("Why (what was counted):"):
            section = "why"
        elif line.startswith("Questions for the format spec"):
            section = "questions"
        elif not line.strip():
            if section == "questions":
                break
        elif section and line.startswith("      "):
            entries[last] += " " + line.strip()
        elif section and line.startswith("  "):
            last = re.match(r"  ([a-z0-9-]+)", line).group(1)
            entries[last] = line.strip()
    return entries


def check_verdict(text, r, written_with, undecided, where):
    """The report opens with the verdict for a corpus written with `written_with` (name -> variant,
    the decidable readings) and `undecided` (name -> the default used)."""
    lines = text.splitlines()
    verdict = next((i for i, l in enumerate(lines) if l.startswith("Verdict: ")), None)
    check(verdict == 2, f"{where}: the report does not open with the verdict: {lines[:4]}")
    if verdict is None:
        return
    check(text.index("Verdict: ") < text.index("Counts (found vs published)"),
          f"{where}: the verdict comes after the statistics")
    supported = re.findall(r"--reading (\S+)", lines[verdict])
    want = sorted(f"{k}={v}" for k, v in written_with.items())
    check(sorted(supported) == want,
          f"{where}: the verdict supports {supported}, the corpus was written with {want}")
    defaults = {i.name: i.default for i in READINGS}
    to_pass = sorted(f"{k}={v}" for k, v in written_with.items() if v != defaults[k])
    pass_line = lines[verdict + 1]
    if to_pass:
        check(sorted(re.findall(r"--reading (\S+)", pass_line)) == to_pass,
              f"{where}: {pass_line!r}, expected to pass {to_pass}")
    else:
        check(pass_line.startswith("  pass: nothing"), f"{where}: {pass_line!r}")
    fits = sorted(f"{k}={v}" for k, v in written_with.items() if v == defaults[k])
    fit_line = lines[verdict + 2]
    check(fit_line.startswith("  defaults that fit: ")
          and sorted(x for x in fit_line.split(": ", 1)[1].split(", ") if x != "none") == fits,
          f"{where}: {fit_line!r}, expected {fits}")
    check(lines[verdict + 3] == "  undecided, so the default is used: " +
          ", ".join(f"{k}={v}" for k, v in undecided.items()),
          f"{where}: {lines[verdict + 3]!r}")

    v = r.get("verdict", {})
    check(v.get("pass") == to_pass, f"{where}: verdict.pass {v.get('pass')} != {to_pass}")
    check(sorted(v.get("defaults_that_fit", [])) == fits,
          f"{where}: verdict.defaults_that_fit {v.get('defaults_that_fit')} != {fits}")
    check(v.get("undecided") == undecided, f"{where}: verdict.undecided {v.get('undecided')}")

    # A why-line per reading, the JSON's word for word, in a player's words: no byte offsets.
    why = report_sections(text)
    check(sorted(why) == sorted(r["readings"]),
          f"{where}: why-lines for {sorted(why)}, the readings are {sorted(r['readings'])}")
    check(v.get("why") == why, f"{where}: verdict.why differs from the report's why-lines")
    for name, line in why.items():
        check(re.search(r"\+\d", line) is None, f"{where}: {name}'s why-line names an offset: {line}")
        if name in written_with:
            check(line.startswith(f"{name}={written_with[name]} fits: "), f"{where}: {line}")
        elif name in undecided:
            check(line.startswith(f"{name}: undecided, {undecided[name]} (the default) is used; "),
                  f"{where}: {line}")


class Reading:
    def __init__(self, name, default):
        self.name, self.default = name, default


READINGS = [Reading("key-quaternion", "xyzw"), Reading("face-material", "land1-land2"),
            Reading("batch-material", "row"), Reading("texm-rgb", "bgr"),
            Reading("slots", "lod-group")]
WRITTEN_WITH = {"key-quaternion": "xyzw", "batch-material": "row", "face-material": "land1-land2"}
UNDECIDED = {"texm-rgb": "bgr", "slots": "lod-group"}


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

        # The verdict: the readings the corpus was written with, why, and the statistics after.
        check_verdict(p.stdout, r, WRITTEN_WITH, UNDECIDED, "game corpus")
        why = r.get("verdict", {}).get("why", {})
        k, b = r["readings"]["key-quaternion"]["statistic"], r["readings"]["batch-material"]
        check(f"{k['static_keys_full_at_22']} of {k['static_keys']} parts that never move"
              in why.get("key-quaternion", ""), f"key-quaternion why: {why.get('key-quaternion')}")
        check(f"of {b['statistic']['batches']} model parts" in why.get("batch-material", ""),
              f"batch-material why: {why.get('batch-material')}")
        fm = r["readings"]["face-material"]["statistic"]
        check(f"{fm['violations_land1_land2']} material references point past the end of their "
              f"list under land1-land2, {fm['violations_land2_land1']} under land2-land1"
              in why.get("face-material", ""), f"face-material why: {why.get('face-material')}")
        stats = " ".join(p.stdout[p.stdout.find("Statistics"):].split())  # unwrapped
        for legend in ("found: what this folder holds.", "part 1, part 2: the counts",
                       "openparkan: the figures the openparkan project publishes",
                       "+N is a byte position", "offsets: a key's rotation",
                       "offsets: a batch is", "offsets: a ground face's byte 4"):
            check(legend in stats, f"the statistics have no legend '{legend}'")

        check(r.get("schema") == "mshconv-survey/1", f"schema {r.get('schema')!r}")
        version = run("--version").stdout.split()[1]
        check(r.get("tool_version") == version,
              f"tool_version {r.get('tool_version')!r} != {version}")

        own = own_counts(corpus)
        c = r["counts"]
        for key in ("nres_files", "nres_entries", "models", "batches", "triangles", "keys", "texm",
                    "texm_with_page", "mat0", "terrains", "terrain_vertices", "terrain_faces",
                    "areal_maps", "areals", "missions", "placed_objects", "unresolved_references"):
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
        # Each cell's halves are labelled with their reading; every page says what to look for.
        gap = 4
        drawn = {}
        for page in pages:
            drawn[page] = png_pixels(os.path.join(sheet, page))[2]
            check(any(v > 128 for v in drawn[page][10]), f"{page}: no instructions at the top")
        unlabelled = []
        for l in lines:
            rows, x, y, w = drawn[l[0]], int(l[1]), int(l[2]), int(l[3])
            if not (label_at(rows, x, y - 7, "BGR")
                    and label_at(rows, x + (w + gap) // 2, y - 7, "RGB")):
                unlabelled.append(l[8])
        check(not unlabelled, f"{len(unlabelled)} cells without BGR/RGB labels: {unlabelled[:3]}")
        html = ""
        if os.path.exists(os.path.join(sheet, "index.html")):
            with open(os.path.join(sheet, "index.html"), encoding="utf-8") as fh:
                html = fh.read()
        check(html, "the sheet has no index.html")
        for page in pages:
            check(f'<img src="{page}"' in html, f"index.html does not show {page}")
        captions = re.findall(r"<tr><td>(\d+), (\d+)</td><td>([^<]*)</td>.*"
                              r"left BGR: texm-rgb=bgr \(the default\), right RGB: texm-rgb=rgb; "
                              r"which half has natural colours\?", html)
        check(sorted((int(x), int(y), t) for x, y, t in captions)
              == sorted((int(l[1]), int(l[2]), l[8]) for l in lines),
              f"index.html captions {len(captions)} cells, index.txt lists {len(lines)}")
        check("skin, sky, fire" in html, "index.html does not say what to look for")

        # Land1.wea and Land2.wea exchanged on every map: the verdict says to pass land2-land1.
        swapped = os.path.join(work, "swapped")
        for rel, path in corpus_files(corpus):
            if not rel.startswith("DATA/MAPS/"):
                continue
            leaf = os.path.basename(rel).lower()
            other = {"land1.wea": "Land2.wea", "land2.wea": "Land1.wea"}.get(leaf)
            target = os.path.join(swapped, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(os.path.join(os.path.dirname(path), other) if other else path, target)
        sj = os.path.join(work, "s.json")
        p = run("survey", swapped, "--json", sj)
        with open(sj, encoding="utf-8") as fh:
            s = json.load(fh)
        check_verdict(p.stdout, s, {"face-material": "land2-land1"},
                      {"key-quaternion": "xyzw", "batch-material": "row", "texm-rgb": "bgr",
                       "slots": "lod-group"}, "maps with Land1/Land2 exchanged")

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
