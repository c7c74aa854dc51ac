// Asked before signing out (main.js): signing out deletes the page's copy
// and its queue (store.js: the next person to sign in on this browser must
// not find them), so changes made offline and not yet sent are lost with it.
// With none waiting, the browser's own question; with some, a dialog that
// says how many are lost. Loaded when "Sign out" is tapped.
import * as store from './store.js';
import { h } from './dom.js';
import { t, lang } from './i18n.js';

const WORDS = {
  en: { title: 'Unsent changes will be lost',
    lost: n => `${n === 1 ? '1 change' : `${n} changes`} made without the server have not reached it yet. Signing out deletes ${n === 1 ? 'it' : 'them'} from this browser.`,
    signOut: 'Sign out and lose them', keep: 'Stay signed in' },
  ko: { title: '보내지 못한 변경이 사라집니다',
    lost: n => `서버 없이 만든 변경 ${n}개가 아직 서버에 닿지 않았습니다. 로그아웃하면 이 브라우저에서 지워집니다.`,
    signOut: '로그아웃하고 버리기', keep: '로그인 유지' },
};
const word = key => (WORDS[lang()] || WORDS.en)[key];

// Resolves true when the person still wants to sign out.
export async function confirmSignOut() {
  let waiting = 0;
  try { waiting = await store.count('queue'); } catch { /* no copy: nothing to lose */ }
  if (!waiting) return window.confirm(t('signOutConfirm'));
  return new Promise(resolve => {
    const stay = h('button', { type: 'button', class: 'primary keep-session', text: word('keep') });
    const leave = h('button', { type: 'button', class: 'sign-out-anyway', text: word('signOut') });
    const dialog = h('dialog', { class: 'signout-warning', 'aria-labelledby': 'signout-title', 'aria-describedby': 'signout-text' },
      h('h2', { id: 'signout-title', text: word('title') }),
      h('p', { id: 'signout-text', text: word('lost')(waiting) }),
      h('div', { class: 'row-actions' }, leave, stay));
    let answer = false;
    stay.addEventListener('click', () => dialog.close());
    leave.addEventListener('click', () => { answer = true; dialog.close(); });
    // Escape closes it too: staying signed in is the answer that loses nothing.
    dialog.addEventListener('close', () => { dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
    stay.focus();
  });
}
