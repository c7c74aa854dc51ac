// Asked before signing out (main.js), which deletes the copy and its queue
// (store.js): with changes waiting, how many are lost; else the browser's question.
import * as store from './store.js';
import { h } from './dom.js';
import { t, lang } from './i18n.js';

const WORDS = {
  en: ['Unsent changes will be lost', n => `${n === 1 ? '1 change' : `${n} changes`} made without the server have not reached it yet. Signing out deletes ${n === 1 ? 'it' : 'them'} from this browser.`,
    'Sign out and lose them', 'Stay signed in'],
  ko: ['보내지 못한 변경이 사라집니다', n => `서버 없이 만든 변경 ${n}개가 아직 서버에 닿지 않았습니다. 로그아웃하면 이 브라우저에서 지워집니다.`,
    '로그아웃하고 버리기', '로그인 유지'],
};

// Resolves true to sign out.
export async function confirmSignOut() {
  let waiting = 0;
  // Voice memos waiting to be uploaded are lost with the copy as well.
  try { waiting = (await store.count('queue')) + (await store.count('voice')); } catch { /* no copy */ }
  if (!waiting) return window.confirm(t('signOutConfirm'));
  const [title, lost, leave, stay] = WORDS[lang()] || WORDS.en;
  return new Promise(resolve => {
    let answer = false;
    const stayButton = h('button', { type: 'button', class: 'primary', text: stay });
    const dialog = h('dialog', { class: 'signout-warning', 'aria-labelledby': 'signout-title' },
      h('h2', { id: 'signout-title', text: title }), h('p', { text: lost(waiting) }),
      h('div', { class: 'row-actions' }, h('button', { type: 'button', class: 'sign-out-anyway', text: leave,
        onclick: () => { answer = true; dialog.close(); } }), stayButton));
    stayButton.onclick = () => dialog.close();
    // Escape too: staying loses nothing.
    dialog.addEventListener('close', () => { dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
    stayButton.focus();
  });
}
