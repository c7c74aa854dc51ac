// A conflict copy opened (itemview.js): sync kept it where two devices
// changed the same lines of a memo (docs/sync.md), so it is shown beside its
// original (stacked on a phone) with the choice of the text to keep. Keeping
// the original removes the copy; keeping the copy puts its text into the
// original (saved against the version shown, so a change made elsewhere since
// is not overwritten) and removes the copy: the original keeps its id and
// uid, so every device ends with one memo. Loaded when a copy is first opened.
import * as api from './api.js';
import { h, toast, errorToast } from './dom.js';
import { t, lang } from './i18n.js';
import { markdownParser, renderMarkdown } from './markdown.js';

// Its own words: nothing of them is on the page's first load.
const WORDS = {
  en: { intro: 'Two devices changed the same lines. Choose the text to keep.', original: 'Original', copy: 'Conflict copy',
    keepOriginal: 'Keep the original', keepCopy: 'Keep the copy', keptOriginal: 'Original kept, copy removed',
    keptCopy: 'Copy’s text kept in the original', originalGone: 'The original is gone: this copy is all that is left of it.' },
  ko: { intro: '두 기기가 같은 줄을 고쳤습니다. 남길 내용을 고르세요.', original: '원본', copy: '충돌 사본',
    keepOriginal: '원본 남기기', keepCopy: '사본 남기기', keptOriginal: '원본을 남기고 사본을 지웠습니다',
    keptCopy: '사본의 내용을 원본에 남겼습니다', originalGone: '원본이 없습니다. 이 사본만 남아 있습니다.' },
};
const word = key => (WORDS[lang()] || WORDS.en)[key];

// Fills `view` (itemview.js's dialog) with copy `copy` beside its original.
export async function showBeside(view, copy) {
  let original, etag;
  try {
    ({ item: original, etag } = await api.getTagged(`/memos/${copy.conflict_of}`));
  } catch (error) {
    view.say(error.status === 404 ? word('originalGone') : error.message);
    return;
  }
  let parser = null;
  try { parser = await markdownParser(); } catch { /* shown as plain text */ }
  const side = (label, memo, kind) => {
    const article = parser ? h('article', { class: 'markdown' }, renderMarkdown(parser, memo.text))
      : h('pre', { class: 'markdown plain', text: memo.text });
    // Ticking a box here would change one memo with the other's lines.
    for (const box of article.querySelectorAll('input')) box.disabled = true;
    return h('section', { class: `conflict-side ${kind}`, 'aria-label': label },
      h('h3', { text: memo.title ? `${label}: ${memo.title}` : label }), article);
  };
  const keepOriginal = h('button', { type: 'button', class: 'keep-original', text: word('keepOriginal'), onclick: () => keep(false) });
  const keepCopy = h('button', { type: 'button', class: 'keep-copy', text: word('keepCopy'), onclick: () => keep(true) });
  view.dialog.classList.add('is-conflict');
  view.body.replaceChildren(h('p', { class: 'conflict-intro', text: word('intro') }),
    h('div', { class: 'conflict-pair' }, side(word('original'), original, 'is-original'), side(word('copy'), copy, 'is-copy')),
    h('div', { class: 'row-actions conflict-actions' }, keepOriginal, keepCopy));

  async function keep(copyWins) {
    keepOriginal.disabled = keepCopy.disabled = true;
    const steps = [];
    try {
      if (copyWins) {
        const body = { text: copy.text, ...(copy.title ? { title: copy.title } : {}) };
        steps.push((await api.change('PATCH', `/memos/${original.id}`, body, { 'If-Match': etag })).step);
      }
      steps.push((await api.change('DELETE', `/memos/${copy.id}`)).step);
    } catch (error) {
      keepOriginal.disabled = keepCopy.disabled = false;
      // The original changed since it was shown: shown anew, to choose again.
      if (error.status === 412) { view.say(t('changedElsewhereShown')); showBeside(view, copy); } else view.say(error.message);
      return;
    }
    view.close();
    // One choice, one Undo: its steps reverted newest first (none offline).
    const undo = steps.every(Boolean) ? { label: t('undo'), run: async () => {
      try { for (const step of steps.reverse()) await api.undo(step); } catch (error) { errorToast(error.message); }
    } } : undefined;
    toast(word(copyWins ? 'keptCopy' : 'keptOriginal'), undo);
  }
}
