"""Voice memos in a real browser: upload with progress, the waveform from
stored peaks, seeking, renaming, trimming a selected stretch, recording."""

import unittest

from selenium.webdriver.common.action_chains import ActionChains

from support import ROOT, BrowserTest


class VoiceTests(BrowserTest):
    def setUp(self):
        super().setUp()
        self.complete_onboarding()
        self.css('.tab[data-tab="voice"]').click()
        self.wait(lambda d: self.css("#panel").get_attribute("data-feature") == "voice")

    def titles(self):
        return [e.text for e in self.all(".voice-list .voice .title")]

    def inked_columns(self):
        return self.driver.execute_script("""
            const c = document.querySelector('.voice .waveform'), g = c.getContext('2d');
            const d = g.getImageData(0, 0, c.width, c.height).data; let n = 0;
            for (let x = 0; x < c.width; x++) for (let y = 0; y < c.height; y++) if (d[(y * c.width + x) * 4 + 3]) { n++; break; }
            return n;""")

    def test_upload_waveform_seek_rename_and_trim(self):
        self.css('input[name="audio"]').send_keys(str(ROOT / "fixtures" / "audio" / "tone-mono-16k.wav"))
        self.css('input[name="voice-title"]').send_keys("stand-up")
        self.css(".voice-form button[type=submit]").click()
        self.wait(lambda d: self.titles() == ["stand-up"])
        self.assertEqual(self.server.memoapp("voice", "list")[0]["title"], "stand-up")
        # The waveform is drawn from the stored peaks across the canvas.
        self.wait(lambda d: self.inked_columns() > 100, message="no waveform drawn")
        self.shot("voice")
        canvas = self.css(".voice .waveform")
        width = canvas.size["width"]
        # A click seeks there.
        ActionChains(self.driver).move_to_element_with_offset(canvas, width // 4, 0).click().perform()
        self.wait(lambda d: 0.6 < d.execute_script("return document.querySelector('.voice audio').currentTime") < 0.9)
        # Rename.
        self.css(".voice .edit").click()
        # The editor opens once the item's current version has come (If-Match).
        self.wait(lambda d: len(self.all(".editor input")) >= 1)
        field = self.css(".editor input")
        field.clear()
        field.send_keys("daily stand-up")
        self.css(".editor button[type=submit]").click()
        self.wait(lambda d: self.titles() == ["daily stand-up"])
        # Select from 10 % to 60 % and trim to it: half a second is left.
        canvas = self.css(".voice .waveform")
        ActionChains(self.driver).move_to_element_with_offset(canvas, -int(width * 0.4), 0).click_and_hold() \
            .move_by_offset(width // 4, 0).move_by_offset(width // 4, 0).release().perform()
        self.wait(lambda d: self.css(".voice .trim").is_displayed())
        self.css(".voice .trim").click()
        self.wait(lambda d: 0.4 < self.server.memoapp("voice", "list")[0]["duration"] < 0.6)
        self.wait(lambda d: self.css(".voice .length").text.startswith("0:00.4") or
                  self.css(".voice .length").text.startswith("0:00.5"))
        # A trim can be undone from its toast: the whole second comes back.
        self.wait(lambda d: self.css("#toast").is_displayed() and self.css("#toast button").is_displayed())
        self.css("#toast button").click()
        self.wait(lambda d: self.server.memoapp("voice", "list")[0]["duration"] == 1)
        self.assertEqual(self.server.memoapp("voice", "verify")["ok"], True)

    def test_edit_a_voice_memos_tags(self):
        self.server.memoapp("voice", "import", str(ROOT / "fixtures" / "audio" / "tone-mono-16k.wav"),
                            "--title", "stand-up", "--tag", "work")
        self.wait(lambda d: self.titles() == ["stand-up"])
        self.css(".voice .edit").click()
        self.wait(lambda d: len(self.all('.editor input[name="voice-edit-tags"]')) == 1)
        field = self.css('.editor input[name="voice-edit-tags"]')
        self.assertEqual(field.get_attribute("value"), "work")
        field.clear()
        field.send_keys("meeting #회의")
        self.css(".editor button[type=submit]").click()
        self.wait(lambda d: sorted(e.text for e in self.all(".voice .tag")) == ["#meeting", "#회의"])
        self.assertEqual(self.titles(), ["stand-up"], "the title is kept")
        self.assertEqual(sorted(self.server.memoapp("voice", "list")[0]["tags"]), ["meeting", "회의"])

    def test_record_with_the_microphone(self):
        self.css(".record").click()
        self.wait(lambda d: "recording" in self.css(".record").get_attribute("class"))
        # Record for a second of the fake microphone's beeps.
        started = self.driver.execute_script("return performance.now()")
        self.wait(lambda d: d.execute_script("return performance.now()") > started + 1000)
        self.css(".record").click()
        self.wait(lambda d: len(self.titles()) == 1, timeout=15)
        stored = self.server.memoapp("voice", "list")[0]
        self.assertEqual(stored["container"], "WAV")
        self.assertGreater(stored["duration"], 0.5)


if __name__ == "__main__":
    unittest.main()
