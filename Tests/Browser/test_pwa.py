"""The page as a phone app (issue 28): installable (a manifest Chromium
parses, its icons), its shell served by a service worker, and a sync device
of its own: opened with the server away it shows what it kept and says it is
offline; changes made then wait in its queue and reach the server once, by
the sync protocol, when it is back."""

import json
import unittest

from selenium.webdriver.common.by import By

from phone_app import CliDevice, PhoneApp
from support import BrowserTest

class PageAsApp(PhoneApp):
    """Mixed into a BrowserTest of one language (phone_app.py: a phone's
    size, the copy and the status read in the page, a server that comes
    back on the same port)."""

    def setUp(self):
        super().setUp()
        self.addCleanup(self.driver.execute_cdp_cmd, "Network.emulateNetworkConditions",
                        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    # -- installable

    def test_the_manifest_parses_and_its_icons_load(self):
        self.open_signed_in()
        manifest = self.driver.execute_cdp_cmd("Page.getAppManifest", {})
        self.assertTrue(manifest["url"].endswith("/app/manifest.webmanifest"), manifest["url"])
        self.assertEqual(manifest["errors"], [])
        data = json.loads(manifest["data"])
        self.assertEqual((data["name"], data["short_name"], data["display"]), ("memoapp", "memoapp", "standalone"))
        self.assertEqual((data["start_url"], data["scope"]), ("/", "/"))
        # The colours of style.css: the splash's key colour, the page's grey.
        self.assertEqual((data["theme_color"], data["background_color"]), ("#2f5fe3", "#f6f7f9"))
        self.assertEqual(self.driver.execute_script(
            "return fetch(document.querySelector('link[rel=manifest]').href).then(r => r.headers.get('Content-Type'))"),
            "application/manifest+json")
        purposes = {(icon["sizes"], icon.get("purpose", "any")) for icon in data["icons"]}
        self.assertLessEqual({("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}, purposes)
        # Every icon, and the favicon, load with the size they claim.
        sizes = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const sources = [...arguments[0].map(icon => icon.src), document.querySelector('link[rel=icon]').href];
            Promise.all(sources.map(async src => {
              const response = await fetch(src);
              const image = new Image();
              image.src = src;
              await image.decode();
              return [src, response.status, response.headers.get('Content-Type'), image.naturalWidth, image.naturalHeight];
            })).then(done, error => done(String(error)));""", data["icons"])
        self.assertIsInstance(sizes, list, sizes)
        for (src, status, kind, width, height), icon in zip(sizes, data["icons"] + [{"sizes": "any", "type": "image/svg+xml"}]):
            self.assertEqual(status, 200, src)
            self.assertEqual(kind, icon["type"], src)
            if icon["sizes"] != "any":
                self.assertEqual(f"{width}x{height}", icon["sizes"], src)
        self.assertTrue(sizes[-1][0].endswith("/app/icon.svg"))
        # Chromium would offer to install it.
        self.driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0]())")
        errors = self.driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
        self.assertEqual(errors, [])

    # -- the app shell

    def test_a_service_worker_controls_the_page_and_opens_it_without_the_server(self):
        self.start_controlled()
        self.server.memoapp("todo", "add", "buy milk")
        self.server.memoapp("memo", "add", "first memo line\nsecond")
        self.wait(lambda d: self.titles(".todo .title") == ["buy milk"])
        self.wait(lambda d: sorted(self.copy()) == [["memo", "first memo line\nsecond", False, False],
                                                    ["todo", "buy milk", False, False]],
                  message="the copy never held what the server has")
        self.server.stop()
        self.reload_ready()
        self.assertEqual(self.screen(), "main", "the page opened on its copy, not an error page")
        self.wait(lambda d: self.titles(".todo .title") == ["buy milk"])
        self.assertEqual(self.status(), self.expected["offline"])
        self.css('.tab[data-tab="memos"]').click()
        self.wait(lambda d: self.titles(".memo .preview") == ["first memo line"])
        self.language_shot("pwa-offline")

    def test_a_page_without_a_copy_says_the_server_is_away(self):
        # Signed in, but the server went away before the page kept anything:
        # the shell still opens, and says so.
        self.open_signed_in()
        self.driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0]())")
        self.server.stop()
        self.reload_ready()
        self.assertEqual(self.css("h1.brand").text, "memoapp")
        self.assertEqual(self.css(".error-text").text, self.expected["unreachable"])

    # -- a sync device

    def test_changes_made_offline_reach_the_server_once(self):
        self.start_controlled()
        self.server.memoapp("todo", "add", "buy milk")
        self.server.memoapp("todo", "add", "call mum")
        memo = self.server.memoapp("memo", "add", "shopping\neggs")
        self.wait(lambda d: len(self.copy()) == 3, message="the copy never held what the server has")
        self.server.stop()
        self.reload_ready()
        self.wait(lambda d: sorted(self.titles(".todo .title")) == ["buy milk", "call mum"])

        # Checked off, removed, added, and a memo's text edited, all offline.
        # (Added last: the form a phone unfolds for typing folds again when
        # the focus leaves it, and moves the rows under a tap.)
        self.row("buy milk").find_element(By.CSS_SELECTOR, ".check").click()
        self.wait(lambda d: "buy milk" not in self.titles(".todo .title"))
        self.row("call mum").find_element(By.CSS_SELECTOR, ".delete").click()
        self.wait(lambda d: "call mum" not in self.titles(".todo .title"))
        self.css('input[name="title"]').send_keys("bake bread\n")
        self.wait(lambda d: self.titles(".todo .title") == ["bake bread"])
        self.css('.tab[data-tab="memos"]').click()
        self.wait(lambda d: self.titles(".memo .preview") == ["shopping"])
        self.css(".memo .edit").click()
        # The editor opens once the memo is read (from the copy, offline).
        text = self.wait(lambda d: self.all(".editor textarea"), message="the editor never opened")[0]
        text.send_keys("\nbutter")
        self.css(".editor .primary").click()
        self.wait(lambda d: not self.all(".editor"))
        self.wait(lambda d: self.status() == self.expected["waiting4"], message=f"status: {self.status()!r}")
        # One line says the page is offline, not that and "reconnecting" too.
        self.assertFalse(self.css(".connection-status").is_displayed())
        self.language_shot("pwa-waiting")
        # Kept across a reload while the server is still away.
        self.reload_ready()
        self.wait(lambda d: self.status() == self.expected["waiting4"])

        self.restart_server()
        self.wait(lambda d: self.status() == self.expected["synced"], timeout=20, message=f"status: {self.status()!r}")
        todos = {todo["title"]: todo for todo in self.server.memoapp("todo", "list", "--all")}
        self.assertEqual(sorted(todos), ["bake bread", "buy milk"])
        self.assertTrue(todos["buy milk"]["is_done"])
        self.assertFalse(todos["bake bread"]["is_done"])
        self.assertEqual(self.server.memoapp("memo", "show", str(memo["id"]))["text"], "shopping\neggs\nbutter")
        self.assertEqual(len(self.server.memoapp("memo", "list")), 1, "no conflict copy, no second memo")
        # And another device that syncs with the server gets them all.
        device = CliDevice(self.server)
        self.addCleanup(device.cleanup)
        device.sync()
        on_device = {todo["title"]: todo for todo in json.loads(device.run("todo", "list", "--all"))}
        self.assertEqual(sorted(on_device), ["bake bread", "buy milk"])
        self.assertTrue(on_device["buy milk"]["is_done"])
        [device_memo] = device.memos()
        self.assertEqual(json.loads(device.run("memo", "show", str(device_memo["id"])))["text"], "shopping\neggs\nbutter")
        # Once: nothing waits, and another sync run sends nothing again.
        self.assertEqual([entry[3] for entry in self.copy()], [False, False, False])
        self.driver.execute_script("window.dispatchEvent(new Event('online'))")
        self.wait(lambda d: self.status() == self.expected["synced"])
        self.assertEqual(len(self.server.memoapp("todo", "list", "--all")), 2)
        self.language_shot("pwa-synced")

    def test_a_to_do_added_here_just_before_the_server_went_can_be_checked_off(self):
        # Its row was drawn (from the add's answer and the list after it)
        # before the pull brought it into the copy, so the copy learnt no
        # id for it, and offline its check box answered "Not on this device".
        self.start_controlled()
        self.add_todo("fresh one")
        self.wait(lambda d: self.copy() == [["todo", "fresh one", False, False]], message=f"the copy: {self.copy()}")
        self.server.stop()
        self.driver.execute_script("arguments[0].click()", self.row("fresh one").find_element(By.CSS_SELECTOR, ".check"))
        self.wait(lambda d: self.status() == self.expected["offline"] + " · " + self.expected["waiting1"],
                  message=f"status: {self.status()!r}")
        self.assertFalse(self.all("#error-banner") and self.css("#error-banner").is_displayed(), "no error said")
        self.restart_server()
        self.wait(lambda d: self.status() == self.expected["synced"], timeout=20, message=f"status: {self.status()!r}")
        [todo] = self.server.memoapp("todo", "list", "--all")
        self.assertTrue(todo["is_done"])

    def test_with_chromiums_network_offline_a_change_waits_and_then_syncs(self):
        self.start_controlled()
        self.server.memoapp("todo", "add", "buy milk")
        self.wait(lambda d: len(self.copy()) == 1, message="the copy never held what the server has")
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                                    {"offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0})
        self.reload_ready()
        self.wait(lambda d: self.titles(".todo .title") == ["buy milk"])
        self.wait(lambda d: self.status() == self.expected["offline"])
        self.css('input[name="title"]').send_keys("water plants\n")
        self.wait(lambda d: self.status() == self.expected["offline"] + " · " + self.expected["waiting1"],
                  message=f"status: {self.status()!r}")
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                                    {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        self.driver.execute_script("window.dispatchEvent(new Event('online'))")
        self.wait(lambda d: self.status() == self.expected["synced"], timeout=20, message=f"status: {self.status()!r}")
        self.assertEqual(sorted(todo["title"] for todo in self.server.memoapp("todo", "list")), ["buy milk", "water plants"])

    def row(self, title):
        return next(row for row in self.all(".todo") if row.find_element(By.CSS_SELECTOR, ".title").text == title)


class EnglishPhoneApp(PageAsApp, BrowserTest):
    language = "en-US"
    expected = {"unreachable": "Cannot reach memoapp. Is `memoapp serve` running?", "offline": "Offline", "waiting4": "Offline · 4 changes waiting", "waiting1": "1 change waiting",
                "synced": "Synced just now"}


class KoreanPhoneApp(PageAsApp, BrowserTest):
    language = "ko-KR"
    expected = {"unreachable": "memoapp에 연결할 수 없습니다. `memoapp serve`가 실행 중인가요?", "offline": "오프라인", "waiting4": "오프라인 · 변경 4개 대기 중", "waiting1": "변경 1개 대기 중",
                "synced": "방금 동기화됨"}


if __name__ == "__main__":
    unittest.main()
