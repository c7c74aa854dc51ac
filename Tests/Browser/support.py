"""What every browser test shares: a `memoapp serve` on a temporary data home
(port 0, its sign-in link read from its first line of output), headless
Chromium through chromedriver, and waits on conditions (never sleeps)."""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import unittest
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
MEMOAPP = os.environ.get("MEMOAPP_BIN", str(ROOT / ".build" / "debug" / "memoapp"))
# scripts/screenshots sets these: where to save pictures, and the viewport.
SHOTS = os.environ.get("MEMOAPP_SCREENSHOTS")
VIEWPORT = os.environ.get("MEMOAPP_VIEWPORT", "1280x800")
SCHEME = os.environ.get("MEMOAPP_SCHEME", "light")
TIMEOUT = 10


class Server:
    """`memoapp serve` on `home` (a new temporary one by default)."""

    def __init__(self, home=None, port=0):
        self.owns_home = home is None
        self.home = home or tempfile.mkdtemp(prefix="memoapp-web-")
        self.port = port
        self.process = None

    def start(self):
        self.log = open(os.path.join(tempfile.gettempdir(), f"memoapp-web-{os.getpid()}-{id(self)}.log"), "ab")
        self.process = subprocess.Popen(
            [MEMOAPP, "serve", "--home", self.home, "--listen", f"127.0.0.1:{self.port}", "--json"],
            stdout=subprocess.PIPE, stderr=self.log, stdin=subprocess.DEVNULL,
            env={**os.environ, "MEMOAPP_LANG": "en"})
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("memoapp serve printed nothing (see %s)" % self.log.name)
        started = json.loads(line)
        self.url = started["url"]
        self.sign_in_url = started["sign_in_url"]
        self.port = int(self.url.rsplit(":", 1)[1])
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=15)
        if self.process:
            self.process.stdout.close()
        self.log.close()

    def cleanup(self):
        self.stop()
        if self.owns_home:
            shutil.rmtree(self.home, ignore_errors=True)

    def memoapp(self, *args, check=True):
        """Runs a memoapp command on the same data home; its JSON output."""
        result = subprocess.run([MEMOAPP, "--home", self.home, "--json", *args], capture_output=True, text=True,
                                stdin=subprocess.DEVNULL, env={**os.environ, "MEMOAPP_LANG": "en"})
        if check and result.returncode != 0:
            raise AssertionError(f"memoapp {' '.join(args)} exited {result.returncode}: {result.stderr}")
        return json.loads(result.stdout) if result.stdout.strip() else None

    def onboarding(self):
        return self.memoapp("onboard", "status")

    def new_link(self):
        return self.memoapp("token", "link", "--url", f"http://127.0.0.1:{self.port}")["url"]


def make_driver(language="en-US"):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--lang={language}", "--force-device-scale-factor=1", "--hide-scrollbars",
                     # A microphone that plays a beep, granted without asking: recording is tested.
                     "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                     "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(argument)
    width, height = VIEWPORT.split("x")
    options.add_argument(f"--window-size={width},{height}")
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    # The viewport exactly, whatever the window's frame takes.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": int(width), "height": int(height), "deviceScaleFactor": 1, "mobile": int(width) < 600})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": SCHEME}]})
    return driver


class BrowserTest(unittest.TestCase):
    """A new server and data home per test; one browser per test class."""
    language = "en-US"

    @classmethod
    def setUpClass(cls):
        cls.driver = make_driver(cls.language)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def setUp(self):
        self.server = Server().start()
        self.addCleanup(self.server.cleanup)
        if self.driver.current_url.startswith("http"):
            self.driver.delete_all_cookies()
            # The last test's page is closed before its console is read:
            # left open on its stopped server, its sync's next try (on a
            # timer) failed during this test and counted as this test's.
            self.driver.get("about:blank")
        self.driver.get_log("browser")  # what earlier tests left
        self.allowed_console = []

    def tearDown(self):
        errors = [entry for entry in self.driver.get_log("browser")
                  if entry["level"] == "SEVERE" and not any(text in entry["message"] for text in self.allowed_console)]
        self.assertEqual(errors, [], "the browser's console has errors")

    # -- helpers

    def wait(self, condition, timeout=TIMEOUT, message=""):
        def guarded(driver):
            try:
                return condition(driver)
            except StaleElementReferenceException:
                return False
        return WebDriverWait(self.driver, timeout).until(guarded, message)

    def open_signed_in(self, url=None):
        self.driver.get(url or self.server.sign_in_url)
        self.wait(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true",
                  message="the page never became ready")

    def use_viewport(self, width, height):
        """The page at `width` x `height` (a phone's when narrower than 600)
        until the test ends, when the window's own size comes back."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        self.addCleanup(self.driver.execute_cdp_cmd, "Emulation.clearDeviceMetricsOverride", {})

    def css(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def screen(self):
        return self.css("body").get_attribute("data-screen")

    def selected_page(self):
        selected = [d.get_attribute("aria-selected") for d in self.all(".ob-dot")]
        return selected.index("true") + 1 if "true" in selected else 0

    def wait_page(self, number):
        self.wait(lambda d: self.selected_page() == number, message=f"page {number} never selected")
        # The track has come to rest on it (the snap animation is over).
        self.wait(lambda d: d.execute_script(
            "const v = document.querySelector('.ob-viewport'), p = document.getElementById('ob-panel-' + arguments[0]);"
            "return Math.abs(p.getBoundingClientRect().left - v.getBoundingClientRect().left) < 1;", number),
            message=f"page {number} never came to rest")

    def wait_stored_page(self, number):
        self.wait(lambda d: self.server.onboarding()["current_page"] == number, message=f"page {number} never stored")

    def swipe(self, dx, slow=False):
        """A finger moved `dx` across the onboarding: in two quick steps and
        lifted at once (a flick: chromedriver sends each step as the step's
        time starts, then waits it out), or `slow`ly (30 px a step, 150 ms
        each, well under a flick's speed) so that where it is lifted alone
        decides the page."""
        viewport = self.css(".ob-viewport")
        # Start near the edge the finger moves away from, so it stays inside.
        start = -int(viewport.size["width"] * 0.4) if dx > 0 else int(viewport.size["width"] * 0.4)
        steps = max(2, abs(dx) // 30) if slow else 2
        chain = ActionChains(self.driver, duration=150 if slow else 10).move_to_element_with_offset(viewport, start, 0) \
            .click_and_hold()
        for step in range(steps):
            chain.move_by_offset(dx * (step + 1) // steps - dx * step // steps, 0)
        chain.release().perform()

    def shot(self, name):
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            suffix = "" if SCHEME == "light" else "-" + SCHEME
            # Named by the size shown, which a test may set itself.
            size = self.driver.execute_script("return innerWidth + 'x' + innerHeight")
            self.driver.save_screenshot(str(Path(SHOTS) / f"{name}-{size}{suffix}.png"))

    def language_shot(self, name):
        """`shot`, named with `-ko` on a Korean page (as scripts/screenshots names them)."""
        self.shot(name + ("-ko" if self.language.startswith("ko") else ""))

    def complete_onboarding(self):
        self.open_signed_in()
        self.css(".ob-skip").click()
        self.wait(lambda d: self.screen() == "main")
