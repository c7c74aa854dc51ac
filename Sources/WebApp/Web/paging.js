// A list shown a page at a time: the first page on every load, the next ones
// when "Load more" is pressed, so that 10,000 to-dos cost one page of DOM.
// A reload (a filter, a live event) starts again from the first page.
import * as api from './api.js';
import { h, errorToast } from './dom.js';
import { t } from './i18n.js';

export const PAGE_SIZE = 100;

export function pagedList(list, row) {
  let next = null;
  let ticket = 0;
  const more = h('button', { type: 'button', class: 'load-more', hidden: true, onclick: loadMore });

  function show(page, append) {
    const rows = page.items.map(row);
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

  return {
    more,
    relabel() { more.textContent = t('loadMore'); },
    // Loads the first page of `path`; resolves with its items, or null when a
    // newer load started meanwhile.
    async load(path) {
      const mine = ++ticket;
      const page = await api.getPage(path);
      if (mine !== ticket) return null;
      show(page, false);
      return page.items;
    },
    // A list shown without paging (search hits): later pages are forgotten.
    reset() { ticket++; next = null; more.hidden = true; },
  };
}
