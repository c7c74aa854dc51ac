import { t } from './i18n.js';

// A small helper to build elements without innerHTML: text is always text.
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : value);
  }
  append(el, children);
  return el;
}

// A tag as a button: tapped, it shows its kind's list filtered by it
// (main.js hears the event, wherever the tag is shown).
export function tagButton(kind, tag) {
  return h('button', { type: 'button', class: 'tag', text: '#' + tag, 'data-tag': tag, onclick: () =>
    window.dispatchEvent(new CustomEvent('memoapp:tag', { detail: { kind, tag } })) });
}

// The tag a list is filtered by ("#home ×"); × shows every tag again.
export function tagChip(onClear) {
  const name = h('span', { class: 'tag-chip-name' });
  const clear = h('button', { type: 'button', class: 'tag-chip-clear', text: '×', onclick: onClear });
  const element = h('p', { class: 'tag-chip', hidden: true }, name, clear);
  return {
    element,
    set(tag, clearLabel) {
      name.textContent = tag ? '#' + tag : '';
      element.hidden = !tag;
      clear.setAttribute('aria-label', clearLabel);
      clear.title = clearLabel;
    },
  };
}

// "home, #work errand" → ["home", "work", "errand"]: the tags a field holds.
export function splitTags(text) {
  return text.split(/[\s,]+/).map(s => s.replace(/^#/, '')).filter(Boolean);
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

const SVG = 'http://www.w3.org/2000/svg';
// Icons as path data (24×24, stroked), so that no file or inline markup is needed.
const icons = {
  todo: 'M9 6h11M9 12h11M9 18h11M3.5 6l1.5 1.5L7.5 4.5M3.5 12l1.5 1.5 2.5-3M3.5 18l1.5 1.5 2.5-3',
  memo: 'M5 3h10l4 4v14H5zM15 3v4h4M8 11h8M8 15h8M8 19h5',
  voice: 'M12 3a3 3 0 0 1 3 3v6a3 3 0 0 1-6 0V6a3 3 0 0 1 3-3zM6 11a6 6 0 0 0 12 0M12 17v4M8 21h8',
  timer: 'M12 8v5l3 2M9 2h6M12 4a9 9 0 1 0 0 18a9 9 0 0 0 0-18z',
  arrow: 'M5 12h14M13 6l6 6-6 6',
  pin: 'M9 4h6l-1 6 3 3H7l3-3zM12 13v8',
  trash: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
  pencil: 'M4 20h4L19 9l-4-4L4 16zM13 7l4 4',
  search: 'M11 4a7 7 0 1 0 0 14a7 7 0 0 0 0-14zM16 16l5 5',
  globe: 'M12 3a9 9 0 1 0 0 18a9 9 0 0 0 0-18zM3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18',
};

export function icon(name, cls = 'icon') {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', cls);
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', icons[name]);
  svg.append(path);
  return svg;
}

let toastTimer = 0;
let toastBox = null; // kept: a new screen removes it
// A message and maybe an action (Undo) in the top bar, as the error banner:
// over no control, the rows moving with the bar (anchoring slid it over one).
export function toast(message, action) {
  const box = toastBox || (toastBox = document.getElementById('toast'));
  const host = document.querySelector('.topbar') || document.getElementById('root');
  if (box.parentElement !== host) host.id === 'root' ? host.prepend(box) : host.append(box);
  const show = on => { const y = scrollY; box.hidden = !on; if (scrollY !== y) scrollTo(0, y); };
  box.replaceChildren(h('span', { text: message }));
  if (action) {
    box.append(h('button', { type: 'button', class: 'link', text: action.label, onclick: () => { show(false); action.run(); } }));
  }
  show(true);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => show(false), action ? 8000 : 5000);
}

let bannerTimer = 0;
// An error of no field (a list that did not load): a banner in the top bar
// (or atop the screen) that pushes the page down, covering nothing; ×, or
// ten seconds, take it away. A field's errors are beside it (fieldnotes.js).
export function errorToast(message) {
  let banner = document.getElementById('error-banner');
  if (!banner) {
    banner = h('div', { id: 'error-banner', class: 'error-banner', role: 'alert' }, h('span'),
      h('button', { type: 'button', text: '×', onclick: () => { banner.hidden = true; } }));
  }
  const bar = document.querySelector('.topbar');
  if (!banner.isConnected || (bar && banner.parentElement !== bar)) {
    if (bar) bar.append(banner); else document.getElementById('root').prepend(banner);
  }
  const [text, close] = banner.children;
  text.textContent = message;
  close.setAttribute('aria-label', t('close'));
  banner.hidden = false;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { banner.hidden = true; }, 10000);
}

export function reducedMotion() {
  return matchMedia('(prefers-reduced-motion: reduce)').matches;
}

// A stored moment (RFC 3339) as people read it, in the browser's time zone
// and the page's language: "today 14:05", "yesterday 09:30", "Fri 18:00",
// "18 Dec", "18 Dec 2025".
export function formatLocal(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const time = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  return humanDay(d.getFullYear(), d.getMonth() + 1, d.getDate(), time);
}

// A to-do's due as the server wrote it in its own local time (`due_local`:
// "2026-12-18" or "2026-12-18 18:00") as people read it: "today",
// "tomorrow 18:00", "Fri", "18 Dec". Read as written, not converted: a date
// alone is a day, whatever the browser's time zone.
export function formatDue(dueLocal) {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}:\d{2}))?$/.exec(dueLocal || '');
  if (!match) return dueLocal || '';
  return humanDay(Number(match[1]), Number(match[2]), Number(match[3]), match[4] || null);
}

// The day's words relative to today (yesterday, today, tomorrow, a weekday
// within the week ahead, else day and month, and the year when not this
// one), then the time when there is one.
function humanDay(year, month, day, time) {
  const language = document.documentElement.lang === 'ko' ? 'ko' : 'en';
  const date = new Date(year, month - 1, day);
  const now = new Date();
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const days = Math.round((date - today) / 86400000);
  const words = { en: { '-1': 'yesterday', 0: 'today', 1: 'tomorrow' }, ko: { '-1': '어제', 0: '오늘', 1: '내일' } }[language];
  let text;
  if (words[days] !== undefined) {
    text = words[days];
  } else if (days > 1 && days < 7) {
    text = date.toLocaleDateString(language, { weekday: 'short' });
  } else {
    const options = { day: 'numeric', month: 'short' };
    if (year !== now.getFullYear()) options.year = 'numeric';
    text = date.toLocaleDateString(language === 'ko' ? 'ko' : 'en-GB', options);
  }
  return time ? `${text} ${time}` : text;
}
