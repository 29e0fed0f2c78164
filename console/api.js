// Calls to the Hangar API of this origin with the signed-in API key. The key lives in
// sessionStorage only: it goes with the tab, is never written to a cookie (so no request
// carries it unasked) and never appears in a URL.

const KEY = 'hangar.apiKey';

export function apiKey() {
  return sessionStorage.getItem(KEY);
}

export function signIn(key) {
  sessionStorage.setItem(KEY, key);
}

export function signOut() {
  sessionStorage.removeItem(KEY);
}

/** The API's Error body `{error, details}` with the HTTP status. */
export class ApiError extends Error {
  constructor(status, error, details) {
    super(details ? `${error}: ${details}` : error);
    this.status = status;
    this.error = error;
    this.details = details ?? null;
  }
}

/** Listeners for a 401: the key was revoked or mistyped, so the app shows the login form. */
const unauthorized = new Set();
export function onUnauthorized(listener) {
  unauthorized.add(listener);
}

export function authHeaders(extra = {}) {
  const key = apiKey();
  return key ? { authorization: `Bearer ${key}`, ...extra } : extra;
}

/** A JSON call: resolves with the parsed body, or throws ApiError. `probe` (the login check) keeps a 401 to itself. */
export async function api(method, path, body, options = {}) {
  const headers = authHeaders(body === undefined ? {} : { 'content-type': 'application/json' });
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: options.signal });
  const text = await res.text();
  let parsed = null;
  if (text && (res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
  if (!res.ok) {
    if (res.status === 401 && !options.probe) for (const listener of unauthorized) listener();
    throw new ApiError(res.status, parsed?.error ?? `HTTP ${res.status}`, parsed?.details);
  }
  return parsed;
}

export const get = (path, options) => api('GET', path, undefined, options);
export const post = (path, body) => api('POST', path, body ?? {});
