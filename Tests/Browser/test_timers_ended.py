"""Timers that ended stay until dismissed (issue 30, item 9), as on the
command line's main screen: a finished countdown, and a stopped stopwatch
with its time and every lap. On a phone and a desktop, in both languages."""

import sqlite3
import unittest

from support import BrowserTest

# The page's own API call: a timer's document as the server has it now.
TIMER = """
const done = arguments[arguments.length - 1];
fetch('/api/v1/timers/' + arguments[0], { headers: { Accept: 'application/json' } })
  .then(r => r.json()).then(done, e => done(String(e)));
"""


def clock(seconds):
    """The page's clock: [h:]mm:ss.t"""
    s = max(0.0, seconds)
    hours, minutes, secs = int(s // 3600), int((s % 3600) // 60), int(s % 60)
    tenths = int((s * 10) % 10)
    return (f"{hours}:{minutes:02}" if hours else f"{minutes:02}") + f":{secs:02}.{tenths}"


class EndedTimersStay:
    """Mixed into a BrowserTest: `viewport` (width, height) and `expected`."""

    def setUp(self):
        super().setUp()
        self.use_viewport(*self.viewport)
        self.complete_onboarding()
        self.open_timers()

    def open_timers(self):
        self.css('.tab[data-tab="timers"]').click()
        self.wait(lambda d: self.css("#panel").get_attribute("data-feature") == "timers")

    def start(self, duration, label):
        self.css('input[name="duration"]').send_keys(duration)
        self.css('input[name="label"]').send_keys(label)
        self.css(".timer-form button[type=submit]").click()

    def seen_at(self, timer_id):
        with sqlite3.connect(self.server.home + "/memoapp.db") as db:
            return db.execute("SELECT seen_at FROM timers WHERE id = ?", (timer_id,)).fetchone()[0]

    def press(self, selector):
        """Clicks a row's button, found again if the list was drawn anew
        (an action's answer and the server's event for it each reload it)."""
        self.wait(lambda d: self.css(selector).click() or True)

    def reload_page(self):
        self.driver.refresh()
        self.wait(lambda d: self.css("body").get_attribute("data-ready") == "true")
        self.open_timers()

    def test_a_finished_countdown_stays_until_dismissed(self):
        self.start("1s", "tea")
        self.wait(lambda d: len(self.all(".timer.countdown.state-finished")) == 1, timeout=10)
        row = self.css(".timer.state-finished")
        self.assertEqual(row.find_element("css selector", ".title").text, "tea")
        self.assertEqual(row.find_element("css selector", ".clock").text, "00:00.0")
        self.assertTrue(row.find_element("css selector", ".state").text.startswith(self.expected["finished"]))
        self.assertEqual(row.find_element("css selector", ".dismiss").text, self.expected["dismiss"])
        self.language_shot("timer-finished")
        # Kept by the server, not by this tab: a reload still shows it.
        self.reload_page()
        self.wait(lambda d: len(self.all(".timer.countdown.state-finished")) == 1)
        timer_id = int(self.css(".timer.state-finished").get_attribute("data-id"))
        self.assertIsNone(self.seen_at(timer_id))
        self.press(".timer.state-finished .dismiss")
        self.wait(lambda d: len(self.all(".timer")) == 0)
        self.assertIsNotNone(self.seen_at(timer_id), "dismissed for the command line's main screen too")
        self.assertTrue(self.css(".timer-list + .empty").is_displayed())

    def test_a_stopped_stopwatch_keeps_its_time_and_laps(self):
        self.start("", "run")
        self.wait(lambda d: len(self.all(".timer.stopwatch.state-running")) == 1)
        for laps in (1, 2, 3):
            self.press(".timer.stopwatch .lap")
            self.wait(lambda d: len(self.all(".timer.stopwatch .laps li")) == laps)
        self.press(".timer.stopwatch .stop")
        self.wait(lambda d: len(self.all(".timer.stopwatch.state-stopped")) == 1)
        timer_id = int(self.css(".timer.state-stopped").get_attribute("data-id"))
        stored = self.driver.execute_async_script(TIMER, timer_id)
        self.assertEqual(stored["state"], "stopped")
        row = self.css(".timer.state-stopped")
        # The time it came to, standing still, and every lap, the last first.
        self.assertEqual(row.find_element("css selector", ".clock").text, clock(stored["elapsed"]))
        laps = [e.text for e in row.find_elements("css selector", ".laps li")]
        self.assertEqual(len(laps), 3)
        self.assertTrue(laps[0].startswith(f"{self.expected['lap']} 3"), laps[0])
        self.assertIn(clock(stored["laps"][0]["elapsed"]), laps[2])
        self.assertTrue(row.find_element("css selector", ".state").text.startswith(self.expected["stopped"]))
        self.language_shot("timer-stopped")
        self.reload_page()
        self.wait(lambda d: len(self.all(".timer.stopwatch.state-stopped .laps li")) == 3)
        self.assertEqual(self.css(".timer.state-stopped .clock").text, clock(stored["elapsed"]))
        self.press(".timer.state-stopped .dismiss")
        self.wait(lambda d: len(self.all(".timer")) == 0)
        self.assertIsNotNone(self.seen_at(timer_id))

    def test_a_cancelled_timer_leaves_at_once(self):
        self.start("25m", "focus")
        self.wait(lambda d: len(self.all(".timer.countdown.state-running")) == 1)
        self.press(".timer .cancel")
        self.wait(lambda d: len(self.all(".timer")) == 0)


class EnglishPhoneTests(EndedTimersStay, BrowserTest):
    language = "en-US"
    viewport = (390, 844)
    expected = {"finished": "Time is up", "stopped": "Stopped", "dismiss": "Dismiss", "lap": "Lap"}


class KoreanDesktopTests(EndedTimersStay, BrowserTest):
    language = "ko-KR"
    viewport = (1280, 800)
    expected = {"finished": "시간이 다 됐습니다", "stopped": "멈춤", "dismiss": "치우기", "lap": "랩"}


class EnglishDesktopTests(EndedTimersStay, BrowserTest):
    language = "en-US"
    viewport = (1280, 800)
    expected = EnglishPhoneTests.expected


class KoreanPhoneTests(EndedTimersStay, BrowserTest):
    language = "ko-KR"
    viewport = (390, 844)
    expected = KoreanDesktopTests.expected


if __name__ == "__main__":
    unittest.main()
