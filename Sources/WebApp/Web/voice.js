// Voice memos: upload a file (with progress) or record one (MediaRecorder,
// then decoded and sent as 16-bit WAV, since memoapp reads audio through
// libsndfile, which has no WebM), a list with each memo's waveform drawn from
// its stored peaks, playing with seeking (click the waveform), renaming, and
// trimming to a stretch selected on the waveform (with the pointer, or with
// the keys on its two ends: trimhandles.js). Offline: voicequeue.js.
import * as api from './api.js';
import * as events from './events.js';
import { h, icon, errorToast, formatLocal, splitTags, tagButton, tagChip } from './dom.js';
import { formError } from './fieldnotes.js';
import { t } from './i18n.js';
import { openForEditing, saveEdit, reloadUnlessEditing, undoableToast, showEditor } from './editing.js';
import { pagedList, PAGE_SIZE } from './paging.js';
import { trimHandles } from './trimhandles.js';

function duration(seconds) {
  const s = Math.max(0, seconds);
  return `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}.${Math.floor((s * 10) % 10)}`;
}

const types = { wav: 'audio/wav', flac: 'audio/flac', mp3: 'audio/mpeg', ogg: 'audio/ogg', opus: 'audio/ogg', aiff: 'audio/aiff', aif: 'audio/aiff', caf: 'audio/x-caf', m4a: 'audio/mp4', mp4: 'audio/mp4' };

