#!/usr/bin/env python3
"""Checks the package's layers: lists every target's dependencies and fails when

- the targets' dependencies form a cycle;
- a library layer depends on a layer later in Package.swift's `layers` list (a lower layer on a
  higher one);
- a Swift file imports a target of this package that its own target does not declare (the
  build path holds every module, so such an import can compile by the order of a build);
- inside a target, two folders use each other (a folder's names are the types, functions and
  constants declared at the top level of its files; a use is that name as a word in another
  folder's code, comments and strings left out).

Usage: python3 Scripts/check_layers.py [--package-dump FILE]
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cycle(graph):
    """A cycle of `graph` (node -> [nodes]) as a list of nodes, or None."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for other in graph.get(node, ()):
            if state.get(other) == "open":
                return stack[stack.index(other):] + [other]
            if other not in state:
                found = visit(other)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def dependency_names(target):
    names = []
    for dependency in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.append(dependency[kind][0])
    return names


def layer_order():
    """The library's layers in the order Package.swift's `layers` list gives them, lowest first."""
    text = open(os.path.join(ROOT, "Package.swift")).read()
    match = re.search(r"let layers = \[([^\]]*)\]", text)
    if not match:
        sys.exit("Package.swift: no `let layers` list of the library's layers")
    return re.findall(r'"(\w+)"', match.group(1))


DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|final|indirect|nonisolated|open)\s+)*"
    r"(?:struct|enum|class|protocol|actor|typealias|func|let|var)\s+([A-Za-z_]\w*)", re.M)
NOISE = re.compile(r'//[^\n]*|"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"')


def folder_uses(target_path):
    """For each folder of a target, the folders whose top-level names its code uses."""
    declared, sources = {}, {}
    for folder in sorted(os.listdir(target_path)):
        path = os.path.join(target_path, folder)
        if not os.path.isdir(path):
            continue
        for directory, _, files in os.walk(path):
            for name in files:
                if name.endswith(".swift"):
                    text = open(os.path.join(directory, name)).read()
                    sources.setdefault(folder, []).append(NOISE.sub("", text))
                    for match in DECLARATION.finditer(text):
                        declared.setdefault(match.group(1), set()).add(folder)
    uses = {}
    for folder, texts in sources.items():
        words = set(re.findall(r"\b[A-Za-z_]\w*\b", "\n".join(texts)))
        uses[folder] = sorted({other for word in words for other in declared.get(word, ())
                               if other != folder})
    return uses


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package-dump", help="the output of `swift package dump-package`, read instead of running it")
    arguments = parser.parse_args()
    if arguments.package_dump:
        dump = json.load(open(arguments.package_dump))
    else:
        dump = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                                         capture_output=True, text=True).stdout)
    targets = {target["name"]: target for target in dump["targets"]}
    graph = {name: [d for d in dependency_names(target) if d in targets] for name, target in targets.items()}
    problems = []

    print("Targets and their dependencies on this package's targets:")
    for name in targets:
        print(f"  {name}: {', '.join(graph[name]) or '-'}")
    found = cycle(graph)
    if found:
        problems.append("the targets' dependencies form a cycle: " + " -> ".join(found))

    layers = layer_order()
    for index, layer in enumerate(layers):
        for dependency in graph.get(layer, []):
            if dependency in layers and layers.index(dependency) > index:
                problems.append(f"{layer} depends on {dependency}, a higher layer")

    for name, target in targets.items():
        path = os.path.join(ROOT, target.get("path") or os.path.join(
            "Tests" if target["type"] == "test" else "Sources", name))
        if not os.path.isdir(path):
            continue
        allowed = set(graph[name]) | {name}
        for directory, folders, files in os.walk(path):
            folders[:] = [folder for folder in folders if folder != "Fixtures"]
            for file in files:
                if not file.endswith(".swift"):
                    continue
                file_path = os.path.join(directory, file)
                for number, line in enumerate(open(file_path), 1):
                    match = re.match(r"^(?:@testable\s+|@_implementationOnly\s+)?import\s+(\w+)", line)
                    if match and match.group(1) in targets and match.group(1) not in allowed:
                        problems.append(f"{os.path.relpath(file_path, ROOT)}:{number}: imports "
                                        f"{match.group(1)}, which {name} does not depend on")
        if name in layers:
            uses = folder_uses(path)
            found = cycle(uses)
            if found:
                problems.append(f"{name}: its folders use each other: " + " -> ".join(found))

    print(f"Layers, lowest first: {' < '.join(layers)}")
    for problem in problems:
        print("error: " + problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
