#!/usr/bin/env python3
"""Runs libFuzzer over each fuzz target for a bounded time, from the committed seed corpus.

    python3 Tests/Fuzz/run.py --binary .build-fuzz/debug/teardown-fuzz [--seconds 60]

The seeds in Tests/Fuzz/corpus/<target>/ run first, so an input that once crashed (kept there
as a regression fixture) is tried on every run. New inputs the fuzzer finds go to a scratch
corpus, not into the repository. A crash, a timeout or running out of memory fails the run,
and the input that did it is saved under .build/fuzz-artifacts/ and named in the output.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ["bundle", "inbox", "intake", "text", "cache", "store"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / ".build-fuzz/debug/teardown-fuzz"))
    parser.add_argument("--seconds", type=int, default=60)
    arguments = parser.parse_args()
    artifacts = ROOT / ".build/fuzz-artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    failed = False
    for target in TARGETS:
        seeds = ROOT / "Tests/Fuzz/corpus" / target
        scratch = Path(tempfile.mkdtemp(prefix=f"teardown-fuzz-{target}-"))
        try:
            result = subprocess.run(
                [arguments.binary, str(scratch), str(seeds), f"-max_total_time={arguments.seconds}",
                 "-timeout=10", "-rss_limit_mb=2048", "-max_len=65536", "-print_final_stats=1",
                 f"-artifact_prefix={artifacts}/{target}-"],
                env={**os.environ, "TEARDOWN_FUZZ_TARGET": target, "ASAN_OPTIONS": "detect_leaks=0"}, capture_output=True, text=True)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        log = result.stderr
        runs = re.search(r"stat::number_of_executed_units:\s*(\d+)", log)
        seconds = re.search(r"Done \d+ runs in (\d+) second", log)
        coverage = re.findall(r"cov: (\d+)", log)
        summary = (f"{target}: {int(runs.group(1)) if runs else 0:,} executions in {seconds.group(1) if seconds else '?'} s, "
                   f"{len(list(seeds.iterdir()))} seeds, coverage {coverage[-1] if coverage else '?'} edges")
        if result.returncode != 0:
            failed = True
            crash = re.findall(r"Test unit written to (\S+)", log)
            print(f"FAIL  {summary}\n{log[-6000:]}")
            if crash:
                print(f"The input is {crash[-1]}; reproduce it with a plain build:\n"
                      f"  swift build --product teardown-fuzz && .build/debug/teardown-fuzz {target} {crash[-1]}\n"
                      f"then fix it and add the file to Tests/Fuzz/corpus/{target}/ as a regression fixture.")
        else:
            print(f"ok    {summary}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
