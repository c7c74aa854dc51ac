// "Other device": a signed-in page makes a sign-in link for a phone or
// another browser (POST /api/v1/session/links, as `memoapp token link`
// does), so signing in again never needs a terminal. Loaded on the first
// press, like the other rarely used screens, to keep the first load small.
import * as api from './api.js';
import { h } from './dom.js';
import { lang, t } from './i18n.js';

export async function showSignInLink() {
  const dialog = h('dialog', { class: 'shortcuts sign-in-link', 'aria-labelledby': 'sign-in-link-title' });
  dialog.addEventListener('close', () => dialog.remove());
  const status = h('p', { class: 'field-note', role: 'status' });
  dialog.append(h('h2', { id: 'sign-in-link-title', text: t('otherDeviceTitle') }), status,
    h('form', { method: 'dialog' }, h('button', { class: 'primary', text: t('close') })));
  document.body.append(dialog);
  dialog.showModal();
  let made;
  try {
    made = await api.post('/session/links');
  } catch (error) {
    status.textContent = error.message;
    return;
  }
  // The page's own address: the name this browser reached the server by is
  // the one most likely to work from the other device too.
  const link = `${location.origin}/#code=${made.code}`;
  const field = h('input', { class: 'link-field', readonly: true, value: link, 'aria-label': t('otherDeviceTitle') });
  const copy = h('button', { type: 'button', text: t('copy'), onclick: async () => {
    field.select();
    // The Clipboard API exists only in a secure context: over plain HTTP on
    // a home network, the older command copies the selected field instead.
    try { await navigator.clipboard.writeText(link); } catch { document.execCommand('copy'); }
    status.textContent = t('copied');
  } });
  const until = new Date(made.expires_at).toLocaleTimeString(lang(), { hour: '2-digit', minute: '2-digit' });
  status.textContent = t('otherDeviceHint', until);
  status.after(h('div', { class: 'link-row' }, field, copy));
  field.focus();
  field.select();
}
