"""What the tests of the page as a sync device share (test_pwa.py,
test_pwa_tabs.py, test_pwa_versions.py, test_conflict_view.py and the
others that import it): a phone's size, a server that may come and go on the
same port, the page's copy and status read in the page, and a command-line
device syncing with the served hub."""

import json
import os
import shutil
import subprocess
import tempfile

from support import MEMOAPP, Server

# The page's copy (store.js), read in the page: [kind, title or text, removed, waiting] per item.
COPY = """
const done = arguments[arguments.length - 1];
// Opened only if the page made it (an open would make it without its stores).
indexedDB.databases().then(names => {
if (!names.some(d => d.name === 'memoapp')) { done([]); return; }
const open = indexedDB.open('memoapp');
open.onsuccess = () => {
  const db = open.result;
  if (!db.objectStoreNames.contains('items')) { db.close(); done([]); return; }
  const tx = db.transaction(['items', 'queue']);
  const items = tx.objectStore('items').getAll(), queue = tx.objectStore('queue').getAll();
  tx.oncomplete = () => {
    db.close(); // else the page's sign-out would wait for it to delete the copy
    const waiting = new Set(queue.result.map(entry => entry.uid));
    done(items.result.map(i => [i.kind, i.kind === 'todo' ? i.values.title : i.values.text, !!i.removed, waiting.has(i.uid)]));
  };
};
open.onerror = () => done(null);
});
"""


class VersionedServer(Server):
    """`memoapp serve` whose page is another version (a debug build reads
    MEMOAPP_TEST_PAGE_VERSION into its service worker's version:
    Sources/WebApp/ServiceWorker.swift), or the same as the plain one's."""

    def __init__(self, version=None, **arguments):
        super().__init__(**arguments)
        self.version = version

    def start(self):
        # Server.start passes its own environment on: the variable is set just for it.
        saved = os.environ.pop("MEMOAPP_TEST_PAGE_VERSION", None)
        if self.version is not None:
            os.environ["MEMOAPP_TEST_PAGE_VERSION"] = self.version
        try:
            return super().start()
        finally:
            os.environ.pop("MEMOAPP_TEST_PAGE_VERSION", None)
            if saved is not None:
                os.environ["MEMOAPP_TEST_PAGE_VERSION"] = saved


class CliDevice:
    """A second data home that syncs with the served hub, as a laptop would."""

    def __init__(self, server):
        self.home = tempfile.mkdtemp(prefix="memoapp-device-")
        self.server = server
        self.run("onboard", "skip")
        self.token = server.memoapp("token", "create", "laptop")["token"]

    def run(self, *args):
        result = subprocess.run([MEMOAPP, "--home", self.home, "--json", *args], capture_output=True, text=True,
                                stdin=subprocess.DEVNULL, env={"MEMOAPP_LANG": "en", "PATH": "/usr/bin:/bin"})
        if result.returncode != 0:
            raise AssertionError(f"device: memoapp {' '.join(args)} exited {result.returncode}: {result.stderr}")
        return result.stdout

    def sync(self):
        self.run("sync", "--server", self.server.url, "--token", self.token)

    def memos(self):
        return json.loads(self.run("memo", "list"))

    def cleanup(self):
        shutil.rmtree(self.home, ignore_errors=True)


class PhoneApp:
    """Mixed into a BrowserTest of one language, at a phone's size."""

    def setUp(self):
        super().setUp()
        self.use_viewport(390, 844)
        # Every request the page makes while its server is away fails, as it must.
        self.allowed_console += ["/api/v1/", "ERR_CONNECTION_REFUSED", "ERR_INTERNET_DISCONNECTED", "Failed to fetch"]

    def phone_size(self):
        """A phone's size again (a tab opened later starts at the window's)."""
        self.use_viewport(390, 844)

    def copy(self):
        return self.driver.execute_async_script(COPY)

    def status(self):
        element = self.css(".sync-status")
        return element.text if element.is_displayed() else ""

    def titles(self, selector=".todo .title"):
        return [element.text for element in self.all(selector)]

    def start_controlled(self):
        """Signed in, onboarded, and the page loaded again under its service worker."""
        self.complete_onboarding()
        self.driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0]())")
        self.reload_ready()
        self.wait(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"),
                  message="no service worker controls the page")

    def restart_server(self, version=None):
        """The server again, on the same home and port (the page knows only its origin)."""
        again = VersionedServer(version, home=self.server.home, port=self.server.port).start()
        self.addCleanup(again.stop)
        return again

    def reload_ready(self):
        self.driver.refresh()
        self.wait(lambda d: self.css("body").get_attribute("data-ready") == "true", message="never ready again")

    def add_todo(self, title):
        self.css('input[name="title"]').send_keys(title + "\n")
        self.wait(lambda d: title in self.titles(), message=f"{title!r} never listed")
