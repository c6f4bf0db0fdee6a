"""The search page on the demo catalog, as a visitor uses it: honest counts, excerpts of what
the pages say rather than their furniture, part results that name their machine, one result
per machine, and more than the first twenty results on request.

    python3 Tests/Browser/run.py --teardown .build/debug/teardown search_test
"""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from harness import ROOT, SiteTestCase


class SearchTest(SiteTestCase):
    fixture = ROOT  # the demo catalog
    ready_path = "pagefind/pagefind.js"

    def search(self, query):
        self.browser.get(self.base + "search/?q=" + query)
        WebDriverWait(self.browser, 30).until(
            lambda b: b.find_element(By.CSS_SELECTOR, ".search-status").text.strip() not in ("", "Searching…"))
        return self.browser.find_element(By.CSS_SELECTOR, ".search-status").text

    def items(self):
        return self.browser.find_elements(By.CSS_SELECTOR, ".search-results > li")

    def test_a_word_no_page_holds_finds_nothing(self):
        status = self.search("zzzzqqq")
        self.assertEqual(self.items(), [])
        self.assertIn("No results", status)

    def test_excerpts_quote_the_text_not_the_page_furniture(self):
        furniture = ["Both Metric Imperial", "Metric Imperial", "in place in the", "the other parts are faded",
                     "comments, 0 photos", "0 photos", "Older →", "Download the whole bundle"]
        for query in ["rpm", "thumbscrews", "kettle", "photos", "panel"]:
            self.search(query)
            excerpts = [item.find_element(By.TAG_NAME, "p").text for item in self.items()]
            self.assertTrue(excerpts, query)
            for excerpt in excerpts:
                for phrase in furniture:
                    self.assertNotIn(phrase, excerpt, f"'{query}': {excerpt}")

    def test_a_part_result_names_its_machine(self):
        self.search("thumbscrews")
        side_panel = [item for item in self.items() if item.find_element(By.TAG_NAME, "a").text == "Side panel"]
        self.assertEqual(len(side_panel), 1, [item.text for item in self.items()])
        self.assertIn("Personal computer", side_panel[0].find_element(By.CSS_SELECTOR, ".kind").text)

    def test_a_machine_is_one_result_however_many_discussion_pages_it_has(self):
        # The personal computer's discussion runs to a second page.
        self.search("personal computer")
        titles = [item.find_element(By.TAG_NAME, "a").text for item in self.items()]
        self.assertEqual(titles.count("Personal computer"), 1, titles)
        later = [title for title in titles if title.startswith("Personal computer") and title != "Personal computer"]
        self.assertTrue(all("discussion" in title for title in later), later)
        # So does a part: the DVD drive's seven comments take two pages.
        self.search("dvd drive")
        titles = [item.find_element(By.TAG_NAME, "a").text for item in self.items()]
        self.assertEqual(titles.count("DVD drive"), 1, titles)
        self.assertIn("DVD drive — Personal computer: discussion, page 2", titles)

    def test_a_dozen_queries_find_what_a_reader_means_with_excerpts_of_the_text(self):
        # Query, the title the first result must have (or one of the first two), and a word of its excerpt.
        expected = [
            ("thermostat", ["Switch and thermostat"], "bimetallic"),
            ("kettle", ["Electric kettle"], "kettle"),
            ("fan", ["Case fan", "Desk fan"], "fan"),
            ("side panel", ["Side panel"], "glass"),
            ("motherboard", ["Motherboard"], "motherboard"),
            ("thumbscrews", ["Thumbscrews"], "screws"),
            ("rpm", ["Hard disk", "Motor", "CPU cooler", "Case fan"], "rpm"),
            ("glass", ["Side panel"], "glass"),
            ("power supply", ["Power supply"], "power"),
            ("heatsink", ["Chipset heatsink"], "aluminium"),
            ("sync", ["Syncing community content"], "sync"),
            ("blades", ["Blades"], "blade"),
        ]
        furniture = ["Designed by", "License:", "Specifications", "Discussion", "No comments yet", "Photos", "Designer",
                     "Parts A", "Download"]
        for query, titles, word in expected:
            self.search(query)
            items = self.items()
            self.assertTrue(items, query)
            first = [item.find_element(By.TAG_NAME, "a").text for item in items[:2]]
            self.assertTrue(first[0] in titles or (len(titles) > 1 and set(titles) & set(first)), f"'{query}': {first}")
            excerpt = items[0].find_element(By.TAG_NAME, "p").text
            self.assertIn(word, excerpt.lower(), f"'{query}': {excerpt}")
            for item in items:
                text = item.find_element(By.TAG_NAME, "p").text
                for phrase in furniture:
                    self.assertNotIn(phrase, text, f"'{query}': {text}")

    def test_a_later_discussion_page_is_found_by_its_comments_not_by_the_page_around_them(self):
        self.search("dvd drive")
        later = [item for item in self.items() if "discussion, page 2" in item.find_element(By.TAG_NAME, "a").text]
        self.assertTrue(later, [item.text for item in self.items()])
        for item in later:
            excerpt = item.find_element(By.TAG_NAME, "p").text
            # Its parts list, specifications and tags are the first page's; only its comments are indexed.
            for phrase in ["Read speed", "Laser wavelength", "storage. optical"]:
                self.assertNotIn(phrase, excerpt)

    def test_more_results_than_twenty_are_shown_on_request(self):
        status = self.search("the")
        total = int(status.split()[0])
        self.assertGreater(total, 20, status)
        self.assertEqual(len(self.items()), 20)
        more = self.browser.find_element(By.CSS_SELECTOR, ".search-more")
        self.assertTrue(more.is_displayed())
        first_new = None
        while self.browser.find_elements(By.CSS_SELECTOR, ".search-more:not([hidden])"):
            shown = len(self.items())
            self.browser.find_element(By.CSS_SELECTOR, ".search-more").click()
            WebDriverWait(self.browser, 20).until(lambda b: len(self.items()) > shown)
            if first_new is None:
                first_new = self.items()[shown].find_element(By.TAG_NAME, "a")
                self.assertEqual(self.browser.switch_to.active_element, first_new, "focus moves to the first new result")
        self.assertEqual(len(self.items()), total)
        titles = [item.find_element(By.TAG_NAME, "a").get_attribute("href") for item in self.items()]
        self.assertEqual(len(titles), len(set(titles)), "no result is listed twice")
        self.assertEqual(self.severe_errors(), [])
