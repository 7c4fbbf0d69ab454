#!/usr/bin/env python3
"""Fails when a verb is defined twice or a verb's in-memory stage takes other than one settings
struct (docs/ARCHITECTURE.md, "The floors").

A verb reads and writes through an Io and lives in conversion/ (its public entry, if any, in
include/mshconv/). Its work on bytes is one stage beside it, named `encode_*` (game file -> scene
files) or `rebuild_*` (back), which takes exactly one settings struct, and each settings struct
belongs to one verb. Declarations and definitions are found at namespace scope (column 0 in this
code base); comments are ignored.

usage: check_verbs.py SOURCE_DIR
"""
import os
import re
import sys

# The library's and the command's folders: a verb's name may appear at namespace scope once in a
# header and once in a source, both in its home.
SCANNED = ["include/mshconv", "conversion", "cli", "mapping", "sidecar", "formats", "render",
           "scene", "samples"]
VERBS = {
    "convert": "include/mshconv/convert.hpp",
    "batch": "include/mshconv/batch.hpp",
    "preview": "include/mshconv/preview.hpp",
    "view_page": "include/mshconv/preview.hpp",
    "info": "include/mshconv/inspect.hpp",
    "validate": "include/mshconv/inspect.hpp",
    "survey": "include/mshconv/survey.hpp",
    "nres_list": "include/mshconv/nres.hpp",
    "nres_extract": "include/mshconv/nres.hpp",
    "nres_pack": "include/mshconv/nres.hpp",
    "export_model": "conversion/convert.hpp",
    "import_model": "conversion/convert.hpp",
    "import_new_model": "conversion/convert.hpp",
    "export_terrain": "conversion/convert.hpp",
    "import_terrain": "conversion/convert.hpp",
    "export_texture": "conversion/convert.hpp",
    "import_texture": "conversion/convert.hpp",
    "export_level": "conversion/convert.hpp",
    "import_level": "conversion/convert.hpp",
}
# Below conversion/, `validate` is a format module's check of its own IR (formats/*.hpp), not the
# verb: a different name would say less.
IR_CHECKS = {("validate", "formats")}

# verb -> its settings struct; every stage of the verb takes exactly this one.
SETTINGS = {
    "model export": "ModelExportSettings",
    "model import": "ModelImportSettings",
    "terrain export": "TerrainExportSettings",
    "terrain import": "TerrainImportSettings",
    "texture export": "TextureExportSettings",
    "texture import": "TextureImportSettings",
    "new model's look in the game libraries": "LibraryAddSettings",
    "preview": "PreviewSettings",
    "level export": "LevelExportSettings",
    "level import": "LevelImportSettings",
}
STAGE = re.compile(r"^[A-Za-z_][\w:<>, ]*[\s\*&](encode_\w+|rebuild_\w+|add_to_game_libraries|"
                   r"preview_model|preview_terrain|preview_texture|preview_scene|preview_level)\(([^)]*)\)",
                   re.M)
SETTINGS_STRUCT = re.compile(r"^struct (\w+Settings) \{", re.M)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def files(root):
    for top in SCANNED:
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith((".hpp", ".cpp")):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as f:
                        yield os.path.relpath(path, root), strip_comments(f.read())


def main():
    root = os.path.abspath(sys.argv[1])
    sources = dict(files(root))
    problems = []

    for verb, home in VERBS.items():
        found = re.compile(r"^[A-Za-z_][\w:<>, ]*[\s\*&](?:\w+::)*" + verb + r"\(", re.M)
        places = [p for p, text in sources.items() if found.search(text)
                  and (verb, p.split("/")[0]) not in IR_CHECKS]
        headers = [p for p in places if p.endswith(".hpp")]
        if headers != [home]:
            problems.append(f"{verb}: declared in {headers or 'no header'}, expected {home} only")
        defined = [p for p in places if p.endswith(".cpp")]
        if len(defined) != 1 or not defined[0].startswith("conversion/"):
            problems.append(f"{verb}: defined in {defined}, expected one source in conversion/")

    stages = 0
    for path, text in sources.items():
        if not path.startswith("conversion/") or not path.endswith(".hpp"):
            continue
        for m in STAGE.finditer(text):
            stages += 1
            taken = re.findall(r"(\w+Settings)\b", m.group(2))
            if len(taken) != 1 or taken[0] not in SETTINGS.values():
                problems.append(f"{path}: {m.group(1)} takes {taken or 'no settings struct'}, "
                                f"expected one of the verbs' settings structs")
    declared = {}
    for path, text in sources.items():
        if path.startswith(("conversion/", "include/")):
            for name in SETTINGS_STRUCT.findall(text):
                declared.setdefault(name, []).append(path)
    for name, paths in sorted(declared.items()):
        if name not in SETTINGS.values():
            problems.append(f"{paths[0]}: {name} is no verb's settings struct (tests/check_verbs.py)")
        elif len(paths) != 1:
            problems.append(f"{name} is declared {len(paths)} times: {paths}")
    for verb, name in SETTINGS.items():
        if name not in declared:
            problems.append(f"{verb}: its settings struct {name} is not declared")

    for p in problems:
        print(p)
    if problems:
        sys.exit(f"FAIL: {len(problems)} problem(s)")
    print(f"ok: {len(VERBS)} verbs each defined once, {stages} in-memory stages each taking one of "
          f"{len(SETTINGS)} settings structs, one per verb")


main()
