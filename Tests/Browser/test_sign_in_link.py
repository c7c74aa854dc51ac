"""Signing in another device from the page (issue 30, item 7): the top bar's
"Other device" makes a sign-in link from the page's own address, which signs
a browser with no session in once; a second use of it signs no one in. On a
phone, in both languages."""

import re
import unittest

import axe
from support import BrowserTest


class SignInLink:
    """Mixed into a BrowserTest: `expected` words."""

    def setUp(self):
        super().setUp()
        self.use_viewport(390, 844)
        self.complete_onboarding()

    def make_link(self):
        button = self.css(".topbar .other-device")
        self.assertEqual(button.text, self.expected["button"])
        # Its words whole in the top bar: one line box.
        self.assertEqual(self.driver.execute_script(
            "const r = document.createRange(); r.selectNodeContents(arguments[0]); return r.getClientRects().length", button), 1)
        button.click()
        self.wait(lambda d: self.all(".sign-in-link .link-field"), message="no link was shown")
        dialog = self.css(".sign-in-link")
        self.assertEqual(dialog.find_element("css selector", "h2").text, self.expected["title"])
        return self.css(".sign-in-link .link-field").get_attribute("value"), dialog

    def test_the_link_signs_a_browser_without_a_session_in_once(self):
        link, dialog = self.make_link()
        origin = self.server.url
        self.assertRegex(link, "^" + re.escape(origin) + "/#code=[0-9a-f]{64}$")
        self.assertIn(self.expected["hint"], dialog.text)
        found = axe.violations(self.driver, {"include": [[".sign-in-link"]]})
        self.assertEqual(found, [], axe.describe(found))
        self.language_shot("sign-in-link")
        dialog.find_element("css selector", "form button").click()
        self.wait(lambda d: not self.all(".sign-in-link"), message="the dialog did not close")

        # The other device: a browser with no session and no stored copy.
        self.driver.delete_all_cookies()
        self.driver.execute_script("sessionStorage.clear(); localStorage.removeItem('memoapp.lang')")
        self.driver.get("about:blank")
        self.open_signed_in(link)
        self.wait(lambda d: self.screen() == "main", message="the link did not sign in")
        self.assertEqual(len(self.server.memoapp("token", "sessions")), 2, "the link's maker's, and this one's")

        # Used once: a second browser with the same link stays signed out.
        self.driver.delete_all_cookies()
        self.driver.execute_script("sessionStorage.clear()")
        self.allowed_console.append("/api/v1/")
        self.driver.get("about:blank")
        self.driver.get(link)
        self.wait(lambda d: self.screen() == "signin", message="a used link signed in again")

    def test_when_the_link_cannot_be_made_the_dialog_says_so_and_shows_none(self):
        # Only the link's request fails (Chromium blocks it), so what is
        # tested is the dialog's refusal, not the page's offline state.
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/v1/session/links*"]})
        self.addCleanup(self.driver.execute_cdp_cmd, "Network.setBlockedURLs", {"urls": []})
        self.allowed_console.append("/api/v1/session/links")
        self.css(".topbar .other-device").click()
        self.wait(lambda d: self.all(".sign-in-link .field-note") and self.css(".sign-in-link .field-note").text,
                  message="the failure was not said")
        self.assertFalse(self.all(".sign-in-link .link-field"), "no link was made")
        self.assertNotIn("undefined", self.css(".sign-in-link").text)
        self.assertEqual(self.screen(), "main")


class EnglishPhoneTests(SignInLink, BrowserTest):
    language = "en-US"
    expected = {"button": "Other device", "title": "Sign in on another device", "hint": "It works once."}


class KoreanPhoneTests(SignInLink, BrowserTest):
    language = "ko-KR"
    expected = {"button": "다른 기기", "title": "다른 기기에서 로그인", "hint": "한 번만 쓸 수 있습니다."}


if __name__ == "__main__":
    unittest.main()
