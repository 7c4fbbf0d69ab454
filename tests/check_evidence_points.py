#!/usr/bin/env python3
"""The 16 real-install evidence points are documented: docs/formats/README.md's section
"Contested readings and real-install evidence" has a table row for each point 1..16 whose decision
starts with Adopted, Kept or Contested and whose Section cell cites `file.md §N`; that file exists
(docs/formats or docs), has a heading numbered N, and the text of that section (up to the next
heading of the same or a higher level) holds the paragraph "Real-install evidence (point N)". The
paragraph must also name the row's decision word, and every `--reading NAME=VARIANT` switch of the
row.

usage: check_evidence_points.py SOURCE_DIR
"""
import os
import re
import sys

POINTS = range(1, 17)
DECISIONS = ("Adopted", "Kept", "Contested")
SECTION_TITLE = "## Contested readings and real-install evidence"
CITATION = re.compile(r"\b([A-Za-z0-9_-]+\.md)\s*§\s*([0-9]+(?:\.[0-9]+)*)")
HEADING = re.compile(r"^(#+)\s+§?([0-9]+(?:\.[0-9]+)*)\.?\s")
ANY_HEADING = re.compile(r"^(#+)\s")
SWITCH = re.compile(r"--reading\s+([a-z0-9-]+=[a-z0-9-]+)")


def flat(text):
    """Whitespace runs collapsed, so a phrase wrapped over lines still matches."""
    return re.sub(r"\s+", " ", text)


def table_rows(readme):
    """The rows of the first table after SECTION_TITLE as dicts keyed by the header cells."""
    with open(readme, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == SECTION_TITLE)
    except StopIteration:
        sys.exit(f"FAIL: {readme} has no section '{SECTION_TITLE}'")
    table = []
    for line in lines[start + 1:]:
        if ANY_HEADING.match(line):
            break
        if line.startswith("|"):
            table.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif table:
            break
    if len(table) < 3:
        sys.exit(f"FAIL: the section '{SECTION_TITLE}' has no table")
    header = [h.lower() for h in table[0]]
    for need in ("#", "decision", "section"):
        if need not in header:
            sys.exit(f"FAIL: the evidence table has no '{need}' column (columns: {table[0]})")
    rows = []
    for cells in table[2:]:  # table[1] is the |---| line
        if len(cells) != len(header):
            sys.exit(f"FAIL: evidence table row {cells} has {len(cells)} cells, "
                     f"the header {len(header)}")
        rows.append(dict(zip(header, cells)))
    return rows


def section_text(path, number):
    """The text under the heading numbered `number`, up to the next heading of its level or
    higher; None when the file has no such heading."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    for i, line in enumerate(lines):
        m = HEADING.match(line)
        if m and m.group(2) == number:
            level = len(m.group(1))
            body = []
            for later in lines[i + 1:]:
                h = ANY_HEADING.match(later)
                if h and len(h.group(1)) <= level:
                    break
                body.append(later)
            return "\n".join(body)
    return None


def paragraph(text, marker):
    """The paragraph (up to a blank line) that contains `marker`."""
    for para in re.split(r"\n\s*\n", text):
        if marker in flat(para):
            return flat(para)
    return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    root = os.path.abspath(sys.argv[1])
    readme = os.path.join(root, "docs", "formats", "README.md")
    problems = []
    seen = {}
    for row in table_rows(readme):
        label = row["#"]
        if not label.isdigit() or int(label) not in POINTS:
            problems.append(f"row '{label}': the point number must be 1..13")
            continue
        point = int(label)
        if point in seen:
            problems.append(f"point {point}: more than one row")
            continue
        seen[point] = row
        words = row["decision"].split()
        decision = words[0].strip("*,;.()") if words else ""
        if decision not in DECISIONS:
            problems.append(f"point {point}: decision '{row['decision']}' does not start with "
                            f"one of {', '.join(DECISIONS)}")
            continue
        m = CITATION.search(row["section"])
        if not m:
            problems.append(f"point {point}: section cell '{row['section']}' cites no "
                            "'file.md §N'")
            continue
        name, number = m.group(1), m.group(2)
        path = next((os.path.join(root, d, name) for d in ("docs/formats", "docs")
                     if os.path.isfile(os.path.join(root, d, name))), None)
        if path is None:
            problems.append(f"point {point}: cites {name}, which is not in docs/formats or docs")
            continue
        text = section_text(path, number)
        if text is None:
            problems.append(f"point {point}: {name} has no section numbered {number}")
            continue
        marker = f"Real-install evidence (point {point})"
        para = paragraph(text, marker)
        if para is None:
            problems.append(f"point {point}: {name} §{number} has no paragraph '{marker}'")
            continue
        if decision.lower() not in para.lower():
            problems.append(f"point {point}: the paragraph in {name} §{number} does not say "
                            f"'{decision}' (the table's decision)")
        for switch in SWITCH.findall(flat(row.get("switch", ""))):
            if f"--reading {switch}" not in para:
                problems.append(f"point {point}: the paragraph in {name} §{number} does not "
                                f"name the switch '--reading {switch}'")
    missing = [p for p in POINTS if p not in seen]
    if missing:
        problems.append("no table row for point(s) " + ", ".join(map(str, missing)))
    if problems:
        for p in problems:
            print(p)
        sys.exit(f"FAIL: {len(problems)} problem(s) in the real-install evidence points "
                 "(docs/formats/README.md)")
    print(f"ok: {len(seen)} real-install evidence points, each with a decision and a cited "
          "paragraph")


main()
