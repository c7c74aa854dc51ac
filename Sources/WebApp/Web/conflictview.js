// A conflict copy beside its original (docs/sync.md): the copy's text kept
// goes into the original (If-Match), so every device keeps its uid.
import * as api from './api.js';
import { h, toast, errorToast } from './dom.js';
import { t, lang } from './i18n.js';
import { markdownParser, renderMarkdown } from './markdown.js';

// Not in i18n.js: not on the first load.
const WORDS = {
  en: ['Two devices changed the same lines. Choose the text to keep.', 'Original', 'Conflict copy', 'Keep the original',
    'Keep the copy', 'Original kept, copy removed', 'Copy’s text kept in the original', 'The original is gone.'],
  ko: ['두 기기가 같은 줄을 고쳤습니다. 남길 내용을 고르세요.', '원본', '충돌 사본', '원본 남기기',
    '사본 남기기', '원본을 남기고 사본을 지웠습니다', '사본의 내용을 원본에 남겼습니다', '원본이 없습니다.'],
};
const word = i => (WORDS[lang()] || WORDS.en)[i];

// Fills itemview.js's `view` with `copy` beside its original.
export async function showBeside(view, copy) {
  let original, etag, parser = null;
  try {
    ({ item: original, etag } = await api.getTagged(`/memos/${copy.conflict_of}`));
  } catch (error) { view.say(error.status === 404 ? word(7) : error.message); return; }
  try { parser = await markdownParser(); } catch { /* plain text */ }
  const side = (label, memo, kind) => {
    const text = parser ? h('article', { class: 'markdown' }, renderMarkdown(parser, memo.text)) : h('pre', { class: 'markdown', text: memo.text });
    // A box ticked here would write one memo's lines into the other.
    for (const box of text.querySelectorAll('input')) box.disabled = true;
    return h('section', { class: `conflict-side ${kind}`, 'aria-label': label },
      h('h3', { text: memo.title ? `${label}: ${memo.title}` : label }), text);
  };
  const buttons = [false, true].map(copyWins => h('button', { type: 'button', class: copyWins ? 'keep-copy' : 'keep-original',
    text: word(copyWins ? 4 : 3), onclick: () => keep(copyWins) }));
  view.body.replaceChildren(h('p', { text: word(0) }),
    h('div', { class: 'conflict-pair' }, side(word(1), original, 'is-original'), side(word(2), copy, 'is-copy')),
    h('div', { class: 'row-actions conflict-actions' }, ...buttons));

  async function keep(copyWins) {
    buttons.forEach(b => { b.disabled = true; });
    const steps = [];
    try {
      if (copyWins) {
        const body = { text: copy.text, ...(copy.title ? { title: copy.title } : {}) };
        steps.push((await api.change('PATCH', `/memos/${original.id}`, body, { 'If-Match': etag })).step);
      }
      steps.push((await api.change('DELETE', `/memos/${copy.id}`)).step);
    } catch (error) {
      buttons.forEach(b => { b.disabled = false; });
      if (error.status === 412) { view.say(t('changedElsewhereShown')); showBeside(view, copy); } else view.say(error.message);
      return;
    }
    view.close();
    // One Undo, newest step first (none offline).
    toast(word(copyWins ? 6 : 5), steps.every(Boolean) ? { label: t('undo'), run: async () => {
      try { for (const step of steps.reverse()) await api.undo(step); } catch (error) { errorToast(error.message); }
    } } : undefined);
  }
}
