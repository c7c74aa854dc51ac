// The API's to-do and memo routes as the page's copy answers them while the
// server cannot be reached (api.js asks here when a request fails): lists,
// one item, and add, edit, check off, pin and remove, each written into the
// copy with its queue entry (store.js) and sent later (sync.js). The screens
// stay as they are: they get the documents the API would give (docs/json.md).
// The timer routes are offlinetimers.js's (main.js loads it with the main
// screen, as it loads this). Everything else (search, undo, voice but what waits to upload)
// needs the server.
import * as store from './store.js';
import * as sync from './sync.js';
import { ApiError } from './api.js';
import { t } from './i18n.js';

const PRIORITY = [null, 'low', 'medium', 'high'];

// The answer to `method path` from the copy, or undefined when it has none.
export async function answer(method, path, body) {
  const [route, query = ''] = path.split('?');
  const parts = route.split('/').filter(Boolean);
  const kind = { todos: 'todo', memos: 'memo', timers: 'timer' }[parts[0]];
  if (!kind || !(await store.hasCopy())) return undefined;
  sync.wentOffline();
  const params = new URLSearchParams(query);
  if (kind === 'timer') return (await import('./offlinetimers.js')).answer(method, parts, params, body);
  if (parts.length === 1) {
    if (method === 'GET') return list(kind, params);
    if (method === 'POST') return document(await add(kind, body || {}));
    return undefined;
  }
  const item = await find(parts[1]);
  if (!item || item.kind !== kind || item.removed) throw new ApiError(404, 'not_found', t('notKept'));
  const action = parts[2];
  if (method === 'GET' && !action) return document(item, true);
  if (method === 'DELETE' && !action) { await write(item.uid, () => null); return null; }
  if (method === 'PATCH' && !action) return document(await write(item.uid, current => edit(current, body || {})));
  if (method === 'POST' && kind === 'todo' && (action === 'done' || action === 'undo')) {
    return document(await write(item.uid, current => set(current, { done_at: action === 'done' ? now() : null })));
  }
  if (method === 'POST' && kind === 'memo' && (action === 'pin' || action === 'unpin')) {
    return document(await write(item.uid, current => set(current, { is_pinned: action === 'pin' })));
  }
  return undefined;
}

const now = () => Date.now() / 1000;

export async function find(id) {
  if (!/^\d+$/.test(id)) return store.get('items', id);
  return (await store.all('items')).find(item => item.id === Number(id));
}

// A change of `uid` written with its queue entry. `make(item)` is the item
// changed, or null for a removal.
async function write(uid, make) {
  const item = await store.change(uid, current => {
    const next = make(current);
    if (next !== null) return next;
    // Removed: gone at once if it was never sent, else kept (hidden) until
    // the hub has its removal.
    if (!current.record) return null;
    return { ...current, removed: true, stamps: { ...current.stamps, removed: sync.stamp(null, 'removed') } };
  });
  sync.changed();
  return item;
}

// `current` with `columns` set, each changed field stamped now.
function set(current, columns) {
  const values = { ...current.values, ...columns };
  const stamps = { ...current.stamps };
  for (const field of Object.keys(sync.FIELDS[current.kind])) {
    if (sync.differs(current.kind, field, values, current.values)) stamps[field] = sync.stamp(current.record, field);
  }
  return { ...current, values, stamps };
}

async function add(kind, body) {
  const uid = crypto.randomUUID();
  const values = kind === 'todo'
    ? { title: required(body.title), note: body.note || null, priority: priority(body.priority), ...due(body.due),
      done_at: null, remind_at: null, repeat_every: null, repeat_unit: null, repeat_from: null, repeat_day: null,
      created_at: now(), tags: body.tags || [] }
    : { title: body.title || null, text: required(body.text), is_pinned: !!body.pinned, created_at: now(),
      conflict_of: null, tags: body.tags || [] };
  if (kind === 'todo') needsServer(body, ['remind', 'repeat']);
  const stamped = sync.stamp(null, 'created');
  const stamps = Object.fromEntries(Object.keys(sync.FIELDS[kind]).map(field => [field, stamped]));
  await store.change(uid, () => ({ uid, kind, values, record: null, stamps }));
  sync.changed();
  return store.get('items', uid);
}

function edit(current, body) {
  const columns = {};
  if ('title' in body) columns.title = current.kind === 'todo' ? required(body.title) : body.title || null;
  if ('text' in body) columns.text = required(body.text);
  if ('note' in body) columns.note = body.note || null;
  if ('priority' in body) columns.priority = priority(body.priority);
  if ('due' in body) Object.assign(columns, due(body.due));
  if ('pinned' in body) columns.is_pinned = !!body.pinned;
  let tags = 'tags' in body ? body.tags : current.values.tags;
  if (body.add_tags) tags = [...tags, ...body.add_tags.filter(tag => !tags.includes(tag))];
  if (body.remove_tags) tags = tags.filter(tag => !body.remove_tags.includes(tag));
  needsServer(body, ['remind', 'repeat']);
  return set(current, { ...columns, tags });
}

