"""Audio recorded or picked offline is kept and uploaded later (issue 28):
picked with the server away, it waits in the page's copy (a reload keeps
it), counts among the changes waiting, and reaches the server once when it
is back; audio the server refuses is said once and not sent again. On a
phone, in English and Korean."""

import math
import shutil
import struct
import tempfile
import unittest
import wave
from pathlib import Path

from phone_app import PhoneApp
from support import ROOT, BrowserTest

# The voice memos waiting in the page's copy (store.js's `voice` store):
# [file name, title, byte count, key] each. Opened only if the page made the
# database (an open would make it without its stores), and closed at once.
KEPT = """
const done = arguments[arguments.length - 1];
indexedDB.databases().then(names => {
if (!names.some(d => d.name === 'memoapp')) { done([]); return; }
const open = indexedDB.open('memoapp');
open.onsuccess = () => {
  const db = open.result;
  if (!db.objectStoreNames.contains('voice')) { db.close(); done([]); return; }
  const request = db.transaction('voice').objectStore('voice').getAll();
  request.onsuccess = () => { db.close(); done(request.result.map(m => [m.name, m.title, m.audio.size, m.key])); };
  request.onerror = () => { db.close(); done(null); };
};
open.onerror = () => done(null);
});
"""

# Whether the page has its copy (a pull wrote its cursor): only then does it open without the server.
HAS_COPY = """
const done = arguments[arguments.length - 1];
indexedDB.databases().then(names => {
if (!names.some(d => d.name === 'memoapp')) { done(false); return; }
const open = indexedDB.open('memoapp');
open.onsuccess = () => {
  const db = open.result;
  if (!db.objectStoreNames.contains('meta')) { db.close(); done(false); return; }
  const request = db.transaction('meta').objectStore('meta').get('cursor');
  request.onsuccess = () => { db.close(); done(request.result !== undefined); };
};
open.onerror = () => done(false);
});
"""

# One more sync run, awaited: resolves once the page says it synced.
SYNC_ONCE = """
const done = arguments[arguments.length - 1];
window.addEventListener('memoapp:synced', () => done(true), { once: true });
window.dispatchEvent(new Event('online'));
"""

# Counts the page's uploads from here on.
COUNT_UPLOADS = """
window.voiceUploads = 0;
const open = XMLHttpRequest.prototype.open;
XMLHttpRequest.prototype.open = function (method, url, ...rest) {
  if (method === 'POST' && String(url).startsWith('/api/v1/voice')) window.voiceUploads++;
  return open.call(this, method, url, ...rest);
};
"""

# A copy as the page's first version of its store made it (version 1: no
# `voice` store) holding a to-do added offline and its queue entry.
VERSION_1_COPY = """
const done = arguments[arguments.length - 1];
// A copy an earlier test left on this origin (a port used again) goes first.
const gone = indexedDB.deleteDatabase('memoapp');
gone.onerror = () => done(String(gone.error));
gone.onblocked = () => done('the copy is held open');
gone.onsuccess = () => {
  const open = indexedDB.open('memoapp', 1);
  open.onupgradeneeded = () => {
    const db = open.result;
    db.createObjectStore('items', { keyPath: 'uid' });
    db.createObjectStore('queue', { keyPath: 'change' });
    db.createObjectStore('meta');
  };
  open.onerror = () => done(String(open.error));
  open.onsuccess = () => {
    const db = open.result;
    const tx = db.transaction(['items', 'queue', 'meta'], 'readwrite');
    const uid = crypto.randomUUID(), stamp = Date.now() * 1000;
    const fields = ['title', 'note', 'priority', 'due', 'done', 'remind', 'repeat', 'tags', 'created'];
    tx.objectStore('items').put({ uid, kind: 'todo', record: null, local: 1,
      values: { title: 'kept from version 1', note: null, priority: null, due_at: null, due_has_time: false,
        done_at: null, remind_at: null, repeat_every: null, repeat_unit: null, repeat_from: null, repeat_day: null,
        created_at: Date.now() / 1000, tags: [] },
      stamps: Object.fromEntries(fields.map(field => [field, stamp])) });
    tx.objectStore('queue').put({ change: 1, uid, kind: 'todo' });
    tx.objectStore('meta').put(1, 'change');
    tx.oncomplete = () => { db.close(); done(true); };
  };
};
"""

# A database of the copy's name made by something else before the page ever
# opened it: version 1, no stores.
EMPTY_COPY = """
const done = arguments[arguments.length - 1];
const gone = indexedDB.deleteDatabase('memoapp');
gone.onerror = () => done(String(gone.error));
gone.onsuccess = () => {
  const open = indexedDB.open('memoapp');
  open.onsuccess = () => { const db = open.result; const shape = [db.version, db.objectStoreNames.length]; db.close(); done(shape); };
  open.onerror = () => done(String(open.error));
};
"""

