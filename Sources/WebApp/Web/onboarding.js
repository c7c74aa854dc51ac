// The four-page onboarding, as the seeds describe it: title and subtitle per
// page, a page indicator (an ARIA tablist: the current dot in the key colour),
// swipe paging that snaps to round(offset / width) and never goes past either
// end, Skip and Next on pages 1–3, Start (icon on its right) on page 4, buttons
// and background cross-fading in 0.3 s. The page is stored as the user moves
// (PUT /onboarding/page) so a reload resumes; a tour shows the pages again
// without touching the stored state.
import * as api from './api.js';
import { h, icon, errorToast, reducedMotion } from './dom.js';
import { t, lang, setLang, onLangChange } from './i18n.js';

const art = ['todo', 'memo', 'voice', 'timer'];

// A flick: the pointer still moving at 0.4 px per ms (400 px/s) when it is
// lifted, over at least 24 px (a tap that wobbles turns nothing). iOS's
// paging scroll view turns a page at about that speed.
const FLICK_SPEED = 0.4;
const FLICK_DISTANCE = 24;
const FLICK_WINDOW_MS = 100;

// The pointer's speed (px/ms, + to the right) over its last FLICK_WINDOW_MS
// before it was lifted: a finger that stopped before lifting flicks nothing.
function flickVelocity(samples) {
  const last = samples[samples.length - 1];
  let first = samples.find(sample => sample.t >= last.t - FLICK_WINDOW_MS);
  if (first === last) first = samples[samples.length - 2];
  if (!first || last.t <= first.t) return 0;
  return (last.x - first.x) / (last.t - first.t);
}

