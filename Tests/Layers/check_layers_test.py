#!/usr/bin/env python3
"""Scripts/check_layers.py fails on what it is there to catch: a cycle of targets, a lower layer
depending on a higher one, an undeclared import and two folders that use each other."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "Scripts", "check_layers.py")
sys.path.insert(0, os.path.join(ROOT, "Scripts"))
import check_layers  # noqa: E402


def target(name, *dependencies, path=None, kind="regular"):
    entry = {"name": name, "type": kind, "dependencies": [{"byName": [d, None]} for d in dependencies]}
    if path:
        entry["path"] = path
    return entry


def run(targets):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as dump:
        json.dump({"targets": targets}, dump)
    try:
        return subprocess.run([sys.executable, CHECK, "--package-dump", dump.name], capture_output=True, text=True)
    finally:
        os.unlink(dump.name)


class CheckLayersTests(unittest.TestCase):
    def test_the_package_as_it_is_passes(self):
        result = subprocess.run([sys.executable, CHECK], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("TeardownBuild: TeardownBase, TeardownContent, TeardownMedia", result.stdout)

    def test_a_cycle_of_targets_fails(self):
        result = run([target("A", "B"), target("B", "C"), target("C", "A")])
        self.assertEqual(result.returncode, 1)
        self.assertIn("cycle: A -> B -> C -> A", result.stderr)

    def test_a_lower_layer_on_a_higher_one_fails(self):
        result = run([target("TeardownBase", "TeardownBuild"), target("TeardownBuild")])
        self.assertEqual(result.returncode, 1)
        self.assertIn("TeardownBase depends on TeardownBuild, a higher layer", result.stderr)

    def test_an_undeclared_import_fails(self):
        with tempfile.TemporaryDirectory(dir=ROOT) as folder:
            os.makedirs(os.path.join(folder, "Sources", "Low"))
            with open(os.path.join(folder, "Sources", "Low", "Low.swift"), "w") as file:
                file.write("import Foundation\nimport High\n")
            relative = os.path.relpath(os.path.join(folder, "Sources", "Low"), ROOT)
            result = run([target("Low", path=relative), target("High", "Low")])
        self.assertEqual(result.returncode, 1)
        self.assertIn("Low.swift:2: imports High, which Low does not depend on", result.stderr)

    def test_folders_that_use_each_other_are_a_cycle(self):
        with tempfile.TemporaryDirectory() as folder:
            for name, text in [("Render/Page.swift", "struct Page { let plan: Plan }\n"),
                               ("Site/Plan.swift", "struct Plan {\n    // a Page is named in a comment only\n}\n")]:
                os.makedirs(os.path.join(folder, os.path.dirname(name)), exist_ok=True)
                with open(os.path.join(folder, name), "w") as file:
                    file.write(text)
            self.assertIsNone(check_layers.cycle(check_layers.folder_uses(folder)))
            with open(os.path.join(folder, "Site", "Plan.swift"), "a") as file:
                file.write("extension Plan { func first(_ pages: [Page]) -> Page? { pages.first } }\n")
            self.assertEqual(check_layers.cycle(check_layers.folder_uses(folder)), ["Render", "Site", "Render"])


if __name__ == "__main__":
    unittest.main()
