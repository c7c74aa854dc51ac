"""Export from the page (issue 30): the top bar's Export downloads the data
home's export document, named by its day, signed in by the cookie alone;
with the session ended it downloads nothing. On a phone and a desktop, in
both languages."""

import json
import shutil
import tempfile
import time
import unittest
from pathlib import Path

import axe
from support import BrowserTest


class Export:
    """Mixed into a BrowserTest: `viewport` and `expected`."""

    def setUp(self):
        super().setUp()
        self.use_viewport(*self.viewport)
        self.downloads = Path(tempfile.mkdtemp(prefix="memoapp-downloads-"))
        self.addCleanup(shutil.rmtree, self.downloads, True)
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior",
                                    {"behavior": "allow", "downloadPath": str(self.downloads)})
        self.complete_onboarding()
        self.server.memoapp("todo", "add", "pack the tent", "--tag", "trip")
        self.server.memoapp("memo", "add", "회의록: 다음 주 월요일")

    def finished(self):
        """The files downloaded whole (Chromium writes `.crdownload` until then)."""
        return [p for p in self.downloads.iterdir() if not p.name.endswith(".crdownload")]

    def test_export_downloads_the_document_named_by_its_day(self):
        link = self.css(".topbar .export-link")
        self.assertEqual(link.text, self.expected["export"])
        self.assertTrue(link.is_displayed())
        # Its words whole in the top bar: one line box.
        self.assertEqual(self.driver.execute_script(
            "const r = document.createRange(); r.selectNodeContents(arguments[0]); return r.getClientRects().length", link), 1)
        found = axe.violations(self.driver, {"include": [[".topbar"]]})
        self.assertEqual(found, [], axe.describe(found))
        self.language_shot("export-link")
        link.click()
        self.wait(lambda d: self.finished(), message="nothing was downloaded")
        [file] = self.finished()
        day = time.strftime("%Y-%m-%d")
        yesterday = time.strftime("%Y-%m-%d", time.localtime(time.time() - 86400))
        self.assertIn(file.name, (f"memoapp-export-{day}.json", f"memoapp-export-{yesterday}.json"))
        document = json.loads(file.read_text(encoding="utf-8"))
        self.assertEqual(document["format"], "memoapp-export")
        self.assertEqual([t["title"] for t in document["todos"]], ["pack the tent"])
        self.assertEqual([m["text"] for m in document["memos"]], ["회의록: 다음 주 월요일"])
        # The page stayed where it was.
        self.assertEqual(self.screen(), "main")

    def test_with_the_session_ended_nothing_is_downloaded(self):
        link = self.css(".topbar .export-link")
        self.driver.delete_cookie("memoapp_session")
        self.allowed_console.append("/api/v1/")
        # At once: the page soon notices the ended session and signs out.
        self.driver.execute_script("arguments[0].click()", link)
        # Signed in again, the same link downloads: that file alone is there
        # once it is whole, so the first click (refused: 401) made none.
        self.open_signed_in(self.server.new_link())
        self.wait(lambda d: self.screen() == "main")
        self.css(".topbar .export-link").click()
        self.wait(lambda d: self.finished(), message="nothing was downloaded")
        self.assertEqual(len(self.finished()), 1, [p.name for p in self.downloads.iterdir()])
        self.assertEqual(json.loads(self.finished()[0].read_text(encoding="utf-8"))["format"], "memoapp-export")


class EnglishPhoneTests(Export, BrowserTest):
    language = "en-US"
    viewport = (390, 844)
    expected = {"export": "Export"}


class KoreanPhoneTests(Export, BrowserTest):
    language = "ko-KR"
    viewport = (390, 844)
    expected = {"export": "내보내기"}


class EnglishDesktopTests(Export, BrowserTest):
    language = "en-US"
    viewport = (1280, 800)
    expected = {"export": "Export"}


class KoreanDesktopTests(Export, BrowserTest):
    language = "ko-KR"
    viewport = (1280, 800)
    expected = {"export": "내보내기"}


if __name__ == "__main__":
    unittest.main()
