// The page as a sync device (docs/sync.md, "The page as a device"): the
// queue pushed and the voice memos kept offline uploaded (voicequeue.js),
// then the hub's changes pulled into the copy (store.js). It runs on start,
// when the browser is online again, when the page is shown again, when the
// event stream (re)connects or tells of a change, after every change made
// here and every 30 s while one waits; one tab at a time (Web Locks), one
// run at a time in a tab.
import * as api from './api.js';
import * as events from './events.js';
import * as store from './store.js';
import { h } from './dom.js';
import { t, onLangChange } from './i18n.js';

// A kind's fields (the unit a stamp orders) and their columns; tags are a set.
export const FIELDS = {
  todo: { title: ['title'], note: ['note'], priority: ['priority'], due: ['due_at', 'due_has_time'], done: ['done_at'],
    remind: ['remind_at'], repeat: ['repeat_every', 'repeat_unit', 'repeat_from', 'repeat_day'], tags: [], created: ['created_at'] },
  memo: { title: ['title'], text: ['text'], pinned: ['is_pinned'], tags: [], created: ['created_at'], conflict_of: ['conflict_of'] },
  // Its `events` (spans and laps) are lists the hub merges as events, never by the clock.
  timer: { created: ['kind', 'duration', 'created_at'], label: ['label'], state: ['state', 'ended_at'], todo: ['todo'],
    seen: ['seen_at'], events: ['spans', 'laps'] },
};

const state = { offline: false, unconfirmed: false, gated: false, waiting: 0, syncedAt: 0, sent: false, running: null, again: false, started: false };
const status = h('p', { class: 'sync-status', role: 'status', hidden: true });

// The status line the top bar shows: offline, changes waiting, synced.
export function statusLine() { return status; }

function render() {
  const parts = [];
  if (state.offline) parts.push(t('offlineCopy'));
  if (state.waiting) parts.push(t('changesWaiting', state.waiting));
  // Said for a minute after changes made here were sent (or the server
  // came back): online and idle, the line is not there at all.
  else if (!state.offline && state.sent && Date.now() - state.syncedAt < 60000) parts.push(t('syncedNow'));
  status.textContent = parts.join(' · ');
  status.hidden = parts.length === 0;
  status.classList.toggle('is-offline', state.offline);
  status.classList.toggle('is-waiting', state.waiting > 0);
}

// Each queued change, and each voice memo waiting to be uploaded (voicequeue.js).
async function countWaiting() {
  try { state.waiting = (await store.count('queue')) + (await store.count('voice')); } catch { state.waiting = 0; }
  render();
}

// The server did not answer (api.js answered from the copy instead).
export function wentOffline() {
  if (!state.offline) { state.offline = true; render(); }
}

// The page opened on its copy: its session is asked about before it syncs.
export function openedOnCopy() {
  state.unconfirmed = true;
  wentOffline();
}

// A change was written into the copy and the queue: shown, and sent as soon as can be.
export function changed() {
  countWaiting();
  soon();
}

let timer = 0;
function soon(delay = 0) {
  clearTimeout(timer);
  timer = setTimeout(run, delay);
}

// Starts syncing (once): the page is signed in, or opened on its copy.
export function start() {
  if (state.started) { soon(); return; }
  state.started = true;
  onLangChange(render);
  window.addEventListener('online', () => soon());
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') soon(); });
  for (const name of ['connected', 'reconnected']) events.on(name, () => soon());
  events.on('disconnected', wentOffline);
  // The copy's timers shown, and its countdowns rung at their end, while the server cannot.
  events.on('disconnected', () => import('./offlinetimers.js').then(m => m.streamDown(), () => {}));
  // The gate closed again (`memoapp onboard reset`): the sync routes are behind it.
  events.on('onboarding', onboarding => { state.gated = !onboarding.completed; if (!state.gated) soon(); });
  // A change on the hub: pulled once the burst is over.
  for (const name of ['todo', 'memo', 'timer']) events.on(name, () => soon(250));
  // The event stream tells of the hub's changes: the timer is for a queue
  // that waits (each pull is a write transaction on the hub).
  setInterval(() => { render(); if (state.waiting) run(); }, 30000);
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  countWaiting();
  soon();
}

