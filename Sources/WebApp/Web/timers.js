// Timers: countdowns and stopwatches that live on the server. The time shown
// runs from the figures of the last document received (elapsed/remaining at
// the moment it was made) plus the time since, so no clock skew between
// browser and server matters. A countdown's end (`timer.finished`) rings a
// tone and shows a notification, on whichever tab the user is. Without the
// server the page's copy answers (offlinetimers.js), and rings an end itself.
//
// As on the command line's main screen, a timer that ended is not thrown
// away: a finished countdown and a stopped stopwatch (its time and every
// lap) stay until dismissed (`POST /timers/{id}/dismiss`, which marks it
// seen, here and for `memoapp` alike). A cancelled one leaves at once: the
// user threw it away.
import * as api from './api.js';
import * as events from './events.js';
import { h, toast, errorToast, formatLocal } from './dom.js';
import { fieldError, formError } from './fieldnotes.js';
import { t } from './i18n.js';

function clock(seconds) {
  const s = Math.max(0, seconds);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = Math.floor(s % 60);
  const tenths = Math.floor((s * 10) % 10);
  const mm = String(minutes).padStart(2, '0');
  const ss = String(secs).padStart(2, '0');
  return (hours ? `${hours}:${mm}` : mm) + `:${ss}.${tenths}`;
}

let audio = null;
function ring() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    for (let i = 0; i < 3; i++) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, now + i * 0.35);
      gain.gain.exponentialRampToValueAtTime(0.3, now + i * 0.35 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.35 + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.35);
      osc.stop(now + i * 0.35 + 0.32);
    }
  } catch { /* no audio output */ }
}

// The uids this tab rang for, kept across reloads: an end rung offline is
// not rung again by the server's event for it.
function firstRing(uid) {
  let rung = [];
  try { rung = JSON.parse(sessionStorage.getItem('memoapp.rung')) || []; } catch { /* none */ }
  if (rung.includes(uid)) return false;
  try { sessionStorage.setItem('memoapp.rung', JSON.stringify([...rung.slice(-49), uid])); } catch { /* none */ }
  return true;
}

export function notify(timer) {
  if (timer.uid && !firstRing(timer.uid)) return;
  const text = timer.label ? `${t('timerDone')}: ${timer.label}` : t('timerDone');
  ring();
  toast(text);
  if ('Notification' in window && Notification.permission === 'granted') {
    try { new Notification('memoapp', { body: text, tag: `timer-${timer.id}` }); } catch { /* not here */ }
  }
}

const isActive = item => item.state === 'running' || item.state === 'paused';
// Running and paused timers, and ended ones waiting to be dismissed.
const isShown = item => isActive(item) || ((item.state === 'finished' || item.state === 'stopped') && !item.seen_at);

// Finished countdowns ring whichever feature is open.
events.on('timer.finished', data => notify(data.item || data));

