#!/usr/bin/env python3
"""Every citation of the specification in the repository resolves: `msh.md §5`, `design.md §2`,
`terrain.md §7-§9`, `§§3, 5` name a file in docs/formats/ or docs/ and headings numbered so in it;
relative Markdown links in the README and docs/ point at files that exist.

usage: check_citations.py SOURCE_DIR
"""
import os
import re
import sys

CITATION = re.compile(r"\b([A-Za-z0-9_-]+\.md)\s*§§?\s*([0-9][0-9.]*(?:\s*(?:[-–,]|and)\s*§?\s*[0-9][0-9.]*)*)")
HEADING = re.compile(r"^#+\s+§?([0-9]+(?:\.[0-9]+)*)\.?\s")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
SOURCES = (".cpp", ".hpp", ".py", ".md", ".sh", ".txt")
SKIP = {"build", ".git", "node_modules", "fixtures"}  # fixtures: deliberately broken inputs


def sections(path):
    found = set()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            m = HEADING.match(line)
            if m:
                found.add(m.group(1))
    return found


def numbers(text):
    """'7-§9' -> 7, 8, 9; '3, 5' -> 3, 5; '4.2' -> 4.2."""
    parts = re.split(r"\s*(?:,|and)\s*", text.replace("§", ""))
    out = []
    for p in parts:
        p = p.strip().rstrip(".")
        if not p:
            continue
        r = re.split(r"\s*[-–]\s*", p)
        if len(r) == 2 and r[0].isdigit() and r[1].isdigit():
            out.extend(str(n) for n in range(int(r[0]), int(r[1]) + 1))
        else:
            out.extend(x.rstrip(".") for x in r if x)
    return out


def main():
    root = os.path.abspath(sys.argv[1])
    docs = {}
    for folder in ("docs/formats", "docs"):
        for f in os.listdir(os.path.join(root, folder)):
            if f.endswith(".md") and f not in docs:
                docs[f] = os.path.join(root, folder, f)
    heads = {name: sections(path) for name, path in docs.items()}
    broken = checked = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.startswith(".")]
        for f in files:
            if not f.endswith(SOURCES) and f != "CMakeLists.txt":
                continue
            path = os.path.join(folder, f)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as fh:
                lines = fh.readlines()
            for number, line in enumerate(lines, 1):
                for m in CITATION.finditer(line):
                    name = m.group(1)
                    checked += 1
                    if name not in heads:
                        broken += 1
                        print(f"{rel}:{number}: cites {name}, which is not in docs/formats or docs")
                        continue
                    for n in numbers(m.group(2)):
                        if n not in heads[name]:
                            broken += 1
                            print(f"{rel}:{number}: cites {name} §{n}, which has no such section")
                if f.endswith(".md"):
                    for m in LINK.finditer(line):
                        target = m.group(1)
                        if "://" in target or target.startswith("mailto:"):
                            continue
                        checked += 1
                        if not os.path.exists(os.path.join(os.path.dirname(path), target)):
                            broken += 1
                            print(f"{rel}:{number}: link to {target}, which does not exist")
    if broken:
        sys.exit(f"FAIL: {broken} broken citation(s) or link(s) of {checked}")
    print(f"ok: {checked} citations and links resolve")


main()
