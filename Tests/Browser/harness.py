"""What every browser test needs: a fixture site served by `teardown serve`, headless Chromium, and a running `teardown intake`.

    python3 Tests/Browser/run.py --teardown .build/debug/teardown

Tests subclass SiteTestCase and name their fixture; the site is copied to a temporary folder,
served on a free port, and each test gets `self.browser` (Selenium) and `self.base` (the URL).
Screenshots and server logs of failed runs go to ARTIFACTS.
"""
import http.client
import os
import resource
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests/TeardownKitTests/Fixtures/sites"
ARTIFACTS = ROOT / ".build/test-artifacts"
TEARDOWN = ROOT / ".build/debug/teardown"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def chromium(width=1200, height=900, arguments=()):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}",
                     "--force-device-scale-factor=1", *arguments]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_for(browser, script, expected, seconds=20):
    """Waits until the script returns `expected`, or fails saying what it returned."""
    deadline = time.time() + seconds
    while (value := browser.execute_script(script)) != expected:
        if time.time() > deadline:
            raise TimeoutError(f"{script!r} returned {value!r}, not {expected!r}")
        time.sleep(0.1)


class FirstStatus:
    """Notes the search page's status, and how many results were listed, the first time the
    status passes `test` (a JavaScript expression of `text`), for every page loaded while
    in use: `with FirstStatus(browser, "/^\\d+ results/.test(text)") as watch: ... watch.seen()`."""

    def __init__(self, browser, test):
        self.browser, self.test = browser, test

    def __enter__(self):
        self.identifier = self.browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.__first = null;
            document.addEventListener("DOMContentLoaded", function () {
              var status = document.querySelector(".search-status");
              function check() {
                var text = status.textContent;
                if (window.__first === null && (%s))
                  window.__first = [text, document.querySelectorAll(".search-results > li").length];
              }
              check();
              new MutationObserver(check).observe(status, { childList: true, characterData: true, subtree: true });
            });""" % self.test})["identifier"]
        return self

    def seen(self):
        """[status, results listed], or None before the status passed the test."""
        return self.browser.execute_script("return window.__first;")

    def __exit__(self, *exception):
        self.browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": self.identifier})


class ServedSite:
    """A copy of a site folder served by `teardown serve` until stop()."""

    def __init__(self, source, ready_path="", copy=True):
        self.work = Path(tempfile.mkdtemp(prefix="teardown-browser-"))
        self.site = self.work / "site" if copy else Path(source)
        if copy:
            # Only what a site is made of: the demo site is the repository itself, builds and all.
            for folder in ["content", "Themes"]:
                if (Path(source) / folder).is_dir():
                    shutil.copytree(Path(source) / folder, self.site / folder)
        port = free_port()
        self.base = f"http://127.0.0.1:{port}/"
        # The server's log goes to a file: a pipe nobody reads fills up and stalls the server.
        self.log = open(self.work / "serve.log", "w+")
        self.server = subprocess.Popen([str(TEARDOWN), "serve", "--site", str(self.site), "--port", str(port)],
                                       stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 90
        while True:
            try:
                urllib.request.urlopen(self.base + ready_path, timeout=2)
                return
            except OSError:
                if time.time() > deadline or self.server.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"teardown serve did not serve {ready_path or '/'}\n{self.server_log()}")
                time.sleep(0.3)

    def server_log(self):
        self.log.flush()
        return (self.work / "serve.log").read_text(errors="replace")

    def stop(self, signal_number=signal.SIGTERM):
        """Stops the server as a user does (SIGTERM, or SIGINT for Ctrl-C); fails if it needed SIGKILL."""
        self.server.send_signal(signal_number)
        hung = False
        try:
            self.server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            hung = True
            self.server.kill()
            self.server.wait()
        log = self.server_log()
        self.log.close()
        shutil.rmtree(self.work, ignore_errors=True)
        if hung:
            raise AssertionError(f"teardown serve did not stop within 10 s of {signal.Signals(signal_number).name}\n{log}")
        return log


class SiteTestCase(unittest.TestCase):
    """One served fixture and one browser for all the tests of a class."""
    fixture = None      # a folder under FIXTURES, or an absolute path
    ready_path = ""     # a URL path that answers once the first build is done

    @classmethod
    def setUpClass(cls):
        cls.served = ServedSite(FIXTURES / cls.fixture, cls.ready_path)
        cls.base = cls.served.base
        try:
            cls.browser = chromium()
        except Exception:
            cls.served.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.served.stop()

    def severe_errors(self):
        """Console errors of the page, other than the missing favicon every page asks for."""
        return [e for e in self.browser.get_log("browser")
                if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]

    def save_screenshot(self, name):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / name
        self.browser.save_screenshot(str(path))
        return path


class IntakeService:
    """`teardown intake` on a port (a free one unless given), with its log in a file beside the inbox."""

    def __init__(self, site, inbox, *options, port=None, token="token", open_files=None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(Path(inbox).parent / f"intake-{self.port}.log", "w+")

        def limit():
            # As `ulimit -n` would: the service gets only so many file descriptors.
            if open_files:
                resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))
        self.process = subprocess.Popen([str(TEARDOWN), "intake", "--site", str(site), "--inbox", str(inbox),
                                         "--port", str(self.port), *options],
                                        stdout=self.log, stderr=subprocess.STDOUT, preexec_fn=limit,
                                        env=dict(os.environ, TEARDOWN_INBOX_TOKEN=token))
        deadline = time.time() + 30
        while True:
            try:
                urllib.request.urlopen(self.url + "/health", timeout=2)
                return
            except OSError:
                if time.time() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError("teardown intake did not start:\n" + Path(self.log.name).read_text())
                time.sleep(0.1)

    def post(self, path, body, content_type="application/json", headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request("POST", path, body=body, headers={"Content-Type": content_type, **(headers or {})})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def memory(self, field):
        """VmRSS or VmHWM of the service, in bytes."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(rf"^{field}:\s+(\d+) kB", status, re.M).group(1)) * 1024

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.log.close()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.log.close()
