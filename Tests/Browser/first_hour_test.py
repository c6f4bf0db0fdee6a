"""First-hour bugs seen in a browser: a machine manual's way back and its lone "Next", and a
machine page whose description opens with a title keeping one h1. Serves the demo site."""
import shutil
import tempfile
import unittest
from pathlib import Path

from selenium.webdriver.common.by import By

from harness import ROOT, ServedSite, chromium


class FirstHourPages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="teardown-browser-"))
        site = cls.work / "site"
        for folder in ["content", "Themes"]:
            if (ROOT / folder).is_dir():
                shutil.copytree(ROOT / folder, site / folder)
        description = site / "content/machines/desk-fan/description.md"
        description.write_text("# The desk fan, explained\n\n" + description.read_text())
        cls.served = ServedSite(site, "machines/desk-fan/manual/", copy=False)
        cls.browser = chromium(1366, 900)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.served.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_a_machine_manual_leads_back_and_keeps_next_on_the_right(self):
        self.browser.get(self.served.base + "machines/desk-fan/manual/")
        self.assertEqual(self.browser.title.split(" · ")[0], "Desk fan user manual")
        back = self.browser.find_element(By.CSS_SELECTOR, ".manual-page .breadcrumbs a")
        self.assertEqual(back.text, "Desk fan")
        self.assertEqual(back.get_attribute("href"), self.served.base + "machines/desk-fan/")
        # On the first page, "Next" is alone: it sits at the right end of its row.
        row = self.browser.find_element(By.CSS_SELECTOR, ".prev-next")
        following = row.find_element(By.CSS_SELECTOR, "a[rel=next]")
        self.assertEqual(row.find_elements(By.CSS_SELECTOR, "a[rel=prev]"), [])
        right = lambda element: element.rect["x"] + element.rect["width"]
        self.assertAlmostEqual(right(following), right(row), delta=2)
        self.assertGreater(following.rect["x"], row.rect["x"] + row.rect["width"] / 2)

    def test_a_description_opening_with_a_title_leaves_the_page_one_h1(self):
        self.browser.get(self.served.base + "machines/desk-fan/")
        self.assertEqual([h.text for h in self.browser.find_elements(By.TAG_NAME, "h1")], ["Desk fan"])
        entry = self.browser.find_element(By.CSS_SELECTOR, ".discussion .entry.designer h3")
        self.assertEqual(entry.text, "The desk fan, explained")


if __name__ == "__main__":
    unittest.main()
