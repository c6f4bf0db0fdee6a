#!/usr/bin/env python3
"""Browser tests of the manual and search, in headless Chromium through Selenium.

Builds the mdBook-style fixture with the real Pagefind, serves it with `teardown serve`,
then checks what a visitor does: search for a word from one manual page and find that
page first, narrow by filter, and turn pages with the arrow keys.
"""
import argparse
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "Tests/TeardownKitTests/Fixtures/sites/manual"
TEARDOWN = ROOT / ".build/debug/teardown"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ManualInBrowser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="teardown-browser-"))
        cls.site = cls.work / "site"
        shutil.copytree(FIXTURE, cls.site)
        port = free_port()
        cls.base = f"http://127.0.0.1:{port}/"
        # The server's log goes to a file: a pipe nobody reads fills up and stalls the server.
        cls.log = open(cls.work / "serve.log", "w+")
        cls.server = subprocess.Popen(
            [str(TEARDOWN), "serve", "--site", str(cls.site), "--port", str(port)],
            stdout=cls.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(cls.base + "pagefind/pagefind.js", timeout=2)
                break
            except OSError:
                if time.time() > deadline or cls.server.poll() is not None:
                    cls.log.seek(0)
                    raise RuntimeError("teardown serve did not serve the search index\n" + cls.log.read())
                time.sleep(0.3)
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        cls.browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.server.terminate()
        try:
            cls.server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            cls.server.kill()
            cls.server.wait()
        cls.log.close()
        shutil.rmtree(cls.work, ignore_errors=True)

    def results(self, query_string, expect_any=True):
        self.browser.get(self.base + "search/?" + query_string)
        wait = WebDriverWait(self.browser, 20)
        try:
            wait.until(lambda b: b.find_element(By.CSS_SELECTOR, ".search-status").text.strip() not in ("", "Searching…"))
        except Exception:
            raise AssertionError("no search results: status '%s', browser log %s" % (
                self.browser.find_element(By.CSS_SELECTOR, ".search-status").text, self.browser.get_log("browser")))
        return [link.text for link in self.browser.find_elements(By.CSS_SELECTOR, ".search-results li > a")]

    def test_search_lists_the_page_holding_the_word_first(self):
        titles = self.results("q=zanzibarite")
        self.assertTrue(titles, "no results: " + self.browser.find_element(By.CSS_SELECTOR, ".search-status").text)
        self.assertEqual(titles[0], "On Debian")
        excerpt = self.browser.find_element(By.CSS_SELECTOR, ".search-results li p").get_attribute("innerHTML")
        self.assertIn("<mark>zanzibarite", excerpt)
        errors = [e for e in self.browser.get_log("browser") if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]
        self.assertEqual(errors, [])

    def test_header_search_box_leads_to_results(self):
        self.browser.get(self.base + "manual/glossary/")
        box = self.browser.find_element(By.CSS_SELECTOR, ".site-search input[name=q]")
        box.send_keys("setup", Keys.ENTER)
        WebDriverWait(self.browser, 20).until(
            lambda b: b.find_elements(By.CSS_SELECTOR, ".search-results li > a"))
        titles = [a.text for a in self.browser.find_elements(By.CSS_SELECTOR, ".search-results li > a")]
        self.assertIn("Installing", titles)

    def test_filter_narrows_to_manual_pages(self):
        titles = self.results("q=setup&type=manual")
        self.assertIn("Installing", titles)
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "select[name=type]").get_attribute("value"), "manual")

    def test_arrow_keys_turn_pages(self):
        self.browser.get(self.base + "manual/guide/install/")
        self.browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        WebDriverWait(self.browser, 10).until(EC.url_contains("/manual/guide/debian/"))
        self.browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
        WebDriverWait(self.browser, 10).until(EC.url_matches(r"/manual/guide/install/$"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--teardown", default=str(TEARDOWN))
    arguments, rest = parser.parse_known_args()
    TEARDOWN = Path(arguments.teardown).resolve()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