function required(text) {
  if (typeof text !== 'string' || !text.trim()) throw new ApiError(422, 'bad_input', t('offlineEmpty'));
  return text;
}

function priority(word) {
  const index = PRIORITY.indexOf(word || null);
  return index > 0 ? index : null;
}

// A due date without the server: the date (and time) as `YYYY-MM-DD [HH:MM]`
// only; the words the server reads (`tomorrow`, `fri 18:30`) need it. A date
// alone is due at the last second of that local day, as the server has it.
function due(text) {
  if (!text || !String(text).trim()) return { due_at: null, due_has_time: false };
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2}))?$/.exec(String(text).trim());
  if (!match) throw new ApiError(422, 'bad_input', t('offlineDue'));
  const [, y, m, d, hh, mm] = match.map(Number);
  const hasTime = match[4] !== undefined;
  const at = hasTime ? new Date(y, m - 1, d, hh, mm) : new Date(y, m - 1, d, 23, 59, 59);
  if (Number.isNaN(at.getTime())) throw new ApiError(422, 'bad_input', t('offlineDue'));
  return { due_at: at.getTime() / 1000, due_has_time: hasTime };
}

// A reminder or a rule: the server's words, kept for when it answers.
function needsServer(body, keys) {
  if (keys.some(key => body[key])) throw new ApiError(422, 'offline', t('offlineNeedsServer'));
}

// -- The API's documents, made from the copy's values.

const iso = seconds => seconds == null ? null : new Date(seconds * 1000).toISOString();
const pad = n => String(n).padStart(2, '0');
const localDate = d => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

function document(item, whole = false) {
  if (!item) return null;
  const v = item.values;
  const clocks = [...Object.values(item.record ? item.record.clocks : {}), ...Object.values(item.stamps || {})];
  const updated = clocks.length ? Math.max(...clocks) / 1e6 : v.created_at;
  const common = { id: item.id ?? item.uid, uid: item.uid, rev: item.local ? `l${item.local}` : `p${item.seq}`,
    title: v.title, tags: v.tags, created_at: iso(v.created_at), updated_at: iso(updated) };
  if (item.kind === 'memo') {
    const line = (v.text.split(/\r?\n/).find(l => l.trim()) || '').replace(/[\t\0]/g, ' ');
    const preview = [...line].length > 60 ? [...line].slice(0, 60).join('') + '…' : line;
    return { ...common, ...(whole ? { text: v.text } : { preview }), is_pinned: v.is_pinned, conflict_of: v.conflict_of };
  }
  const dueAt = v.due_at == null ? null : new Date(v.due_at * 1000);
  const today = localDate(new Date());
  return { ...common, note: v.note, priority: PRIORITY[v.priority] || null,
    due_at: iso(v.due_at), due_has_time: v.due_has_time,
    due_local: dueAt ? localDate(dueAt) + (v.due_has_time ? ` ${pad(dueAt.getHours())}:${pad(dueAt.getMinutes())}` : '') : null,
    remind_at: iso(v.remind_at), is_done: v.done_at != null, done_at: iso(v.done_at),
    is_overdue: v.done_at == null && v.due_at != null && v.due_at < now(),
    is_due_today: dueAt !== null && localDate(dueAt) === today,
    repeat: v.repeat_every ? { every: v.repeat_every, unit: v.repeat_unit, from: v.repeat_from || 'due' } : null,
    ...(whole ? { time_spent_seconds: 0 } : {}) };
}

async function list(kind, params) {
  const tag = (params.get('tag') || '').toLowerCase();
  let items = (await store.all('items')).filter(item => item.kind === kind && !item.removed
    && (!tag || item.values.tags.some(x => x.toLowerCase() === tag)));
  const by = (f, direction = 1) => (a, b) => {
    const x = f(a.values), y = f(b.values);
    return x === y ? 0 : x == null ? 1 : y == null ? -1 : (x < y ? -direction : direction);
  };
  if (kind === 'memo') {
    items.sort((a, b) => (b.values.is_pinned - a.values.is_pinned) || by(v => v.created_at, -1)(a, b));
    return items.map(item => document(item));
  }
  const status = params.get('status') || 'open';
  if (status !== 'all') items = items.filter(item => (item.values.done_at != null) === (status === 'done'));
  const dueWanted = params.get('due');
  if (dueWanted) {
    const end = new Date(); end.setHours(23, 59, 59, 0);
    const limit = end.getTime() / 1000 + (dueWanted === 'week' ? 6 * 86400 : 0);
    items = items.filter(item => item.values.due_at != null && (dueWanted === 'overdue'
      ? item.values.due_at < now() : item.values.due_at <= limit && (dueWanted !== 'today' || item.values.due_at > limit - 86400)));
  }
  const sorts = { created: by(v => v.created_at), due: by(v => v.due_at), priority: by(v => v.priority, -1) };
  items.sort(sorts[params.get('sort')] || by(v => v.created_at, -1));
  return items.map(item => document(item));
}
