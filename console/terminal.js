// A terminal of a workspace, drawn by xterm.js (served from its npm package). Output comes
// from the session's event stream (a reconnect resumes from the last output offset); what is
// typed goes out in ordered input batches: one request at a time, keystrokes typed meanwhile
// gathered into the next batch.

import { Terminal } from '/console/vendor/xterm.mjs';
import { api, get, post } from './api.js';
import { errorLine, fill, h, table, when } from './dom.js';
import { follow } from './sse.js';

const MAX_BATCH = 65536;
const FONT_SIZE = 14;
const ROWS = 28;

/** Columns that fit `el`'s width, measured with the terminal's own font. */
function columnsFor(el) {
  const probe = h('span', { class: 'xterm-probe' }, 'W'.repeat(50));
  document.body.append(probe);
  const cell = probe.getBoundingClientRect().width / 50;
  probe.remove();
  const cols = Math.floor((el.clientWidth - 24) / (cell || 8.4));
  return Math.max(20, Math.min(300, cols));
}

function openTerminal(signal, base, session, box, stateLine) {
  const term = new Terminal({ fontFamily: 'monospace', fontSize: FONT_SIZE, rows: ROWS, cols: columnsFor(box), convertEol: false, scrollback: 5000 });
  term.open(box);
  box.dataset.session = session.id;
  signal.addEventListener('abort', () => term.dispose(), { once: true });
  const path = `${base}/${encodeURIComponent(session.id)}`;
  const say = (text, cls = 'muted') => fill(stateLine, h('span', { class: cls }, text));

  // A new generation per page: batches of an earlier page (or tab) can never interleave with ours.
  const generation = Date.now();
  let sequence = 0;
  let pending = '';
  let sending = false;
  const flush = async () => {
    if (sending || pending === '' || signal.aborted) return;
    sending = true;
    const data = pending.slice(0, MAX_BATCH);
    pending = pending.slice(data.length);
    try {
      await post(`${path}/input`, { data, generation, sequence: sequence++ });
    } catch (err) {
      say(`Input not delivered: ${err.message}`, 'error');
    } finally {
      sending = false;
    }
    void flush();
  };
  term.onData((data) => {
    pending += data;
    void flush();
  });
  term.onResize(({ cols, rows }) => void post(`${path}/resize`, { cols, rows }).catch((err) => say(`Resize refused: ${err.message}`, 'error')));
  const refit = () => {
    const cols = columnsFor(box);
    if (cols !== term.cols) term.resize(cols, ROWS);
  };
  let timer = null;
  const onWindowResize = () => {
    clearTimeout(timer);
    timer = setTimeout(refit, 150);
  };
  window.addEventListener('resize', onWindowResize);
  signal.addEventListener('abort', () => window.removeEventListener('resize', onWindowResize), { once: true });

  void follow(`${path}/stream`, {
    signal,
    onStatus: (s) => {
      box.dataset.stream = s;
      if (s === 'open') say('Connected.');
      else if (s === 'reconnecting') say('Reconnecting…');
    },
    onError: (err) => say(err.message, 'error'),
    onMessage: (message) => {
      const body = JSON.parse(message.data);
      if (message.event === 'output') term.write(body.data);
      if (message.event === 'exit') {
        term.write(`\r\n[the shell exited${body.exitCode === null || body.exitCode === undefined ? '' : ` with code ${body.exitCode}`}]\r\n`);
        box.dataset.stream = 'exited';
        say('The shell has exited.');
        return 'stop';
      }
      return undefined;
    },
  });
  term.focus();
  return term;
}

export async function terminalPage(signal, workspaceId) {
  const base = `/v1/workspaces/${encodeURIComponent(workspaceId)}/terminal/sessions`;
  const box = h('div', { class: 'terminal', id: 'terminal' });
  const stateLine = h('p', { class: 'terminal-state' });
  const sessionsBox = h('div', { id: 'terminal-sessions' });
  let current = null;

  const attach = (session) => {
    current?.abort();
    current = new AbortController();
    signal.addEventListener('abort', () => current.abort(), { once: true });
    box.replaceChildren();
    openTerminal(current.signal, base, session, box, stateLine);
  };

  const listSessions = async () => {
    const { sessions } = await get(base, { signal });
    fill(
      sessionsBox,
      table(
        sessions,
        [
          ['Session', (s) => h('button', { type: 'button', class: 'link', onclick: () => attach(s) }, s.title)],
          ['Opened', (s) => when(s.createdAt)],
          ['State', (s) => (s.exited ? `exited${s.exitCode === undefined ? '' : ` (${s.exitCode})`}` : 'running')],
          [
            '',
            (s) =>
              h('button', {
                type: 'button',
                class: 'secondary',
                onclick: async () => {
                  await api('DELETE', `${base}/${encodeURIComponent(s.id)}`).catch((err) => fill(stateLine, errorLine(err)));
                  if (box.dataset.session === s.id) {
                    current?.abort();
                    box.replaceChildren();
                  }
                  await listSessions();
                },
              }, 'Close'),
          ],
        ],
        'No terminal is open.',
      ),
    );
    return sessions;
  };

  const create = h('button', { type: 'button', id: 'new-terminal' }, 'New terminal');
  create.addEventListener('click', async () => {
    create.disabled = true;
    try {
      const { session } = await post(base, { cols: columnsFor(box), rows: ROWS });
      await listSessions();
      attach(session);
    } catch (err) {
      fill(stateLine, errorLine(err));
    } finally {
      create.disabled = false;
    }
  });

  await listSessions();
  return h(
    'div',
    { class: 'page' },
    h('p', {}, h('a', { href: `#/workspaces/${encodeURIComponent(workspaceId)}` }, '← Workspace')),
    h('h1', {}, 'Terminal'),
    h('div', { class: 'actions' }, create),
    sessionsBox,
    stateLine,
    box,
  );
}