// One run: push, then pull. Calls made while one runs fold into one more.
export function run() {
  if (state.running) { state.again = true; return state.running; }
  state.running = (async () => {
    try {
      do {
        state.again = false;
        await (navigator.locks ? navigator.locks.request('memoapp-sync', once) : once());
      } while (state.again);
    } finally { state.running = null; }
  })();
  return state.running;
}

async function once() {
  try {
    if (state.gated || document.body.dataset.screen !== 'main') return;
    // Opened on the copy: the session first (a tab opened offline has no
    // token of its own yet, and signs in then; what waits is kept).
    if (state.unconfirmed) {
      if (await api.signIn() !== 'ok') { window.dispatchEvent(new Event('memoapp:signedout')); return; }
      state.unconfirmed = false;
    }
    if (!api.csrf()) return;
    let sent = await push();
    if (await sendVoice()) sent = true;
    await pull();
    if (sent || state.offline) { state.sent = true; state.syncedAt = Date.now(); }
    state.offline = false;
    window.dispatchEvent(new Event('memoapp:synced'));
  } catch (error) {
    if (error.status === 0) state.offline = true;
    else console.warn('sync:', error.message);
  }
  await countWaiting();
}

// The queue, each item once with its newest change number, in their order.
async function push(retried = false) {
  const [queue, meta] = await Promise.all([store.all('queue'), store.meta()]);
  if (meta.copying) return (await fullCopy()).send();
  if (!queue.length) return false;
  const newest = new Map();
  for (const entry of queue) newest.set(entry.uid, entry.change);
  const items = await Promise.all([...newest.keys()].map(uid => store.get('items', uid)));
  const changes = items.filter(Boolean).map(item => pushed(item, newest.get(item.uid))).sort((a, b) => a.change - b.change);
  const device = meta.device || newDevice();
  const last = queue[queue.length - 1].change;
  let result;
  try {
    result = await api.request('POST', '/sync/changes', { epoch: meta.epoch || null, device, from: meta.from || 0, changes });
  } catch (error) {
    if (error.code === 'sync_epoch_changed') { const copy = await fullCopy(); await copy.begin(); return copy.send(); }
    // This session met as a new device there (a session is the
    // credential): the same changes again as a new device.
    if (retried || error.code !== 'sync_out_of_order') throw error;
    await store.transaction(['meta'], 'readwrite', s => {
      s.meta.put(newDevice(), 'device');
      s.meta.put(0, 'from');
    });
    return push(true);
  }
  await store.transaction(['queue', 'meta'], 'readwrite', s => {
    s.meta.put(device, 'device');
    s.meta.put(result.through, 'from');
    // Applied or skipped (a retry), all of them: a 200 leaves none out.
    s.queue.delete(IDBKeyRange.upperBound(last));
  });
  return true;
}

// The voice memos kept while the server was away, uploaded here so that one
// tab sends them (the lock); their code is loaded only when some wait.
async function sendVoice() {
  if (!(await store.count('voice'))) return false;
  return (await import('./voicequeue.js')).send();
}

// A hub with a new epoch gets everything the copy holds: rare, so its code
// is loaded then, not with the page.
const fullCopy = () => import('./fullcopy.js');

// A device's name on the hub: this browser's copy, told apart from a restored one.
export function newDevice() {
  return 'page-' + crypto.randomUUID();
}

