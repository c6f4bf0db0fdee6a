"""Community content and names full of script injection build into pages where none of it runs.

Every payload of Tests/Quality/xss-payloads.json goes into a site as a machine name and
summary, a part name and description, a comment and its author, a photo's caption, author,
credit and license, a tag and a spec. The built pages are then checked twice: parsed, for
anything executable (script elements that are not the theme's, event handler attributes,
script URLs, frames, objects, forms that post elsewhere), and in headless Chromium, where
alert, confirm, prompt and print are replaced before any page script runs and must never
be called, on every page, with the machine view's details panels opened.

    python3 Tests/Browser/run.py --teardown .build/debug/teardown xss_test
"""
import html
import html.parser
import json
import re
import shutil
import tempfile
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import ROOT, SiteTestCase, wait_for

PAYLOADS = json.loads((ROOT / "Tests/Quality/xss-payloads.json").read_text())
PHOTO = ROOT / "Tests/TeardownKitTests/Fixtures/sites/photos/content/machines/camera/parts/body/photos/orientation-1.jpg"
# A layer that would run script if it were published as written and opened at its own URL.
LAYER = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" onload="alert(\'svg-onload\')">'
         '<script>alert("svg-script")</script><rect width="60" height="60" fill="teal"/>'
         '<foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(\'fo\')"/>'
         '</foreignObject></svg>\n')
TRAP = """
window.__fired = [];
["alert", "confirm", "prompt", "print"].forEach(function (name) {
  window[name] = function () { window.__fired.push(name + "(" + Array.from(arguments).join(",") + ")"); };
});
"""
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "xlink:href", "poster", "background", "srcdoc", "ping"}
FORBIDDEN_ELEMENTS = {"iframe", "frame", "object", "embed", "base", "applet", "svg", "math", "style"}


def quoted(text):
    """A YAML double-quoted scalar: JSON's string syntax is a subset of it."""
    return json.dumps(text)


def make_site(root):
    content = root / "content"
    (content / "manual").mkdir(parents=True)
    (content / "manual/index.md").write_text("# Help\n\nThe manual.\n")
    (content / "site.yaml").write_text(
        'title: "Hostile catalog"\nbase_url: "https://example.org/"\n'
        "limits: {author_max: 1000, comment_max: 4000}\n")
    for number, entry in enumerate(PAYLOADS, start=1):
        payload = entry["payload"]
        machine = content / f"machines/m{number:02}"
        part = machine / "parts/p"
        (part / "comments").mkdir(parents=True)
        (part / "photos").mkdir()
        (machine / "machine.yaml").write_text(
            f"name: {quoted(payload)}\nsummary: {quoted(payload)}\ncanvas: {{width: 100, height: 100}}\n"
            f"tags: [{quoted(payload)}]\ndesigner: {quoted(payload)}\n")
        (machine / "description.md").write_text(payload + "\n")
        (part / "part.yaml").write_text(
            f"name: {quoted(payload)}\nlayer: {{image: p.svg, z: 1}}\ntags: [{quoted(payload)}]\n"
            f"specs:\n  {quoted(payload)}: {quoted(payload)}\n")
        (part / "p.svg").write_text(LAYER)
        (part / "description.md").write_text(payload + "\n")
        (part / "comments/c.md").write_text(f"---\nauthor: {quoted(payload)}\ndate: 2026-01-0{1 + number % 9}\n---\n{payload}\n")
        if number == 1:
            # A visitor's pictures from another host: a tracking pixel, a picture no moderation saw.
            (part / "comments/pixel.md").write_text(
                "---\nauthor: Eve\ndate: 2026-01-02\n---\nLook: ![a pixel](https://tracker.attacker.invalid/p.gif) "
                "<img src=\"//tracker.attacker.invalid/q.png\" alt=\"q\"> <img src=\"http://tracker.attacker.invalid/r.png\">\n")
        shutil.copy(PHOTO, part / "photos/shot.jpg")
        (part / "photos/shot.yaml").write_text(
            f"caption: {quoted(payload)}\nauthor: {quoted(payload)}\ncredit: {quoted(payload)}\n"
            f"license: {quoted(payload)}\ndate: 2026-02-01\n")


def dangerous_url(value):
    """Whether a browser could run this URL: spaces and control characters are dropped
    the way browsers drop them, entities are already decoded by the parser."""
    cleaned = re.sub(r"[\x00-\x20]", "", value).lower()
    return cleaned.startswith(("javascript:", "vbscript:", "data:text/html", "data:image/svg", "livescript:"))


class Inspector(html.parser.HTMLParser):
    """Collects what would execute in a page."""

    def __init__(self, scripts_allowed):
        super().__init__(convert_charrefs=True)
        self.scripts_allowed = scripts_allowed
        self.findings = []
        self.in_script = False

    def handle_starttag(self, tag, attributes):
        if tag in FORBIDDEN_ELEMENTS:
            self.findings.append(f"<{tag}> element")
        if tag == "script":
            source = dict(attributes).get("src")
            # An inline script is judged by its text (below): only the theme's own may run.
            if source is not None and not self.scripts_allowed(source):
                self.findings.append(f"script {source}")
            self.in_script = True
        if tag == "meta" and (dict(attributes).get("http-equiv") or "").lower() == "refresh":
            self.findings.append("meta refresh")
        if tag == "form":
            action = dict(attributes).get("action")
            # Only the site's own search form, which the search page points at itself.
            if action is not None and not re.fullmatch(r"(/|(\.\./)*)search/|\./", action):
                self.findings.append(f"form posting to {action}")
        for name, value in attributes:
            value = value or ""
            if name.startswith("on"):
                self.findings.append(f"{name}= on <{tag}>")
            if name in URL_ATTRIBUTES and dangerous_url(value):
                self.findings.append(f"{name}={value[:60]} on <{tag}>")
            if name == "style" and re.search(r"javascript:|expression\(|@import", value, re.I):
                self.findings.append(f"style={value[:60]} on <{tag}>")

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        if self.in_script and data.strip() and data.strip() not in THEME_INLINE_SCRIPTS:
            self.findings.append("inline script text")

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False


