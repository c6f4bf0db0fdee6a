"""Every kind of page of the demo, at a desktop's, a tablet's and a phone's width, in the light
scheme and the dark one: each is photographed whole into .build/test-artifacts/screenshots/
for review, and none may be wider than its window (a phone that scrolls sideways has a broken
layout). Serves the demo site."""
import base64
import time
import unittest

from harness import ROOT, ServedSite, chromium

ARTIFACTS = ROOT / ".build/test-artifacts/screenshots"
SCREENS = {"desktop": (1366, 900), "tablet": (820, 1180), "phone": (390, 844)}
PAGES = {
    "catalog": "",
    "machine": "machines/personal-computer/",
    "discussion-2": "machines/personal-computer/discussion/2/",
    "part": "machines/personal-computer/parts/hard-disk/",
    "gallery": "machines/electric-kettle/photos/",
    "photo": "machines/electric-kettle/photos/kettle-on-counter/",
    "parts-a-z": "parts/",
    "parts-letter": "parts/c/",
    "tags": "tags/",
    "tag": "tags/kitchen/",
    "collection": "collections/kitchen/",
    "all-photos": "photos/",
    "manual": "manual/getting-started/",
    # Alerts, task lists and definition lists, as a book written for mdBook has them.
    "manual-writing": "manual/manual/",
    "manual-contents": "manual/contents/",
    "machine-manual": "machines/desk-fan/manual/",
    "search": "search/?q=fan",
    "not-found": "nowhere/",
}


class Screenshots(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.served = ServedSite(ROOT, "machines/desk-fan/")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.served.stop()

    def test_every_kind_of_page_at_three_widths_in_both_schemes(self):
        taken = 0
        for screen, (width, height) in SCREENS.items():
            browser = chromium(width, height)
            try:
                for scheme in ("light", "dark"):
                    browser.get(self.served.base)
                    browser.execute_script(f"localStorage.setItem('teardown.scheme', '{scheme}')")
                    for name, path in PAGES.items():
                        with self.subTest(page=name, screen=screen, scheme=scheme):
                            browser.get(self.served.base + path)
                            self.assertEqual(browser.execute_script("return document.documentElement.dataset.scheme"),
                                             scheme)
                            overflow = browser.execute_script(
                                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
                            self.assertLessEqual(overflow, 0, f"{path} scrolls sideways by {overflow} px")
                            self.save(browser, f"{name}-{screen}-{scheme}.png")
                            taken += 1
            finally:
                browser.quit()
        self.assertEqual(taken, len(PAGES) * len(SCREENS) * 2)

    @staticmethod
    def save(browser, file):
        """The whole page, not only its first screen, with its lazy pictures loaded."""
        browser.execute_script("document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager')")
        deadline = time.time() + 10
        while time.time() < deadline and not browser.execute_script(
                "return [...document.images].every(i => i.complete)"):
            time.sleep(0.1)
        metrics = browser.execute_cdp_cmd("Page.getLayoutMetrics", {})
        size = metrics["cssContentSize"]
        shot = browser.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 12000), "scale": 1}})
        (ARTIFACTS / file).write_bytes(base64.b64decode(shot["data"]))


if __name__ == "__main__":
    unittest.main()
