"""Bulk select on the to-do list (issue 30): tick several to-dos, then
complete, delete or tag them all as one change that one Undo reverses. On a
phone and a desktop, in both languages, light and dark, by keyboard too."""

import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

import axe
from support import SCHEME, BrowserTest

TITLES = ["first errand", "second errand", "third errand", "fourth errand", "fifth errand"]


class BulkSelect:
    """Mixed into a BrowserTest: `viewport` (width, height) and `expected`."""

    def setUp(self):
        super().setUp()
        self.use_viewport(*self.viewport)
        # Back to the scheme the driver was made with (MEMOAPP_SCHEME).
        self.scheme = {"features": [{"name": "prefers-color-scheme", "value": SCHEME}]}
        self.addCleanup(self.driver.execute_cdp_cmd, "Emulation.setEmulatedMedia", self.scheme)
        self.complete_onboarding()
        for title in TITLES:
            self.server.memoapp("todo", "add", title)
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 5)

    def stored(self):
        """Each to-do's (title, done, tags), as the command line lists them."""
        listed = self.server.memoapp("todo", "list", "--all")
        return sorted((t["title"], t["is_done"], tuple(t["tags"])) for t in listed)

    def row(self, title):
        return next(li for li in self.all(".todo-list li.todo") if li.find_element("css selector", ".title").text == title)

    def pick(self, title):
        box = self.row(title).find_element("css selector", ".pick")
        # Clear of the sticky bars (a phone's tab bar covers the list's foot).
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        box.click()

    def start(self):
        button = self.css(".select-toggle")
        self.assertEqual(button.text, self.expected["select"])
        button.click()
        self.wait(lambda d: self.all(".bulk-bar") and len(self.all(".todo-list .pick")) == 5)
        return self.css(".bulk-bar")

    def action(self, key):
        return self.css(f".bulk-bar .b-{key}")

    def assert_axe_clean(self, name):
        for scheme in ("light", "dark"):
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                        {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            # The bar and the rows ticked: a row under a phone's sticky tab
            # bar fails target-size wherever it is, ticked or not.
            found = axe.violations(self.driver, {"include": [[".topbar"], [".bulk-bar"], [".todo-list li:has(.pick:checked)"]]})
            self.assertEqual(found, [], f"{scheme}: {axe.describe(found)}")
            self.language_shot(f"{name}-{scheme}")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", self.scheme)

    def test_several_completed_as_one_change_and_one_undo_reopens_all(self):
        before = self.stored()
        self.start()
        # Nothing chosen: nothing to act on.
        self.assertEqual(self.css(".bulk-count").text, self.expected["none"])
        for key in ("done", "tag", "delete"):
            self.assertFalse(self.action(key).is_enabled(), key)
        # The first box has the focus; the done boxes and row buttons are out of the way.
        self.assertTrue(self.driver.execute_script("return document.activeElement.classList.contains('pick')"))
        self.assertFalse(any(box.is_displayed() for box in self.all(".todo-list .check")))
        self.assertEqual(self.row(TITLES[4]).find_element("css selector", ".pick").get_attribute("aria-label"),
                         f"{self.expected['pick']}: {TITLES[4]}")
        # Newest first: fifth, fourth, third, ...
        for title in TITLES[2:]:
            self.pick(title)
        self.assertEqual(self.css(".bulk-count").text, self.expected["three"])
        self.assertEqual(len(self.all(".todo-list .pick:checked")), 3)
        self.assert_axe_clean("bulk-selected")
        self.action("done").click()
        self.wait(lambda d: not self.all(".bulk-bar") and self.css("#toast").is_displayed())
        self.assertEqual(self.css("#toast span").text, self.expected["doneThree"])
        self.assertEqual([t for t, done, _ in self.stored() if done], sorted(TITLES[2:]))
        self.assertTrue(self.css(".select-toggle").is_displayed())
        self.language_shot("bulk-done-toast")
        self.css("#toast button").click()
        self.wait(lambda d: self.stored() == before)
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 5)

    def test_delete_and_tag_many_each_undone_whole(self):
        before = self.stored()
        self.start()
        self.action("all").click()
        self.assertEqual(len(self.all(".todo-list .pick:checked")), 5)
        self.action("all").click()
        self.assertEqual(len(self.all(".todo-list .pick:checked")), 0, "pressed again: none")
        self.pick(TITLES[0])
        self.pick(TITLES[1])
        field = self.css('input[name="bulk-tag"]')
        self.assertEqual(field.get_attribute("aria-label"), self.expected["tags"])
        # Nothing to add: said beside the bar, nothing sent.
        field.send_keys("#")
        self.action("tag").click()
        self.wait(lambda d: self.css(".bulk-bar .form-error").is_displayed())
        self.assertEqual(self.css(".bulk-bar .form-error").text, self.expected["noTag"])
        self.allowed_console.append("/api/v1/todos/batch - Failed to load resource: the server responded with a status of 422")
        # A tag the server refuses (a NEL inside: no space to the page's
        # splitting, a space to the store's rule): its words, nothing changed.
        field.clear()
        field.send_keys("a\u0085b")
        field.send_keys(Keys.ENTER)
        self.wait(lambda d: self.expected["badTag"] in self.css(".bulk-bar .form-error").text)
        self.assertEqual(self.stored(), before)
        self.language_shot("bulk-tag-error")
        field.clear()
        field.send_keys("집 errand", Keys.ENTER)
        self.wait(lambda d: not self.all(".bulk-bar"))
        self.wait(lambda d: self.css("#toast span").text == self.expected["taggedTwo"], message="no toast for the tags")
        self.wait(lambda d: len(self.all('.todo-list button.tag[data-tag="집"]')) == 2)
        self.assertEqual(sorted(t for t, _, tags in self.stored() if tags == ("집", "errand")), sorted(TITLES[:2]))
        self.css("#toast button").click()
        self.wait(lambda d: self.stored() == before)
        # Delete two by keyboard: `x` ticks the focused row's box, `j` moves.
        self.start()
        ActionChains(self.driver).send_keys("x").send_keys("j").send_keys("x").perform()
        self.wait(lambda d: self.css(".bulk-count").text == self.expected["two"], message="two rows were not ticked")
        self.action("delete").click()
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 3)
        self.wait(lambda d: self.css("#toast span").text == self.expected["removedTwo"], message="no toast for the removal")
        self.assertEqual([t for t, _, _ in self.stored()], sorted(TITLES[:3]))
        self.css("#toast button").click()
        self.wait(lambda d: self.stored() == before and len(self.all(".todo-list .todo")) == 5)

    def test_a_row_deleted_elsewhere_leaves_the_selection_and_done_selecting_ends_the_mode(self):
        self.start()
        self.pick(TITLES[4])
        self.pick(TITLES[3])
        self.server.memoapp("todo", "rm", "5")
        self.wait(lambda d: self.css(".bulk-count").text == self.expected["one"])
        # The other rows keep their boxes and the one ticked stays ticked.
        self.assertEqual(len(self.all(".todo-list .pick")), 4)
        self.assertTrue(self.row(TITLES[3]).find_element("css selector", ".pick").is_selected())
        self.action("end").click()
        self.wait(lambda d: not self.all(".bulk-bar") and not self.all(".todo-list .pick"))
        self.assertTrue(self.driver.execute_script(
            "return document.activeElement === document.querySelector('.select-toggle')"))
        self.assertTrue(all(box.is_displayed() for box in self.all(".todo-list .check")))
        self.assertEqual(len(self.all(".todo-list .pick:checked")), 0)


