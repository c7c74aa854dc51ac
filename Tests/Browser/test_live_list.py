"""A long list after "Load more" (issue 30, item 3): a live update, a
check-off, an edit, a delete and a new to-do keep the rows loaded and the
place scrolled to. Only the changed row is made anew; every other row is the
same element as before. On a phone and a desktop, in both languages."""

import unittest

from selenium.webdriver.common.by import By

from support import BrowserTest

# Marks every row element: a row made anew has no mark.
MARK_ROWS = "document.querySelectorAll('.todo-list > li').forEach(li => { li.keptMark = true; });"
UNMARKED = "return [...document.querySelectorAll('.todo-list > li')].filter(li => !li.keptMark).map(li => li.dataset.id);"
# A row's place below the top bar's foot: a toast in the bar (dom.js) moves
# the rows down with it while it shows, rather than lying over them.
TOP = ("return document.querySelector(`.todo-list > li[data-id='${arguments[0]}']`).getBoundingClientRect().top"
       " - document.querySelector('.topbar').getBoundingClientRect().bottom;")


class LoadedRowsStay:
    """Mixed into a BrowserTest: `viewport` (width, height) and `expected`."""

    def setUp(self):
        super().setUp()
        self.use_viewport(*self.viewport)
        self.complete_onboarding()
        todo_txt = self.server.home + "/many.txt"
        with open(todo_txt, "w", encoding="utf-8") as f:
            f.write("".join(f"task {n:03}\n" for n in range(250)))
        self.server.memoapp("todo", "import", "--from", "todotxt", todo_txt)
        self.ids = {t["title"]: t["id"] for t in self.server.memoapp("todo", "list", "--limit", "300")}
        self.css('.tab[data-tab="todos"]').click()
        more = self.css(".load-more")
        self.wait(lambda d: len(self.rows()) == 100 and more.is_displayed())
        self.assertEqual(more.text, self.expected["more"])
        self.press(more)
        self.wait(lambda d: len(self.rows()) == 200)
        self.press(more)
        self.wait(lambda d: len(self.rows()) == 250 and not more.is_displayed())
        # Far down the list, as the user was: task 060 is row 190.
        self.anchor = self.ids["task 060"]
        self.driver.execute_script(
            f"document.querySelector(\".todo-list > li[data-id='{self.anchor}']\").scrollIntoView({{block: 'center'}})")
        self.wait(lambda d: d.execute_script("return window.scrollY") > 5000, message="not scrolled down")
        self.top = self.driver.execute_script(TOP, self.anchor)
        self.driver.execute_script(MARK_ROWS)

    def press(self, button):
        # Brought to the middle first: at the viewport's edge, where the
        # driver would scroll it, a phone's tab bar covers it.
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()

    def rows(self):
        return self.all(".todo-list > li")

    def row(self, title):
        return self.css(f".todo-list > li[data-id='{self.ids[title]}']")

    def assert_in_place(self, count, remade=()):
        """`count` rows, the anchor where it was, and only `remade` made anew."""
        self.assertEqual(len(self.rows()), count)
        self.assertAlmostEqual(self.driver.execute_script(TOP, self.anchor), self.top, delta=1,
                               msg="the place scrolled to moved")
        self.assertEqual(sorted(self.driver.execute_script(UNMARKED)), sorted(str(i) for i in remade))
        self.driver.execute_script(MARK_ROWS)

    def test_a_live_update_changes_its_row_in_place(self):
        self.server.memoapp("todo", "edit", str(self.ids["task 100"]), "--title", "task 100 renamed")
        self.wait(lambda d: self.row("task 100").find_element(By.CSS_SELECTOR, ".title").text == "task 100 renamed")
        self.assert_in_place(250, remade=[self.ids["task 100"]])
        # A to-do removed elsewhere leaves; the rows after it stay loaded.
        self.server.memoapp("todo", "rm", str(self.ids["task 200"]))
        self.wait(lambda d: len(self.rows()) == 249)
        self.assert_in_place(249)
        # A new one comes at the top (the newest first), above the place the
        # user is at, which stays put; the last row loaded waits for "Load more".
        self.server.memoapp("todo", "add", "brand new")
        self.wait(lambda d: self.rows()[0].find_element(By.CSS_SELECTOR, ".title").text == "brand new")
        self.assertTrue(self.css(".load-more").is_displayed())
        self.assert_in_place(249, remade=[self.rows()[0].get_attribute("data-id")])
        self.language_shot("live-list")

    def test_a_check_off_an_edit_and_a_delete_keep_the_rows_and_the_place(self):
        # Checked off: it leaves the open list, nothing else changes.
        self.row("task 059").find_element(By.CSS_SELECTOR, ".check").click()
        self.wait(lambda d: len(self.rows()) == 249)
        self.assertTrue(self.server.memoapp("todo", "show", str(self.ids["task 059"]))["is_done"])
        self.assert_in_place(249)
        # Edited in its row.
        self.row("task 058").find_element(By.CSS_SELECTOR, ".edit").click()
        self.wait(lambda d: len(self.all(".todo-list .editor input")) >= 1)
        # The editor is brought whole into view (its Save button clear of a
        # phone's tab bar): the place is measured from there.
        save = self.css(".todo-list .editor button[type=submit]")
        self.wait(lambda d: d.execute_script(
            "const r = arguments[0].getBoundingClientRect(), tabs = document.querySelector('.tabs').getBoundingClientRect();"
            "return r.bottom <= innerHeight && (innerWidth >= 900 || r.bottom <= tabs.top);", save))
        self.top = self.driver.execute_script(TOP, self.anchor)
        field = self.css(".todo-list .editor input")
        field.clear()
        field.send_keys(self.expected["edited"])
        save.click()
        self.wait(lambda d: not self.all(".todo-list .editor")
                  and self.row("task 058").find_element(By.CSS_SELECTOR, ".title").text == self.expected["edited"])
        self.assert_in_place(249, remade=[self.ids["task 058"]])
        # Deleted, then brought back by the toast's Undo, where it was.
        self.row("task 057").find_element(By.CSS_SELECTOR, ".delete").click()
        self.wait(lambda d: len(self.rows()) == 248)
        self.assert_in_place(248)
        self.wait(lambda d: self.css("#toast button").is_displayed())
        self.assertEqual(self.css("#toast button").text, self.expected["undo"])
        self.css("#toast button").click()
        self.wait(lambda d: len(self.all(f".todo-list > li[data-id='{self.ids['task 057']}']")) == 1)
        self.assert_in_place(248, remade=[self.ids["task 057"]])
        titles = [e.text for e in self.all(".todo-list .title")]
        self.assertEqual(titles.index("task 057") - titles.index("task 060"), 2, "back in its place")


class EnglishDesktopTests(LoadedRowsStay, BrowserTest):
    language = "en-US"
    viewport = (1280, 800)
    expected = {"more": "Load more", "undo": "Undo", "edited": "task 058 edited"}


class KoreanPhoneTests(LoadedRowsStay, BrowserTest):
    language = "ko-KR"
    viewport = (390, 844)
    expected = {"more": "더 보기", "undo": "되돌리기", "edited": "할 일 058 고침"}


class EnglishPhoneTests(LoadedRowsStay, BrowserTest):
    language = "en-US"
    viewport = (390, 844)
    expected = EnglishDesktopTests.expected


class KoreanDesktopTests(LoadedRowsStay, BrowserTest):
    language = "ko-KR"
    viewport = (1280, 800)
    expected = KoreanPhoneTests.expected


if __name__ == "__main__":
    unittest.main()
