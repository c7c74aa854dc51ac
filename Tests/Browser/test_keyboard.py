"""The keyboard (issue 30, item 15): Space on a to-do's box keeps the focus
where the user is; the shortcuts (`/`, `n`, `j`, `k`, `x`, `e`, `?`) when no
text field has the focus, their list in the page's language; a voice memo
trimmed with the keys alone, its waveform's ends reached with Tab. On a
phone and a desktop, in English and Korean."""

import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

import axe
from support import ROOT, BrowserTest

ACTIVE = "const a = document.activeElement; return a ? [a.className, a.name || '', (a.closest('li[data-id]') || {}).dataset?.id || ''] : null"


class Keyboard:
    """Mixed into a BrowserTest: `viewport` and `expected` (the help's words)."""

    def setUp(self):
        super().setUp()
        self.use_viewport(*self.viewport)
        self.complete_onboarding()

    def keys(self, *keys):
        ActionChains(self.driver).send_keys(*keys).perform()

    def active(self):
        return self.driver.execute_script(ACTIVE)

    def blur(self):
        self.driver.execute_script("document.activeElement && document.activeElement.blur()")

    def show_todos(self, count):
        self.css('.tab[data-tab="todos"]').click()
        self.wait(lambda d: len(self.all(".todo-list .todo")) == count)

    def todo(self, todo_id):
        return next(t for t in self.server.memoapp("todo", "list", "--all") if t["id"] == todo_id)

    def test_space_on_a_todos_box_keeps_the_focus(self):
        first = self.server.memoapp("todo", "add", "first")["id"]
        second = self.server.memoapp("todo", "add", "second")["id"]
        self.show_todos(2)
        # Under "Open" the to-do done leaves the list: the focus goes on to
        # the row now in its place, at its box.
        self.css(f'.todo[data-id="{second}"] .check').send_keys(Keys.SPACE)
        self.wait(lambda d: self.todo(second)["is_done"])
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 1)
        self.wait(lambda d: self.active() == ["check", "", str(first)])
        # Under "All" the row stays, made anew: its box keeps the focus.
        self.driver.execute_script("const s = document.querySelector('select[name=status]'); s.value = 'all';"
                                   "s.dispatchEvent(new Event('change'))")
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 2)
        box = self.css(f'.todo[data-id="{first}"] .check')
        box.send_keys(Keys.SPACE)
        self.wait(lambda d: self.todo(first)["is_done"])
        self.wait(lambda d: self.css(f'.todo[data-id="{first}"]').get_attribute("class").find("is-done") >= 0)
        self.wait(lambda d: self.active() == ["check", "", str(first)])
        self.keys(Keys.SPACE)
        self.wait(lambda d: not self.todo(first)["is_done"])
        self.wait(lambda d: "is-done" not in self.css(f'.todo[data-id="{first}"]').get_attribute("class"))
        self.assertEqual(self.active(), ["check", "", str(first)])

    def test_the_shortcuts(self):
        older = self.server.memoapp("todo", "add", "older")["id"]
        newer = self.server.memoapp("todo", "add", "newer")["id"]
        self.show_todos(2)
        self.blur()
        self.keys("/")
        self.wait(lambda d: self.active()[1] == "q")
        self.keys("n")  # typed into the search: no shortcut there
        self.assertEqual(self.css('input[name="q"]').get_attribute("value"), "n")
        self.css('input[name="q"]').clear()
        self.wait(lambda d: self.css("#panel").is_displayed())
        self.blur()
        self.keys("n")
        self.wait(lambda d: self.active()[1] == "title")
        self.blur()
        # j from nowhere: the first row (the newest); then down and up again.
        self.keys("j")
        self.wait(lambda d: self.active() == ["check", "", str(newer)])
        self.keys("j")
        self.wait(lambda d: self.active() == ["check", "", str(older)])
        self.keys("k")
        self.wait(lambda d: self.active() == ["check", "", str(newer)])
        self.keys("x")
        self.wait(lambda d: self.todo(newer)["is_done"])
        self.wait(lambda d: self.active() == ["check", "", str(older)])
        self.keys("e")
        self.wait(lambda d: len(self.all(f'.editor[data-id="{older}"]')) == 1)
        self.css(".editor button:not([type=submit])").click()
        self.wait(lambda d: len(self.all(".editor")) == 0)
        self.blur()
        self.keys("?")
        self.wait(lambda d: len(self.all("dialog.shortcuts[open]")) == 1)
        dialog = self.css("dialog.shortcuts")
        self.assertEqual(dialog.find_element("css selector", "h2").text, self.expected["title"])
        keys = [e.text for e in dialog.find_elements("css selector", "dt")]
        self.assertEqual(keys, ["/", "n", "j", "k", "x", "e", "?"])
        self.assertEqual(dialog.find_elements("css selector", "dd")[1].text, self.expected["n"])
        self.assertEqual(axe.violations(self.driver), [])
        self.language_shot("shortcuts")
        self.keys(Keys.ESCAPE)
        self.wait(lambda d: len(self.all("dialog.shortcuts[open]")) == 0)
        # `n` on another tab: that tab's form, at a field shown (a phone's
        # folded memo form shows its text alone).
        self.css('.tab[data-tab="memos"]').click()
        self.wait(lambda d: self.css("#panel").get_attribute("data-feature") == "memos")
        self.blur()
        self.keys("n")
        self.wait(lambda d: d.execute_script(
            "const a = document.activeElement; return !!a.closest('.memo-form') && a.offsetParent !== null"
            " && ['INPUT', 'TEXTAREA'].includes(a.tagName)"))

    def test_a_voice_memo_trimmed_with_the_keys_alone(self):
        self.server.memoapp("voice", "import", str(ROOT / "fixtures" / "audio" / "tone-mono-16k.wav"))
        self.css('.tab[data-tab="voice"]').click()
        self.wait(lambda d: len(self.all(".voice .trim-start")) == 1)
        self.blur()
        # Reached with Tab from the top of the page.
        for _ in range(60):
            self.keys(Keys.TAB)
            if "trim-start" in self.active()[0]:
                break
        self.assertIn("trim-start", self.active()[0], "Tab never reached the waveform's start")
        start = self.css(".voice .trim-start")
        self.assertEqual(start.get_attribute("aria-label"), self.expected["from"])
        self.assertEqual((start.get_attribute("aria-valuemin"), start.get_attribute("aria-valuemax"),
                          start.get_attribute("aria-valuenow")), ("0", "1", "0"))
        self.keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
        self.wait(lambda d: start.get_attribute("aria-valuenow") == "0.3")
        self.assertEqual(start.get_attribute("aria-valuetext"), "0:00.3")
        self.keys(Keys.TAB)
        end = self.css(".voice .trim-end")
        self.assertIn("trim-end", self.active()[0])
        self.keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
        self.wait(lambda d: end.get_attribute("aria-valuenow") == "0.8")
        trim = self.css(".voice .trim")
        self.wait(lambda d: trim.is_displayed())
        self.assertTrue(trim.text.endswith("0:00.3–0:00.8"), trim.text)
        self.language_shot("voice-trim-keys")
        trim.send_keys(Keys.ENTER)
        self.wait(lambda d: abs(self.server.memoapp("voice", "list")[0]["duration"] - 0.5) < 0.01)


class EnglishPhone(Keyboard, BrowserTest):
    language, viewport = "en-US", (390, 844)
    expected = {"title": "Keyboard shortcuts", "n": "New item on this tab", "from": "Keep from"}


class EnglishDesktop(Keyboard, BrowserTest):
    language, viewport = "en-US", (1280, 800)
    expected = EnglishPhone.expected


class KoreanPhone(Keyboard, BrowserTest):
    language, viewport = "ko-KR", (390, 844)
    expected = {"title": "키보드 단축키", "n": "이 탭에 새 항목", "from": "남길 구간 시작"}


class KoreanDesktop(Keyboard, BrowserTest):
    language, viewport = "ko-KR", (1280, 800)
    expected = KoreanPhone.expected


if __name__ == "__main__":
    unittest.main()
