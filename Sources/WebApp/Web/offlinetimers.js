// The timer routes timers.js calls, answered from the page's copy while the
// server cannot be reached (offline.js hands them here; docs/sync.md, "The
// page as a device"): the API's timer documents (docs/json.md) made from the
// synced values, and each action (start, pause, resume, lap, stop, cancel,
// dismiss) written into the copy as the hub's timers make it
// (Sources/Timers/TimerRecord+Actions.swift), one change with its queue
// entry, sent later (sync.js) and merged on the hub by the timer rules. A
// countdown that runs out while the event stream is down is settled here and
// rung (timers.js): the server's event for it, later, does not ring again.
import * as store from './store.js';
import * as sync from './sync.js';
import * as events from './events.js';
import { ApiError } from './api.js';
import { lang, t } from './i18n.js';
import { find } from './offline.js';
import { notify } from './timers.js';

// A reading of the clocks as the protocol carries it ({wall, boot, boot_id}).
// A browser has no boot clock: performance.now() stops while the machine
// sleeps, and the hub trusts the difference of two readings that name the
// same boot, so a span measured by it would lose the time a phone slept in
// a pocket. Each reading therefore names a boot of its own (a new id, which
// the hub keeps as it keeps any: it only compares them), its `boot` being
// its wall time. No two of the page's readings share a boot, so every span
// the page starts or ends is measured by the wall clock, here and on every
// home, and shown as estimated, as across a reboot: what the wall clock
// says passed counts, and nothing is made up on a clock the page lacks.
function reading() {
  const wall = Date.now() / 1000;
  return { wall, boot: wall, boot_id: 'page-' + crypto.randomUUID() };
}

const shifted = (r, seconds) => ({ wall: r.wall + seconds, boot: r.boot + seconds, boot_id: r.boot_id });

// -- Measuring (Sources/Timers/TimerRecord+Measuring.swift)

function measured(span, now) {
  const end = span.end || now;
  if (end.boot_id === span.start.boot_id) return { seconds: Math.max(0, end.boot - span.start.boot), estimated: false };
  return { seconds: Math.max(0, end.wall - span.start.wall), estimated: true };
}

function raw(v, now) {
  const total = { seconds: 0, estimated: false };
  for (const span of v.spans) {
    const part = measured(span, now);
    total.seconds += part.seconds;
    total.estimated = total.estimated || part.estimated;
  }
  return total;
}

function elapsed(v, now) {
  const total = raw(v, now);
  if (v.duration == null) return total;
  return { seconds: v.state === 'finished' ? v.duration : Math.min(total.seconds, v.duration), estimated: total.estimated };
}

function remaining(v, now) {
  if (v.duration == null) return null;
  const total = raw(v, now);
  return { seconds: v.state === 'finished' ? 0 : Math.max(0, v.duration - total.seconds), estimated: total.estimated };
}

const isActive = state => state === 'running' || state === 'paused';
const isOver = (v, now) => v.kind === 'countdown' && v.state === 'running' && raw(v, now).seconds >= v.duration;
const copied = v => ({ ...v, spans: v.spans.map(span => ({ ...span })), laps: [...v.laps] });

function closeOpenSpan(v, at) {
  const last = v.spans[v.spans.length - 1];
  if (last && !last.end) last.end = at;
}

// A countdown whose time ran out, finished at the moment it reached zero
// (both clocks set back by the overshoot), as the hub settles one.
function settled(v, now) {
  if (!isOver(v, now)) return v;
  const end = shifted(now, -(raw(v, now).seconds - v.duration));
  const timer = copied(v);
  closeOpenSpan(timer, end);
  return { ...timer, state: 'finished', ended_at: end.wall };
}

// -- Actions (Sources/Timers/TimerRecord+Actions.swift)

const WORDS = {
  en: { pause: 'pause', resume: 'resume', cancel: 'cancel', lap: 'record a lap on', stop: 'stop', dismiss: 'dismiss',
    running: 'running', paused: 'paused', finished: 'finished', cancelled: 'cancelled', stopped: 'stopped' },
  ko: { pause: '일시정지할', resume: '재개할', cancel: '취소할', lap: '랩 기록할', stop: '정지할', dismiss: '치울',
    running: '실행 중인', paused: '일시정지된', finished: '완료된', cancelled: '취소된', stopped: '정지된' },
};

