// Server-sent events read with fetch: EventSource cannot send an Authorization header, and the
// key must not go in the URL. `follow` reconnects after a drop or an `overflow` message with
// Last-Event-ID, so the server replays only what was missed.

import { ApiError, authHeaders } from './api.js';

/**
 * Splits an event stream into messages, per the WHATWG rules that matter here: lines end in
 * LF, CRLF or CR; a blank line ends a message; `:` lines are comments; one space after the
 * colon is dropped; `data` lines join with LF; `id` persists as the last event id.
 */
export class SseParser {
  constructor() {
    this.buffer = '';
    this.lastEventId = null;
    this.retry = null;
    this.reset();
  }

  reset() {
    this.event = '';
    this.data = [];
    this.sawData = false;
  }

  /** Feeds decoded text; returns the messages it completed: `{event, id, data}`. */
  feed(text) {
    this.buffer += text;
    const out = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  line(line) {
    if (line === '') {
      const message = this.sawData ? { event: this.event || 'message', id: this.lastEventId, data: this.data.join('\n') } : null;
      this.reset();
      return message;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.sawData = true;
    } else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    return null;
  }
}

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Follows `path` until `signal` aborts or `onMessage` returns `'stop'`. `onStatus` hears
 * 'open', 'reconnecting' and 'closed'. A 4xx answer (a JSON Error body) ends it with an
 * ApiError through `onError`: retrying would not change it.
 */
export async function follow(path, { onMessage, onStatus = () => {}, onError = () => {}, signal, lastEventId = null }) {
  let resumeFrom = lastEventId;
  let delay = 500;
  while (!signal?.aborted) {
    const parser = new SseParser();
    try {
      const headers = authHeaders({ accept: 'text/event-stream' });
      if (resumeFrom) headers['last-event-id'] = resumeFrom;
      const res = await fetch(path, { headers, signal, cache: 'no-store' });
      if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        const body = await res.json().catch(() => ({}));
        const error = new ApiError(res.status, body.error ?? `HTTP ${res.status}`, body.details);
        if (res.status >= 400 && res.status < 500 && res.status !== 429) {
          onStatus('closed');
          onError(error);
          return;
        }
        throw error;
      }
      onStatus('open');
      delay = 500;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const message of parser.feed(value)) {
          if (message.id) resumeFrom = message.id;
          // The server closes after `overflow`: reconnecting with the last id resumes.
          if (message.event === 'overflow') continue;
          if (onMessage(message) === 'stop') {
            await reader.cancel().catch(() => {});
            onStatus('closed');
            return;
          }
        }
      }
    } catch (err) {
      if (signal?.aborted) break;
      if (!(err instanceof ApiError) && !(err instanceof TypeError)) throw err;
    }
    if (signal?.aborted) break;
    onStatus('reconnecting');
    await sleep(parser.retry ?? delay, signal);
    delay = Math.min(delay * 2, 10_000);
  }
  onStatus('closed');
}
