"""Browser tests of the interactive machine view, in headless Chromium through Selenium.

The fixture press (Tests/TeardownKitTests/Fixtures/make-machine-view-fixture.py) is 400 x 300:
a plate at the bottom, a core above it, and on top a frame whose middle is a transparent hole.
Points below are in the machine's canvas units; `screen` maps them to the window.
"""
import base64
import shutil
import struct
import tempfile
import unittest
import zlib
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from harness import ARTIFACTS, FIXTURES, ServedSite, SiteTestCase, chromium

FRAME_BORDER = (110, 120)
HOLE = (200, 120)            # transparent in the frame: the core shows
HOLE_EDGE = (151.5, 120)     # transparent, but inside a mask cell the frame's opaque edge shares
FRAME_EDGE = (149.5, 120)    # the frame's last opaque column
EMPTY = (10, 10)
# Waits until the view has drawn: it moves parts and the canvas in requestAnimationFrame.
DRAWN = "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));"


class MachineViewInBrowser(SiteTestCase):
    fixture = "machine-view"
    ready_path = "machines/press/machine.json"

    def setUp(self):
        self.open_view()

    def open_view(self, clear=True):
        self.browser.get(self.base + "machines/press/")
        if clear:
            self.browser.execute_script("localStorage.clear()")
            self.browser.refresh()
        WebDriverWait(self.browser, 10).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".mv-part"))
        self.browser.execute_script("document.querySelector('.mv-viewport').scrollIntoView({block: 'center'})")
        # Every layer has loaded, so hit-testing reads real pixels.
        WebDriverWait(self.browser, 10).until(lambda b: b.execute_script(
            "return [...document.querySelectorAll('.mv-part img')].every(i => i.complete && i.naturalWidth > 0)"))

    # MARK: Helpers

    def world(self):
        """Where the canvas is on screen, once the view has drawn."""
        return self.browser.execute_script(DRAWN + """
            return document.querySelector('.mv-world').getBoundingClientRect().toJSON();""")

    def screen(self, point):
        world = self.world()
        return (world["left"] + point[0] * world["width"] / 400, world["top"] + point[1] * world["height"] / 300)

    def pointer(self):
        actions = ActionChains(self.browser)
        return actions, actions.w3c_actions.pointer_action

    def click(self, point):
        actions, pointer = self.pointer()
        x, y = self.screen(point)
        pointer.move_to_location(round(x), round(y)).click()
        actions.perform()

    def drag(self, point, dx, dy):
        actions, pointer = self.pointer()
        x, y = (round(v) for v in self.screen(point))
        pointer.move_to_location(x, y).pointer_down().move_to_location(x + dx // 2, y + dy // 2) \
            .move_to_location(x + dx, y + dy).pointer_up()
        actions.perform()

    def title(self):
        return self.browser.find_element(By.CSS_SELECTOR, ".mv-title").text

    def part(self, name):
        return self.browser.find_element(By.CSS_SELECTOR, f'.mv-part[aria-label="{name}"]')

    def position(self, name):
        """Where the part is drawn, in screen pixels from the canvas's corner, once drawn."""
        return tuple(self.browser.execute_script(DRAWN + """
            const part = arguments[0].getBoundingClientRect();
            const world = document.querySelector('.mv-world').getBoundingClientRect();
            return [part.left - world.left, part.top - world.top];""", self.part(name)))

    def halo_at(self, x, y):
        """The halo at a canvas point: "red", None where it is transparent, or the colour found."""
        return self.browser.execute_script(DRAWN + """
            const halo = document.querySelector('.mv-halo');
            if (halo.hidden) return null;
            const world = document.querySelector('.mv-world').getBoundingClientRect();
            const box = halo.getBoundingClientRect(), unit = world.width / 400;
            const px = Math.floor(((arguments[0] * unit + world.left) - box.left) / box.width * halo.width);
            const py = Math.floor(((arguments[1] * unit + world.top) - box.top) / box.height * halo.height);
            if (px < 0 || py < 0 || px >= halo.width || py >= halo.height) return null;
            const [r, g, b, a] = halo.getContext('2d').getImageData(px, py, 1, 1).data;
            if (a < 128) return null;
            return r > 200 && g < 60 && b < 60 ? 'red' : [r, g, b, a];""", x, y)

    def press(self, action):
        self.browser.find_element(By.CSS_SELECTOR, f'.mv-bar [data-action="{action}"]').click()

    def settle(self):
        """Waits out the glide home after Undo and Reset (instant with reduced motion)."""
        self.browser.execute_script("await new Promise(r => setTimeout(r, 450))")

    def assertMovedBy(self, start, end, dx, dy):
        self.assertAlmostEqual(end[0] - start[0], dx, delta=1.01)
        self.assertAlmostEqual(end[1] - start[1], dy, delta=1.01)

    # MARK: Tests

    def test_parts_are_named_buttons_and_nothing_is_selected_at_start(self):
        names = [b.get_attribute("aria-label") for b in self.browser.find_elements(By.CSS_SELECTOR, "button.mv-part")]
        self.assertEqual(names, ["Plate", "Core", "Frame"])
        self.assertEqual(self.title(), "Selected: the whole machine")
        self.assertEqual(self.severe_errors(), [])
        # Fitted: the whole canvas is inside the viewport, touching two of its sides.
        viewport = self.browser.find_element(By.CSS_SELECTOR, ".mv-viewport").rect
        world = self.world()
        self.assertGreaterEqual(world["left"], viewport["x"] - 0.5)
        self.assertLessEqual(world["right"], viewport["x"] + viewport["width"] + 0.5)
        self.assertTrue(abs(world["width"] - viewport["width"]) < 1 or abs(world["height"] - viewport["height"]) < 1)

    def test_click_selects_with_a_halo_and_names_the_part(self):
        self.click(FRAME_BORDER)
        self.assertEqual(self.title(), "Selected: Frame")
        frame = self.part("Frame")
        self.assertEqual(frame.get_attribute("aria-pressed"), "true")
        halo = self.browser.find_element(By.CSS_SELECTOR, ".mv-halo")
        self.assertTrue(halo.is_displayed())
        # A red ring just outside the frame's left edge (x = 100), nothing on the frame itself.
        self.assertEqual(self.halo_at(99.5, 120), "red")
        self.assertIsNone(self.halo_at(110, 120))
        self.assertIsNone(self.halo_at(60, 120))
        # Above every part, so a selected part under others still shows its halo.
        self.click(HOLE)
        self.assertEqual(self.halo_at(119.5, 120), "red", "around the core, over the frame")
        self.assertIsNone(self.halo_at(99.5, 120))
        self.assertGreater(int(halo.value_of_css_property("z-index")), 3)
        self.click(EMPTY)
        self.assertEqual(self.title(), "Selected: the whole machine")
        self.assertEqual(frame.get_attribute("aria-pressed"), "false")
        self.assertFalse(halo.is_displayed())

    def test_transparent_pixels_of_a_top_layer_reach_the_part_below(self):
        self.click(HOLE)
        self.assertEqual(self.title(), "Selected: Core")
        self.click(FRAME_EDGE)
        self.assertEqual(self.title(), "Selected: Frame")
        self.click(HOLE_EDGE)
        self.assertEqual(self.title(), "Selected: Core")

    def test_drag_moves_the_part_by_the_drag_distance_and_undo_restores_it(self):
        home, frame = self.position("Core"), self.position("Frame")
        self.drag(HOLE, 90, 46)
        self.assertEqual(self.title(), "Selected: Core")
        moved = self.position("Core")
        self.assertMovedBy(home, moved, 90, 46)
        self.assertEqual(self.position("Frame"), frame, "other parts stay home")
        # The halo moved with the part: it rings the core where the core now is.
        self.assertEqual(self.halo_at(119.5 + 90 / self.scale(), 120 + 46 / self.scale()), "red")
        self.drag(HOLE, -30, 20)  # the moved core still shows through the hole there
        self.assertMovedBy(moved, self.position("Core"), -30, 20)
        self.press("undo")
        self.settle()
        self.assertMovedBy(home, self.position("Core"), 90, 46)
        self.press("undo")
        self.settle()
        self.assertMovedBy(home, self.position("Core"), 0, 0)
        self.assertFalse(self.browser.find_element(By.CSS_SELECTOR, '[data-action="undo"]').is_enabled())

    def test_reset_puts_every_part_home(self):
        homes = {name: self.position(name) for name in ("Plate", "Core", "Frame")}
        self.drag(FRAME_BORDER, -60, -40)
        self.drag(HOLE, 70, 30)
        self.drag((300, 250), 20, 60)
        self.assertNotEqual(self.position("Plate"), homes["Plate"])
        self.press("reset")
        self.settle()
        for name, home in homes.items():
            self.assertMovedBy(home, self.position(name), 0, 0)

    def test_keyboard_tabs_to_parts_moves_undoes_and_deselects(self):
        self.browser.find_element(By.CSS_SELECTOR, '.mv-bar [data-action="settings"]').send_keys(Keys.TAB)
        self.assertEqual(self.browser.switch_to.active_element.get_attribute("aria-label"), "Plate")
        self.assertEqual(self.title(), "Selected: Plate")
        ActionChains(self.browser).send_keys(Keys.TAB).perform()
        self.assertEqual(self.title(), "Selected: Core")
        home = self.position("Core")
        step = 10 * self.scale()
        ActionChains(self.browser).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_DOWN).perform()
        self.assertMovedBy(home, self.position("Core"), 2 * step, step)
        ActionChains(self.browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        self.settle()
        self.assertMovedBy(home, self.position("Core"), 2 * step, 0)
        ActionChains(self.browser).send_keys(Keys.ENTER).perform()
        panel = self.browser.find_element(By.CSS_SELECTOR, ".mv-panel")
        self.assertTrue(panel.is_displayed())
        ActionChains(self.browser).send_keys(Keys.ESCAPE).perform()
        self.assertFalse(panel.is_displayed())
        ActionChains(self.browser).send_keys(Keys.ESCAPE).perform()
        self.assertEqual(self.title(), "Selected: the whole machine")
        self.part("Frame").send_keys("r")
        self.settle()
        self.assertMovedBy(home, self.position("Core"), 0, 0)

    def test_details_show_the_description_latest_comments_and_a_link(self):
        self.press("details")
        panel = self.browser.find_element(By.CSS_SELECTOR, ".mv-panel")
        self.assertIn("lift the frame to reach the core", panel.text)
        self.click(HOLE)
        self.assertIn("The core is orange and shows through the frame.", panel.text)
        self.assertEqual(panel.find_element(By.CSS_SELECTOR, ".mv-description em").text, "orange")
        # The comments come from discussion.json, beside machine.json.
        WebDriverWait(self.browser, 10).until(lambda b: b.execute_script(
            "return document.querySelectorAll('.mv-panel .entry .body').length") == 2)
        comments = [c.text for c in panel.find_elements(By.CSS_SELECTOR, ".entry .body")]
        self.assertEqual(comments, ["The core came out with a gentle pull.", "Mine was stuck."])
        self.assertIn("Latest comments", panel.text)
        link = panel.find_element(By.CSS_SELECTOR, "a[href]")
        self.assertTrue(link.get_attribute("href").endswith("/machines/press/parts/core/"))
        self.assertIn("(2 comments)", link.text)
        self.save_screenshot("machine-view.png")

    def test_photos_open_the_selection_in_the_lightbox(self):
        self.click(FRAME_BORDER)
        self.assertFalse(self.browser.find_element(By.CSS_SELECTOR, '[data-action="photos"]').is_enabled())
        self.click(HOLE)
        self.press("photos")
        dialog = self.browser.find_element(By.CSS_SELECTOR, "dialog.lightbox")
        self.assertTrue(dialog.get_attribute("open") is not None)
        image = dialog.find_element(By.CSS_SELECTOR, ".lightbox-stage img")
        self.assertTrue(image.get_attribute("src").endswith("/parts/core/photos/bench/bench-160.webp"))
        self.assertIn("The core on the bench", dialog.find_element(By.CSS_SELECTOR, ".lightbox-caption").text)
        ActionChains(self.browser).send_keys(Keys.ESCAPE).perform()
        self.assertIsNone(dialog.get_attribute("open"))

    def wheel(self, x, y, delta, ctrl=False):
        """A mouse wheel turn over (x, y), with Ctrl held or not, as the browser gets one."""
        self.browser.execute_cdp_cmd("Input.dispatchMouseEvent", {
            "type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": delta, "modifiers": 2 if ctrl else 0})

    def test_ctrl_wheel_and_buttons_zoom_around_the_pointer(self):
        before = self.world()
        x, y = (round(v) for v in self.screen(FRAME_BORDER))
        self.wheel(x, y, -300, ctrl=True)
        after = self.world()
        self.assertGreater(after["width"], before["width"] * 1.3)
        # The canvas point under the pointer is still under it.
        self.assertAlmostEqual(before["left"] + FRAME_BORDER[0] * before["width"] / 400,
                               after["left"] + FRAME_BORDER[0] * after["width"] / 400, delta=1.5)
        self.assertAlmostEqual(before["top"] + FRAME_BORDER[1] * before["height"] / 300,
                               after["top"] + FRAME_BORDER[1] * after["height"] / 300, delta=1.5)
        self.press("zoom-out")
        self.assertLess(self.world()["width"], after["width"])
        self.press("fit")
        self.assertAlmostEqual(self.world()["width"], before["width"], delta=0.5)

    def test_a_plain_wheel_scrolls_the_page_and_says_how_to_zoom(self):
        before = self.world()
        scrolled = self.browser.execute_script("return scrollY")
        self.assertGreater(self.browser.execute_script("return document.documentElement.scrollHeight - innerHeight"), 100)
        x, y = (round(v) for v in self.screen((200, 150)))
        self.wheel(x, y, 100)
        WebDriverWait(self.browser, 5).until(lambda b: b.execute_script("return scrollY") > scrolled)
        self.assertAlmostEqual(self.world()["width"], before["width"], delta=0.5)
        hint = self.browser.find_element(By.CSS_SELECTOR, ".mv-hint")
        self.assertIn("shown", hint.get_attribute("class"))
        self.assertIn("to zoom the machine", hint.get_attribute("textContent"))

    def touch(self, kind, points):
        self.browser.execute_cdp_cmd("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)]})

    def test_a_finger_drags_a_part_and_two_fingers_pinch_to_zoom(self):
        home = self.position("Core")
        x, y = self.screen(HOLE)
        self.touch("touchStart", [(x, y)])
        self.touch("touchMove", [(x + 40, y + 20)])
        self.touch("touchMove", [(x + 80, y + 40)])
        self.touch("touchEnd", [])
        self.assertEqual(self.title(), "Selected: Core")
        self.assertMovedBy(home, self.position("Core"), 80, 40)
        before = self.world()
        cx, cy = self.screen((200, 150))
        self.touch("touchStart", [(cx - 50, cy), (cx + 50, cy)])
        for spread in range(60, 110, 10):
            self.touch("touchMove", [(cx - spread, cy), (cx + spread, cy)])
        self.touch("touchEnd", [])
        after = self.world()
        self.assertAlmostEqual(after["width"] / before["width"], 2.0, delta=0.05)
        # Zoomed around the point between the fingers: it stays where it was.
        self.assertAlmostEqual(after["left"] + 200 * after["width"] / 400, cx, delta=1.5)
        self.assertAlmostEqual(after["top"] + 150 * after["height"] / 300, cy, delta=1.5)
        self.assertEqual(self.title(), "Selected: Core", "a pinch leaves the selection alone")

    def test_a_pointer_over_a_part_shows_a_hand_and_a_ring_and_grabs_while_dragging(self):
        viewport = self.browser.find_element(By.CSS_SELECTOR, ".mv-viewport")
        cursor = lambda: self.browser.execute_script("return getComputedStyle(arguments[0]).cursor", viewport)
        actions, pointer = self.pointer()
        x, y = (round(v) for v in self.screen(FRAME_BORDER))
        pointer.move_to_location(x, y)
        actions.perform()
        self.assertEqual(cursor(), "grab")
        self.assertIn("hover", self.part("Frame").get_attribute("class"))
        self.assertNotIn("hover", self.part("Core").get_attribute("class"))
        ring = self.browser.execute_script("return getComputedStyle(arguments[0]).filter", self.part("Frame"))
        self.assertIn("drop-shadow", ring)
        self.save_screenshot("machine-view-hover")
        # Held down, the hand grabs; over the transparent hole the part below is the one ringed.
        actions, pointer = self.pointer()
        pointer.move_to_location(x, y).pointer_down()
        actions.perform()
        self.assertEqual(cursor(), "grabbing")
        actions, pointer = self.pointer()
        pointer.pointer_up()
        actions.perform()
        hx, hy = (round(v) for v in self.screen(HOLE))
        actions, pointer = self.pointer()
        pointer.move_to_location(hx, hy)
        actions.perform()
        self.assertIn("hover", self.part("Core").get_attribute("class"))
        self.assertNotIn("hover", self.part("Frame").get_attribute("class"))
        ex, ey = (round(v) for v in self.screen(EMPTY))
        actions, pointer = self.pointer()
        pointer.move_to_location(ex, ey)
        actions.perform()
        self.assertNotEqual(cursor(), "grab")
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, ".mv-part.hover"), [])

    def test_on_a_phone_a_tap_beside_a_part_smaller_than_a_finger_zooms_to_it(self):
        self.browser.set_window_size(390, 844)
        try:
            self.open_view()
            for _ in range(8):
                self.press("zoom-out")
            # Zoomed out, the core is under a fingertip wide; the frame around it is not.
            core = self.browser.execute_script(DRAWN + "return arguments[0].getBoundingClientRect().width", self.part("Core"))
            self.assertLess(core * 150 / 160, 44)
            before = self.scale()
            x, y = self.screen(HOLE)
            stage = "return document.querySelector('.mv-viewport').getBoundingClientRect().top"
            top = self.browser.execute_script(stage)
            self.touch("touchStart", [(x, y)])
            self.touch("touchEnd", [])
            self.assertGreater(self.scale(), before * 1.1)
            self.assertEqual(self.browser.execute_script(stage), top, "selecting moves nothing under the finger")
            self.assertEqual(self.title(), "Selected: Core")
            # A tap on a part a finger can take changes the selection and not the zoom.
            after = self.scale()
            fx, fy = self.screen((20 + 2, 250))
            self.touch("touchStart", [(fx, fy)])
            self.touch("touchEnd", [])
            self.assertEqual(self.title(), "Selected: Plate")
            self.assertAlmostEqual(self.scale(), after, delta=0.001)
        finally:
            self.browser.set_window_size(1200, 900)

    def test_one_finger_on_empty_space_scrolls_the_page(self):
        before = self.world()
        scrolled = self.browser.execute_script("return scrollY")
        x, y = self.screen(EMPTY)
        self.touch("touchStart", [(x, y)])
        for step in range(1, 8):
            self.touch("touchMove", [(x, y - 20 * step)])
        self.touch("touchEnd", [])
        WebDriverWait(self.browser, 5).until(lambda b: b.execute_script("return scrollY") > scrolled)
        self.assertAlmostEqual(self.world()["left"], before["left"], delta=0.5)

    def test_settings_remember_positions_and_background(self):
        self.press("settings")
        remember = self.browser.find_element(By.CSS_SELECTOR, '.mv-settings [name="remember"]')
        remember.click()
        self.browser.execute_script(
            "const i = document.querySelector('.mv-settings [name=background]');"
            "i.value = '#203040'; i.dispatchEvent(new Event('input', {bubbles: true}));")
        home = self.position("Core")
        self.drag(HOLE, 50, 0)
        self.open_view(clear=False)
        self.assertMovedBy(home, self.position("Core"), 50, 0)
        background = self.browser.execute_script(
            "return getComputedStyle(document.querySelector('.mv-viewport')).backgroundColor")
        self.assertEqual(background, "rgb(32, 48, 64)")
        # Turned off, positions are forgotten.
        self.press("settings")
        self.browser.find_element(By.CSS_SELECTOR, '.mv-settings [name="remember"]').click()
        self.open_view(clear=False)
        self.assertMovedBy(home, self.position("Core"), 0, 0)

    def test_parts_glide_home_unless_reduced_motion_is_preferred(self):
        def duration_after_reset():
            self.drag(HOLE, 40, 0)
            self.press("reset")
            return self.browser.execute_script("return getComputedStyle(arguments[0]).transitionDuration", self.part("Core"))
        self.assertEqual(duration_after_reset(), "0.3s")
        self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        try:
            self.open_view()
            self.assertEqual(duration_after_reset(), "0s")
        finally:
            self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def scale(self):
        return self.world()["width"] / 400