// An item as a push sends it: the fields changed since its record, with
// their stamps and the record's text and tags as the merges' base; in a full
// copy, every stamp the record holds too, and no base (the hub's state is
// not the one the record was synced with).
export function pushed(item, change, full = false) {
  const record = item.record;
  if (item.removed) {
    return { kind: item.kind, uid: item.uid, change, removed: true, changed: [],
      clocks: { ...(record ? record.clocks : {}), removed: item.stamps.removed } };
  }
  const changed = Object.keys(FIELDS[item.kind]).filter(field => !record || differs(item.kind, field, item.values, record.values));
  const known = full && record ? record.clocks : {};
  const clocks = { ...known, ...Object.fromEntries(changed.map(field => [field, item.stamps[field] || stamp(record, field)])) };
  delete clocks.removed;
  const doc = { kind: item.kind, uid: item.uid, change, removed: false, values: item.values, changed, clocks };
  // A timer has no tags and no text: nothing to merge from a base.
  if (record && !full && 'tags' in FIELDS[item.kind]) {
    doc.base = { tags: record.values.tags };
    if (item.kind === 'memo') doc.base.text = record.values.text;
  }
  return doc;
}

export function differs(kind, field, values, base) {
  if (field === 'tags') {
    const a = [...values.tags].map(x => x.toLowerCase()).sort(), b = [...base.tags].map(x => x.toLowerCase()).sort();
    return a.join('\n') !== b.join('\n');
  }
  return FIELDS[kind][field].some(column => {
    const a = values[column] ?? null, b = base[column] ?? null;
    // A timer's spans and laps: lists, equal when they hold the same.
    return typeof a === 'object' && a !== null ? JSON.stringify(a) !== JSON.stringify(b) : a !== b;
  });
}

// A field's stamp for a change made now: microseconds since 1970, after the
// stamp of the value it replaces (docs/sync.md, "Clocks").
export function stamp(record, field) {
  const before = record && record.clocks[field] ? record.clocks[field] : 0;
  return Math.max(Date.now() * 1000, before + 1);
}

// Everything changed on the hub after the cursor, a page in a transaction
// with its cursor. Items with a change waiting here are left as they are.
async function pull() {
  for (;;) {
    const meta = await store.meta();
    // Asked without the epoch (a 409 is a console error): another one than
    // the copy's is met below.
    const page = await api.request('GET', '/sync/changes' + api.query({ after: meta.cursor || 0, limit: 1000 }));
    if (meta.epoch !== undefined && page.epoch !== meta.epoch) {
      // Restored, or imported into while empty: it may lack what the copy
      // holds. Everything goes to it again, then the copy is taken anew.
      const copy = await fullCopy();
      await copy.begin();
      await copy.send();
      continue;
    }
    await store.transaction(['items', 'queue', 'meta'], 'readwrite', async (s, wait) => {
      const waiting = new Set((await wait(s.queue.getAll())).map(entry => entry.uid));
      for (const c of page.changes) {
        // Voice memos sync between homes, not into the page's copy (what
        // waits offline is audio to upload: voicequeue.js).
        if (!(c.kind in FIELDS)) continue;
        if (waiting.has(c.uid)) continue;
        if (c.removed) { s.items.delete(c.uid); continue; }
        const known = await wait(s.items.get(c.uid));
        const id = (known && known.id) ?? shownIds.get(c.uid);
        shownIds.delete(c.uid);
        s.items.put({ uid: c.uid, kind: c.kind, id, seq: c.seq, values: c.values,
          record: { values: c.values, clocks: c.clocks }, stamps: {} });
      }
      s.meta.put(page.cursor, 'cursor');
      s.meta.put(page.epoch, 'epoch');
    });
    if (!page.more) return;
  }
}

// The ids of items a list showed (rows name them by id), kept in the copy
// for rows shown before the server went away. A row shown before the copy
// had its item (the list answered before the pull that brings it) has its
// id kept here until that pull writes the item: else, offline, the row's
// actions named an id the copy did not know ("Not on this device").
const shownIds = new Map();
export async function rememberIds(items) {
  if (!state.started || !items.length || !items[0].uid) return;
  try {
    await store.transaction(['items'], 'readwrite', async (s, wait) => {
      for (const item of items) {
        const known = await wait(s.items.get(item.uid));
        if (!known) shownIds.set(item.uid, item.id);
        else if (known.id !== item.id) { known.id = item.id; s.items.put(known); }
      }
    });
  } catch { /* the copy is a help, not a need */ }
}
