"""Browser tests of the manual and search, in headless Chromium through Selenium.

Builds the mdBook-style fixture with the real Pagefind, serves it with `teardown serve`,
then checks what a visitor does: search for a word from one manual page and find that
page first, narrow by filter, and turn pages with the arrow keys.
"""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from harness import SiteTestCase


class ManualInBrowser(SiteTestCase):
    fixture = "manual"
    ready_path = "pagefind/pagefind.js"

    def results(self, query_string, expect_any=True):
        self.browser.get(self.base + "search/?" + query_string)
        wait = WebDriverWait(self.browser, 20)
        try:
            wait.until(lambda b: b.find_element(By.CSS_SELECTOR, ".search-status").text.strip() not in ("", "Searching…")
                       and b.find_element(By.CSS_SELECTOR, ".search-results").get_attribute("aria-busy") is None)
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
        self.assertEqual(self.severe_errors(), [])

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