ENGLISH = {"select": "Select", "bar": "Selected to-dos", "none": "0 selected", "one": "1 selected", "two": "2 selected",
           "three": "3 selected", "pick": "Select", "doneThree": "3 done.", "taggedTwo": "2 tagged.",
           "removedTwo": "2 deleted.", "noTag": "Type a tag to add.", "tags": "Tags", "badTag": "a tag is one word"}
KOREAN = {"select": "선택", "bar": "선택한 할 일", "none": "0개 선택됨", "one": "1개 선택됨", "two": "2개 선택됨",
          "three": "3개 선택됨", "pick": "선택", "doneThree": "3개 완료했습니다.", "taggedTwo": "2개에 태그를 붙였습니다.",
          "removedTwo": "2개 삭제했습니다.", "noTag": "추가할 태그를 입력하세요.", "tags": "태그", "badTag": "태그는 공백이나 쉼표 없는 한 단어입니다"}


class EnglishPhoneTests(BulkSelect, BrowserTest):
    language = "en-US"
    viewport = (390, 844)
    expected = ENGLISH


class KoreanPhoneTests(BulkSelect, BrowserTest):
    language = "ko-KR"
    viewport = (390, 844)
    expected = KOREAN


class EnglishDesktopTests(BulkSelect, BrowserTest):
    language = "en-US"
    viewport = (1280, 800)
    expected = ENGLISH


class KoreanDesktopTests(BulkSelect, BrowserTest):
    language = "ko-KR"
    viewport = (1280, 800)
    expected = KOREAN


if __name__ == "__main__":
    unittest.main()
