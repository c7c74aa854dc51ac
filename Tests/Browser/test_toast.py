"""The toast ("Deleted · Undo") covers no control (issue 30, item 1's rule):
it is in the top bar, as the error banner, so at a phone's size the rows,
the add form and the tab bar stay tappable under it, scrolled or not. In
both languages."""

import unittest

from support import BrowserTest

# Every control on the screen that the toast lies over, wholly or in part:
# where a tap meant for it would land on the toast instead. Those whose top
# was above arguments[0] (under the sticky top bar, scrolled away) are not
# counted: the bar hid them before there was a toast.
COVERED = """
const shownFrom = arguments[0] ?? -Infinity;
const toast = document.getElementById('toast');
const over = toast.getBoundingClientRect();
const covered = [];
for (const control of document.querySelectorAll('button, input, select, textarea, a[href], [tabindex]')) {
  if (toast.contains(control) || control.dataset.shownTop < shownFrom) continue;
  const box = control.getBoundingClientRect();
  const left = Math.max(box.left, over.left, 0), right = Math.min(box.right, over.right, innerWidth);
  const top = Math.max(box.top, over.top, 0), bottom = Math.min(box.bottom, over.bottom, innerHeight);
  if (right - left < 1 || bottom - top < 1) continue;
  for (const fx of [0.1, 0.5, 0.9]) for (const fy of [0.1, 0.5, 0.9]) {
    const hit = document.elementFromPoint(left + (right - left) * fx, top + (bottom - top) * fy);
    if (hit && toast.contains(hit) && !covered.includes(control)) covered.push(control);
  }
}
return covered.map(control => control.outerHTML.slice(0, 90));
"""


class ToastCoversNothing:
    """Mixed into a BrowserTest: `expected`."""

    def setUp(self):
        super().setUp()
        self.use_viewport(390, 844)
        self.complete_onboarding()
        for number in range(1, 16):
            # Tagged: a row's tags are buttons across its width.
            self.server.memoapp("todo", "add", f"errand {number:02}", "--tag", "home", "--tag", "errands")
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 15)

    def top(self, element):
        return self.driver.execute_script("return arguments[0].getBoundingClientRect().top", element)

    def delete(self, title):
        row = next(li for li in self.all(".todo-list li.todo") if li.find_element("css selector", ".title").text == title)
        row.find_element("css selector", ".delete").click()
        self.wait(lambda d: self.css("#toast").is_displayed())
        self.assertEqual(self.css("#toast span").text, self.expected["removed"])

    def test_the_toast_covers_no_control_at_the_top_of_the_list(self):
        self.delete("errand 13")
        self.assertEqual(self.driver.execute_script(COVERED), [])
        self.assertTrue(self.all(".topbar > #toast"), "in the top bar")
        # What the bottom of the screen holds stays tappable: the rows and tabs there.
        self.assertEqual(self.driver.execute_script(
            "const hit = document.elementFromPoint(innerWidth / 2, innerHeight - 20); return !!hit.closest('.tabs')"), True)
        self.language_shot("toast-top")
        self.css("#toast button").click()
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 15)

    def test_scrolled_the_rows_stay_put_and_uncovered(self):
        self.driver.execute_script("window.scrollTo(0, 500)")
        rows = self.all(".todo-list li.todo")
        bar = self.css(".topbar")
        below = self.driver.execute_script("return arguments[0].getBoundingClientRect().bottom", bar)
        # The first row wholly under the bar, and the one after it, whose delete is pressed.
        first = next(row for row in rows if self.top(row) >= below)
        before = self.top(first)
        # Where each control was before the toast: those under the bar then are not its doing.
        self.driver.execute_script("document.querySelectorAll('button, input, select, a[href]').forEach("
                                   "c => { c.dataset.shownTop = c.getBoundingClientRect().top; })")
        target = rows[rows.index(first) + 1].find_element("css selector", ".title").text
        self.delete(target)
        self.assertEqual(self.driver.execute_script(COVERED, below), [])
        # The row did not slide under the taller bar: it is where it was, or lower.
        self.wait(lambda d: self.driver.execute_script(
            "return arguments[0].getBoundingClientRect().bottom", bar) <= self.top(first) + 0.5)
        self.assertGreaterEqual(self.top(first), before - 0.5)
        self.language_shot("toast-scrolled")
        # Undone, the toast goes and the row is back where it was.
        self.css("#toast button").click()
        self.wait(lambda d: len(self.all(".todo-list .todo")) == 15 and not self.css("#toast").is_displayed())
        self.assertAlmostEqual(self.top(first), before, delta=0.5)


class EnglishTests(ToastCoversNothing, BrowserTest):
    language = "en-US"
    expected = {"removed": "To-do deleted."}


class KoreanTests(ToastCoversNothing, BrowserTest):
    language = "ko-KR"
    expected = {"removed": "할 일을 삭제했습니다."}


if __name__ == "__main__":
    unittest.main()
