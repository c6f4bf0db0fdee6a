#!/usr/bin/env python3
"""Times a command's start-up: `teardown --version` and `teardown check` of the demo, beside
the floors measured in the same run (a C program that does nothing, the same linked to
libvips, a Swift hello world with Foundation linked as a shared library and linked in) and
`hugo version`.

    startup.py --teardown .build/release/teardown [--runs 21]

Reports the median wall time and peak resident memory of each, into Benchmarks/results/ and
Benchmarks/README.md between the startup markers.
"""

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, hugo_binary, log, publish, timed, version  # noqa: E402

HELLO = 'import Foundation\nprint(Date.now.timeIntervalSince1970 > 0 ? "hello" : "")\n'


def floors(work):
    """The floor programs, built into `work`: (label, command)."""
    with open(os.path.join(work, "empty.c"), "w") as handle:
        handle.write("int main(void) { return 0; }\n")
    with open(os.path.join(work, "hello.swift"), "w") as handle:
        handle.write(HELLO)
    built = [("C, doing nothing", ["cc", "-O2", "empty.c", "-o", "empty"]),
             ("C, linked to libvips", ["cc", "-O2", "empty.c", "-o", "empty-vips", "-Wl,--no-as-needed", "-lvips"]),
             ("Swift + Foundation, shared", ["swiftc", "-O", "hello.swift", "-o", "hello"]),
             ("Swift + Foundation, linked in", ["swiftc", "-O", "-static-stdlib", "hello.swift", "-o", "hello-static"])]
    for _, command in built:
        subprocess.run(command, cwd=work, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return [(label, [os.path.join(work, command[command.index("-o") + 1])]) for label, command in built]


def measure(command, runs, cwd=None):
    """Median wall milliseconds and median peak MB of `runs` runs, after one to warm the page cache."""
    timed(command, cwd=cwd)
    samples = [timed(command, cwd=cwd) for _ in range(runs)]
    return statistics.median(s[0] for s in samples) * 1000, statistics.median(s[1] for s in samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teardown", required=True)
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    teardown = os.path.abspath(args.teardown)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for label, command in floors(work):
            log(f"timing {label}")
            rows.append((label, *measure(command, args.runs)))
    hugo = hugo_binary()
    for label, command, cwd in [("hugo version", [hugo, "version"], None),
                                ("teardown --version", [teardown, "--version"], None),
                                ("teardown check (the demo)", [teardown, "check"], ROOT)]:
        log(f"timing {label}")
        rows.append((label, *measure(command, args.runs, cwd=cwd)))
    date = datetime.date.today().isoformat()
    lines = [f"Start-up, {date}: median of {args.runs} runs each, wall time and peak memory (`/usr/bin/time`).",
             f"Teardown {version([teardown, '--version'])} (release build, Swift linked in).", "",
             "| command | time | peak memory |", "|---|---:|---:|"]
    lines += [f"| {label} | {ms:.1f} ms | {mb:.1f} MB |" for label, ms, mb in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    publish(text, ["startup-latest.md", f"startup-{date}.md"], "startup", text)


if __name__ == "__main__":
    main()