class GalleryLightboxInBrowser(SiteTestCase):
    fixture = "machine-view"
    ready_path = "machines/press/parts/core/photos/"

    def test_a_gallery_photo_opens_in_the_lightbox_and_escape_closes_it(self):
        self.browser.get(self.base + "machines/press/parts/core/photos/")
        self.browser.find_element(By.CSS_SELECTOR, "a[data-lightbox]").click()
        dialog = self.browser.find_element(By.CSS_SELECTOR, "dialog.lightbox")
        self.assertIsNotNone(dialog.get_attribute("open"))
        self.assertIn("The core on the bench", dialog.find_element(By.CSS_SELECTOR, ".lightbox-caption").text)
        self.assertIn("(1 of 1)", dialog.find_element(By.CSS_SELECTOR, ".lightbox-caption").text)
        self.assertTrue(dialog.find_element(By.CSS_SELECTOR, ".lightbox-page").get_attribute("href")
                        .endswith("/parts/core/photos/bench/"))
        ActionChains(self.browser).send_keys(Keys.ESCAPE).perform()
        self.assertIsNone(dialog.get_attribute("open"))
        self.assertEqual(self.severe_errors(), [])


class MachineViewOnDiscussionPages(unittest.TestCase):
    """Page 2 of a machine's discussion shows the machine view too, two folders deeper."""

    def test_page_two_of_a_discussion_draws_and_links_as_page_one_does(self):
        work = Path(tempfile.mkdtemp(prefix="teardown-browser-"))
        site = work / "site"
        shutil.copytree(FIXTURES / "machine-view", site)
        comments = site / "content/machines/press/comments"
        comments.mkdir(parents=True, exist_ok=True)
        for number in range(1, 8):
            (comments / f"c{number}.md").write_text(f"---\nauthor: Ada\ndate: 2024-05-{number:02d}\n---\nComment {number}.\n")
        served = ServedSite(site, "machines/press/discussion/2/", copy=False)
        browser = chromium()
        try:
            browser.get(served.base + "machines/press/discussion/2/")
            WebDriverWait(browser, 10).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".mv-part"))
            WebDriverWait(browser, 10).until(lambda b: b.execute_script(
                "return [...document.querySelectorAll('.mv-part img')].every(i => i.complete && i.naturalWidth > 0)"))
            sources = browser.execute_script("return [...document.querySelectorAll('.mv-part img')].map(i => i.src)")
            self.assertTrue(sources and all("/machines/press/parts/" in s and "/discussion/" not in s for s in sources), sources)
            data = browser.execute_script("const d = document.querySelector('.machine-view').machineView.data;"
                                          "return {page: d.page, photos: d.photos, parts: d.parts.map(p => p.page)};")
            self.assertEqual(data["page"], served.base + "machines/press/")
            self.assertEqual(data["photos"], served.base + "machines/press/photos/")
            self.assertTrue(all(page.startswith(served.base + "machines/press/parts/") for page in data["parts"]), data)
            browser.find_element(By.CSS_SELECTOR, '[data-action="details"]').click()
            link = browser.find_element(By.CSS_SELECTOR, ".mv-panel a[href]")
            self.assertEqual(link.get_attribute("href"), served.base + "machines/press/")
            errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]
            self.assertEqual(errors, [])
        finally:
            browser.quit()
            served.stop()
            shutil.rmtree(work, ignore_errors=True)


