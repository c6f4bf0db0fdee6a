#!/usr/bin/env python3
"""Fails when a `try?` in Sources does not say why its failure is normal there.

A `try?` turns an error into nothing, so the reason must stand beside it: a comment on its
line or on one of the three lines above (a doc comment counts).

Usage: python3 Scripts/check_try.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REACH = 3
TRY = re.compile(r"\btry\?")


def unexplained(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    for number, line in enumerate(lines):
        code = line.split("//")[0]
        if not TRY.search(code):
            continue
        nearby = lines[max(0, number - REACH):number + 1]
        if not any("//" in text for text in nearby):
            found.append(number + 1)
    return found


def main():
    problems = []
    for directory, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for name in sorted(files):
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                problems += [f"{os.path.relpath(path, ROOT)}:{line}: a `try?` without a comment saying why "
                             "its failure is normal here" for line in unexplained(path)]
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
