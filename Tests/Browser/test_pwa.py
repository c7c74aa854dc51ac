"""The page as a phone app (issue 28): installable (a manifest Chromium
parses, its icons), and its shell served by a service worker."""

import json
import unittest

from selenium.webdriver.common.by import By

from support import BrowserTest, Server

# The page's copy (store.js), read in the page: [kind, title or text, removed, waiting] per item.
COPY = """
const done = arguments[arguments.length - 1];
const open = indexedDB.open('memoapp');
open.onsuccess = () => {
  const db = open.result;
  if (!db.objectStoreNames.contains('items')) { done([]); return; }
  const tx = db.transaction(['items', 'queue']);
  const items = tx.objectStore('items').getAll(), queue = tx.objectStore('queue').getAll();
  tx.oncomplete = () => {
    const waiting = new Set(queue.result.map(entry => entry.uid));
    done(items.result.map(i => [i.kind, i.kind === 'todo' ? i.values.title : i.values.text, !!i.removed, waiting.has(i.uid)]));
  };
};
open.onerror = () => done(null);
"""


class PhoneApp:
    """Mixed into a BrowserTest of one language, at a phone's size."""

    def setUp(self):
        super().setUp()
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        self.addCleanup(self.driver.execute_cdp_cmd, "Emulation.clearDeviceMetricsOverride", {})
        self.addCleanup(self.driver.execute_cdp_cmd, "Network.emulateNetworkConditions",
                        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        # Every request the page makes while its server is away fails, as it must.
        self.allowed_console += ["/api/v1/", "ERR_CONNECTION_REFUSED", "ERR_INTERNET_DISCONNECTED", "Failed to fetch"]

    # -- helpers

    def copy(self):
        return self.driver.execute_async_script(COPY)

    def status(self):
        element = self.css(".sync-status")
        return element.text if element.is_displayed() else ""

    def titles(self, selector):
        return [element.text for element in self.all(selector)]

    def start_controlled(self):
        """Signed in, onboarded, and the page loaded again under its service worker."""
        self.complete_onboarding()
        self.driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0]())")
        self.driver.refresh()
        self.wait(lambda d: self.css("body").get_attribute("data-ready") == "true")
        self.wait(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"),
                  message="no service worker controls the page")

    def restart_server(self):
        again = Server(home=self.server.home, port=self.server.port).start()
        self.addCleanup(again.stop)
        return again

    def reload_ready(self):
        self.driver.refresh()
        self.wait(lambda d: self.css("body").get_attribute("data-ready") == "true", message="never ready again")

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
        errors = self.driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
        self.assertEqual(errors, [])

    # -- the app shell

    def test_a_service_worker_controls_the_page_and_serves_it_without_the_server(self):
        self.start_controlled()
        self.server.stop()
        self.reload_ready()
        # The page, not Chromium's error page: it says the server is away.
        self.assertEqual(self.css("h1.brand").text, "memoapp")
        self.assertEqual(self.css(".error-text").text, self.expected["unreachable"])

    def row(self, title):
        return next(row for row in self.all(".todo") if row.find_element(By.CSS_SELECTOR, ".title").text == title)


class EnglishPhoneApp(PhoneApp, BrowserTest):
    language = "en-US"
    expected = {"unreachable": "Cannot reach memoapp. Is `memoapp serve` running?", "offline": "Offline", "waiting4": "Offline · 4 changes waiting", "waiting1": "1 change waiting",
                "synced": "Synced just now"}


class KoreanPhoneApp(PhoneApp, BrowserTest):
    language = "ko-KR"
    expected = {"unreachable": "memoapp에 연결할 수 없습니다. `memoapp serve`가 실행 중인가요?", "offline": "오프라인", "waiting4": "오프라인 · 변경 4개 대기 중", "waiting1": "변경 1개 대기 중",
                "synced": "방금 동기화됨"}


if __name__ == "__main__":
    unittest.main()
