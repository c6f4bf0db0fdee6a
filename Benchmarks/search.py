#!/usr/bin/env python3
"""Times the sharded search index against one index: building it, re-indexing after one
comment, and a visitor's time to the first results in headless Chromium.

    search.py --teardown .build/release/teardown [--parts 10000] [--runs 5] [--places tmpfs,disk]

On each place (tmpfs under /dev/shm, and this disk) it generates a seeded catalog
(generate.py), builds it once without search (to make the image cache warm), then builds it
with search as Teardown shards it by default and with
`search_shards: 1`. Each then gets one new comment and a rebuild. A static server serves
the sites on the first place; for each of a few queries and each run, Chromium opens the search page with the
query, its cache cleared, and the time from navigation to the first results listed is read
in the page. Medians. Results go to Benchmarks/results/search-<date>.md and search-latest.md,
and into Benchmarks/README.md between the search markers.
"""

import argparse
import datetime
import functools
import http.server
import os
import platform
import shutil
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "Tests/Browser"))
from bench import publish, timed, version  # noqa: E402

# Where each place's scratch folder goes (the disk's is git-ignored, as work-*).
PLACES = {"tmpfs": "/dev/shm/teardown-search-bench", "disk": os.path.join(HERE, "work-search")}
QUERIES = ["brass through", "heatsink", "winding insulator", "286 mm", "quixotic"]
LAYOUTS = [("sharded", []), ("single", ["search_shards: 1"])]
# Set before any script of the page runs: the moment the results list or the status is final.
WATCH = """
window.__firstResults = null;
document.addEventListener("DOMContentLoaded", function () {
  var status = document.querySelector(".search-status");
  if (!status) return;
  function check() {
    var text = status.textContent;
    if (window.__firstResults === null && text && text !== "Searching…") window.__firstResults = performance.now();
  }
  // A first answer can come before the page has finished loading (the names' file, already in).
  check();
  new MutationObserver(check).observe(status, { childList: true, characterData: true, subtree: true });
});
"""


def log(message):
    print(message, flush=True)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


def build(teardown, site, output, settings, env=None):
    config = os.path.join(site, "content/site.yaml")
    with open(config) as handle:
        original = handle.read()
    with open(config, "w") as handle:
        handle.write(original + "".join(line + "\n" for line in settings))
    try:
        wall, peak, _ = timed([teardown, "build", "--site", site, "--output", output], env=env)
    finally:
        with open(config, "w") as handle:
            handle.write(original)
    return wall, peak


def add_comment(site, number):
    machines = os.path.join(site, "content/machines")
    machine = sorted(os.listdir(machines))[number % len(os.listdir(machines))]
    parts = os.path.join(machines, machine, "parts")
    part = sorted(os.listdir(parts))[0]
    folder = os.path.join(parts, part, "comments")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"bench-{number}.md"), "w") as handle:
        handle.write(f"---\nauthor: Bench\ndate: 2026-11-{number % 28 + 1:02d}\n---\nA new comment about the winding, number {number}.\n")


def shard_count(output):
    folder = os.path.join(output, "pagefind")
    shards = [name for name in os.listdir(folder) if name.startswith("shard-")]
    return len(shards) or 1


def first_results(browser, url):
    browser.execute_cdp_cmd("Network.clearBrowserCache", {})
    browser.get(url)
    deadline = time.time() + 60
    while (value := browser.execute_script("return window.__firstResults;")) is None:
        if time.time() > deadline:
            sys.exit(f"no results at {url}")
        time.sleep(0.02)
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teardown", required=True)
    parser.add_argument("--parts", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--places", default=",".join(PLACES), help="where the catalog and its sites are written")
    arguments = parser.parse_args()
    teardown = os.path.abspath(arguments.teardown)
    places = arguments.places.split(",")
    results = {}
    for place in places:
        work = PLACES[place]
        shutil.rmtree(work, ignore_errors=True)
        generated = os.path.join(work, "generated")
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--parts", str(arguments.parts), "--out", generated,
                        "--seed", "1"], check=True, stdout=subprocess.DEVNULL)
        site = os.path.join(generated, "teardown")
        log(f"{place}: warming the image cache")
        build(teardown, site, os.path.join(work, "warm"), [], env={**os.environ, "TEARDOWN_PAGEFIND": ""})
        for name, settings in LAYOUTS:
            output = os.path.join(work, "sites", name)
            log(f"{place}, {name}: cold build")
            cold, _ = build(teardown, site, output, settings)
            comments = []
            for run in range(arguments.runs):
                add_comment(site, run + 100 * len(results))
                comments.append(build(teardown, site, output, settings)[0])
            results[(place, name)] = {"cold": cold, "comment": statistics.median(comments), "shards": shard_count(output)}
    sites = os.path.join(PLACES[places[0]], "sites")
    first = {}

    from harness import chromium
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=sites))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    browser = chromium()
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
    try:
        for name, _ in LAYOUTS:
            times = []
            for run in range(arguments.runs):
                for query in QUERIES:
                    times.append(first_results(browser, f"{base}{name}/search/?q={query.replace(' ', '+')}"))
            first[name] = (statistics.median(times), max(times))
            log(f"{name}: first results {first[name]}")
    finally:
        browser.quit()
        server.shutdown()
    for place in places:
        shutil.rmtree(PLACES[place], ignore_errors=True)

    now = datetime.datetime.now()
    lines = [
        f"- Machine: {os.cpu_count()} cores (nproc), {platform.system()} {platform.release()}, "
        f"{round(os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30)} GiB; {now:%Y-%m-%d}",
        f"- Teardown {version([teardown, '--version'])} (release build); {version(['chromium', '--version'])}",
        f"- Catalog: Benchmarks/generate.py, {arguments.parts:,} parts, seed 1, on {' and '.join(places)}. "
        f"Medians of {arguments.runs} runs; one new comment, then `teardown build`. Time to first results: "
        f"headless Chromium with its cache cleared, from navigation to the results listed, for the queries "
        f"{', '.join(repr(q) for q in QUERIES)}, served from loopback out of the {places[0]} copy.",
        "",
        "| Index | Place | Bundles | Cold build with search | One new comment, then build |",
        "|---|---|---:|---:|---:|",
    ]
    labels = {"sharded": "Sharded (automatic)", "single": "One index (`search_shards: 1`)"}
    for (place, name), r in results.items():
        lines.append(f"| {labels[name]} | {place} | {r['shards']} | {r['cold']:.2f} s | {r['comment'] * 1000:.0f} ms |")
    lines += ["", "| Index | Time to first results (median) | (slowest) |", "|---|---:|---:|"]
    for name, (median, worst) in first.items():
        lines.append(f"| {labels[name]} | {median:.0f} ms | {worst:.0f} ms |")
    for place in places:
        sharded, single = results[(place, "sharded")], results[(place, "single")]
        lines.append(f"\nOn {place}, sharded, the one-comment rebuild is {single['comment'] / sharded['comment']:.1f}x faster.")
    lines += ["", f"The first results take {first['sharded'][0] / first['single'][0]:.2f}x one index's time (median)."]
    text = "\n".join(lines) + "\n"
    print(text)
    publish(text, [f"search-{now:%Y-%m-%d-%H%M}.md", "search-latest.md"], "search", text)


if __name__ == "__main__":
    main()