class MachineViewHaloOnGlass(unittest.TestCase):
    """A see-through part keeps its see-through area as it was when selected: the halo rings its
    outline and never fills it, whether its glass is too faint to count as the part (12%) or
    counts as the part (20%, and the demo's tinted side panel)."""

    def press_with_glass(self, opacity):
        work = Path(tempfile.mkdtemp(prefix="teardown-browser-"))
        self.addCleanup(shutil.rmtree, work, ignore_errors=True)
        site = work / "site"
        shutil.copytree(FIXTURES / "machine-view", site)
        alpha = round(opacity * 255)

        def frame(x, y):
            if not (100 <= x < 300 and 40 <= y < 210):
                return (0, 0, 0, 0)
            return (40, 90, 160, alpha) if (150 <= x < 250 and 80 <= y < 170) else (40, 90, 160, 255)
        write_png(site / "content/machines/press/parts/frame/frame.png", 400, 300, frame)
        return ServedSite(site, "machines/press/machine.json", copy=False)

    def open(self, served, machine, parts):
        browser = chromium()
        self.addCleanup(browser.quit)
        browser.get(served.base + f"machines/{machine}/")
        WebDriverWait(browser, 30).until(lambda b: b.execute_script(
            "const i = [...document.querySelectorAll('.mv-part img')];"
            f"return i.length === {parts} && i.every(i => i.complete && i.naturalWidth > 0)"))
        browser.execute_script("document.querySelector('.mv-viewport').scrollIntoView({block: 'center'})")
        return browser

    def select(self, browser, slug):
        browser.execute_script("const view = document.querySelector('.machine-view').machineView;"
                               f"view.select(view.parts.find(p => p.slug === '{slug}'))")
        WebDriverWait(browser, 10).until(lambda b: b.execute_script("return !document.querySelector('.mv-halo').hidden"))
        browser.execute_script(DRAWN)

    def halo_alpha(self, browser, x, y):
        return browser.execute_script("""
            const halo = document.querySelector('.mv-halo');
            const scale = halo.width / parseFloat(halo.style.width);
            const [x, y] = arguments;
            const at = (v, origin) => Math.floor((v - parseFloat(origin)) * scale);
            return halo.getContext('2d').getImageData(at(x, halo.style.left), at(y, halo.style.top), 1, 1).data[3];""", x, y)

    def screen_pixels(self, browser, points, width):
        """The colours on screen at canvas points of a machine `width` units wide, a pixel each."""
        world = browser.execute_script(DRAWN + """
            const box = document.querySelector('.mv-world').getBoundingClientRect();
            return {left: box.left + scrollX, top: box.top + scrollY, width: box.width};""")
        unit = world["width"] / width
        colours = []
        for x, y in points:
            clip = {"x": int(world["left"] + x * unit), "y": int(world["top"] + y * unit), "width": 1, "height": 1, "scale": 1}
            shot = browser.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "clip": clip})
            colours.append(read_png(base64.b64decode(shot["data"]))(0, 0))
        return colours

    def assertUnchanged(self, before, after, where):
        self.assertLessEqual(max(abs(a - b) for a, b in zip(before, after)), 4, f"{where}: {before} became {after}")

    def assertRed(self, colour, where):
        r, g, b = colour
        self.assertTrue(r > 150 and g < 90 and b < 90, f"{where}: {colour} is not the halo's red")

    def test_faint_glass_too_faint_to_be_the_part_is_ringed_inside_and_out(self):
        served = self.press_with_glass(0.12)
        self.addCleanup(served.stop)
        browser = self.open(served, "press", 3)
        self.select(browser, "frame")
        self.assertEqual(self.halo_alpha(browser, 200, 125), 0, "the middle of the glass stays clear")
        self.assertEqual(self.halo_alpha(browser, 170, 100), 0, "near the glass's edge too")
        self.assertGreater(self.halo_alpha(browser, 99, 125), 0, "the ring runs outside the frame")
        self.assertGreater(self.halo_alpha(browser, 151, 125), 0, "and inside the glass's edge")

    def test_tinted_glass_that_is_the_part_shows_through_unchanged_and_only_its_outline_is_red(self):
        served = self.press_with_glass(0.20)
        self.addCleanup(served.stop)
        browser = self.open(served, "press", 3)
        points = [(200, 125), (160, 90), (240, 160), (99, 125)]
        before = self.screen_pixels(browser, points, 400)
        self.select(browser, "frame")
        after = self.screen_pixels(browser, points, 400)
        for point, was, now in zip(points[:3], before, after):
            self.assertUnchanged(was, now, f"the glass at {point}")
        self.assertRed(after[3], "the frame's outer edge")

    def test_the_demo_side_panel_keeps_the_parts_behind_it_visible(self):
        served = ServedSite(FIXTURES.parents[3], "machines/personal-computer/machine.json")
        self.addCleanup(served.stop)
        parts = len(list((FIXTURES.parents[3] / "content/machines/personal-computer/parts").iterdir()))
        browser = self.open(served, "personal-computer", parts)
        # The panel is 500 x 536 from (150, 40) on an 800 x 600 canvas: its glass is 13% blue
        # with a glare; the motherboard and the cards lie behind it.
        points = [(400, 300), (300, 200), (520, 420), (250, 500)]
        before = self.screen_pixels(browser, points, 800)
        self.select(browser, "side-panel")
        after = self.screen_pixels(browser, points, 800)
        for point, was, now in zip(points, before, after):
            self.assertUnchanged(was, now, f"behind the glass at {point}")
        (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "screenshots/halo-on-glass.png"))
        # Its outline is ringed: somewhere left of the pane's edge, past its soft shadow, is red.
        edge = self.screen_pixels(browser, [(x, 300) for x in range(110, 160)], 800)
        self.assertTrue(any(r > 150 and g < 90 and b < 90 for r, g, b in edge), f"no red along the panel's left edge: {edge}")


