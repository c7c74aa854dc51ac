// Voice memos recorded or picked while the server could not be reached
// (docs/sync.md, "The page as a device"): the audio is kept in the page's
// copy (store.js's `voice` store) with its title, file name and type, shown
// in the voice list as waiting, counted among the changes waiting, and
// uploaded by the sync run (sync.js: under its Web Lock, so one tab
// uploads). Loaded by the voice tab, and by a sync run only while something
// waits: the first load carries none of it.
import * as api from './api.js';
import * as store from './store.js';
import * as sync from './sync.js';
import { h, icon, toast, errorToast } from './dom.js';
import { t } from './i18n.js';

// Statuses that say nothing about the audio: no answer (0), a session the
// page has yet to confirm (it opened on its copy) or the gate (401, 403).
// The audio is kept for then; any other refusal is the server's word on it.
const NOT_REACHED = [0, 401, 403];

// Keeps `audio` to upload later when `error` (the failed upload's) says the
// server was not reached. Resolves true when kept, false when the error is
// the server's answer to this audio (the caller shows it).
export async function keep(error, audio, name, type, title) {
  if (!NOT_REACHED.includes(error.status)) return false;
  // The key is made now, once: every later try sends the same one, so a
  // try whose answer was lost and is made again stores one memo.
  const memo = { key: crypto.randomUUID(), audio, name, type, title: title || null, keptAt: Date.now() };
  await store.transaction(['voice'], 'readwrite', s => { s.voice.put(memo); });
  if (error.status === 0) sync.wentOffline();
  sync.changed();
  return true;
}

// Whether `error` (the voice list's) is the server not answering while the
// page has its copy: then the top bar says "Offline" once, and the voice tab
// adds no banner of its own.
export async function offline(error) {
  if (error.status !== 0 || !(await store.hasCopy())) return false;
  sync.wentOffline();
  return true;
}

// What waits, oldest first.
export async function waiting() {
  return (await store.all('voice')).sort((a, b) => a.keptAt - b.keptAt);
}

// Sends what waits, oldest first; called by sync.js's run, under its lock.
// Uploaded: removed. Refused (unreadable audio, too large, already stored):
// removed, and the server's message, which names the file, shown once: a
// refusal stays a refusal, so trying again would never end (audio the
// server already holds is said as that, not as an error). No answer:
// thrown (the run ends there, offline). Any other answer: this one and the
// rest kept for the next run, and the run goes on to pull (a memo the
// server fails on must not stop the copy from being brought up to date).
// Resolves true when something left the store.
export async function send() {
  let sent = false;
  try {
    for (const memo of await waiting()) {
      try {
        await api.upload('/voice' + api.query({ title: memo.title || undefined, filename: memo.name }),
          memo.audio, memo.type, () => {}, { 'Idempotency-Key': memo.key });
      } catch (error) {
        if (error.status === 0) throw error;
        if (!isRefusal(error)) { console.warn('voice upload:', error.message); break; }
        // The server holds this very audio: most often this upload's own
        // earlier try, whose answer was lost across a restart of the server
        // (its memory of Idempotency-Keys went with it). Not an error.
        if (error.code === 'duplicate') toast(`${memo.name}: ${t('voiceAlreadyThere')}`);
        else errorToast(error.message);
      }
      await store.transaction(['voice'], 'readwrite', s => { s.voice.delete(memo.key); });
      sent = true;
    }
  } finally {
    if (sent) window.dispatchEvent(new Event('memoapp:voicesent'));
  }
  return sent;
}

// 5xx (the server's own trouble), 408, 429, and a 409 for a try of the same
// key still running (`invalid_state`) are worth trying again; so is no answer.
function isRefusal(error) {
  return error.status >= 400 && error.status < 500 && !NOT_REACHED.includes(error.status)
    && error.status !== 408 && error.status !== 429 && error.code !== 'invalid_state';
}

// The rows of what waits, in a list of their own just above `list` (the
// voice tab's memos, which paging.js owns), each with its audio to play and
// a button that throws it away. Resolves with how many wait.
let urls = [];
export async function show(list) {
  let box = list.previousElementSibling;
  if (!box || !box.classList.contains('voice-waiting')) list.before(box = h('ul', { class: 'list voice-waiting' }));
  const memos = await waiting();
  // The rows drawn before are replaced: their audio's addresses with them.
  urls.forEach(url => URL.revokeObjectURL(url));
  urls = memos.map(memo => URL.createObjectURL(memo.audio));
  const rows = memos.map((memo, index) => h('li', { class: 'item voice is-waiting', 'data-key': memo.key },
    h('div', { class: 'body' }, h('span', { class: 'title', text: memo.title || memo.name }),
      h('div', { class: 'meta' }, h('span', { class: 'waiting', text: t('voiceWaiting') })),
      h('audio', { controls: true, preload: 'metadata', src: urls[index], 'aria-label': memo.title || memo.name })),
    h('div', { class: 'row-actions' },
      h('button', { type: 'button', class: 'icon-button delete', 'aria-label': t('delete'), title: t('delete'),
        onclick: () => discard(memo, list) }, icon('trash')))));
  box.replaceChildren(...rows);
  box.hidden = rows.length === 0;
  list.dispatchEvent(new CustomEvent('memoapp:waiting', { detail: rows.length }));
  return rows.length;
}

// A recording thrown away before it was sent, with an Undo that keeps it
// again. Under the sync run's lock: a run uploading it ends first, and then
// it is a voice memo on the server like any other (deleted there as one).
async function discard(memo, list) {
  const take = () => store.transaction(['voice'], 'readwrite', async (s, wait) => {
    const kept = await wait(s.voice.get(memo.key));
    if (kept) s.voice.delete(memo.key);
    return !!kept;
  });
  let taken = false;
  try {
    taken = await (navigator.locks ? navigator.locks.request('memoapp-sync', take) : take());
  } catch (error) { errorToast(error.message); }
  await show(list);
  sync.changed();
  if (!taken) return;
  toast(t('voiceDiscarded'), { label: t('undo'), run: async () => {
    try {
      await store.transaction(['voice'], 'readwrite', s => { s.voice.put(memo); });
      await show(list);
      sync.changed();
    } catch (error) { errorToast(error.message); }
  } });
}
