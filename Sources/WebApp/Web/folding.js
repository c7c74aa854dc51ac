// What a phone folds away so that the list has the screen: an add form
// behind its first field, and a list's filters behind one button. The
// folding itself is style.css's, under 700 px; a desktop shows everything.
import { h } from './dom.js';

// Folds `form` behind `field`: until it is focused or typed in, only that
// field and the form's `.fold-keep` parts show. It folds again when the
// focus leaves a form with nothing entered.
export function foldForm(form, field) {
  form.classList.add('foldable');
  form.dataset.folded = 'true';
  const unfold = () => { form.dataset.folded = 'false'; };
  field.addEventListener('focus', unfold);
  field.addEventListener('input', unfold);
  form.addEventListener('focusout', event => {
    if (event.relatedTarget && form.contains(event.relatedTarget)) return;
    afterTap(() => { if (!hasInput(form) && !form.contains(document.activeElement)) form.dataset.folded = 'true'; });
  });
  form.addEventListener('reset', () => { if (!form.contains(document.activeElement)) form.dataset.folded = 'true'; });
}

// A tap elsewhere takes the focus at its pointerdown; folding then would move
// what was tapped from under the finger before its pointerup, and the tap
// would land on nothing (a to-do's box tapped, and not ticked). So a fold the
// focus leaving asks for waits until the tap has ended and its click is done.
let pointersDown = 0;
document.addEventListener('pointerdown', () => { pointersDown += 1; }, true);
for (const type of ['pointerup', 'pointercancel']) {
  document.addEventListener(type, () => { pointersDown = Math.max(0, pointersDown - 1); }, true);
}

function afterTap(action) {
  if (pointersDown === 0) { action(); return; }
  const done = () => setTimeout(action, 0);
  document.addEventListener('pointerup', done, { once: true, capture: true });
  document.addEventListener('pointercancel', done, { once: true, capture: true });
}

// Whether anything was entered in `form`'s fields.
function hasInput(form) {
  return [...form.elements].some(element => {
    if (element.type === 'checkbox') return element.checked;
    if (element.tagName === 'SELECT') return element.value !== (element.options[0] ? element.options[0].value : '');
    return element.value !== undefined && element.value.trim() !== '' && element.type !== 'submit' && element.type !== 'button';
  });
}

// A button that shows and hides the filter bar `bar` on a phone, saying
// what the filters are set to (`summary()`, called again by `update`).
export function filterToggle(bar, id, label, summary) {
  bar.id = id;
  const button = h('button', { type: 'button', class: 'filters-toggle', 'aria-expanded': 'false', 'aria-controls': id });
  button.addEventListener('click', () => {
    const open = bar.classList.toggle('open');
    button.setAttribute('aria-expanded', String(open));
  });
  return {
    button,
    update() { button.textContent = `${label()}: ${summary()}`; },
  };
}
