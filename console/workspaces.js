// Workspaces: the list, one workspace (chats, previews, hook logs, live events) and one chat
// (its history, live turn events and a message box).

import { get, post } from './api.js';
import { errorLine, fill, h, status, table, when } from './dom.js';
import { eventLog, textOf } from './events.js';

export async function workspacesPage(signal) {
  const { replicas, total } = await get('/v1/replica?limit=100', { signal });
  return h(
    'div',
    { class: 'page' },
    h('h1', {}, 'Workspaces'),
    h('p', { class: 'muted' }, `${total} workspace${total === 1 ? '' : 's'}`),
    table(
      replicas,
      [
        ['Name', (r) => h('a', { href: `#/workspaces/${r.id}` }, r.name)],
        ['Status', (r) => status(r.status)],
        ['Source', (r) => r.source],
        ['Repositories', (r) => r.repositories.map((repo) => repo.name).join(', ')],
        ['Last activity', (r) => when(r.last_activity_at ?? r.created_at)],
      ],
      'No workspaces yet.',
    ),
  );
}

function hookLogs(logs) {
  const entries = [...logs.warm_hooks.logs.map((l) => ['warm', l]), ...logs.start_hooks.logs.map((l) => ['start', l])];
  if (entries.length === 0) return h('p', { class: 'muted' }, 'No hook has run in this workspace.');
  return entries.map(([kind, log]) => {
    const outcome = log.timedOut ? 'timed out' : log.exitCode === 0 ? 'succeeded' : `exit ${log.exitCode ?? '?'}`;
    return h(
      'details',
      { class: 'hook-log' },
      h('summary', {}, `${kind} hook · ${log.hookType} · ${log.hookName} · ${outcome} · ${when(log.executedAt)}`),
      h('pre', {}, log.output || '(no output)'),
      log.outputTruncated ? h('p', { class: 'muted' }, `Output cut to its first part of ${log.outputTotalChars} characters.`) : null,
    );
  });
}

export async function workspacePage(signal, id) {
  const enc = encodeURIComponent(id);
  // This reads chats without waking a sleeping workspace (GET /v1/replica/{id} would wake it).
  const [chats, previews, hooks] = await Promise.all([
    get(`/v1/workspaces/${enc}/chats`, { signal }),
    get(`/v1/workspaces/${enc}/previews`, { signal }).catch((err) => err),
    get(`/v1/replica/${enc}/hooks`, { signal }).catch((err) => err),
  ]);
  return h(
    'div',
    { class: 'page' },
    h('p', {}, h('a', { href: '#/workspaces' }, '← Workspaces')),
    h('h1', {}, 'Workspace ', h('code', {}, id)),
    h('p', { class: 'actions' }, h('a', { class: 'button', href: `#/workspaces/${enc}/terminal` }, 'Open a terminal')),
    h('div', { class: 'columns' },
      h(
        'section',
        {},
        h('h2', {}, 'Chats'),
        table(
          chats.chats,
          [
            ['Title', (c) => h('a', { href: `#/workspaces/${enc}/chats/${c.id}` }, c.title)],
            ['Agent', (c) => c.provider],
            ['Busy', (c) => (c.processing ? 'yes' : 'no')],
            ['Updated', (c) => when(c.updatedAt)],
          ],
          'No chats yet.',
        ),
        h('h2', {}, 'Previews'),
        previews instanceof Error
          ? errorLine(previews)
          : table(
              previews.previews,
              [
                ['Port', (p) => String(p.port)],
                ['URL', (p) => h('a', { href: p.url, target: '_blank', rel: 'noopener noreferrer' }, p.url)],
                ['Access', (p) => (p.authenticated ? 'members' : 'public')],
              ],
              'No port is shared.',
            ),
        h('h2', {}, 'Hook logs'),
        hooks instanceof Error ? errorLine(hooks) : hookLogs(hooks),
      ),
      eventLog(id, { signal }),
    ),
  );
}

const chatOf = (event) => event.payload?.chatId ?? event.payload?.chat?.id;

export async function chatPage(signal, id, chatId) {
  const enc = encodeURIComponent(id);
  const { chats } = await get(`/v1/workspaces/${enc}/chats`, { signal });
  const chat = chats.find((c) => c.id === chatId);
  if (!chat) throw new Error('This chat is not in the workspace.');
  const history = await get(`/v1/replica/${enc}/history?chat_id=${encodeURIComponent(chatId)}&limit=100`, { signal });
  const transcript = h(
    'ol',
    { class: 'transcript' },
    history.events.length === 0
      ? h('li', { class: 'muted' }, 'No messages yet.')
      : history.events.map((e) => h('li', {}, h('code', {}, e.type), ' ', textOf(e.payload))),
  );
  const input = h('textarea', { id: 'message', name: 'message', rows: 3, required: true, placeholder: 'Write to the agent…' });
  const message = h('div');
  const form = h('form', { class: 'card', id: 'send-message' }, h('label', { for: 'message' }, 'Message'), input, h('button', { type: 'submit' }, 'Send'), message);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const answer = await post(`/v1/workspaces/${enc}/chats/${encodeURIComponent(chatId)}/messages`, { message: input.value });
      input.value = '';
      fill(message, h('p', { class: 'ok', role: 'status' }, answer.queued ? `Queued at position ${answer.position}.` : 'Sent.'));
    } catch (err) {
      fill(message, errorLine(err));
    }
  });
  return h(
    'div',
    { class: 'page' },
    h('p', {}, h('a', { href: `#/workspaces/${enc}` }, '← Workspace')),
    h('h1', {}, chat.title, ' ', h('span', { class: 'muted' }, chat.provider)),
    history.waking ? h('p', { class: 'muted' }, 'The workspace is waking up.') : null,
    h('div', { class: 'columns' }, h('section', {}, h('h2', {}, 'History'), transcript, form), eventLog(id, { signal, filter: (e) => chatOf(e) === chatId, title: 'Live turn events' })),
  );
}