class MachineViewFirstScreen(unittest.TestCase):
    """On a laptop's screen the whole machine shows without scrolling."""

    def test_the_kettle_fits_a_1366_by_900_window(self):
        served = ServedSite(FIXTURES.parents[3], "machines/electric-kettle/machine.json")
        self.addCleanup(served.stop)
        # A window of 1366 by 900 whose page area is what a laptop's browser leaves of it.
        browser = chromium(1366, 900)
        self.addCleanup(browser.quit)
        browser.get(served.base + "machines/electric-kettle/")
        WebDriverWait(browser, 30).until(lambda b: b.execute_script(
            "const i = [...document.querySelectorAll('.mv-part img')]; return i.length > 0 && i.every(i => i.complete)"))
        browser.execute_script(DRAWN)
        boxes = browser.execute_script("""
            const v = document.querySelector('.mv-viewport').getBoundingClientRect();
            const w = document.querySelector('.mv-world').getBoundingClientRect();
            return {viewport: v.toJSON(), world: w.toJSON(), height: innerHeight};""")
        viewport, world = boxes["viewport"], boxes["world"]
        self.assertLessEqual(viewport["bottom"], boxes["height"], boxes)
        self.assertGreaterEqual(world["top"], viewport["top"] - 1, boxes)
        self.assertLessEqual(world["bottom"], viewport["bottom"] + 1, boxes)
        self.assertGreater(world["height"], 300, "the machine is not shrunk to a stamp")


