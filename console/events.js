// A live log of a workspace's events (GET /v1/replica/{id}/events), newest last.

import { h, fill } from './dom.js';
import { follow } from './sse.js';

/** The readable text inside an agent event or payload: its `text` strings, else compact JSON. */
export function textOf(value) {
  const texts = [];
  const walk = (v, depth) => {
    if (depth > 8 || v === null || typeof v !== 'object') return;
    for (const [key, child] of Object.entries(v)) {
      if (typeof child === 'string' && (key === 'text' || key === 'message' || key === 'result')) texts.push(child);
      else walk(child, depth + 1);
    }
  };
  walk(value, 0);
  const text = texts.length > 0 ? texts.join(' ') : JSON.stringify(value);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** The list keeps the newest events only, so a long-running workspace cannot grow the page without end. */
const KEEP = 500;

/**
 * Follows the events of `replicaId` into a list; `filter(event)` picks which to show.
 * `replay` starts from the workspace's first event instead of from now. Returns the element;
 * the stream ends when `signal` aborts.
 */
export function eventLog(replicaId, { signal, filter = () => true, title = 'Live events', replay = false } = {}) {
  const state = h('span', { class: 'stream-state', 'data-state': 'connecting' }, 'connecting');
  const list = h('ol', { class: 'events', 'aria-live': 'polite' });
  const empty = h('li', { class: 'muted' }, 'No events yet.');
  list.append(empty);
  const setState = (s) => {
    state.dataset.state = s;
    fill(state, s);
  };
  void follow(`/v1/replica/${encodeURIComponent(replicaId)}/events`, {
    signal,
    lastEventId: replay ? '0' : null,
    onStatus: setState,
    onError: (err) => setState(`error: ${err.message}`),
    onMessage: (message) => {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch {
        return;
      }
      // Presence messages carry no id and are not part of the workspace's history.
      if (!event.id || !filter(event)) return;
      empty.remove();
      list.append(
        h(
          'li',
          { 'data-type': event.type, 'data-id': event.id },
          h('time', { datetime: event.ts }, new Date(event.ts).toLocaleTimeString()),
          ' ',
          h('code', {}, event.type),
          ' ',
          h('span', { class: 'event-text' }, textOf(event.payload)),
        ),
      );
      while (list.childElementCount > KEEP) list.firstElementChild.remove();
      list.scrollTop = list.scrollHeight;
    },
  });
  return h('section', { class: 'event-log' }, h('h3', {}, title, ' ', state), list);
}
