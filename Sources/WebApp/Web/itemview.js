// One item opened to be read, in a dialog over the list: a memo with its
// Markdown rendered (markdown.js), whose task checkboxes tick the memo's own
// text through the API, saved with If-Match against the version shown; and,
// for a search hit, a to-do or a voice memo. The dialog follows the item
// live: a change made elsewhere shows at once, a removal is said.
import * as api from './api.js';
import * as events from './events.js';
import { h, formatLocal, formatDue, tagButton } from './dom.js';
import { t } from './i18n.js';
import { markdownParser, renderMarkdown, tickedText } from './markdown.js';

let open = null; // the dialog shown: { dialog, close }

function showDialog(kind, id, build) {
  if (open) open.close();
  const body = h('div', { class: 'view-body' });
  const heading = h('h2', { class: 'view-title', id: 'item-view-title' });
  const note = h('p', { class: 'view-note', role: 'status', hidden: true });
  const closeButton = h('button', { type: 'button', class: 'view-close', text: t('close') });
  const dialog = h('dialog', { class: `item-view view-${kind}`, 'data-id': String(id), 'aria-labelledby': 'item-view-title' },
    h('header', { class: 'view-head' }, heading, closeButton), note, body);
  const view = {
    dialog, heading, body,
    say(text) { note.textContent = text; note.hidden = !text; },
    close() { dialog.close(); },
  };
  const offEvents = build(view);
  dialog.addEventListener('close', () => {
    offEvents();
    dialog.remove();
    if (open && open.dialog === dialog) open = null;
  });
  closeButton.addEventListener('click', () => view.close());
  // A tag tapped in the view shows its list (main.js), which the view would hide.
  body.addEventListener('click', event => { if (event.target.closest('.tag')) view.close(); });
  document.body.append(dialog);
  dialog.showModal();
  closeButton.focus();
  open = view;
  return view;
}

// Opens memo `id`.
export function openMemo(id) {
  return showDialog('memo', id, view => {
    let etag = null;
    let text = '';
    let shownRev = null;
    let saving = false;

    async function load() {
      try {
        const { item, etag: tag } = await api.getTagged(`/memos/${id}`);
        etag = tag;
        await show(item);
      } catch (error) {
        view.say(error.status === 404 ? t('itemGone') : error.message);
      }
    }

    async function show(memo) {
      text = memo.text;
      shownRev = memo.rev;
      view.heading.textContent = memo.title || t('memo');
      const meta = h('p', { class: 'meta' },
        memo.is_pinned ? h('span', { class: 'pinned', text: t('pinned') }) : null,
        memo.tags.map(tag => tagButton('memo', tag)),
        h('span', { class: 'date', text: formatLocal(memo.updated_at) }));
      let article;
      try {
        article = h('article', { class: 'markdown' }, renderMarkdown(await markdownParser(), memo.text));
      } catch {
        article = h('article', { class: 'markdown plain' }, h('p', { class: 'view-note', text: t('markdownMissing') }),
          h('pre', { text: memo.text }));
      }
      view.body.replaceChildren(meta, article);
      // A conflict copy: beside its original.
      if (memo.conflict_of) await (await import('./conflictview.js')).showBeside(view, memo);
    }

    async function tick(box) {
      const line = Number(box.dataset.line);
      const wanted = tickedText(text, line, box.checked);
      if (wanted === null || saving) { box.checked = !box.checked; return; }
      saving = true;
      view.dialog.classList.add('saving');
      try {
        const item = await api.request('PATCH', `/memos/${id}`, { text: wanted }, { 'If-Match': etag },
          response => { etag = response.headers.get('ETag'); });
        view.say('');
        await show(item);
      } catch (error) {
        box.checked = !box.checked;
        // Changed elsewhere since it was shown: shown anew, for the user to
        // tick again knowingly rather than to undo what someone else did.
        if (error.status === 412) { await load(); view.say(t('changedElsewhereShown')); } else view.say(error.message);
      } finally {
        saving = false;
        view.dialog.classList.remove('saving');
      }
    }

    view.body.addEventListener('change', event => {
      if (event.target.classList.contains('task-check')) tick(event.target);
    });
    load();
    return events.on('memo', data => {
      if (!data || data.id !== id || saving) return;
      if (data.action === 'removed') view.say(t('itemGone'));
      else if (!data.item || data.item.rev !== shownRev) load(); // not the tick just saved here
    });
  });
}

// Opens to-do `id` (a search hit): its words, its due, and its box.
export function openTodo(id) {
  return showDialog('todo', id, view => {
    async function load() {
      try { show(await api.get(`/todos/${id}`)); } catch (error) { view.say(error.status === 404 ? t('itemGone') : error.message); }
    }
    function show(todo) {
      view.heading.textContent = todo.title;
      const check = h('input', { type: 'checkbox', class: 'check', checked: todo.is_done, 'aria-label': `${t('markDone')}: ${todo.title}` });
      check.addEventListener('change', async () => {
        try { show(await api.post(`/todos/${id}/${check.checked ? 'done' : 'undo'}`)); } catch (error) {
          check.checked = !check.checked;
          view.say(error.message);
        }
      });
      // In a div: replaceChildren would show a null as the word "null".
      view.body.replaceChildren(h('div', { class: 'view-todo-body' },
        h('label', { class: 'inline view-done' }, check, h('span', { text: t('markDone') })),
        todo.note ? h('p', { class: 'note', text: todo.note }) : null,
        h('p', { class: 'meta' },
          todo.due_local ? h('time', { class: 'due', datetime: todo.due_at, text: formatDue(todo.due_local) }) : null,
          todo.priority ? h('span', { class: `priority p-${todo.priority}`, text: t(todo.priority) }) : null,
          todo.tags.map(tag => tagButton('todo', tag)))));
    }
    load();
    return events.on('todo', data => {
      if (!data || data.id !== id) return;
      if (data.action === 'removed') view.say(t('itemGone')); else load();
    });
  });
}

// Opens voice memo `id` (a search hit): its title and a player.
export function openVoice(id) {
  return showDialog('voice', id, view => {
    async function load() {
      try {
        const memo = await api.get(`/voice/${id}`);
        view.heading.textContent = memo.title || memo.original_name;
        view.body.replaceChildren(
          h('p', { class: 'meta' }, h('span', { text: formatLocal(memo.imported_at) }),
            memo.tags.map(tag => tagButton('voice', tag))),
          h('audio', { controls: true, preload: 'metadata', src: `/api/v1/voice/${id}/audio` }));
      } catch (error) { view.say(error.status === 404 ? t('itemGone') : error.message); }
    }
    load();
    return events.on('voice', data => {
      if (data && data.id === id && data.action === 'removed') view.say(t('itemGone'));
    });
  });
}

// The view for a search hit's kind.
export function openHit(hit) {
  if (hit.kind === 'memo') return openMemo(hit.id);
  if (hit.kind === 'todo') return openTodo(hit.id);
  if (hit.kind === 'voice') return openVoice(hit.id);
  return null;
}
