"""The site on a phone (390x844, touch): the header keeps one row, its Menu button opens and
closes the navigation, and the page's title is on the first screen. On a tablet (820x1180),
a manual page's title and text keep their column's width, and on a phone a manual page starts
with its title, its pages folded behind a button. Serves the demo site."""
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import ROOT, ServedSite, chromium


class PhoneHeader(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.served = ServedSite(ROOT, "machines/desk-fan/")
        cls.browser = chromium(390, 844, arguments=("--touch-events=enabled",))

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.served.stop()

    def header(self):
        return self.browser.find_element(By.CSS_SELECTOR, ".site-header")

    def test_the_header_is_one_row_and_the_menu_opens_the_navigation(self):
        self.browser.get(self.served.base + "machines/desk-fan/")
        header = self.header()
        brand = header.find_element(By.CSS_SELECTOR, ".brand")
        search = header.find_element(By.CSS_SELECTOR, ".site-search input")
        menu = header.find_element(By.CSS_SELECTOR, ".menu-toggle")
        self.assertLess(header.rect["height"], 72)
        for element in (brand, search, menu):
            self.assertTrue(element.is_displayed())
            self.assertLess(abs(element.rect["y"] + element.rect["height"] / 2
                                - (brand.rect["y"] + brand.rect["height"] / 2)), 12)
        self.assertGreater(search.rect["width"], 120)
        # The site's name is shown whole, on two lines if need be, not cut to "Teardown d…".
        self.assertTrue(self.browser.execute_script(
            "const b = arguments[0]; return b.scrollWidth <= b.clientWidth + 1 && b.scrollHeight <= b.clientHeight + 1;", brand),
            brand.text)
        links = header.find_elements(By.CSS_SELECTOR, "nav a")
        self.assertFalse(any(link.is_displayed() for link in links))
        h1 = self.browser.find_element(By.TAG_NAME, "h1")
        self.assertLess(h1.rect["y"], 844)

        menu.click()
        self.assertEqual(menu.get_attribute("aria-expanded"), "true")
        self.assertTrue(all(link.is_displayed() for link in links))
        # Each link is one line, and a thumb's height.
        for link in links:
            self.assertGreaterEqual(link.rect["height"], 40)
            self.assertLess(link.rect["height"], 60)
        parts = next(link for link in links if link.text.startswith("Parts"))
        self.assertEqual(parts.text, "Parts A–Z")
        # The manual is one link among the others, drawn as they are.
        look = "const s = getComputedStyle(arguments[0]); return [s.textDecorationLine, s.borderBottomWidth, s.backgroundColor, s.color];"
        manual = next(link for link in links if link.text == "Manual")
        self.assertEqual(self.browser.execute_script(look, manual), self.browser.execute_script(look, links[0]))

        links[0].send_keys(Keys.ESCAPE)
        self.assertEqual(menu.get_attribute("aria-expanded"), "false")
        self.assertFalse(any(link.is_displayed() for link in links))
        self.assertEqual(self.browser.switch_to.active_element, menu)

        menu.click()
        parts.click()
        self.assertTrue(self.browser.current_url.endswith("/parts/"))

    def test_a_wide_screen_shows_the_navigation_and_no_menu_button(self):
        self.browser.set_window_size(1366, 900)
        try:
            self.browser.get(self.served.base + "machines/desk-fan/")
            header = self.header()
            self.assertFalse(header.find_element(By.CSS_SELECTOR, ".menu-toggle").is_displayed())
            self.assertTrue(all(link.is_displayed() for link in header.find_elements(By.CSS_SELECTOR, "nav a")))
        finally:
            self.browser.set_window_size(390, 844)

    def test_a_manual_page_starts_with_its_title_and_its_pages_fold_behind_a_button(self):
        self.browser.get(self.served.base + "manual/themes/")
        nav = self.browser.find_element(By.CSS_SELECTOR, ".manual-nav")
        toggle = nav.find_element(By.CSS_SELECTOR, ".pages-toggle")
        title = self.browser.find_element(By.CSS_SELECTOR, ".manual-page h1")
        self.assertTrue(toggle.is_displayed())
        self.assertLess(title.rect["y"], 400)
        links = nav.find_elements(By.CSS_SELECTOR, ".nav-tree a")
        self.assertTrue(links)
        self.assertFalse(any(link.is_displayed() for link in links))
        # "On this page" comes under the title, not between the pages' button and it.
        toc = self.browser.find_element(By.CSS_SELECTOR, ".manual-page .toc")
        self.assertGreater(toc.rect["y"], title.rect["y"] + title.rect["height"] - 1)
        self.assertLess(title.rect["y"], 300)
        toggle.click()
        self.assertEqual(toggle.get_attribute("aria-expanded"), "true")
        current = nav.find_element(By.CSS_SELECTOR, ".nav-tree [aria-current=page]")
        self.assertTrue(current.is_displayed())
        self.assertEqual(current.text, "Themes")

    def test_on_a_tablet_the_manual_page_title_keeps_the_text_column_width(self):
        self.browser.set_window_size(820, 1180)
        try:
            self.browser.get(self.served.base + "manual/themes/")
            article = self.browser.find_element(By.CSS_SELECTOR, ".manual-page")
            title = article.find_element(By.TAG_NAME, "h1")
            first = article.find_element(By.CSS_SELECTOR, "h1 ~ p")
            toc = article.find_element(By.CSS_SELECTOR, ".toc")
            # Nothing sits beside the title and the first paragraph: their lines get the column's width.
            for element in (title, first):
                beside = (toc.rect["y"] < element.rect["y"] + element.rect["height"]
                          and element.rect["y"] < toc.rect["y"] + toc.rect["height"])
                self.assertFalse(beside, element.text[:40])
        finally:
            self.browser.set_window_size(390, 844)


if __name__ == "__main__":
    unittest.main()

    def test_tags_and_letters_are_a_fingers_size(self):
        # Platform guidelines ask for targets of about 44 by 44 CSS pixels.
        self.browser.get(self.served.base + "machines/desk-fan/")
        tags = self.browser.find_elements(By.CSS_SELECTOR, ".tags a")
        self.assertTrue(tags)
        for tag in tags:
            self.assertGreaterEqual(tag.rect["height"], 44, tag.text)
        self.browser.get(self.served.base + "parts/")
        letters = self.browser.find_elements(By.CSS_SELECTOR, ".letters li a")
        self.assertTrue(letters)
        for letter in letters:
            self.assertGreaterEqual(min(letter.rect["height"], letter.rect["width"]), 44, letter.text)

