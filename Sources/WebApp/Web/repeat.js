// Repeat rules and reminders of a to-do in the page: the words the API
// takes for a rule (the command line's `--repeat`), and a rule or a reminder
// said as people read it.
import { formatLocal } from './dom.js';
import { t } from './i18n.js';

// The rules offered, by the word the API takes; '' repeats nothing.
export const repeatWords = ['', 'daily', 'weekdays', 'weekly', 'monthly', 'yearly'];

// The word for a stored rule (`{"every", "unit", "from"}`) when it is one of
// those offered, else null (an "every 2 weeks" kept as it is).
export function repeatWord(rule) {
  if (!rule) return '';
  if (rule.every !== 1) return null;
  return { day: 'daily', weekday: 'weekdays', week: 'weekly', month: 'monthly', year: 'yearly' }[rule.unit] ?? null;
}

// `<option>`s of a rule select; a stored rule not among them is kept as
// the selected first option ('keep').
export function repeatOptions(h, rule) {
  const word = repeatWord(rule);
  const options = repeatWords.map(w => h('option', { value: w, text: t(w ? 'repeat_' + w : 'repeatNone'), selected: w === word }));
  if (word === null) options.unshift(h('option', { value: 'keep', text: repeatText(rule), selected: true }));
  return options;
}

// "↻ weekly", "↻ every 2 weeks", "↻ 매주", "↻ 2주마다"; from the day it was
// done when it repeats from then.
export function repeatText(rule) {
  const word = repeatWord(rule);
  const base = word ? t('repeat_' + word) : t('repeatEvery').replace('{n}', rule.every).replace('{unit}', t('unit_' + rule.unit));
  return '↻ ' + base + (rule.from === 'done' ? ' ' + t('repeatFromDone') : '');
}

// "reminder tomorrow 09:00", "알림 내일 09:00": words, not an emoji a
// phone without its font shows as a box.
export function reminderText(iso) {
  return t('reminderAt') + ' ' + formatLocal(iso);
}

// A stored reminder as words the API reads back: the browser's local
// date and time (the server reads words in its own zone, the same one when
// it serves this machine's browser).
export function reminderWords(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  const two = n => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
