#!/usr/bin/env python3
"""The README shows every program in examples/ verbatim: each ```cpp block that names an example
file (the line before the block says `examples/NAME.cpp`) equals that file byte for byte, and each
example appears in the README.

usage: check_readme_examples.py SOURCE_DIR
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
with open(os.path.join(root, "README.md"), encoding="utf-8") as fh:
    readme = fh.read()
examples = sorted(f for f in os.listdir(os.path.join(root, "examples")) if f.endswith(".cpp"))
blocks = list(re.finditer(r"```cpp\n(.*?)```", readme, re.S))
failures = []
for name in examples:
    with open(os.path.join(root, "examples", name), encoding="utf-8") as fh:
        text = fh.read()
    shown = [b for b in blocks if f"examples/{name}" in readme[max(0, b.start() - 400):b.start()]]
    if not shown:
        failures.append(f"examples/{name} is not shown in README.md (a ```cpp block after a line "
                        f"naming it)")
    elif shown[0].group(1) != text:
        failures.append(f"README.md's block for examples/{name} differs from the file")
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print(f"ok: {len(examples)} example(s) shown verbatim in README.md")