// The server's words for an action the timer's state (or kind: `state` null) refuses.
function refusal(id, action, state, already = false) {
  const w = WORDS[lang()] || WORDS.en;
  if (lang() === 'ko') {
    return new ApiError(409, 'invalid_state', `${id}번 타이머를 ${w[action]} 수 없습니다: `
      + (state ? `${already ? '이미 ' : ''}${w[state]} 상태입니다.` : '카운트다운입니다.'));
  }
  return new ApiError(409, 'invalid_state', `Cannot ${w[action]} timer ${id}: it is `
    + (state ? `${already ? 'already ' : ''}${w[state]}.` : 'a countdown; laps and stop are for stopwatches.'));
}

function act(item, action, now) {
  const id = item.id ?? item.uid;
  const timer = copied(settled(item.values, now));
  const state = timer.state;
  const refuse = () => refusal(id, action, state, (action === 'pause' && state === 'paused') || (action === 'resume' && state === 'running'));
  if ((action === 'lap' || action === 'stop') && timer.kind === 'countdown') throw refusal(id, action, null);
  if (action === 'pause') {
    if (state !== 'running') throw refuse();
    closeOpenSpan(timer, now);
    timer.state = 'paused';
  } else if (action === 'resume') {
    if (state !== 'paused') throw refuse();
    timer.spans.push({ start: now, end: null });
    timer.state = 'running';
  } else if (action === 'lap') {
    if (state !== 'running') throw refuse();
    const total = elapsed(timer, now);
    const previous = timer.laps.length ? timer.laps[timer.laps.length - 1].elapsed : 0;
    timer.laps.push({ elapsed: Math.max(total.seconds, previous), estimated: total.estimated || previous > total.seconds, at: now.wall });
  } else if (action === 'cancel' || action === 'stop') {
    if (!isActive(state)) throw refuse();
    closeOpenSpan(timer, now);
    timer.state = action === 'cancel' ? 'cancelled' : 'stopped';
    timer.ended_at = now.wall;
  } else if (action === 'dismiss') {
    if (isActive(state)) throw refuse();
    timer.seen_at = timer.seen_at ?? now.wall;
  }
  return timer;
}

// `current` with `values`, each field that changed stamped now (docs/sync.md, "Clocks").
function restamped(current, values) {
  const stamps = { ...current.stamps };
  for (const field of Object.keys(sync.FIELDS.timer)) {
    if (sync.differs('timer', field, values, current.values)) stamps[field] = sync.stamp(current.record, field);
  }
  return { ...current, values, stamps };
}

async function written(item) {
  sync.changed();
  watch();
  return item;
}

// -- Starting one: a duration as the server reads it (Sources/Timers/DurationParser.swift)

const UNITS = { h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600, 시간: 3600, m: 60, min: 60, mins: 60, minute: 60,
  minutes: 60, 분: 60, s: 1, sec: 1, secs: 1, second: 1, seconds: 1, 초: 1 };
const FORMS = { en: '90s, 25m, 1h30m, 1h 30m, 1:30 (m:ss), 1:00:00 (h:mm:ss), 25 (minutes), 25분, 1시간 30분 or 30초',
  ko: '90s, 25m, 1h30m, 1h 30m, 1:30 (분:초), 1:00:00 (시:분:초), 25 (분), 25분, 1시간 30분, 30초' };
const YEAR = 31536000;
const usage = (en, ko) => new ApiError(400, 'usage', lang() === 'ko' ? ko : en);
const number = text => /^\d+(\.\d+)?$/.test(text) ? Number(text) : null;

