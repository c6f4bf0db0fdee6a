"""`teardown serve` stops on Ctrl-C and on SIGTERM while a browser has pages open.

An open page holds a live-reload stream that never ends by itself; the server must end it
when asked to stop, rather than wait for the browser to let go.
"""
import signal
import time
import unittest

from harness import ServedSite, chromium, wait_for, FIXTURES


class ServeStopTest(unittest.TestCase):
    def stop_with_pages_open(self, signal_number):
        served = ServedSite(FIXTURES / "minimal")
        browser = chromium()
        try:
            # Two pages, so two live-reload streams are open, as with a few tabs.
            for path in ["", "machines/box/"]:
                browser.switch_to.new_window("tab")
                browser.get(served.base + path)
                wait_for(browser, "return document.querySelector('script[src=\"/__teardown/live.js\"]') !== null", True)
            time.sleep(1)
            started = time.time()
            log = served.stop(signal_number)
            self.assertLess(time.time() - started, 10)
            self.assertEqual(served.server.returncode, 0, log)
            self.assertIn("Stopped", log)
        finally:
            browser.quit()

    def test_ctrl_c_stops_serve_with_pages_open(self):
        self.stop_with_pages_open(signal.SIGINT)

    def test_sigterm_stops_serve_with_pages_open(self):
        self.stop_with_pages_open(signal.SIGTERM)


if __name__ == "__main__":
    unittest.main()