# The search page's own scripts, which ask for its first files before any file can: the
# theme's text exactly, from its templates. Any other inline script is a finding.
THEME_INLINE_SCRIPTS = {
    text.strip() for name in ["search", "first-answer"] for text in
    re.findall(r"<script>(.*?)</script>", (ROOT / f"Themes/default/templates/{name}.mustache").read_text(), re.S)
}


def theme_script(source):
    return re.fullmatch(r"(/|(\.\./)*)assets/[a-z]+\.js", source) is not None


class XSSTest(SiteTestCase):
    fixture = None
    ready_path = "machines/m01/"

    @classmethod
    def setUpClass(cls):
        cls.source = Path(tempfile.mkdtemp(prefix="teardown-xss-"))
        make_site(cls.source)
        cls.fixture = cls.source
        super().setUpClass()
        cls.browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TRAP})
        # What `teardown serve` built: its own folder, apart from public/.
        cls.output = cls.served.site / ".teardown-cache" / "preview"
        cls.pages = sorted(cls.output.rglob("*.html"))

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.source, ignore_errors=True)

    def test_the_corpus_is_large_and_every_payload_reached_a_page(self):
        self.assertGreaterEqual(len(PAYLOADS), 50)
        log = self.served.server_log()
        self.assertNotIn("error:", log, "every hostile file is accepted as content")
        self.assertEqual(len(list(self.output.glob("machines/m*/index.html"))), len(PAYLOADS))
        # The text is on the page, escaped: a reader sees what was written.
        first = (self.output / "machines/m01/parts/p/index.html").read_text()
        self.assertIn(html.escape(PAYLOADS[0]["payload"], quote=False), first)

    def test_a_visitors_pictures_from_another_host_are_links(self):
        page = (self.output / "machines/m01/parts/p/discussion/index.html")
        page = page if page.exists() else self.output / "machines/m01/parts/p/index.html"
        text = page.read_text()
        self.assertNotIn("<img src=\"https://tracker", text)
        self.assertIn('<a rel="nofollow ugc" href="https://tracker.attacker.invalid/p.gif">a pixel</a>', text)

    def test_no_page_holds_anything_executable(self):
        findings = []
        for page in self.pages:
            inspector = Inspector(theme_script)
            inspector.feed(page.read_text())
            findings += [f"{page.relative_to(self.output)}: {finding}" for finding in inspector.findings]
        self.assertEqual(findings, [])
        self.assertGreater(len(self.pages), 5 * len(PAYLOADS))

    def test_nothing_fires_in_chromium(self):
        fired = []
        for page in self.pages:
            path = page.relative_to(self.output).as_posix().removesuffix("index.html")
            self.browser.get(self.base + path)
            wait_for(self.browser, "return document.readyState", "complete")
            if re.fullmatch(r"machines/m\d+/", path):
                self.open_details()
            # Every request a page made went to the site itself.
            asked = self.browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
            fired += [f"{path}: asked {url}" for url in asked or [] if not url.startswith(self.base)]
            calls = self.browser.execute_script("return window.__fired")
            if calls is None:
                fired.append(f"{path}: the trap was not installed")
            elif calls:
                fired.append(f"{path}: {calls}")
        self.assertEqual(fired, [])
        self.assertEqual([e for e in self.severe_errors() if "attacker.invalid" in e["message"]], [])

    def test_an_svg_layer_opened_at_its_own_url_runs_nothing(self):
        """A comment can link to a layer: opened on its own it is a document on the site's origin."""
        layers = sorted(self.output.glob("machines/m*/parts/p/p.svg"))
        self.assertEqual(len(layers), len(PAYLOADS))
        fired = []
        for layer in layers:
            path = layer.relative_to(self.output).as_posix()
            self.browser.get(self.base + path)
            wait_for(self.browser, "return document.readyState", "complete")
            state = self.browser.execute_script(
                "return [document.documentElement.localName, document.querySelectorAll('rect').length, window.__fired]")
            if state[0] != "svg" or state[1] != 1:
                fired.append(f"{path}: not drawn as an SVG ({state[:2]})")
            if state[2] is None or state[2]:
                fired.append(f"{path}: {state[2]}")
        self.assertEqual(fired, [])
        self.assertNotIn("script", layers[0].read_text())

    def open_details(self):
        """The machine view renders names and notes from machine.json: open them all."""
        wait_for(self.browser, "return document.querySelectorAll('.mv-part').length > 0", True)
        self.browser.find_element(By.CSS_SELECTOR, '.mv-bar [data-action="details"]').click()
        part = self.browser.find_element(By.CSS_SELECTOR, ".mv-part")
        self.browser.execute_script("arguments[0].focus()", part)
        ActionChains(self.browser).send_keys(Keys.ENTER).perform()
        wait_for(self.browser, "return document.querySelector('.mv-panel').textContent.length > 0", True)
