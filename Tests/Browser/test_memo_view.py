"""The memo view (issue 30, item 5): a memo opens when tapped, its Markdown
rendered (headings, lists, task lists, links, code) with no HTML of the
memo's reaching the page; ticking a task edits the memo's text with
If-Match; search hits open their item. On a phone and a desktop, in both
languages."""

import unittest

from selenium.webdriver.common.by import By

from support import BrowserTest

MEMO = "\n".join([
    "# 장보기 Shopping",
    "",
    "Some *words* and **more**, `code`, and [a link](https://example.org/x).",
    "",
    "- [ ] milk",
    "- [x] bread",
    "  - [ ] nested rye",
    "",
    "1. first",
    "2. second",
    "",
    "```",
    "<b>not bold</b>",
    "```",
    "",
    "<script>window.pwned = 1</script>",
    "<img src=x onerror=\"window.pwned = 2\">",
    "[bad](javascript:window.pwned=3) and <a href=\"/elsewhere\">raw</a>",
    "",
    "> quoted",
])


class MemoView:
    """Mixed into a BrowserTest: `viewport` (width, height) and `expected`."""

    def setUp(self):
        super().setUp()
        self.use_viewport(*self.viewport)
        self.complete_onboarding()
        self.memo = self.server.memoapp("memo", "add", MEMO, "--tag", "food")
        self.css('.tab[data-tab="memos"]').click()
        self.wait(lambda d: len(self.all(".memo-list .memo")) == 1)

    def open_memo(self):
        self.css(".memo-list .memo .open-item").click()
        self.wait(lambda d: len(self.all("dialog.item-view .markdown")) == 1)
        return self.css("dialog.item-view")

    def test_a_memo_opens_with_its_markdown_rendered_and_nothing_raw(self):
        view = self.open_memo()
        self.assertTrue(view.is_displayed())
        article = view.find_element(By.CSS_SELECTOR, ".markdown")
        self.assertEqual(article.find_element(By.CSS_SELECTOR, "h1").text, "장보기 Shopping")
        self.assertEqual(article.find_element(By.CSS_SELECTOR, "em").text, "words")
        self.assertEqual(article.find_element(By.CSS_SELECTOR, "strong").text, "more")
        self.assertEqual(article.find_element(By.CSS_SELECTOR, "p code").text, "code")
        self.assertEqual([li.text for li in article.find_elements(By.CSS_SELECTOR, "ol > li")], ["first", "second"])
        self.assertEqual(article.find_element(By.CSS_SELECTOR, "pre code").text, "<b>not bold</b>")
        self.assertEqual(article.find_element(By.CSS_SELECTOR, "blockquote").text, "quoted")
        links = article.find_elements(By.CSS_SELECTOR, "a")
        self.assertEqual([a.get_attribute("href") for a in links], ["https://example.org/x"],
                         "only the http link is a link")
        # Task items: a box each, checked as written, the mark taken off the text.
        boxes = article.find_elements(By.CSS_SELECTOR, "li.task > .task-check")
        self.assertEqual([b.is_selected() for b in boxes], [False, True, False])
        self.assertTrue(article.find_element(By.CSS_SELECTOR, "li.task").text.startswith("milk"))
        # The memo's HTML is text: no element of its, no script run.
        for tag in ("script", "img", "b"):
            self.assertEqual(article.find_elements(By.TAG_NAME, tag), [], tag)
        self.assertIn("<script>window.pwned = 1</script>", article.text)
        self.assertIn('<a href="/elsewhere">raw</a>', article.text)
        self.assertIsNone(self.driver.execute_script("return window.pwned"))
        self.assertEqual(view.find_element(By.CSS_SELECTOR, ".view-close").text, self.expected["close"])
        self.language_shot("memo-view")
        view.find_element(By.CSS_SELECTOR, ".view-close").click()
        self.wait(lambda d: len(self.all("dialog.item-view")) == 0)

    def test_ticking_a_task_edits_the_memos_text(self):
        view = self.open_memo()
        view.find_elements(By.CSS_SELECTOR, ".task-check")[0].click()
        self.wait(lambda d: "- [x] milk" in self.server.memoapp("memo", "show", "1")["text"])
        text = self.server.memoapp("memo", "show", "1")["text"]
        self.assertEqual(text, MEMO.replace("- [ ] milk", "- [x] milk"), "that mark alone changed")
        # The nested one, unticking the middle one too.
        self.wait(lambda d: not self.all("dialog.item-view.saving"))
        self.css("dialog.item-view li.task li.task > .task-check").click()
        self.wait(lambda d: "  - [x] nested rye" in self.server.memoapp("memo", "show", "1")["text"])
        self.wait(lambda d: not self.all("dialog.item-view.saving"))
        boxes = self.all("dialog.item-view .task-check")
        boxes[1].click()
        self.wait(lambda d: "- [ ] bread" in self.server.memoapp("memo", "show", "1")["text"])
        self.wait(lambda d: [b.is_selected() for b in self.all("dialog.item-view .task-check")] == [True, False, True])

    def test_a_tick_on_a_memo_changed_elsewhere_is_refused_and_shown_anew(self):
        # No live events in this tab (its stream is blocked), so the view
        # keeps the version it opened while the terminal changes the memo.
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/v1/events*"]})
        self.addCleanup(self.driver.execute_cdp_cmd, "Network.setBlockedURLs", {"urls": []})
        self.allowed_console += ["/api/v1/events", "/api/v1/memos/1 - Failed to load resource: the server responded "
                                                   "with a status of 412"]
        self.driver.refresh()
        self.wait(lambda d: self.css("body").get_attribute("data-ready") == "true")
        self.wait(lambda d: len(self.all(".memo-list .memo")) == 1)
        view = self.open_memo()
        self.server.memoapp("memo", "edit", "1", "--text", MEMO.replace("milk", "oat milk"))
        view.find_elements(By.CSS_SELECTOR, ".task-check")[0].click()
        # Refused (If-Match names the version shown): nothing written, the
        # memo shown as it is now, and the user told.
        self.wait(lambda d: "oat milk" in self.css("dialog.item-view .markdown").text)
        self.assertEqual(self.css("dialog.item-view .view-note").text, self.expected["changed"])
        self.assertEqual(self.server.memoapp("memo", "show", "1")["text"], MEMO.replace("milk", "oat milk"))
        self.assertFalse(self.all("dialog.item-view .task-check")[0].is_selected())
        self.all("dialog.item-view .task-check")[0].click()
        self.wait(lambda d: "- [x] oat milk" in self.server.memoapp("memo", "show", "1")["text"])

    def test_the_view_follows_changes_made_elsewhere(self):
        self.open_memo()
        self.server.memoapp("memo", "edit", "1", "--text", "# Changed\n\n- [x] done elsewhere")
        self.wait(lambda d: self.css("dialog.item-view .markdown h1").text == "Changed")
        self.assertTrue(self.css("dialog.item-view .task-check").is_selected())
        self.server.memoapp("memo", "rm", "1")
        self.wait(lambda d: self.css("dialog.item-view .view-note").text == self.expected["gone"])
        self.css("dialog.item-view .view-close").click()
        self.wait(lambda d: not self.all("dialog.item-view") and not self.all(".memo-list .memo"))

    def test_search_hits_open_their_item(self):
        self.server.memoapp("todo", "add", "buy rye bread", "--due", "2031-12-18")
        search = self.css('input[name="q"]')
        if not search.is_displayed():  # a phone's is behind a button
            self.css(".search-opener").click()
        search.send_keys("rye")
        self.wait(lambda d: len(self.all(".hit-list .hit")) == 2)
        self.css(".hit-list .hit-memo .open-item").click()
        self.wait(lambda d: len(self.all("dialog.item-view.view-memo .markdown h1")) == 1)
        self.css("dialog.item-view .view-close").click()
        self.wait(lambda d: len(self.all("dialog.item-view")) == 0)
        self.css(".hit-list .hit-todo .open-item").click()
        self.wait(lambda d: len(self.all("dialog.item-view.view-todo .check")) == 1)
        self.assertEqual(self.css("dialog.item-view .view-title").text, "buy rye bread")
        self.assertEqual(self.css("dialog.item-view .due").text, self.expected["due"])
        self.language_shot("todo-view")
        self.css("dialog.item-view .check").click()
        self.wait(lambda d: self.server.memoapp("todo", "show", "1")["is_done"])


class EnglishPhoneTests(MemoView, BrowserTest):
    language = "en-US"
    viewport = (390, 844)
    expected = {"close": "Close", "due": "18 Dec 2031", "gone": "This was deleted.",
                "changed": "This memo was changed elsewhere: here it is as it is now. Tick again if you still want to."}


class KoreanDesktopTests(MemoView, BrowserTest):
    language = "ko-KR"
    viewport = (1280, 800)
    expected = {"close": "닫기", "due": "2031년 12월 18일", "gone": "삭제되었습니다.",
                "changed": "다른 곳에서 바뀐 메모입니다. 지금 내용을 보여 줍니다. 그래도 바꾸려면 다시 체크하세요."}


class KoreanPhoneTests(MemoView, BrowserTest):
    language = "ko-KR"
    viewport = (390, 844)
    expected = KoreanDesktopTests.expected


class EnglishDesktopTests(MemoView, BrowserTest):
    language = "en-US"
    viewport = (1280, 800)
    expected = EnglishPhoneTests.expected


if __name__ == "__main__":
    unittest.main()
