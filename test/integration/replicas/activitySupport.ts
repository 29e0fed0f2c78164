/**
 * The replica activity routes on their own app over the harness's database: rows are written
 * directly (the replica API and the workflow are not needed to test what a client reads).
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createSecretBox } from '../../../src/crypto/secretBox';
import type { EventBus } from '../../../src/events/bus';
import { createReplicaEventEmitter } from '../../../src/events/replicaEvents';
import { createApp } from '../../../src/http/app';
import { replicaChatRoutes } from '../../../src/http/routes/replicaChats';
import { replicaEventRoutes } from '../../../src/http/routes/replicaEvents';
import { silentLogger } from '../../../src/logger';
import { createReplicasService, type ReplicasService } from '../../../src/services/replicas';
import { harness } from '../../support/harness';

export interface ActivityApp {
  baseUrl: string;
  service: ReplicasService;
  woken: string[];
  close(): Promise<void>;
}

export async function startActivityApp(options: { bus?: EventBus; heartbeatMs?: number } = {}): Promise<ActivityApp> {
  const { repos } = harness().database;
  const bus = options.bus ?? harness().database.bus;
  const woken: string[] = [];
  const unused = () => Promise.reject(new Error('not used by the chat and event routes'));
  const service = createReplicasService({
    repos,
    bus,
    events: createReplicaEventEmitter(repos.replicaEvents, bus),
    temporal: { requestLifecycle: async (replicaId) => (woken.push(replicaId), true), startWorkspace: unused, requestWork: unused },
    secretBox: createSecretBox(harness().config.encryptionKeys),
    timings: { idleMs: 0, archiveAfterMs: 0, historyLimit: 0 },
    outbound: { checkUrl: unused },
  });
  const app = createApp({
    logger: silentLogger,
    identity: harness().api.services.identity,
    routes: [...replicaEventRoutes(service, { logger: silentLogger, heartbeatMs: options.heartbeatMs }), ...replicaChatRoutes(service)],
    bodyLimitBytes: 1 << 20,
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    service,
    woken,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      service.close();
    },
  };
}

export function client(app: ActivityApp, key?: string) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(app.baseUrl + path, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text, headers: res.headers };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown) => call('POST', path, body),
    patch: (path: string, body?: unknown) => call('PATCH', path, body),
    delete: (path: string) => call('DELETE', path),
  };
}

type Status = 'preparing' | 'active' | 'sleeping' | 'archived' | 'error';

export async function insertReplica(organizationId: string, options: { userId?: string | null; status?: Status; codingAgent?: string } = {}) {
  const id = randomUUID();
  await harness().database.db('replicas').insert({
    id,
    organization_id: organizationId,
    user_id: options.userId ?? null,
    name: `ws-${id.slice(0, 8)}`,
    status: options.status ?? 'active',
    coding_agent: options.codingAgent ?? 'agent_1',
    engine_secret_hash: 'unused',
  });
  return id;
}

export async function insertChat(replicaId: string, options: { provider?: string; title?: string; updatedAt?: Date; processing?: boolean } = {}) {
  const id = randomUUID();
  await harness().database.db('replica_chats').insert({
    id,
    replica_id: replicaId,
    provider: options.provider ?? 'agent_1',
    title: options.title ?? 'A chat',
    processing: options.processing ?? false,
    ...(options.updatedAt ? { updated_at: options.updatedAt } : {}),
  });
  return id;
}

let position = 0;
export async function insertMessage(
  replicaId: string,
  chatId: string,
  options: { content?: string; status?: string; senderUserId?: string | null; senderEmail?: string | null; createdAt?: Date } = {},
) {
  const id = randomUUID();
  await harness().database.db('replica_messages').insert({
    id,
    replica_id: replicaId,
    chat_id: chatId,
    content: options.content ?? `message ${id.slice(0, 8)}`,
    status: options.status ?? 'queued',
    queue_position: ++position,
    coding_agent: 'agent_1',
    sender_user_id: options.senderUserId ?? null,
    sender_email: options.senderEmail ?? null,
    ...(options.createdAt ? { created_at: options.createdAt } : {}),
  });
  return id;
}

/** Reads a live SSE response as it arrives: messages (with their `id:` and `event:` lines) and comments. */
export class EventStreamReader {
  messages: Array<{ id: string | null; event: string | null; data: any }> = [];
  comments: string[] = [];
  retry: number | null = null;
  ended = false;
  private readonly waiters = new Set<() => void>();
  readonly status: number;
  readonly contentType: string | null;

  private constructor(
    private readonly response: Response,
    private readonly abort: AbortController,
  ) {
    this.status = response.status;
    this.contentType = response.headers.get('content-type');
  }

  static async open(url: string, key: string, headers: Record<string, string> = {}): Promise<EventStreamReader> {
    const abort = new AbortController();
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}`, ...headers }, signal: abort.signal });
    const reader = new EventStreamReader(res, abort);
    if ((reader.contentType ?? '').startsWith('text/event-stream')) void reader.pump();
    return reader;
  }

  get ids(): string[] {
    return this.messages.map((m) => m.id!);
  }

  private async pump() {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of this.response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          this.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        this.notify();
      }
    } catch {
      // Aborted by close().
    }
    this.ended = true;
    this.notify();
  }

  private parse(block: string) {
    let id: string | null = null;
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
      else if (line.startsWith('retry: ')) this.retry = Number(line.slice(7));
    }
    if (data.length > 0) this.messages.push({ id, event, data: JSON.parse(data.join('\n')) });
  }

  private notify() {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves when `test` holds, checked on every chunk (and every 50 ms); fails after `timeoutMs`. */
  until(what: string, test: () => boolean, timeoutMs = 20_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const finish = (err?: Error) => {
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters.delete(check);
        if (err) reject(err);
        else resolve();
      };
      const check = () => {
        if (test()) finish();
      };
      const timer = setTimeout(
        () => finish(new Error(`timed out waiting for ${what} (have ${this.messages.length} messages, ended=${this.ended})`)),
        timeoutMs,
      );
      const poll = setInterval(check, 50);
      this.waiters.add(check);
    });
  }

  close() {
    this.abort.abort();
  }
}
