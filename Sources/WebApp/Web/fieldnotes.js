// Notes under a field, tied to it by aria-describedby: what typed due words
// mean before a save, and a refusal beside what it is about (role=alert),
// never a toast over the form (one covered Add and Save on a phone).
import * as api from './api.js';
import { h } from './dom.js';
import { t, lang } from './i18n.js';

let count = 0;

// Inside the field's <label class="field">, under the input; else after it.
function noteFor(field) {
  if (!field.note) {
    field.note = h('span', { class: 'field-note', id: `note-${++count}`, hidden: true });
    const label = field.closest('label.field');
    if (label) label.append(field.note); else field.after(field.note);
    field.setAttribute('aria-describedby', `${field.getAttribute('aria-describedby') || ''} ${field.note.id}`.trim());
  }
  return field.note;
}

function show(field, kind, ...children) {
  const note = noteFor(field);
  note.className = 'field-note ' + kind;
  note.replaceChildren(...children);
  note.hidden = false;
  if (kind === 'error') note.setAttribute('role', 'alert'); else note.removeAttribute('role');
  if (kind === 'error') field.setAttribute('aria-invalid', 'true'); else field.removeAttribute('aria-invalid');
}

// Typing in the field again takes the refusal away.
export function fieldError(field, message) {
  show(field, 'error', message);
  field.addEventListener('input', () => clearNote(field), { once: true });
}

function clearNote(field) {
  if (field.note) field.note.hidden = true;
  field.removeAttribute('aria-invalid');
}

// A save's refusal that names no field: at the form's foot, by its button.
export function formError(form, message) {
  let note = form.querySelector(':scope > .form-error');
  if (!note) form.append(note = h('p', { class: 'form-error', role: 'alert' }));
  note.textContent = message;
  note.hidden = false;
  form.addEventListener('input', () => { note.hidden = true; }, { once: true });
  reveal(form);
}

export function clearFormError(form) {
  const note = form.querySelector(':scope > .form-error');
  if (note) note.hidden = true;
}

// All of the form in view: a note pushed an editor's Save under the tab bar
// (style.css's scroll-padding keeps the bars clear).
const reveal = form => form.scrollIntoView({ block: 'nearest' });

// Due words in `field`, read as they are typed by the parser the save uses
// (GET /dates/parse): "Fri 18 Dec, 18:00" under it, a warning for a date far
// off, or why they are no date; with `preview` false only the last.
// `check()` before a save is false, the refusal shown, for words no date.
export function duePreview(field, { preview = true } = {}) {
  let ticket = 0;
  let timer = 0;
  async function ask(text) {
    const mine = ++ticket;
    try {
      const parsed = await api.get('/dates/parse' + api.query({ text }));
      if (mine !== ticket) return true;
      if (!preview) { clearNote(field); return true; }
      show(field, 'preview', h('span', { text: readable(parsed.due_local) }),
        parsed.warning ? h('span', { class: 'preview-warning', text: parsed.warning }) : '');
      return true;
    } catch (error) {
      // Offline or signed out is the save's to say.
      if (mine !== ticket || error.status !== 400) return true;
      fieldError(field, error.message);
      return false;
    }
  }
  function update() {
    clearTimeout(timer);
    ticket++;
    if (!field.value.trim()) { clearNote(field); return; }
    // A moment after the last key, not a request per letter.
    timer = setTimeout(() => ask(field.value.trim()), 300);
  }
  if (preview) { field.addEventListener('input', update); update(); }
  return {
    async check() {
      clearTimeout(timer);
      if (!field.value.trim() || await ask(field.value.trim())) return true;
      field.focus({ preventScroll: true });
      reveal(field.form || field);
      return false;
    },
    refresh: () => { if (preview) update(); },
    clear() { ticket++; clearTimeout(timer); clearNote(field); },
  };
}

// "2026-12-18 18:00" (a due_local) as "Fri 18 Dec, 18:00" or "12월 18일 (금)
// 18:00", the year when not this one; a date alone is all day. Put together
// here: Intl's Korean brackets the weekday only without a year.
export function readable(local) {
  const m = /^(\d{4})-(\d\d)-(\d\d)(?: (\d\d:\d\d))?$/.exec(local || '');
  if (!m) return local || '';
  const date = new Date(m[1], m[2] - 1, m[3]);
  const ko = lang() === 'ko';
  const weekday = date.toLocaleDateString(ko ? 'ko-KR' : 'en-GB', { weekday: 'short' });
  const year = date.getFullYear() !== new Date().getFullYear() ? date.getFullYear() : '';
  const day = ko ? `${year ? year + '년 ' : ''}${+m[2]}월 ${+m[3]}일 (${weekday})`
    : `${weekday} ${+m[3]} ${date.toLocaleDateString('en-GB', { month: 'short' })}${year ? ' ' + year : ''}`;
  return m[4] ? `${day}${ko ? '' : ','} ${m[4]}` : `${day} ${t('allDay')}`;
}
