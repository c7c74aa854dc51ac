// One search for everything, in the top bar on every tab: to-dos, memos and
// voice memos together, by the server's own index (민국 finds 대한민국).
// While a query is typed its hits take the place of the tab's panel; each
// hit opens its item (itemview.js). The snippets bracket every match, which
// become <mark> elements here. On a phone the field hides behind a button.
import * as api from './api.js';
import * as events from './events.js';
import { h, icon } from './dom.js';
import { t } from './i18n.js';
import { openHit } from './itemview.js';

// "주간 [회의]" → ["주간 ", <mark>회의</mark>]. The server brackets each
// match, but an item's own text may hold brackets too ("- [ ] flour" in a
// memo's task list): a bracketed stretch is marked only when it holds one
// of the query's `words` or is part of one; otherwise it stays as written.
export function marked(snippet, words = []) {
  const wanted = words.map(w => w.toLowerCase()).filter(Boolean);
  const isMatch = text => {
    const lower = text.toLowerCase().trim();
    return lower !== '' && (wanted.length === 0 || wanted.some(w => lower.includes(w) || w.includes(lower)));
  };
  const parts = [];
  const re = /\[([^\[\]]+)\]/g;
  let last = 0;
  let m;
  while ((m = re.exec(snippet))) {
    if (!isMatch(m[1])) continue;
    if (m.index > last) parts.push(snippet.slice(last, m.index));
    parts.push(h('mark', { text: m[1] }));
    last = m.index + m[0].length;
  }
  if (last < snippet.length) parts.push(snippet.slice(last));
  return parts;
}

// The search field (`box`, for the top bar), its phone button (`opener`)
// and its results (`results`, placed beside `panel`, which it hides while a
// query is typed).
export function globalSearch(panel) {
  const field = h('input', { type: 'search', name: 'q', class: 'search', autocomplete: 'off', enterkeyhint: 'search' });
  const box = h('label', { class: 'search-box global-search' }, icon('search'), field);
  const opener = h('button', { type: 'button', class: 'icon-button search-opener', 'aria-expanded': 'false' }, icon('search'));
  const list = h('ul', { class: 'list hit-list', 'aria-live': 'polite' });
  const empty = h('p', { class: 'empty', hidden: true });
  const heading = h('h2', { class: 'visually-hidden' });
  const results = h('section', { class: 'search-results', hidden: true }, heading, list, empty);
  let timer = 0;
  let asked = 0;

  function setOpen(open) {
    box.classList.toggle('open', open);
    opener.setAttribute('aria-expanded', String(open));
  }

  opener.addEventListener('click', () => {
    const open = !box.classList.contains('open');
    setOpen(open);
    if (open) field.focus(); else clear();
  });
  field.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(run, 200); });
  field.addEventListener('keydown', event => { if (event.key === 'Escape') { clear(); setOpen(false); } });

  async function run() {
    const q = field.value.trim();
    const mine = ++asked;
    if (!q) { show(false); return; }
    try {
      const hits = await api.get('/search' + api.query({ q, limit: 100 }));
      if (mine !== asked) return;
      const words = q.split(/\s+/);
      list.replaceChildren(...hits.map(hit => hitRow(hit, words)));
      empty.hidden = hits.length > 0;
      show(true);
    } catch (error) {
      if (mine !== asked) return;
      list.replaceChildren();
      empty.textContent = error.message;
      empty.hidden = false;
      show(true);
    }
  }

  function show(shown) {
    results.hidden = !shown;
    panel.hidden = shown;
  }

  function clear() {
    field.value = '';
    asked++;
    show(false);
  }

  function hitRow(hit, words) {
    const kind = { todo: t('todos'), memo: t('memos'), voice: t('voice') }[hit.kind] || hit.kind;
    const titleParts = hit.field === 'title' ? marked(hit.snippet, words) : [hit.title || ''];
    // The whole hit opens its item.
    return h('li', { class: `item hit hit-${hit.kind}`, 'data-id': String(hit.id) },
      h('button', { type: 'button', class: 'body open-item', onclick: () => openHit(hit) },
        h('span', { class: 'kind', text: kind }),
        h('span', { class: 'title' }, titleParts),
        hit.field !== 'title' ? h('span', { class: 'preview' }, marked(hit.snippet, words)) : null));
  }

  // A change anywhere may change the hits.
  const rerun = () => { if (field.value.trim()) run(); };
  const off = ['todo', 'memo', 'voice', 'reconnected'].map(name => events.on(name, rerun));

  return {
    box, opener, results,
    relabel() {
      field.placeholder = t('search');
      field.setAttribute('aria-label', t('search'));
      opener.setAttribute('aria-label', t('search'));
      heading.textContent = t('searchResults');
      empty.textContent = t('noHits');
      rerun();
    },
    // The `/` shortcut: the field, opened on a phone.
    focus() { setOpen(true); field.focus(); field.select(); },
    // Leaving the results for a tab (or a tag): the query is done with.
    clear() { clear(); setOpen(false); },
    destroy() { off.forEach(f => f()); clearTimeout(timer); },
  };
}
