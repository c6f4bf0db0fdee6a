#!/usr/bin/env python3
"""What a visitor on a phone waits for and downloads before the first search results.

    phone_search.py --site OUTPUT [--runs 5] [--queries "heatsink,brass through"]

OUTPUT is a site built with its search index (`teardown build` with Pagefind). It is served
from loopback as `teardown deploy` stores it in a bucket: text gzip-compressed with
Content-Encoding, every file with its Cache-Control (`--uncompressed` serves the files as
they are, as a host that does not compress would), and the server makes DevTools' "Fast 3G"
network for every response, the page's and its worker's (562.5 ms round trip, 1.44 Mbit/s
down shared by all). Headless Chromium, 390 x 844 px, with its cache cleared, opens the
search page with each query. For each, the time from navigation to
the first results listed (or "no results"), and the bytes the server had sent by then (the
page, its styles and scripts, Pagefind's script, WebAssembly, index and fragments, for the
page and for Pagefind's worker); then the time to the full answer (Pagefind's "12 results
for", or "No results") and to a "Did you mean" suggestion. (The full answer's time is Pagefind's first: on a
sharded index, its first shard's "12 results so far".) Medians of the runs. Prints a
Markdown table.
"""

import argparse
import functools
import gzip
import http.server
import io
import os
import statistics
import sys
import threading
import time


HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Tests/Browser"))
QUERIES = ["heatsink", "brass through", "winding insulator", "286 mm", "quixotic", "heatsnk"]
# DevTools' "Fast 3G" preset.
FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 1.44e6 / 8, "uploadThroughput": 675e3 / 8}


class Network:
    """Fast 3G made by the server, for every request: DevTools' emulation does not reach the
    requests of a page's worker, where Pagefind fetches its WebAssembly, index and fragments,
    so those came at loopback speed. As DevTools does it: each response starts `latency`
    after its request, and the bytes of all responses in flight share the download rate
    (sent in small slices, turn about)."""
    SLICE = 1460

    def __init__(self, latency_ms, bytes_per_second):
        self.latency, self.rate = latency_ms / 1000, bytes_per_second
        self.lock = threading.Lock()
        self.free_at = 0.0

    def wait_latency(self, asked):
        time.sleep(max(0.0, asked + self.latency - time.time()))

    def send(self, stream, body):
        for start in range(0, len(body), self.SLICE):
            piece = body[start:start + self.SLICE]
            with self.lock:
                self.free_at = max(self.free_at, time.time()) + len(piece) / self.rate
                due = self.free_at
            time.sleep(max(0.0, due - time.time()))
            stream.write(piece)
# The moment the results list or the status first answers, as the search bench watches for it.
from search import WATCH, first_results as wait_for_results  # noqa: E402

# And the moments of the full answer (Pagefind's count, or "No results") and of a suggestion.
FULL = """
window.__full = null; window.__suggested = null;
document.addEventListener("DOMContentLoaded", function () {
  var status = document.querySelector(".search-status");
  if (!status) return;
  function check() {
    var text = status.textContent;
    if (window.__full === null && /^(\\d+ results? (so far )?for|No results for)/.test(text)) window.__full = performance.now();
    var offered = document.querySelector(".search-suggestion:not([hidden]) a");
    if (window.__suggested === null && offered) window.__suggested = performance.now();
  }
  new MutationObserver(check).observe(document.body, { childList: true, characterData: true, subtree: true, attributes: true });
});
"""


# What `teardown deploy` stores compressed, and its Cache-Control by kind (ObjectHeaders).
TEXT = {"html", "css", "js", "mjs", "json", "xml", "atom", "txt", "svg"}
PAGES = {"html", "xml", "json", "txt", "atom"}
CONTENT_ADDRESSED = {"pf_fragment", "pf_index", "pf_meta"}


class CountingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site as a bucket would after `teardown deploy`, and notes when each file
    was asked for and how many bytes were sent for it."""
    served = []
    done = {}
    compress = True
    network = Network(FAST_3G["latency"], FAST_3G["downloadThroughput"])

    def log_message(self, *arguments):
        pass

    def do_GET(self):
        body = self.send_head()
        if body is not None:
            try:
                self.network.send(self.wfile, body.read())
            except (BrokenPipeError, ConnectionResetError):
                # The browser left the page (the next run, or a sharded index still loading):
                # what it no longer wants is not an error.
                pass
            body.close()
            CountingHandler.done[self.path] = time.time()

    def send_head(self):
        started = time.time()
        self.network.wait_latency(started)
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?")[0].endswith("/"):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            return super().send_head()
        with open(path, "rb") as handle:
            body = handle.read()
        kind = path.rsplit(".", 1)[-1].lower()
        encoded = self.compress and kind in TEXT
        if encoded:
            body = gzip.compress(body, compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if kind in CONTENT_ADDRESSED
                         else "public, max-age=60" if kind in PAGES else "public, max-age=3600")
        if encoded:
            self.send_header("Content-Encoding", "gzip")
        self.end_headers()
        CountingHandler.served.append((started, self.path, len(body)))
        return io.BytesIO(body)


def first_results(browser, url):
    # The page before may still be fetching (a sharded index goes on loading after its first
    # results): it is left, and its requests given time to end, before this page is counted.
    browser.get("about:blank")
    time.sleep(1)
    CountingHandler.served.clear()
    CountingHandler.done.clear()
    navigated = time.time()
    value = {"ms": wait_for_results(browser, url)}
    deadline = time.time() + 60
    while (full := browser.execute_script("return window.__full;")) is None and time.time() < deadline:
        time.sleep(0.02)
    value["full"] = full
    value["suggested"] = browser.execute_script("return window.__suggested;")
    value["status"] = browser.execute_script("return document.querySelector('.search-status').textContent;")
    # Pagefind fetches from a worker, whose requests the page's Resource Timing does not list:
    # the bytes are the files the server was asked for before the results were shown.
    shown = browser.execute_script("return (performance.timeOrigin + window.__firstResults) / 1000;")
    # Requests of the page before that were still on their way are not this page's.
    served = [entry for entry in CountingHandler.served if navigated <= entry[0] <= shown]
    value["bytes"], value["requests"] = sum(size for _, _, size in served), len(served)
    value["waterfall"] = [(asked - navigated, CountingHandler.done.get(path, float("nan")) - navigated, path, size)
                          for asked, path, size in served] + [(shown - navigated, shown - navigated, "(first results shown)", 0)]
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", required=True, help="a built site with its search index")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--queries", default=",".join(QUERIES))
    parser.add_argument("--uncompressed", action="store_true", help="serve the files as they are, not as deploy stores them")
    parser.add_argument("--waterfall", action="store_true",
                        help="also print, for each query's last run, each file asked for before the first results: when asked, when sent, its bytes")
    arguments = parser.parse_args()
    CountingHandler.compress = not arguments.uncompressed
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(CountingHandler, directory=arguments.site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    from harness import chromium
    browser = chromium(390, 844, ["--user-agent=Mozilla/5.0 (Linux; Android 14) Mobile"])
    try:
        browser.execute_cdp_cmd("Network.enable", {})
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FULL})
        rows = []
        for query in arguments.queries.split(","):
            url = base + "search/?q=" + query.replace(" ", "+")
            results = [first_results(browser, url) for _ in range(arguments.runs)]
            def median(key):
                values = [r[key] for r in results if r[key] is not None]
                return statistics.median(values) if values else None
            rows.append((query, median("ms"), max(r["ms"] for r in results), median("full"), median("suggested"),
                         statistics.median(r["bytes"] for r in results), statistics.median(r["requests"] for r in results),
                         results[-1]["status"], results[-1]["waterfall"]))
    finally:
        browser.quit()
        server.shutdown()
    served = "files as they are" if arguments.uncompressed else "served as deploy stores it (text gzip-compressed)"
    print(f"Phone search, 390 px, Fast 3G, cache cleared, {served}; medians of {arguments.runs} runs\n")
    print("| Query | First answer (median) | (slowest) | Full answer | Suggestion | Received by the first | Requests | Status at the end |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    seconds = lambda ms: "-" if ms is None else f"{ms / 1000:.2f} s"  # noqa: E731
    for query, median, slowest, full, suggested, received, requests, status, _ in rows:
        print(f"| {query} | {seconds(median)} | {seconds(slowest)} | {seconds(full)} | {seconds(suggested)} | "
              f"{received / 1024:.0f} KB | {requests:.0f} | {status} |")
    if arguments.waterfall:
        for query, *_, waterfall in rows:
            print(f"\n{query}: asked at, sent by (s from navigation), bytes, file")
            for asked, sent, path, size in sorted(waterfall):
                print(f"  {asked:6.2f} {sent:6.2f} {size:8d}  {path}")


if __name__ == "__main__":
    main()
