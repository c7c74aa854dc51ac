// The page's copy of the to-dos and memos in IndexedDB (docs/sync.md, "The
// page as a device"): `items` (values beside the `record` last synced, the
// merge base), `queue` (one entry per unsent change, numbered), `meta`, and
// `voice` (audio recorded or picked without the server, waiting to be
// uploaded: voicequeue.js). A change and its queue entry are written in one
// transaction.
const DB = 'memoapp';
// 2 added `voice`: a copy made by version 1 is upgraded in place, its stores
// and what waits in them kept.
const VERSION = 2;
const STORES = [['items', { keyPath: 'uid' }], ['queue', { keyPath: 'change' }], ['meta', undefined], ['voice', { keyPath: 'key' }]];
let opened = null;

export function open() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB, VERSION);
      // Each store made when missing, not by the version upgraded from: a
      // database of this name opened first by something else (a script,
      // an extension) is version 1 with no stores at all.
      request.onupgradeneeded = () => {
        const db = request.result;
        for (const [name, options] of STORES) if (!db.objectStoreNames.contains(name)) db.createObjectStore(name, options);
      };
      request.onsuccess = () => {
        const db = request.result;
        // A newer page (another tab, after an update) upgrading the copy
        // waits until every older connection closes: this one steps aside.
        db.onversionchange = () => { db.close(); opened = null; };
        resolve(db);
      };
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error('IndexedDB blocked'));
    });
    opened.catch(() => { opened = null; });
  }
  return opened;
}

const done = request => new Promise((resolve, reject) => {
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});

// Runs `work(stores)` in one transaction over `names`; resolves with what
// `work` resolved with once the transaction has committed.
export async function transaction(names, mode, work) {
  const db = await open();
  const tx = db.transaction(names, mode);
  const stores = Object.fromEntries(names.map(name => [name, tx.objectStore(name)]));
  const committed = new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('aborted'));
  });
  let result;
  try { result = await work(stores, done); } catch (error) { try { tx.abort(); } catch { /* over */ } throw error; }
  await committed;
  return result;
}

export const get = (store, key) => transaction([store], 'readonly', s => done(s[store].get(key)));
export const all = store => transaction([store], 'readonly', s => done(s[store].getAll()));
export const count = store => transaction([store], 'readonly', s => done(s[store].count()));

export async function meta() {
  return transaction(['meta'], 'readonly', async s => {
    const keys = await done(s.meta.getAllKeys());
    const values = await done(s.meta.getAll());
    return Object.fromEntries(keys.map((key, i) => [key, values[i]]));
  });
}

// Whether the page has a copy to show without its server.
export async function hasCopy() {
  try { return (await get('meta', 'cursor')) !== undefined; } catch { return false; }
}

// A change: `make(item)` returns the item changed (null: removed), written
// with its queue entry and the next change number in one transaction.
export function change(uid, make) {
  return transaction(['items', 'queue', 'meta'], 'readwrite', async (s, wait) => {
    const item = await wait(s.items.get(uid));
    const next = await make(item);
    const number = ((await wait(s.meta.get('change'))) || 0) + 1;
    s.meta.put(number, 'change');
    if (next === null) {
      s.items.delete(uid);
      // Made and removed here before it was ever sent: nothing to send.
      const queued = await wait(s.queue.getAll());
      for (const entry of queued) if (entry.uid === uid) s.queue.delete(entry.change);
      return null;
    }
    next.local = number; // the rows' `rev`: a changed row is drawn anew
    s.items.put(next);
    s.queue.put({ change: number, uid, kind: next.kind });
    return next;
  });
}

// Forgets the copy and its queue (signing out: the next person to sign in
// on this browser must not find them).
export async function forget() {
  if (opened) { try { (await opened).close(); } catch { /* never opened */ } opened = null; }
  await done(indexedDB.deleteDatabase(DB));
}
