// The app: sign in, splash, then the onboarding gate, then the main screen.
import * as api from './api.js';
import * as events from './events.js';
import { h, icon, errorToast } from './dom.js';
import { t, lang, setLang, onLangChange } from './i18n.js';
import { hideSplash } from './splash.js';
import { showOnboarding } from './onboarding.js';
import { mountTodos } from './todos.js';
import { mountMemos } from './memos.js';
import { mountTimers } from './timers.js';
import { mountVoice } from './voice.js';
import { globalSearch } from './search.js';
import { installShortcuts } from './shortcuts.js';

// The page as a sync device (sync.js, store.js), loaded with the main screen.
const loadSync = () => import('./sync.js');
// What answers from the copy when the server does not (offline.js): fetched
// with the main screen, since on the first load no worker serves it yet.
const loadOffline = () => import('./offline.js');
const hasCopy = () => import('./store.js').then(store => store.hasCopy(), () => false);

const root = document.getElementById('root');
let screen = null; // { kind: 'onboarding'|'main'|'signin', ... }

async function boot() {
  if (await startWorker()) return;
  let status;
  try {
    status = await api.signIn();
  } catch (error) {
    if (error.status === 0 && await hasCopy()) { await openOnCopy(); return; }
    showMessage(error.message);
    return;
  }
  if (status !== 'ok') {
    showSignIn(status === 'refused');
    return;
  }
  await route();
}

async function route() {
  let state;
  try {
    state = await api.get('/onboarding');
  } catch (error) {
    if (error.status === 0 && await hasCopy()) { await openOnCopy(); return; }
    showMessage(error.message);
    return;
  }
  if (state.completed) showMain();
  else startOnboarding(state);
  // Measured by the browser tests (Navigation Timing): the first screen works.
  performance.mark('memoapp-interactive');
  await hideSplash();
  document.body.dataset.ready = 'true';
  window.dispatchEvent(new Event('memoapp:ready'));
}

// No server, but the page's copy (store.js): the main screen on it.
async function openOnCopy() {
  api.resumeOffline();
  (await loadSync()).openedOnCopy();
  showMain();
  performance.mark('memoapp-interactive');
  await hideSplash();
  document.body.dataset.ready = 'true';
  window.dispatchEvent(new Event('memoapp:ready'));
}

// The service worker (sw.js): a new version, waiting since the binary
// changed, takes over here, before anything is shown (never under an open
// editor), and the page loads again from it.
async function startWorker() {
  if (!('serviceWorker' in navigator)) return false;
  try {
    const registration = await navigator.serviceWorker.register('/sw.js');
    if (!registration.waiting || !navigator.serviceWorker.controller) return false;
    const changed = new Promise(resolve => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true), { once: true }));
    await faviconLoaded();
    registration.waiting.postMessage('take-over');
    if (!(await Promise.race([changed, new Promise(resolve => setTimeout(resolve, 3000, false))]))) return false;
    location.reload();
    return true;
  } catch (error) {
    console.warn('service worker:', error.message);
    return false;
  }
}

// Chromium parks a new worker for good when a request (the favicon's, just
// after the load) reaches the old one as it hands over: asked after it.
const faviconLoaded = () => new Promise(resolve => {
  const done = () => { observer.disconnect(); resolve(); };
  const observer = new PerformanceObserver(list => { if (list.getEntries().some(e => e.name.endsWith('/app/icon.svg'))) done(); });
  observer.observe({ type: 'resource', buffered: true });
  setTimeout(done, 1000);
});

function startOnboarding(state, tour = false) {
  if (screen && screen.close) screen.close();
  // The main event stream is behind the gate: until it opens, only the
  // onboarding's, so that completing it with `memoapp onboard` opens the app.
  if (!tour) events.connect('/api/v1/onboarding/events');
  const view = showOnboarding(root, state, { tour, done: () => showMain() });
  screen = { kind: tour ? 'tour' : 'onboarding', view, close: () => view.close() };
  document.body.dataset.screen = 'onboarding';
}