def read_png(data):
    """A PNG (8 bits a channel, RGB or RGBA, not interlaced) as a function (x, y) -> (r, g, b)."""
    width, height, depth, kind, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    assert depth == 8 and kind in (2, 6) and not interlace, "an unexpected PNG"
    channels = 4 if kind == 6 else 3
    compressed, at = b"", 8
    while at < len(data):
        length, chunk = struct.unpack(">I4s", data[at:at + 8])
        if chunk == b"IDAT":
            compressed += data[at + 8:at + 8 + length]
        at += 12 + length
    raw, stride = zlib.decompress(compressed), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind_of_filter, row = line[0], bytearray(line[1:])
        for i in range(stride):
            left = row[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind_of_filter == 1:
                row[i] = (row[i] + left) & 255
            elif kind_of_filter == 2:
                row[i] = (row[i] + up) & 255
            elif kind_of_filter == 3:
                row[i] = (row[i] + (left + up) // 2) & 255
            elif kind_of_filter == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                row[i] = (row[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(row)
        previous = row
    return lambda x, y: tuple(rows[y][x * channels:x * channels + 3])


def write_png(path, width, height, pixel):
    """An RGBA PNG whose pixel (x, y) is pixel(x, y) -> (r, g, b, a)."""
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    Path(path).write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9))
                           + chunk(b"IEND", b""))
