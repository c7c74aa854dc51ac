// The launch screen: the app's name, held for SPLASH_MS from the start of
// the page's load, as the seeds' app holds its splash for 1.5 s before the
// onboarding (and longer only while the first requests still run). A
// launch is the page's first load in a browser tab: a reload, or a sign-in
// link opened in the tab, shows the screen behind as soon as it is ready.
// The moment it went, and whether it was held, is a performance mark
// (`memoapp-splash-gone`) that the browser tests read.
import { reducedMotion } from './dom.js';

export const SPLASH_MS = 1500;
const LAUNCHED = 'memoapp.launched';

const isLaunch = (() => {
  try {
    const seen = sessionStorage.getItem(LAUNCHED) !== null;
    sessionStorage.setItem(LAUNCHED, '1');
    return !seen;
  } catch { return true; /* storage off: every load is a launch */ }
})();

let hiding = null;

// Resolves once the splash is gone (at once when it is gone already); every
// caller waits for the same going.
export function hideSplash() {
  hiding = hiding || hide();
  return hiding;
}

async function hide() {
  const splash = document.getElementById('splash');
  if (!splash) return;
  // performance.now() counts from the navigation's start, so the time the
  // page took to load is part of the 1.5 s, not added to it.
  // A timer rounds its delay to whole milliseconds and may fire a little
  // early: wait again until the 1.5 s have truly passed.
  while (isLaunch && performance.now() < SPLASH_MS) {
    await new Promise(resolve => setTimeout(resolve, Math.ceil(SPLASH_MS - performance.now())));
  }
  splash.classList.add('gone');
  performance.mark('memoapp-splash-gone', { detail: { held: isLaunch } });
  if (reducedMotion()) { splash.remove(); return; }
  await new Promise(resolve => {
    splash.addEventListener('transitionend', resolve, { once: true });
    setTimeout(resolve, 400);
  });
  splash.remove();
}
