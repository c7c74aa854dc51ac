// To-dos: add (title, due as a date or the command line's words, priority,
// tags), filter, check off, edit, delete with undo. Every `todo` event,
// whoever made the change, and every change made here refresh the rows
// loaded where they are (paging.js); a filter starts again from the first page.
import * as api from './api.js';
import * as events from './events.js';
import { h, icon, errorToast, formatDue, splitTags, tagButton } from './dom.js';
import { t } from './i18n.js';
import { openForEditing, saveEdit, reloadUnlessEditing, undoableToast, showEditor } from './editing.js';
import { pagedList, PAGE_SIZE } from './paging.js';
import { repeatOptions, repeatText, repeatWord, reminderText, reminderWords } from './repeat.js';
import { foldForm, filterToggle } from './folding.js';
import { duePreview, formError, clearFormError } from './fieldnotes.js';

const priorities = ['', 'low', 'medium', 'high'];

function priorityOptions(selected) {
  return priorities.map(p => h('option', { value: p, text: t(p || 'none'), selected: p === (selected || '') }));
}

export function mountTodos(panel) {
  const filters = { status: 'open', due: '', tag: '', sort: 'newest' };
  let started = false;

  const title = h('input', { name: 'title', required: true, autocomplete: 'off', maxlength: '1000' });
  const due = h('input', { name: 'due', autocomplete: 'off' });
  const datePicker = h('input', { type: 'date', class: 'date-picker', onchange: () => {
    due.value = datePicker.value;
    due.dispatchEvent(new Event('input'));
  } });
  const priority = h('select', { name: 'priority' });
  const tags = h('input', { name: 'tags', autocomplete: 'off' });
  // A rule and a reminder, folded: most to-dos have neither.
  const repeat = h('select', { name: 'repeat' });
  const remind = h('input', { name: 'remind', autocomplete: 'off' });
  const moreLabel = h('summary');
  const more = h('details', { class: 'more' }, moreLabel, h('div', { class: 'more-fields' },
    h('label', { class: 'field' }, h('span', { class: 'label' }), repeat),
    h('label', { class: 'field' }, h('span', { class: 'label' }), remind)));
  const addButton = h('button', { type: 'submit', class: 'primary fold-keep' });
  const form = h('form', { class: 'card add-form todo-form', onsubmit: add },
    h('label', { class: 'field wide fold-keep' }, h('span', { class: 'label' }), title),
    h('label', { class: 'field' }, h('span', { class: 'label' }), h('span', { class: 'due-row' }, due, datePicker)),
    h('label', { class: 'field' }, h('span', { class: 'label' }), priority),
    h('label', { class: 'field' }, h('span', { class: 'label' }), tags),
    addButton, more);
  // On a phone: the title and Add alone until the title is tapped.
  foldForm(form, title);
  // What the due words mean, under the field, as they are typed; a
  // reminder's words are only checked (a date alone is its morning).
  const duePeek = duePreview(due);
  const remindPeek = duePreview(remind, { preview: false });

  const status = h('select', { name: 'status', onchange: () => { filters.status = status.value; filtered(); } });
  const dueFilter = h('select', { name: 'due-filter', onchange: () => { filters.due = dueFilter.value; filtered(); } });
  const sort = h('select', { name: 'sort', onchange: () => { filters.sort = sort.value; filtered(); } });
  const tagFilter = h('input', { name: 'tag-filter', type: 'search', autocomplete: 'off', onchange: () => { filters.tag = tagFilter.value.trim().replace(/^#/, ''); filtered(); } });
  const filterBar = h('div', { class: 'filters' }, status, dueFilter, sort, tagFilter);
  // On a phone the filters are behind one button that says how they are set.
  const chosen = select => select.selectedOptions[0] ? select.selectedOptions[0].textContent : '';
  const toggle = filterToggle(filterBar, 'todo-filters', () => t('filters'),
    () => [chosen(status), filters.due ? chosen(dueFilter) : null, chosen(sort), filters.tag ? '#' + filters.tag : null]
      .filter(Boolean).join(' · '));
  function filtered() { toggle.update(); load(); }

  // A tag tapped: the to-dos with it (the tag filter's field says which).
  function filterTag(tag) {
    filters.tag = tag;
    tagFilter.value = tag;
    filtered();
  }
  const list = h('ul', { class: 'list todo-list', 'aria-live': 'polite' });
  // Select mode (bulk.js, loaded on first use): many to-dos at once.
  let selecting = null;
  const selectButton = h('button', { type: 'button', class: 'select-toggle', onclick: () => import('./bulk.js').then(m => {
    selectButton.hidden = true;
    selecting = m.startSelecting(list, refresh, () => { selecting = null; selectButton.hidden = false; selectButton.focus(); });
  }, error => errorToast(error.message)) });
  const empty = h('p', { class: 'empty' });
  const pages = pagedList(list, row);

  function relabel() {
    const labels = form.querySelectorAll('.label');
    labels[0].textContent = t('title'); labels[1].textContent = t('due');
    title.placeholder = t('newTodo'); // the only words a folded form shows
    labels[2].textContent = t('priority'); labels[3].textContent = t('tags');
    labels[4].textContent = t('repeat'); labels[5].textContent = t('remind');
    moreLabel.textContent = t('more');
    repeat.replaceChildren(...repeatOptions(h, null));
    remind.placeholder = t('remindPlaceholder');
    due.placeholder = t('duePlaceholder');
    tags.placeholder = t('tagsPlaceholder');
    datePicker.setAttribute('aria-label', t('pickDate'));
    priority.replaceChildren(...priorityOptions(priority.value));
    addButton.textContent = t('add');
    status.replaceChildren(...['open', 'done', 'all'].map(v => h('option', { value: v, text: t(v), selected: v === filters.status })));
    status.setAttribute('aria-label', t('open') + ' / ' + t('done'));
    dueFilter.replaceChildren(...[['', 'anyDue'], ['today', 'today'], ['overdue', 'overdue'], ['week', 'week']]
      .map(([v, k]) => h('option', { value: v, text: t(k), selected: v === filters.due })));
    dueFilter.setAttribute('aria-label', t('due'));
    sort.replaceChildren(...[['newest', 'sortNewest'], ['created', 'sortCreated'], ['due', 'sortDue'], ['priority', 'sortPriority']]
      .map(([v, k]) => h('option', { value: v, text: t(k), selected: v === filters.sort })));
    sort.setAttribute('aria-label', t('sortLabel'));
    tagFilter.placeholder = t('filterTag');
    tagFilter.setAttribute('aria-label', t('filterTag'));
    empty.textContent = t('noTodos');
    selectButton.textContent = t('select');
    toggle.update();
    pages.relabel();
    duePeek.refresh();
    if (started) refresh(true); else { started = true; load(); }
  }

  async function add(event) {
    event.preventDefault();
    clearFormError(form);
    const body = { title: title.value.trim(), tags: splitTags(tags.value) };
    if (!body.title) return;
    if (!await duePeek.check()) return;
    if (!await remindPeek.check()) { more.open = true; remind.focus(); return; }
    if (due.value.trim()) body.due = due.value.trim();
    if (priority.value) body.priority = priority.value;
    if (repeat.value) body.repeat = repeat.value;
    if (remind.value.trim()) body.remind = remind.value.trim();
    try {
      await api.post('/todos', body);
      form.reset();
      duePeek.clear();
      title.focus();
      refresh();
    } catch (error) { formError(form, error.message); }
  }

  // The first page for the filters chosen.
  async function load() {
    try {
      const items = await pages.load('/todos' + api.query({ status: filters.status, due: filters.due, tag: filters.tag, sort: filters.sort, limit: PAGE_SIZE }));
      if (items) empty.hidden = items.length > 0;
    } catch (error) { errorToast(error.message); }
  }

  // The rows loaded, brought up to date in place.
  async function refresh(rerender = false) {
    try {
      const items = await pages.refresh(rerender);
      if (items) empty.hidden = items.length > 0;
    } catch (error) { errorToast(error.message); }
  }

  function row(todo) {
    const check = h('input', { type: 'checkbox', class: 'check', checked: todo.is_done, 'aria-label': `${t('markDone')}: ${todo.title}` });
    check.addEventListener('change', async () => {
      try {
        const { step } = await api.change('POST', `/todos/${todo.id}/${check.checked ? 'done' : 'undo'}`);
        refresh();
        undoableToast(check.checked ? t('todoDone') : t('todoReopened'), step, refresh);
      } catch (error) { check.checked = !check.checked; errorToast(error.message); }
    });
    const meta = h('div', { class: 'meta' },
      todo.due_local ? h('time', { class: 'due' + (todo.is_overdue && !todo.is_done ? ' overdue' : ''),
        datetime: todo.due_at, title: todo.due_local, text: formatDue(todo.due_local) }) : null,
      todo.priority ? h('span', { class: `priority p-${todo.priority}`, text: t(todo.priority) }) : null,
      todo.repeat ? h('span', { class: 'repeat', text: repeatText(todo.repeat) }) : null,
      todo.remind_at ? h('time', { class: 'remind', datetime: todo.remind_at, text: reminderText(todo.remind_at) }) : null,
      todo.tags.map(tag => tagButton('todo', tag)));
    const li = h('li', { class: 'item todo' + (todo.is_done ? ' is-done' : ''), 'data-id': String(todo.id) },
      check,
      h('div', { class: 'body' }, h('span', { class: 'title', text: todo.title }), todo.note ? h('p', { class: 'note', text: todo.note }) : null, meta),
      h('div', { class: 'row-actions' },
        h('button', { type: 'button', class: 'icon-button edit', 'aria-label': `${t('edit')}: ${todo.title}`, title: t('edit'), onclick: () => edit(li, todo) }, icon('pencil')),
        h('button', { type: 'button', class: 'icon-button delete', 'aria-label': `${t('delete')}: ${todo.title}`, title: t('delete'), onclick: () => remove(todo) }, icon('trash'))));
    return li;
  }

  async function edit(li, shown) {
    let todo, version;
    try { ({ item: todo, version } = await openForEditing(`/todos/${shown.id}`)); } catch (error) { errorToast(error.message); return; }
    const eTitle = h('input', { value: todo.title, required: true, 'aria-label': t('title') });
    const eDue = h('input', { class: 'edit-due', value: todo.due_local || '', 'aria-label': t('due'),
      placeholder: t('duePlaceholder'), autocomplete: 'off' });
    const ePriority = h('select', { 'aria-label': t('priority') }, ...priorityOptions(todo.priority));
    const eTags = h('input', { value: todo.tags.join(' '), 'aria-label': t('tags'), placeholder: t('tags') });
    const eRepeat = h('select', { name: 'repeat', 'aria-label': t('repeat') }, ...repeatOptions(h, todo.repeat));
    const eRemind = h('input', { name: 'remind', value: reminderWords(todo.remind_at), 'aria-label': t('remind'),
      placeholder: t('remindPlaceholder') });
    const editor = h('form', { class: 'item editor', 'data-id': String(todo.id), onsubmit: async event => {
      event.preventDefault();
      const form = event.currentTarget;
      clearFormError(form);
      if (!await eDuePeek.check() || !await eRemindPeek.check()) return;
      const wanted = splitTags(eTags.value);
      const body = { title: eTitle.value.trim(), priority: ePriority.value || null, due: eDue.value.trim() || null };
      const added = wanted.filter(x => !todo.tags.includes(x));
      const removed = todo.tags.filter(x => !wanted.includes(x));
      if (added.length) body.add_tags = added;
      if (removed.length) body.remove_tags = removed;
      // Sent only when changed: a rule the select cannot show is kept.
      if (eRepeat.value !== 'keep' && eRepeat.value !== repeatWord(todo.repeat)) body.repeat = eRepeat.value || null;
      if (eRemind.value.trim() !== reminderWords(todo.remind_at)) body.remind = eRemind.value.trim() || null;
      try { if (await saveEdit(`/todos/${todo.id}`, body, version, refresh, form)) refresh(); } catch (error) { formError(form, error.message); }
    } }, eTitle, eDue, ePriority, eTags, eRepeat, eRemind,
    h('div', { class: 'row-actions' },
      h('button', { type: 'submit', class: 'primary', text: t('save') }),
      h('button', { type: 'button', text: t('cancel'), onclick: () => refresh() })));
    const eDuePeek = duePreview(eDue);
    const eRemindPeek = duePreview(eRemind, { preview: false });
    showEditor(li, editor, eTitle);
  }

  // Undo asks the server to revert the removal's own step: the to-do comes
  // back as it was, with its id, uid, dates, repeat rule and reminder.
  async function remove(todo) {
    try {
      const { step } = await api.change('DELETE', `/todos/${todo.id}`);
      refresh();
      undoableToast(t('todoRemoved'), step, refresh);
    } catch (error) { errorToast(error.message); }
  }

  panel.append(h('h2', { class: 'visually-hidden', text: t('todos') }), form, h('div', { class: 'list-tools' }, toggle.button, selectButton), filterBar, list, pages.more, empty);
  const reload = reloadUnlessEditing(list, () => refresh());
  const off = [events.on('todo', reload), events.on('reconnected', reload)];
  relabel();
  return { relabel, filterTag, destroy() { off.forEach(f => f()); if (selecting) selecting.stop(); } };
}
