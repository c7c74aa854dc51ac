"""The four-page onboarding in a real browser: swipe, keys, dots, Skip,
Start, resuming after a reload, the gate, and the tour."""

import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from support import BrowserTest

# When the splash went (ms from the page's start), and whether it was held.
SPLASH_GONE = """
const mark = performance.getEntriesByName('memoapp-splash-gone')[0];
return mark ? { at: mark.startTime, held: mark.detail.held } : null;"""


class OnboardingTests(BrowserTest):
    def assert_buttons(self, last):
        """Skip and Next on pages 1–3, Start on page 4 (the other set faded out)."""
        self.wait(lambda d: self.css(".ob-start").is_displayed() == last and self.css(".ob-next").is_displayed() != last)
        self.wait(lambda d: float(self.css(".ob-last").value_of_css_property("opacity")) == (1.0 if last else 0.0))

    def test_swipe_through_every_page_then_start(self):
        self.open_signed_in()
        self.assertEqual(self.screen(), "onboarding")
        self.assertEqual(self.css(".ob-title").text, "Today's to-dos")
        self.shot("onboarding-1")
        width = self.css(".ob-viewport").size["width"]
        # Past the first page's left edge nothing moves: no bounce.
        ActionChains(self.driver).move_to_element(self.css(".ob-viewport")).click_and_hold().move_by_offset(width // 3, 0).perform()
        self.assertEqual(self.driver.execute_script("return document.querySelector('.ob-track').style.transform"),
                         "translateX(0px)")
        ActionChains(self.driver).release().perform()
        self.wait_page(1)
        # Less than half a page, slowly, snaps back; more goes on.
        self.swipe(-width // 3, slow=True)
        self.wait_page(1)
        for page in (2, 3, 4):
            self.swipe(-(width * 2) // 3)
            self.wait_page(page)
            self.wait_stored_page(page)
            self.shot(f"onboarding-{page}")
        self.assert_buttons(last=True)
        start = self.css(".ob-start")
        self.assertEqual(start.text, "Start")
        # Its icon is on the right of its label.
        label, icon = start.find_element("css selector", "span"), start.find_element("css selector", "svg")
        self.assertGreater(icon.location["x"], label.location["x"])
        # Past the last page's right edge nothing moves either.
        ActionChains(self.driver).move_to_element(self.css(".ob-viewport")).click_and_hold().move_by_offset(-width // 3, 0).perform()
        self.assertEqual(self.driver.execute_script("return document.querySelector('.ob-track').style.transform"),
                         f"translateX(-{3 * width}px)")
        ActionChains(self.driver).release().perform()
        self.wait_page(4)
        start.click()
        self.wait(lambda d: self.screen() == "main")
        self.assertTrue(self.server.onboarding()["completed"])

    def test_a_quick_flick_turns_the_page(self):
        self.open_signed_in()
        # 60 px, far less than half a page, in a fiftieth of a second: a flick.
        self.swipe(-60)
        self.wait_page(2)
        self.wait_stored_page(2)
        self.swipe(-60)
        self.wait_page(3)
        self.swipe(60)
        self.wait_page(2)
        # The same way slowly is a drag that snaps back.
        self.swipe(-60, slow=True)
        self.wait_page(2)
        self.swipe(60, slow=True)
        self.wait_page(2)
        # A flick at the last page goes no further.
        self.all(".ob-dot")[3].click()
        self.wait_page(4)
        self.swipe(-60)
        self.wait_page(4)

    def test_arrow_keys_move_and_stop_at_the_ends(self):
        self.open_signed_in()
        body = self.css("body")
        ActionChains(self.driver).send_keys(Keys.ARROW_LEFT).perform()
        self.wait_page(1)
        for page in (2, 3, 4):
            ActionChains(self.driver).send_keys(Keys.ARROW_RIGHT).perform()
            self.wait_page(page)
        ActionChains(self.driver).send_keys(Keys.ARROW_RIGHT).perform()
        self.wait_page(4)
        self.assert_buttons(last=True)
        ActionChains(self.driver).send_keys(Keys.ARROW_LEFT).perform()
        self.wait_page(3)
        self.assert_buttons(last=False)
        self.wait_stored_page(3)
        self.assertIsNotNone(body)

    def test_dots_are_tabs_and_go_to_their_page(self):
        self.open_signed_in()
        tabs = self.all('[role="tablist"] [role="tab"]')
        self.assertEqual(len(tabs), 4)
        names = [tab.get_attribute("aria-label") for tab in tabs]
        self.assertEqual(names, ["Today's to-dos", "Your own smart notebook", "Miss nothing", "Time, precisely"])
        self.assertEqual([t.get_attribute("aria-selected") for t in tabs], ["true", "false", "false", "false"])
        # The current dot in the key colour, the others grey.
        colours = self.driver.execute_script(
            "return [...document.querySelectorAll('.ob-dot')].map(d => getComputedStyle(d, '::before').backgroundColor)")
        self.assertEqual(len(set(colours[1:])), 1)
        self.assertNotEqual(colours[0], colours[1])
        tabs[2].click()
        self.wait_page(3)
        self.assertEqual(self.css("#ob-panel-3 .ob-title").text, "Miss nothing")
        self.wait_stored_page(3)
        tabs[3].click()
        self.wait_page(4)
        self.assert_buttons(last=True)
        tabs[0].click()
        self.wait_page(1)
        self.assert_buttons(last=False)
        self.wait_stored_page(1)

    def test_skip_completes_at_once(self):
        self.open_signed_in()
        self.css(".ob-next").click()
        self.wait_page(2)
        self.css(".ob-skip").click()
        self.wait(lambda d: self.screen() == "main")
        self.assertTrue(self.server.onboarding()["completed"])

    def test_a_reload_resumes_on_the_stored_page(self):
        self.open_signed_in()
        self.css(".ob-next").click()
        self.wait_page(2)
        self.css(".ob-next").click()
        self.wait_page(3)
        self.wait_stored_page(3)
        self.driver.refresh()
        self.wait(lambda d: self.css("body").get_attribute("data-ready") == "true")
        self.wait_page(3)
        # The sign-in code left the address at once; the cookie carries the session.
        self.assertEqual(self.driver.execute_script("return location.hash"), "")

    def test_the_gate_holds_until_the_onboarding_is_completed(self):
        self.open_signed_in()
        self.allowed_console.append("/api/v1/todos - Failed to load resource: the server responded with a status of 403")
        refused = self.driver.execute_async_script(
            "const done = arguments[0]; fetch('/api/v1/todos').then(r => r.json().then(b => done([r.status, b.error.code])));")
        self.assertEqual(refused, [403, "onboarding_required"])
        self.assertEqual(self.screen(), "onboarding")
        # Finished elsewhere (the command line), the open page follows at once
        # (the onboarding's own event stream, open before the gate), no reload.
        self.server.memoapp("onboard", "skip")
        self.wait(lambda d: self.screen() == "main")
        self.wait(lambda d: self.css(".todo-list") is not None)
        # Reset from the command line: the onboarding comes back, live too.
        # (The page's sync may ask the hub in the moment before it hears of
        # the reset, and be refused by the gate like any request then.)
        self.allowed_console.append("/api/v1/sync/changes?after=0&limit=1000 - Failed to load resource: the server "
                                    "responded with a status of 403")
        self.server.memoapp("onboard", "reset")
        self.wait(lambda d: self.screen() == "onboarding")

    def test_the_tour_shows_the_pages_without_changing_the_state(self):
        self.complete_onboarding()
        before = self.server.onboarding()
        self.css(".tour-link").click()
        self.wait(lambda d: self.screen() == "onboarding")
        self.wait_page(1)
        self.css(".ob-next").click()
        self.wait_page(2)
        self.all(".ob-dot")[3].click()
        self.wait_page(4)
        self.css(".ob-start").click()
        self.wait(lambda d: self.screen() == "main")
        self.assertEqual(self.server.onboarding(), before)

    def test_korean_and_the_language_switch(self):
        self.open_signed_in()
        self.css(".lang-switch").click()
        self.wait(lambda d: self.css("#ob-panel-1 .ob-title").text == "오늘의 할일")
        self.assertEqual(self.css(".ob-skip").text, "건너뛰기")
        self.all(".ob-dot")[3].click()
        self.wait_page(4)
        self.wait(lambda d: self.css(".ob-start").text == "시작하기")
        self.shot("onboarding-4-ko")
        # The Korean title is not clipped: its box holds all of its text.
        clipped = self.driver.execute_script(
            "return [...document.querySelectorAll('.ob-title, .ob-subtitle, button')]"
            ".filter(e => e.offsetParent && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)).length")
        self.assertEqual(clipped, 0)
        self.css(".lang-switch").click()
        self.wait(lambda d: self.css(".ob-start").text == "Start")
        self.driver.execute_script("localStorage.removeItem('memoapp.lang')")

    def test_the_splash_names_the_app_then_goes(self):
        # A launch: nothing of this address's kept in the tab (a port used by
        # an earlier test's server would have left its mark).
        self.allowed_console.append("/favicon.ico - Failed to load resource")  # asked for by the JSON page
        self.driver.get(self.server.url + "/api/v1/health")
        self.driver.execute_script("sessionStorage.clear()")
        self.driver.get(self.server.sign_in_url)
        # The splash is in the page's own HTML, shown before any script runs.
        self.assertEqual(self.driver.execute_script(
            "return document.querySelector('.splash-name') && document.querySelector('.splash-name').textContent"), "memoapp")
        self.wait(lambda d: d.execute_script("return document.getElementById('splash') === null"))
        self.assertEqual(self.screen(), "onboarding")
        # Held 1.5 s from the page's start at a launch, as the seeds' splash is.
        gone = self.driver.execute_script(SPLASH_GONE)
        self.assertTrue(gone["held"])
        self.assertGreaterEqual(gone["at"], 1500)
        # A reload in the same tab is no launch: the screen shows once ready.
        self.driver.refresh()
        self.wait(lambda d: self.css("body").get_attribute("data-ready") == "true")
        self.assertFalse(self.driver.execute_script(SPLASH_GONE)["held"])

    def test_reduced_motion_moves_pages_without_animation(self):
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                    {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        self.addCleanup(self.driver.execute_cdp_cmd, "Emulation.setEmulatedMedia", {"features": []})
        self.open_signed_in()
        self.css(".ob-next").click()
        # At once: no transition runs on the track or the buttons.
        for selector in (".ob-track", ".ob-buttons", ".onboarding"):
            self.assertTrue(self.driver.execute_script(
                "return getComputedStyle(document.querySelector(arguments[0])).transitionDuration"
                ".split(',').every(v => parseFloat(v) === 0)", selector), selector)
        self.wait_page(2)

    def test_time_to_an_interactive_onboarding_and_first_load_size(self):
        self.open_signed_in()
        figures = self.driver.execute_script("""
            const nav = performance.getEntriesByType('navigation')[0];
            const ready = performance.getEntriesByName('memoapp-interactive')[0];
            const files = [nav, ...performance.getEntriesByType('resource').filter(r => !r.name.includes('/api/'))];
            return { ms: ready.startTime, bytes: files.reduce((n, r) => n + r.decodedBodySize, 0),
                     wire: files.reduce((n, r) => n + r.encodedBodySize, 0) };""")
        print(f"\n  time to interactive onboarding {figures['ms']:.0f} ms, first load {figures['bytes']} bytes "
              f"({figures['wire']} gzipped on the wire)", flush=True)
        # What crosses the network: the text files are gzipped (CompressedFiles.swift).
        self.assertLess(figures["wire"], 64 * 1024)
        # 165 KiB, not 150: the service worker's registration, the offline
        # hooks and the manifest's links (issue 28, 4 KB) and the due preview
        # and the notes under fields (fieldnotes.js, issue 30, 7.7 KB); the
        # page as a sync device loads with the main screen, not here.
        self.assertLess(figures["bytes"], 165 * 1024)


if __name__ == "__main__":
    unittest.main()
