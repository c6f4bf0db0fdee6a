#!/usr/bin/env python3
"""Holds the manual (content/manual) to the binary, so that it cannot drift:

1. every command of the command-line page's synopsis exists, with every option it shows, and
   every command the binary has is in the synopsis;
2. every `teardown` command in the manual's shell blocks runs, page by page and in order,
   in a scratch folder that starts as a new site. Paths under /srv/teardown are moved into
   the scratch folder. A command that keeps running (intake, serve) is started, and stopped
   with Ctrl-C once it says it is ready; it keeps serving while the rest of its page runs,
   so that a later `sync` on the page reads it. A command must succeed, except one that
   names a host of example.org or a placeholder (ID...), which must fail for that reason and
   not because the manual used it wrongly (a usage error).

    python3 Tests/Quality/manual_commands.py [--teardown .build/debug/teardown]

Exits 1 and names the page, the command and what it printed when any check fails.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANUAL = ROOT / "content/manual"
USAGE_ERROR = 64  # ArgumentParser's exit status for a command line it cannot parse
READY = {"intake": "Taking submissions on", "serve": "Serving on"}


def blocks(page, languages):
    """The fenced code blocks of a page in one of `languages`, as lists of logical lines."""
    for match in re.finditer(r"^```(\w*)\n(.*?)^```", page.read_text(), re.S | re.M):
        if match.group(1) in languages:
            yield re.sub(r"\\\n\s*", " ", match.group(2)).splitlines()


def synopsis(teardown):
    problems, lines = [], [line for block in blocks(MANUAL / "cli.md", {"text"}) for line in block
                           if line.startswith("teardown ")]
    shown = set()
    for line in lines:
        words = line.split()
        command = [w for w in words[1:3] if re.fullmatch(r"[a-z]+", w) and w not in ("help",)]
        if words[1].startswith("-"):
            command = []
        name = " ".join(command[:2] if command[:1] == ["new"] else command[:1])
        shown.add(name.split(" ")[0])
        help_text = run([teardown, *name.split(), "--help"] if name else [teardown, "--help"]).stdout
        for option in re.findall(r"--[a-z][a-z-]*", line):
            if option not in help_text:
                problems.append(f"cli.md: `{line}` shows {option}, which `teardown {name} --help` does not list")
    listed = re.search(r"SUBCOMMANDS:\n(.*?)(\n\n|$)", run([teardown, "--help"]).stdout, re.S)
    for command in re.findall(r"^  ([a-z]+)\b", listed.group(1) if listed else "", re.M):
        if command not in shown and command != "help":
            problems.append(f"cli.md: the synopsis lacks `teardown {command}`")
    return problems, f"Synopsis: {len(lines)} lines against the binary's help"


def run(arguments, **options):
    return subprocess.run(arguments, capture_output=True, text=True, timeout=300, **options)


def commands(page):
    for block in blocks(page, {"sh", "bash", "console"}):
        for line in block:
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            if re.search(r"(^|\s|&&\s*|=\S*\s+)teardown\s", " " + line):
                yield line


def examples(teardown, work):
    problems, count = [], 0
    bin_folder = work / "bin"
    bin_folder.mkdir()
    (bin_folder / "teardown").symlink_to(Path(teardown).resolve())
    environment = {**os.environ, "PATH": f"{bin_folder}:{os.environ['PATH']}", "NO_COLOR": "1"}
    for page in sorted(MANUAL.glob("*.md")):
        lines = list(commands(page))
        if not lines:
            continue
        folder = work / page.stem
        run([teardown, "new", "site", str(folder)], check=True)
        running = []
        try:
            for line in lines:
                count += 1
                shell = line.replace("/srv/teardown", str(folder / "srv"))
                (folder / "srv").mkdir(exist_ok=True)
                daemon = next((name for name in READY if re.search(rf"\bteardown {name}\b", shell)), None)
                if daemon:
                    process, output = start(shell, folder, environment, READY[daemon])
                    running.append(process)
                    if process.poll() is not None or READY[daemon] not in output:
                        problems.append(f"{page.name}: `{line}` did not start:\n{output[-2000:]}")
                    continue
                result = subprocess.run(["bash", "-c", shell], cwd=folder, env=environment, capture_output=True,
                                        text=True, timeout=300)
                said = (result.stdout + result.stderr)[-2000:]
                may_fail = "example.org" in line or "..." in line
                if result.returncode == USAGE_ERROR or "Usage:" in result.stderr:
                    problems.append(f"{page.name}: `{line}` is not a valid command line:\n{said}")
                elif result.returncode != 0 and not may_fail:
                    problems.append(f"{page.name}: `{line}` failed ({result.returncode}):\n{said}")
            for process in running:
                process.send_signal(signal.SIGINT)
                try:
                    if process.wait(timeout=20) != 0:
                        problems.append(f"{page.name}: {process.args[-1]!r} exited {process.returncode} on Ctrl-C")
                except subprocess.TimeoutExpired:
                    problems.append(f"{page.name}: {process.args[-1]!r} did not stop on Ctrl-C")
        finally:
            for process in running:
                if process.poll() is None:
                    process.kill()
    return problems, f"Examples: {count} commands from the manual's shell blocks"


def start(shell, folder, environment, ready):
    log = folder / f"daemon-{time.monotonic_ns()}.log"
    with open(log, "w") as output:
        # exec, so that Ctrl-C reaches teardown itself and not a shell around it.
        process = subprocess.Popen(["bash", "-c", "exec " + shell], cwd=folder, env=environment, stdout=output,
                                   stderr=subprocess.STDOUT)
    deadline = time.time() + 120
    while time.time() < deadline and process.poll() is None and ready not in log.read_text():
        time.sleep(0.1)
    return process, log.read_text()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teardown", default=str(ROOT / ".build/debug/teardown"))
    arguments = parser.parse_args()
    teardown = str(Path(arguments.teardown).resolve())
    work = Path(tempfile.mkdtemp(prefix="teardown-manual-commands-"))
    failures = []
    try:
        for check in (lambda: synopsis(teardown), lambda: examples(teardown, work)):
            problems, summary = check()
            print(("FAIL  " if problems else "ok    ") + summary, flush=True)
            failures += problems
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for problem in failures:
        print(problem)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
