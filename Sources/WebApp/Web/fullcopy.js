// The full copy a hub with a new epoch gets (docs/sync.md, "Epochs"),
// loaded by sync.js when it meets one: the page's whole copy sent again as a
// new device, before the copy is pulled anew.
import * as api from './api.js';
import * as store from './store.js';
import * as sync from './sync.js';

// The hub has another epoch (docs/sync.md, "Epochs"): a restore or an
// import into an empty home, so it may lack items this copy holds or hold
// older values of them. The page meets it as a new device and sends
// everything it holds (send); until that is done, `copying` stays in
// the copy's meta, so a run cut half way (offline, the tab closed) starts
// the copy again, never just the queue.
export async function begin() {
  await store.transaction(['meta'], 'readwrite', s => {
    s.meta.put(true, 'copying');
    s.meta.put(sync.newDevice(), 'device');
    s.meta.put(0, 'from');
    s.meta.delete('epoch');
    s.meta.put(0, 'cursor');
  });
}

// Every item of the copy, removals waiting included, numbered after every
// change so far; sent in pushes of at most COPY_COUNT changes and about
// COPY_BYTES of JSON (the hub takes 2,000 and 8 MiB). The queue up to the
// moment it was read is then done with: what it named went with the copy.
const COPY_COUNT = 1000, COPY_BYTES = 4 * 1024 * 1024;
export async function send() {
  const { items, queued, first, device } = await store.transaction(['items', 'queue', 'meta'], 'readwrite', async (s, wait) => {
    const items = await wait(s.items.getAll());
    const queue = await wait(s.queue.getAll());
    const first = ((await wait(s.meta.get('change'))) || 0) + 1;
    s.meta.put(first + items.length - 1, 'change');
    const device = (await wait(s.meta.get('device'))) || sync.newDevice();
    s.meta.put(device, 'device');
    return { items, queued: queue.length ? queue[queue.length - 1].change : 0, first, device };
  });
  let batch = [], bytes = 0;
  const post = async () => {
    if (!batch.length) return;
    const from = (await store.get('meta', 'from')) || 0;
    const result = await api.request('POST', '/sync/changes', { epoch: null, device, from, changes: batch });
    await store.transaction(['meta'], 'readwrite', s => s.meta.put(result.through, 'from'));
    batch = [];
    bytes = 0;
  };
  for (const [index, item] of items.entries()) {
    const change = sync.pushed(item, first + index, true);
    const size = JSON.stringify(change).length;
    if (batch.length === COPY_COUNT || (batch.length && bytes + size > COPY_BYTES)) await post();
    batch.push(change);
    bytes += size;
  }
  await post();
  await store.transaction(['queue', 'meta'], 'readwrite', s => {
    if (queued) s.queue.delete(IDBKeyRange.upperBound(queued));
    s.meta.delete('copying');
  });
  return items.length > 0;
}
