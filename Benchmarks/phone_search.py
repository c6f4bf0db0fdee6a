#!/usr/bin/env python3
"""What a visitor on a phone waits for and downloads before the first search results.

    phone_search.py --site OUTPUT [--runs 5] [--queries "heatsink,brass through"]

OUTPUT is a site built with its search index (`teardown build` with Pagefind). It is served
from loopback, and headless Chromium, 390 x 844 px, with DevTools' "Fast 3G" network
(562.5 ms round trip, 1.44 Mbit/s down, 675 kbit/s up) and its cache cleared, opens the
search page with each query. For each, the time from navigation to the first results listed
(or "no results"), and the files the server had been asked for by then, at their stored
sizes (the page, its styles and scripts, Pagefind's script, WebAssembly, index and
fragments, for the page and for Pagefind's worker). Medians of the runs. Prints a Markdown
table.
"""

import argparse
import functools
import http.server
import os
import statistics
import sys
import threading
import time


HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Tests/Browser"))
QUERIES = ["heatsink", "brass through", "winding insulator", "286 mm", "quixotic"]
# DevTools' "Fast 3G" preset.
FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 1.44e6 / 8, "uploadThroughput": 675e3 / 8}
# The moment the results list or the status is final, as the search bench watches for it.
from search import WATCH, first_results as wait_for_results  # noqa: E402


class CountingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site and notes when each file was asked for and how large it was."""
    served = []

    def log_message(self, *arguments):
        pass

    def send_head(self):
        started = time.time()
        head = super().send_head()
        path = self.translate_path(self.path)
        if head is not None and os.path.isfile(path):
            CountingHandler.served.append((started, self.path, os.path.getsize(path)))
        return head


def first_results(browser, url):
    # The page before may still be fetching (a sharded index goes on loading after its first
    # results): it is left, and its requests given time to end, before this page is counted.
    browser.get("about:blank")
    time.sleep(1)
    CountingHandler.served.clear()
    value = {"ms": wait_for_results(browser, url),
             "status": browser.execute_script("return document.querySelector('.search-status').textContent;")}
    # Pagefind fetches from a worker, whose requests the page's Resource Timing does not list:
    # the bytes are the files the server was asked for before the results were shown.
    shown = browser.execute_script("return (performance.timeOrigin + window.__firstResults) / 1000;")
    served = [entry for entry in CountingHandler.served if entry[0] <= shown]
    value["bytes"], value["requests"] = sum(size for _, _, size in served), len(served)
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", required=True, help="a built site with its search index")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--queries", default=",".join(QUERIES))
    arguments = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(CountingHandler, directory=arguments.site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    from harness import chromium
    browser = chromium(390, 844, ["--user-agent=Mozilla/5.0 (Linux; Android 14) Mobile"])
    try:
        browser.execute_cdp_cmd("Network.enable", {})
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", FAST_3G)
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
        rows = []
        for query in arguments.queries.split(","):
            url = base + "search/?q=" + query.replace(" ", "+")
            results = [first_results(browser, url) for _ in range(arguments.runs)]
            rows.append((query, statistics.median(r["ms"] for r in results), max(r["ms"] for r in results),
                         statistics.median(r["bytes"] for r in results), statistics.median(r["requests"] for r in results),
                         results[-1]["status"]))
    finally:
        browser.quit()
        server.shutdown()
    print(f"Phone search, 390 px, Fast 3G, cache cleared; medians of {arguments.runs} runs\n")
    print("| Query | First results (median) | (slowest) | Received by then | Requests | Status |")
    print("|---|---:|---:|---:|---:|---|")
    for query, median, slowest, received, requests, status in rows:
        print(f"| {query} | {median / 1000:.2f} s | {slowest / 1000:.2f} s | {received / 1024:.0f} KB | {requests:.0f} | {status} |")


if __name__ == "__main__":
    main()
