// The keyboard's shortcuts on the main screen, when the focus is not in a
// text field (there the keys type): `/` the search, `n` a new item on the
// tab shown, `j`/`k` the next and previous row, `x` a to-do done or open
// again, `e` the focused row's editor, `?` the list of them. A key with
// Ctrl, Alt or Meta is the browser's, never ours.
import { h } from './dom.js';
import { t } from './i18n.js';

const KEYS = [['/', 'keySearch'], ['n', 'keyNew'], ['j', 'keyNext'], ['k', 'keyPrevious'],
  ['x', 'keyDone'], ['e', 'keyEdit'], ['?', 'keyHelp']];

// `content`: where the rows are (the tab's panel or the search's results);
// `focusSearch()`: opens and focuses the search field.
export function installShortcuts(content, focusSearch) {
  let help = null;

  function onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey) return;
    if (isTyping(event.target) || document.querySelector('dialog[open]')) return;
    const action = { '/': focusSearch, n: newItem, j: () => move(1), k: () => move(-1),
      x: () => press('.pick, .check'), e: () => press('.edit'), '?': showHelp }[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  // The rows shown: the list's items, not an open editor.
  const rows = () => [...content.querySelectorAll('li.item')].filter(row => row.offsetParent !== null);
  const currentRow = () => document.activeElement && document.activeElement.closest ? document.activeElement.closest('li.item') : null;

  function move(step) {
    const all = rows();
    if (all.length === 0) return;
    const at = all.indexOf(currentRow());
    const next = at < 0 ? (step > 0 ? 0 : all.length - 1) : Math.min(Math.max(at + step, 0), all.length - 1);
    const target = firstOf(all[next], ROW_TARGETS);
    if (target) { target.focus({ preventScroll: true }); all[next].scrollIntoView({ block: 'nearest' }); }
  }

  function press(selector) {
    const row = currentRow();
    const control = row && row.querySelector(selector);
    if (control) control.click();
  }

  function newItem() {
    const field = firstOf(content, NEW_ITEM_FIELDS);
    if (field) field.focus();
  }

  function showHelp() {
    if (!help) {
      help = h('dialog', { class: 'shortcuts', 'aria-labelledby': 'shortcuts-title' });
      help.addEventListener('close', () => help.remove());
    }
    help.replaceChildren(
      h('h2', { id: 'shortcuts-title', text: t('shortcuts') }),
      h('dl', {}, KEYS.map(([key, words]) => [h('dt', {}, h('kbd', { text: key })), h('dd', { text: t(words) })])),
      h('form', { method: 'dialog' }, h('button', { class: 'primary', text: t('close') })));
    document.body.append(help);
    help.showModal();
  }

  document.addEventListener('keydown', onKey);
  return () => { document.removeEventListener('keydown', onKey); if (help && help.open) help.close(); };
}

// A row is reached at what it is for: a to-do's box, a memo's or a hit's
// text, a voice memo's waveform; else its first control.
const ROW_TARGETS = ['.check', '.open-item', '.trim-start', 'input, button'];
// A new item starts at the add form's first field shown that is typed in
// (a voice memo's title, not its file picker; a folded memo form's text).
const NEW_ITEM_FIELDS = ['.add-form textarea, .add-form input:not([type=file]):not([type=date])', '.add-form input'];

// The first element shown found by the first of `selectors` that finds one:
// a list of selectors in one query would find the first in the page.
function firstOf(root, selectors) {
  for (const selector of selectors) {
    const found = [...root.querySelectorAll(selector)].find(element => element.offsetParent !== null);
    if (found) return found;
  }
  return null;
}

function isTyping(element) {
  if (!element || !element.closest) return false;
  if (element.isContentEditable) return true;
  if (element.closest('textarea, select')) return true;
  const input = element.closest('input');
  return !!input && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range'].includes(input.type);
}
