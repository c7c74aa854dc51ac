// The launch screen: the app's name while the first requests run. It goes as
// soon as they are done (never later than needed, never held for show), and
// at most after SPLASH_MS if the screen behind it is ready by then.
import { reducedMotion } from './dom.js';

export const SPLASH_MS = 1500;
const started = performance.now();

export async function hideSplash() {
  const splash = document.getElementById('splash');
  if (!splash || splash.classList.contains('gone')) return;
  splash.classList.add('gone');
  if (reducedMotion()) { splash.remove(); return; }
  await new Promise(resolve => {
    splash.addEventListener('transitionend', resolve, { once: true });
    setTimeout(resolve, 400);
  });
  splash.remove();
}

export function splashAge() { return performance.now() - started; }