export function mountVoice(panel) {
  const file = h('input', { type: 'file', name: 'audio', accept: 'audio/*,.wav,.flac,.mp3,.ogg,.opus,.aiff,.caf,.m4a,.mp4' });
  const title = h('input', { name: 'voice-title', autocomplete: 'off', maxlength: '1000' });
  const uploadButton = h('button', { type: 'submit', class: 'primary' });
  const recordButton = h('button', { type: 'button', class: 'record' });
  const progress = h('progress', { max: '1', value: '0', hidden: true });
  const form = h('form', { class: 'card add-form voice-form', onsubmit: uploadFile },
    h('label', { class: 'field' }, h('span', { class: 'label' }), file),
    h('label', { class: 'field' }, h('span', { class: 'label' }), title),
    h('div', { class: 'form-row' }, uploadButton, recordButton), progress);
  const list = h('ul', { class: 'list voice-list' });
  const empty = h('p', { class: 'empty' });
  const pages = pagedList(list, row);
  let recorder = null;
  let started = false;
  let tag = '';
  const chip = tagChip(() => filterTag(''));

  function relabel() {
    pages.relabel();
    const labels = form.querySelectorAll('.label');
    labels[0].textContent = t('audioFile');
    labels[1].textContent = t('title');
    title.placeholder = t('memoTitle');
    uploadButton.textContent = t('upload');
    recordButton.textContent = recorder ? t('stopRecording') : t('record');
    recordButton.hidden = !(navigator.mediaDevices && window.MediaRecorder);
    progress.setAttribute('aria-label', t('uploading'));
    empty.textContent = t('noVoice');
    chip.set(tag, t('clearTag'));
    showKept();
    if (started) refresh(true); else { started = true; load(); }
  }

  // Not in the first load: loaded by this tab.
  const queue = () => import('./voicequeue.js');
  const showKept = () => queue().then(q => q.show(list)).catch(() => {});
  // "No voice memos yet." only when none is listed and none waits either.
  // (Nor when the list could not be read: `listed` is null then.)
  let listed = 0, kept = 0;
  const showEmpty = () => { empty.hidden = listed !== 0 || kept > 0; };
  list.addEventListener('memoapp:waiting', event => { kept = event.detail; showEmpty(); });

  async function send(blob, name, contentType) {
    progress.hidden = false;
    progress.value = 0;
    const named = title.value.trim();
    try {
      const q = api.query({ title: named || undefined, filename: name });
      await api.upload('/voice' + q, blob, contentType, fraction => { progress.value = fraction; });
      form.reset();
      refresh();
    } catch (error) {
      if (await queue().then(q => q.keep(error, blob, name, contentType, named)).catch(() => false)) { form.reset(); showKept(); }
      else formError(form, error.message);
    }
    progress.hidden = true;
  }

  function uploadFile(event) {
    event.preventDefault();
    const chosen = file.files[0];
    if (!chosen) return;
    const extension = (chosen.name.split('.').pop() || '').toLowerCase();
    send(chosen, chosen.name, chosen.type || types[extension] || 'application/octet-stream');
  }

  recordButton.addEventListener('click', async () => {
    if (recorder) { recorder.stop(); return; }
    let stream;
    try { stream = await navigator.mediaDevices.getUserMedia({ audio: true }); } catch (error) { errorToast(t('noMicrophone')); return; }
    const chunks = [];
    recorder = new MediaRecorder(stream);
    recorder.addEventListener('dataavailable', event => chunks.push(event.data));
    recorder.addEventListener('stop', async () => {
      stream.getTracks().forEach(track => track.stop());
      recorder = null;
      recordButton.textContent = t('record');
      recordButton.classList.remove('recording');
      try {
        // The encoder is loaded here, not with the page: only a recording needs it.
        const { toWav } = await import('./wav.js');
        const wav = await toWav(new Blob(chunks, { type: chunks[0] ? chunks[0].type : 'audio/webm' }));
        await send(wav, 'recording.wav', 'audio/wav');
      } catch (error) { errorToast(error.message); }
    });
    recorder.start();
    recordButton.textContent = t('stopRecording');
    recordButton.classList.add('recording');
  });

  async function load() {
    try {
      const memos = await pages.load('/voice' + api.query({ tag, limit: PAGE_SIZE }));
      if (memos) { listed = memos.length; showEmpty(); }
    } catch (error) { failed(error); }
  }

  // The list could not be read. Offline, the top bar says so already
  // (voicequeue.js): no banner, and no untrue "No voice memos yet.".
  async function failed(error) {
    if (await queue().then(q => q.offline(error)).catch(() => false)) { listed = null; showEmpty(); return; }
    errorToast(error.message);
  }

  // A tag tapped: the voice memos with it.
  function filterTag(chosen) {
    tag = chosen;
    chip.set(tag, t('clearTag'));
    load();
  }

  // The rows loaded, brought up to date in place (paging.js).
  async function refresh(rerender = false) {
    try {
      const memos = await pages.refresh(rerender);
      if (memos) { listed = memos.length; showEmpty(); }
    } catch (error) { failed(error); }
  }

  function row(memo) {
    const canvas = h('canvas', { class: 'waveform', height: '64', 'aria-label': t('waveform') });
    const audio = h('audio', { controls: true, preload: 'metadata', src: `/api/v1/voice/${memo.id}/audio` });
    // Shown once a stretch is selected on the waveform.
    const trim = h('button', { type: 'button', class: 'trim', hidden: true, text: t('trim') });
    let peaks = null;
    let selection = null; // [start, end] in seconds
    // The stretch's ends, for the keyboard (and a finger) as well as a drag.
    const ends = trimHandles(memo.duration, duration, range =>
      select(range[0] > 0 || range[1] < memo.duration ? range : null, false));
    ends.relabel();
    ends.set(null);

    function select(chosen, moveHandles = true) {
      selection = chosen;
      trim.hidden = !selection;
      trim.textContent = selection ? `${t('trim')} ${duration(selection[0])}–${duration(selection[1])}` : t('trim');
      if (moveHandles) ends.set(selection);
      draw();
    }

    function draw() {
      const width = canvas.clientWidth || 300;
      if (canvas.width !== width) canvas.width = width;
      const g = canvas.getContext('2d');
      const style = getComputedStyle(canvas);
      g.clearRect(0, 0, canvas.width, canvas.height);
      if (selection) {
        g.fillStyle = style.getPropertyValue('--mark').trim();
        const [a, b] = selection.map(s => (s / memo.duration) * canvas.width);
        g.fillRect(a, 0, b - a, canvas.height);
      }
      if (peaks) {
        const max = 2 ** (peaks.bits - 1);
        const n = peaks.data.length / 2;
        g.fillStyle = style.getPropertyValue('--key').trim();
        for (let x = 0; x < n; x++) {
          const lo = peaks.data[2 * x] / max, hi = peaks.data[2 * x + 1] / max;
          const y1 = (1 - hi) * canvas.height / 2, y2 = (1 - lo) * canvas.height / 2;
          g.fillRect((x / n) * canvas.width, y1, Math.max(1, canvas.width / n), Math.max(1, y2 - y1));
        }
      }
      const at = (audio.currentTime / memo.duration) * canvas.width;
      g.fillStyle = style.getPropertyValue('--ink').trim();
      g.fillRect(at, 0, 2, canvas.height);
    }

    async function loadPeaks() {
      try {
        const width = Math.max(50, Math.min(2000, canvas.clientWidth || 300));
        peaks = await api.get(`/voice/${memo.id}/peaks?width=${width}`);
        draw();
      } catch (error) { errorToast(error.message); }
    }

    // Click: seek there. Drag: select a stretch to trim to.
    let down = null;
    const seconds = event => {
      const box = canvas.getBoundingClientRect();
      return Math.max(0, Math.min(memo.duration, ((event.clientX - box.left) / box.width) * memo.duration));
    };
    canvas.addEventListener('pointerdown', event => { down = seconds(event); canvas.setPointerCapture(event.pointerId); });
    canvas.addEventListener('pointermove', event => {
      if (down === null) return;
      const now = seconds(event);
      select([Math.min(down, now), Math.max(down, now)]);
    });
    canvas.addEventListener('pointerup', event => {
      if (down === null) return;
      const now = seconds(event);
      const from = down;
      down = null;
      if (Math.abs(now - from) < memo.duration / 100) { audio.currentTime = now; select(null); }
      else select([Math.min(from, now), Math.max(from, now)]);
    });
    audio.addEventListener('timeupdate', draw);
    audio.addEventListener('seeked', draw);
    trim.addEventListener('click', async () => {
      if (!selection) return;
      try {
        const { step } = await api.change('POST', `/voice/${memo.id}/trim`, { start: selection[0], end: selection[1] });
        refresh();
        undoableToast(t('voiceTrimmed'), step, refresh);
      } catch (error) { errorToast(error.message); }
    });

    const name = h('span', { class: 'title', text: memo.title || memo.original_name });
    const li = h('li', { class: 'item voice', 'data-id': String(memo.id) },
      h('div', { class: 'body' }, name,
        h('div', { class: 'meta' }, h('span', { class: 'length', text: duration(memo.duration) }),
          h('span', { text: formatLocal(memo.imported_at) }), memo.tags.map(tag => tagButton('voice', tag))),
        h('div', { class: 'waveform-box' }, canvas, ...ends.handles), audio, h('div', { class: 'row-actions' }, trim)),
      h('div', { class: 'row-actions' },
        h('button', { type: 'button', class: 'icon-button edit', 'aria-label': t('rename'), title: t('rename'), onclick: () => rename(li, memo) }, icon('pencil')),
        h('button', { type: 'button', class: 'icon-button delete', 'aria-label': t('delete'), title: t('delete'), onclick: () => remove(memo) }, icon('trash'))));
    requestAnimationFrame(loadPeaks);
    return li;
  }

  async function rename(li, shown) {
    let memo, version;
    try { ({ item: memo, version } = await openForEditing(`/voice/${shown.id}`)); } catch (error) { errorToast(error.message); return; }
    const field = h('input', { value: memo.title || '', 'aria-label': t('title'), required: true });
    const tags = h('input', { name: 'voice-edit-tags', value: memo.tags.join(' '), autocomplete: 'off',
      'aria-label': t('tags'), placeholder: `${t('tags')}: ${t('tagsPlaceholder')}` });
    const editor = h('form', { class: 'item editor', 'data-id': String(memo.id), onsubmit: async event => {
      event.preventDefault();
      const body = { title: field.value.trim(), tags: splitTags(tags.value) };
      try { if (await saveEdit(`/voice/${memo.id}`, body, version, refresh, event.currentTarget)) refresh(); } catch (error) { errorToast(error.message); }
    } }, field, tags, h('div', { class: 'row-actions' },
      h('button', { type: 'submit', class: 'primary', text: t('save') }),
      h('button', { type: 'button', text: t('cancel'), onclick: () => refresh() })));
    showEditor(li, editor, field);
  }

  async function remove(memo) {
    try {
      const { step } = await api.change('DELETE', `/voice/${memo.id}`);
      refresh();
      undoableToast(t('voiceRemoved'), step, refresh);
    } catch (error) { errorToast(error.message); }
  }

  panel.append(form, chip.element, list, pages.more, empty);
  const reload = reloadUnlessEditing(list, () => refresh());
  // Kept audio sent: by this tab's sync run, or another's (the event stream).
  const sent = data => { showKept(); reload(data); };
  addEventListener('memoapp:voicesent', sent);
  const off = [events.on('voice', sent), events.on('reconnected', reload), () => removeEventListener('memoapp:voicesent', sent)];
  relabel();
  return { relabel, filterTag, destroy() { off.forEach(f => f()); if (recorder) recorder.stop(); } };
}
