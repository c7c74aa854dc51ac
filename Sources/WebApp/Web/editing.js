// Editing an item in place while anyone else may change it (another tab, the
// command line). The editor keeps the ETag of the version it opened and saves
// with If-Match, so a change made meanwhile is answered 412 instead of being
// overwritten unseen: the user is told, and saving again replaces that change
// knowingly (the 412 carries the current version's tag). A live event does
// not reload a list while one of its rows is an open editor, which would
// throw the typing away; closing the editor reloads it.
import * as api from './api.js';
import { h, errorToast, toast } from './dom.js';
import { t } from './i18n.js';

// `load` for live events, skipped while `list` shows an editor; an event
// about the item being edited says so on the editor instead.
export function reloadUnlessEditing(list, load) {
  return data => {
    const editor = list.querySelector('.editor');
    if (!editor) { load(); return; }
    if (data && String(data.id) === editor.dataset.id && !editor.querySelector('.stale-note')) {
      editor.prepend(h('p', { class: 'stale-note', role: 'status', text: t('changedWhileEditing') }));
    }
  };
}

// The toast after a change the server recorded as undo step `step`: its
// Undo button reverts that step, by the API's undo history (`after` then
// runs: reload the list).
export function undoableToast(message, step, after) {
  if (!step) { toast(message); return; }
  toast(message, { label: t('undo'), run: async () => {
    try { await api.undo(step); after(); } catch (error) { errorToast(error.message); }
  } });
}

// The item at `path` as it is now, and the version to save against.
export async function openForEditing(path) {
  const { item, etag } = await api.getTagged(path);
  return { item, version: { etag } };
}

// Sends `body` as a PATCH of `path` if the item is still `version`. Resolves
// true when saved; false, with the user told in the editor `form` itself,
// when it changed meanwhile (`version` then names the current one, so the
// next save replaces it). Told there, not in a toast over the page, which
// covered the very Save button the user must press again.
export async function saveEdit(path, body, version, undone = () => {}, form = null) {
  try {
    const { step } = await api.change('PATCH', path, body, version.etag ? { 'If-Match': version.etag } : {});
    undoableToast(t('saved'), step, undone);
    return true;
  } catch (error) {
    if (error.status !== 412) throw error;
    version.etag = error.etag;
    if (!form) { errorToast(t('changedElsewhere')); return false; }
    let note = form.querySelector('.conflict-note');
    if (!note) {
      note = h('p', { class: 'stale-note conflict-note', role: 'alert' });
      form.prepend(note);
    }
    note.textContent = t('changedElsewhere');
    return false;
  }
}

// Puts `editor` where the row `li` was and its `field` in focus, and brings
// the whole editor into view: opened on a row at the bottom of a phone's
// screen, its Save button was under the tab bar.
// The editor stands in a row of its own (a list holds only rows), with the
// item's id and no revision, so the list's next refresh replaces it.
export function showEditor(li, editor, field) {
  li.replaceWith(h('li', { class: 'editor-row', 'data-id': editor.dataset.id }, editor));
  field.focus({ preventScroll: true });
  editor.scrollIntoView({ block: 'nearest' });
}
