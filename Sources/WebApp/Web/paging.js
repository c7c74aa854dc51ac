// A list shown a page at a time: the first page when the list is opened or
// its filter changes, the next ones when "Load more" is pressed, so that
// 10,000 to-dos cost one page of DOM.
//
// A change (a live event, a check-off, an edit, a delete, an undo) refreshes
// the list in place instead: as many rows as are loaded are asked for again,
// in the server's order with the server's filters (so no rule of theirs is
// copied here), and only the rows whose item changed are made anew. Rows that
// did not change stay the very same elements, so the rows loaded stay loaded
// and the place the user scrolled to stays put (the browser's scroll
// anchoring keeps the visible rows still when rows above them come or go).
import * as api from './api.js';
import { h, errorToast } from './dom.js';
import { t } from './i18n.js';

export const PAGE_SIZE = 100;
// The API's largest page (docs/api.md: `limit` at most 500).
const LARGEST_PAGE = 500;

// `row(item)` makes an item's element; it must carry `data-id`.
export function pagedList(list, row) {
  let next = null;
  let path = null;     // the first page's path, `limit` included
  let ticket = 0;      // bumped by every load: an older answer is dropped
  let refreshing = null;
  let again = false;
  let rerenderWanted = false;
  const more = h('button', { type: 'button', class: 'load-more', hidden: true, onclick: loadMore });

  function rowOf(item) {
    const element = row(item);
    // What `reconcile` compares: a row is kept while its item's `rev` holds.
    if (item.rev !== undefined) element.dataset.rev = String(item.rev);
    return element;
  }

  function show(page, append) {
    // A refresh may have brought some of the next page's items already.
    const shown = append ? new Set([...list.children].map(element => element.dataset.id)) : new Set();
    const rows = page.items.filter(item => !shown.has(String(item.id))).map(rowOf);
    if (append) list.append(...rows); else list.replaceChildren(...rows);
    next = page.next;
    more.hidden = !next;
  }

  async function loadMore() {
    if (!next) return;
    const mine = ticket;
    more.disabled = true;
    try {
      const page = await api.getPage(next);
      if (mine === ticket) show(page, true);
    } catch (error) { errorToast(error.message); } finally { more.disabled = false; }
  }

  // The first `count` items of the list as the server has them now, a page
  // of up to LARGEST_PAGE at a time, and the path of the page after them.
  async function fetchFirst(count) {
    const items = [];
    const seen = new Set();
    let page = await api.getPage(withLimit(path, Math.min(Math.max(count, PAGE_SIZE), LARGEST_PAGE)));
    for (;;) {
      // An item that moved between two pages while they were read comes once.
      for (const item of page.items) if (!seen.has(item.id)) { seen.add(item.id); items.push(item); }
      if (!page.next || items.length >= count) return { items, next: page.next };
      page = await api.getPage(page.next);
    }
  }

  // Makes the list's rows those of `items`, in their order, keeping every
  // row element whose item is unchanged (and a row's element that is an open
  // editor: it is closed by a refresh of its own).
  function reconcile(items, rerender) {
    const focus = focusedControl();
    const wanted = new Map(items.map(item => [String(item.id), item]));
    const kept = new Map();
    for (const element of [...list.children]) {
      const item = wanted.get(element.dataset.id);
      const unchanged = item && !rerender && element.dataset.rev !== undefined && element.dataset.rev === String(item.rev);
      if (unchanged) kept.set(element.dataset.id, element); else element.remove();
    }
    let at = list.firstElementChild;
    for (const item of items) {
      const element = kept.get(String(item.id)) || rowOf(item);
      if (element === at) at = at.nextElementSibling;
      else list.insertBefore(element, at);
    }
    if (focus) restoreFocus(focus);
  }

  // The control in focus inside a row (a to-do's box ticked with Space, a
  // row reached with j/k): its row's id and place, and which control it is.
  function focusedControl() {
    const active = document.activeElement;
    const row = active && list.contains(active) ? active.closest('li[data-id]') : null;
    if (!row || active === row) return null;
    return { id: row.dataset.id, index: [...list.children].indexOf(row), selector: controlSelector(active) };
  }

  // A row remade by the refresh gets the focus back on the same control; a
  // row that left the list (a to-do done under "Open") hands it to the row
  // now in its place, so the keyboard user goes on from there.
  function restoreFocus({ id, index, selector }) {
    if (list.contains(document.activeElement)) return;
    const rows = [...list.children];
    const row = rows.find(r => r.dataset.id === id) || rows[Math.min(index, rows.length - 1)];
    const control = row && (row.querySelector(selector) || row.querySelector('input, button'));
    if (control) control.focus({ preventScroll: true });
  }

  async function refreshOnce(rerender) {
    const mine = ticket;
    const count = list.children.length;
    const page = await fetchFirst(count);
    if (mine !== ticket) return null;
    reconcile(page.items, rerender);
    next = page.next;
    more.hidden = !next;
    return page.items;
  }

  return {
    more,
    relabel() { more.textContent = t('loadMore'); },
    // Loads the first page of `firstPath`; resolves with its items, or null
    // when a newer load started meanwhile.
    async load(firstPath) {
      const mine = ++ticket;
      path = firstPath;
      rerenderWanted = false;
      const page = await api.getPage(firstPath);
      if (mine !== ticket) return null;
      show(page, false);
      return page.items;
    },
    // Brings the loaded rows up to date where they are (see above); resolves
    // with the items shown, or null when a load replaced the list meanwhile.
    // `rerender` makes every row anew (the page's language changed). Calls
    // made while one runs are folded into one more run after it.
    async refresh(rerender = false) {
      if (path === null) return null;
      rerenderWanted = rerenderWanted || rerender;
      if (refreshing) { again = true; return refreshing; }
      refreshing = (async () => {
        let items;
        try {
          do {
            again = false;
            const all = rerenderWanted;
            rerenderWanted = false;
            items = await refreshOnce(all);
          } while (again && items !== null);
        } finally { refreshing = null; }
        return items;
      })();
      return refreshing;
    },
  };
}

// `path` with its `limit` set to `limit`.
function withLimit(path, limit) {
  const [base, query = ''] = path.split('?');
  const params = new URLSearchParams(query);
  params.set('limit', String(limit));
  return base + '?' + params.toString();
}

// How to find `control` again in a row made anew: its first class.
function controlSelector(control) {
  const name = control.classList[0];
  return name ? `.${CSS.escape(name)}` : control.tagName.toLowerCase();
}
