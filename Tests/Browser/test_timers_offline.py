"""Timers on the page without its server (issue 28): on a phone, in English
and Korean, with the server stopped and with Chromium's network offline,
the Timers tab shows the stopwatch that ran before, ticking, from the
page's copy; a countdown and a stopwatch started then, the stopwatch lapped
twice and paused, reach the hub once when it is back, merged as the
protocol has it, and a CLI device gets them. A short countdown that ends
offline rings on the page once: not again when the server's own
`timer.finished` for it arrives later."""

import json
import shutil
import unittest

import axe
from phone_app import CliDevice, PhoneApp
from support import BrowserTest

# The timers in the page's copy: [label, state, laps, waiting] each.
TIMERS = """
const done = arguments[arguments.length - 1];
indexedDB.databases().then(names => {
if (!names.some(d => d.name === 'memoapp')) { done([]); return; }
const open = indexedDB.open('memoapp');
open.onsuccess = () => {
  const db = open.result;
  if (!db.objectStoreNames.contains('items')) { db.close(); done([]); return; }
  const tx = db.transaction(['items', 'queue']);
  const items = tx.objectStore('items').getAll(), queue = tx.objectStore('queue').getAll();
  tx.oncomplete = () => {
    db.close();
    const waiting = new Set(queue.result.map(entry => entry.uid));
    done(items.result.filter(i => i.kind === 'timer')
      .map(i => [i.values.label, i.values.state, i.values.laps.length, waiting.has(i.uid)]));
  };
};
open.onerror = () => done(null);
});
"""

# Set before the page's own scripts on every load: each toast that says a
# countdown ended, counted, and each `timer.finished` the server sends
# recorded once the page has handled it (a task later: its handlers run
# first, in the order they were added), and whether the event stream is open.
WATCH = """
window.rings = [];
window.finished = [];
window.streamOpen = false;
const Native = window.EventSource;
window.EventSource = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener('open', () => { window.streamOpen = true; });
    this.addEventListener('error', () => { window.streamOpen = false; });
    this.addEventListener('timer.finished', event => {
      const item = JSON.parse(event.data).item;
      setTimeout(() => window.finished.push(item.label), 0);
    });
  }
};
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver(records => {
    for (const record of records) for (const node of record.addedNodes) window.rings.push(node.textContent);
  }).observe(document.getElementById('toast'), { childList: true });
});
"""

