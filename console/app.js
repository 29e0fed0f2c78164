// The console's shell: login, hash routes, and one page at a time. Each page gets an
// AbortSignal that fires when the user navigates away, which closes its event streams.

import { api, apiKey, onUnauthorized, signIn, signOut } from './api.js';
import { errorLine, fill, h } from './dom.js';
import { automationPage, automationsPage, runPage } from './automations.js';
import { chatPage, workspacePage, workspacesPage } from './workspaces.js';
import { terminalPage } from './terminal.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const logout = document.getElementById('logout');

const ROUTES = [
  [/^#\/automations$/, automationsPage],
  [/^#\/automations\/([\w-]+)$/, automationPage],
  [/^#\/automations\/([\w-]+)\/runs\/([\w-]+)$/, runPage],
  [/^#\/workspaces$/, workspacesPage],
  [/^#\/workspaces\/([\w-]+)$/, workspacePage],
  [/^#\/workspaces\/([\w-]+)\/chats\/([\w-]+)$/, chatPage],
  [/^#\/workspaces\/([\w-]+)\/terminal$/, terminalPage],
];

let current = null;

function loginPage() {
  nav.hidden = true;
  logout.hidden = true;
  const input = h('input', { id: 'api-key', name: 'api-key', type: 'password', autocomplete: 'off', required: true, spellcheck: 'false' });
  const message = h('div');
  const form = h(
    'form',
    { class: 'card login', id: 'login' },
    h('h1', {}, 'Sign in'),
    h('p', { class: 'muted' }, 'Paste an organization or personal API key. It is kept in this tab only and forgotten when you log out or close it.'),
    h('label', { for: 'api-key' }, 'API key'),
    input,
    h('button', { type: 'submit' }, 'Sign in'),
    message,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    signIn(input.value.trim());
    try {
      // Any authenticated read tells a good key from a bad one.
      await api('GET', '/v1/automations?limit=1', undefined, { probe: true });
      if (!location.hash || location.hash === '#/login') location.hash = '#/automations';
      else void render();
    } catch (err) {
      signOut();
      fill(message, errorLine(err.status === 401 ? 'That key was not accepted.' : err));
    }
  });
  fill(main, form);
  input.focus();
}

async function render() {
  current?.abort();
  current = new AbortController();
  if (!apiKey()) return loginPage();
  nav.hidden = false;
  logout.hidden = false;
  for (const link of nav.querySelectorAll('a')) link.classList.toggle('active', location.hash.startsWith(link.getAttribute('href')));
  const hash = location.hash || '#/automations';
  for (const [pattern, page] of ROUTES) {
    const match = pattern.exec(hash);
    if (!match) continue;
    const signal = current.signal;
    fill(main, h('p', { class: 'muted' }, 'Loading…'));
    try {
      const view = await page(signal, ...match.slice(1).map(decodeURIComponent));
      if (!signal.aborted) fill(main, view);
    } catch (err) {
      if (!signal.aborted) fill(main, errorLine(err));
    }
    return;
  }
  location.hash = '#/automations';
}

logout.addEventListener('click', () => {
  signOut();
  current?.abort();
  location.hash = '#/login';
  loginPage();
});

onUnauthorized(() => {
  signOut();
  loginPage();
});

window.addEventListener('hashchange', () => void render());
void render();