const features = [
  { id: 'todos', icon: 'todo', mount: mountTodos },
  { id: 'memos', icon: 'memo', mount: mountMemos },
  { id: 'voice', icon: 'voice', mount: mountVoice },
  { id: 'timers', icon: 'timer', mount: mountTimers },
];

function showMain(tab = sessionStorage.getItem('memoapp.tab') || 'todos') {
  if (screen && screen.close) screen.close();
  if (!features.some(f => f.id === tab)) tab = 'todos';
  const panel = h('div', { class: 'panel', id: 'panel' });
  const nav = h('nav', { class: 'tabs', 'aria-label': 'memoapp' });
  const tourLink = h('button', { type: 'button', class: 'link tour-link' });
  // A GET (the cookie alone may make it), the file named by the server.
  const exportLink = h('a', { class: 'link export-link', href: '/api/v1/export', download: '' });
  const otherDevice = h('button', { type: 'button', class: 'link other-device',
    onclick: () => import('./signinlink.js').then(m => m.showSignInLink()).catch(error => errorToast(error.message)) });
  const langButton = h('button', { type: 'button', class: 'lang-switch', onclick: () => setLang(lang() === 'ko' ? 'en' : 'ko') });
  // Asked first: one stray tap next to "Tour" signed a phone out, and it
  // cannot sign in again without a terminal.
  const signOutButton = h('button', { type: 'button', class: 'link sign-out', onclick: async () => {
    if (!(await (await import('./signout.js')).confirmSignOut())) return;
    try { await api.signOut(); } catch (error) { errorToast(error.message); return; }
    import('./store.js').then(store => store.forget()).catch(() => {});
    if (screen && screen.close) screen.close();
    events.disconnect();
    showSignIn(false);
  } });
  // Said in words while the server cannot be reached (a red dot alone
  // said nothing to most people).
  const connection = h('p', { class: 'connection-status', role: 'status' });
  const search = globalSearch(panel);
  // The language beside the name, not among the actions: on a phone the
  // actions take a row of their own, and the switch wrapped to a third.
  const header = h('header', { class: 'topbar' }, h('h1', { class: 'brand', text: 'memoapp' }), langButton, search.box,
    h('div', { class: 'top-actions' }, search.opener, tourLink, exportLink, otherDevice, signOutButton), connection);
  const content = h('main', { class: 'content' }, panel, search.results);
  const shell = h('div', { class: 'main' }, header, nav, content);
  let current = null;
  let active = tab;

  function renderChrome() {
    tourLink.textContent = t('tour');
    exportLink.textContent = t('export');
    otherDevice.textContent = t('otherDevice');
    signOutButton.textContent = t('signOut');
    connection.textContent = t('reconnecting');
    langButton.textContent = t('language');
    langButton.setAttribute('aria-label', t('languageName'));
    nav.replaceChildren(...features.map(f => h('button', {
      type: 'button', class: 'tab', 'data-tab': f.id, 'aria-current': f.id === active ? 'page' : 'false',
      onclick: () => { search.clear(); open(f.id); },
    }, icon(f.icon), h('span', { text: t(f.id) }))));
    search.relabel();
  }

  // A tag tapped anywhere (a row, an opened item): its kind's list, filtered by it.
  function showTag(event) {
    const tab = { todo: 'todos', memo: 'memos', voice: 'voice' }[event.detail.kind];
    if (!tab) return;
    search.clear();
    if (tab !== active) open(tab);
    if (current && current.filterTag) current.filterTag(event.detail.tag);
  }
  window.addEventListener('memoapp:tag', showTag);

  function open(id) {
    active = id;
    sessionStorage.setItem('memoapp.tab', id);
    if (current) current.destroy();
    panel.replaceChildren();
    panel.dataset.feature = id;
    current = features.find(f => f.id === id).mount(panel);
    renderChrome();
  }

  tourLink.addEventListener('click', async () => {
    try {
      const state = await api.get('/onboarding');
      startOnboarding({ ...state, current_page: 1 }, true);
    } catch (error) { errorToast(error.message); }
  });

  const offLang = onLangChange(() => { renderChrome(); if (current && current.relabel) current.relabel(); else open(active); });
  const offBars = measureBars(header, nav);
  const offKeys = installShortcuts(content, () => search.focus());
  root.replaceChildren(shell);
  document.body.dataset.screen = 'main';
  events.connect();
  loadSync().then(sync => { connection.after(sync.statusLine()); sync.start(); });
  // Loaded while the server is there, as the copy's answers are: fetched
  // once it is gone, they would fail wherever no service worker holds them.
  loadOffline().catch(() => {});
  import('./offlinetimers.js').catch(() => {});
  open(active);
  screen = { kind: 'main', close: () => {
    offLang(); offBars(); offKeys(); search.destroy(); window.removeEventListener('memoapp:tag', showTag);
    if (current) current.destroy();
    current = null;
  } };
}

