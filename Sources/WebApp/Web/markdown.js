// A memo's Markdown as elements. markdown-it (Debian's libjs-markdown-it,
// which the server serves as /app/markdown-it.js, loaded on the first memo
// opened) only parses, with raw HTML off: its tokens are turned into
// elements here, from a list of the kinds allowed, with text always set as
// text. So no HTML from a memo ever reaches the page, not even through a
// bug of a renderer's escaping, and a link goes only to http, https or
// mailto. A task list item ("- [ ] buy milk") gets a checkbox that knows
// the line of the memo's text it stands on, for ticking (memoview.js).
import { h } from './dom.js';

let library = null;

// Resolves with a markdown-it parser, or rejects when the server has no
// markdown-it (the memo is then shown as written).
export function markdownParser() {
  if (!library) {
    library = new Promise((resolve, reject) => {
      const made = () => resolve(window.markdownit({ html: false, linkify: true, typographer: false }));
      if (window.markdownit) { made(); return; }
      const script = document.createElement('script');
      script.src = '/app/markdown-it.js';
      script.addEventListener('load', () => (window.markdownit ? made() : reject(new Error('markdown-it'))));
      script.addEventListener('error', () => { library = null; reject(new Error('markdown-it')); });
      document.head.append(script);
    });
  }
  return library;
}

// The block and inline tokens that become an element, by markdown-it's
// tag for them. Anything else is shown as its text, or not at all.
const allowedTags = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'table', 'thead',
  'tbody', 'tr', 'th', 'td', 'em', 'strong', 's', 'a', 'hr', 'br']);

// "- [ ] text", "- [x] text": what makes a list item a task.
const TASK = /^\[([ xX])\][ \t]/;

export function safeHref(href) {
  return /^(https?:|mailto:)/i.test(href || '') ? href : null;
}

// `text` rendered by `parser` into a DocumentFragment.
export function renderMarkdown(parser, text) {
  const tokens = parser.parse(text, {});
  const root = document.createDocumentFragment();
  const stack = [root];
  const top = () => stack[stack.length - 1];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'inline') { renderInline(token.children || [], top()); continue; }
    if (token.type === 'fence' || token.type === 'code_block') {
      top().append(h('pre', {}, h('code', { text: token.content })));
      continue;
    }
    if (token.type === 'html_block') { top().append(h('p', { text: token.content })); continue; }
    if (token.nesting === 0) {
      if (token.type === 'hr') top().append(h('hr'));
      continue;
    }
    if (token.nesting === -1) { stack.pop(); continue; }
    // A paragraph of a tight list is hidden: its text goes straight into the item.
    if (token.hidden || !allowedTags.has(token.tag)) { stack.push(top()); continue; }
    const element = h(token.tag);
    if (token.tag === 'ol' && token.attrGet('start')) element.setAttribute('start', token.attrGet('start'));
    const align = /text-align:(left|center|right)/.exec(token.attrGet('style') || '');
    if (align) element.className = 'align-' + align[1];
    if (token.type === 'list_item_open') taskItem(tokens, i, element);
    top().append(element);
    stack.push(element);
  }
  return root;
}

// A list item whose text begins "[ ]" or "[x]": its mark becomes a checkbox
// (the mark is taken off the text that follows), `data-line` the item's
// first line in the memo's text (markdown-it's token map, counted from 0).
function taskItem(tokens, index, item) {
  const inline = tokens[index + 1] && tokens[index + 1].type === 'paragraph_open' ? tokens[index + 2] : null;
  const first = inline && inline.type === 'inline' && inline.children && inline.children[0];
  const match = first && first.type === 'text' ? TASK.exec(first.content) : null;
  if (!match || !tokens[index].map) return;
  first.content = first.content.slice(match[0].length);
  item.classList.add('task');
  // Named by the task's words, so a screen reader says what is ticked.
  const words = inline.children.filter(c => c.type === 'text' || c.type === 'code_inline').map(c => c.content).join('').trim();
  item.append(h('input', { type: 'checkbox', class: 'task-check', checked: match[1] !== ' ',
    'data-line': String(tokens[index].map[0]), 'aria-label': words || match[0].trim() }));
}

function renderInline(children, parent) {
  const stack = [parent];
  const top = () => stack[stack.length - 1];
  for (const token of children) {
    switch (token.type) {
      case 'text': case 'html_inline': top().append(token.content); break;
      case 'code_inline': top().append(h('code', { text: token.content })); break;
      case 'softbreak': top().append('\n'); break;
      case 'hardbreak': top().append(h('br')); break;
      case 'image': {
        // Shown as a link to the picture: nothing is fetched from elsewhere.
        const href = safeHref(token.attrGet('src'));
        const alt = token.content || token.attrGet('src') || '';
        top().append(href ? h('a', { href, rel: 'noopener noreferrer', target: '_blank', text: alt }) : alt);
        break;
      }
      case 'link_open': {
        const href = safeHref(token.attrGet('href'));
        // A link to anywhere else keeps its text, without the link.
        const element = href ? h('a', { href, rel: 'noopener noreferrer', target: '_blank' }) : h('span');
        top().append(element);
        stack.push(element);
        break;
      }
      default:
        if (token.nesting === 1) {
          const element = h(allowedTags.has(token.tag) ? token.tag : 'span');
          top().append(element);
          stack.push(element);
        } else if (token.nesting === -1) {
          stack.pop();
        }
    }
  }
}

// The memo's `text` with the task mark on line `line` (counted from 0, as
// markdown-it counts) set to `done`; null when that line holds no task mark
// in the state `!done` (the text changed since it was shown). Line ends are
// kept as they are.
export function tickedText(text, line, done) {
  const parts = text.split(/(\r\n?|\n)/);
  const at = line * 2;
  if (at >= parts.length) return null;
  const mark = /^((?:[ \t]*>)*[ \t]*(?:[-+*]|\d{1,9}[.)])[ \t]+)\[([ xX])\]/.exec(parts[at]);
  if (!mark || (mark[2] !== ' ') === done) return null;
  parts[at] = mark[1] + (done ? '[x]' : '[ ]') + parts[at].slice(mark[0].length);
  return parts.join('');
}