# The copy's version and stores, once the page has it open.
SHAPE = """
const done = arguments[arguments.length - 1];
const open = indexedDB.open('memoapp');
open.onsuccess = () => { const db = open.result; done([db.version, [...db.objectStoreNames].sort()]); db.close(); };
open.onerror = () => done(null);
"""


def make_wav(path, seconds=0.5, rate=16000, hertz=440):
    """A short mono 16-bit tone: real audio the server reads."""
    samples = (int(12000 * math.sin(2 * math.pi * hertz * i / rate)) for i in range(int(seconds * rate)))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"".join(struct.pack("<h", s) for s in samples))
    return path


class VoiceOffline(PhoneApp):
    """Mixed into a BrowserTest of one language: `expected` holds its words."""

    def kept(self):
        return self.driver.execute_async_script(KEPT)

    def waiting_rows(self):
        return [(row.find_element("css selector", ".title").text, row.find_element("css selector", ".waiting").text)
                for row in self.all(".voice-waiting .voice")]

    def offline_on_the_voice_tab(self):
        """Signed in, under the service worker, its copy made, on the voice
        tab; then the server stops and the page is loaded again without it."""
        self.start_controlled()
        self.wait(lambda d: d.execute_async_script(HAS_COPY), message="the page never made its copy")
        self.css('.tab[data-tab="voice"]').click()
        self.wait(lambda d: self.css("#panel").get_attribute("data-feature") == "voice")
        self.server.stop()
        self.reload_ready()
        self.assertEqual(self.css("#panel").get_attribute("data-feature"), "voice")
        self.wait(lambda d: self.status() == self.expected["offline"], message=f"status: {self.status()!r}")

    def pick(self, path, title=None):
        self.css('input[name="audio"]').send_keys(str(path))
        if title:
            self.css('input[name="voice-title"]').send_keys(title)
        self.css(".voice-form button[type=submit]").click()

    def test_audio_picked_offline_waits_and_reaches_the_server_once(self):
        folder = Path(tempfile.mkdtemp(prefix="memoapp-voice-offline-"))
        self.addCleanup(shutil.rmtree, folder, True)
        audio = make_wav(folder / "train.wav")
        self.offline_on_the_voice_tab()

        self.pick(audio, "train notes")
        waiting = [("train notes", self.expected["waiting"])]
        self.wait(lambda d: self.waiting_rows() == waiting, message=f"rows: {self.waiting_rows()!r}")
        self.wait(lambda d: self.status() == self.expected["offline"] + " · " + self.expected["waiting1"],
                  message=f"status: {self.status()!r}")
        # Kept whole in the page's copy, with the key its uploads carry.
        [(name, title, size, key)] = self.kept()
        self.assertEqual((name, title, size), ("train.wav", "train notes", audio.stat().st_size))
        self.assertRegex(key, "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
        self.assertFalse(self.all(".voice-form .form-error") and self.css(".voice-form .form-error").is_displayed(),
                         "kept, not refused")
        self.language_shot("voice-waiting")

        # Still there after a reload while the server is away.
        self.reload_ready()
        self.wait(lambda d: self.waiting_rows() == waiting, message=f"rows: {self.waiting_rows()!r}")
        self.wait(lambda d: self.status() == self.expected["offline"] + " · " + self.expected["waiting1"])

        self.restart_server()
        self.wait(lambda d: self.status() == self.expected["synced"], timeout=20, message=f"status: {self.status()!r}")
        self.wait(lambda d: self.all(".voice-list .voice .title") and
                  [e.text for e in self.all(".voice-list .voice .title")] == ["train notes"],
                  message="the uploaded memo is not listed")
        self.assertEqual(self.waiting_rows(), [])
        self.assertEqual(self.kept(), [])
        [memo] = self.server.memoapp("voice", "list")
        self.assertEqual((memo["title"], memo["original_name"]), ("train notes", "train.wav"))
        # The very bytes picked: the library's file is the upload itself.
        self.assertEqual(Path(memo["file"]).read_bytes(), audio.read_bytes())
        # Once: another run sends nothing.
        self.driver.execute_script(COUNT_UPLOADS)
        self.assertTrue(self.driver.execute_async_script(SYNC_ONCE))
        self.assertEqual(self.driver.execute_script("return window.voiceUploads"), 0)
        self.assertEqual(len(self.server.memoapp("voice", "list")), 1)

    def test_audio_refused_once_back_online_is_said_once_and_not_sent_again(self):
        self.allowed_console.append("/api/v1/voice")  # the 422 itself
        self.offline_on_the_voice_tab()
        self.pick(ROOT / "fixtures" / "audio" / "not-audio.wav")
        self.wait(lambda d: self.waiting_rows() == [("not-audio.wav", self.expected["waiting"])],
                  message=f"rows: {self.waiting_rows()!r}")
        self.wait(lambda d: self.status() == self.expected["offline"] + " · " + self.expected["waiting1"])

        self.restart_server()
        # The server's own words, naming the file, in the page's language.
        self.wait(lambda d: self.all("#error-banner") and self.css("#error-banner").is_displayed()
                  and self.css("#error-banner span").text.startswith("not-audio.wav: "),
                  timeout=20, message="the refusal was never said")
        self.assertIn(self.expected["refused"], self.css("#error-banner span").text)
        self.language_shot("voice-refused-offline")
        self.wait(lambda d: self.status() == self.expected["synced"], message=f"status: {self.status()!r}")
        self.assertEqual(self.waiting_rows(), [])
        self.assertEqual(self.kept(), [])
        self.assertEqual(self.server.memoapp("voice", "list"), [])
        # Not sent again: the next run uploads nothing and says nothing.
        if self.css("#error-banner").is_displayed():
            self.css("#error-banner button").click()
        self.driver.execute_script(COUNT_UPLOADS)
        self.assertTrue(self.driver.execute_async_script(SYNC_ONCE))
        self.assertEqual(self.driver.execute_script("return window.voiceUploads"), 0)
        self.assertFalse(self.css("#error-banner").is_displayed())

    def row_waiting(self, title):
        return next(row for row in self.all(".voice-waiting .voice")
                    if row.find_element("css selector", ".title").text == title)

    def test_recorded_with_the_microphone_offline_it_waits_and_reaches_the_server(self):
        # The fake microphone's beeps, through MediaRecorder and the page's
        # WAV encoding, as a person records on a train.
        self.offline_on_the_voice_tab()
        self.css(".record").click()
        self.wait(lambda d: "recording" in self.css(".record").get_attribute("class"))
        started = self.driver.execute_script("return performance.now()")
        self.wait(lambda d: d.execute_script("return performance.now()") > started + 1000)
        self.css(".record").click()
        self.wait(lambda d: self.waiting_rows() == [("recording.wav", self.expected["waiting"])],
                  timeout=15, message="the recording never waited")
        [(name, title, size, _)] = self.kept()
        self.assertEqual((name, title), ("recording.wav", None))
        self.assertGreater(size, 16000, "a second of audio")
        self.restart_server()
        self.wait(lambda d: self.status() == self.expected["synced"], timeout=20, message=f"status: {self.status()!r}")
        [memo] = self.server.memoapp("voice", "list")
        self.assertEqual((memo["original_name"], memo["container"]), ("recording.wav", "WAV"))
        self.assertGreater(memo["duration"], 0.5)
        self.assertEqual(self.kept(), [])

    def test_a_waiting_recording_plays_here_and_can_be_deleted_with_undo(self):
        folder = Path(tempfile.mkdtemp(prefix="memoapp-voice-offline-"))
        self.addCleanup(shutil.rmtree, folder, True)
        self.offline_on_the_voice_tab()
        self.pick(make_wav(folder / "a.wav", seconds=0.5), "wrong take")
        self.wait(lambda d: len(self.waiting_rows()) == 1)
        self.pick(make_wav(folder / "b.wav", seconds=1.5), "keep me")
        self.wait(lambda d: [title for title, _ in self.waiting_rows()] == ["wrong take", "keep me"],
                  message="the two recordings never waited")
        self.wait(lambda d: self.status() == self.expected["offline"] + " · " + self.expected["waiting2"])
        # Nothing is listed from the server, but two wait: not "no voice memos yet".
        self.assertFalse(self.css("#panel .empty").is_displayed())

        # Its own audio plays from the copy, with no server.
        player = self.row_waiting("keep me").find_element("css selector", "audio")
        self.assertTrue(player.get_attribute("src").startswith("blob:"))
        self.wait(lambda d: d.execute_script("return arguments[0].readyState >= 1", player),
                  message="the waiting audio never loaded")
        self.assertAlmostEqual(self.driver.execute_script("return arguments[0].duration", player), 1.5, delta=0.05)

        # Deleted, then brought back by Undo, then deleted for good.
        self.row_waiting("wrong take").find_element("css selector", ".delete").click()
        self.wait(lambda d: [title for title, _ in self.waiting_rows()] == ["keep me"])
        self.wait(lambda d: self.status() == self.expected["offline"] + " · " + self.expected["waiting1"])
        self.assertEqual([title for _, title, _, _ in self.kept()], ["keep me"])
        self.assertEqual(self.css("#toast span").text, self.expected["discarded"])
        self.css("#toast button").click()
        self.wait(lambda d: [title for title, _ in self.waiting_rows()] == ["wrong take", "keep me"],
                  message="Undo never kept the recording again")
        self.wait(lambda d: self.status() == self.expected["offline"] + " · " + self.expected["waiting2"])
        self.row_waiting("wrong take").find_element("css selector", ".delete").click()
        self.wait(lambda d: [title for title, _ in self.waiting_rows()] == ["keep me"])

        # Only what was kept reaches the server.
        self.restart_server()
        self.wait(lambda d: self.status() == self.expected["synced"], timeout=20, message=f"status: {self.status()!r}")
        self.wait(lambda d: [memo["title"] for memo in self.server.memoapp("voice", "list")] == ["keep me"],
                  message="the server's voice memos")
        self.wait(lambda d: self.waiting_rows() == [])

    def test_audio_the_server_already_holds_is_said_as_that_not_as_an_error(self):
        # As when an upload's answer was lost and the server restarted
        # before the try again (its Idempotency-Keys are kept in memory):
        # the server answers 409 duplicate for the very same audio.
        self.allowed_console.append("/api/v1/voice")  # the 409 itself
        folder = Path(tempfile.mkdtemp(prefix="memoapp-voice-offline-"))
        self.addCleanup(shutil.rmtree, folder, True)
        audio = make_wav(folder / "same.wav")
        self.offline_on_the_voice_tab()
        self.pick(audio, "twice")
        self.wait(lambda d: len(self.waiting_rows()) == 1, message="the recording never waited")
        self.server.memoapp("voice", "import", str(audio))
        self.restart_server()
        self.wait(lambda d: self.css("#toast").is_displayed()
                  and self.css("#toast span").text == "same.wav: " + self.expected["already"],
                  timeout=20, message="the page never said the server has it")
        self.assertFalse(self.css("#error-banner").is_displayed() if self.all("#error-banner") else False)
        self.wait(lambda d: self.status() == self.expected["synced"], message=f"status: {self.status()!r}")
        self.assertEqual(self.kept(), [])
        self.assertEqual(len(self.server.memoapp("voice", "list")), 1)

    def test_a_copy_made_before_voice_memos_waited_keeps_what_it_holds(self):
        # The browser asks a JSON page for its favicon, which only the app's page names.
        self.allowed_console.append("/favicon.ico")
        # On the server's origin before the page ever opened there (nothing
        # holds the copy open): the copy as version 1 made it.
        self.driver.get(self.server.url + "/api/v1/health")
        self.assertIs(self.driver.execute_async_script(VERSION_1_COPY), True)
        self.complete_onboarding()
        # Its waiting to-do is sent: the upgrade kept the items and the queue.
        self.wait(lambda d: [todo["title"] for todo in self.server.memoapp("todo", "list")] == ["kept from version 1"],
                  timeout=20, message="the waiting to-do never reached the server")
        self.assertEqual(self.driver.execute_async_script(SHAPE), [2, ["items", "meta", "queue", "voice"]])


    def test_a_database_of_its_name_made_empty_by_another_script_gets_the_copys_stores(self):
        self.allowed_console.append("/favicon.ico")
        self.driver.get(self.server.url + "/api/v1/health")
        self.assertEqual(self.driver.execute_async_script(EMPTY_COPY), [1, 0])
        self.complete_onboarding()
        self.server.memoapp("todo", "add", "kept in the copy")
        self.wait(lambda d: self.copy() == [["todo", "kept in the copy", False, False]], timeout=20,
                  message="the page never made its copy in the database it found")
        self.assertEqual(self.driver.execute_async_script(SHAPE), [2, ["items", "meta", "queue", "voice"]])


class EnglishVoiceOffline(VoiceOffline, BrowserTest):
    language = "en-US"
    expected = {"offline": "Offline", "waiting1": "1 change waiting", "synced": "Synced just now",
                "waiting": "Waiting to upload", "refused": "not audio memoapp can read",
                "waiting2": "2 changes waiting", "discarded": "Recording deleted before it was uploaded.",
                "already": "already on the server, kept once."}


class KoreanVoiceOffline(VoiceOffline, BrowserTest):
    language = "ko-KR"
    expected = {"offline": "오프라인", "waiting1": "변경 1개 대기 중", "synced": "방금 동기화됨",
                "waiting": "올리기 대기 중", "refused": "memoapp이 읽을 수 있는 오디오가 아닙니다",
                "waiting2": "변경 2개 대기 중", "discarded": "올리기 전에 녹음을 삭제했습니다.",
                "already": "이미 서버에 있어 하나만 두었습니다."}


if __name__ == "__main__":
    unittest.main()
