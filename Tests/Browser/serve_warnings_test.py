"""`teardown serve` shows a build's warnings on the pages opened after it, as text, in a box a
reader can close; a build without them takes the box away."""
import unittest

from harness import ServedSite, chromium, wait_for, FIXTURES

BOX = "document.getElementById('teardown-build-warnings')"


class ServeWarningsTest(unittest.TestCase):
    def test_a_warning_shows_in_a_box_that_closes_and_goes_once_fixed(self):
        served = ServedSite(FIXTURES / "minimal")
        browser = chromium()
        try:
            machine = served.site / "content/machines/box/machine.yaml"
            good = machine.read_text()
            browser.get(served.base + "machines/box/")
            wait_for(browser, "return document.querySelector('script[src=\"/__teardown/live.js\"]') !== null", True)
            self.assertIsNone(browser.execute_script(f"return {BOX}"))
            # A key that is markup: the box says it, and makes no element of it.
            browser.execute_script("window.beforeEdit = true")
            machine.write_text(good + '"<b id=injected>colour</b>": blue\n')
            wait_for(browser, f"return !window.beforeEdit && {BOX} !== null", True)
            self.assertEqual(browser.execute_script(f"return {BOX}.querySelector('summary').firstChild.textContent"),
                             "1 build warning")
            text = browser.execute_script(f"return {BOX}.querySelector('pre').textContent")
            self.assertIn("machine.yaml", text)
            self.assertIn("unknown key '<b id=injected>colour</b>'", text)
            self.assertIsNone(browser.execute_script("return document.getElementById('injected')"))
            browser.execute_script(f"{BOX}.querySelector('button').click()")
            self.assertIsNone(browser.execute_script(f"return {BOX}"))
            # Fixed: the reloaded page has no box.
            browser.execute_script("window.beforeFix = true")
            machine.write_text(good)
            wait_for(browser, "return !window.beforeFix && document.readyState === 'complete'", True)
            browser.execute_script("return new Promise(done => setTimeout(done, 500))")
            self.assertIsNone(browser.execute_script(f"return {BOX}"))
        finally:
            browser.quit()
            served.stop()


if __name__ == "__main__":
    unittest.main()
