"""The sharded search index against one index, in headless Chromium.

Generates a seeded catalog of 2,000 parts (Benchmarks/generate.py) and builds it twice: as
Teardown shards it by default (several Pagefind bundles, merged by the search page) and with
`search_shards: 1`. A dozen queries a visitor looking for one thing might type must list the
same first result in both.
"""
import functools
import http.server
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import harness

PARTS = 2000
# What a visitor looking for one thing types: names of parts and machines (this seed's), a
# spec value, a phrase, and a word no page holds.
QUERIES = ["brass through", "bright lever", "coil heatsink", "gear through", "brass supports", "winding insulator",
           "after coil", "hinge small", "spins usually", "2429 GB", "286 mm", "quixotic"]
# Pagefind ranks each shard by that shard's own statistics (its page count, how many of its
# pages hold a word, their average length), so pages of near-equal score can trade places
# after the first; the first result, the one such a search is for, must be the same.
FIRST = 1


def build(site, output, *settings):
    config = site / "content/site.yaml"
    original = config.read_text()
    config.write_text(original + "".join(line + "\n" for line in settings))
    try:
        subprocess.run([str(harness.TEARDOWN), "build", "--site", str(site), "--output", str(output)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=900)
    finally:
        config.write_text(original)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the sites, noting each index chunk asked for and by whom (its Referer: the search
    page, or Pagefind's worker)."""
    chunks = []

    def log_message(self, *arguments):
        pass

    def end_headers(self):
        # Pagefind's files are named by their content, and served as a bucket serves them: the
        # worker then finds a chunk the page asked for in the browser's cache.
        if ".pf_" in self.path:
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        super().end_headers()

    def send_head(self):
        if self.path.endswith(".pf_index"):
            QuietHandler.chunks.append((self.path.rsplit("/", 1)[-1], self.headers.get("Referer") or ""))
        return super().send_head()


class ShardedSearch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="teardown-shards-"))
        subprocess.run([sys.executable, str(harness.ROOT / "Benchmarks/generate.py"), "--parts", str(PARTS),
                        "--out", str(cls.work / "generated"), "--seed", "7"], check=True, stdout=subprocess.DEVNULL)
        site = cls.work / "generated/teardown"
        sites = cls.work / "sites"
        # A part's description holds a word only it has, which the recent site's second build
        # replaces: its page then goes to the recent shard (`RecentShard`), whose result stands
        # in for the shard's.
        part = sorted((site / "content/machines").iterdir())[0] / "parts"
        cls.part = sorted(path for path in part.iterdir() if path.is_dir())[0]
        description = cls.part / "description.md"
        original = description.read_text()
        description.write_text("A zymurgical fitting. " + original)
        build(site, sites / "sharded")
        build(site, sites / "single", "search_shards: 1")
        build(site, sites / "recent")
        time.sleep(2.2)  # the description's change settles, so that the other machines are carried
        description.write_text("A quixotic fitting. " + original)
        build(site, sites / "recent")
        handler = functools.partial(QuietHandler, directory=str(sites))
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.base = f"http://127.0.0.1:{cls.server.server_address[1]}/"
        cls.sites = sites
        cls.browser = harness.chromium()

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.server.shutdown()
        shutil.rmtree(cls.work, ignore_errors=True)

    def results(self, site, query):
        self.browser.get(f"{self.base}{site}/search/?q={query.replace(' ', '+')}")
        status = lambda b: b.find_element(By.CSS_SELECTOR, ".search-status").text.strip()
        # The first shard's results come first ("… so far …"); the whole index's replace them.
        busy = lambda b: b.find_element(By.CSS_SELECTOR, ".search-results").get_attribute("aria-busy") is not None
        WebDriverWait(self.browser, 30).until(lambda b: status(b) not in ("", "Searching…") and "so far" not in status(b)
                                              and not busy(b))
        self.assertNotIn("could not load", status(self.browser))
        links = [a.get_attribute("href") for a in self.browser.find_elements(By.CSS_SELECTOR, ".search-results li > a")]
        return status(self.browser), [link.split(f"/{site}/", 1)[1] for link in links]

    def test_the_catalog_is_sharded(self):
        shards = sorted(path.name for path in (self.sites / "sharded/pagefind").iterdir())
        self.assertGreater(len(shards), 1, shards)
        self.assertFalse((self.sites / "single/pagefind/machines-00").exists())

    def test_the_first_shard_answers_alone_before_the_others_are_fetched(self):
        # Every shard but the first is blocked: their results cannot come, the first shard's must.
        self.browser.get(f"{self.base}sharded/search/")
        folders = self.browser.find_element(By.CSS_SELECTOR, ".search-form").get_attribute("data-merge").split()
        self.assertGreater(len(folders), 1, folders)
        blocked = ["*" + folder.replace("../", "/") + "*" for folder in folders]
        self.browser.execute_cdp_cmd("Network.enable", {})
        self.browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": blocked})
        # The status and the results listed when the status first gives the first shard's answer
        # (the names' answer may come before).
        try:
            with harness.FirstStatus(self.browser, 'text.indexOf("so far") >= 0') as watch:
                self.browser.get(f"{self.base}sharded/search/?q=heatsink")
                WebDriverWait(self.browser, 30).until(lambda b: watch.seen() is not None)
                first, listed = watch.seen()
            self.assertRegex(first, r"^\d+ results? so far for “heatsink”; searching the rest of the catalog…$")
            self.assertGreater(listed, 0, first)
        finally:
            self.browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        # Unblocked, the whole index answers and replaces them.
        final, links = self.results("sharded", "heatsink")
        self.assertRegex(final, r"^\d+ results? for “heatsink”\.$")

    def test_the_page_asks_for_the_chunks_pagefind_needs(self):
        # The search page asks for the query's index chunks as it arrives, by Pagefind's own
        # choice, so Pagefind's worker asks the server for none of its own. These words' chunks
        # hold them by the loose rule only (the table's "lever" sorts after one chunk's last word
        # and before the next's first), and their stems sort into the same chunks.
        for query in ["lever", "heatsink", "insulator", "after coil", "hinge small", "quixotic"]:
            self.browser.execute_cdp_cmd("Network.enable", {})
            self.browser.execute_cdp_cmd("Network.clearBrowserCache", {})
            QuietHandler.chunks.clear()
            self.results("single", query)
            asked = list(QuietHandler.chunks)
            self.assertTrue(asked, query)
            by_worker = [chunk for chunk, referer in asked if "pagefind-worker" in referer or "/search/" not in referer]
            self.assertEqual(by_worker, [], f"{query!r}: {asked}")

    def filtered(self, site, query, kind):
        """Searches under a filter, which Pagefind answers (the first answer does not)."""
        self.browser.get(f"{self.base}{site}/search/?q={query}&type={kind}")
        status = lambda b: b.find_element(By.CSS_SELECTOR, ".search-status").text.strip()
        busy = lambda b: b.find_element(By.CSS_SELECTOR, ".search-results").get_attribute("aria-busy") is not None
        WebDriverWait(self.browser, 30).until(lambda b: status(b) not in ("", "Searching…") and not busy(b))
        links = [a.get_attribute("href").split(f"/{site}/", 1)[1]
                 for a in self.browser.find_elements(By.CSS_SELECTOR, ".search-results li > a")]
        machines = {option.get_attribute("value"): option.text
                    for option in self.browser.find_elements(By.CSS_SELECTOR, 'select[name="machine"] option')
                    if option.get_attribute("value") and not option.get_attribute("hidden")}
        return status(self.browser), links, machines

    def test_a_changed_page_is_found_as_it_is_now_once(self):
        recent = self.sites / "recent"
        self.assertTrue((recent / "pagefind/recent/pagefind-entry.json").exists(), "the change went to the recent shard")
        self.browser.get(f"{self.base}recent/search/")
        superseded = self.browser.find_element(By.CSS_SELECTOR, ".search-form").get_attribute("data-superseded")
        self.assertIn('"type"', superseded or "")
        page = f"machines/{self.part.parent.parent.name}/parts/{self.part.name}/"
        # The word the build before had: its shard still holds the page, whose result is left out.
        status, links, machines = self.filtered("recent", "zymurgical", "part")
        self.assertEqual((status, links), ("No results for “zymurgical”.", []))
        self.assertEqual(machines, {}, "no machine filter counts the left-out result")
        status, links, _ = self.filtered("sharded", "zymurgical", "part")
        self.assertEqual(links, [page], "the shard holds it")
        # The word it has now, from the recent shard, counted once.
        status, links, machines = self.filtered("recent", "quixotic", "part")
        self.assertEqual((status, links), ("1 result for “quixotic”.", [page]))
        self.assertEqual([label.rsplit(" ", 1)[1] for label in machines.values()], ["(1)"], machines)
        # A word it had and has: found once, not once per index. (With a word the recent shard
        # lacks, Pagefind matches a shorter word there, as in any index without it: the page may
        # be listed, but once.)
        _, links, _ = self.filtered("recent", "fitting", "part")
        self.assertEqual(links.count(page), 1, links)
        _, links, _ = self.filtered("recent", "zymurgical+fitting", "part")
        self.assertLessEqual(links.count(page), 1, links)

    def test_a_dozen_queries_list_the_same_first_result(self):
        differences = []
        for query in QUERIES:
            _, sharded = self.results("sharded", query)
            _, single = self.results("single", query)
            if sharded[:FIRST] != single[:FIRST]:
                differences.append(f"{query!r}: sharded {sharded[:FIRST]}, single {single[:FIRST]}")
            # A short list is whole: the sharded index lists it first, in any order. (A word
            # some shards lack matches a shorter word there, as Pagefind does in any index
            # without the word; those pages come after.)
            if len(single) < 20 and sorted(sharded[:len(single)]) != sorted(single):
                differences.append(f"{query!r}: sharded {sharded[:len(single)]}, single {single}")
        self.maxDiff = None
        self.assertEqual(differences, [])


if __name__ == "__main__":
    unittest.main()
