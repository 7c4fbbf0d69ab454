#!/usr/bin/env python3
"""What `mshconv batch` prints as a user sees it, on a terminal and in a log: on a terminal (a pty as
stderr) one status line rewritten in place with count/total, percentage and the time left, the
total known from the start (every status line names the run's final item count); in a log no
status line and no carriage return; the summary line last on stdout, its numbers the report's.

usage: batch_console.py BUILD_DIR
"""
import json
import os
import pty
import re
import select
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_checks import Checks, sample_corpus  # noqa: E402

mshconv = os.path.join(os.path.abspath(sys.argv[1]), "mshconv")
checks = Checks(mshconv)
check = checks.check
STATUS = re.compile(r"batch: (\d+)/(\d+) \((\d+)%\)(?:, \d+ failed)?, [0-9: s]+"
                    r"(?:, about [0-9: s]+ left)?  ")


def on_terminal(args):
    """Runs mshconv with stderr on a pty: its stdout, its stderr bytes and its exit code."""
    controller, terminal = pty.openpty()
    p = subprocess.Popen([mshconv, *args], stdout=subprocess.PIPE, stderr=terminal)
    os.close(terminal)
    err = b""
    while True:
        ready, _, _ = select.select([controller], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the pty closes when mshconv ends
                break
            if not chunk:
                break
            err += chunk
        elif p.poll() is not None:
            break
    out = p.stdout.read().decode()
    p.wait()
    os.close(controller)
    return out, err.decode(errors="replace"), p.returncode


def summary_of(report):
    return (f"batch: {report['converted']} converted, {report['unchanged']} unchanged, "
            f"{report['skipped']} skipped, {report['failed']} failed in ")


with tempfile.TemporaryDirectory() as work:
    corpus = os.path.join(work, "corpus")
    if not sample_corpus(mshconv, corpus):
        sys.exit("FAIL: no sample corpus")
    # Slow enough (one thread, large thumbnails, smallest PNGs) for the line's first second.
    runs = {
        "preview": ["--to", "preview", "--size", "512", "-o", os.path.join(work, "P")],
        "glb,png": ["--to", "glb,png", "--png-level", "9", "--mips", "-o",
                    os.path.join(work, "X")],
    }
    status_lines = 0
    for name, args in runs.items():
        report_path = os.path.join(work, name + ".json")
        out, err, code = on_terminal(["batch", corpus, "-j", "1", "--report", report_path, *args])
        check(code == 0, f"{name}: exit 0 ({err[-300:]})")
        report = json.load(open(report_path))
        items = len(report["items"])
        drawn = [m for m in STATUS.finditer(err)]
        status_lines += len(drawn)
        check(all(int(m.group(2)) == items for m in drawn),
              f"{name}: every status line knows the total, {items} items "
              f"({sorted(set(m.group(2) for m in drawn))})")
        check(all(int(m.group(3)) == int(m.group(1)) * 100 // items for m in drawn),
              f"{name}: the share is count/total")
        check(all(err[m.start() - 4:m.start()] == "\r\x1b[K" for m in drawn),
              f"{name}: the status line is rewritten in place")
        check(not drawn or "\r\x1b[K" in err[drawn[-1].end():],
              f"{name}: the line is cleared at the end")
        check(out.splitlines()[-1].startswith(summary_of(report)),
              f"{name}: the summary line is the report's ({out.strip()})")
    check(status_lines > 0, f"a status line on the terminal ({status_lines} drawn)")

    # A log: no status line, no carriage return, the same summary.
    r = subprocess.run([mshconv, "batch", corpus, "-j", "1", "--report",
                        os.path.join(work, "log.json"), *runs["preview"][:-1],
                        os.path.join(work, "P2")], capture_output=True, text=True)
    report = json.load(open(os.path.join(work, "log.json")))
    check(r.returncode == 0 and "\r" not in r.stderr + r.stdout and not STATUS.search(r.stderr),
          f"not a terminal: no status line ({r.stderr[-300:]!r})")
    check(r.stdout.startswith(summary_of(report)), f"not a terminal: the summary ({r.stdout!r})")

if checks.failures:
    sys.exit(f"{len(checks.failures)} check(s) failed")
print("ok: batch on a terminal and in a log")
