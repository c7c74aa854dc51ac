"""Two tabs of the page open at once (issue 28): they share one copy and one
queue (IndexedDB), and one sync runs at a time across them (a Web Lock,
`memoapp-sync`, sync.js): a tab's run waits while another holds the lock,
so a queue is never sent by two tabs at once. Both show the data."""

import unittest

from phone_app import PhoneApp
from support import BrowserTest

# The Web Locks of the origin: [[name, clientId] held], [[name, clientId] waiting].
LOCKS = """
const done = arguments[arguments.length - 1];
navigator.locks.query().then(state => done([state.held.map(l => [l.name, l.clientId]),
                                            state.pending.map(l => [l.name, l.clientId])]));
"""

# Holds the sync lock from this tab, as a run of its own would, until
# `window.releaseSync()` (the script returns once the lock is held).
HOLD = """
const done = arguments[arguments.length - 1];
navigator.locks.request('memoapp-sync', () => { done(); return new Promise(resolve => { window.releaseSync = resolve; }); });
"""


class TwoTabs(PhoneApp):
    def test_one_tab_syncs_at_a_time_and_both_show_the_data(self):
        self.start_controlled()
        self.server.memoapp("todo", "add", "buy milk")
        self.wait(lambda d: self.titles() == ["buy milk"])
        first = self.driver.current_window_handle
        # Opened from the first tab, the second shares its sign-in (its
        # sessionStorage is copied), as a link opened in a new tab does.
        self.driver.execute_script("window.open('/', '_blank')")
        second = next(handle for handle in self.driver.window_handles if handle != first)
        self.driver.switch_to.window(second)
        self.phone_size()
        self.wait(lambda d: self.css("body").get_attribute("data-ready") == "true", message="the second tab never ready")
        self.wait(lambda d: self.titles() == ["buy milk"], message="the second tab never showed the data")

        # Made in the second tab with the server up: shown in the first.
        self.add_todo("call mum")
        self.driver.switch_to.window(first)
        self.wait(lambda d: sorted(self.titles()) == ["buy milk", "call mum"], message="the first tab never showed it")

        # Made in the second tab with the server away: queued in the copy both share.
        self.server.stop()
        self.driver.switch_to.window(second)
        self.add_todo("bake bread")
        self.wait(lambda d: self.status() == self.expected["waiting1"], message=f"status: {self.status()!r}")
        self.driver.switch_to.window(first)
        self.driver.execute_async_script(HOLD)
        again = self.restart_server()
        # Both tabs start a run (as they do on `online`): each waits for the lock.
        for handle in (first, second):
            self.driver.switch_to.window(handle)
            self.driver.execute_script("window.dispatchEvent(new Event('online'))")
        self.wait(lambda d: len({client for name, client in self.driver.execute_async_script(LOCKS)[1]
                                 if name == "memoapp-sync"}) == 2,
                  message=f"the two tabs' runs do not wait for the lock: {self.driver.execute_async_script(LOCKS)}")
        held, waiting = self.driver.execute_async_script(LOCKS)
        self.assertEqual([name for name, _ in held], ["memoapp-sync"])
        # A run sends only inside the lock: nothing has reached the server yet.
        self.assertEqual(sorted(todo["title"] for todo in again.memoapp("todo", "list")), ["buy milk", "call mum"])

        self.driver.switch_to.window(first)
        self.driver.execute_script("window.releaseSync()")
        self.wait(lambda d: "bake bread" in [todo["title"] for todo in again.memoapp("todo", "list")],
                  timeout=20, message="the queued change never reached the server")
        for handle in (first, second):
            self.driver.switch_to.window(handle)
            self.wait(lambda d: sorted(self.titles()) == ["bake bread", "buy milk", "call mum"],
                      message=f"tab {handle} never showed the change")
            self.wait(lambda d: self.status() in ("", self.expected["synced"]), message=f"status: {self.status()!r}")
        # Sent once, though both tabs ran after the lock was let go.
        self.assertEqual(sorted(todo["title"] for todo in again.memoapp("todo", "list")), ["bake bread", "buy milk", "call mum"])
        self.wait(lambda d: self.driver.execute_async_script(LOCKS) == [[], []], message="a run never let the lock go")
        self.driver.switch_to.window(second)
        self.driver.close()
        self.driver.switch_to.window(first)


class TwoTabsEnglish(TwoTabs, BrowserTest):
    expected = {"waiting1": "Offline · 1 change waiting", "synced": "Synced just now"}


class TwoTabsKorean(TwoTabs, BrowserTest):
    language = "ko-KR"
    expected = {"waiting1": "오프라인 · 변경 1개 대기 중", "synced": "방금 동기화됨"}


if __name__ == "__main__":
    unittest.main()
