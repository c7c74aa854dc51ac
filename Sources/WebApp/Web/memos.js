// Memos: write (title, text, tags, pinned), pin, edit, delete with undo,
// open one to read (itemview.js), and a list filtered by a tag tapped. The
// search across everything is the top bar's (search.js).
import * as api from './api.js';
import * as events from './events.js';
import { h, icon, errorToast, formatLocal, splitTags, tagButton, tagChip } from './dom.js';
import { formError } from './fieldnotes.js';
import { t } from './i18n.js';
import { openForEditing, saveEdit, reloadUnlessEditing, undoableToast, showEditor } from './editing.js';
import { pagedList, PAGE_SIZE } from './paging.js';
import { openMemo } from './itemview.js';
import { foldForm } from './folding.js';

export function mountMemos(panel) {
  let loading = 0;
  let started = false;
  const mTitle = h('input', { name: 'memo-title', autocomplete: 'off', maxlength: '1000' });
  const text = h('textarea', { name: 'memo-text', rows: '3', required: true, class: 'fold-keep' });
  const tags = h('input', { name: 'memo-tags', autocomplete: 'off' });
  const pinned = h('input', { type: 'checkbox', name: 'memo-pinned' });
  const pinLabel = h('span');
  const addButton = h('button', { type: 'submit', class: 'primary' });
  const form = h('form', { class: 'card add-form memo-form', onsubmit: add },
    mTitle, text, h('div', { class: 'form-row' }, tags, h('label', { class: 'inline' }, pinned, pinLabel), addButton));
  // On a phone: the text alone until it is tapped.
  foldForm(form, text);
  let tag = '';
  const chip = tagChip(() => filterTag(''));
  const list = h('ul', { class: 'list memo-list', 'aria-live': 'polite' });
  const empty = h('p', { class: 'empty' });
  const pages = pagedList(list, row);

  function relabel() {
    pages.relabel();
    mTitle.placeholder = t('memoTitle'); mTitle.setAttribute('aria-label', t('memoTitle'));
    text.placeholder = t('text'); text.setAttribute('aria-label', t('text'));
    tags.placeholder = `${t('tags')}: ${t('tagsPlaceholder')}`; tags.setAttribute('aria-label', t('tags'));
    pinLabel.textContent = t('pin');
    addButton.textContent = t('add');
    chip.set(tag, t('clearTag'));
    if (started) refresh(true); else { started = true; load(); }
  }

  async function add(event) {
    event.preventDefault();
    if (!text.value.trim()) return;
    const body = { text: text.value, tags: splitTags(tags.value), pinned: pinned.checked };
    if (mTitle.value.trim()) body.title = mTitle.value.trim();
    try {
      await api.post('/memos', body);
      form.reset();
      refresh();
    } catch (error) { formError(form, error.message); }
  }

  // The rows loaded, brought up to date in place (paging.js).
  async function refresh(rerender = false) {
    const ticket = loading;
    try {
      const memos = await pages.refresh(rerender);
      if (ticket === loading && memos) empty.hidden = memos.length > 0;
    } catch (error) { if (ticket === loading) errorToast(error.message); }
  }

  // The first page (pinned first, then newest: the API's order, page after
  // page), of the memos with the tag chosen when one is.
  async function load() {
    const ticket = ++loading;
    try {
      const memos = await pages.load('/memos' + api.query({ tag, limit: PAGE_SIZE }));
      if (ticket !== loading || !memos) return;
      empty.textContent = t('noMemos');
      empty.hidden = memos.length > 0;
    } catch (error) { if (ticket === loading) errorToast(error.message); }
  }

  function filterTag(chosen) {
    tag = chosen;
    chip.set(tag, t('clearTag'));
    load();
  }

  function row(memo) {
    const li = h('li', { class: 'item memo' + (memo.is_pinned ? ' is-pinned' : ''), 'data-id': String(memo.id) },
      h('div', { class: 'body' },
        // Tapping the memo opens it, its Markdown rendered (itemview.js).
        h('button', { type: 'button', class: 'open-item', onclick: () => openMemo(memo.id) },
          memo.title ? h('span', { class: 'title', text: memo.title }) : null,
          h('span', { class: memo.title ? 'preview' : 'preview untitled', text: memo.preview })),
        h('div', { class: 'meta' },
          memo.is_pinned ? h('span', { class: 'pinned', text: t('pinned') }) : null,
          // A copy sync kept of a device's text where two devices changed the same lines.
          memo.conflict_of ? h('span', { class: 'conflict-copy', text: t('conflictCopy') }) : null,
          memo.tags.map(name => tagButton('memo', name)),
          h('span', { class: 'date', text: formatLocal(memo.updated_at) }))),
      h('div', { class: 'row-actions' },
        h('button', { type: 'button', class: 'icon-button pin' + (memo.is_pinned ? ' on' : ''), 'aria-pressed': String(memo.is_pinned),
          'aria-label': memo.is_pinned ? t('unpin') : t('pin'), title: memo.is_pinned ? t('unpin') : t('pin'),
          onclick: () => call(() => api.post(`/memos/${memo.id}/${memo.is_pinned ? 'unpin' : 'pin'}`)) }, icon('pin')),
        h('button', { type: 'button', class: 'icon-button edit', 'aria-label': t('edit'), title: t('edit'), onclick: () => edit(li, memo.id) }, icon('pencil')),
        h('button', { type: 'button', class: 'icon-button delete', 'aria-label': t('delete'), title: t('delete'), onclick: () => remove(memo.id) }, icon('trash'))));
    return li;
  }

  async function call(f) {
    try { await f(); refresh(); } catch (error) { errorToast(error.message); }
  }

  async function edit(li, id) {
    let memo, version;
    try { ({ item: memo, version } = await openForEditing(`/memos/${id}`)); } catch (error) { errorToast(error.message); return; }
    const eTitle = h('input', { value: memo.title || '', 'aria-label': t('memoTitle'), placeholder: t('memoTitle') });
    const eText = h('textarea', { rows: '5', 'aria-label': t('text'), required: true });
    eText.value = memo.text;
    const eTags = h('input', { name: 'memo-edit-tags', value: memo.tags.join(' '), autocomplete: 'off',
      'aria-label': t('tags'), placeholder: `${t('tags')}: ${t('tagsPlaceholder')}` });
    const editor = h('form', { class: 'item editor', 'data-id': String(id), onsubmit: event => {
      event.preventDefault();
      // The whole list: the server replaces the memo's tags with it.
      const body = { text: eText.value, title: eTitle.value.trim() || null, tags: splitTags(eTags.value) };
      const form = event.currentTarget;
      saveEdit(`/memos/${id}`, body, version, refresh, form).then(saved => { if (saved) refresh(); }, error => formError(form, error.message));
    } }, eTitle, eText, eTags,
    h('div', { class: 'row-actions' },
      h('button', { type: 'submit', class: 'primary', text: t('save') }),
      h('button', { type: 'button', text: t('cancel'), onclick: () => refresh() })));
    showEditor(li, editor, eText);
  }

  async function remove(id) {
    try {
      const { step } = await api.change('DELETE', `/memos/${id}`);
      refresh();
      undoableToast(t('memoRemoved'), step, refresh);
    } catch (error) { errorToast(error.message); }
  }

  panel.append(form, chip.element, list, pages.more, empty);
  const reload = reloadUnlessEditing(list, () => refresh());
  const off = [events.on('memo', reload), events.on('reconnected', reload)];
  relabel();
  return { relabel, filterTag, destroy() { off.forEach(f => f()); } };
}
