#!/usr/bin/env python3
"""Fails on a forbidden include direction between the layers (README "Layers").

Each source folder may include only the layers listed for it; a quoted include is resolved the
way the compiler does (beside the including file first, then from the repository root), so a
relative `#include "../mapping/x.hpp"` or a sibling-looking name counts too.

usage: check_layers.py SOURCE_DIR
"""
import os
import re
import sys

# layer -> the layers it may include (itself always allowed). The floor is scene/.
ALLOWED = {
    "scene": set(),
    "formats": {"scene"},
    "render": {"formats", "scene"},
    "sidecar": {"formats", "scene"},
    "mapping": {"formats", "scene", "sidecar"},
    "samples": {"formats", "scene"},
    "conversion": {"formats", "scene", "sidecar", "mapping", "render"},
    # The command reaches the library through include/mshconv/ only (formats/: small utilities
    # such as file names and the log's file I/O; samples/: `mshconv samples`).
    "cli": {"formats", "scene", "samples"},
    "bench": {"formats", "scene", "sidecar", "mapping", "conversion", "samples", "render"},
    # The public headers (<mshconv/...>, tests/check_public_headers.py) only.
    "examples": set(),
    "fuzz": {"formats", "scene", "sidecar", "mapping", "conversion", "render"},
    "tests": {"formats", "scene", "sidecar", "mapping", "conversion", "samples", "bench",
              "cli", "render"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(root, path):
    rel = os.path.relpath(path, root)
    top = rel.split(os.sep)[0]
    return top if top in ALLOWED else None


def resolve(root, including, name):
    beside = os.path.normpath(os.path.join(os.path.dirname(including), name))
    if os.path.exists(beside):
        return beside
    from_root = os.path.normpath(os.path.join(root, name))
    return from_root if os.path.exists(from_root) else None


def main():
    root = os.path.abspath(sys.argv[1])
    violations = checked = 0
    for layer in sorted(ALLOWED):
        for folder, _, files in os.walk(os.path.join(root, layer)):
            for f in sorted(files):
                if not f.endswith((".cpp", ".hpp", ".h", ".cc")):
                    continue
                path = os.path.join(folder, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for number, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = resolve(root, path, m.group(1))
                        if target is None:
                            continue  # a system or generated header
                        checked += 1
                        to = layer_of(root, target)
                        if to is None or to == layer or to in ALLOWED[layer]:
                            continue
                        violations += 1
                        print(f"{os.path.relpath(path, root)}:{number}: {layer}/ must not "
                              f"include {to}/ ({m.group(1)})")
    if violations:
        sys.exit(f"FAIL: {violations} forbidden include(s)")
    print(f"ok: {checked} includes follow the layer rules")


main()
