// Select mode on the to-do list: tick several, then complete, delete or tag
// them all as one change (`POST /todos/batch`), one undo step, as `todo done
// 3 4 7-9`. Loaded on first use (todos.js).
import * as api from './api.js';
import { h, splitTags } from './dom.js';
import { t, lang, onLangChange } from './i18n.js';
import { undoableToast } from './editing.js';
import { formError, clearFormError } from './fieldnotes.js';

const words = {
  en: { n: n => `${n} selected`, all: 'Select all', done: 'Complete', tag: 'Add tag', end: 'Done selecting',
    noTag: 'Type a tag to add.', doneN: n => `${n} done.`, removeN: n => `${n} deleted.`, tagN: n => `${n} tagged.` },
  ko: { n: n => `${n}개 선택됨`, all: '모두 선택', done: '완료', tag: '태그 추가', end: '선택 끝내기',
    noTag: '추가할 태그를 입력하세요.', doneN: n => `${n}개 완료했습니다.`, removeN: n => `${n}개 삭제했습니다.`,
    tagN: n => `${n}개에 태그를 붙였습니다.` },
};
const w = (key, n) => { const v = words[lang()][key] ?? t(key); return v.call ? v(n) : v; };

// `refresh()` updates the rows after a change; `ended()` is told at the end
// (a language change ends the mode too).
export function startSelecting(list, refresh, ended) {
  const chosen = new Set(); // the rows' data-id
  const button = (key, onclick, type = 'button') => h('button', { type, class: 'b-' + key, text: w(key), onclick });
  const count = h('span', { class: 'bulk-count', role: 'status' });
  const tagInput = h('input', { name: 'bulk-tag', autocomplete: 'off', 'aria-label': t('tags'),
    placeholder: t('tagsPlaceholder') });
  const actions = [button('done', () => act('done')), button('delete', () => act('remove')), button('tag', null, 'submit')];
  const bar = h('div', { class: 'bulk-bar card' }, count, button('all', () => {
    const on = !rows().every(li => chosen.has(li.dataset.id));
    rows().forEach(li => set(li, on));
    counted();
  }), actions[0], actions[1], button('end', stop),
  h('form', { onsubmit: event => { event.preventDefault(); act('tag'); } }, tagInput, actions[2]));
  const rows = () => [...list.querySelectorAll(':scope > li.item')];
  list.before(bar);
  list.classList.add('selecting');
  // Rows made anew (a refresh, Load more) get their boxes, ticked if chosen.
  const observer = new MutationObserver(boxes);
  observer.observe(list, { childList: true });
  const offLang = onLangChange(stop);
  boxes();
  (list.querySelector('.pick') || count.nextSibling).focus();

  function boxes() {
    const shown = new Set();
    for (const li of rows()) {
      shown.add(li.dataset.id);
      if (li.querySelector(':scope > .pick')) continue;
      const box = h('input', { type: 'checkbox', class: 'pick', checked: chosen.has(li.dataset.id),
        'aria-label': `${t('select')}: ${li.querySelector('.title').textContent}` });
      box.addEventListener('change', () => { set(li, box.checked); counted(); });
      li.prepend(box);
    }
    // A row gone (deleted elsewhere) leaves the selection.
    for (const id of chosen) if (!shown.has(id)) chosen.delete(id);
    counted();
  }

  function set(li, on) {
    li.querySelector(':scope > .pick').checked = on;
    if (on) chosen.add(li.dataset.id); else chosen.delete(li.dataset.id);
  }

  async function act(action) {
    clearFormError(bar);
    const body = { action, ids: [...chosen].map(Number) };
    if (action === 'tag' && !(body.tags = splitTags(tagInput.value)).length) return formError(bar, w('noTag'));
    actions.forEach(b => { b.disabled = true; });
    try {
      const { step } = await api.change('POST', '/todos/batch', body);
      stop();
      refresh();
      undoableToast(w(action + 'N', body.ids.length), step, refresh);
    } catch (error) {
      formError(bar, error.message);
      counted();
    }
  }

  // Nothing chosen: nothing to act on.
  function counted() {
    count.textContent = w('n', chosen.size);
    actions.forEach(b => { b.disabled = !chosen.size; });
  }

  function stop() {
    observer.disconnect();
    offLang();
    bar.remove();
    list.classList.remove('selecting');
    list.querySelectorAll('.pick').forEach(box => box.remove());
    ended();
  }

  return { stop };
}
