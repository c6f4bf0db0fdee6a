#!/usr/bin/env python3
"""Runs every browser test (Tests/Browser/*_test.py) against a teardown binary.

    python3 Tests/Browser/run.py [--teardown .build/debug/teardown] [unittest arguments]
"""
import argparse
import sys
import unittest
from pathlib import Path

import harness

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--teardown", default=str(harness.TEARDOWN))
arguments, rest = parser.parse_known_args()
harness.TEARDOWN = Path(arguments.teardown).resolve()
here = Path(__file__).resolve().parent
sys.path.insert(0, str(here))
if rest:
    suite = unittest.defaultTestLoader.loadTestsFromNames(rest)
else:
    suite = unittest.defaultTestLoader.discover(str(here), pattern="*_test.py", top_level_dir=str(here))
result = unittest.TextTestRunner(verbosity=2).run(suite)
sys.exit(0 if result.wasSuccessful() else 1)
