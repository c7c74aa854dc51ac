// The service worker: the app shell offline. The server writes VERSION and
// SHELL above this line (ServiceWorker.swift): every file of the page, and a
// version made of their ETags, so a new binary is a new worker with a cache
// of its own. It serves the shell from its cache (the page and its files stay
// one version together), and nothing else: the API, the event stream and
// audio go to the network as if it were not there.
const CACHE = 'memoapp-shell-' + VERSION;

self.addEventListener('install', event => {
  // `cache: 'reload'`: the files of this version, not the HTTP cache's.
  event.waitUntil(caches.open(CACHE).then(cache =>
    cache.addAll(SHELL.map(path => new Request(path, { cache: 'reload', credentials: 'same-origin' })))));
});

// A new version waits while an older one controls a page (a page half way
// through an edit keeps the code it started with); the page asks it to take
// over when it loads next (main.js), before it shows anything.
self.addEventListener('message', event => {
  if (event.data === 'take-over') self.skipWaiting();
});

self.addEventListener('activate', event => {
  event.waitUntil(caches.keys().then(names => Promise.all(
    names.filter(name => name.startsWith('memoapp-shell-') && name !== CACHE).map(name => caches.delete(name)))));
});

self.addEventListener('fetch', event => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  // A navigation to the page, whatever its query or fragment (a sign-in link).
  const path = request.mode === 'navigate' && url.pathname === '/' ? '/' : url.pathname;
  if (!SHELL.includes(path)) return;
  event.respondWith(caches.open(CACHE).then(cache => cache.match(path)).then(found => found || fetch(request)));
});
