"""Signing out deletes the page's copy and its queue (store.js): with
changes made offline still waiting, the page says how many are lost and
asks first (signout.js); staying keeps them, and they are sent later. With
none waiting, the browser's own question, as before."""

import unittest

from selenium.webdriver.support import expected_conditions

from phone_app import PhoneApp
from support import BrowserTest
from test_pwa_tabs import HOLD


class SignOutWarning(PhoneApp):
    def sign_out(self):
        self.css(".sign-out").click()

    def test_changes_waiting_are_counted_before_signing_out_and_kept_when_staying(self):
        self.start_controlled()
        self.server.memoapp("todo", "add", "buy milk")
        self.wait(lambda d: len(self.copy()) == 1, message="the copy never held what the server has")
        self.server.stop()
        self.add_todo("bake bread")
        self.add_todo("call mum")
        self.wait(lambda d: self.status() == self.expected["waiting2"], message=f"status: {self.status()!r}")

        self.sign_out()
        dialog = self.wait(lambda d: self.all("dialog.signout-warning[open]"), message="no warning")[0]
        self.assertEqual(dialog.find_element("css selector", "p").text, self.expected["lost2"])
        self.language_shot("signout-warning")
        # Staying (the button that has the focus) keeps everything.
        self.assertEqual(self.driver.switch_to.active_element.text, self.expected["stay"])
        self.driver.switch_to.active_element.click()
        self.wait(lambda d: not self.all("dialog.signout-warning"))
        self.assertEqual(self.screen(), "main")
        self.assertEqual(sum(1 for item in self.copy() if item[3]), 2, "the waiting changes are kept")

        # The server back, but a sync held off (the lock held, as another
        # tab's run would): the changes still wait, and signing out loses them.
        self.driver.execute_async_script(HOLD)
        again = self.restart_server()
        self.sign_out()
        self.wait(lambda d: self.all("dialog.signout-warning[open]"), message="no warning")
        self.css("dialog.signout-warning .sign-out-anyway").click()
        self.wait(lambda d: self.screen() == "signin", message="never signed out")
        self.wait(lambda d: self.copy() == [], message="the copy and its queue were never deleted")
        self.assertEqual([todo["title"] for todo in again.memoapp("todo", "list")], ["buy milk"])

    def test_with_nothing_waiting_the_browser_asks_as_before(self):
        self.start_controlled()
        self.sign_out()
        alert = self.wait(expected_conditions.alert_is_present(), message="no question")
        self.assertEqual(alert.text, self.expected["confirm"])
        alert.dismiss()
        self.assertEqual(self.screen(), "main")
        self.assertFalse(self.all("dialog.signout-warning"))


class SignOutWarningEnglish(SignOutWarning, BrowserTest):
    expected = {"waiting2": "Offline · 2 changes waiting", "stay": "Stay signed in",
                "confirm": "Sign out of memoapp in this browser?",
                "lost2": "2 changes made without the server have not reached it yet. Signing out deletes them from this browser."}


class SignOutWarningKorean(SignOutWarning, BrowserTest):
    language = "ko-KR"
    expected = {"waiting2": "오프라인 · 변경 2개 대기 중", "stay": "로그인 유지",
                "confirm": "이 브라우저에서 memoapp에서 로그아웃할까요?",
                "lost2": "서버 없이 만든 변경 2개가 아직 서버에 닿지 않았습니다. 로그아웃하면 이 브라우저에서 지워집니다."}


if __name__ == "__main__":
    unittest.main()
