"""The default theme page by page on the demo catalog, at 1366x900: what a visitor sees first
on the home page, the parts index, a part page and a short page.

    python3 Tests/Browser/run.py --teardown .build/debug/teardown theme_test
"""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from harness import ROOT, SiteTestCase, wait_for


class ThemeTest(SiteTestCase):
    fixture = ROOT  # the demo catalog
    ready_path = "parts/"

    def open(self, path):
        self.browser.set_window_size(1366, 900)
        self.browser.get(self.base + path)
        wait_for(self.browser, "return document.readyState", "complete")

    def rect(self, element):
        return self.browser.execute_script("return arguments[0].getBoundingClientRect().toJSON()", element)

    def current_section(self):
        return [a.text for a in self.browser.find_elements(By.CSS_SELECTOR, "#site-nav a[aria-current]")]

    def test_the_header_marks_the_section_of_the_page(self):
        for path, section in [("", "Machines"), ("machines/desk-fan/parts/motor/", "Machines"), ("parts/", "Parts A–Z"),
                              ("parts/c/", "Parts A–Z"), ("tags/", "Tags"), ("photos/", "Photos"), ("manual/", "Manual"),
                              ("search/", None)]:
            self.open(path)
            self.assertEqual(self.current_section(), [section] if section else [], path)

    def test_home_names_its_machines_and_says_what_the_site_is(self):
        self.open("")
        headings = [h.text for h in self.browser.find_elements(By.CSS_SELECTOR, "main h2")]
        self.assertEqual(headings[0], "Machines", headings)
        self.assertIn("Machines you can take apart", self.browser.find_element(By.CSS_SELECTOR, ".site-description").text)
        cards = self.browser.find_elements(By.CSS_SELECTOR, ".cards > .card")
        titles = [self.rect(card.find_element(By.TAG_NAME, "h3"))["top"] for card in cards]
        self.assertEqual(len(set(round(top) for top in titles)), 1, f"card titles line up: {titles}")
        main = self.rect(self.browser.find_element(By.CSS_SELECTOR, ".cards"))
        last = self.rect(cards[-1])
        self.assertGreater(last["right"], main["right"] - 40, "the cards fill the row")

    def test_the_parts_index_lists_every_part_with_its_place_in_its_machine(self):
        self.open("parts/")
        entries = self.browser.find_elements(By.CSS_SELECTOR, ".part-index > li")
        # Every part of the demo: a part is a folder under a machine's parts/.
        parts = len(list((ROOT / "content/machines").glob("*/parts/*/part.yaml")))
        self.assertEqual(len(entries), parts)
        self.assertTrue(all(entry.find_elements(By.CSS_SELECTOR, ".part-thumb img.current") for entry in entries))
        # Multi-column lists start their columns level.
        tops = {round(self.rect(entry)["top"]) for entry in
                self.browser.find_elements(By.CSS_SELECTOR, ".part-group:first-of-type .part-index > li")}
        self.assertEqual(len(tops), 1, tops)
        self.open("parts/c/")
        crumbs = self.browser.find_element(By.CSS_SELECTOR, ".breadcrumbs").text
        self.assertEqual(crumbs, "Machines › Parts A–Z › Parts: C")
        self.assertTrue(self.browser.find_elements(By.CSS_SELECTOR, ".part-index .part-thumb"))

    def test_a_part_page_puts_its_facts_beside_its_picture(self):
        self.open("machines/personal-computer/parts/side-panel/")
        picture = self.rect(self.browser.find_element(By.CSS_SELECTOR, ".layer-image"))
        specs = self.rect(self.browser.find_element(By.CSS_SELECTOR, ".specs"))
        self.assertGreater(specs["left"], picture["right"], "the specifications sit to the right of the picture")
        self.assertLess(specs["top"], picture["bottom"])

    def test_the_machine_view_lines_up_with_the_text(self):
        self.open("machines/desk-fan/")
        view = self.rect(self.browser.find_element(By.CSS_SELECTOR, ".machine-view"))
        title = self.rect(self.browser.find_element(By.CSS_SELECTOR, "main h1"))
        self.assertAlmostEqual(view["left"], title["left"], delta=2)

    def test_the_footer_sits_at_the_bottom_of_a_short_page(self):
        self.open("search/")
        footer = self.rect(self.browser.find_element(By.CSS_SELECTOR, ".site-footer"))
        height = self.browser.execute_script("return window.innerHeight")
        self.assertAlmostEqual(footer["bottom"], height, delta=2)
        self.open("machines/desk-fan/")
        links = [a.text for a in self.browser.find_elements(By.CSS_SELECTOR, ".site-footer a")]
        self.assertEqual(links, ["Feed", "Desk fan feed"])

    def background(self, selector="body"):
        return self.browser.execute_script(
            "return getComputedStyle(document.querySelector(arguments[0])).backgroundColor", selector)

    @staticmethod
    def luminance(rgb):
        red, green, blue = [int(part) for part in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
        return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255

    def test_colours_follow_the_system_until_the_visitor_chooses_and_the_choice_is_remembered(self):
        self.open("")
        self.browser.execute_script("localStorage.removeItem('teardown.scheme')")
        self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                     {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        try:
            self.open("machines/personal-computer/")
            self.assertLess(self.luminance(self.background()), 0.2, "dark like the system")
            # The stage the parts stand on is a mid-tone: dark artwork keeps its contrast, and it
            # is not a bright panel in a dark page.
            stage = self.luminance(self.background(".machine-view .mv-viewport, .machine-view .stack"))
            self.assertGreater(stage, 0.45)
            self.assertLess(stage, 0.6)
            toggle = self.browser.find_element(By.CSS_SELECTOR, ".site-header .scheme-toggle")
            self.assertEqual(toggle.get_attribute("aria-label"), "Colours: automatic")
            toggle.click()
            self.assertEqual(toggle.get_attribute("aria-label"), "Colours: light")
            self.assertGreater(self.luminance(self.background()), 0.8, "light though the system is dark")
            self.open("parts/")
            self.assertGreater(self.luminance(self.background()), 0.8, "the choice holds on the next page")
            self.browser.find_element(By.CSS_SELECTOR, ".scheme-toggle").click()
            self.assertLess(self.luminance(self.background()), 0.2)
            self.browser.find_element(By.CSS_SELECTOR, ".scheme-toggle").click()
            self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, ".scheme-toggle").get_attribute("aria-label"),
                             "Colours: automatic")
            self.assertIsNone(self.browser.execute_script("return localStorage.getItem('teardown.scheme')"))
        finally:
            self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
            self.browser.execute_script("localStorage.removeItem('teardown.scheme')")

    def test_a_thumbnails_caption_cut_short_ends_in_an_ellipsis(self):
        # At a phone's width the demo's credit ("Rendered with POV-Ray for the Teardown demo")
        # does not fit under its thumbnail: each line is cut with an ellipsis, not mid-word.
        self.browser.set_window_size(390, 900)
        self.browser.get(self.base + "photos/")
        wait_for(self.browser, "return document.readyState", "complete")
        lines = self.browser.execute_script("""
            return Array.from(document.querySelectorAll('.gallery figcaption > span')).map(function (span) {
              var style = getComputedStyle(span);
              return [span.textContent, span.scrollWidth > span.clientWidth, style.textOverflow, style.overflow];
            });""")
        cut = [line for line in lines if line[1]]
        self.assertTrue(cut, lines)
        for text, _, overflow, clip in cut:
            self.assertEqual((overflow, clip), ("ellipsis", "hidden"), text)
        self.browser.set_window_size(1366, 900)

    def test_a_code_block_has_a_copy_button(self):
        self.open("manual/cli/")
        blocks = self.browser.find_elements(By.CSS_SELECTOR, ".manual-page pre")
        self.assertTrue(blocks, "the manual's command line page shows commands")
        # What the button hands the clipboard is recorded: a headless browser's clipboard cannot be read back.
        self.browser.execute_script(
            "navigator.clipboard.writeText = function (text) { window.copied = text; return Promise.resolve(); };")
        button = blocks[0].find_element(By.CSS_SELECTOR, "button.copy-code")
        self.assertEqual(button.text, "Copy")
        button.click()
        WebDriverWait(self.browser, 5).until(lambda b: button.text == "Copied")
        code = blocks[0].find_element(By.TAG_NAME, "code").get_attribute("textContent").rstrip("\n")
        self.assertEqual(self.browser.execute_script("return window.copied;"), code)

    def test_footnotes_close_the_page_under_a_rule_and_a_heading(self):
        self.open("manual/manual/")
        notes = self.browser.find_element(By.CSS_SELECTOR, ".manual-page .footnotes")
        look = self.browser.execute_script(
            "const s = getComputedStyle(arguments[0]), b = getComputedStyle(arguments[0], '::before');"
            "return [s.borderTopStyle, b.content];", notes)
        self.assertEqual(look, ["solid", '"Notes"'])
        self.assertIn("Footnotes are numbered", notes.text)