function parse(text) {
  if (!text) return null;
  if (text.includes(':')) {
    const fields = text.split(':');
    if ((fields.length !== 2 && fields.length !== 3) || !fields.every(f => /^\d+$/.test(f))
      || !fields.slice(1).every(f => f.length === 2 && Number(f) < 60)) return null;
    return fields.reduce((sum, f) => sum * 60 + Number(f), 0);
  }
  if (number(text) !== null) return number(text) * 60;
  let rest = text, total = 0, previous = Infinity;
  while ((rest = rest.trimStart())) {
    const match = /^([\d.]*)\s*(\p{L}*)/u.exec(rest);
    const value = number(match[1]), unit = UNITS[match[2].toLowerCase()];
    // Larger units first, each once, as the server has it.
    if (value === null || !unit || unit >= previous) return null;
    total += value * unit;
    previous = unit;
    rest = rest.slice(match[0].length);
  }
  return previous === Infinity ? null : total;
}

function duration(given) {
  if (given == null) return null;
  const text = String(given).trim();
  const seconds = typeof given === 'number' ? given : parse(text);
  if (seconds === null || !Number.isFinite(seconds)) {
    throw usage(`'${given}' is not a duration. Use ${FORMS.en}.`, `'${given}'은(는) 시간 길이로 읽을 수 없습니다. ${FORMS.ko} 같은 형식을 쓰세요.`);
  }
  if (seconds > YEAR) throw usage(`'${given}' is longer than the limit of one year (8760h). Use ${FORMS.en}.`,
    `'${given}'은(는) 최대 길이인 1년(8760시간)보다 깁니다. ${FORMS.ko} 같은 형식을 쓰세요.`);
  if (seconds < 0.001) throw usage(`A duration must be at least a millisecond (got '${given}'). Use ${FORMS.en}.`,
    `시간 길이는 1밀리초 이상이어야 합니다 ('${given}'). ${FORMS.ko} 같은 형식을 쓰세요.`);
  return Math.round(seconds * 1000) / 1000;
}

function label(text) {
  // Trimmed of what Swift's isWhitespace trims too (U+0085 is not JavaScript
  // whitespace): the hub refuses a label that trimming would change.
  const trimmed = text == null ? '' : String(text).replace(/^[\s\u0085]+|[\s\u0085]+$/g, '');
  if (!trimmed) return null;
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw usage('A timer label must be one line without control characters.', '타이머 이름은 제어 문자가 없는 한 줄이어야 합니다.');
  }
  const length = [...trimmed].length;
  if (length > 200) throw usage(`A timer label may be at most 200 characters (got ${length}).`, `타이머 이름은 최대 200자입니다 (${length}자).`);
  return trimmed;
}

async function start(body) {
  const seconds = duration(body.duration);
  const name = label(body.label);
  let todo = null;
  if (body.todo_id != null) {
    const item = await find(String(body.todo_id));
    if (!item || item.kind !== 'todo' || item.removed) throw new ApiError(404, 'not_found', t('notKept'));
    todo = item.uid;
  }
  const now = reading();
  const uid = crypto.randomUUID();
  const values = { kind: seconds === null ? 'stopwatch' : 'countdown', duration: seconds, created_at: now.wall, label: name,
    state: 'running', ended_at: null, todo, seen_at: null, spans: [{ start: now, end: null }], laps: [] };
  const stamped = sync.stamp(null, 'created');
  const stamps = Object.fromEntries(Object.keys(sync.FIELDS.timer).map(field => [field, stamped]));
  return written(await store.change(uid, () => ({ uid, kind: 'timer', values, record: null, stamps })));
}

// -- The API's documents (MemoAPI's TimerJSON.swift)

const iso = seconds => seconds == null ? null : new Date(seconds * 1000).toISOString();
const ms = seconds => seconds == null ? null : Math.round(seconds * 1000) / 1000;

