"""Community intake end to end: the forms on a part page post to a running `teardown intake`,
the submission lands in its inbox, and `teardown sync` over HTTP with the inbox token, then the
build it runs, show the comment on the part page. Without JavaScript the form posts and lands
on the thank-you page; with it, it posts in place with a character counter and upload progress.

    python3 Tests/Browser/run.py --teardown .build/debug/teardown intake_test
"""
import functools
import http.server
import json
import os
import shutil
import subprocess
import tempfile
import threading
import unittest
import urllib.error
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By

from harness import ARTIFACTS, ROOT, TEARDOWN, IntakeService, chromium, free_port, wait_for

PART = "machines/desk-fan/parts/motor/"
PHOTO = ROOT / "Tests/TeardownKitTests/Fixtures/sites/photos/content/machines/camera/parts/body/photos/workbench.jpg"
TOKEN = "browser-test-token"


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


class IntakeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="teardown-intake-"))
        cls.site = cls.work / "site"
        for folder in ["content", "Themes"]:
            shutil.copytree(ROOT / folder, cls.site / folder)
        cls.inbox = cls.work / "inbox"
        site_port, intake_port = free_port(), free_port()
        cls.base = f"http://127.0.0.1:{site_port}/"
        cls.intake = f"http://127.0.0.1:{intake_port}"
        settings = cls.site / "content/site.yaml"
        lines = [line for line in settings.read_text().splitlines() if not line.startswith("base_url:")]
        lines += [f'base_url: "{cls.base}"', f'intake_url: "{cls.intake}"', "search: false"]
        settings.write_text("\n".join(lines) + "\n")
        cls.environment = dict(os.environ, TEARDOWN_INBOX_TOKEN=TOKEN)
        cls.run_teardown("build", "--site", str(cls.site))
        # The built site, served as a static host would; public/ is swapped whole by each build.
        cls.static = http.server.ThreadingHTTPServer(("127.0.0.1", site_port),
                                                     functools.partial(Quiet, directory=str(cls.site / "public")))
        threading.Thread(target=cls.static.serve_forever, daemon=True).start()
        cls.service = IntakeService(cls.site, cls.inbox, port=intake_port, token=TOKEN)

    @classmethod
    def tearDownClass(cls):
        cls.service.stop()
        cls.static.shutdown()
        shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def run_teardown(cls, *arguments):
        result = subprocess.run([str(TEARDOWN), *arguments], capture_output=True, text=True, env=cls.environment, timeout=600)
        if result.returncode != 0:
            raise AssertionError(f"teardown {' '.join(arguments)} failed:\n{result.stdout}\n{result.stderr}")
        return result.stdout

    def manifest(self):
        return json.loads((self.inbox / "manifest.json").read_text())["submissions"]

    def inbox_text(self):
        return "\n".join(path.read_text(errors="replace") for path in self.inbox.glob("*.comment.md"))

    def browser(self, script=True):
        arguments = () if script else ("--blink-settings=scriptEnabled=false",)
        browser = chromium(arguments=arguments)
        self.addCleanup(browser.quit)
        return browser

    def screenshot_on_failure(self, browser, name):
        def save():
            if any(error for _, error in getattr(self._outcome, "errors", []) if error):
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                browser.save_screenshot(str(ARTIFACTS / name))
        self.addCleanup(save)

    def test_a_plain_form_post_lands_in_the_inbox_and_sync_shows_it_on_the_part_page(self):
        browser = self.browser(script=False)
        self.screenshot_on_failure(browser, "intake-plain.png")
        browser.get(self.base + PART)
        form = browser.find_element(By.CSS_SELECTOR, "form[action$='/forms/comment']")
        self.assertFalse(browser.find_element(By.ID, "comment-count").is_displayed(), "no counter without script")
        form.find_element(By.NAME, "author").send_keys("Rosa")
        form.find_element(By.NAME, "body").send_keys("The motor's **brushes** were worn down to 3 mm.")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(browser, "return document.querySelector('h1') && document.querySelector('h1').textContent", "Thank you")
        self.assertEqual(browser.find_element(By.LINK_TEXT, "Back to the page").get_attribute("href"), self.base + PART)
        self.assertIn("worn down to 3 mm", self.inbox_text())
        listed = [entry for entry in self.manifest() if any("comment.md" in name for name in entry["files"])]
        self.assertTrue(listed and all(entry["sha256"] for entry in listed), "the manifest lists it with its SHA-256")

        # Sync reads the inbox over HTTP with the token, files the comment, and rebuilds.
        output = self.run_teardown("sync", "--site", str(self.site), "--from", self.intake + "/inbox/")
        self.assertIn("comment by Rosa on desk-fan/motor", output)
        browser.get(self.base + PART)
        entries = [entry for entry in browser.find_elements(By.CSS_SELECTOR, ".discussion .entry") if "Rosa" in entry.text]
        self.assertEqual(len(entries), 1, "the comment is on the part page")
        self.assertIn("brushes were worn down to 3 mm", entries[0].text)
        self.assertEqual(entries[0].find_element(By.CSS_SELECTOR, ".body strong").text, "brushes", "its Markdown is rendered")

        # Without the token the inbox is closed.
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(self.intake + "/inbox/manifest.json", timeout=5)
        self.assertEqual(refused.exception.code, 401)

    def test_a_refused_plain_post_says_why_and_gives_the_comment_back(self):
        browser = self.browser(script=False)
        browser.get(self.base + PART)
        form = browser.find_element(By.CSS_SELECTOR, "form[action$='/forms/comment']")
        form.find_element(By.NAME, "author").send_keys("A name far too long for the limit of forty")
        form.find_element(By.NAME, "body").send_keys("Keep this text")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(browser, "return document.querySelector('h1') && document.querySelector('h1').textContent", "Not sent")
        self.assertIn("must be 1-40 characters long", browser.find_element(By.CSS_SELECTOR, "[role=alert]").text)
        self.assertEqual(browser.find_element(By.NAME, "body").get_attribute("value"), "Keep this text")
        self.assertNotIn("Keep this text", self.inbox_text())

        # The refusal page's form posts again, to the same service, with the name put right.
        author = browser.find_element(By.NAME, "author")
        author.clear()
        author.send_keys("Lena")
        browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(browser, "return document.querySelector('h1') && document.querySelector('h1').textContent", "Thank you")
        self.assertIn("Keep this text", self.inbox_text())
        self.assertEqual(browser.find_element(By.LINK_TEXT, "Back to the page").get_attribute("href"), self.base + PART)

    def test_with_script_the_forms_post_in_place_with_a_counter_and_progress(self):
        browser = self.browser()
        self.screenshot_on_failure(browser, "intake-script.png")
        browser.get(self.base + PART)
        wait_for(browser, "return document.readyState", "complete")
        counter = browser.find_element(By.ID, "comment-count")
        self.assertEqual(counter.text, "200 characters left")
        body = browser.find_element(By.ID, "comment-body")
        body.send_keys("x" * 205)
        self.assertEqual(counter.text, "5 characters too many")
        browser.find_element(By.ID, "comment-author").send_keys("Ines")
        form = browser.find_element(By.CSS_SELECTOR, "form[action$='/forms/comment']")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        status = form.find_element(By.CSS_SELECTOR, ".intake-status")
        self.assertIn("too long", status.text)
        body.clear()
        text = "Inline comment: the fan guard clips are fragile — handle with care."
        body.send_keys(text)
        self.assertEqual(counter.text, f"{200 - len(text)} characters left")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(browser, "return document.querySelector('form[action$=\"/forms/comment\"] .intake-status').className",
                 "intake-status done")
        self.assertEqual(browser.current_url, self.base + PART, "no page change")
        self.assertEqual(body.get_attribute("value"), "", "the form is cleared once received")
        self.assertIn("fan guard clips are fragile", self.inbox_text())

        photo = browser.find_element(By.CSS_SELECTOR, "form[action$='/forms/photo']")
        photo.find_element(By.NAME, "photo").send_keys(str(PHOTO))
        photo.find_element(By.NAME, "author").send_keys("Ines")
        photo.find_element(By.NAME, "caption").send_keys("Motor from below")
        before = len(self.manifest())
        photo.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(browser, "return document.querySelector('form[action$=\"/forms/photo\"] .intake-status').className",
                 "intake-status done")
        self.assertEqual(browser.execute_script("return document.querySelector('form[action$=\"/forms/photo\"] progress').value"),
                         100, "the progress bar followed the upload to its end")
        added = self.manifest()[before:]
        self.assertEqual(len(added), 1)
        details = (self.inbox / next(name for name in added[0]["files"] if name.endswith(".photo.yaml"))).read_text()
        self.assertIn('caption: Motor from below\n', details)
        self.assertIn("location: false", details)
        self.assertEqual(self.severe_errors(browser), [])

    def severe_errors(self, browser):
        return [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]


if __name__ == "__main__":
    unittest.main()
