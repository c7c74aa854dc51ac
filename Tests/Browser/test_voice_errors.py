"""Audio refused by the page's upload (issue 30, item 17): said in the
page's language, naming no decoding library, with no English inside the
Korean. On a phone and a desktop, in English and Korean."""

import re
import unittest

from support import ROOT, BrowserTest

# Not audio at all, and an M4A whose audio is cut short in its middle.
FILES = ["not-audio.wav", "truncated.m4a"]


class VoiceErrors:
    """Mixed into a BrowserTest: `viewport` and `expected` (a fragment of
    each file's refusal)."""

    def setUp(self):
        super().setUp()
        self.use_viewport(*self.viewport)
        self.allowed_console.append("/api/v1/voice")  # the 422 itself
        self.complete_onboarding()
        self.css('.tab[data-tab="voice"]').click()
        self.wait(lambda d: self.css("#panel").get_attribute("data-feature") == "voice")

    def test_refused_audio_is_told_in_the_pages_language(self):
        for name in FILES:
            self.css('input[name="audio"]').send_keys(str(ROOT / "fixtures" / "audio" / name))
            self.css(".voice-form button[type=submit]").click()
            # Beside the form's buttons, not over the page; the next file
            # chosen takes it away.
            self.wait(lambda d: self.all(".voice-form .form-error") and self.css(".voice-form .form-error").is_displayed()
                      and self.css(".voice-form .form-error").text.startswith(name),
                      message=f"{name}: no error shown")
            self.assertFalse(self.css("#toast").is_displayed())
            text = self.css(".voice-form .form-error").text
            self.assertTrue(text.startswith(name + ": "), text)
            self.assertIn(self.expected[name], text)
            self.assertNotRegex(text, re.compile("libsndfile|ffmpeg", re.IGNORECASE))
            if self.language.startswith("ko"):
                # Past the file's own name, no English word (memoapp is a name).
                self.assertNotRegex(text[len(name):].replace("memoapp", ""), "[A-Za-z]", text)
            self.language_shot(f"voice-refused-{name.split('.')[0]}")
        self.assertEqual(self.server.memoapp("voice", "list"), [])


ENGLISH = {"not-audio.wav": "not audio memoapp can read", "truncated.m4a": "it is corrupt: decoding stopped after"}
KOREAN = {"not-audio.wav": "memoapp이 읽을 수 있는 오디오가 아닙니다", "truncated.m4a": "손상된 파일입니다"}


class EnglishPhone(VoiceErrors, BrowserTest):
    language, viewport, expected = "en-US", (390, 844), ENGLISH


class EnglishDesktop(VoiceErrors, BrowserTest):
    language, viewport, expected = "en-US", (1280, 800), ENGLISH


class KoreanPhone(VoiceErrors, BrowserTest):
    language, viewport, expected = "ko-KR", (390, 844), KOREAN


class KoreanDesktop(VoiceErrors, BrowserTest):
    language, viewport, expected = "ko-KR", (1280, 800), KOREAN


if __name__ == "__main__":
    unittest.main()