export function mountTimers(panel) {
  const duration = h('input', { name: 'duration', autocomplete: 'off' });
  const label = h('input', { name: 'label', autocomplete: 'off', maxlength: '200' });
  const startButton = h('button', { type: 'submit', class: 'primary' });
  const durationLabel = h('span', { class: 'label' });
  const labelLabel = h('span', { class: 'label' });
  const form = h('form', { class: 'card add-form timer-form', onsubmit: start },
    h('label', { class: 'field' }, durationLabel, duration), h('label', { class: 'field' }, labelLabel, label), startButton);
  const list = h('ul', { class: 'list timer-list' });
  const empty = h('p', { class: 'empty' });
  let timers = [];
  let frame = 0;

  function relabel() {
    durationLabel.textContent = t('duration'); duration.placeholder = '25m';
    labelLabel.textContent = t('label');
    startButton.textContent = t('startTimer');
    empty.textContent = t('noTimers');
    load();
  }

  async function start(event) {
    event.preventDefault();
    const body = {};
    if (duration.value.trim()) body.duration = duration.value.trim();
    if (label.value.trim()) body.label = label.value.trim();
    if (body.duration && 'Notification' in window && Notification.permission === 'default') {
      Notification.requestPermission().catch(() => {});
    }
    if (!audio) { try { audio = new AudioContext(); } catch { /* none */ } }
    try { await api.post('/timers', body); form.reset(); load(); } catch (error) {
      // What a timer's form can have wrong is its duration (1h30, 0m).
      if (error.status === 422 && body.duration) fieldError(duration, error.message); else formError(form, error.message);
    }
  }

  async function load() {
    try {
      // Ended ones too: those not yet seen are shown until dismissed.
      const items = (await api.get('/timers?all=true')).filter(isShown);
      const ended = items.filter(item => !isActive(item))
        .sort((a, b) => (a.ended_at || '').localeCompare(b.ended_at || '') || a.id - b.id);
      const at = performance.now();
      timers = [...items.filter(isActive), ...ended].map(item => ({ item, at }));
      render();
    } catch (error) { errorToast(error.message); }
  }

  function seconds({ item, at }) {
    const running = item.state === 'running';
    const since = running ? (performance.now() - at) / 1000 : 0;
    return item.kind === 'countdown' ? item.remaining - since : item.elapsed + since;
  }

  function action(id, what) {
    return async () => {
      try {
        if (what === 'cancel') await api.del(`/timers/${id}`);
        else await api.post(`/timers/${id}/${what}`);
        load();
      } catch (error) { errorToast(error.message); }
    };
  }

  function render() {
    list.replaceChildren(...timers.map(entry => {
      const { item } = entry;
      const running = item.state === 'running';
      if (!isActive(item)) return endedRow(entry);
      const buttons = [];
      if (running) buttons.push(h('button', { type: 'button', class: 'pause', text: t('pause'), onclick: action(item.id, 'pause') }));
      if (item.state === 'paused') buttons.push(h('button', { type: 'button', class: 'resume', text: t('resume'), onclick: action(item.id, 'resume') }));
      if (item.kind === 'stopwatch' && running) buttons.push(h('button', { type: 'button', class: 'lap', text: t('lap'), onclick: action(item.id, 'lap') }));
      if (item.kind === 'stopwatch') buttons.push(h('button', { type: 'button', class: 'stop', text: t('stop'), onclick: action(item.id, 'stop') }));
      buttons.push(h('button', { type: 'button', class: 'cancel', text: t('cancelTimer'), onclick: action(item.id, 'cancel') }));
      const laps = (item.laps || []).slice(-5).reverse().map(lapLine);
      return h('li', { class: `item timer ${item.kind} state-${item.state}`, 'data-id': String(item.id) },
        h('div', { class: 'body' },
          h('span', { class: 'title', text: item.label || t(item.kind) }),
          h('span', { class: 'clock', 'data-live': '', text: clock(seconds(entry)) }),
          item.state !== 'running' ? h('span', { class: 'meta', text: t(item.state) }) : null,
          laps.length ? h('ul', { class: 'laps' }, laps) : null),
        h('div', { class: 'row-actions' }, buttons));
    }));
    empty.hidden = timers.length > 0;
  }

  // A finished countdown or a stopped stopwatch: what it came to, when it
  // ended, every lap, and Dismiss.
  function endedRow(entry) {
    const { item } = entry;
    const laps = (item.laps || []).slice().reverse().map(lapLine);
    return h('li', { class: `item timer ${item.kind} state-${item.state}`, 'data-id': String(item.id) },
      h('div', { class: 'body' },
        h('span', { class: 'title', text: item.label || t(item.kind) }),
        h('span', { class: 'clock', text: clock(seconds(entry)) }),
        h('span', { class: 'meta ended' }, h('span', { class: 'state', text: item.state === 'finished' ? t('timerDone') : t('timerStopped') }),
          h('time', { datetime: item.ended_at, text: formatLocal(item.ended_at) })),
        laps.length ? h('ul', { class: 'laps' }, laps) : null),
      h('div', { class: 'row-actions' },
        h('button', { type: 'button', class: 'dismiss', text: t('dismiss'), onclick: action(item.id, 'dismiss') })));
  }

  function lapLine(lap) {
    return h('li', { text: `${t('lap')} ${lap.number}  ${clock(lap.elapsed)}  (+${clock(lap.split)})` });
  }

  function tick() {
    // The active timers' clocks, in the order of `timers` (ended ones, whose
    // clocks stand still, come after them and have none).
    const clocks = list.querySelectorAll('[data-live]');
    timers.filter(entry => isActive(entry.item)).forEach((entry, i) => {
      if (clocks[i]) clocks[i].textContent = clock(seconds(entry));
    });
    frame = requestAnimationFrame(tick);
  }

  panel.append(form, list, empty);
  const off = [events.on('timer', () => load()), events.on('timer.finished', () => load()), events.on('reconnected', () => load())];
  // The copy's word (offlinetimers.js): the server went away, or a countdown ended.
  window.addEventListener('memoapp:timers', load);
  off.push(() => window.removeEventListener('memoapp:timers', load));
  relabel();
  frame = requestAnimationFrame(tick);
  return { relabel, destroy() { off.forEach(f => f()); cancelAnimationFrame(frame); } };
}
