"""The search page on the demo catalog, as a visitor uses it: honest counts, excerpts of what
the pages say rather than their furniture, part results that name their machine, one result
per machine or part however long its discussion, and more than the first twenty results on request.

    python3 Tests/Browser/run.py --teardown .build/debug/teardown search_test
"""
import contextlib
import json
import html
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from harness import ROOT, FirstStatus, SiteTestCase


class SearchTest(SiteTestCase):
    fixture = ROOT  # the demo catalog
    ready_path = "pagefind/pagefind.js"

    def search(self, query):
        self.browser.get(self.base + "search/?q=" + query)
        WebDriverWait(self.browser, 30).until(
            lambda b: b.find_element(By.CSS_SELECTOR, ".search-status").text.strip() not in ("", "Searching…")
            # The first five results are listed first; the list is busy until the page is whole.
            and b.find_element(By.CSS_SELECTOR, ".search-results").get_attribute("aria-busy") is None)
        return self.browser.find_element(By.CSS_SELECTOR, ".search-status").text

    @contextlib.contextmanager
    def first_visit_without(self, pattern):
        """A first visit's empty cache, with the files matching `pattern` never answered."""
        self.browser.execute_cdp_cmd("Network.enable", {})
        self.browser.get("about:blank")
        self.browser.execute_cdp_cmd("Network.clearBrowserCache", {})
        self.browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": [pattern]})
        try:
            yield
        finally:
            self.browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})

    def items(self):
        return self.browser.find_elements(By.CSS_SELECTOR, ".search-results > li")

    def settled(self, status):
        """Waits for the search's own answer (not the names' early one) whose status matches `status`."""
        WebDriverWait(self.browser, 30).until(
            lambda b: re.search(status, b.find_element(By.CSS_SELECTOR, ".search-status").text)
            and b.find_element(By.CSS_SELECTOR, ".search-results").get_attribute("aria-busy") is None)
        return self.browser.find_element(By.CSS_SELECTOR, ".search-status").text

    def box(self):
        return self.browser.find_element(By.CSS_SELECTOR, ".search-form input[name=q]")

    def options(self, name):
        """The filter's options a visitor can choose: their labels, without the first ("everything", "any")."""
        return [option.get_attribute("textContent") for option in
                self.browser.find_elements(By.CSS_SELECTOR, f"select[name={name}] option")[1:]
                if option.get_attribute("hidden") is None]

    def test_the_first_five_results_are_listed_before_the_rest_of_the_page(self):
        # On a slow network each result's fragment costs a round trip, six at a time: the
        # first five are listed when the status first answers, the rest of the page after.
        # The names' answer may come before; the search's own is watched.
        with FirstStatus(self.browser, r"/^\d+ results? for/.test(text)") as watch:
            status = self.search("fan")
            first, listed = watch.seen()
        self.assertEqual(first, status)
        count = int(status.split()[0])
        self.assertGreater(count, 5, status)
        self.assertEqual(listed, 5)
        self.assertEqual(len(self.items()), min(count, 20), "then the whole first page")

    def fetched(self):
        return self.browser.execute_script("return performance.getEntriesByType('resource').map(function (e) { return e.name; });")

    def test_the_first_answer_comes_before_pagefind_has_loaded(self):
        # With Pagefind's files blocked, only Teardown's own index can answer: the pages holding
        # the query's words are listed, linked to their pages, and stay listed when Pagefind
        # fails. Pagefind's first files have addresses the page names, so a cache may hold them
        # from the searches before: it is emptied, as a first visit's is.
        with self.first_visit_without("*/pagefind/*"):
            self.browser.get(self.base + "search/?q=side+panel")
            WebDriverWait(self.browser, 30).until(
                lambda b: "could not be loaded" in b.find_element(By.CSS_SELECTOR, ".search-status").text)
            status = self.browser.find_element(By.CSS_SELECTOR, ".search-status").text
            links = [(a.text, a.get_attribute("href")) for a in
                     self.browser.find_elements(By.CSS_SELECTOR, ".search-results > li > a")]
            kinds = [k.text for k in self.browser.find_elements(By.CSS_SELECTOR, ".search-results .kind")]
        self.assertRegex(status, r"^\d+ pages? holds? “side panel”; the full search could not be loaded\.$")
        self.assertEqual(links[0], ("Side panel", self.base + "machines/personal-computer/parts/side-panel/"))
        self.assertEqual(kinds[0], "Part, Comments · Personal computer", "as Pagefind's result says it")
        # A word being typed that no page holds as it is stands for the commonest word it begins.
        with self.first_visit_without("*/pagefind/*"):
            self.browser.get(self.base + "search/?q=motherb")
            WebDriverWait(self.browser, 30).until(
                lambda b: "could not be loaded" in b.find_element(By.CSS_SELECTOR, ".search-status").text)
            links = [a.text for a in self.browser.find_elements(By.CSS_SELECTOR, ".search-results > li > a")]
        self.assertIn("Motherboard", links)

    def test_the_search_page_tells_words_apart_as_the_build_does(self):
        # The shared vectors, through the page's own functions: the first answer's (as the served
        # page holds it) and search.js's.
        vectors = json.loads((ROOT / "Tests/Vectors/search-words.json").read_text())["vectors"]
        self.browser.get(self.base + "search/")
        page = self.browser.page_source
        script = (ROOT / "Themes/default/assets/search.js").read_text()
        for source in [page, script]:
            function = re.search(r"  function words\(text\) \{.*?\n  \}", source, re.S).group(0)
            found = self.browser.execute_script(
                "var words = new Function(arguments[0] + '; return words;')();"
                "return arguments[1].map(function (v) { return words(v.text).filter(function (w) { return Array.from(w).length > 1; }); });",
                html.unescape(function) if source is page else function, vectors)
            for vector, words in zip(vectors, found):
                self.assertEqual(words, vector["words"], vector["what"])
        # A page holds them (the manual's search page), and the first answer finds them.
        for word in ["설명서", "निर्देश", "がっこう"]:
            with self.first_visit_without("*/pagefind/*"):
                self.browser.get(self.base + "search/?q=" + word)
                WebDriverWait(self.browser, 30).until(
                    lambda b: b.find_element(By.CSS_SELECTOR, ".search-status").text.strip() not in ("", "Searching…"))
                status = self.browser.find_element(By.CSS_SELECTOR, ".search-status").text
            self.assertNotIn("No results", status, word)
            self.assertIn("/manual/search/", " ".join(a.get_attribute("href") for a in
                                                     self.browser.find_elements(By.CSS_SELECTOR, ".search-results > li > a")), word)

    def test_the_nearest_word_costs_a_long_word_its_length(self):
        # The first answer's own distance, as the served page holds it: right on slips, and
        # reading each letter of two 20,000-letter words a few times only (counted through
        # arrays that count their reads), where it read them once for every pair.
        self.browser.get(self.base + "search/")
        function = re.search(r"  function distance\(a, b, limit\) \{.*?\n  \}", self.browser.page_source, re.S).group(0)
        result = self.browser.execute_script(
            "var distance = new Function(arguments[0] + '; return distance;')();"
            "var pairs = [['heatsnk', 'heatsink', 2], ['rpocessor', 'processor', 2], ['fna', 'fan', 1], ['batery', 'battery', 2],"
            " ['gear', 'gear', 1], ['motor', 'rotor', 2], ['abc', 'xyz', 2], ['short', 'shortest', 2]];"
            "var found = pairs.map(function (p) { return distance(p[0], p[1], p[2]); });"
            "var reads = 0;"
            "function counted(text) { var letters = text.split('');"
            "  return new Proxy(letters, { get: function (t, k) { if (k !== 'length') reads++; return t[k]; } }); }"
            "var long = new Array(20001).join('a'), other = long.slice(0, 12345) + 'b' + long.slice(12346);"
            "found.push(distance(counted(long), counted(other), 2));"
            "return { found: found, reads: reads };", function)
        self.assertEqual(result["found"], [1, 1, 1, 1, 0, 1, 3, 3, 1])
        self.assertLess(result["reads"], 100 * 20000, "a few reads of each letter, not one for every pair")

    def test_a_word_no_page_holds_says_no_results_without_asking_pagefind(self):
        # The first answer's vocabulary knows no page holds the word, nor a word it begins or
        # shares a stem with: "No results" at once, and Pagefind is not asked for the word's chunk.
        with self.first_visit_without("*/pagefind/*.pf_index"):
            status = self.search("zzzzqqq")
            fetched = self.fetched()
        self.assertEqual(status, "No results for “zzzzqqq”.")
        self.assertEqual(self.items(), [])
        self.assertTrue(any("/search/first/vocabulary-z.json" in name for name in fetched), fetched)
        # A word Pagefind may find by its stem is left to Pagefind: "fans" finds the fan.
        self.assertRegex(self.search("fans"), r"^\d+ results? for “fans”")

    def test_a_slip_of_one_letter_is_answered_with_the_word_meant(self):
        # A dropped, doubled, swapped or wrong letter: "No results", and the likeliest word the
        # catalog holds, as a link that searches for it ("rpocessor": a swap of the first two letters).
        slips = {"heatsik": "heatsink", "thermostatt": "thermostat", "fna": "fan", "batery": "battery",
                 "pwoer supply": "power supply", "heetsink": "heatsink", "motherbaord": "motherboard",
                 "procesor": "processor", "memery": "memory", "rpocessor": "processor"}
        right, missed = 0, []
        for slip, meant in slips.items():
            status = self.search(slip.replace(" ", "+"))
            self.assertEqual(status, f"No results for “{slip}”.")
            offered = self.browser.find_elements(By.CSS_SELECTOR, ".search-suggestion:not([hidden]) a")
            if offered and offered[0].text == meant:
                right += 1
            else:
                missed.append((slip, offered[0].text if offered else None))
        self.assertGreaterEqual(right, 9, f"at least nine slips of ten are corrected; missed {missed}")
        self.search("heatsik")
        self.browser.find_element(By.CSS_SELECTOR, ".search-suggestion a").click()
        status = self.settled(r"results? for “heatsink”")
        self.assertEqual(self.box().get_attribute("value"), "heatsink")
        self.assertTrue(self.items())
        self.assertIn("q=heatsink", self.browser.current_url)

    def test_the_first_answer_is_replaced_by_the_full_one_in_place(self):
        # The first answer's items are marked early; Pagefind's results, with excerpts, take
        # their place, and the first result does not move down the page.
        top = "document.querySelector('.search-results > li').getBoundingClientRect().top"
        with FirstStatus(self.browser, r"/holds? “fan”/.test(text) && ((window.__top = %s), true)" % top) as watch:
            status = self.search("fan")
            first = watch.seen()
            early_top = self.browser.execute_script("return window.__top;")
        self.assertIsNotNone(first, "the first answer came first")
        self.assertRegex(first[0], r"^\d+ pages hold “fan”; finding excerpts and more…$")
        self.assertRegex(status, r"^\d+ results? for “fan”\.$")
        self.assertEqual(self.browser.execute_script("return " + top + ";"), early_top)
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, ".search-results > li.early"), [])
        self.assertTrue(all(item.find_elements(By.CSS_SELECTOR, "p") for item in self.items()))

    def test_the_page_fetches_pagefinds_first_files_and_pagefind_reads_those(self):
        # The page's own script asks for Pagefind's entry, metadata, WebAssembly and index chunks,
        # so a phone fetches them with the page's first files; Pagefind, given the page's tag, reads that entry rather than
        # asking again for one stamped with the time (which no page can name in advance).
        status = self.search("thermostat")
        self.assertRegex(status, r"^\d+ results? for")
        tag = self.browser.find_element(By.CSS_SELECTOR, ".search-form").get_attribute("data-cache-tag")
        self.assertRegex(tag or "", r"^[0-9a-f]{16}$")
        fetched = self.browser.execute_script(
            "return performance.getEntriesByType('resource').map(function (e) { return e.name; });")
        entries = [name for name in fetched if "pagefind-entry.json" in name]
        self.assertEqual(entries, [self.base + "pagefind/pagefind-entry.json?ts=" + tag])
        self.assertTrue(any(name.endswith(".pf_meta") for name in fetched), fetched)
        self.assertIn(self.base + "pagefind/wasm.en.pagefind", fetched)
        # The word's index chunk too, which the head's script picks from the page's table as
        # Pagefind would: one of the index's chunks, asked for once.
        chunks = [name for name in fetched if name.endswith(".pf_index")]
        self.assertEqual(len(chunks), 1, fetched)
        self.assertRegex(chunks[0], r"/pagefind/index/en_[0-9a-f]+\.pf_index$")

    def test_the_page_fetches_pagefinds_first_files_before_any_query(self):
        # A visitor who opens the search page to type: Pagefind's files are on their way
        # already, and no index chunk is, as there is no word to choose one by. Pagefind's own
        # script is blocked, so what is fetched is what the page asked for.
        with self.first_visit_without("*/pagefind/pagefind.js"):
            self.browser.get(self.base + "search/")
            names = "return performance.getEntriesByType('resource').map(function (e) { return e.name; });"
            # A fetch is listed once its answer is in.
            WebDriverWait(self.browser, 30).until(lambda b: all(
                any(name.endswith(end) for name in b.execute_script(names)) for end in [".pf_meta", "pagefind-worker.js"]))
            fetched = self.browser.execute_script(names)
        self.assertIn(self.base + "pagefind/wasm.en.pagefind", fetched)
        self.assertTrue(any("pagefind-entry.json?ts=" in name for name in fetched), fetched)
        self.assertFalse(any(name.endswith(".pf_index") for name in fetched), fetched)

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
        self.assertFalse([title for title in titles if "discussion" in title], titles)

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
        # The manual's samples (machine.json, front matter) are not quoted either.
        furniture = ["Designed by", "License:", "Specifications", "Discussion", "No comments yet", "Photos", "Designer",
                     "Parts A", "Download", '{"', "---"]
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

    def test_the_manuals_code_samples_are_not_searched(self):
        # The file name in the sync command's sample output is in no sentence of the manual.
        self.assertEqual(self.search("f6fb796c08ced17e"), "No results for “f6fb796c08ced17e”.")
        # What the samples show, the prose says: the settings page is found by a key's name.
        self.search("intake_url")
        titles = [item.find_element(By.TAG_NAME, "a").text for item in self.items()]
        self.assertIn("Taking comments and photos from visitors", titles)

    def test_a_comment_on_a_later_discussion_page_finds_its_part_once(self):
        # The DVD drive's paper-clip comment is on the second page of its discussion: the part
        # is the result, quoting the comment, and no page of the discussion is one of its own.
        status = self.search("straightened paper clip")
        self.assertEqual(status, "1 result for “straightened paper clip”.")
        item = self.items()[0]
        link = item.find_element(By.TAG_NAME, "a")
        self.assertEqual(link.text, "DVD drive")
        self.assertEqual(link.get_attribute("href"), self.base + "machines/personal-computer/parts/dvd-drive/")
        self.assertIn("paper clip", item.find_element(By.TAG_NAME, "p").text)

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

    def test_back_and_forward_go_through_the_searches_made(self):
        self.search("kettle")
        box = self.box()
        box.clear()
        box.send_keys("thermostat", Keys.ENTER)
        self.settled(r"results? for “thermostat”")
        self.assertIn("q=thermostat", self.browser.current_url)
        # Typing after a search made is a new entry; the letters typed on the way are not.
        box.clear()
        box.send_keys("gla")
        self.settled(r"for “gla”")
        box.send_keys("ss")
        self.settled(r"results? for “glass”")
        self.browser.back()
        self.settled(r"results? for “thermostat”")
        self.assertEqual(self.box().get_attribute("value"), "thermostat")
        self.browser.back()
        self.settled(r"results? for “kettle”")
        self.assertEqual(self.box().get_attribute("value"), "kettle")
        self.assertIn("Electric kettle", [item.find_element(By.TAG_NAME, "a").text for item in self.items()])
        self.browser.forward()
        self.settled(r"results? for “thermostat”")
        self.browser.forward()
        self.settled(r"results? for “glass”")
        self.assertEqual(self.box().get_attribute("value"), "glass")

    def test_the_keyboard_moves_through_the_results_and_back(self):
        status = self.search("fan")
        links = [item.find_element(By.TAG_NAME, "a") for item in self.items()]
        self.assertGreater(len(links), 2, status)
        # The count is said in the page's live region, which a screen reader reads out.
        live = self.browser.find_element(By.CSS_SELECTOR, ".search-status")
        self.assertEqual((live.get_attribute("role"), live.get_attribute("aria-live")), ("status", "polite"))
        self.assertRegex(live.text, r"^\d+ results for “fan”\.$")
        box = self.box()
        box.click()
        active = lambda: self.browser.switch_to.active_element
        box.send_keys(Keys.ARROW_DOWN)
        self.assertEqual(active(), links[0])
        active().send_keys(Keys.ARROW_DOWN)
        self.assertEqual(active(), links[1])
        active().send_keys(Keys.ARROW_UP)
        active().send_keys(Keys.ARROW_UP)
        self.assertEqual(active(), box)
        box.send_keys(Keys.ARROW_DOWN)
        active().send_keys(Keys.ESCAPE)
        self.assertEqual(active(), box)
        # Enter on a result follows it.
        box.send_keys(Keys.ARROW_DOWN)
        target = links[0].get_attribute("href")
        active().send_keys(Keys.ENTER)
        WebDriverWait(self.browser, 10).until(lambda b: b.current_url == target)
        self.browser.back()
        self.settled(r"results? for “fan”")
        # Escape in the box empties it, and the results go with it.
        box = self.box()
        box.send_keys(Keys.ESCAPE)
        WebDriverWait(self.browser, 10).until(lambda b: not self.items())
        self.assertEqual(self.box().get_attribute("value"), "")
        self.assertNotIn("q=", self.browser.current_url)

    def test_the_filters_count_the_querys_results(self):
        # One comment on one part holds these words (its page is a part's and a comment's): the
        # filters offer what the query found, not the index's totals.
        self.search("straightened paper clip")
        WebDriverWait(self.browser, 30).until(lambda b: b.find_element(By.CSS_SELECTOR, "select[name=type]").is_enabled())
        WebDriverWait(self.browser, 10).until(lambda b: self.options("type") and all(
            not option.endswith("(0)") for option in self.options("type")))
        offered = self.options("type")
        self.assertEqual(offered, ["Comments (1)", "Part (1)"])
        self.assertEqual(self.options("machine"), ["Personal computer (1)"])
        self.browser.find_element(By.CSS_SELECTOR, "select[name=type] option[value=part]").click()
        self.assertEqual(self.settled(r"result"), "1 result for “straightened paper clip”.")
        # With a kind chosen, the other kinds the query holds stay on offer.
        self.search("fan")
        WebDriverWait(self.browser, 10).until(lambda b: len(self.options("type")) > 1)
        counts = {label.split(" (")[0]: int(label.split(" (")[1].rstrip(")")) for label in self.options("type")}
        self.assertNotIn(0, counts.values())
        chosen = "Part" if "Part" in counts else sorted(counts)[0]
        value = {"Manual": "manual", "Machine": "machine", "Part": "part", "Comments": "comment"}[chosen]
        self.browser.find_element(By.CSS_SELECTOR, f"select[name=type] option[value={value}]").click()
        status = self.settled(r"results? for “fan”")
        self.assertEqual(int(status.split()[0]), counts[chosen], status)
        self.assertEqual(self.options("type"), [f"{k} ({v})" for k, v in counts.items()], "the other kinds stay")

    def test_specs_and_tags_are_quoted_as_labelled_sentences(self):
        # As a table and a list they ran together: "Case fan. cooling. Diameter 120 mm Speed 1200 rpm".
        self.search("1200 rpm")
        excerpts = {item.find_element(By.TAG_NAME, "a").text: item.find_element(By.TAG_NAME, "p").text for item in self.items()}
        self.assertIn("Case fan", excerpts, excerpts)
        self.assertIn("Speed: 1200 rpm.", excerpts["Case fan"])
        self.assertIn("Tagged cooling. Diameter: 120 mm.", excerpts["Case fan"])

