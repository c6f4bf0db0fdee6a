#!/usr/bin/env python3
"""Runs a `swift build` command with its progress on one line, printing only what a reader needs:
errors, and warnings from Teardown's own sources, each with the lines that explain it.

    python3 Scripts/quiet_build.py swift build --product teardown

Dependencies' warnings and the compiler's step list are left out; the exit status is swift build's.
"""
import os
import re
import subprocess
import sys
import time

STEP = re.compile(r"^\[(\d+)/(\d+)\] ")
DIAGNOSTIC = re.compile(r"(error|warning):")
OURS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Sources") + os.sep


def main():
    build = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    tty = sys.stdout.isatty()
    showing, last_shown, progress_on_line = False, time.monotonic(), False
    for line in build.stdout:
        step = STEP.match(line)
        if step:
            done, total = int(step[1]), int(step[2])
            showing = False
            if tty:
                sys.stdout.write(f"\r  compiling: step {done} of {total}")
                sys.stdout.flush()
                progress_on_line = True
            elif time.monotonic() - last_shown >= 15:
                # A log, not a terminal: a line every 15 seconds says the build goes on.
                last_shown = time.monotonic()
                print(f"  compiling: step {done} of {total}", flush=True)
            continue
        found = DIAGNOSTIC.search(line)
        if found:
            showing = found[1] == "error" or line.startswith(OURS)
        elif line.startswith(("Fetching ", "Fetched ", "Computing ", "Computed ", "Creating working copy",
                              "Working copy", "Building for", "Write ", "Planning build")):
            continue
        if showing or line.startswith("Build "):
            if progress_on_line:
                sys.stdout.write("\n")
                progress_on_line = False
            sys.stdout.write(line)
            sys.stdout.flush()
    if progress_on_line:
        sys.stdout.write("\n")
    return build.wait()


if __name__ == "__main__":
    sys.exit(main())
