// Words under a field: what a typed due date means before it is saved, and
// a refusal beside the field it is about, never a toast over the page (a
// long one covered the Add and Save buttons on a phone). Each note is tied
// to its field by aria-describedby; an error also sets aria-invalid and is
// said at once (role=alert).
import * as api from './api.js';
import { h } from './dom.js';
import { t, lang } from './i18n.js';

let counter = 0;

// The note below `field`: inside its `<label class="field">` when it has
// one (the note then sits under the input, whatever the form's grid), else
// right after it. Made once, on first use.
function noteFor(field) {
  if (field.fieldNote) return field.fieldNote;
  const note = h('span', { class: 'field-note', id: `field-note-${++counter}`, hidden: true });
  const label = field.closest('label.field');
  if (label) label.append(note); else field.after(note);
  const described = (field.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
  field.setAttribute('aria-describedby', [...described, note.id].join(' '));
  field.fieldNote = note;
  return note;
}

// Shows `message` as the refusal of `field`'s value, beside it; typing
// there again takes it away.
export function fieldError(field, message) {
  const note = noteFor(field);
  note.replaceChildren(message);
  note.className = 'field-note error';
  note.setAttribute('role', 'alert');
  note.hidden = false;
  field.setAttribute('aria-invalid', 'true');
  field.addEventListener('input', () => clearFieldNote(field), { once: true });
}

export function clearFieldNote(field) {
  const note = field.fieldNote;
  if (note) { note.hidden = true; note.replaceChildren(); note.removeAttribute('role'); }
  field.removeAttribute('aria-invalid');
}

// A refusal of the form as a whole (the save failed, no field named): at
// its foot, beside the button that sent it.
export function formError(form, message) {
  let note = form.querySelector(':scope > .form-error');
  if (!note) {
    note = h('p', { class: 'form-error', role: 'alert' });
    const button = form.querySelector('button[type="submit"]');
    if (button && button.parentElement === form) button.after(note); else form.append(note);
  }
  note.textContent = message;
  note.hidden = false;
  form.addEventListener('input', () => { note.hidden = true; }, { once: true });
  reveal(form);
}

// The whole of `form` in view, its refusal and its buttons: a note added
// under a field pushed an editor's Save button under a phone's tab bar.
// (style.css's scroll-padding keeps the bars out of the way.)
function reveal(form) {
  form.scrollIntoView({ block: 'nearest' });
}

export function clearFormError(form) {
  const note = form.querySelector(':scope > .form-error');
  if (note) note.hidden = true;
}

// `field` takes due words (tomorrow 18:00, 오늘 밤): while they are typed,
// the server's parser (GET /dates/parse, the one the save uses) says what
// they mean under it: "Fri 18 Dec, 18:00", a warning for a date far in
// the past or the future, or why they are no date (with `preview` false,
// only why). `check()` before a save: false, with the refusal shown and
// the field focused, when the words are no date.
export function duePreview(field, { preview = true } = {}) {
  let ticket = 0;
  let timer = 0;

  async function ask(text) {
    const mine = ++ticket;
    try {
      const parsed = await api.get('/dates/parse' + api.query({ text }));
      if (mine !== ticket) return true;
      if (!preview) { clearFieldNote(field); return true; }
      const note = noteFor(field);
      note.className = 'field-note preview' + (parsed.warning ? ' warning' : '');
      note.removeAttribute('role');
      note.setAttribute('aria-live', 'polite');
      note.replaceChildren(h('span', { class: 'preview-date', text: readable(parsed.due_local) }));
      if (parsed.warning) note.append(h('span', { class: 'preview-warning', text: parsed.warning }));
      note.hidden = false;
      field.removeAttribute('aria-invalid');
      return true;
    } catch (error) {
      if (mine !== ticket) return true;
      // Offline or signed out: the save will say so; only words that are
      // no date are this field's.
      if (error.status !== 400) { clearFieldNote(field); return true; }
      fieldError(field, error.message);
      return false;
    }
  }

  function update() {
    clearTimeout(timer);
    const text = field.value.trim();
    if (!text) { ticket++; clearFieldNote(field); return; }
    // A moment after the last key: not a request per letter.
    timer = setTimeout(() => ask(text), 300);
  }
  // Only checked, a field needs no request per key: a refusal goes when typed in again.
  if (preview) field.addEventListener('input', update);
  if (preview && field.value.trim()) update();

  return {
    async check() {
      clearTimeout(timer);
      const text = field.value.trim();
      if (!text) return true;
      const ok = await ask(text);
      if (!ok) {
        field.focus({ preventScroll: true });
        reveal(field.form || field);
      }
      return ok;
    },
    refresh: update,
    clear() { ticket++; clearTimeout(timer); clearFieldNote(field); },
  };
}

// `2026-12-18 18:00` (the server's local time, as a to-do's due_local) as
// people read it: "Fri 18 Dec, 18:00", "12월 18일 (금) 18:00"; a date alone
// is the whole day. The year only when it is not this one.
export function readable(dueLocal) {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}:\d{2}))?$/.exec(dueLocal || '');
  if (!match) return dueLocal || '';
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const korean = lang() === 'ko';
  // Put together here: Intl's Korean puts the weekday in brackets without
  // a year and not with one.
  const weekday = date.toLocaleDateString(korean ? 'ko-KR' : 'en-GB', { weekday: 'short' });
  const year = date.getFullYear() !== new Date().getFullYear() ? date.getFullYear() : null;
  const day = korean
    ? `${year ? year + '년 ' : ''}${date.getMonth() + 1}월 ${date.getDate()}일 (${weekday})`
    : `${weekday} ${date.getDate()} ${date.toLocaleDateString('en-GB', { month: 'short' })}${year ? ' ' + year : ''}`;
  if (!match[4]) return `${day} ${t('allDay')}`;
  return korean ? `${day} ${match[4]}` : `${day}, ${match[4]}`;
}
