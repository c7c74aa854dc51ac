"""Tags that filter when tapped, and one search for everything (issue 30,
item 14). On a phone and a desktop, in both languages."""

import unittest

from selenium.webdriver.common.keys import Keys

from support import ROOT, BrowserTest


class TagsAndSearch:
    """Mixed into a BrowserTest: `viewport` (width, height) and `expected`."""

    def setUp(self):
        super().setUp()
        self.use_viewport(*self.viewport)
        self.complete_onboarding()
        self.server.memoapp("todo", "add", "water the rye", "--tag", "garden")
        self.server.memoapp("todo", "add", "pay rent", "--tag", "home")
        self.server.memoapp("todo", "add", "fix the gate", "--tag", "garden", "--tag", "home")
        self.server.memoapp("memo", "add", "# Rye bread\n\n- [ ] flour", "--tag", "baking")
        self.server.memoapp("memo", "add", "seed list", "--tag", "garden")
        self.server.memoapp("voice", "import", str(ROOT / "fixtures" / "audio" / "tone-mono-16k.wav"),
                            "--title", "rye field song", "--tag", "music")
        self.server.memoapp("voice", "import", str(ROOT / "fixtures" / "audio" / "beep.mp3"), "--title", "beep")

    def open_tab(self, name):
        self.css(f'.tab[data-tab="{name}"]').click()
        self.wait(lambda d: self.css("#panel").get_attribute("data-feature") == name)

    def titles(self, selector):
        return [e.text for e in self.all(selector)]

    def test_a_tapped_tag_shows_its_list(self):
        self.open_tab("todos")
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 3)
        self.css('.todo-list .todo button.tag[data-tag="garden"]').click()
        self.wait(lambda d: self.titles(".todo-list .todo .title") == ["fix the gate", "water the rye"])
        self.assertEqual(self.css('input[name="tag-filter"]').get_attribute("value"), "garden")
        if self.viewport[0] < 700:
            self.assertIn("#garden", self.css(".filters-toggle").text)
        self.language_shot("tag-todos")
        # A memo's tag, in its list and in the memo opened.
        self.open_tab("memos")
        self.wait(lambda d: len(self.all(".memo-list .memo")) == 2)
        self.css('.memo-list button.tag[data-tag="garden"]').click()
        self.wait(lambda d: self.titles(".memo-list .preview") == ["seed list"])
        chip = self.css(".tag-chip")
        self.assertTrue(chip.text.startswith("#garden"))
        self.assertEqual(self.css(".tag-chip-clear").get_attribute("aria-label"), self.expected["clearTag"])
        self.css(".tag-chip-clear").click()
        self.wait(lambda d: len(self.all(".memo-list .memo")) == 2 and not chip.is_displayed())
        self.css('.memo-list .memo:last-child .open-item').click()
        self.wait(lambda d: len(self.all('dialog.item-view button.tag[data-tag="baking"]')) == 1)
        self.css('dialog.item-view button.tag[data-tag="baking"]').click()
        self.wait(lambda d: not self.all("dialog.item-view") and len(self.all(".memo-list .memo")) == 1)
        self.assertIn("Rye bread", self.css(".memo-list .preview").text)
        self.assertTrue(self.css(".tag-chip").text.startswith("#baking"))

    def test_a_voice_memos_tag_shows_its_list(self):
        self.open_tab("voice")
        self.wait(lambda d: len(self.all(".voice-list .voice")) == 2)
        self.css('.voice-list button.tag[data-tag="music"]').click()
        self.wait(lambda d: self.titles(".voice-list .voice .title") == ["rye field song"])
        self.assertTrue(self.css(".tag-chip").text.startswith("#music"))
        self.css(".tag-chip-clear").click()
        self.wait(lambda d: len(self.all(".voice-list .voice")) == 2)

    def test_one_search_for_everything_from_any_tab(self):
        self.open_tab("timers")
        field = self.css('.topbar input[name="q"]')
        if self.viewport[0] < 900:
            self.assertFalse(field.is_displayed(), "a phone's search waits behind its button")
            self.css(".search-opener").click()
            self.wait(lambda d: field.is_displayed())
        self.assertEqual(field.get_attribute("placeholder"), self.expected["search"])
        field.send_keys("rye")
        self.wait(lambda d: len(self.all(".hit-list .hit")) == 3)
        self.assertFalse(self.css("#panel").is_displayed(), "the hits take the panel's place")
        kinds = sorted(e.get_attribute("textContent") for e in self.all(".hit-list .kind"))
        self.assertEqual(kinds, sorted(self.expected["kinds"]))
        self.assertEqual(len(self.all(".hit-list mark")), 3)
        self.language_shot("search")
        self.css(".hit-list .hit-voice .open-item").click()
        self.wait(lambda d: len(self.all("dialog.item-view.view-voice audio")) == 1)
        self.assertEqual(self.css("dialog.item-view .view-title").text, "rye field song")
        self.css("dialog.item-view .view-close").click()
        self.wait(lambda d: not self.all("dialog.item-view"))
        # A change made elsewhere shows in the hits at once.
        self.server.memoapp("todo", "add", "rye harvest")
        self.wait(lambda d: len(self.all(".hit-list .hit")) == 4)
        # Escape leaves the search: the tab comes back as it was.
        field.send_keys(Keys.ESCAPE)
        self.wait(lambda d: self.css("#panel").is_displayed() and not self.all(".search-results:not([hidden])"))
        self.assertEqual(self.css("#panel").get_attribute("data-feature"), "timers")


class EnglishPhoneTests(TagsAndSearch, BrowserTest):
    language = "en-US"
    viewport = (390, 844)
    expected = {"clearTag": "Show every tag", "search": "Search everything", "kinds": ["To-dos", "Memos", "Voice"]}


class KoreanDesktopTests(TagsAndSearch, BrowserTest):
    language = "ko-KR"
    viewport = (1280, 800)
    expected = {"clearTag": "모든 태그 보기", "search": "모두 검색", "kinds": ["할 일", "메모", "음성 메모"]}


class EnglishDesktopTests(TagsAndSearch, BrowserTest):
    language = "en-US"
    viewport = (1280, 800)
    expected = EnglishPhoneTests.expected


class KoreanPhoneTests(TagsAndSearch, BrowserTest):
    language = "ko-KR"
    viewport = (390, 844)
    expected = KoreanDesktopTests.expected


if __name__ == "__main__":
    unittest.main()