// The heights of the sticky top bar and tab bar, as CSS variables: the side
// navigation sticks just below the top bar, and a row scrolled into view
// (a search hit opened, "Load more" reached) is not left under either bar.
function measureBars(header, nav) {
  const style = document.documentElement.style;
  const observer = new ResizeObserver(() => {
    style.setProperty('--topbar-height', `${header.getBoundingClientRect().height}px`);
    style.setProperty('--tabbar-height', `${nav.getBoundingClientRect().height}px`);
  });
  observer.observe(header);
  observer.observe(nav);
  return () => observer.disconnect();
}

function showSignIn(refused) {
  document.body.dataset.screen = 'signin';
  const render = () => root.replaceChildren(h('main', { class: 'signin' },
    h('h1', { class: 'brand', text: 'memoapp' }),
    h('h2', { text: t('signInTitle') }),
    refused ? h('p', { class: 'error-text', role: 'alert', text: t('codeRefused') }) : null,
    h('p', { text: t('signInHelp') }),
    h('button', { type: 'button', class: 'lang-switch', text: t('language'), onclick: () => setLang(lang() === 'ko' ? 'en' : 'ko') })));
  const off = onLangChange(render);
  screen = { kind: 'signin', close: off };
  render();
  // Ready once the splash no longer covers it.
  hideSplash().then(() => { document.body.dataset.ready = 'true'; });
}

function showMessage(message) {
  root.replaceChildren(h('main', { class: 'signin' }, h('h1', { class: 'brand', text: 'memoapp' }),
    h('p', { class: 'error-text', role: 'alert', text: message })));
  hideSplash().then(() => { document.body.dataset.ready = 'true'; });
}

// The gate may close again (`memoapp onboard reset`), or open from elsewhere.
events.on('onboarding', async state => {
  if (!screen) return;
  if (screen.kind === 'onboarding') screen.view.external(state);
  else if (screen.kind === 'main' && !state.completed) {
    try { startOnboarding(await api.get('/onboarding')); } catch (error) { errorToast(error.message); }
  }
});

// Any call refused by the gate brings the onboarding back.
window.addEventListener('memoapp:gate', async () => {
  if (screen && screen.kind === 'main') {
    try { startOnboarding(await api.get('/onboarding')); } catch (error) { errorToast(error.message); }
  }
});

// The session ended (signed out elsewhere, expired): back to the sign-in screen.
window.addEventListener('memoapp:signedout', () => {
  if (screen && screen.close) screen.close();
  screen = null;
  events.disconnect();
  showSignIn(false);
});

// A sign-in link opened on the page already open changes only the fragment,
// which reloads nothing: start again so that its code is used.
window.addEventListener('hashchange', () => { if (/(^#|&)code=/.test(location.hash)) location.reload(); });

api.hooks.local = (...request) => loadOffline().then(offline => offline.answer(...request), () => undefined);
api.hooks.page = (path, items) => {
  if (/^\/(todos|memos)\?/.test(path)) loadSync().then(sync => sync.rememberIds(items));
};

boot();
