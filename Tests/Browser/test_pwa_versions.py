"""A new version of the page (issue 28): its service worker installs beside
the one that controls the page and waits, so a page half way through an edit
keeps the code it started with; the next load hands over to it (main.js asks
it to take over before showing anything), even with the server away, and the
changes queued meanwhile are kept and reach the server once."""

import unittest

from phone_app import PhoneApp
from support import BrowserTest

# The registration's workers by role ({"active": "activated", "waiting": …}),
# whether the active one controls the page, and the shell caches (sw.js names
# each after its version; a worker that activates deletes the others).
WORKERS = """
const done = arguments[arguments.length - 1];
Promise.all([navigator.serviceWorker.getRegistration(), caches.keys()]).then(([r, names]) => done({
  active: r.active && r.active.state, waiting: r.waiting && r.waiting.state, installing: r.installing && r.installing.state,
  controls: !!navigator.serviceWorker.controller && navigator.serviceWorker.controller === r.active,
  caches: names.filter(name => name.startsWith('memoapp-shell-')).sort()}), error => done(String(error)));
"""


class NewVersion(PhoneApp):
    def workers(self):
        return self.driver.execute_async_script(WORKERS)

    def test_a_new_version_waits_while_editing_and_takes_over_on_the_next_load_keeping_the_queue(self):
        self.start_controlled()
        memo = self.server.memoapp("memo", "add", "shopping\neggs")
        self.wait(lambda d: len(self.copy()) == 1, message="the copy never held the memo")
        first = self.workers()
        self.assertEqual((first["active"], first["waiting"], first["controls"], len(first["caches"])),
                         ("activated", None, True, 1), first)

        # Half way through an edit when the server comes back with another page.
        self.css('.tab[data-tab="memos"]').click()
        self.wait(lambda d: self.titles(".memo .preview") == ["shopping"])
        self.css(".memo .edit").click()
        text = self.wait(lambda d: self.all(".editor textarea"), message="the editor never opened")[0]
        text.send_keys("\nbutter")
        # Gone if the document is ever loaded again.
        self.driver.execute_script("window.sameDocument = true")
        self.server.stop()
        newer = self.restart_server(version="2")
        self.driver.execute_async_script(
            "navigator.serviceWorker.getRegistration().then(r => r.update()).then(() => arguments[0](), e => arguments[0](String(e)))")
        self.wait(lambda d: self.workers()["waiting"] == "installed", message=f"no new worker waits: {self.workers()}")
        second = self.workers()
        self.assertEqual(len(second["caches"]), 2, "the new version's shell is kept beside the one in use")
        new_cache = (set(second["caches"]) - set(first["caches"])).pop()

        # Saved with the server away again: queued, in the same document, under the old worker.
        newer.stop()
        self.css(".editor .primary").click()
        self.wait(lambda d: not self.all(".editor"))
        self.css('.tab[data-tab="todos"]').click()
        self.add_todo("bake bread")
        self.wait(lambda d: self.status() == self.expected["waiting2"], message=f"status: {self.status()!r}")
        self.assertTrue(self.driver.execute_script("return window.sameDocument === true"), "the page was loaded again mid-edit")
        # Long after it installed, the new worker still waits: it did not take the page over.
        self.assertEqual(self.workers(), {**second, "controls": True}, "the new version took over mid-session")

        # The next load, the server still away: the new version, and the queue as it was.
        self.reload_ready()
        self.wait(lambda d: self.workers() == {"active": "activated", "waiting": None, "installing": None,
                                               "controls": True, "caches": [new_cache]},
                  message=f"the new version never took over: {self.workers()}")
        self.assertFalse(self.driver.execute_script("return window.sameDocument === true"))
        self.wait(lambda d: self.status() == self.expected["waiting2"], message=f"status: {self.status()!r}")
        self.wait(lambda d: self.titles() == ["bake bread"], message=f"to-dos: {self.titles()}")

        self.restart_server(version="2")
        self.wait(lambda d: self.status() == self.expected["synced"], timeout=20, message=f"status: {self.status()!r}")
        self.assertEqual([todo["title"] for todo in self.server.memoapp("todo", "list")], ["bake bread"])
        self.assertEqual(self.server.memoapp("memo", "show", str(memo["id"]))["text"], "shopping\neggs\nbutter")
        self.assertEqual(len(self.server.memoapp("memo", "list")), 1, "no conflict copy")


class NewVersionEnglish(NewVersion, BrowserTest):
    expected = {"waiting2": "Offline · 2 changes waiting", "synced": "Synced just now"}


class NewVersionKorean(NewVersion, BrowserTest):
    language = "ko-KR"
    expected = {"waiting2": "오프라인 · 변경 2개 대기 중", "synced": "방금 동기화됨"}


if __name__ == "__main__":
    unittest.main()