// state: the onboarding document with its pages. options.tour: look only.
// options.done(): called once the onboarding is over (completed or tour left).
export function showOnboarding(root, state, options = {}) {
  const tour = !!options.tour;
  let pages = state.pages;
  const count = pages.length;
  let index = Math.min(Math.max((state.current_page || 1) - 1, 0), count - 1);
  let writes = Promise.resolve();
  let finished = false;

  const track = h('div', { class: 'ob-track' });
  const viewport = h('div', { class: 'ob-viewport' }, track);
  const dots = h('div', { class: 'ob-dots', role: 'tablist' });
  const skip = h('button', { type: 'button', class: 'ob-skip', onclick: () => finish('skip') });
  const next = h('button', { type: 'button', class: 'ob-next primary', onclick: () => go(index + 1) });
  const start = h('button', { type: 'button', class: 'ob-start primary', onclick: () => finish('start') });
  const stepButtons = h('div', { class: 'ob-buttons ob-step' }, skip, next);
  const lastButtons = h('div', { class: 'ob-buttons ob-last' }, start);
  const langButton = h('button', { type: 'button', class: 'lang-switch', onclick: () => setLang(lang() === 'ko' ? 'en' : 'ko') });
  // The screen's main landmark and its first-level heading (unseen: the
  // seeds' pages show only their own titles), so that a screen reader can
  // tell where it is and go straight to the content.
  const heading = h('h1', { class: 'visually-hidden' });
  const section = h('main', { class: 'onboarding', 'data-page': String(index + 1) },
    heading, h('div', { class: 'ob-top' }, langButton),
    viewport, dots,
    h('div', { class: 'ob-actions' }, stepButtons, lastButtons));

  function render() {
    section.setAttribute('aria-label', t('pages'));
    heading.textContent = t('welcome');
    dots.setAttribute('aria-label', t('pages'));
    langButton.textContent = t('language');
    langButton.setAttribute('aria-label', t('languageName'));
    skip.textContent = t('skip');
    next.textContent = t('next');
    start.replaceChildren(h('span', { text: t('start') }), icon('arrow'));
    track.replaceChildren(...pages.map((page, i) => h('div', {
      class: 'ob-page', id: `ob-panel-${i + 1}`, role: 'tabpanel', 'aria-labelledby': `ob-tab-${i + 1}`,
    }, h('div', { class: 'ob-art' }, icon(art[i % art.length], 'ob-icon')),
      h('h2', { class: 'ob-title', text: page.title }),
      h('p', { class: 'ob-subtitle', text: page.subtitle }))));
    dots.replaceChildren(...pages.map((page, i) => h('button', {
      type: 'button', role: 'tab', class: 'ob-dot', id: `ob-tab-${i + 1}`, 'aria-controls': `ob-panel-${i + 1}`,
      'aria-label': page.title, onclick: () => go(i),
    })));
    update(false);
  }

  function update(animate) {
    section.dataset.page = String(index + 1);
    section.classList.toggle('is-last', index === count - 1);
    track.classList.toggle('animate', animate && !reducedMotion());
    track.style.transform = `translateX(${-index * 100}%)`;
    [...dots.children].forEach((dot, i) => {
      dot.setAttribute('aria-selected', String(i === index));
      dot.tabIndex = i === index ? 0 : -1;
    });
    [...track.children].forEach((panel, i) => {
      panel.setAttribute('aria-hidden', String(i !== index));
      panel.inert = i !== index;
    });
    stepButtons.inert = index === count - 1;
    lastButtons.inert = index !== count - 1;
  }

  function go(target, focusDot = false) {
    if (finished) return;
    target = Math.min(Math.max(target, 0), count - 1);
    const moved = target !== index;
    index = target;
    update(true);
    if (focusDot) dots.children[index].focus();
    if (moved && !tour) store(index + 1);
  }

  // Writes run one after another, so the last page stored is the last shown
  // and Start is never sent before the page it needs.
  function store(page) {
    writes = writes.then(() => api.put('/onboarding/page', { page })).catch(error => errorToast(error.message));
  }

  async function finish(how) {
    if (finished) return;
    finished = true;
    if (!tour) {
      try {
        await writes;
        await api.post('/onboarding/' + how);
      } catch (error) {
        finished = false;
        errorToast(error.message);
        return;
      }
    }
    cleanup();
    options.done && options.done();
  }

  // Swipe: the track follows the pointer (clamped at both ends: no bounce),
  // and on release snaps to round(offset / width), or, after a quick flick,
  // to the next page the way the finger went, however short the way was
  // (as a phone's paging does: flickVelocity).
  let drag = null;
  viewport.addEventListener('pointerdown', event => {
    if (event.button !== 0 || finished) return;
    drag = { id: event.pointerId, x: event.clientX, dx: 0, width: viewport.clientWidth || 1,
      samples: [{ x: event.clientX, t: event.timeStamp }] };
    viewport.setPointerCapture(event.pointerId);
    track.classList.remove('animate');
    section.classList.add('dragging');
  });
  viewport.addEventListener('pointermove', event => {
    if (!drag || event.pointerId !== drag.id) return;
    const max = drag.width * (count - 1);
    const offset = Math.min(Math.max(index * drag.width - (event.clientX - drag.x), 0), max);
    drag.dx = index * drag.width - offset;
    drag.samples.push({ x: event.clientX, t: event.timeStamp });
    if (drag.samples.length > 20) drag.samples.shift();
    track.style.transform = `translateX(${-offset}px)`;
  });
  const release = event => {
    if (!drag || event.pointerId !== drag.id) return;
    const offset = index * drag.width - drag.dx;
    drag.samples.push({ x: event.clientX, t: event.timeStamp });
    const velocity = flickVelocity(drag.samples);
    const flicked = Math.abs(velocity) >= FLICK_SPEED && Math.abs(drag.dx) >= FLICK_DISTANCE && Math.sign(velocity) === Math.sign(drag.dx);
    const target = flicked ? index - Math.sign(velocity) : Math.round(offset / drag.width);
    drag = null;
    section.classList.remove('dragging');
    // go() snaps the track back too when the page stays the same.
    go(target);
  };
  viewport.addEventListener('pointerup', release);
  viewport.addEventListener('pointercancel', release);

  const onKey = event => {
    if (event.target.closest('input, textarea, select')) return;
    const inDots = event.target.closest('.ob-dots') !== null;
    if (event.key === 'ArrowRight') go(index + 1, inDots);
    else if (event.key === 'ArrowLeft') go(index - 1, inDots);
    else if (event.key === 'Home') go(0, inDots);
    else if (event.key === 'End') go(count - 1, inDots);
    else return;
    event.preventDefault();
  };
  document.addEventListener('keydown', onKey);

  // A new language fetches the pages' texts in it; the page does not move.
  const offLang = onLangChange(async () => {
    try {
      const fresh = await api.get('/onboarding');
      pages = fresh.pages;
    } catch (error) { errorToast(error.message); }
    render();
  });

  function cleanup() {
    document.removeEventListener('keydown', onKey);
    offLang();
  }

  render();
  root.replaceChildren(section);
  return {
    element: section,
    get page() { return index + 1; },
    // The stored state changed (another tab, `memoapp onboard skip`).
    external(stateNow) {
      if (tour || finished) return;
      // Only completion is followed: page events echo this page's own
      // writes, late, and following them would move the user back.
      if (stateNow.completed) { finished = true; cleanup(); options.done && options.done(); }
    },
    close() { finished = true; cleanup(); },
  };
}
