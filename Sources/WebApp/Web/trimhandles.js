// The two ends of the stretch a voice memo is trimmed to, as sliders on its
// waveform, so that trimming needs no pointer: reached with Tab, moved with
// the arrow keys (a tenth of a second; a second with Shift or Page Up/Down;
// Home and End to the ends), or dragged. Each says its time to a screen
// reader (aria-valuenow in seconds, aria-valuetext as the list shows it).
import { h } from './dom.js';
import { t } from './i18n.js';

// `duration` in seconds; `format(seconds)` the words for a time;
// `changed([start, end])` after every move.
export function trimHandles(duration, format, changed) {
  let range = [0, duration];
  // The ends never cross: a stretch is at least a hundredth of the memo.
  const gap = duration / 100;
  const make = which => h('div', { class: `trim-handle trim-${which}`, role: 'slider', tabindex: '0',
    'aria-valuemin': '0', 'aria-valuemax': seconds(duration), 'aria-orientation': 'horizontal' });
  const handles = [make('start'), make('end')];

  function show() {
    handles.forEach((handle, i) => {
      handle.style.left = `${(range[i] / duration) * 100}%`;
      handle.setAttribute('aria-valuenow', seconds(range[i]));
      handle.setAttribute('aria-valuetext', format(range[i]));
    });
  }

  function move(i, to) {
    const low = i === 0 ? 0 : range[0] + gap;
    const high = i === 0 ? range[1] - gap : duration;
    const next = Math.min(Math.max(to, low), high);
    if (next === range[i]) return;
    range = i === 0 ? [next, range[1]] : [range[0], next];
    show();
    changed(range);
  }

  handles.forEach((handle, i) => {
    handle.addEventListener('keydown', event => {
      const big = event.shiftKey ? 1 : 0.1;
      const to = { ArrowLeft: range[i] - big, ArrowDown: range[i] - big, ArrowRight: range[i] + big, ArrowUp: range[i] + big,
        PageDown: range[i] - 1, PageUp: range[i] + 1, Home: -Infinity, End: Infinity }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      move(i, to);
    });
    // Dragged: the handle follows the pointer along the waveform (its parent).
    handle.addEventListener('pointerdown', event => {
      event.stopPropagation();
      handle.setPointerCapture(event.pointerId);
      handle.focus();
    });
    handle.addEventListener('pointermove', event => {
      if (!handle.hasPointerCapture(event.pointerId)) return;
      const box = handle.parentElement.getBoundingClientRect();
      move(i, ((event.clientX - box.left) / box.width) * duration);
    });
  });

  return {
    handles,
    // The stretch chosen with the pointer on the waveform (null: all of it).
    set(selection) { range = selection ? [...selection] : [0, duration]; show(); },
    relabel() {
      handles[0].setAttribute('aria-label', t('trimStart'));
      handles[1].setAttribute('aria-label', t('trimEnd'));
    },
  };
}

const seconds = value => String(Math.round(value * 10) / 10);