async function timerDocument(item, now) {
  const v = settled(item.values, now);
  const total = elapsed(v, now), left = remaining(v, now);
  const endsAt = v.state === 'finished' ? v.ended_at : v.state === 'running' && left ? now.wall + left.seconds : null;
  const moments = [v.created_at, v.ended_at, v.seen_at, ...v.laps.map(lap => lap.at),
    ...v.spans.flatMap(span => [span.start.wall, span.end && span.end.wall])].filter(x => x != null);
  const todo = v.todo ? await store.get('items', v.todo) : null;
  const doc = { id: item.id ?? item.uid, uid: item.uid, rev: item.local ? `l${item.local}` : `p${item.seq}`, kind: v.kind,
    label: v.label, state: v.state, duration: ms(v.duration), elapsed: ms(total.seconds), remaining: left && ms(left.seconds),
    estimated: total.estimated, created_at: iso(v.created_at), ends_at: iso(endsAt), ended_at: iso(v.ended_at),
    todo_id: todo && todo.id != null ? todo.id : null, seen_at: iso(v.seen_at), updated_at: iso(Math.max(...moments)) };
  if (v.kind === 'stopwatch') {
    let previous = 0;
    doc.laps = v.laps.map((lap, index) => {
      const line = { number: index + 1, elapsed: ms(lap.elapsed), split: ms(lap.elapsed - previous), estimated: lap.estimated,
        recorded_at: iso(lap.at) };
      previous = lap.elapsed;
      return line;
    });
  }
  return doc;
}

const timers = async () => (await store.all('items')).filter(item => item.kind === 'timer' && !item.removed);

// Every countdown in the copy whose time ran out: stored finished (a change
// to send) and rung.
async function settleEnded() {
  const now = reading();
  for (const item of (await timers()).filter(item => isOver(item.values, now))) {
    const finished = await store.change(item.uid, current => restamped(current, settled(current.values, now)));
    sync.changed();
    notify(await timerDocument(finished, now));
    // The list, if open, shows it ended.
    window.dispatchEvent(new Event('memoapp:timers'));
  }
}

// The routes: `parts` the path's parts after /api/v1, `params` its query.
export async function answer(method, parts, params, body) {
  if (parts.length === 1) {
    if (method === 'POST') return timerDocument(await start(body || {}), reading());
    if (method !== 'GET') return undefined;
    await settleEnded();
    const all = ['true', '1', ''].includes(params.get('all'));
    const now = reading();
    const shown = (await timers()).filter(item => all || isActive(item.values.state))
      .sort((a, b) => a.values.created_at - b.values.created_at);
    return Promise.all(shown.map(item => timerDocument(item, now)));
  }
  let item = await find(parts[1]);
  if (!item || item.kind !== 'timer' || item.removed) throw new ApiError(404, 'not_found', t('notKept'));
  const action = method === 'DELETE' && parts.length === 2 ? 'cancel' : method === 'POST' ? parts[2] : null;
  if (method === 'GET' && parts.length === 2) {
    await settleEnded();
    return timerDocument(await store.get('items', item.uid), reading());
  }
  if (!['pause', 'resume', 'lap', 'stop', 'cancel', 'dismiss'].includes(action)) return undefined;
  // Settled first, as on the hub: pausing a countdown that ran out is refused.
  await settleEnded();
  const now = reading();
  item = await store.change(item.uid, current => restamped(current, act(current, action, now)));
  return timerDocument(await written(item), now);
}

// The event stream went down (sync.js tells, at each of its tries to
// connect again). Once each time, an open Timers list is drawn again, from
// the copy: a row the server drew names an id the copy may not know.
let down = false;
events.on('connected', () => { down = false; });
export function streamDown() {
  if (!down) window.dispatchEvent(new Event('memoapp:timers'));
  down = true;
  return watch();
}

// The copy's running countdowns watched while the event stream is down: at
// the first one's end (a few ms past, so that it has ended when looked at),
// each that ran out is settled and rung. With the stream open (events.js
// marks the body `offline` while it is not) the server's own
// `timer.finished` rings it instead.
let alarm = 0;
export async function watch() {
  clearTimeout(alarm);
  const now = reading();
  const left = (await timers()).filter(item => item.values.kind === 'countdown' && item.values.state === 'running')
    .map(item => remaining(item.values, now).seconds);
  if (!left.length) return;
  alarm = setTimeout(async () => {
    if (!document.body.classList.contains('offline')) return;
    try { await settleEnded(); } catch (error) { console.warn('timers:', error.message); }
    watch();
  }, Math.min(Math.min(...left) * 1000 + 5, 2 ** 31 - 1));
}
