#!/usr/bin/env python3
"""Fails when a Swift file in Sources is over 400 lines or a function, initializer or accessor
in one is over 60: small files with one main type, and functions that read at a glance.

Usage: python3 Scripts/check_sizes.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_FILE, MAX_FUNCTION = 400, 60
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|private|fileprivate|internal|static|class|"
                         r"final|override|mutating|nonisolated|convenience|required)\s+)*(?:func\s+(\w+)|(init)[?!]?\s*[(<])")
NOISE = re.compile(r'"(?:\\.|[^"\\])*"|//.*')


def long_functions(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    for number, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match:
            continue
        depth, opened, end = 0, None, None
        for index in range(number, len(lines)):
            code = NOISE.sub('""', lines[index])
            for character in code:
                if character == "{":
                    depth += 1
                    opened = index if opened is None else opened
                elif character == "}":
                    depth -= 1
            if opened is not None and depth <= 0:
                end = index
                break
            if opened is None and index > number + 10:
                break
        if opened is not None and end is not None and end - opened + 1 > MAX_FUNCTION:
            found.append((number + 1, match.group(1) or match.group(2), end - opened + 1))
    return found, len(lines) - (1 if lines and lines[-1] == "" else 0)


def main():
    problems = []
    for directory, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, ROOT)
            functions, count = long_functions(path)
            if count > MAX_FILE:
                problems.append(f"{relative}: {count} lines; split it below {MAX_FILE}")
            for line, function, length in functions:
                problems.append(f"{relative}:{line}: {function} is {length} lines; keep functions to {MAX_FUNCTION}")
    for problem in problems:
        print("error: " + problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
