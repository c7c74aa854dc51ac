"""The top bar on a narrow phone, in both languages: its words stay whole,
signing out asks first, and a server out of reach is said in words."""

import datetime
import unittest

from selenium.webdriver.support import expected_conditions

from support import BrowserTest, Server

# Counts the line boxes of an element's text: 1 when its words are whole.
LINES = """
const range = document.createRange();
range.selectNodeContents(arguments[0]);
const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
return tops.size;
"""


class PhoneTopBar:
    """Mixed into a BrowserTest of one language."""

    def setUp(self):
        super().setUp()
        # The narrowest phone the issue saw words broken on.
        self.use_viewport(360, 780)
        self.complete_onboarding()

    def test_the_top_bar_keeps_its_words_whole(self):
        for selector in (".brand", ".tour-link", ".sign-out", ".lang-switch"):
            element = self.css(selector)
            self.assertEqual(self.driver.execute_script(LINES, element), 1, f"{selector}: {element.text!r} broken")
        self.shot("topbar-phone")

    def test_a_due_reads_in_the_pages_language(self):
        started = datetime.date.today()
        self.server.memoapp("todo", "add", "call", "--due", "tomorrow 18:00")
        self.css('.tab[data-tab="todos"]').click()
        self.wait(lambda d: len(self.all(".todo .due")) == 1)
        if datetime.date.today() != started:
            self.skipTest("midnight passed during the test")
        self.assertEqual(self.css(".todo .due").text, self.expected["tomorrow"])
        self.assertEqual(self.css('input[name="due"]').get_attribute("placeholder"), self.expected["placeholder"])

    def test_signing_out_asks_first(self):
        self.css(".sign-out").click()
        # Asked once the page counted the changes waiting (signout.js).
        alert = self.wait(expected_conditions.alert_is_present())
        self.assertEqual(alert.text, self.expected["confirm"])
        alert.dismiss()
        self.assertEqual(self.screen(), "main", "a tap alone signs nobody out")
        self.css(".sign-out").click()
        self.wait(expected_conditions.alert_is_present()).accept()
        self.wait(lambda d: self.screen() == "signin")

    def test_a_server_out_of_reach_is_said_in_words(self):
        # In one line of words: "reconnecting" while the page has only its
        # connection to go by, "Offline" once it answers from its copy (the
        # two are never shown together: test_pwa).
        def said():
            return [line.text for line in self.all(".connection-status, .sync-status.is-offline") if line.is_displayed()]
        self.assertEqual(said(), [])
        self.server.stop()
        self.allowed_console.append("/api/v1/")
        self.wait(lambda d: said(), message="the server's absence was not said")
        self.assertIn(said(), [[self.expected["offline"]], [self.expected["offlineCopy"]]])
        self.shot("offline-phone")
        again = Server(home=self.server.home, port=self.server.port).start()
        self.addCleanup(again.stop)
        self.wait(lambda d: not said(), timeout=15, message="still said after the server came back")


class EnglishPhoneTests(PhoneTopBar, BrowserTest):
    language = "en-US"
    expected = {"confirm": "Sign out of memoapp in this browser?", "offline": "Connection lost, reconnecting…", "offlineCopy": "Offline",
                "tomorrow": "tomorrow 18:00", "placeholder": "tomorrow 18:00, tonight, fri"}


class KoreanPhoneTests(PhoneTopBar, BrowserTest):
    language = "ko-KR"
    expected = {"confirm": "이 브라우저에서 memoapp에서 로그아웃할까요?", "offline": "연결이 끊겼습니다. 다시 연결하는 중…", "offlineCopy": "오프라인",
                "tomorrow": "내일 18:00", "placeholder": "내일 저녁 7시, 오늘 밤, 금요일"}


if __name__ == "__main__":
    unittest.main()
