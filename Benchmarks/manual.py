#!/usr/bin/env python3
"""Times a large help manual against a catalog of as many pages, and against Hugo.

    manual.py --teardown .build/release/teardown [--pages 4000] [--runs 3]

1. A seeded manual of --pages Markdown pages (40 chapters, SUMMARY.md, sections, code, links
   between pages) is built cold by Teardown, and the same pages by Hugo with a plain docs layout.
2. A seeded catalog with as many parts (generate.py) is built cold by Teardown.
Both Teardown sites index their pages with Pagefind, as a real site does. The target: a
manual page costs no more than a catalog page. Also reported: the share of the manual's
bytes spent on navigation (the tree is shared, not repeated), and the rebuild after one page
changes. Results go to Benchmarks/results/manual-<date>.md and manual-latest.md, and into
Benchmarks/README.md between the manual markers.
"""

import argparse
import datetime
import os
import random
import re
import statistics
import subprocess
import sys

from bench import HERE, hugo_binary, html_pages, log, publish, timed, version
from generate import sentence, write

CHAPTERS = 40
HUGO_LAYOUT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><main>
<h1>{{ .Title }}</h1>
{{ .Content }}
<nav>{{ with .PrevInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
{{ with .NextInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</nav>
</main></body></html>
"""


def page_body(rng, title, neighbour):
    blocks = [f"# {title}", sentence(rng, 12, 24) + " " + sentence(rng)]
    for section in range(rng.randint(3, 6)):
        blocks.append(f"## {sentence(rng, 2, 5)[:-1]}")
        for _ in range(rng.randint(2, 4)):
            blocks.append(" ".join(sentence(rng) for _ in range(rng.randint(2, 5))))
        if rng.random() < 0.3:
            blocks.append("```sh\nteardown build --site my-catalog\n```")
        if rng.random() < 0.4:
            blocks.append(f"See also [{neighbour[1]}]({neighbour[0]}).")
    return "\n\n".join(blocks) + "\n"


def generate(root, pages, seed):
    rng = random.Random(seed)
    per_chapter = max(1, pages // CHAPTERS)
    summary = ["# Summary", ""]
    files = []
    for chapter in range(CHAPTERS):
        folder = f"chapter-{chapter + 1:02d}"
        files.append((f"{folder}/index.md", f"Chapter {chapter + 1}", 0))
        for number in range(1, per_chapter):
            files.append((f"{folder}/page-{number:03d}.md", f"{sentence(rng, 2, 5)[:-1]} {chapter + 1}.{number}", 1))
    files = files[:pages]
    for index, (path, title, depth) in enumerate(files):
        summary.append("    " * depth + f"- [{title}]({path})")
        target = files[(index + 1) % len(files)]
        link = os.path.relpath(target[0], os.path.dirname(path))
        body = page_body(rng, title, (link, target[1]))
        write(f"{root}/teardown/content/manual/{path}", body)
        hugo_path = path.replace("index.md", "_index.md")
        write(f"{root}/hugo/content/{hugo_path}", f"---\ntitle: \"{title}\"\nweight: {index}\n---\n" + body.split("\n", 1)[1])
    write(f"{root}/teardown/content/manual/SUMMARY.md", "\n".join(summary) + "\n")
    write(f"{root}/teardown/content/site.yaml", 'title: "Benchmark manual"\n')
    write(f"{root}/hugo/hugo.toml", 'baseURL = "http://127.0.0.1:8080/"\ntitle = "Benchmark manual"\n'
          'disableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n')
    write(f"{root}/hugo/layouts/_default/single.html", HUGO_LAYOUT)
    write(f"{root}/hugo/layouts/_default/list.html", HUGO_LAYOUT)
    return len(files)


def navigation_share(output):
    """Bytes of the navigation element (the tree or its placeholder) over all manual bytes."""
    total = navigation = 0
    for folder, _, names in os.walk(os.path.join(output, "manual")):
        for name in names:
            if not name.endswith(".html"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                html = handle.read()
            total += len(html.encode())
            match = re.search(r'<nav class="manual-nav".*?</nav>', html, re.S)
            if match:
                navigation += len(match.group(0).encode())
    return navigation / total, total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teardown", required=True)
    parser.add_argument("--pages", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default=os.path.join(HERE, "work-manual"))
    args = parser.parse_args()
    teardown = os.path.abspath(args.teardown)
    hugo = hugo_binary()
    work = os.path.abspath(args.work)
    generation = os.path.join(work, f"gen-{datetime.datetime.now():%Y%m%d%H%M%S}")
    log(f"Generating a manual of {args.pages:,} pages and a catalog of {args.pages:,} parts")
    pages = generate(os.path.join(generation, "manual"), args.pages, seed=7)
    subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--parts", str(args.pages),
                    "--out", os.path.join(generation, "catalog"), "--seed", "7"], check=True, stdout=subprocess.DEVNULL)

    times = {"manual": [], "catalog": [], "hugo": [], "manual-nosearch": [], "catalog-nosearch": []}
    counted = {}
    for run in range(args.runs):
        for kind in ("manual", "catalog", "hugo", "manual-nosearch", "catalog-nosearch"):
            output = os.path.join(generation, "runs", f"{kind}-{run}")
            environment = None
            if kind.endswith("-nosearch"):
                # The same build without the Pagefind stage: Teardown's own share.
                environment = dict(os.environ, TEARDOWN_PAGEFIND="")
                command = [teardown, "build", "--site", os.path.join(generation, kind.split("-")[0], "teardown"),
                           "--output", output]
            elif kind == "hugo":
                command = [hugo, "--quiet", "--source", os.path.join(generation, "manual", "hugo"),
                           "--destination", output, "--cacheDir", os.path.join(generation, "runs", f"hugo-cache-{run}")]
            else:
                command = [teardown, "build", "--site", os.path.join(generation, kind, "teardown"), "--output", output]
            wall, peak, _ = timed(command, env=environment)
            counted.setdefault(kind, html_pages(output))
            times[kind].append((wall, peak))
            log(f"  {kind:<8} run {run + 1}: {wall:6.2f} s  {peak:7.1f} MB  {counted[kind]:,} pages")

    manual_output = os.path.join(generation, "runs", "manual-0")
    share, manual_bytes = navigation_share(manual_output)
    site = os.path.join(generation, "manual", "teardown")
    edited = os.path.join(site, "content", "manual", "chapter-01", "page-001.md")
    rebuild = []
    for run in range(args.runs):
        with open(edited, "a") as handle:
            handle.write(f"\nOne more sentence, edit {run + 1}.\n")
        rebuild.append(timed([teardown, "build", "--site", site, "--output", manual_output])[0])

    def per_page(kind):
        return statistics.median(w for w, _ in times[kind]) / counted[kind] * 1000

    manual_ms, catalog_ms, hugo_ms = per_page("manual"), per_page("catalog"), per_page("hugo")
    ratio = catalog_ms / manual_ms
    own_ratio = per_page("catalog-nosearch") / per_page("manual-nosearch")
    versions = {"teardown": version([teardown, "--version"]), "hugo": version([hugo, "version"])}
    date = datetime.date.today().isoformat()
    lines = [
        f"Manual benchmark, {date}: {pages:,} manual pages against a catalog of {args.pages:,} parts; "
        f"median of {args.runs} cold builds each, on {os.cpu_count()} cores. Teardown {versions['teardown']} "
        f"(both sites indexed by Pagefind); {versions['hugo']} with a plain docs layout and no search.",
        "",
        "| | HTML pages | median build | per page | peak memory |",
        "|---|---:|---:|---:|---:|",
    ]
    for kind, label in (("manual", "Teardown, manual"), ("catalog", "Teardown, catalog"),
                        ("manual-nosearch", "Teardown, manual, no search index"),
                        ("catalog-nosearch", "Teardown, catalog, no search index"), ("hugo", "Hugo, same manual")):
        lines.append(f"| {label} | {counted[kind]:,} | {statistics.median(w for w, _ in times[kind]):.2f} s "
                     f"| {per_page(kind):.2f} ms | {max(p for _, p in times[kind]):,.0f} MB |")
    lines += [
        "",
        f"- Manual pages per second over catalog pages per second: **{ratio:.2f}x** with the search index "
        f"(target: at least 1x): {'met' if ratio >= 1 else 'NOT met'}; **{own_ratio:.2f}x** for Teardown's own "
        "stages, without Pagefind, whose time grows with the text indexed (a manual page here holds about "
        "three times a part page's text).",
        f"- Against Hugo on the same pages: Hugo's per-page time is {hugo_ms / manual_ms:.2f}x Teardown's "
        "(Teardown also writes the print page, contents, nav.json and the search index).",
        f"- Navigation is {share * 100:.1f}% of the manual's {manual_bytes / 1e6:.1f} MB of HTML (target: under 5%): "
        f"{'met' if share < 0.05 else 'NOT met'}.",
        f"- Rebuild after editing one page: {statistics.median(rebuild):.2f} s (median), search index included.",
    ]
    text = "\n".join(lines) + "\n"
    publish(text, (f"manual-{date}.md", "manual-latest.md"), "manual", text)
    print(text)


if __name__ == "__main__":
    main()
