// The HTTP API of docs/api.md. Sign-in: the code in the link's fragment is
// exchanged once for an HttpOnly session cookie and a CSRF token. The server
// never gives the CSRF token for the cookie alone (cookies ignore ports, so
// any server on another port of this host gets the cookie): the page keeps
// it in memory and in sessionStorage, which is per origin (port included)
// and per tab, so a reloaded tab goes on and a new tab signs in anew.
import { lang, t } from './i18n.js';

let csrfToken = null;
const csrfKey = 'memoapp.csrf';

function keepCsrf(token) {
  csrfToken = token;
  try {
    if (token) sessionStorage.setItem(csrfKey, token); else sessionStorage.removeItem(csrfKey);
  } catch { /* storage refused: the token stays in memory only */ }
}

function storedCsrf() {
  try { return sessionStorage.getItem(csrfKey); } catch { return null; }
}

export class ApiError extends Error {
  constructor(status, code, message, etag = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.etag = etag; // a 412's: the current version's
  }
}

// `seen`, when given, is called with the response (for its headers).
export async function request(method, path, body, extraHeaders = {}, seen = null) {
  const headers = { Accept: 'application/json', 'Accept-Language': lang(), ...extraHeaders };
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let payload;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch('/api/v1' + path, { method, headers, body: payload, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    const local = hooks.local && await hooks.local(method, path, body);
    if (local !== undefined) return local;
    throw new ApiError(0, 'offline', t('offline'));
  }
  if (seen) seen(response);
  if (response.status === 204) return null;
  let data = null;
  try { data = await response.json(); } catch { /* no JSON body */ }
  if (!response.ok) {
    const error = data && data.error;
    if (error && error.code === 'onboarding_required') window.dispatchEvent(new Event('memoapp:gate'));
    if (response.status === 401 && path !== '/session') window.dispatchEvent(new Event('memoapp:signedout'));
    throw new ApiError(response.status, error ? error.code : 'http', error ? error.message : `HTTP ${response.status}`,
      response.headers.get('ETag'));
  }
  return data;
}

export const csrf = () => csrfToken;

// Set by main.js: `local(method, path, body)` answers a request the server
// could not be asked (the page's copy, offline.js; undefined when it has no
// answer), `page(path, items)` is told of every list page the server gave.
export const hooks = { local: null, page: null };

// Opened on its copy without the server: this tab's token, as it was
// (sync.js confirms the session once the server answers).
export function resumeOffline() { csrfToken = storedCsrf(); }

// An upload with progress (fetch has none for request bodies): the raw body,
// as POST /api/v1/voice takes it. Resolves with the created item.
export function upload(path, body, contentType, onProgress, headers = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v1' + path);
    xhr.setRequestHeader('Content-Type', contentType || 'application/octet-stream');
    xhr.setRequestHeader('Accept-Language', lang());
    if (csrfToken) xhr.setRequestHeader('X-CSRF-Token', csrfToken);
    for (const name in headers) xhr.setRequestHeader(name, headers[name]);
    xhr.upload.addEventListener('progress', event => { if (event.lengthComputable) onProgress(event.loaded / event.total); });
    xhr.addEventListener('load', () => {
      let data = null;
      try { data = JSON.parse(xhr.responseText); } catch { /* none */ }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data);
      else reject(new ApiError(xhr.status, data && data.error ? data.error.code : 'http',
        data && data.error ? data.error.message : `HTTP ${xhr.status}`));
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, 'offline', t('offline'))));
    xhr.send(body);
  });
}

export const get = path => request('GET', path);

// An item and its ETag, for a change sent back with If-Match.
export async function getTagged(path) {
  let etag = null;
  const item = await request('GET', path, undefined, {}, response => { etag = response.headers.get('ETag'); });
  return { item, etag };
}

// One page of a list and the path of the next, from the `Link: <…>;
// rel="next"` header the API sends when the page is full (docs/api.md).
export async function getPage(path) {
  let response;
  try {
    response = await fetch('/api/v1' + path, {
      headers: { Accept: 'application/json', 'Accept-Language': lang() }, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    const local = hooks.local && await hooks.local('GET', path);
    if (local !== undefined) return { items: local, next: null };
    throw new ApiError(0, 'offline', t('offline'));
  }
  if (!response.ok) return { items: await request('GET', path), next: null }; // the error, as request words it
  const items = await response.json();
  if (hooks.page) hooks.page(path, items);
  const link = /<\/api\/v1([^>]*)>;\s*rel="next"/.exec(response.headers.get('Link') || '');
  return { items, next: link ? link[1] : null };
}
// A change, and the undo step the server recorded for it (its `Undo-Step`
// header): `undo(step)` reverts exactly that change later, with the item's
// id, uid, dates, rule and reminder, whatever else changed since.
export async function change(method, path, body, extraHeaders = {}) {
  let step = null;
  const item = await request(method, path, body, extraHeaders, response => { step = response.headers.get('Undo-Step'); });
  return { item, step };
}

export const undo = step => request('POST', `/undo/${encodeURIComponent(step)}`);

export const post = (path, body) => request('POST', path, body);
export const put = (path, body) => request('PUT', path, body);
export const del = path => request('DELETE', path);

export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.append(k, v);
  const s = q.toString();
  return s ? '?' + s : '';
}

// Signs in with the link's code if there is one (taking it out of the URL
// first, so it is in no history entry), else resumes the cookie's session.
// Returns 'ok', 'refused' (a used or expired code and no session) or 'none'.
export async function signIn() {
  const match = /(?:^#|&)code=([^&]*)/.exec(location.hash);
  let refused = false;
  if (match) {
    history.replaceState(null, '', location.pathname + location.search);
    try {
      const session = await request('POST', '/session', { code: decodeURIComponent(match[1]) });
      keepCsrf(session.csrf_token);
      return 'ok';
    } catch (error) {
      if (error.status !== 401 && error.status !== 400 && error.status !== 422) throw error;
      refused = true;
    }
  }
  // A reload: the session holds, and this tab's token is still its token
  // (the answer names it only when the request carried it). A tab without
  // one (a new tab, or a token of an older session) signs in anew: its
  // writes would all be refused.
  const stored = storedCsrf();
  try {
    const session = await request('GET', '/session', undefined, stored ? { 'X-CSRF-Token': stored } : {});
    if (stored && session.csrf_token === stored) {
      keepCsrf(stored);
      return 'ok';
    }
    keepCsrf(null);
    return refused ? 'refused' : 'none';
  } catch (error) {
    if (error.status === 401) {
      keepCsrf(null);
      return refused ? 'refused' : 'none';
    }
    throw error;
  }
}

export async function signOut() {
  await request('DELETE', '/session');
  keepCsrf(null);
}
