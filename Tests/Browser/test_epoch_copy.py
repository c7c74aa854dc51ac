"""A hub restored from an older backup (a new epoch, docs/sync.md "Epochs"):
the page meets it as a new device and sends everything its copy holds, so
what the backup lacks comes back to the hub, and a change made on the page
meanwhile is kept; then it takes its copy anew. Before, the page kept only
its queue and dropped the rest, and the hub stayed without them."""

import shutil
import tempfile
import unittest

from selenium.webdriver.common.by import By

from phone_app import PhoneApp
from support import BrowserTest


class EpochCopy(PhoneApp):
    def row(self, title):
        return next(li for li in self.all(".todo-list li.todo") if li.find_element(By.CSS_SELECTOR, ".title").text == title)

    def hub_todos(self):
        return {todo["title"]: todo for todo in self.server.memoapp("todo", "list", "--all")}

    def restored_while_away(self):
        """The page's copy holds two to-dos and a memo; the hub, restored
        from a backup taken after the first, holds only that one. Returns
        the memo as the hub first had it."""
        self.start_controlled()
        self.add_todo("water plants")
        self.wait(lambda d: list(self.hub_todos()) == ["water plants"])
        backup = tempfile.mkdtemp(prefix="memoapp-backup-")
        self.addCleanup(shutil.rmtree, backup, ignore_errors=True)
        self.server.memoapp("backup", backup)

        # After the backup: one to-do from the page, one memo from the hub's
        # command line; the page's copy holds both.
        self.add_todo("call the bank")
        memo = self.server.memoapp("memo", "add", "pack the charger")
        self.wait(lambda d: len(self.copy()) == 3, message=f"the copy: {self.copy()}")
        self.wait(lambda d: not any(entry[3] for entry in self.copy()), message="the page's to-do never sent")

        self.server.stop()
        self.server.memoapp("restore", backup, "--force")
        self.assertEqual(list(self.hub_todos()), ["water plants"])
        self.assertEqual(self.server.memoapp("memo", "list"), [])
        return memo

    def test_a_change_waiting_meets_the_restored_hub_and_everything_goes_back(self):
        # The push meets the new epoch (409 sync_epoch_changed).
        memo = self.restored_while_away()
        # Clicked in the page, not tapped at a point: the add form, unfolded
        # while typing, folds (animated) when the focus leaves it and moves
        # the rows under a tap. What is tested here is the sync, not the tap.
        self.driver.execute_script("arguments[0].click()", self.row("water plants").find_element(By.CSS_SELECTOR, ".check"))
        self.wait(lambda d: self.status() == self.expected["waiting1"], message=f"status: {self.status()!r}")
        self.restart_server()
        self.wait(lambda d: self.status() == self.expected["synced"], timeout=20, message=f"status: {self.status()!r}")
        todos = self.hub_todos()
        self.assertEqual(sorted(todos), ["call the bank", "water plants"], "each once, nothing lost")
        self.assertTrue(todos["water plants"]["is_done"], "the change made while the hub was away")
        self.assertFalse(todos["call the bank"]["is_done"])
        self.assert_copied_back(memo)

    def test_with_nothing_waiting_the_pull_meets_the_restored_hub_and_everything_goes_back(self):
        # The pull meets the new epoch (a page of another epoch).
        memo = self.restored_while_away()
        self.restart_server()
        self.driver.execute_script("window.dispatchEvent(new Event('online'))")
        self.wait(lambda d: sorted(self.hub_todos()) == ["call the bank", "water plants"], timeout=20,
                  message=f"the hub: {sorted(self.hub_todos())}")
        self.assert_copied_back(memo)

    def assert_copied_back(self, memo):
        memos = self.server.memoapp("memo", "list")
        self.assertEqual([m["preview"] for m in memos], ["pack the charger"], "the memo comes back once, no conflict copy")
        self.assertEqual(memos[0]["uid"], memo["uid"], "under the uid every device knows it by")

        # The page's copy is the hub's again: nothing waits, the same three
        # items, and a change made now goes out as usual.
        self.wait(lambda d: sorted(self.copy()) == [["memo", "pack the charger", False, False],
                                                    ["todo", "call the bank", False, False],
                                                    ["todo", "water plants", False, False]],
                  message=f"the copy: {self.copy()}")
        self.add_todo("buy stamps")
        self.wait(lambda d: "buy stamps" in self.hub_todos(), message="a change after the copy never arrived")
        self.assertEqual(len(self.hub_todos()), 3)


class EpochCopyEnglish(EpochCopy, BrowserTest):
    expected = {"waiting1": "Offline · 1 change waiting", "synced": "Synced just now"}


class EpochCopyKorean(EpochCopy, BrowserTest):
    language = "ko-KR"
    expected = {"waiting1": "오프라인 · 변경 1개 대기 중", "synced": "방금 동기화됨"}


if __name__ == "__main__":
    unittest.main()
