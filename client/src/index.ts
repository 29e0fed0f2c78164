/**
 * A typed client for Hangar's HTTP API. The request and response types are generated from the
 * OpenAPI document the service serves (`openapi.ts`); the calls go through openapi-fetch:
 *
 *   const hangar = createHangarClient({ baseUrl: 'http://localhost:8080', apiKey });
 *   const { replicas } = await hangar.call(hangar.api.GET('/v1/replica', { params: { query: { limit: 10 } } }));
 *
 * `call` turns an answer other than 2xx into a `HangarError` carrying the spec's Error body;
 * `events` follows a replica's server-sent events, resuming by Last-Event-ID.
 */
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './openapi';

export type { components, operations, paths };
export type HangarApi = Client<paths>;

export interface HangarClientOptions {
  /** Where Hangar's API listens, e.g. `https://hangar.example.com`. */
  baseUrl: string;
  /** An API key (`Authorization: Bearer …`). */
  apiKey: string;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof globalThis.fetch;
  /** Sent as User-Agent where the runtime allows it. */
  userAgent?: string;
}

/** The spec's Error body, with the status that carried it. */
export class HangarError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly details: string | null,
    /** `Retry-After` in seconds on 429 and 503, when the server sent one. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(details ? `${error}: ${details}` : error);
    this.name = 'HangarError';
  }
}

/** One message of a replica's events stream. */
export interface ReplicaEvent {
  /** The event id (absent on presence messages, which are not stored). */
  id?: string;
  ts: string;
  type: string;
  payload: Record<string, unknown>;
}

export interface HangarClient {
  /** Every operation of the API, typed: `api.GET('/v1/replica/{id}', { params: { path: { id } } })`. */
  readonly api: HangarApi;
  /** Awaits an openapi-fetch answer: its data on 2xx, else throws `HangarError`. */
  call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T>;
  /**
   * Follows a replica's events until `signal` aborts or the server ends the stream for good;
   * reconnects by Last-Event-ID when the connection drops or the server says `overflow`.
   */
  events(replicaId: string, options?: { after?: string; signal?: AbortSignal }): AsyncGenerator<ReplicaEvent>;
}

function errorOf(response: Response, body: unknown): HangarError {
  const shaped = body && typeof body === 'object' ? (body as { error?: unknown; details?: unknown }) : {};
  const error = typeof shaped.error === 'string' ? shaped.error : response.statusText || `HTTP ${response.status}`;
  const details = typeof shaped.details === 'string' ? shaped.details : null;
  const retry = Number(response.headers.get('retry-after'));
  return new HangarError(response.status, error, details, Number.isFinite(retry) && retry >= 0 && response.headers.has('retry-after') ? retry : null);
}

/** Parses `text/event-stream` bytes into messages (`id`, `event`, `data`), per the HTML spec's rules that matter here. */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ id?: string; event: string; data: string }> {
  const decoder = new TextDecoder();
  let buffered = '';
  let data: string[] = [];
  let event = 'message';
  let id: string | undefined;
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffered.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + (buffered.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length) yield { id, event, data: data.join('\n') };
          data = [];
          event = 'message';
          id = undefined;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(text);
        else if (field === 'event') event = text;
        else if (field === 'id') id = text;
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}

export function createHangarClient(options: HangarClientOptions): HangarClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    authorization: `Bearer ${options.apiKey}`,
    ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
    ...extra,
  });
  const auth: Middleware = {
    onRequest({ request }) {
      for (const [name, value] of Object.entries(headers())) request.headers.set(name, value);
      return request;
    },
  };
  const api = createFetchClient<paths>({ baseUrl, fetch: (request) => fetchImpl(request) });
  api.use(auth);

  return {
    api,
    async call(pending) {
      const { data, error, response } = await pending;
      if (!response.ok) throw errorOf(response, error);
      return data as never;
    },
    async *events(replicaId, { after, signal } = {}) {
      let lastId = after;
      for (;;) {
        const url = `${baseUrl}/v1/replica/${encodeURIComponent(replicaId)}/events`;
        const response = await fetchImpl(url, { headers: headers({ accept: 'text/event-stream', ...(lastId ? { 'last-event-id': lastId } : {}) }), signal });
        if (!response.ok || !response.body) throw errorOf(response, await response.json().catch(() => null));
        let overflowed = false;
        try {
          for await (const message of readServerSentEvents(response.body)) {
            if (message.event === 'overflow') {
              overflowed = true;
              break;
            }
            const parsed = JSON.parse(message.data) as ReplicaEvent;
            if (message.id) lastId = message.id;
            yield parsed;
          }
        } catch (err) {
          if (signal?.aborted) return;
          // A dropped connection resumes where it left off, as an EventSource would.
          if (!(err instanceof TypeError)) throw err;
          overflowed = true;
        }
        if (signal?.aborted || !overflowed) return;
      }
    },
  };
}