ONLINE = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
OFFLINE = {"offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0}


class TimersOffline(PhoneApp):
    """Mixed into a BrowserTest of one language: `expected` holds its words."""

    def setUp(self):
        super().setUp()
        script = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
        self.addCleanup(self.driver.execute_cdp_cmd, "Page.removeScriptToEvaluateOnNewDocument",
                        {"identifier": script["identifier"]})
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.addCleanup(self.driver.execute_cdp_cmd, "Network.setBlockedURLs", {"urls": []})
        self.addCleanup(self.driver.execute_cdp_cmd, "Network.emulateNetworkConditions", ONLINE)

    # -- reading the screen

    def row(self, label):
        for row in self.all(".timer-list .timer"):
            if row.find_element("css selector", ".title").text == label:
                return row
        return None

    def state(self, label):
        row = self.row(label)
        if row is None:
            return None
        return next(name[len("state-"):] for name in row.get_attribute("class").split() if name.startswith("state-"))

    def clock(self, label):
        return self.row(label).find_element("css selector", ".clock").text

    def laps(self, label):
        return len(self.row(label).find_elements("css selector", ".laps li"))

    def rings(self):
        done = self.expected["done"]
        return [text for text in self.driver.execute_script("return window.rings") if text.startswith(done)]

    def press(self, label, button):
        def click(driver):
            element = self.row(label).find_element("css selector", "button." + button)
            # Clear of the phone's tab bar at the bottom.
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()
            return True
        # Found again if the list was drawn anew between finding and clicking.
        self.wait(click)

    def start_timer(self, label, duration=""):
        if duration:
            self.css('.timer-form input[name="duration"]').send_keys(duration)
        self.css('.timer-form input[name="label"]').send_keys(label)
        self.css(".timer-form button[type=submit]").click()
        self.wait(lambda d: self.state(label) == "running" or self.state(label) == "finished",
                  message=f"{label!r} never started: {self.all('.timer-list .timer')!r}")

    # -- the scenario, offline either way

    def run_offline(self, go_offline, come_back, check_screen=False):
        self.start_controlled()
        self.server.memoapp("timer", "start", "--label", "desk")
        self.wait(lambda d: ["desk", "running", 0, False] in d.execute_async_script(TIMERS),
                  message="the copy never held the hub's stopwatch")
        self.css('.tab[data-tab="timers"]').click()
        self.wait(lambda d: self.state("desk") == "running", message="the stopwatch is not listed")

        go_offline()
        self.wait(lambda d: self.status() == self.expected["offline"], message=f"status: {self.status()!r}")
        # The stopwatch that ran before, from the copy, still ticking.
        self.wait(lambda d: self.state("desk") == "running", message="the copy's stopwatch is not listed offline")
        first = self.clock("desk")
        self.wait(lambda d: self.clock("desk") != first, message="the stopwatch does not tick offline")
        if check_screen:
            # Before the list grows past the phone's screen, where a row
            # half under the tab bar is a matter of scrolling, not of the page.
            found = axe.violations(self.driver)
            self.assertEqual(found, [], "axe on the offline Timers tab:\n" + axe.describe(found))

        self.start_timer("tea", "10m")
        self.start_timer("run")
        self.press("run", "lap")
        self.wait(lambda d: self.laps("run") == 1, message="the first lap is not shown")
        self.press("run", "lap")
        self.wait(lambda d: self.laps("run") == 2, message="the second lap is not shown")
        self.press("run", "pause")
        self.wait(lambda d: self.state("run") == "paused", message="the stopwatch did not pause")
        # A short countdown ends offline: it rings here, once, and shows ended.
        self.start_timer("bell", "3s")
        self.wait(lambda d: self.rings(), message="the countdown that ended offline never rang")
        self.wait(lambda d: self.state("bell") == "finished", message="the ended countdown is not shown ended")
        self.assertEqual(self.rings(), [self.expected["done"] + ": bell"])
        # The rest of what a timer can be asked: the hub's stopwatch paused
        # and resumed, one stopped, one cancelled (gone from the list), and
        # the ended countdown dismissed (gone too).
        self.press("desk", "pause")
        self.wait(lambda d: self.state("desk") == "paused", message="the hub's stopwatch did not pause")
        self.press("desk", "resume")
        self.wait(lambda d: self.state("desk") == "running", message="the hub's stopwatch did not resume")
        self.start_timer("walk")
        self.press("walk", "stop")
        self.wait(lambda d: self.state("walk") == "stopped", message="the stopwatch did not stop")
        self.start_timer("egg", "5m")
        self.press("egg", "cancel")
        self.wait(lambda d: self.row("egg") is None, message="the cancelled countdown is still listed")
        if check_screen:
            self.driver.execute_script("window.scrollTo(0, 0)")
            self.language_shot("timers-offline")
            self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            self.language_shot("timers-offline-end")
            self.driver.execute_script("window.scrollTo(0, 0)")
        self.press("bell", "dismiss")
        self.wait(lambda d: self.row("bell") is None, message="the dismissed countdown is still listed")
        self.assertEqual(self.status().split(" · ")[0], self.expected["offline"])
        self.assertIn(self.expected["waiting"], self.status())
        copy = self.driver.execute_async_script(TIMERS)
        self.assertEqual(sorted(copy), sorted([["desk", "running", 0, True], ["tea", "running", 0, True],
                                               ["run", "paused", 2, True], ["bell", "finished", 0, True],
                                               ["walk", "stopped", 0, True], ["egg", "cancelled", 0, True]]))

        come_back()
        self.wait(lambda d: self.status() == self.expected["synced"], timeout=20, message=f"status: {self.status()!r}")
        # Each timer once on the hub, as the page left it.
        hub = {timer["label"]: timer for timer in self.server.memoapp("timer", "list", "--all")}
        self.assertEqual(len(self.server.memoapp("timer", "list", "--all")), 6)
        self.assertEqual(sorted(hub), ["bell", "desk", "egg", "run", "tea", "walk"])
        self.assertEqual((hub["run"]["kind"], hub["run"]["state"], len(hub["run"]["laps"])), ("stopwatch", "paused", 2))
        self.assertLess(hub["run"]["laps"][0]["elapsed"], hub["run"]["laps"][1]["elapsed"])
        # Measured by the wall clock, as the page has no boot clock: estimated.
        self.assertTrue(hub["run"]["estimated"])
        self.assertEqual((hub["tea"]["kind"], hub["tea"]["state"], hub["tea"]["duration"]), ("countdown", "running", 600.0))
        self.assertEqual((hub["bell"]["state"], hub["bell"]["remaining"]), ("finished", 0.0))
        self.assertIsNotNone(hub["bell"]["seen_at"])
        # The hub's own stopwatch, paused and resumed here: running, and
        # estimated (the page's stretch is measured by the wall clock).
        self.assertEqual((hub["desk"]["state"], hub["desk"]["estimated"]), ("running", True))
        self.assertEqual((hub["walk"]["state"], hub["egg"]["state"]), ("stopped", "cancelled"))
        self.wait(lambda d: all(not entry[3] for entry in d.execute_async_script(TIMERS)), message="changes still wait")

        # A CLI device gets them all, as the hub has them.
        device = CliDevice(self.server)
        self.addCleanup(shutil.rmtree, device.home, True)
        device.sync()
        got = {timer["label"]: timer for timer in json.loads(device.run("timer", "list", "--all"))}
        self.assertEqual(sorted(got), ["bell", "desk", "egg", "run", "tea", "walk"])
        self.assertEqual((got["run"]["state"], len(got["run"]["laps"])), ("paused", 2))
        self.assertEqual([lap["elapsed"] for lap in got["run"]["laps"]], [lap["elapsed"] for lap in hub["run"]["laps"]])
        self.assertEqual([got[label]["state"] for label in ("bell", "desk", "egg", "tea", "walk")],
                         ["finished", "running", "cancelled", "running", "stopped"])
        self.assertIsNotNone(got["bell"]["seen_at"])
        return hub

    def test_with_the_server_stopped_timers_run_and_reach_the_hub_once(self):
        def go_offline():
            self.server.stop()
            # The list open when the server went away draws its rows from the copy.
            self.wait(lambda d: not self.row("desk").get_attribute("data-id").isdigit(),
                      message="the rows are still the server's")
            self.reload_ready()
            self.assertEqual(self.css("#panel").get_attribute("data-feature"), "timers")

        self.run_offline(go_offline, self.restart_server, check_screen=True)
        self.assertEqual(self.rings(), [self.expected["done"] + ": bell"])

    def test_with_chromiums_network_offline_the_servers_later_event_rings_nothing_more(self):
        def go_offline():
            self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", OFFLINE)
            self.reload_ready()

        def come_back():
            # The event stream first, the sync routes held back until it is
            # open: the hub's `timer.finished` for the countdown pushed
            # finished then reaches the page, which rang for it already.
            self.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/v1/sync/*"]})
            self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)
            self.wait(lambda d: d.execute_script("return window.streamOpen"), timeout=20,
                      message="the event stream never opened again")
            self.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
            self.driver.execute_script("window.dispatchEvent(new Event('online'))")

        self.run_offline(go_offline, come_back)
        # The server ended it too, and said so: the page heard and did not ring again.
        self.wait(lambda d: "bell" in d.execute_script("return window.finished"), timeout=20,
                  message="the hub never sent timer.finished for the countdown")
        self.assertEqual(self.rings(), [self.expected["done"] + ": bell"])


class EnglishTimersOffline(TimersOffline, BrowserTest):
    language = "en-US"
    expected = {"offline": "Offline", "synced": "Synced just now", "done": "Time is up", "waiting": "changes waiting"}


class KoreanTimersOffline(TimersOffline, BrowserTest):
    language = "ko-KR"
    expected = {"offline": "오프라인", "synced": "방금 동기화됨", "done": "시간이 다 됐습니다", "waiting": "대기 중"}


if __name__ == "__main__":
    unittest.main()
