// Live updates: GET /api/v1/events as Server-Sent Events. EventSource
// retries by itself after a dropped connection; when it gives up (the server
// was away and answered with an error), a new one is made after a pause. After
// every reconnection the screens reload what they show, since a restarted
// server numbers its events anew and may have missed nothing or everything.
import { t } from './i18n.js';
import { get } from './api.js';

const handlers = new Map();
let source = null;
let everOpened = false;
let retryTimer = 0;
let delay = 500;

export function on(name, f) {
  if (!handlers.has(name)) handlers.set(name, new Set());
  handlers.get(name).add(f);
  return () => handlers.get(name).delete(f);
}

function emit(name, data) {
  for (const f of handlers.get(name) || []) {
    try { f(data); } catch (error) { console.warn(error); }
  }
}

const names = ['todo', 'memo', 'voice', 'timer', 'timer.finished', 'onboarding'];

// The main stream, or before the gate opens only the onboarding's
// (`/api/v1/onboarding/events`): completing it elsewhere then opens the app.
let path = '/api/v1/events';

export function connect(to = '/api/v1/events') {
  if (source && to === path) return;
  if (source) disconnect();
  path = to;
  source = new EventSource(path);
  source.addEventListener('open', () => {
    delay = 500;
    document.body.classList.remove('offline');
    if (everOpened) emit('reconnected', null);
    everOpened = true;
    emit('connected', null);
  });
  source.addEventListener('error', () => {
    document.body.classList.add('offline');
    emit('disconnected', t('reconnecting'));
    if (source.readyState === EventSource.CLOSED) {
      // EventSource never says why it was refused: ask once (a small route
      // that needs the session), so that a session that has ended (401)
      // brings the sign-in screen (api.js announces it) instead of an
      // "offline" that never ends.
      get('/onboarding').catch(() => {});
      source = null;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => connect(path), delay);
      delay = Math.min(delay * 2, 5000);
    }
  });
  for (const name of names) {
    source.addEventListener(name, event => {
      let data = null;
      try { data = JSON.parse(event.data); } catch { return; }
      emit(name, data);
    });
  }
}

export function disconnect() {
  clearTimeout(retryTimer);
  if (source) source.close();
  source = null;
  everOpened = false;
}
