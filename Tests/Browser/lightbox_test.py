"""The photo viewer keeps the keyboard: focus stays in it from the moment it opens, so the
arrow keys turn photos at once, and reaching either end does not drop the focus to the page."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import SiteTestCase

FOCUS_IN_DIALOG = "return document.querySelector('dialog.lightbox').contains(document.activeElement)"


class LightboxKeyboard(SiteTestCase):
    fixture = "photos"
    ready_path = "machines/camera/parts/body/photos/"

    def caption(self):
        return self.browser.find_element(By.CSS_SELECTOR, ".lightbox-caption").text

    def test_arrow_keys_work_as_soon_as_the_viewer_opens_and_at_either_end(self):
        self.browser.get(self.base + "machines/camera/parts/body/photos/")
        links = self.browser.find_elements(By.CSS_SELECTOR, "a[data-lightbox]")
        self.assertGreater(len(links), 2)
        links[0].click()
        self.assertTrue(self.browser.execute_script(FOCUS_IN_DIALOG), "focus is in the viewer when it opens")
        self.assertIn(f"(1 of {len(links)})", self.caption())
        ActionChains(self.browser).send_keys(Keys.ARROW_RIGHT).perform()
        self.assertIn(f"(2 of {len(links)})", self.caption())
        for _ in range(len(links)):
            ActionChains(self.browser).send_keys(Keys.ARROW_RIGHT).perform()
        self.assertIn(f"({len(links)} of {len(links)})", self.caption())
        self.assertTrue(self.browser.execute_script(FOCUS_IN_DIALOG), "focus stays in the viewer at the last photo")
        ActionChains(self.browser).send_keys(Keys.ARROW_LEFT).perform()
        self.assertIn(f"({len(links) - 1} of {len(links)})", self.caption())
        # Clicking through to the first photo disables "previous" under the pointer.
        previous = self.browser.find_element(By.CSS_SELECTOR, '.lightbox [data-action="previous"]')
        while previous.is_enabled():
            previous.click()
        self.assertTrue(self.browser.execute_script(FOCUS_IN_DIALOG), "focus stays in the viewer at the first photo")
        ActionChains(self.browser).send_keys(Keys.ARROW_RIGHT).perform()
        self.assertIn(f"(2 of {len(links)})", self.caption())
        ActionChains(self.browser).send_keys(Keys.ESCAPE).perform()
        self.assertIsNone(self.browser.find_element(By.CSS_SELECTOR, "dialog.lightbox").get_attribute("open"))
