"""Due dates on a 390×844 phone, in English and Korean (issue 30, items 1
and 2): what a typed due means shows under the field before it is saved,
with a warning for a date far off; words that are no date are refused
beside the field, briefly, in the page's language, and no message covers
the Add, Save or Start button (the element at a button's centre is the
button). An error of no field is a banner in the top bar, covering
nothing.

The server reads the real clock, so the dates typed are absolute ones
(their year shown unless it is this year's) or relative ones checked by
the time they keep."""

import datetime
import unittest

from support import BrowserTest

# Whether the element at the centre of arguments[0] is it (or inside it):
# nothing is drawn over it.
UNCOVERED = """
const box = arguments[0].getBoundingClientRect();
const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
return hit !== null && (hit === arguments[0] || arguments[0].contains(hit));
"""

DUE_NOTE = '.todo-form label.field:has(input[name="due"]) .field-note'


class DueDates:
    """Mixed into a BrowserTest of one language: `expected` holds its words."""

    def setUp(self):
        super().setUp()
        self.complete_onboarding()
        self.use_viewport(390, 844)
        # The refusals asked for while typing are 400s, which Chromium logs.
        self.allowed_console += ["/api/v1/dates/parse", "/api/v1/timers"]
        self.css('.tab[data-tab="todos"]').click()
        self.wait(lambda d: self.css("#panel").get_attribute("data-feature") == "todos")
        # A title first: a form with nothing in it folds when the focus leaves.
        self.css('input[name="title"]').send_keys("call")
        self.wait(lambda d: self.css('input[name="due"]').is_displayed())

    def note(self):
        return self.css(DUE_NOTE) if self.all(DUE_NOTE) else None

    def wait_note(self, condition, message):
        self.wait(lambda d: self.note() is not None and self.note().is_displayed() and condition(self.note()),
                  message=message)
        return self.note()

    def assert_below(self, note, field):
        self.assertGreaterEqual(note.rect["y"], field.rect["y"] + field.rect["height"] - 1, "the note is under its field")

    def test_a_typed_due_shows_what_it_means_before_it_is_saved(self):
        due = self.css('input[name="due"]')
        # 17 December of next year: never past, never years away, whatever
        # the day the test runs; shown with its year, since not this year's.
        day = datetime.date(datetime.date.today().year + 1, 12, 17)
        due.send_keys(f"{day.isoformat()} 18:00")
        expected = self.expected["dec17"](day)
        note = self.wait_note(lambda n: n.text == expected, f"no preview {expected!r}")
        self.assertIn(note.get_attribute("id"), due.get_attribute("aria-describedby").split())
        self.assertIsNone(note.get_attribute("role"), "a preview is no alert")
        self.assert_below(note, due)
        self.language_shot("dates-preview")
        # The words of the page's language, read by the server's parser.
        due.clear()
        due.send_keys(self.expected["day_after_tomorrow_evening"])
        self.wait_note(lambda n: n.text.endswith(" 19:00") and n.text != expected, "no preview of the Korean words")
        # Saved as previewed.
        self.css(".todo-form button[type=submit]").click()
        self.wait(lambda d: len(self.server.memoapp("todo", "list")) == 1)
        self.assertTrue(self.server.memoapp("todo", "list")[0]["due_local"].endswith(" 19:00"))
        self.wait(lambda d: not self.all(DUE_NOTE) or not self.note().is_displayed(), message="the preview outlived the save")

    def test_a_date_far_off_is_warned_about_and_still_saved(self):
        due = self.css('input[name="due"]')
        due.send_keys("2020-01-01")
        note = self.wait_note(lambda n: self.expected["past"] in n.text, "no warning for a past date")
        self.assertIn(self.expected["past"], note.find_element("css selector", ".preview-warning").text)
        self.language_shot("dates-warning")
        due.clear()
        due.send_keys("2099-06-01")
        self.wait_note(lambda n: self.expected["future"] in n.text, "no warning for a date decades away")
        self.css(".todo-form button[type=submit]").click()
        self.wait(lambda d: len(self.server.memoapp("todo", "list")) == 1, message="a warning refused the save")

    def test_words_that_are_no_date_are_refused_beside_the_field(self):
        due = self.css('input[name="due"]')
        # Long words: the refusal stays short (the input is cut in it).
        due.send_keys("someday " + "maybe " * 30)
        add = self.css(".todo-form button[type=submit]")
        add.click()
        note = self.wait_note(lambda n: "error" in n.get_attribute("class"), "no refusal beside the field")
        self.assertEqual(note.get_attribute("role"), "alert")
        self.assertEqual(due.get_attribute("aria-invalid"), "true")
        self.assertIn(note.get_attribute("id"), due.get_attribute("aria-describedby").split())
        self.assertTrue(note.text.startswith(self.expected["refusal"]), note.text)
        self.assertLess(len(note.text), 130, note.text)
        self.assertLessEqual(note.rect["height"], 80, "at most a few lines on a phone")
        self.assert_below(note, due)
        self.assertFalse(self.css("#toast").is_displayed())
        self.assertTrue(self.driver.execute_script(UNCOVERED, add), "the Add button is covered")
        self.assertEqual(self.driver.switch_to.active_element, due, "the field to correct has the focus")
        self.language_shot("dates-error")
        self.assertEqual(self.server.memoapp("todo", "list"), [], "nothing saved")
        # Typing again takes the refusal away; good words save.
        due.clear()
        due.send_keys("tomorrow 9:00")
        self.wait_note(lambda n: "error" not in n.get_attribute("class") and n.text.endswith(" 09:00"), "no preview again")
        self.assertIsNone(due.get_attribute("aria-invalid"))
        add.click()
        self.wait(lambda d: len(self.server.memoapp("todo", "list")) == 1)

    def test_a_bad_due_in_the_editor_is_refused_beside_it_and_save_stays_clickable(self):
        self.server.memoapp("todo", "add", "call mum", "--due", "2030-01-02")
        self.wait(lambda d: len(self.all(".todo .edit")) == 1)
        self.css(".todo .edit").click()
        self.wait(lambda d: self.all(".editor .edit-due"))
        field = self.css(".editor .edit-due")
        field.clear()
        field.send_keys("저녁 3시" if self.language.startswith("ko") else "evening 7am")
        save = self.css(".editor button[type=submit]")
        save.click()
        note_selector = ".editor .edit-due + .field-note.error"
        self.wait(lambda d: self.all(note_selector) and self.css(note_selector).is_displayed(), message="no refusal in the editor")
        note = self.css(note_selector)
        self.assertTrue(note.text.startswith(self.expected["no_time"]), note.text)
        self.assert_below(note, field)
        self.assertTrue(self.driver.execute_script(UNCOVERED, save), "the Save button is covered")
        self.language_shot("dates-editor-error")
        self.assertEqual(self.server.memoapp("todo", "list")[0]["due_local"], "2030-01-02", "nothing changed")
        field.clear()
        field.send_keys("2030-01-03 7pm")
        save.click()
        self.wait(lambda d: self.server.memoapp("todo", "list")[0]["due_local"] == "2030-01-03 19:00")

    def test_a_bad_duration_is_refused_beside_its_field(self):
        self.css('.tab[data-tab="timers"]').click()
        self.wait(lambda d: self.css("#panel").get_attribute("data-feature") == "timers")
        duration = self.css('input[name="duration"]')
        duration.send_keys("forever")
        start = self.css(".timer-form button[type=submit]")
        start.click()
        selector = '.timer-form label.field:has(input[name="duration"]) .field-note.error'
        self.wait(lambda d: self.all(selector) and self.css(selector).is_displayed(), message="no refusal beside the duration")
        self.assertRegex(self.css(selector).text, self.expected["script"])
        self.assertTrue(self.driver.execute_script(UNCOVERED, start), "the Start button is covered")
        self.language_shot("dates-duration-error")
        self.assertFalse(self.css("#toast").is_displayed())

    def test_an_error_of_no_field_is_a_banner_that_covers_nothing(self):
        message = "x " * 400
        self.driver.execute_script("import('/app/dom.js').then(m => m.errorToast(arguments[0]))", message)
        self.wait(lambda d: self.all(".topbar #error-banner") and self.css("#error-banner").is_displayed())
        banner = self.css("#error-banner")
        self.assertEqual(banner.get_attribute("role"), "alert")
        self.assertLessEqual(banner.rect["height"], 60, "two lines at most, however long the message")
        add = self.css(".todo-form button[type=submit]")
        self.assertTrue(self.driver.execute_script(UNCOVERED, add), "the Add button is covered")
        self.assertGreaterEqual(add.rect["y"], banner.rect["y"] + banner.rect["height"])
        self.language_shot("dates-banner")
        close = self.css("#error-banner button")
        self.assertEqual(close.get_attribute("aria-label"), self.expected["close"])
        close.click()
        self.wait(lambda d: not banner.is_displayed())


class EnglishDueDates(DueDates, BrowserTest):
    language = "en-US"
    expected = {
        "dec17": lambda day: f"{'Mon Tue Wed Thu Fri Sat Sun'.split()[day.weekday()]} 17 Dec {day.year}, 18:00",
        "day_after_tomorrow_evening": "tomorrow evening at 7",
        "past": "2020-01-01 is in the past", "future": "2099-06-01 is more than 5 years away",
        "refusal": "unrecognized date 'someday maybe", "no_time": "there is no time", "close": "Close",
        "script": "[A-Za-z]",
    }


class KoreanDueDates(DueDates, BrowserTest):
    language = "ko-KR"
    expected = {
        "dec17": lambda day: f"{day.year}년 12월 17일 ({'월화수목금토일'[day.weekday()]}) 18:00",
        "day_after_tomorrow_evening": "모레 저녁 7시",
        "past": "2020-01-01은(는) 지난 날짜입니다", "future": "2099-06-01은(는) 5년도 더 뒤입니다",
        "refusal": "날짜 'someday maybe", "no_time": "저녁 3시은(는) 없는 시각입니다", "close": "닫기",
        "script": "[가-힣]",
    }


if __name__ == "__main__":
    unittest.main()
