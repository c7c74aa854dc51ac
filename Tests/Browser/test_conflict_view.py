"""A conflict made with a real CLI device (issue 28): `memoapp sync` from a
second data home against the served hub changes the lines the hub changed
too, so the hub keeps its text and a conflict copy holds the device's
(docs/sync.md). The page marks the copy, and opened it shows beside its
original (stacked on a phone) with the choice of the text to keep: keeping
the copy puts its text into the original and removes the copy, one Undo
brings both back; keeping the original removes the copy; the CLI device
then syncs to the one memo left."""

import unittest

from selenium.webdriver.common.by import By

from phone_app import CliDevice, PhoneApp
from support import BrowserTest


class ConflictView(PhoneApp):
    def make_conflict(self):
        device = CliDevice(self.server)
        self.addCleanup(device.cleanup)
        original = self.server.memoapp("memo", "add", "shopping\neggs")
        device.sync()
        on_device = device.memos()[0]
        self.server.memoapp("memo", "edit", str(original["id"]), "--text", "shopping\neggs and milk")
        device.run("memo", "edit", str(on_device["id"]), "--text", "shopping\ntwelve eggs")
        device.sync()
        memos = self.server.memoapp("memo", "list")
        self.assertEqual(len(memos), 2, "the device's sync made no conflict copy")
        return device, original

    def open_copy(self):
        self.wait(lambda d: len(self.all(".memo-list .memo")) == 2, message="the copy never listed")
        row = next(row for row in self.all(".memo-list .memo") if row.find_elements(By.CSS_SELECTOR, ".conflict-copy"))
        self.assertEqual(row.find_element(By.CSS_SELECTOR, ".conflict-copy").text, self.expected["copy"])
        row.find_element(By.CSS_SELECTOR, ".open-item").click()
        self.wait(lambda d: len(self.all(".item-view .conflict-side")) == 2, message="the copy never opened beside its original")

    def sides(self):
        return {side.find_element(By.CSS_SELECTOR, "h3").text: side.find_element(By.CSS_SELECTOR, ".markdown").text
                for side in self.all(".item-view .conflict-side")}

    def test_a_cli_devices_conflict_opens_beside_its_original_and_keeping_the_copy_is_one_undo(self):
        self.complete_onboarding()
        device, original = self.make_conflict()
        self.css('.tab[data-tab="memos"]').click()
        self.open_copy()
        # Rendered as Markdown: the two lines are one paragraph.
        self.assertEqual(self.sides(), {self.expected["original"]: "shopping eggs and milk",
                                        self.expected["copy"]: "shopping twelve eggs"})
        # On a phone, stacked: the copy under its original, each as wide as the dialog allows.
        first, second = self.all(".item-view .conflict-side")
        self.assertGreaterEqual(second.rect["y"], first.rect["y"] + first.rect["height"])
        self.assertEqual(first.rect["x"], second.rect["x"])
        self.assertEqual(self.css(".item-view .keep-copy").text, self.expected["keepCopy"])
        self.language_shot("conflict-side-by-side")
        self.css(".item-view .keep-copy").click()
        self.wait(lambda d: not self.all(".item-view"), message="the view stayed open")
        self.wait(lambda d: [m["preview"] for m in self.server.memoapp("memo", "list")] == ["shopping"])
        self.assertEqual(self.server.memoapp("memo", "show", str(original["id"]))["text"], "shopping\ntwelve eggs")
        self.wait(lambda d: len(self.all(".memo-list .memo")) == 1)

        # One Undo: the copy and the original's text both back. (Two steps
        # on the server, undone newest first: the copy is back a moment
        # before the text, so both are waited for.)
        self.css("#toast button").click()
        self.wait(lambda d: len(self.server.memoapp("memo", "list")) == 2, message="the undo never brought the copy back")
        self.wait(lambda d: self.server.memoapp("memo", "show", str(original["id"]))["text"] == "shopping\neggs and milk",
                  message="the undo never brought the original's text back")

        # Then the original kept: the copy goes, and the device follows.
        self.open_copy()
        self.css(".item-view .keep-original").click()
        self.wait(lambda d: len(self.server.memoapp("memo", "list")) == 1, message="the copy was never removed")
        self.assertEqual(self.server.memoapp("memo", "show", str(original["id"]))["text"], "shopping\neggs and milk")
        self.wait(lambda d: len(self.all(".memo-list .memo")) == 1)
        device.sync()
        self.assertEqual([memo["preview"] for memo in device.memos()], ["shopping"])


class ConflictViewEnglish(ConflictView, BrowserTest):
    expected = {"original": "Original", "copy": "Conflict copy", "keepCopy": "Keep the copy"}


class ConflictViewKorean(ConflictView, BrowserTest):
    language = "ko-KR"
    expected = {"original": "원본", "copy": "충돌 사본", "keepCopy": "사본 남기기"}


if __name__ == "__main__":
    unittest.main()
