"""Room for the list (issue 30, item 12): on a 390×844 phone the add forms
fold behind their first field and the to-do filters behind one button; on a
desktop everything shows and the side navigation stays in view however far
the list scrolls. In both languages."""

import unittest

from selenium.webdriver.support.ui import Select

from support import BrowserTest

# How many rows of the list are wholly on screen, between the bars.
ROWS_IN_VIEW = """
const top = document.querySelector('.topbar').getBoundingClientRect().bottom;
const tabs = document.querySelector('.tabs').getBoundingClientRect();
const bottom = innerWidth < 900 ? tabs.top : innerHeight;
return [...document.querySelectorAll(arguments[0])]
  .filter(e => { const r = e.getBoundingClientRect(); return r.top >= top && r.bottom <= bottom; }).length;
"""


class Layout:
    """Mixed into a BrowserTest: `expected` words."""

    def setUp(self):
        super().setUp()
        self.complete_onboarding()
        for n in range(30):
            self.server.memoapp("todo", "add", f"errand {n:02}", "--tag", "home" if n % 2 else "work")

    def open_tab(self, name):
        self.css(f'.tab[data-tab="{name}"]').click()
        self.wait(lambda d: self.css("#panel").get_attribute("data-feature") == name)

    def test_a_phone_folds_the_todo_form_and_filters(self):
        self.use_viewport(390, 844)
        self.open_tab("todos")
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 30)
        title = self.css('input[name="title"]')
        self.assertTrue(title.is_displayed())
        self.assertEqual(title.get_attribute("placeholder"), self.expected["newTodo"])
        for hidden in ('input[name="due"]', 'select[name="priority"]', 'input[name="tags"]', ".todo-form .more",
                       'select[name="status"]', 'select[name="sort"]'):
            self.assertFalse(self.css(hidden).is_displayed(), hidden)
        toggle = self.css(".filters-toggle")
        self.assertEqual(toggle.text, self.expected["filters"])
        self.assertGreaterEqual(self.driver.execute_script(ROWS_IN_VIEW, ".todo-list .todo"), 6,
                                "the list has the screen")
        self.language_shot("phone-folded")
        # The title tapped: the whole form; a to-do added with a due.
        title.click()
        self.wait(lambda d: self.css('input[name="due"]').is_displayed())
        title.send_keys("call mum")
        self.css('input[name="due"]').send_keys("2031-12-18")
        self.css(".todo-form button[type=submit]").click()
        self.wait(lambda d: self.all(".todo-list .todo .title")[0].text == "call mum")
        self.assertIsNotNone(self.server.memoapp("todo", "show", "31")["due_at"])
        self.language_shot("phone-unfolded")
        # Left with nothing entered, it folds again.
        self.css(".todo-list .todo .title").click()
        self.wait(lambda d: not self.css('input[name="due"]').is_displayed())
        # The filters open from their one button, which then says what they hold.
        toggle.click()
        self.wait(lambda d: self.css('select[name="status"]').is_displayed())
        self.assertEqual(toggle.get_attribute("aria-expanded"), "true")
        Select(self.css('select[name="status"]')).select_by_value("done")
        self.wait(lambda d: self.all(".todo-list .todo") == [])
        self.assertEqual(toggle.text, self.expected["filtersDone"])
        self.language_shot("phone-filters")

    def test_a_box_tapped_while_the_form_is_open_is_ticked(self):
        # The form folds when the focus leaves it; were it to fold at the
        # tap's start, the box would move from under the finger and the tap
        # would tick nothing.
        self.use_viewport(390, 844)
        self.open_tab("todos")
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 30)
        self.css('input[name="title"]').click()
        self.wait(lambda d: self.css('input[name="due"]').is_displayed())
        box = self.css(".todo-list .todo .check")
        box.click()
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 29, message="the tapped box was not ticked")
        self.wait(lambda d: not self.css('input[name="due"]').is_displayed(), message="the form did not fold after the tap")
        self.assertEqual(sum(todo["is_done"] for todo in self.server.memoapp("todo", "list", "--all")), 1)

    def test_a_phone_folds_the_memo_form_behind_its_text(self):
        self.use_viewport(390, 844)
        self.open_tab("memos")
        text = self.css('textarea[name="memo-text"]')
        self.assertTrue(text.is_displayed())
        self.assertFalse(self.css('input[name="memo-title"]').is_displayed())
        self.assertFalse(self.css(".memo-form button[type=submit]").is_displayed())
        self.assertLess(self.css(".memo-form").size["height"], 90)
        text.click()
        self.wait(lambda d: self.css(".memo-form button[type=submit]").is_displayed())
        text.send_keys("우유 사기")
        self.css(".memo-form button[type=submit]").click()
        self.wait(lambda d: len(self.all(".memo-list .memo")) == 1)

    def test_a_desktop_shows_everything_and_keeps_its_navigation(self):
        self.use_viewport(1280, 800)
        self.open_tab("todos")
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 30)
        for shown in ('input[name="due"]', 'select[name="priority"]', 'select[name="status"]', 'select[name="sort"]'):
            self.assertTrue(self.css(shown).is_displayed(), shown)
        self.assertFalse(self.css(".filters-toggle").is_displayed())
        tab = self.css('.tab[data-tab="memos"]')
        top = "return arguments[0].getBoundingClientRect().top"
        before = self.driver.execute_script(top, tab)
        self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        self.wait(lambda d: d.execute_script("return window.scrollY") > 1000)
        self.assertAlmostEqual(self.driver.execute_script(top, tab), before, delta=0.5,
                               msg="the side navigation did not move")
        self.language_shot("desktop-scrolled")
        tab.click()
        self.wait(lambda d: self.css("#panel").get_attribute("data-feature") == "memos")


class EnglishLayoutTests(Layout, BrowserTest):
    language = "en-US"
    expected = {"newTodo": "New to-do", "filters": "Filters: Open · Newest", "filtersDone": "Filters: Done · Newest"}


class KoreanLayoutTests(Layout, BrowserTest):
    language = "ko-KR"
    expected = {"newTodo": "새 할 일", "filters": "필터: 할 일 · 최신순", "filtersDone": "필터: 완료 · 최신순"}


if __name__ == "__main__":
    unittest.main()
