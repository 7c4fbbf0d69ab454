#!/usr/bin/env python3
"""The command line's help and its documentation say the same:
- every synopsis in `mshconv --help` is a line of README.md's Commands block and the other way
  round, and each command's `mshconv CMD --help` shows the same synopses in its usage lines;
- every option `mshconv CMD --help` lists is named in docs/cli.md's section for CMD (its tables'
  first column and its `mshconv CMD ...` synopsis lines), and every option named there is one the
  command takes.

usage: check_cli_docs.py MSHCONV SOURCE_DIR
"""
import os
import re
import subprocess
import sys

OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-z])(?![\w-])")
GLOBAL = {"--help", "-h", "--verbose", "-v", "--quiet", "-q"}


def synopsis(text):
    """The part of a help or README line before the description (two or more spaces)."""
    return re.split(r"\s{2,}", text.strip(), maxsplit=1)[0]


def main_help_synopses(mshconv):
    out = subprocess.run([mshconv, "--help"], capture_output=True, text=True, check=True).stdout
    block = out.split("commands:\n", 1)[1].split("\n\n", 1)[0]
    return [synopsis(line) for line in block.splitlines() if re.match(r"^  \S", line)]


def readme_synopses(root):
    text = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    block = text.split("\n## Commands\n", 1)[1].split("```\n", 2)[1]
    return [synopsis(line)[len("mshconv "):] for line in block.splitlines()
            if line.startswith("mshconv ")]


def command_help(mshconv, command):
    r = subprocess.run([mshconv, command, "--help"], capture_output=True, text=True)
    usage = [m.group(1).strip() for m in re.finditer(r"^(?:usage: |\s+)mshconv (.*)$", r.stdout,
                                                      re.M)]
    options = []  # (spellings of one option)
    for line in r.stdout.splitlines():
        m = re.match(r"^  (?:(-[a-z]) \[ (--[a-z0-9-]+) \]|(--[a-z0-9-]+))", line)
        if m:
            names = {n for n in m.groups() if n}
            if not names & GLOBAL:
                options.append(names)
    return r.returncode, usage, options


def documented_options(root, command):
    """Options in docs/cli.md's section for `command`: its tables' first cells and its synopsis
    lines (`mshconv COMMAND ...` in a code block, with their indented continuations)."""
    text = open(os.path.join(root, "docs", "cli.md"), encoding="utf-8").read()
    section = None
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        heading = part.split("\n", 1)[0]
        if re.split(r"[\s:]", heading.replace("`", ""), maxsplit=1)[0] == command:
            section = part
    if section is None:
        return None
    found = set()
    in_code = continuing = False
    for line in section.splitlines():
        if line.startswith("```"):
            in_code, continuing = not in_code, False
            continue
        if in_code:
            continuing = line.startswith(f"mshconv {command}") or (continuing and line[:1] == " ")
            if continuing:
                found.update(OPTION.findall(line))
        elif line.startswith("| `"):
            found.update(OPTION.findall(line.split(" | ", 1)[0]))
    return found - GLOBAL


def main():
    mshconv, root = sys.argv[1], os.path.abspath(sys.argv[2])
    failures = []
    ours = main_help_synopses(mshconv)
    readme = readme_synopses(root)
    for s in ours:
        if s not in readme:
            failures.append(f"`mshconv --help` shows `{s}`, README's Commands block does not")
    for s in readme:
        if s not in ours:
            failures.append(f"README's Commands block shows `mshconv {s}`, `mshconv --help` "
                            f"does not")
    commands = sorted({s.split()[0] for s in ours if not s.startswith("-")})
    if len(commands) < 9:
        failures.append(f"`mshconv --help` names {len(commands)} commands: {commands}")
    for command in commands:
        code, usage, options = command_help(mshconv, command)
        if code != 0:
            failures.append(f"mshconv {command} --help exited {code}")
            continue
        wanted = [s for s in ours if s.split()[0] == command]
        if sorted(usage) != sorted(wanted):
            failures.append(f"mshconv {command} --help shows the usage {usage}, `mshconv --help` "
                            f"{wanted}")
        documented = documented_options(root, command)
        if documented is None:
            failures.append(f"docs/cli.md has no section '## {command}'")
            continue
        for names in options:
            if not names & documented:
                failures.append(f"mshconv {command} --help lists {'/'.join(sorted(names))}, "
                                f"docs/cli.md's {command} section does not")
        taken = set().union(*options) if options else set()
        for name in sorted(documented - taken):
            failures.append(f"docs/cli.md's {command} section names {name}, which "
                            f"`mshconv {command}` does not take")
        print(f"{command}: {len(options)} options, {len(usage)} usage line(s)")
    if failures:
        sys.exit("FAIL:\n  " + "\n  ".join(failures))
    print(f"ok: {len(commands)} commands, help and docs agree")


main()
